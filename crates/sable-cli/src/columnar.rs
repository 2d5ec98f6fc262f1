//! `sable decode --format arrow|parquet --output DIR`: each message a row of its template's
//! table, the tables written as they fill to one Arrow IPC or Parquet file per template
//! (docs/columnar.md).

use std::io;
use std::path::Path;

use sable_columnar::files::{DirWriter, Format};
use sable_columnar::{CaptureMeta, Columnar, Extras, Mdp3Meta, Options, RowMeta, TableInfo};
use sable_framing::capture::Flow;
use sable_framing::FrameMeta;
use sable_ir::Ir;
use sable_otf::decode::DecodeError;

use crate::otf::Place;

/// Decoded messages into tables, and the tables into files.
pub(crate) struct ColumnarSink {
    columnar: Columnar,
    tables: Vec<TableInfo>,
    writer: Option<DirWriter>,
    /// The last flow met and its text (formatted once per flow change, not per message).
    flow: Option<(Flow, String)>,
}

impl ColumnarSink {
    /// Tables for `ir`'s messages, written to `dir` in `format`; `capture` and `mdp3` say
    /// which per-message columns they have.
    pub(crate) fn new(
        ir: &Ir,
        dir: &Path,
        format: Format,
        capture: bool,
        mdp3: bool,
    ) -> Result<ColumnarSink, String> {
        let columnar = Columnar::new(ir, Extras { capture, mdp3 }, Options::default())
            .map_err(|e| e.to_string())?;
        Ok(ColumnarSink {
            tables: columnar.tables(),
            columnar,
            writer: Some(DirWriter::new(dir, format)?),
            flow: None,
        })
    }

    /// Adds the message in `bytes`, found at `place`, as a row; writes any table that filled
    /// up. The outer error is the output's; the inner one the message's (no row was added).
    pub(crate) fn message(
        &mut self,
        bytes: &[u8],
        place: &Place,
    ) -> io::Result<Result<usize, DecodeError>> {
        let flow = match &place.capture {
            Some(c) => {
                if self.flow.as_ref().is_none_or(|(f, _)| *f != c.flow) {
                    self.flow = Some((c.flow, c.flow.to_string()));
                }
                self.flow.as_ref().map_or("", |(_, text)| text.as_str())
            }
            None => "",
        };
        let meta = RowMeta {
            offset: place.offset,
            capture: place.capture.as_ref().map(|c| CaptureMeta {
                timestamp_ns: c.timestamp_ns,
                packet_offset: c.packet_offset,
                flow,
            }),
            mdp3: match place.meta {
                Some(FrameMeta::Mdp3 {
                    sequence_number,
                    sending_time_ns,
                }) => Some(Mdp3Meta {
                    sequence_number,
                    sending_time_ns,
                }),
                _ => None,
            },
        };
        let result = self.columnar.push(bytes, &meta);
        while let Some((t, batch)) = self.columnar.take_full() {
            self.write(t, &batch)?;
        }
        Ok(result)
    }

    fn write(&mut self, t: usize, batch: &sable_columnar::RecordBatch) -> io::Result<()> {
        match self.writer.as_mut() {
            Some(w) => w.write(t, &self.tables[t], batch).map_err(io::Error::other),
            None => Ok(()),
        }
    }

    /// Writes what is left and closes the files; returns a note on values written as null
    /// for want of an Arrow form, if any.
    pub(crate) fn finish(&mut self) -> io::Result<Option<String>> {
        for (t, batch) in self.columnar.finish() {
            self.write(t, &batch)?;
        }
        if let Some(w) = self.writer.take() {
            w.finish().map_err(io::Error::other)?;
        }
        let n = self.columnar.unrepresentable();
        Ok((n > 0).then(|| {
            format!(
                "{n} value{} out of its column's range (a timestamp beyond Arrow's, a decimal \
                 that does not fit its scale) written as null",
                if n == 1 { "" } else { "s" }
            )
        }))
    }
}

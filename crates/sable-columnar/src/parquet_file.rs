//! A Parquet file written through parquet's column-level API rather than its `ArrowWriter`:
//! the same file (the Arrow schema stored in its metadata, one `ArrowColumnWriter` per leaf
//! column, row groups closed at the same limits), so that some columns can later be written by
//! column chunk writers of our own beside arrow-rs's (docs/benchmarks.md, "Columnar output").

use std::io::Write;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnWriter, ArrowRowGroupWriterFactory};
use parquet::arrow::{add_encoded_arrow_schema_to_metadata, ArrowSchemaConverter};
use parquet::errors::Result;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

/// A Parquet file being written, batch by batch.
pub struct ParquetFile<W: Write + Send> {
    file: SerializedFileWriter<W>,
    columns: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    max_rows: Option<usize>,
    max_bytes: Option<usize>,
    /// The row group being filled, if any.
    group: Option<RowGroup>,
}

/// A row group's column writers, one per leaf, and its rows so far.
struct RowGroup {
    writers: Vec<ArrowColumnWriter>,
    rows: usize,
}

impl RowGroup {
    /// Encodes `batch` into the columns' pages (held until the group is flushed).
    fn write(&mut self, schema: &SchemaRef, batch: &RecordBatch) -> Result<()> {
        self.rows += batch.num_rows();
        let mut writers = self.writers.iter_mut();
        for (field, column) in schema.fields().iter().zip(batch.columns()) {
            for leaf in compute_leaves(field, column)? {
                let Some(writer) = writers.next() else {
                    return Err(parquet::errors::ParquetError::General(
                        "more leaf columns than the schema has".into(),
                    ));
                };
                writer.write(&leaf)?;
            }
        }
        Ok(())
    }

    /// What the row group's pages will take once encoded, as arrow-rs estimates it.
    fn estimated_bytes(&self) -> usize {
        self.writers
            .iter()
            .map(ArrowColumnWriter::get_estimated_total_bytes)
            .sum()
    }
}

impl<W: Write + Send> ParquetFile<W> {
    /// Starts a file of `schema` on `out`, with the Arrow schema in its metadata (what readers
    /// restore dictionary, timestamp and decimal types from), as `ArrowWriter` would.
    pub fn new(out: W, schema: SchemaRef, mut props: WriterProperties) -> Result<Self> {
        let descr = ArrowSchemaConverter::new()
            .with_coerce_types(props.coerce_types())
            .convert(&schema)?;
        add_encoded_arrow_schema_to_metadata(&schema, &mut props);
        let max_rows = props.max_row_group_row_count();
        let max_bytes = props.max_row_group_bytes();
        let file = SerializedFileWriter::new(out, descr.root_schema_ptr(), Arc::new(props))?;
        let columns = ArrowRowGroupWriterFactory::new(&file, schema.clone());
        Ok(ParquetFile {
            file,
            columns,
            schema,
            max_rows,
            max_bytes,
            group: None,
        })
    }

    /// Writes `batch`, splitting it across row groups where the row or byte limit falls (as
    /// `ArrowWriter::write` does, so that the files come out the same).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        let mut remaining = batch.clone();
        loop {
            let group = match &mut self.group {
                Some(group) => group,
                none => none.insert(RowGroup {
                    writers: self
                        .columns
                        .create_column_writers(self.file.flushed_row_groups().len())?,
                    rows: 0,
                }),
            };
            let buffered = group.rows;
            let mut split_at = match self.max_rows {
                Some(max) if buffered + remaining.num_rows() > max => Some(max - buffered),
                _ => None,
            };
            let candidate_rows = split_at.unwrap_or_else(|| remaining.num_rows());
            if let (Some(max_bytes), true) = (self.max_bytes, buffered > 0) {
                let bytes = group.estimated_bytes();
                if bytes >= max_bytes {
                    self.flush()?;
                    continue;
                }
                let fit = (max_bytes - bytes).checked_div(bytes / buffered);
                if let Some(fit) = fit.filter(|&fit| candidate_rows > fit) {
                    if fit == 0 {
                        self.flush()?;
                        continue;
                    }
                    split_at = Some(fit);
                }
            }
            let rest = split_at.map(|at| {
                let rest = remaining.slice(at, remaining.num_rows() - at);
                remaining = remaining.slice(0, at);
                rest
            });
            let Some(group) = self.group.as_mut() else {
                unreachable!("created above")
            };
            group.write(&self.schema, &remaining)?;
            let full = self.max_rows.is_some_and(|max| group.rows >= max)
                || self
                    .max_bytes
                    .is_some_and(|max| group.estimated_bytes() >= max);
            if full {
                self.flush()?;
            }
            match rest {
                Some(rest) => remaining = rest,
                None => return Ok(()),
            }
        }
    }

    /// Closes the row group being filled, if any, writing its column chunks to the file.
    fn flush(&mut self) -> Result<()> {
        let Some(group) = self.group.take() else {
            return Ok(());
        };
        let mut out = self.file.next_row_group()?;
        for writer in group.writers {
            writer.close()?.append_to_row_group(&mut out)?;
        }
        out.close()?;
        Ok(())
    }

    /// Writes the last row group and the footer.
    pub fn close(mut self) -> Result<()> {
        self.flush()?;
        self.file.close()?;
        Ok(())
    }
}

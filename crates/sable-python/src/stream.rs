//! Files and captures decoded into Arrow batches as they are read, in pieces of 64 KiB, as
//! `sable decode --format parquet` reads them: memory holds an incomplete message or capture
//! record and the batches not yet taken, never the whole input (docs/python.md, "The engine
//! package").

use std::collections::VecDeque;
use std::io::Read;
use std::sync::Arc;

use arrow_array::RecordBatch;
use sable_columnar::{CaptureMeta, Columnar, Mdp3Meta, RowMeta, TableInfo};
use sable_framing::capture::{
    CaptureError, CaptureStream, ErrorKind, Message, MessageFramer, PayloadDecoder, TcpReassembler,
};
use sable_framing::{
    mdp3_packet_meta, FrameMeta, Framing, StreamFrameError, StreamFrameRef, StreamFramer,
    MDP3_MESSAGES, MDP3_PACKET_HEADER_LEN,
};
use sable_otf::decode::{DecodeErrorKind, Decoder};

use crate::{Place, ReadOptions, Stop};

/// How much is read at a time.
const CHUNK: usize = 64 << 10;

/// The most bytes a message may declare before it is an error (as `sable decode`'s default
/// `--max-message-size`).
const MAX_MESSAGE: usize = 1 << 20;

/// Decoding a source step by step: each step gives the next batch that filled up.
pub(crate) trait Step: Send {
    /// The next batch (its table's index), `None` at the end, or what stopped a strict read.
    fn step(&mut self) -> Result<Option<(usize, RecordBatch)>, Stop>;
    /// The problems met so far (a lenient read), in the words of `sable decode`.
    fn problems(&self) -> &[String];
    /// The tables, by index.
    fn tables(&self) -> &[TableInfo];
}

/// The decoder's sizing of a message that may not have arrived whole: a truncated one asks for
/// more bytes (as many as what was read of it declares), anything else is final.
pub(crate) fn sizer(
    decoder: Arc<Decoder>,
) -> impl Fn(&[u8]) -> Result<usize, String> + Clone + Send + Sync {
    move |bytes: &[u8]| match decoder.message_length(bytes) {
        Ok(len) => Ok(len),
        Err(e) if e.kind() == DecodeErrorKind::Truncated => {
            Ok(e.needs().unwrap_or(0).max(bytes.len() + 1))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// How the bytes become messages. (One per reading: the variants' sizes do not matter.)
#[allow(clippy::large_enum_variant)]
enum Scan<F> {
    Capture {
        stream: CaptureStream,
        payloads: PayloadDecoder,
        messages: MessageFramer<F>,
    },
    Framed {
        framing: Framing,
        framer: StreamFramer<F>,
        /// With `mdp3`: the packet header's bytes until it is whole, then what it says.
        header: Vec<u8>,
        meta: Option<FrameMeta>,
        /// Where the framer's offsets start in the input (after an MDP 3.0 packet header).
        base: u64,
    },
}

/// A source being decoded into tables.
pub(crate) struct Reading<'s, F> {
    source: Box<dyn Read + Send + 's>,
    scan: Scan<F>,
    out: Out,
    chunk: Vec<u8>,
    /// Nothing more will be read: the end of the source, a stop, or raw framing that cannot
    /// go on.
    done: bool,
}

/// Where messages go: the tables, and the batches and problems they give.
struct Out {
    columnar: Columnar,
    tables: Vec<TableInfo>,
    templates: Option<Vec<u64>>,
    strict: bool,
    ready: VecDeque<(usize, RecordBatch)>,
    problems: Vec<String>,
    /// What stopped a strict read (given after the batches before it).
    stop: Option<Stop>,
    /// The last flow met and its text (formatted once per flow change).
    flow: Option<(sable_framing::capture::Flow, String)>,
}

impl<'s, F> Reading<'s, F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone + Send,
{
    /// Decodes `source` by `options` into `columnar`'s tables; `message_length` sizes messages
    /// (see [`sizer`]).
    pub(crate) fn new(
        source: Box<dyn Read + Send + 's>,
        options: &ReadOptions,
        columnar: Columnar,
        message_length: F,
        strict: bool,
    ) -> Reading<'s, F> {
        let scan = if options.pcap {
            Scan::Capture {
                stream: CaptureStream::new(),
                payloads: PayloadDecoder::new(options.filter.clone(), TcpReassembler::new()),
                messages: MessageFramer::new(options.framing, message_length)
                    .with_max_frame_len(MAX_MESSAGE),
            }
        } else {
            let stream_framing = if options.framing == Framing::Mdp3 {
                MDP3_MESSAGES
            } else {
                options.framing
            };
            Scan::Framed {
                framing: options.framing,
                framer: StreamFramer::new(stream_framing, message_length)
                    .expect("every framing but mdp3 frames streams")
                    .with_max_frame_len(MAX_MESSAGE),
                header: Vec::new(),
                meta: None,
                base: 0,
            }
        };
        Reading {
            source,
            scan,
            out: Out {
                tables: columnar.tables(),
                columnar,
                templates: options.templates.clone(),
                strict,
                ready: VecDeque::new(),
                problems: Vec::new(),
                stop: None,
                flow: None,
            },
            chunk: vec![0; CHUNK],
            done: false,
        }
    }

    /// Takes the next piece of the source.
    fn read(&mut self) -> Result<(), Stop> {
        let n = loop {
            match self.source.read(&mut self.chunk) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Stop::Io(e.to_string())),
            }
        };
        let out = &mut self.out;
        if n == 0 {
            self.done = true;
            self.scan.finish(out);
            for b in out.columnar.finish() {
                out.ready.push_back(b);
            }
            return Ok(());
        }
        if self.scan.push(&self.chunk[..n], out) {
            // Raw framing stopped at a message it cannot size: nothing says where a next one
            // would start.
            self.done = true;
            for b in out.columnar.finish() {
                out.ready.push_back(b);
            }
        }
        Ok(())
    }
}

impl<F> Step for Reading<'_, F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone + Send,
{
    fn step(&mut self) -> Result<Option<(usize, RecordBatch)>, Stop> {
        loop {
            if let Some(b) = self.out.ready.pop_front() {
                return Ok(Some(b));
            }
            if let Some(stop) = self.out.stop.take() {
                self.done = true;
                return Err(stop);
            }
            if self.done {
                return Ok(None);
            }
            self.read()?;
        }
    }

    fn problems(&self) -> &[String] {
        &self.out.problems
    }

    fn tables(&self) -> &[TableInfo] {
        &self.out.tables
    }
}

impl<F> Scan<F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    /// Frames the next bytes; returns whether framing cannot go on (raw framing stopped).
    fn push(&mut self, data: &[u8], out: &mut Out) -> bool {
        match self {
            Scan::Capture {
                stream,
                payloads,
                messages,
            } => {
                stream.extend(data);
                while out.stop.is_none() {
                    let Some(packet) = stream.next_packet() else {
                        break;
                    };
                    packets(packet, payloads, messages, out);
                }
                false
            }
            Scan::Framed {
                framing,
                framer,
                header,
                meta,
                base,
            } => {
                let mut data = data;
                if *framing == Framing::Mdp3 && meta.is_none() {
                    let n = data.len().min(MDP3_PACKET_HEADER_LEN - header.len());
                    header.extend_from_slice(&data[..n]);
                    data = &data[n..];
                    *meta = mdp3_packet_meta(header);
                    if meta.is_none() {
                        return false;
                    }
                    *base = MDP3_PACKET_HEADER_LEN as u64;
                    framer.reset(0);
                }
                let raw = *framing == Framing::Raw;
                let at = (*base, *meta);
                framer.push_with(data, 0, 0, &mut |item| out.framed(item, at, raw));
                if raw && framer.stopped() {
                    let (offset, bytes) = framer.pending();
                    if !bytes.is_empty() {
                        out.message(bytes, place(*base + offset, *meta));
                    }
                    return true;
                }
                false
            }
        }
    }

    /// Ends the input.
    fn finish(&mut self, out: &mut Out) {
        match self {
            Scan::Capture {
                stream,
                payloads,
                messages,
            } => {
                while out.stop.is_none() {
                    let Some(packet) = stream.next_packet() else {
                        break;
                    };
                    packets(packet, payloads, messages, out);
                }
                while out.stop.is_none() {
                    let Some(packet) = stream.finish() else { break };
                    packets(packet, payloads, messages, out);
                }
                payloads.finish(&mut |payload| match payload {
                    Ok(payload) => messages.payload(&payload, &mut |item| out.captured(item)),
                    Err(error) => out.capture_problem(&error),
                });
                messages.finish(&mut |item| out.captured(item));
            }
            Scan::Framed {
                framing,
                framer,
                header,
                meta,
                base,
            } => {
                if *framing == Framing::Mdp3 && meta.is_none() {
                    out.problem(format!(
                        "at byte 0: MDP 3.0 packet of {} bytes is shorter than its \
                         {MDP3_PACKET_HEADER_LEN}-byte header",
                        header.len()
                    ));
                    return;
                }
                if *framing == Framing::Raw {
                    // What is left is a message cut short: decoded, it says so.
                    let (offset, bytes) = framer.pending();
                    if !bytes.is_empty() {
                        out.message(bytes, place(*base + offset, *meta));
                    }
                    return;
                }
                let at = (*base, *meta);
                framer.finish_with(&mut |item| out.framed(item, at, false));
            }
        }
    }
}

/// A capture's packet decoded into payloads, framed into messages.
fn packets<F>(
    packet: Result<sable_framing::capture::Packet<'_>, CaptureError>,
    payloads: &mut PayloadDecoder,
    messages: &mut MessageFramer<F>,
    out: &mut Out,
) where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    match packet {
        Ok(packet) => payloads.packet(&packet, &mut |payload| match payload {
            Ok(payload) => messages.payload(&payload, &mut |item| out.captured(item)),
            Err(error) => out.capture_problem(&error),
        }),
        Err(error) => out.capture_problem(&error),
    }
}

fn place(offset: u64, meta: Option<FrameMeta>) -> Place {
    Place {
        offset,
        capture: None,
        meta,
    }
}

impl Out {
    /// A framing or capture problem: the end of a strict read, or one more problem.
    fn problem(&mut self, text: String) {
        if self.stop.is_some() {
            return;
        }
        if self.strict {
            self.stop = Some(Stop::Problem(text));
        } else {
            self.problems.push(text);
        }
    }

    fn capture_problem(&mut self, error: &CaptureError) {
        // A sequence gap or repeat of MDP 3.0 is what the capture shows, not a problem.
        if error.kind != ErrorKind::Sequence {
            self.problem(error.to_string());
        }
    }

    fn captured(&mut self, item: Result<Message<'_>, CaptureError>) {
        match item {
            Ok(m) => {
                let place = Place {
                    offset: m.offset,
                    capture: Some((m.timestamp_ns, m.packet_offset as u64, m.flow)),
                    meta: m.meta,
                };
                self.message(&m.bytes, place);
            }
            Err(error) => self.capture_problem(&error),
        }
    }

    fn framed(
        &mut self,
        item: Result<StreamFrameRef<'_>, StreamFrameError>,
        (base, meta): (u64, Option<FrameMeta>),
        raw: bool,
    ) {
        match item {
            Ok(frame) => self.message(
                frame.bytes,
                place(base + frame.stream_offset, frame.meta.or(meta)),
            ),
            // Raw framing stops at the error: the bytes there are decoded after the push, with
            // the decoder's own words; a message too large is said so first.
            Err(error) if raw => {
                if let Some(declared) = error.declared_len {
                    self.problem(format!(
                        "at byte {}: the message declares at least {declared} bytes, more than \
                         the {MAX_MESSAGE} bytes a message may take",
                        base + error.stream_offset
                    ));
                }
            }
            Err(error) => self.problem(format!(
                "at byte {}: {}",
                base + error.stream_offset,
                error.message
            )),
        }
    }

    /// Decodes a message into its table's row.
    fn message(&mut self, bytes: &[u8], place: Place) {
        if self.stop.is_some() {
            return;
        }
        if let Some(ids) = &self.templates {
            let id = self.columnar.decoder().template_id_of(bytes);
            if !id.is_some_and(|id| ids.contains(&id)) {
                return;
            }
        }
        let flow = match &place.capture {
            Some((_, _, f)) => {
                if self.flow.as_ref().is_none_or(|(g, _)| g != f) {
                    self.flow = Some((*f, f.to_string()));
                }
                self.flow.as_ref().map_or("", |(_, t)| t.as_str())
            }
            None => "",
        };
        let meta = RowMeta {
            offset: place.offset,
            capture: place.capture.map(|(ts, po, _)| CaptureMeta {
                timestamp_ns: ts,
                packet_offset: po,
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
        let outcome = self.columnar.push(bytes, &meta);
        while let Some(b) = self.columnar.take_full() {
            self.ready.push_back(b);
        }
        match outcome {
            Ok(used) if used < bytes.len() => self.problem(format!(
                "{}: the message takes {used} bytes of its {}-byte frame; {} bytes are left over",
                place.describe(),
                bytes.len(),
                bytes.len() - used
            )),
            Ok(_) => {}
            Err(e) if self.strict => self.stop = Some(Stop::Decode(e, place.describe())),
            Err(e) => self.problems.push(format!(
                "{}, message byte {} ({}, {}): {}",
                place.describe(),
                e.offset(),
                e.field(),
                e.kind().name(),
                e.message()
            )),
        }
    }
}

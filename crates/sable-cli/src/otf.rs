//! `sable decode` and `sable encode`: SBE messages to canonical JSON or text and back, by the IR
//! alone (see docs/json.md and docs/framing.md).

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use sable_framing::capture::{Filter, Flow};
use sable_framing::{mdp3_packet_header, FrameMeta, Framing, SofhForm};
use sable_ir::{ByteOrder, Ir, PrimitiveType};
use sable_otf::decode::Decoder;
use sable_otf::encode::Encoder;
use sable_otf::json::JsonPrinter;
use sable_otf::text::TextPrinter;

use crate::input::report;
use crate::stream::Source;

/// The printed form of decoded messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TextFormat {
    /// One canonical JSON object per message, one per line (JSON Lines)
    Json,
    /// Indented `name: value` lines, a blank line between messages
    Text,
    /// One Arrow IPC file per message template in the --output directory (docs/columnar.md)
    #[cfg(feature = "columnar")]
    Arrow,
    /// One Parquet file per message template in the --output directory (docs/columnar.md)
    #[cfg(feature = "columnar")]
    Parquet,
}

/// What `sable decode` was asked.
pub struct DecodeRequest<'a> {
    pub ir: &'a Ir,
    pub framing: Framing,
    pub format: TextFormat,
    /// JSON with readable forms beside raw values.
    pub readable: bool,
    pub pcap: bool,
    pub filter: Filter,
    pub templates: &'a [u16],
    pub limit: Option<u64>,
    pub input: Option<&'a Path>,
    /// Keep reading the file as it grows (`--follow`).
    pub follow: bool,
    /// The most bytes a message may declare (`--max-message-size`).
    pub max_message_size: usize,
    /// Where `--format arrow|parquet` writes its files.
    pub output: Option<&'a Path>,
}

/// How a run went: messages printed and problems reported.
#[derive(Debug, Default)]
pub struct Outcome {
    pub messages: u64,
    pub errors: u64,
}

/// Where the template id sits in the message header, to filter without decoding.
struct TemplateIdField {
    offset: usize,
    primitive: PrimitiveType,
    big_endian: bool,
}

impl TemplateIdField {
    fn of(ir: &Ir) -> Option<TemplateIdField> {
        let token = ir.header_field("templateId")?;
        Some(TemplateIdField {
            offset: usize::try_from(token.offset).ok()?,
            primitive: token.encoding.primitive_type?,
            big_endian: token.encoding.byte_order == ByteOrder::BigEndian,
        })
    }

    fn read(&self, message: &[u8]) -> Option<u64> {
        let size = self.primitive.size();
        let bytes = message.get(self.offset..self.offset + size)?;
        let mut value = 0u64;
        let mut push = |b: &u8| value = value << 8 | u64::from(*b);
        if self.big_endian {
            bytes.iter().for_each(&mut push);
        } else {
            bytes.iter().rev().for_each(&mut push);
        }
        Some(value)
    }
}

/// Prints one message per frame, with its place in the input.
pub(crate) struct Printer<'a, W: Write> {
    json: JsonPrinter,
    text: TextPrinter,
    format: TextFormat,
    templates: &'a [u16],
    template_id: Option<TemplateIdField>,
    limit: Option<u64>,
    pub(crate) name: String,
    out: W,
    buf: Vec<u8>,
    /// The printer's output for one message, before it joins `buf`.
    json_buf: Vec<u8>,
    packet_keys: PacketKeys,
    pub(crate) outcome: Outcome,
    /// With `--format arrow|parquet`: where messages go instead of `out`.
    #[cfg(feature = "columnar")]
    columnar: Option<crate::columnar::ColumnarSink>,
}

impl<W: Write> Printer<'_, W> {
    pub(crate) fn done(&self) -> bool {
        self.limit
            .is_some_and(|limit| self.outcome.messages >= limit)
    }

    /// Reports a problem in the input, counted as an error.
    pub(crate) fn error(&mut self, message: &str) {
        self.outcome.errors += 1;
        self.note(message);
    }

    /// Reports what the input shows (a sequence gap, a hint), not counted as an error.
    pub(crate) fn note(&mut self, message: &str) {
        report(&format!("sable: {}: {message}", self.name));
    }

    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The input is done: what is left is written (and, with `--format arrow|parquet`, the
    /// files closed).
    pub(crate) fn finish(&mut self) -> io::Result<()> {
        #[cfg(feature = "columnar")]
        if let Some(sink) = self.columnar.as_mut() {
            if let Some(note) = sink.finish()? {
                self.note(&note);
            }
        }
        self.out.flush()
    }

    /// Decodes and prints the message in `bytes`, found at `place` in the input. Returns whether
    /// it decoded cleanly (a message filtered out by `--template` counts as clean).
    pub(crate) fn message(&mut self, bytes: &[u8], place: &Place) -> io::Result<bool> {
        if !self.templates.is_empty() {
            let id = self.template_id.as_ref().and_then(|f| f.read(bytes));
            if !id.is_some_and(|id| self.templates.iter().any(|t| u64::from(*t) == id)) {
                return Ok(true);
            }
        }
        #[cfg(feature = "columnar")]
        if let Some(sink) = self.columnar.as_mut() {
            let result = sink.message(bytes, place)?;
            self.outcome.messages += 1;
            return Ok(self.decoded(result, bytes.len(), place));
        }
        self.buf.clear();
        let result = match self.format {
            TextFormat::Json => {
                // The printer writes `{"message":...}`; where it was found goes first.
                self.buf.push(b'{');
                self.packet_keys.write(place, &mut self.buf);
                self.buf.extend_from_slice(b"\"offset\":");
                self.buf
                    .extend_from_slice(itoa::Buffer::new().format(place.offset).as_bytes());
                self.buf.push(b',');
                self.json_buf.clear();
                let result = self.json.print(bytes, &mut self.json_buf);
                self.buf
                    .extend_from_slice(self.json_buf.get(1..).unwrap_or_default());
                self.buf.push(b'\n');
                result
            }
            TextFormat::Text => {
                self.buf
                    .extend_from_slice(format!("# {place}\n").as_bytes());
                let result = self.text.print(bytes, &mut self.buf);
                self.buf.push(b'\n');
                result
            }
            #[cfg(feature = "columnar")]
            TextFormat::Arrow | TextFormat::Parquet => unreachable!("written by the sink"),
        };
        self.outcome.messages += 1;
        // What was decoded is printed even when the rest of the message is bad.
        self.out.write_all(&self.buf)?;
        Ok(self.decoded(result, bytes.len(), place))
    }

    /// Reports how the message at `place`, of `len` bytes, decoded; whether it was clean.
    fn decoded(
        &mut self,
        result: Result<usize, sable_otf::decode::DecodeError>,
        len: usize,
        place: &Place,
    ) -> bool {
        let bytes = len;
        match result {
            Err(e) => self.error(&format!(
                "{place}, message byte {} ({}, {}): {}",
                e.offset(),
                e.field(),
                e.kind().name(),
                e.message()
            )),
            Ok(used) if used < bytes => self.error(&format!(
                "{place}: the message takes {used} bytes of its {bytes}-byte frame; {} bytes are left over",
                bytes - used
            )),
            Ok(_) => return true,
        }
        false
    }
}

/// Where a message was found: its offset in the input (or in its UDP payload or TCP stream), the
/// packet holding its last byte when it comes from a capture, and its MDP 3.0 packet header.
pub(crate) struct Place {
    pub(crate) offset: u64,
    pub(crate) capture: Option<Captured>,
    pub(crate) meta: Option<FrameMeta>,
}

/// The capture packet holding a message's last byte: its offset in the file, its time, its flow.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Captured {
    pub(crate) packet_offset: u64,
    pub(crate) timestamp_ns: u64,
    pub(crate) flow: Flow,
}

/// The JSON keys that a message's packet gives it (capture time, packet offset, flow, MDP 3.0
/// header), written once per packet and copied into each of its messages: formatting two
/// times and two addresses per message cost more than decoding the message.
#[derive(Default)]
struct PacketKeys {
    of: Option<(Option<Captured>, Option<FrameMeta>)>,
    json: Vec<u8>,
}

impl PacketKeys {
    fn write(&mut self, place: &Place, out: &mut Vec<u8>) {
        let key = (place.capture, place.meta);
        if self.of != Some(key) {
            self.json.clear();
            place.write_packet_keys(&mut self.json);
            self.of = Some(key);
        }
        out.extend_from_slice(&self.json);
    }
}

impl Place {
    fn write_packet_keys(&self, out: &mut Vec<u8>) {
        if let Some(c) = &self.capture {
            out.extend_from_slice(b"\"timestamp\":\"");
            sable_otf::write_utc_timestamp_ns(out, c.timestamp_ns);
            // Writing to a Vec cannot fail.
            let _ = write!(
                out,
                "\",\"packetOffset\":{},\"flow\":\"{}\",",
                c.packet_offset, c.flow
            );
        }
        if let Some(FrameMeta::Mdp3 {
            sequence_number,
            sending_time_ns,
        }) = self.meta
        {
            let _ = write!(
                out,
                "\"sequenceNumber\":{sequence_number},\"sendingTime\":\""
            );
            sable_otf::write_utc_timestamp_ns(out, sending_time_ns);
            out.extend_from_slice(b"\",");
        }
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(c) = &self.capture {
            write!(
                f,
                "packet at byte {} ({}, {}), ",
                c.packet_offset,
                sable_otf::utc_timestamp_ns(c.timestamp_ns),
                c.flow
            )?;
        }
        if let Some(FrameMeta::Mdp3 {
            sequence_number,
            sending_time_ns,
        }) = self.meta
        {
            write!(
                f,
                "sequence number {sequence_number} sent {}, ",
                sable_otf::utc_timestamp_ns(sending_time_ns)
            )?;
        }
        match self.capture {
            Some(_) => write!(f, "stream byte {}", self.offset),
            None => write!(f, "at byte {}", self.offset),
        }
    }
}

/// Runs `sable decode`, reading the input as it arrives (see `crate::stream`). Errors in the
/// input are reported on stderr as they are met and decoding goes on where the framing allows;
/// the outcome counts them.
pub fn decode(request: &DecodeRequest) -> Result<Outcome, String> {
    let source = Source::open(request.input, request.follow)?;
    let cannot = |e: sable_otf::decode::Error| format!("cannot decode with this schema: {e}");
    let decoder = Decoder::new(request.ir).map_err(cannot)?;
    let stdout = io::stdout();
    let printer = Printer {
        json: JsonPrinter::new(request.ir)
            .map_err(cannot)?
            .readable(request.readable),
        text: TextPrinter::new(request.ir).map_err(cannot)?,
        format: request.format,
        templates: request.templates,
        template_id: TemplateIdField::of(request.ir),
        limit: request.limit,
        name: source.name.clone(),
        out: io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        buf: Vec::with_capacity(4096),
        json_buf: Vec::with_capacity(4096),
        packet_keys: PacketKeys::default(),
        outcome: Outcome::default(),
        #[cfg(feature = "columnar")]
        columnar: columnar_sink(request)?,
    };
    crate::stream::decode(request, &decoder, source, printer)
}

/// With `--format arrow|parquet`, the tables' sink.
#[cfg(feature = "columnar")]
fn columnar_sink(request: &DecodeRequest) -> Result<Option<crate::columnar::ColumnarSink>, String> {
    let format = match request.format {
        TextFormat::Arrow => sable_columnar::files::Format::Arrow,
        TextFormat::Parquet => sable_columnar::files::Format::Parquet,
        _ => return Ok(None),
    };
    let dir = request
        .output
        .ok_or("--format arrow and parquet write files: name their directory with --output DIR")?;
    crate::columnar::ColumnarSink::new(
        request.ir,
        dir,
        format,
        request.pcap,
        request.framing == Framing::Mdp3,
    )
    .map(Some)
}

/// What `sable encode` was asked.
pub struct EncodeRequest<'a> {
    pub ir: &'a Ir,
    pub framing: Framing,
    /// The SOFH header written with `Framing::Sofh`.
    pub sofh_form: SofhForm,
    pub input: Option<&'a Path>,
    pub output: Option<&'a PathBuf>,
}

/// Runs `sable encode`: one message per non-blank input line, written as it is encoded (memory
/// stays bounded by the longest line). A line that does not encode is reported (with its line
/// number) and left out; the others are written. Output is flushed whenever the input has no
/// more bytes waiting, so a live pipe sees each message at once.
pub fn encode(request: &EncodeRequest) -> Result<Outcome, String> {
    let encoder =
        Encoder::new(request.ir).map_err(|e| format!("cannot encode with this schema: {e}"))?;
    let source = Source::open(request.input, false)?;
    let name = source.name.clone();
    let mut reader = io::BufReader::with_capacity(1 << 16, source);
    let (sink, out_name): (Box<dyn Write>, String) = match request.output {
        Some(path) => (
            Box::new(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            ),
            path.display().to_string(),
        ),
        None => (Box::new(io::stdout().lock()), "stdout".to_owned()),
    };
    let mut out = io::BufWriter::with_capacity(1 << 16, sink);
    let cannot_write = |e: io::Error| format!("cannot write to {out_name}: {e}");
    let big_endian = request.ir.byte_order == ByteOrder::BigEndian;
    let prefix = |len: usize, out: &mut Vec<u8>| match request.framing {
        Framing::Sofh => request.sofh_form.write(len, big_endian, out),
        framing => framing.message_prefix(len, big_endian, out),
    };
    let mut frame = Vec::new();
    if request.framing == Framing::Mdp3 {
        // The output is one MDP 3.0 packet holding every message.
        frame.extend_from_slice(&mdp3_packet_header(1, 0));
    }
    let mut outcome = Outcome::default();
    let mut message = Vec::new();
    let mut bytes = Vec::new();
    let mut written = Ok(());
    for number in 1.. {
        if written.is_err() {
            break;
        }
        if reader.buffer().is_empty() {
            // The next read may wait for input: what is encoded goes out first.
            written = written.and_then(|()| out.write_all(&frame).and_then(|()| out.flush()));
            frame.clear();
        }
        bytes.clear();
        if reader
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("cannot read {name}: {e}"))?
            == 0
        {
            break;
        }
        // A line that is not UTF-8 is one bad line, like any other that does not encode.
        let line = match std::str::from_utf8(&bytes) {
            Ok(line) => line,
            Err(e) => {
                outcome.errors += 1;
                report(&format!(
                    "sable: {name}:{number}: not UTF-8 text (byte 0x{:02X} at column {})",
                    bytes[e.valid_up_to()],
                    e.valid_up_to() + 1
                ));
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        message.clear();
        let problem = match encoder.encode_json(line, &mut message) {
            Ok(_) => match prefix(message.len(), &mut frame) {
                Ok(()) => {
                    frame.extend_from_slice(&message);
                    outcome.messages += 1;
                    None
                }
                Err(e) => Some(e),
            },
            Err(e) => Some(e.to_string()),
        };
        if let Some(problem) = problem {
            outcome.errors += 1;
            report(&format!("sable: {name}:{number}: {problem}"));
        }
        if frame.len() >= 1 << 16 {
            written = written.and_then(|()| out.write_all(&frame));
            frame.clear();
        }
    }
    match written.and_then(|()| out.write_all(&frame).and_then(|()| out.flush())) {
        Ok(()) => Ok(outcome),
        // The reader went away (`sable encode x | head -c 10`): stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(outcome),
        Err(e) => Err(cannot_write(e)),
    }
}

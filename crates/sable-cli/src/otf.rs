//! `sable decode` and `sable encode`: SBE messages to canonical JSON or text and back, by the IR
//! alone (see docs/json.md and docs/framing.md).

use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

use sable_framing::capture::{Capture, Filter};
use sable_framing::{mdp3_packet_header, Framing};
use sable_ir::{ByteOrder, Ir, PrimitiveType};
use sable_otf::decode::Decoder;
use sable_otf::encode::Encoder;
use sable_otf::json::JsonPrinter;
use sable_otf::text::TextPrinter;

use crate::input::report;
use crate::progress::Progress;

/// The printed form of decoded messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TextFormat {
    /// One canonical JSON object per message, one per line (JSON Lines)
    Json,
    /// Indented `name: value` lines, a blank line between messages
    Text,
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
}

/// How a run went: messages printed and problems reported.
#[derive(Debug, Default)]
pub struct Outcome {
    pub messages: u64,
    pub errors: u64,
}

/// Reads the whole input: the file, or standard input for `None` and `-`.
fn read_input(input: Option<&Path>) -> Result<(Vec<u8>, String), String> {
    match input {
        Some(path) if path != Path::new("-") => std::fs::read(path)
            .map(|bytes| (bytes, path.display().to_string()))
            .map_err(|e| format!("cannot read {}: {e}", path.display())),
        _ => {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok((bytes, "<stdin>".to_owned()))
        }
    }
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
struct Printer<'a, W: Write> {
    json: JsonPrinter,
    text: TextPrinter,
    format: TextFormat,
    templates: &'a [u16],
    template_id: Option<TemplateIdField>,
    limit: Option<u64>,
    name: String,
    out: W,
    buf: Vec<u8>,
    /// The printer's output for one message, before it joins `buf`.
    json_buf: Vec<u8>,
    outcome: Outcome,
}

impl<W: Write> Printer<'_, W> {
    fn done(&self) -> bool {
        self.limit
            .is_some_and(|limit| self.outcome.messages >= limit)
    }

    fn error(&mut self, message: &str) {
        self.outcome.errors += 1;
        report(&format!("sable: {}: {message}", self.name));
    }

    /// Decodes and prints the message in `bytes`, found at `place` in the input.
    fn message(&mut self, bytes: &[u8], place: &Place) -> io::Result<()> {
        if !self.templates.is_empty() {
            let id = self.template_id.as_ref().and_then(|f| f.read(bytes));
            if !id.is_some_and(|id| self.templates.iter().any(|t| u64::from(*t) == id)) {
                return Ok(());
            }
        }
        self.buf.clear();
        let result = match self.format {
            TextFormat::Json => {
                // The printer writes `{"message":...}`; where it was found goes first.
                self.buf.push(b'{');
                place.write_json_keys(&mut self.buf);
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
        };
        self.outcome.messages += 1;
        // What was decoded is printed even when the rest of the message is bad.
        self.out.write_all(&self.buf)?;
        match result {
            Err(e) => self.error(&format!(
                "{place}, message byte {} ({}, {}): {}",
                e.offset(),
                e.field(),
                e.kind().name(),
                e.message()
            )),
            Ok(used) if used < bytes.len() => self.error(&format!(
                "{place}: the message takes {used} bytes of its {}-byte frame; {} bytes are left over",
                bytes.len(),
                bytes.len() - used
            )),
            Ok(_) => {}
        }
        Ok(())
    }
}

/// Where a message was found.
enum Place {
    /// At this byte offset of the input.
    Input(u64),
    /// In a capture: the packet holding its last byte (its offset in the file and its time),
    /// the flow, and the message's offset in its UDP payload or TCP stream.
    Capture {
        packet_offset: u64,
        timestamp_ns: u64,
        flow: String,
        offset: u64,
    },
}

impl Place {
    fn write_json_keys(&self, out: &mut Vec<u8>) {
        // Writing to a Vec cannot fail.
        let _ = match self {
            Place::Input(offset) => write!(out, "\"offset\":{offset},"),
            Place::Capture { packet_offset, timestamp_ns, flow, offset } => write!(
                out,
                "\"timestamp\":\"{}\",\"packetOffset\":{packet_offset},\"flow\":\"{flow}\",\"offset\":{offset},",
                rfc3339(*timestamp_ns)
            ),
        };
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Input(offset) => write!(f, "at byte {offset}"),
            Place::Capture {
                packet_offset,
                timestamp_ns,
                flow,
                offset,
            } => write!(
                f,
                "packet at byte {packet_offset} ({}, {flow}), stream byte {offset}",
                rfc3339(*timestamp_ns)
            ),
        }
    }
}

/// Runs `sable decode`. Errors in the input are reported on stderr as they are met and decoding
/// goes on where the framing allows; the outcome counts them.
pub fn decode(request: &DecodeRequest) -> Result<Outcome, String> {
    let (data, name) = read_input(request.input)?;
    let cannot = |e: sable_otf::decode::Error| format!("cannot decode with this schema: {e}");
    let decoder = Decoder::new(request.ir).map_err(cannot)?;
    let stdout = io::stdout();
    let mut printer = Printer {
        json: JsonPrinter::new(request.ir)
            .map_err(cannot)?
            .readable(request.readable),
        text: TextPrinter::new(request.ir).map_err(cannot)?,
        format: request.format,
        templates: request.templates,
        template_id: TemplateIdField::of(request.ir),
        limit: request.limit,
        name,
        out: io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        buf: Vec::with_capacity(4096),
        json_buf: Vec::with_capacity(4096),
        outcome: Outcome::default(),
    };
    let message_length = |bytes: &[u8]| decoder.message_length(bytes).map_err(|e| e.to_string());
    let mut progress = Progress::new("sable decode", data.len() as u64);
    let written = if request.pcap {
        let capture = Capture::parse(&data).map_err(|e| format!("{}: {e}", printer.name))?;
        let mut result = Ok(());
        for item in capture.messages(request.filter.clone(), request.framing, message_length) {
            if printer.done() {
                break;
            }
            match item {
                Ok(m) => {
                    progress.update(m.packet_offset as u64);
                    let place = Place::Capture {
                        packet_offset: m.packet_offset as u64,
                        timestamp_ns: m.timestamp_ns,
                        flow: m.flow.to_string(),
                        offset: m.offset,
                    };
                    result = printer.message(&m.bytes, &place);
                    if result.is_err() {
                        break;
                    }
                }
                Err(e) => printer.error(&e.to_string()),
            }
        }
        result
    } else {
        let mut result = Ok(());
        for frame in request.framing.frames(&data, message_length) {
            if printer.done() {
                break;
            }
            match frame {
                Ok(frame) => {
                    progress.update(frame.offset as u64);
                    result = printer.message(frame.bytes, &Place::Input(frame.offset as u64));
                    if result.is_err() {
                        break;
                    }
                }
                // Raw framing fails when a message does not size up: decode what there is of it,
                // so that what can be decoded is still printed, with the error.
                Err(e) if request.framing == Framing::Raw && e.offset < data.len() => {
                    result = printer.message(&data[e.offset..], &Place::Input(e.offset as u64));
                    if result.is_err() {
                        break;
                    }
                }
                Err(e) => printer.error(&format!("at byte {}: {}", e.offset, e.message)),
            }
        }
        result
    };
    progress.finish();
    match written.and_then(|()| printer.out.flush()) {
        Ok(()) => {}
        // The reader went away (`sable decode x | head`): stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(format!("cannot write to stdout: {e}")),
    }
    Ok(printer.outcome)
}

/// What `sable encode` was asked.
pub struct EncodeRequest<'a> {
    pub ir: &'a Ir,
    pub framing: Framing,
    pub input: Option<&'a Path>,
    pub output: Option<&'a PathBuf>,
}

/// Runs `sable encode`: one message per non-blank input line. A line that does not encode is
/// reported (with its line number) and left out; the others are written.
pub fn encode(request: &EncodeRequest) -> Result<Outcome, String> {
    let encoder =
        Encoder::new(request.ir).map_err(|e| format!("cannot encode with this schema: {e}"))?;
    let (reader, name): (Box<dyn BufRead>, String) = match request.input {
        Some(path) if path != Path::new("-") => (
            Box::new(io::BufReader::new(
                std::fs::File::open(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            )),
            path.display().to_string(),
        ),
        _ => (Box::new(io::stdin().lock()), "<stdin>".to_owned()),
    };
    let big_endian = request.ir.byte_order == ByteOrder::BigEndian;
    let mut out = Vec::new();
    if request.framing == Framing::Mdp3 {
        // The output is one MDP 3.0 packet holding every message.
        out.extend_from_slice(&mdp3_packet_header(1, 0));
    }
    let mut outcome = Outcome::default();
    let mut message = Vec::new();
    let mut bytes = Vec::new();
    let mut reader = reader;
    for number in 1.. {
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
            Ok(_) => match request
                .framing
                .message_prefix(message.len(), big_endian, &mut out)
            {
                Ok(()) => {
                    out.extend_from_slice(&message);
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
    }
    let written = match request.output {
        Some(path) => {
            std::fs::write(path, &out).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            let mut stdout = io::stdout().lock();
            match stdout.write_all(&out).and_then(|()| stdout.flush()) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                Err(e) => Err(format!("cannot write to stdout: {e}")),
            }
        }
    };
    written.map(|()| outcome)
}

/// A Unix time in nanoseconds as RFC 3339 UTC with nanoseconds: `2026-11-21T23:02:00.000000001Z`.
pub fn rfc3339(ns: u64) -> String {
    let seconds = ns / 1_000_000_000;
    let nanos = ns % 1_000_000_000;
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{nanos:09}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn timestamps_are_rfc3339_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000000000Z");
        assert_eq!(
            rfc3339(951_782_400_000_000_007),
            "2000-02-29T00:00:00.000000007Z"
        );
        assert_eq!(
            rfc3339(1_795_302_000_123_456_789),
            "2026-11-21T23:00:00.123456789Z"
        );
    }
}

//! `sable decode`'s input read as it arrives, in pieces of at most 64 KiB: files of any size,
//! pipes (each message printed as soon as its bytes are in), files that grow (`--follow`) and
//! captures. Only an incomplete message (or capture record) waits, so memory stays bounded.

use std::io::{self, Read, Write};
use std::path::Path;
use std::time::Duration;

use sable_framing::capture::{
    CaptureError, CaptureStream, ErrorKind, Message, MessageFramer, PayloadDecoder, TcpReassembler,
};
use sable_framing::{
    guess, mdp3_packet_meta, FrameMeta, Framing, StreamFrameError, StreamFrameRef, StreamFramer,
    MDP3_MESSAGES, MDP3_PACKET_HEADER_LEN,
};
use sable_otf::decode::{DecodeErrorKind, Decoder};

use crate::otf::{Captured, DecodeRequest, Outcome, Place, Printer};
use crate::progress::Progress;

/// How much is read at a time.
const CHUNK: usize = 64 << 10;
/// How long `--follow` waits at the end of the file before looking again.
const FOLLOW_POLL: Duration = Duration::from_millis(100);
/// How many of the first bytes are kept to suggest a framing that fits them.
const HINT_BYTES: usize = 4096;

/// The input: a file, or standard input.
pub struct Source {
    reader: Box<dyn Read>,
    pub name: String,
    /// The file's size, when known (for the progress line).
    pub size: Option<u64>,
    /// At the end of the file, wait for more instead of ending (`--follow`).
    follow: bool,
}

impl Source {
    /// Opens `input` (standard input for `None` and `-`).
    pub fn open(input: Option<&Path>, follow: bool) -> Result<Source, String> {
        match input {
            Some(path) if path != Path::new("-") => {
                let file = std::fs::File::open(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let size = file
                    .metadata()
                    .ok()
                    .filter(|m| m.is_file())
                    .map(|m| m.len());
                Ok(Source {
                    reader: Box::new(file),
                    name: path.display().to_string(),
                    size,
                    follow,
                })
            }
            _ => Ok(Source {
                reader: Box::new(io::stdin()),
                name: "<stdin>".to_owned(),
                size: None,
                follow: false,
            }),
        }
    }
}

impl Read for Source {
    /// What is there to read, at most `buf.len()` bytes; 0 at the end (never with `--follow`).
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.reader.read(buf) {
                Ok(0) if self.follow => std::thread::sleep(FOLLOW_POLL),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                result => return result,
            }
        }
    }
}

/// Where decoded bytes go: the framing of a file or pipe, or a capture's packets.
trait Feed<W: Write> {
    /// Takes the next bytes of the input.
    fn push(&mut self, data: &[u8], printer: &mut Printer<'_, W>) -> io::Result<()>;
    /// Ends the input.
    fn finish(&mut self, printer: &mut Printer<'_, W>) -> io::Result<()>;
    /// Whether nothing more of the input can be decoded (raw framing after a message it
    /// cannot size), so that reading stops.
    fn ended(&self) -> bool {
        false
    }
}

/// Decodes `source` into `printer` as it arrives.
pub(crate) fn decode<W: Write>(
    request: &DecodeRequest,
    decoder: &Decoder,
    mut source: Source,
    mut printer: Printer<'_, W>,
) -> Result<Outcome, String> {
    // A truncated message is one whose bytes have not all arrived: wait for as many as what was
    // read of it says it takes (at least one more). A lying count or length that says more
    // than --max-message-size is then found out at once by the framer.
    let message_length = |bytes: &[u8]| match decoder.message_length(bytes) {
        Ok(len) => Ok(len),
        Err(e) if e.kind() == DecodeErrorKind::Truncated => {
            Ok(e.needs().unwrap_or(0).max(bytes.len() + 1))
        }
        Err(e) => Err(e.to_string()),
    };
    let mut feed: Box<dyn Feed<W> + '_> = if request.pcap {
        Box::new(CaptureFeed::new(request, message_length))
    } else {
        Box::new(FramedFeed::new(
            request.framing,
            request.max_message_size,
            message_length,
        ))
    };
    let mut progress = Progress::new("sable decode", source.size.unwrap_or(0));
    let mut chunk = vec![0; CHUNK];
    let mut read = 0u64;
    let mut result = Ok(());
    while result.is_ok() && !printer.done() && !feed.ended() {
        // The next read may wait for input: what is decoded goes out first.
        result = printer.flush();
        let n = source
            .read(&mut chunk)
            .map_err(|e| format!("cannot read {}: {e}", source.name))?;
        if n == 0 {
            break;
        }
        if read == 0 && !request.pcap && looks_like_capture(&chunk[..n]) {
            printer.note(
                "hint: this looks like a pcap or pcapng capture: decode it with --pcap (and \
                 --framing for its payloads, e.g. mdp3 or sofh)",
            );
        }
        read += n as u64;
        progress.update(read);
        result = result.and_then(|()| feed.push(&chunk[..n], &mut printer));
    }
    if result.is_ok() && !printer.done() {
        result = feed.finish(&mut printer);
    }
    progress.finish();
    match result.and_then(|()| printer.finish()) {
        Ok(()) => {}
        // The reader went away (`sable decode x | head`): stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(format!("cannot write to stdout: {e}")),
    }
    Ok(printer.outcome)
}

/// Whether `bytes` start as a pcap or pcapng file does.
fn looks_like_capture(bytes: &[u8]) -> bool {
    let Some(magic) = bytes.get(..4) else {
        return false;
    };
    let magic = u32::from_le_bytes([magic[0], magic[1], magic[2], magic[3]]);
    matches!(
        magic,
        0xA1B2_C3D4 | 0xD4C3_B2A1 | 0xA1B2_3C4D | 0x4D3C_B2A1 | 0x0A0D_0D0A
    )
}

/// Suggests a framing once, at the first problem met before any message decoded cleanly.
struct Hint {
    framing: Framing,
    first: Vec<u8>,
    /// Whether it is too late: a message decoded cleanly, or the hint was given.
    settled: bool,
}

impl Hint {
    fn new(framing: Framing) -> Hint {
        Hint {
            framing,
            first: Vec::new(),
            settled: false,
        }
    }

    /// Keeps the first bytes to guess from.
    fn keep(&mut self, data: &[u8]) {
        if !self.settled && self.first.len() < HINT_BYTES {
            let n = data.len().min(HINT_BYTES - self.first.len());
            self.first.extend_from_slice(&data[..n]);
        }
    }

    /// Notes how a message decoded, or a framing problem (`clean` false).
    fn outcome<W, F>(&mut self, clean: bool, printer: &mut Printer<'_, W>, message_length: F)
    where
        W: Write,
        F: Fn(&[u8]) -> Result<usize, String>,
    {
        if self.settled {
            return;
        }
        self.settled = true;
        if clean {
            return;
        }
        if let Some(fits) = guess(&self.first, message_length, self.framing) {
            printer.note(&format!(
                "hint: the input does not start as --framing {} expects; its first bytes read \
                 as --framing {fits}",
                self.framing
            ));
        }
        self.first = Vec::new();
    }
}

/// A file or pipe: framed as a stream; with `mdp3`, the input is one MDP 3.0 packet (its header,
/// then its messages).
struct FramedFeed<F> {
    framing: Framing,
    framer: StreamFramer<F>,
    message_length: F,
    /// With `mdp3`: the packet header's bytes until it is whole, then what it says.
    mdp3_header: Vec<u8>,
    meta: Option<FrameMeta>,
    /// Where the stream framer's offsets start in the input (after an MDP 3.0 packet header).
    base: u64,
    hint: Hint,
    /// Raw framing stopped at a message it cannot size, and that message was printed.
    ended: bool,
}

impl<F> FramedFeed<F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    fn new(framing: Framing, max_message_size: usize, message_length: F) -> FramedFeed<F> {
        let stream_framing = if framing == Framing::Mdp3 {
            MDP3_MESSAGES
        } else {
            framing
        };
        let framer = StreamFramer::new(stream_framing, message_length.clone())
            .expect("every framing but mdp3 frames streams")
            .with_max_frame_len(max_message_size);
        FramedFeed {
            framing,
            framer,
            message_length,
            mdp3_header: Vec::new(),
            meta: None,
            base: 0,
            hint: Hint::new(framing),
            ended: false,
        }
    }

    /// Prints a frame or reports a framing error.
    fn found<W: Write>(
        item: Result<StreamFrameRef<'_>, StreamFrameError>,
        at: (u64, Option<FrameMeta>),
        printer: &mut Printer<'_, W>,
        hint: &mut Hint,
        message_length: &F,
        raw: bool,
    ) -> io::Result<()> {
        let (base, meta) = at;
        let clean = match item {
            Ok(frame) => {
                let place = Place {
                    offset: base + frame.stream_offset,
                    capture: None,
                    meta: frame.meta.or(meta),
                };
                printer.message(frame.bytes, &place)?
            }
            // Raw framing stops at the error: the bytes there are printed as a message after
            // the push (`FramedFeed::print_pending`), with the decoder's own words; a message
            // too large is said so first.
            Err(error) if raw => {
                if let Some(declared) = error.declared_len {
                    printer.note(&format!(
                        "at byte {}: the message declares at least {declared} bytes, more than \
                         --max-message-size allows",
                        base + error.stream_offset
                    ));
                }
                return Ok(());
            }
            Err(error) => {
                let limit = if error.declared_len.is_some() {
                    " (--max-message-size)"
                } else {
                    ""
                };
                printer.error(&format!(
                    "at byte {}: {}{limit}",
                    base + error.stream_offset,
                    error.message
                ));
                false
            }
        };
        hint.outcome(clean, printer, message_length);
        Ok(())
    }

    /// After raw framing stopped (a message that does not size up), or at the end with an
    /// incomplete message: what there is of it is decoded and printed, with the error. Nothing
    /// says where a next message would start, so decoding ends there.
    fn print_pending<W: Write>(&mut self, printer: &mut Printer<'_, W>) -> io::Result<()> {
        self.ended = true;
        let (offset, bytes) = self.framer.pending();
        if bytes.is_empty() {
            return Ok(());
        }
        let place = Place {
            offset: self.base + offset,
            capture: None,
            meta: self.meta,
        };
        let clean = printer.message(bytes, &place)?;
        self.hint.outcome(clean, printer, &self.message_length);
        if self.framer.stopped() {
            printer.note(&format!(
                "at byte {}: raw framing cannot tell where the next message would start: \
                 decoding stops",
                place.offset
            ));
        }
        Ok(())
    }

    /// With `mdp3`: takes the packet header from the start of `data`; returns the rest.
    fn mdp3_header<'d>(&mut self, data: &'d [u8]) -> &'d [u8] {
        if self.framing != Framing::Mdp3 || self.meta.is_some() {
            return data;
        }
        let n = data
            .len()
            .min(MDP3_PACKET_HEADER_LEN - self.mdp3_header.len());
        self.mdp3_header.extend_from_slice(&data[..n]);
        self.meta = mdp3_packet_meta(&self.mdp3_header);
        if self.meta.is_some() {
            self.base = MDP3_PACKET_HEADER_LEN as u64;
            self.framer.reset(0);
        }
        &data[n..]
    }
}

impl<W: Write, F> Feed<W> for FramedFeed<F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    fn push(&mut self, data: &[u8], printer: &mut Printer<'_, W>) -> io::Result<()> {
        self.hint.keep(data);
        let data = self.mdp3_header(data);
        if self.framing == Framing::Mdp3 && self.meta.is_none() {
            return Ok(());
        }
        let raw = self.framing == Framing::Raw;
        let at = (self.base, self.meta);
        let (hint, message_length) = (&mut self.hint, &self.message_length);
        let mut written = Ok(());
        self.framer.push_with(data, 0, 0, &mut |item| {
            if written.is_ok() && !printer.done() {
                written = Self::found(item, at, printer, hint, message_length, raw);
            }
        });
        written?;
        if raw && self.framer.stopped() && !printer.done() {
            self.print_pending(printer)?;
        }
        Ok(())
    }

    fn ended(&self) -> bool {
        self.ended
    }

    fn finish(&mut self, printer: &mut Printer<'_, W>) -> io::Result<()> {
        if self.framing == Framing::Mdp3 && self.meta.is_none() {
            printer.error(&format!(
                "at byte 0: MDP 3.0 packet of {} bytes is shorter than its \
                 {MDP3_PACKET_HEADER_LEN}-byte header",
                self.mdp3_header.len()
            ));
            return Ok(());
        }
        if self.framing == Framing::Raw {
            if self.ended {
                return Ok(());
            }
            return self.print_pending(printer);
        }
        let raw = false;
        let at = (self.base, self.meta);
        let (hint, message_length) = (&mut self.hint, &self.message_length);
        let mut written = Ok(());
        self.framer.finish_with(&mut |item| {
            if written.is_ok() && !printer.done() {
                written = Self::found(item, at, printer, hint, message_length, raw);
            }
        });
        written
    }
}

/// A capture: its packets decoded to payloads, framed into messages.
struct CaptureFeed<F> {
    stream: CaptureStream,
    payloads: PayloadDecoder,
    messages: MessageFramer<F>,
    message_length: F,
    hint: Hint,
}

impl<F> CaptureFeed<F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    fn new(request: &DecodeRequest, message_length: F) -> CaptureFeed<F> {
        CaptureFeed {
            stream: CaptureStream::new(),
            payloads: PayloadDecoder::new(request.filter.clone(), TcpReassembler::new()),
            messages: MessageFramer::new(request.framing, message_length.clone())
                .with_max_frame_len(request.max_message_size),
            message_length,
            hint: Hint::new(request.framing),
        }
    }

    /// Decodes the packets the bytes so far complete.
    fn packets<W: Write>(&mut self, at_end: bool, printer: &mut Printer<'_, W>) -> io::Result<()> {
        let mut written = Ok(());
        let (payloads, messages) = (&mut self.payloads, &mut self.messages);
        let (hint, message_length) = (&mut self.hint, &self.message_length);
        loop {
            let packet = match self.stream.next_packet() {
                Some(packet) => packet,
                None if at_end => match self.stream.finish() {
                    Some(packet) => packet,
                    None => break,
                },
                None => break,
            };
            if written.is_err() || printer.done() {
                break;
            }
            match packet {
                Ok(packet) => payloads.packet(&packet, &mut |payload| match payload {
                    Ok(payload) => {
                        hint.keep(&payload.data);
                        messages.payload(&payload, &mut |item| {
                            if written.is_ok() && !printer.done() {
                                written = captured(item, printer, hint, message_length);
                            }
                        });
                    }
                    Err(error) => problem(&error, printer),
                }),
                Err(error) => problem(&error, printer),
            }
        }
        written
    }
}

/// Prints a message from a capture, or reports a problem.
fn captured<W, F>(
    item: Result<Message<'_>, CaptureError>,
    printer: &mut Printer<'_, W>,
    hint: &mut Hint,
    message_length: &F,
) -> io::Result<()>
where
    W: Write,
    F: Fn(&[u8]) -> Result<usize, String>,
{
    let clean = match item {
        Ok(m) => {
            let place = Place {
                offset: m.offset,
                capture: Some(Captured {
                    packet_offset: m.packet_offset as u64,
                    timestamp_ns: m.timestamp_ns,
                    flow: m.flow,
                }),
                meta: m.meta,
            };
            printer.message(&m.bytes, &place)?
        }
        Err(error) => {
            problem(&error, printer);
            error.kind == ErrorKind::Sequence
        }
    };
    hint.outcome(clean, printer, message_length);
    Ok(())
}

/// Reports a capture problem: a sequence gap or repeat is what the capture shows, not an error.
fn problem<W: Write>(error: &CaptureError, printer: &mut Printer<'_, W>) {
    if error.kind == ErrorKind::Sequence {
        printer.note(&error.to_string());
    } else {
        printer.error(&error.to_string());
    }
}

impl<W: Write, F> Feed<W> for CaptureFeed<F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    fn push(&mut self, data: &[u8], printer: &mut Printer<'_, W>) -> io::Result<()> {
        self.stream.extend(data);
        self.packets(false, printer)
    }

    fn finish(&mut self, printer: &mut Printer<'_, W>) -> io::Result<()> {
        self.packets(true, printer)?;
        let mut written = Ok(());
        let (payloads, messages) = (&mut self.payloads, &mut self.messages);
        let (hint, message_length) = (&mut self.hint, &self.message_length);
        payloads.finish(&mut |payload| match payload {
            Ok(payload) => messages.payload(&payload, &mut |item| {
                if written.is_ok() {
                    written = captured(item, printer, hint, message_length);
                }
            }),
            Err(error) => problem(&error, printer),
        });
        messages.finish(&mut |item| {
            if written.is_ok() {
                written = captured(item, printer, hint, message_length);
            }
        });
        written?;
        summary(
            &self.payloads.skipped().reasons(),
            self.messages.sequence(),
            printer,
        );
        Ok(())
    }
}

/// The end summary of a capture: packets passed over by reason, sequence gaps and repeats.
fn summary<W: Write>(
    skipped: &[(u64, &str)],
    sequence: sable_framing::capture::SequenceCounts,
    printer: &mut Printer<'_, W>,
) {
    if !skipped.is_empty() {
        let total: u64 = skipped.iter().map(|(n, _)| n).sum();
        let reasons: Vec<String> = skipped
            .iter()
            .map(|(n, why)| format!("{n} {why}"))
            .collect();
        printer.note(&format!(
            "{total} packet{} skipped: {}",
            if total == 1 { "" } else { "s" },
            reasons.join(", ")
        ));
    }
    if sequence.gaps + sequence.repeats > 0 {
        printer.note(&format!(
            "MDP 3.0 sequence numbers: {} gap{} ({} packet{} missing), {} repeated or out of order",
            sequence.gaps,
            if sequence.gaps == 1 { "" } else { "s" },
            sequence.missing,
            if sequence.missing == 1 { "" } else { "s" },
            sequence.repeats
        ));
    }
}

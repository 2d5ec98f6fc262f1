//! Reading a capture as it arrives (a pipe, a file being written, a file too large for memory).

use super::file::{self, PacketParser, Parsed};
use super::{CaptureError, ErrorKind, Format, Packet};

/// The most bytes read before the format is told: a pcap file header.
const HEADER_BYTES: usize = 24;

/// The default bound on one record or block: 16 MiB (pcap's snapshot lengths stay far below).
pub const DEFAULT_MAX_RECORD_LEN: usize = 16 << 20;

/// A pcap or pcapng capture read piece by piece: the caller pushes the bytes it reads
/// ([`CaptureStream::extend`]) and takes the packets they complete
/// ([`CaptureStream::next_packet`]). Only an incomplete record waits, so memory stays bounded by
/// the largest record (at most `max_record_len`) plus what one push brings.
#[derive(Debug, Clone)]
pub struct CaptureStream {
    /// Waiting bytes are `buf[start..]`, at file offset `offset`.
    buf: Vec<u8>,
    start: usize,
    offset: usize,
    parser: Option<PacketParser>,
    max_record_len: usize,
    /// Set once reading has stopped (a broken structure, or the end).
    done: bool,
    /// An error to give after the packet just given.
    pending: Option<CaptureError>,
}

impl Default for CaptureStream {
    fn default() -> Self {
        CaptureStream::new()
    }
}

impl CaptureStream {
    /// A stream at the start of a capture file.
    pub fn new() -> CaptureStream {
        CaptureStream {
            buf: Vec::new(),
            start: 0,
            offset: 0,
            parser: None,
            max_record_len: DEFAULT_MAX_RECORD_LEN,
            done: false,
            pending: None,
        }
    }

    /// Sets the bound on a record's or block's size.
    pub fn with_max_record_len(mut self, bytes: usize) -> CaptureStream {
        self.max_record_len = bytes.max(HEADER_BYTES);
        self
    }

    /// The capture's format, once its file header has arrived.
    pub fn format(&self) -> Option<Format> {
        self.parser.as_ref().map(PacketParser::format)
    }

    /// Whether reading has stopped: the file's structure is broken, or [`CaptureStream::finish`]
    /// was called. Further bytes are ignored.
    pub fn is_done(&self) -> bool {
        self.done && self.pending.is_none()
    }

    /// Adds the next bytes of the file.
    pub fn extend(&mut self, data: &[u8]) {
        if self.done {
            return;
        }
        self.buf.drain(..self.start);
        self.start = 0;
        self.buf.extend_from_slice(data);
    }

    /// The next packet, or problem, from the bytes pushed so far; `None` when more bytes are
    /// needed (or reading has stopped).
    pub fn next_packet(&mut self) -> Option<Result<Packet<'_>, CaptureError>> {
        if let Some(error) = self.pending.take() {
            return Some(Err(error));
        }
        if self.parser.is_none() && !self.done {
            if self.buf.len() - self.start < HEADER_BYTES {
                return None;
            }
            if let Err(error) = self.detect() {
                return Some(Err(error));
            }
        }
        loop {
            if self.done {
                return None;
            }
            let parser = self.parser.as_mut()?;
            let rest = &self.buf[self.start..];
            if rest.is_empty() {
                return None;
            }
            match parser.parse(rest, self.offset) {
                Parsed::Packet(packet, len) => {
                    self.start += len;
                    self.offset += len;
                    return Some(Ok(packet));
                }
                Parsed::Skip(len) => {
                    self.start += len;
                    self.offset += len;
                }
                Parsed::Bad(error, len) => {
                    self.start += len;
                    self.offset += len;
                    return Some(Err(error));
                }
                Parsed::Broken(error) => {
                    self.done = true;
                    return Some(Err(error));
                }
                Parsed::Need(len) if len > self.max_record_len => {
                    self.done = true;
                    return Some(Err(CaptureError::new(
                        self.offset,
                        ErrorKind::Format,
                        format!(
                            "a record of {len} bytes is larger than the {} MiB allowed",
                            self.max_record_len >> 20
                        ),
                    )));
                }
                Parsed::Need(_) => return None,
            }
        }
    }

    /// Ends the file: a record cut short gives the packet it has (its complete messages still
    /// decode; `original_len` says it was cut), then an error says it was cut. Call
    /// [`CaptureStream::next_packet`] until `None` first.
    pub fn finish(&mut self) -> Option<Result<Packet<'_>, CaptureError>> {
        if let Some(error) = self.pending.take() {
            return Some(Err(error));
        }
        if self.done {
            return None;
        }
        self.done = true;
        let rest = &self.buf[self.start..];
        let Some(parser) = self.parser.as_mut() else {
            // Fewer bytes than a pcap file header: too short for any capture.
            let error = file::detect(rest).err().unwrap_or_else(|| {
                CaptureError::new(
                    0,
                    ErrorKind::Format,
                    format!("capture file header truncated: {} bytes", rest.len()),
                )
            });
            return Some(Err(error));
        };
        if rest.is_empty() {
            return None;
        }
        let (packet, error) = parser.cut(rest, self.offset);
        match packet {
            Some(packet) => {
                self.pending = Some(error);
                Some(Ok(packet))
            }
            None => Some(Err(error)),
        }
    }

    fn detect(&mut self) -> Result<(), CaptureError> {
        match file::detect(&self.buf[self.start..]) {
            Ok(format) => {
                let parser = PacketParser::new(format);
                let first = parser.first_offset();
                self.start += first;
                self.offset += first;
                self.parser = Some(parser);
                Ok(())
            }
            Err(error) => {
                self.done = true;
                Err(error)
            }
        }
    }
}

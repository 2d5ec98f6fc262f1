//! Framings: how SBE messages are delimited in a byte sequence.
//!
//! A [`Framing`] splits bytes into [`Frame`]s, each one SBE message starting with its message
//! header. [`Framing::frames`] (or the shortcuts [`raw`], [`sofh`], [`length_prefixed`] and
//! [`mdp3`]) frames a complete byte slice; [`StreamFramer`] frames a byte stream that arrives in
//! pieces, such as a reassembled TCP stream.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

/// The SOFH encoding type of SBE 1.0, little-endian.
pub const SOFH_SBE_LITTLE_ENDIAN: u16 = 0x5BE0;
/// The SOFH encoding type of SBE 1.0, big-endian.
pub const SOFH_SBE_BIG_ENDIAN: u16 = 0xEB50;
/// Size of the Simple Open Framing Header: a 4-byte length and a 2-byte encoding type.
pub const SOFH_HEADER_LEN: usize = 6;
/// Size of the CME MDP 3.0 packet header: a 4-byte sequence number and an 8-byte sending time.
pub const MDP3_PACKET_HEADER_LEN: usize = 12;

/// One SBE message found in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame<'a> {
    /// Offset of the message (of `bytes[0]`, after any framing header) in the input.
    pub offset: usize,
    /// The message, starting with its SBE message header.
    pub bytes: &'a [u8],
    /// What the framing knows about the message besides its bytes, if anything.
    pub meta: Option<FrameMeta>,
}

/// Metadata that a framing attaches to a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FrameMeta {
    /// The message came with a Simple Open Framing Header.
    Sofh {
        /// The header's encoding type ([`SOFH_SBE_LITTLE_ENDIAN`] or [`SOFH_SBE_BIG_ENDIAN`]).
        encoding_type: u16,
    },
    /// The message came in a CME MDP 3.0 packet.
    Mdp3 {
        /// The packet's sequence number.
        sequence_number: u32,
        /// The packet's sending time, in nanoseconds since the Unix epoch.
        sending_time_ns: u64,
    },
}

/// A framing error: where in the input, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameError {
    /// Byte offset in the input where the faulty frame (or framing header) starts.
    pub offset: usize,
    /// A human-readable description of the problem.
    pub message: String,
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at offset {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for FrameError {}

/// Byte order of a length prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endian {
    /// Least significant byte first.
    Little,
    /// Most significant byte first.
    Big,
}

/// A length field before each message: see [`Framing::LengthPrefixed`].
///
/// The CLI form is `u8`, or `u16`, `u32` or `u64` followed by `le` or `be`, then optionally
/// `+inclusive` (the length counts the prefix and the skipped bytes too; without it the length
/// counts the message only) and `+skipN` (N bytes between the prefix and the message, ignored).
/// Examples: `u16le`, `u32be+inclusive`, `u16le+skip2`, `u32le+inclusive+skip4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LengthPrefix {
    /// Width of the length field in bytes: 1, 2, 4 or 8.
    pub width: u8,
    /// Byte order of the length field.
    pub endian: Endian,
    /// Whether the length counts the prefix and skipped bytes as well as the message.
    pub inclusive: bool,
    /// Number of bytes after the length field to skip before the message.
    pub skip: usize,
}

impl LengthPrefix {
    /// A length prefix of `width` bytes (1, 2, 4 or 8) in `endian` order, counting the message only,
    /// with nothing skipped. Returns `None` for other widths.
    pub fn new(width: u8, endian: Endian) -> Option<LengthPrefix> {
        matches!(width, 1 | 2 | 4 | 8).then_some(LengthPrefix {
            width,
            endian,
            inclusive: false,
            skip: 0,
        })
    }

    /// Size of the framing header: the length field plus the skipped bytes.
    pub fn header_len(&self) -> usize {
        self.width as usize + self.skip
    }

    fn read(&self, bytes: &[u8]) -> u64 {
        let field = &bytes[..self.width as usize];
        let mut value = 0u64;
        match self.endian {
            Endian::Big => field.iter().for_each(|&b| value = value << 8 | b as u64),
            Endian::Little => field
                .iter()
                .rev()
                .for_each(|&b| value = value << 8 | b as u64),
        }
        value
    }
}

impl fmt::Display for LengthPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "u{}", self.width as usize * 8)?;
        if self.width > 1 {
            f.write_str(match self.endian {
                Endian::Little => "le",
                Endian::Big => "be",
            })?;
        }
        if self.inclusive {
            f.write_str("+inclusive")?;
        }
        if self.skip > 0 {
            write!(f, "+skip{}", self.skip)?;
        }
        Ok(())
    }
}

impl FromStr for LengthPrefix {
    type Err = String;

    fn from_str(s: &str) -> Result<LengthPrefix, String> {
        let bad = || {
            format!(
                "bad length prefix {s:?}: expected u8, u16le, u16be, u32le, u32be, u64le or u64be, \
                 then optionally +inclusive and +skipN (e.g. u32be+inclusive)"
            )
        };
        let mut parts = s.split('+');
        let field = parts.next().unwrap_or_default().to_ascii_lowercase();
        let (width, endian) = match field.as_str() {
            "u8" | "u8le" | "u8be" => (1, Endian::Little),
            "u16le" => (2, Endian::Little),
            "u16be" => (2, Endian::Big),
            "u32le" => (4, Endian::Little),
            "u32be" => (4, Endian::Big),
            "u64le" => (8, Endian::Little),
            "u64be" => (8, Endian::Big),
            _ => return Err(bad()),
        };
        let mut prefix = LengthPrefix::new(width, endian).ok_or_else(bad)?;
        for part in parts {
            let part = part.to_ascii_lowercase();
            if part == "inclusive" {
                prefix.inclusive = true;
            } else if let Some(n) = part.strip_prefix("skip") {
                prefix.skip = n.parse().map_err(|_| bad())?;
            } else {
                return Err(bad());
            }
        }
        Ok(prefix)
    }
}

/// How messages are delimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Framing {
    /// Messages back to back with nothing between them; the caller's `message_length` function
    /// (the SBE decoder's) says how long each is. After an error framing stops: nothing says
    /// where the next message starts.
    Raw,
    /// Each message preceded by a FIX Simple Open Framing Header: a 4-byte big-endian length
    /// (header included) and a 2-byte big-endian encoding type, `0x5BE0` (SBE 1.0 little-endian)
    /// or `0xEB50` (SBE 1.0 big-endian). A frame with another encoding type is reported and
    /// skipped. After a length that lies (smaller than the header, or past the end) framing
    /// resynchronises at the next offset that holds a plausible header (a known encoding type and
    /// a length that fits).
    Sofh,
    /// Each message preceded by a length field (see [`LengthPrefix`]). A zero-length message is
    /// reported and skipped; after a length that lies framing stops.
    LengthPrefixed(LengthPrefix),
    /// The input is one CME MDP 3.0 packet (one UDP datagram's payload): a 4-byte little-endian
    /// sequence number, an 8-byte little-endian sending time, then messages each preceded by a
    /// 2-byte little-endian size that counts those 2 bytes. Frames carry [`FrameMeta::Mdp3`].
    /// A size of 2 (an empty message) is reported and skipped; after a size that lies framing
    /// stops.
    Mdp3,
}

impl Framing {
    /// Frames `data`; `message_length` is used by [`Framing::Raw`] only (pass [`no_length`]
    /// otherwise).
    pub fn frames<'a, F>(&self, data: &'a [u8], message_length: F) -> Frames<'a, F>
    where
        F: Fn(&[u8]) -> Result<usize, String>,
    {
        Frames::new(*self, data, message_length)
    }

    /// Whether the framing applies to byte streams (all but [`Framing::Mdp3`], which frames
    /// datagrams).
    pub fn is_stream_framing(&self) -> bool {
        !matches!(self, Framing::Mdp3)
    }

    /// The bytes that go before a message of `len` bytes, so that [`Framing::frames`] finds it
    /// again: nothing for [`Framing::Raw`], a SOFH with the encoding type of `big_endian`
    /// SBE, a length prefix (with its skipped bytes zero), or for [`Framing::Mdp3`] the message's
    /// 2-byte size (the packet header is the caller's: see [`mdp3_packet_header`]). Fails when
    /// `len` does not fit the length field.
    pub fn message_prefix(
        &self,
        len: usize,
        big_endian: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        let too_long = |max: u64| {
            format!("a message of {len} bytes is too long for {self} framing (at most {max})")
        };
        match self {
            Framing::Raw => {}
            Framing::Sofh => {
                let total = len as u64 + SOFH_HEADER_LEN as u64;
                let total = u32::try_from(total)
                    .map_err(|_| too_long(u64::from(u32::MAX) - SOFH_HEADER_LEN as u64))?;
                out.extend_from_slice(&total.to_be_bytes());
                let encoding = if big_endian {
                    SOFH_SBE_BIG_ENDIAN
                } else {
                    SOFH_SBE_LITTLE_ENDIAN
                };
                out.extend_from_slice(&encoding.to_be_bytes());
            }
            Framing::LengthPrefixed(prefix) => {
                let value = len as u64
                    + if prefix.inclusive {
                        prefix.header_len() as u64
                    } else {
                        0
                    };
                let width = usize::from(prefix.width);
                let max = if width >= 8 {
                    u64::MAX
                } else {
                    (1u64 << (8 * width)) - 1
                };
                if value > max {
                    return Err(too_long(max));
                }
                match prefix.endian {
                    Endian::Little => out.extend_from_slice(&value.to_le_bytes()[..width]),
                    Endian::Big => out.extend_from_slice(&value.to_be_bytes()[8 - width..]),
                }
                out.resize(out.len() + prefix.skip, 0);
            }
            Framing::Mdp3 => {
                let size = u16::try_from(len + 2).map_err(|_| too_long(u64::from(u16::MAX) - 2))?;
                out.extend_from_slice(&size.to_le_bytes());
            }
        }
        Ok(())
    }
}

/// The 12-byte header of a CME MDP 3.0 packet: its sequence number and sending time (ns).
pub fn mdp3_packet_header(
    sequence_number: u32,
    sending_time_ns: u64,
) -> [u8; MDP3_PACKET_HEADER_LEN] {
    let mut header = [0; MDP3_PACKET_HEADER_LEN];
    header[..4].copy_from_slice(&sequence_number.to_le_bytes());
    header[4..].copy_from_slice(&sending_time_ns.to_le_bytes());
    header
}

impl fmt::Display for Framing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Framing::Raw => f.write_str("raw"),
            Framing::Sofh => f.write_str("sofh"),
            Framing::LengthPrefixed(prefix) => prefix.fmt(f),
            Framing::Mdp3 => f.write_str("mdp3"),
        }
    }
}

impl FromStr for Framing {
    type Err = String;

    /// Parses `raw`, `sofh`, `mdp3`, or a length prefix such as `u16le` or `u32be+inclusive`
    /// (see [`LengthPrefix`]), optionally written `length-prefixed:u16le`.
    fn from_str(s: &str) -> Result<Framing, String> {
        match s.to_ascii_lowercase().as_str() {
            "raw" => Ok(Framing::Raw),
            "sofh" => Ok(Framing::Sofh),
            "mdp3" => Ok(Framing::Mdp3),
            other => {
                let spec = other.strip_prefix("length-prefixed:").unwrap_or(other);
                spec.parse().map(Framing::LengthPrefixed).map_err(|e| {
                    format!(
                        "unknown framing {s:?}: expected raw, sofh, mdp3 or a length prefix; {e}"
                    )
                })
            }
        }
    }
}

/// The `message_length` function type for framings that do not need one.
pub type NoLength = fn(&[u8]) -> Result<usize, String>;

/// A `message_length` function for framings other than [`Framing::Raw`]; it always fails.
pub fn no_length(_: &[u8]) -> Result<usize, String> {
    Err("this framing needs no message length function".to_string())
}

/// Frames raw, back-to-back messages whose lengths `message_length` gives.
pub fn raw<F>(data: &[u8], message_length: F) -> Frames<'_, F>
where
    F: Fn(&[u8]) -> Result<usize, String>,
{
    Frames::new(Framing::Raw, data, message_length)
}

/// Frames messages each preceded by a Simple Open Framing Header.
pub fn sofh(data: &[u8]) -> Frames<'_, NoLength> {
    Frames::new(Framing::Sofh, data, no_length)
}

/// Frames messages each preceded by a length field.
pub fn length_prefixed(data: &[u8], prefix: LengthPrefix) -> Frames<'_, NoLength> {
    Frames::new(Framing::LengthPrefixed(prefix), data, no_length)
}

/// Frames the messages of one CME MDP 3.0 packet.
pub fn mdp3(packet: &[u8]) -> Frames<'_, NoLength> {
    Frames::new(Framing::Mdp3, packet, no_length)
}

/// What to do after an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resume {
    /// Continue at this many bytes after the start of the faulty frame.
    At(usize),
    /// Look for the next plausible header (SOFH).
    Scan,
    /// Nothing more can be framed.
    Stop,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// A message at `buf[start..end]`; the next frame starts at `end`.
    Frame { start: usize, end: usize },
    /// The frame needs `needed` bytes in all but fewer are there.
    Incomplete { needed: usize },
    /// The frame is bad.
    Bad { message: String, resume: Resume },
}

/// One framing step at the start of `buf` for the length-delimited framings.
fn step_prefixed(prefix: &LengthPrefix, buf: &[u8]) -> Step {
    let header = prefix.header_len();
    if buf.len() < header {
        return Step::Incomplete { needed: header };
    }
    let value = prefix.read(buf);
    let total = if prefix.inclusive {
        if value < header as u64 {
            return Step::Bad {
                message: format!(
                    "length {value} is smaller than its own {header}-byte framing header"
                ),
                resume: Resume::Stop,
            };
        }
        value
    } else {
        value.saturating_add(header as u64)
    };
    if total == header as u64 {
        return Step::Bad {
            message: format!("empty message (length {value})"),
            resume: Resume::At(header),
        };
    }
    let total = usize::try_from(total).unwrap_or(usize::MAX);
    if total > buf.len() {
        return Step::Incomplete { needed: total };
    }
    Step::Frame {
        start: header,
        end: total,
    }
}

fn step_sofh(buf: &[u8]) -> Step {
    if buf.len() < SOFH_HEADER_LEN {
        return Step::Incomplete {
            needed: SOFH_HEADER_LEN,
        };
    }
    let len = u32::from_be_bytes([buf[0], buf[1], buf[2], buf[3]]) as usize;
    let encoding = u16::from_be_bytes([buf[4], buf[5]]);
    if len < SOFH_HEADER_LEN {
        return Step::Bad {
            message: format!(
                "SOFH message length {len} is smaller than the {SOFH_HEADER_LEN}-byte header"
            ),
            resume: Resume::Scan,
        };
    }
    if encoding != SOFH_SBE_LITTLE_ENDIAN && encoding != SOFH_SBE_BIG_ENDIAN {
        let resume = if len <= buf.len() {
            Resume::At(len)
        } else {
            Resume::Scan
        };
        return Step::Bad {
            message: format!(
                "SOFH encoding type {encoding:#06X} is not SBE 1.0 (0x5BE0 little-endian or \
                 0xEB50 big-endian)"
            ),
            resume,
        };
    }
    if len == SOFH_HEADER_LEN {
        return Step::Bad {
            message: "empty SOFH message (length 6)".to_string(),
            resume: Resume::At(SOFH_HEADER_LEN),
        };
    }
    if len > buf.len() {
        return Step::Incomplete { needed: len };
    }
    Step::Frame {
        start: SOFH_HEADER_LEN,
        end: len,
    }
}

/// Whether `buf` starts with a plausible SOFH header: a known encoding type and a length of more
/// than the header which, if `complete`, fits in `buf`.
fn plausible_sofh(buf: &[u8], complete: bool) -> bool {
    if buf.len() < SOFH_HEADER_LEN {
        return false;
    }
    let len = u32::from_be_bytes([buf[0], buf[1], buf[2], buf[3]]) as usize;
    let encoding = u16::from_be_bytes([buf[4], buf[5]]);
    (encoding == SOFH_SBE_LITTLE_ENDIAN || encoding == SOFH_SBE_BIG_ENDIAN)
        && len > SOFH_HEADER_LEN
        && (!complete || len <= buf.len())
}

fn step_raw<F>(message_length: &F, buf: &[u8]) -> Step
where
    F: Fn(&[u8]) -> Result<usize, String>,
{
    match message_length(buf) {
        Err(message) => Step::Bad {
            message,
            resume: Resume::Stop,
        },
        Ok(0) => Step::Bad {
            message: "message length 0".to_string(),
            resume: Resume::Stop,
        },
        Ok(len) if len > buf.len() => Step::Incomplete { needed: len },
        Ok(len) => Step::Frame { start: 0, end: len },
    }
}

const MDP3_PREFIX: LengthPrefix = LengthPrefix {
    width: 2,
    endian: Endian::Little,
    inclusive: true,
    skip: 0,
};

/// An iterator over the frames of a byte slice: see [`Framing::frames`].
///
/// Yields `Ok(frame)` per message and `Err` per problem. After an error it resumes where the
/// framing allows (see [`Framing`]'s variants) or ends. It never panics, and always ends: every
/// step consumes input.
pub struct Frames<'a, F> {
    framing: Framing,
    data: &'a [u8],
    pos: usize,
    done: bool,
    message_length: F,
    meta: Option<FrameMeta>,
    pending: Option<FrameError>,
}

impl<'a, F> Frames<'a, F>
where
    F: Fn(&[u8]) -> Result<usize, String>,
{
    fn new(framing: Framing, data: &'a [u8], message_length: F) -> Frames<'a, F> {
        let mut frames = Frames {
            framing,
            data,
            pos: 0,
            done: false,
            message_length,
            meta: None,
            pending: None,
        };
        if framing == Framing::Mdp3 {
            if data.len() < MDP3_PACKET_HEADER_LEN {
                frames.pending = Some(FrameError {
                    offset: 0,
                    message: format!(
                        "MDP 3.0 packet of {} bytes is shorter than its {MDP3_PACKET_HEADER_LEN}-byte header",
                        data.len()
                    ),
                });
                frames.done = true;
            } else {
                let mut seq = [0; 4];
                seq.copy_from_slice(&data[..4]);
                let mut time = [0; 8];
                time.copy_from_slice(&data[4..12]);
                frames.meta = Some(FrameMeta::Mdp3 {
                    sequence_number: u32::from_le_bytes(seq),
                    sending_time_ns: u64::from_le_bytes(time),
                });
                frames.pos = MDP3_PACKET_HEADER_LEN;
            }
        }
        frames
    }

    /// The offset in the input where framing will continue.
    pub fn position(&self) -> usize {
        self.pos
    }

    fn step(&self, buf: &[u8]) -> Step {
        match &self.framing {
            Framing::Raw => step_raw(&self.message_length, buf),
            Framing::Sofh => step_sofh(buf),
            Framing::LengthPrefixed(prefix) => step_prefixed(prefix, buf),
            Framing::Mdp3 => step_prefixed(&MDP3_PREFIX, buf),
        }
    }

    fn resume(&mut self, resume: Resume) {
        match resume {
            Resume::At(n) => self.pos += n,
            Resume::Stop => self.done = true,
            Resume::Scan => {
                let start = self.pos + 1;
                match (start..self.data.len()).find(|&i| plausible_sofh(&self.data[i..], true)) {
                    Some(i) => self.pos = i,
                    None => self.done = true,
                }
            }
        }
    }
}

impl<'a, F> Iterator for Frames<'a, F>
where
    F: Fn(&[u8]) -> Result<usize, String>,
{
    type Item = Result<Frame<'a>, FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(error) = self.pending.take() {
            return Some(Err(error));
        }
        if self.done || self.pos >= self.data.len() {
            self.done = true;
            return None;
        }
        let buf = &self.data[self.pos..];
        let offset = self.pos;
        match self.step(buf) {
            Step::Frame { start, end } => {
                self.pos += end;
                let meta = match self.framing {
                    Framing::Sofh => Some(FrameMeta::Sofh {
                        encoding_type: u16::from_be_bytes([buf[4], buf[5]]),
                    }),
                    _ => self.meta,
                };
                Some(Ok(Frame {
                    offset: offset + start,
                    bytes: &buf[start..end],
                    meta,
                }))
            }
            Step::Incomplete { needed } => {
                let message = format!(
                    "{} needs {needed} bytes but only {} remain in the input",
                    describe(&self.framing),
                    buf.len()
                );
                let resume = match self.framing {
                    Framing::Sofh => Resume::Scan,
                    _ => Resume::Stop,
                };
                self.resume(resume);
                Some(Err(FrameError { offset, message }))
            }
            Step::Bad { message, resume } => {
                self.resume(resume);
                Some(Err(FrameError { offset, message }))
            }
        }
    }
}

fn describe(framing: &Framing) -> &'static str {
    match framing {
        Framing::Raw => "message",
        Framing::Sofh => "SOFH frame",
        Framing::LengthPrefixed(_) => "length-prefixed frame",
        Framing::Mdp3 => "MDP 3.0 message",
    }
}

/// A message framed from a stream by [`StreamFramer`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamFrame {
    /// Offset of the message (after any framing header) in the stream.
    pub stream_offset: u64,
    /// The message, starting with its SBE message header.
    pub bytes: Vec<u8>,
    /// Timestamp of the chunk that held the message's last byte.
    pub timestamp_ns: u64,
    /// Caller-supplied position (e.g. a packet's offset in a capture file) of that chunk.
    pub position: usize,
    /// What the framing knows about the message besides its bytes.
    pub meta: Option<FrameMeta>,
}

/// An error framing a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamFrameError {
    /// Offset in the stream where the faulty frame starts.
    pub stream_offset: u64,
    /// Caller-supplied position of the chunk that held the frame's first byte.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for StreamFrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at stream offset {} (position {}): {}",
            self.stream_offset, self.position, self.message
        )
    }
}

impl std::error::Error for StreamFrameError {}

/// Frames a byte stream that arrives in chunks (such as a reassembled TCP stream): a message may
/// span chunks, and is reported with the timestamp of the chunk where it ends.
///
/// Works for [`Framing::Raw`], [`Framing::Sofh`] and [`Framing::LengthPrefixed`]; MDP 3.0 frames
/// datagrams, not streams. Bytes wait in the framer until their frame is complete. With
/// [`Framing::Raw`], a `message_length` error is taken to mean "not enough bytes yet" until
/// `max_frame_len` bytes are buffered; for the other framings a declared length over
/// `max_frame_len` is an error. After an error the framer resumes as [`Frames`] does; once it
/// stops it drops further bytes until [`StreamFramer::reset`].
pub struct StreamFramer<F> {
    framing: Framing,
    message_length: F,
    max_frame_len: usize,
    buf: Vec<u8>,
    /// Stream offset of `buf[0]`.
    base: u64,
    /// For each chunk in `buf`: the stream offset just past it, its timestamp and position.
    chunks: VecDeque<(u64, u64, usize)>,
    stopped: bool,
    scanning: bool,
}

/// The default bound on a stream frame's size: 16 MiB.
pub const DEFAULT_MAX_FRAME_LEN: usize = 16 << 20;

impl<F> StreamFramer<F>
where
    F: Fn(&[u8]) -> Result<usize, String>,
{
    /// A framer for `framing` (an error for [`Framing::Mdp3`]).
    pub fn new(framing: Framing, message_length: F) -> Result<StreamFramer<F>, String> {
        if !framing.is_stream_framing() {
            return Err(format!(
                "framing {framing} applies to datagrams, not to byte streams"
            ));
        }
        Ok(StreamFramer {
            framing,
            message_length,
            max_frame_len: DEFAULT_MAX_FRAME_LEN,
            buf: Vec::new(),
            base: 0,
            chunks: VecDeque::new(),
            stopped: false,
            scanning: false,
        })
    }

    /// Sets the bound on a frame's size (default [`DEFAULT_MAX_FRAME_LEN`]).
    pub fn with_max_frame_len(mut self, max_frame_len: usize) -> StreamFramer<F> {
        self.max_frame_len = max_frame_len.max(1);
        self
    }

    /// Drops buffered bytes and starts afresh at `stream_offset` (after a gap in the stream).
    pub fn reset(&mut self, stream_offset: u64) {
        self.buf.clear();
        self.chunks.clear();
        self.base = stream_offset;
        self.stopped = false;
        self.scanning = false;
    }

    /// The stream offset that the next pushed chunk is taken to start at.
    pub fn next_stream_offset(&self) -> u64 {
        self.base + self.buf.len() as u64
    }

    /// Number of bytes waiting for the rest of their frame.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Adds the next chunk of the stream, with its timestamp and a position to report (such as
    /// the offset of its packet in a capture), and returns the frames and errors it completes.
    pub fn push(
        &mut self,
        data: &[u8],
        timestamp_ns: u64,
        position: usize,
    ) -> Vec<Result<StreamFrame, StreamFrameError>> {
        let mut out = Vec::new();
        if data.is_empty() {
            return out;
        }
        if self.stopped {
            self.base += data.len() as u64;
            return out;
        }
        self.buf.extend_from_slice(data);
        self.chunks
            .push_back((self.base + self.buf.len() as u64, timestamp_ns, position));
        self.run(false, &mut out);
        out
    }

    /// Ends the stream: bytes left over are reported as an incomplete frame.
    pub fn finish(&mut self) -> Vec<Result<StreamFrame, StreamFrameError>> {
        let mut out = Vec::new();
        if !self.stopped {
            self.run(true, &mut out);
        }
        let base = self.base + self.buf.len() as u64;
        self.reset(base);
        out
    }

    /// Timestamp and position of the chunk holding stream offset `at`.
    fn chunk_of(&self, at: u64) -> (u64, usize) {
        self.chunks
            .iter()
            .find(|(end, _, _)| *end > at)
            .or(self.chunks.back())
            .map(|&(_, ts, pos)| (ts, pos))
            .unwrap_or((0, 0))
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.buf.len());
        self.buf.drain(..n);
        self.base += n as u64;
        while self
            .chunks
            .front()
            .is_some_and(|(end, _, _)| *end <= self.base)
        {
            self.chunks.pop_front();
        }
    }

    fn error(&self, message: String) -> StreamFrameError {
        StreamFrameError {
            stream_offset: self.base,
            position: self.chunk_of(self.base).1,
            message,
        }
    }

    fn run(&mut self, at_end: bool, out: &mut Vec<Result<StreamFrame, StreamFrameError>>) {
        loop {
            if self.scanning {
                match (1..self.buf.len()).find(|&i| plausible_sofh(&self.buf[i..], false)) {
                    Some(i) => {
                        self.consume(i);
                        self.scanning = false;
                    }
                    None => {
                        // Keep what could be the start of a header.
                        let keep = self.buf.len().min(SOFH_HEADER_LEN - 1);
                        self.consume(self.buf.len() - keep);
                        if at_end && !self.buf.is_empty() {
                            out.push(Err(self.error(format!(
                                "stream ends while looking for a SOFH header ({} bytes left)",
                                self.buf.len()
                            ))));
                            let n = self.buf.len();
                            self.consume(n);
                        }
                        return;
                    }
                }
            }
            if self.buf.is_empty() {
                return;
            }
            let step = match &self.framing {
                Framing::Raw => match step_raw(&self.message_length, &self.buf) {
                    Step::Bad { .. } if !at_end && self.buf.len() < self.max_frame_len => {
                        return;
                    }
                    step => step,
                },
                Framing::Sofh => step_sofh(&self.buf),
                Framing::LengthPrefixed(prefix) => step_prefixed(prefix, &self.buf),
                Framing::Mdp3 => step_prefixed(&MDP3_PREFIX, &self.buf),
            };
            match step {
                Step::Frame { start, end } => {
                    let meta = match self.framing {
                        Framing::Sofh => Some(FrameMeta::Sofh {
                            encoding_type: u16::from_be_bytes([self.buf[4], self.buf[5]]),
                        }),
                        _ => None,
                    };
                    let (timestamp_ns, position) = self.chunk_of(self.base + end as u64 - 1);
                    out.push(Ok(StreamFrame {
                        stream_offset: self.base + start as u64,
                        bytes: self.buf[start..end].to_vec(),
                        timestamp_ns,
                        position,
                        meta,
                    }));
                    self.consume(end);
                }
                Step::Incomplete { needed } if needed > self.max_frame_len => {
                    let error = self.error(format!(
                        "{} declares {needed} bytes, more than the {} allowed",
                        describe(&self.framing),
                        self.max_frame_len
                    ));
                    out.push(Err(error));
                    if !self.after_error(Resume::Scan) {
                        return;
                    }
                }
                Step::Incomplete { needed } => {
                    if at_end {
                        let error = self.error(format!(
                            "stream ends inside a {}: it needs {needed} bytes, {} remain",
                            describe(&self.framing),
                            self.buf.len()
                        ));
                        out.push(Err(error));
                        let n = self.buf.len();
                        self.consume(n);
                    }
                    return;
                }
                Step::Bad { message, resume } => {
                    out.push(Err(self.error(message)));
                    if !self.after_error(resume) {
                        return;
                    }
                }
            }
        }
    }

    /// Applies `resume` after an error; false if framing stops.
    fn after_error(&mut self, resume: Resume) -> bool {
        match (resume, self.framing) {
            (Resume::At(n), _) => {
                self.consume(n);
                true
            }
            (Resume::Scan, Framing::Sofh) => {
                self.scanning = true;
                true
            }
            _ => {
                self.stopped = true;
                let n = self.buf.len();
                self.consume(n);
                false
            }
        }
    }
}

//! Framings: how SBE messages are delimited in a byte sequence.
//!
//! A [`Framing`] splits bytes into [`Frame`]s, each one SBE message starting with its message
//! header. [`Framing::frames`] (or the shortcuts [`raw`], [`sofh`], [`length_prefixed`] and
//! [`mdp3`]) frames a complete byte slice; [`StreamFramer`] frames a byte stream that arrives in
//! pieces, such as a reassembled TCP stream.

use std::fmt;
use std::str::FromStr;

mod sofh;
mod stream;

use sofh::{plausible_sofh, step_sofh};
pub use sofh::{
    SofhForm, SOFH_CME, SOFH_CME_HEADER_LEN, SOFH_HEADER_LEN, SOFH_SBE_BIG_ENDIAN,
    SOFH_SBE_LITTLE_ENDIAN,
};
pub use stream::{
    StreamFrame, StreamFrameError, StreamFrameRef, StreamFramer, DEFAULT_MAX_FRAME_LEN,
};
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
    /// Each message preceded by a Simple Open Framing Header, in either form (told apart frame by
    /// frame by the encoding type): the FIX standard's 4-byte big-endian length (header
    /// included) and 2-byte big-endian encoding type, `0x5BE0` (SBE 1.0 little-endian) or
    /// `0xEB50` (SBE 1.0 big-endian); or CME's (iLink 3) 2-byte little-endian length (header
    /// included) and encoding type `0xCAFE` little-endian. A frame with another encoding type is
    /// reported and skipped. After a length that lies (smaller than the header, or past the end) framing
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
    /// again: nothing for [`Framing::Raw`], the standard's SOFH with the encoding type of
    /// `big_endian` SBE (CME's form: [`SofhForm::write`]), a length prefix (with its skipped bytes zero), or for [`Framing::Mdp3`] the message's
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
            Framing::Sofh => SofhForm::Standard.write(len, big_endian, out)?,
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

/// The framings [`guess`] tries, in order.
const GUESSES: [&str; 11] = [
    "sofh",
    "mdp3",
    "raw",
    "u16le",
    "u16le+inclusive",
    "u16be",
    "u16be+inclusive",
    "u32le",
    "u32le+inclusive",
    "u32be",
    "u32be+inclusive",
];

/// A framing under which `bytes` start with a whole message that `message_length` agrees with
/// (its length is exactly the frame's), other than `not`: a suggestion for when `not` does not
/// fit the input. `None` when no framing fits.
pub fn guess<F>(bytes: &[u8], message_length: F, not: Framing) -> Option<Framing>
where
    F: Fn(&[u8]) -> Result<usize, String>,
{
    GUESSES
        .iter()
        .filter_map(|name| name.parse::<Framing>().ok())
        .filter(|framing| *framing != not)
        .find(|framing| {
            let first = framing.frames(bytes, &message_length).next();
            first.is_some_and(|frame| {
                frame.is_ok_and(|f| message_length(f.bytes) == Ok(f.bytes.len()))
            })
        })
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

/// The sequence number and sending time of the CME MDP 3.0 packet header at the start of
/// `packet`; `None` when it is shorter than the header.
pub fn mdp3_packet_meta(packet: &[u8]) -> Option<FrameMeta> {
    let header = packet.get(..MDP3_PACKET_HEADER_LEN)?;
    let mut seq = [0; 4];
    seq.copy_from_slice(&header[..4]);
    let mut time = [0; 8];
    time.copy_from_slice(&header[4..]);
    Some(FrameMeta::Mdp3 {
        sequence_number: u32::from_le_bytes(seq),
        sending_time_ns: u64::from_le_bytes(time),
    })
}

/// The framing of the messages inside an MDP 3.0 packet, after its header: each after a 2-byte
/// little-endian size that counts those 2 bytes.
pub const MDP3_MESSAGES: Framing = Framing::LengthPrefixed(MDP3_PREFIX);

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
    Frame {
        start: usize,
        end: usize,
        meta: Option<FrameMeta>,
    },
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
        meta: None,
    }
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
        Ok(len) => Step::Frame {
            start: 0,
            end: len,
            meta: None,
        },
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
                frames.meta = mdp3_packet_meta(data);
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
            Step::Frame { start, end, meta } => {
                self.pos += end;
                Some(Ok(Frame {
                    offset: offset + start,
                    bytes: &buf[start..end],
                    meta: meta.or(self.meta),
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

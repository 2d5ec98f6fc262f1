//! Framing a byte stream that arrives in pieces (a TCP stream, a pipe, a file being read).

use std::collections::VecDeque;
use std::fmt;

use super::{
    describe, plausible_sofh, step_prefixed, step_raw, step_sofh, FrameMeta, Framing, Resume, Step,
    MDP3_PREFIX, SOFH_HEADER_LEN,
};

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

/// A [`StreamFrame`] whose bytes are borrowed from the framer's buffer, as
/// [`StreamFramer::push_with`] hands them out (no copy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamFrameRef<'a> {
    /// Offset of the message (after any framing header) in the stream.
    pub stream_offset: u64,
    /// The message, starting with its SBE message header.
    pub bytes: &'a [u8],
    /// Timestamp of the chunk that held the message's last byte.
    pub timestamp_ns: u64,
    /// Caller-supplied position of that chunk.
    pub position: usize,
    /// What the framing knows about the message besides its bytes.
    pub meta: Option<FrameMeta>,
}

impl StreamFrameRef<'_> {
    fn to_owned_frame(self) -> StreamFrame {
        StreamFrame {
            stream_offset: self.stream_offset,
            bytes: self.bytes.to_vec(),
            timestamp_ns: self.timestamp_ns,
            position: self.position,
            meta: self.meta,
        }
    }
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
    /// When the frame declares more bytes than the framer's bound allows (see
    /// [`StreamFramer::with_max_frame_len`]): how many it declares (with [`Framing::Raw`], how
    /// many at least, by the caller's `message_length`). `None` for other errors.
    pub declared_len: Option<usize>,
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

/// Frames a byte stream that arrives in chunks (a reassembled TCP stream, a pipe, a file read
/// piece by piece): a message may span chunks, and is reported with the timestamp of the chunk
/// where it ends. Only the bytes of an incomplete frame wait in the framer, so memory stays
/// bounded by the largest frame (at most `max_frame_len`) plus a chunk.
///
/// Works for [`Framing::Raw`], [`Framing::Sofh`] and [`Framing::LengthPrefixed`]; MDP 3.0 frames
/// datagrams, not streams. With [`Framing::Raw`], `message_length` says how long the message at
/// the start of its argument is; a length beyond the bytes given means "wait for more", and an
/// error is final (framing stops). A frame that declares more than `max_frame_len` bytes (with
/// `Raw`, a `message_length` over it) is an error at once, without waiting for its bytes: a
/// lying length in a live stream is reported as soon as its header is in. After an error the framer resumes as [`super::Frames`] does; once
/// it stops, it keeps the bytes it stopped at ([`StreamFramer::pending`]) and drops further bytes
/// until [`StreamFramer::reset`].
pub struct StreamFramer<F> {
    framing: Framing,
    message_length: F,
    max_frame_len: usize,
    /// Waiting bytes are `buf[start..]`; the consumed prefix is dropped before the next push.
    buf: Vec<u8>,
    start: usize,
    /// Stream offset of `buf[start]`.
    base: u64,
    /// For each chunk in `buf`: the stream offset just past it, its timestamp and position.
    chunks: VecDeque<(u64, u64, usize)>,
    stopped: bool,
    scanning: bool,
}

/// The default bound on a stream frame's size: 16 MiB.
pub const DEFAULT_MAX_FRAME_LEN: usize = 16 << 20;

type Sink<'s> = dyn FnMut(Result<StreamFrameRef<'_>, StreamFrameError>) + 's;

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
            start: 0,
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
        self.start = 0;
        self.chunks.clear();
        self.base = stream_offset;
        self.stopped = false;
        self.scanning = false;
    }

    /// The stream offset that the next pushed chunk is taken to start at.
    pub fn next_stream_offset(&self) -> u64 {
        self.base + self.buffered() as u64
    }

    /// Number of bytes waiting for the rest of their frame.
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.start
    }

    /// The bytes waiting (for the rest of their frame, or where framing stopped), and their
    /// stream offset.
    pub fn pending(&self) -> (u64, &[u8]) {
        (self.base, &self.buf[self.start..])
    }

    /// Whether framing has stopped after an error it cannot resume from.
    pub fn stopped(&self) -> bool {
        self.stopped
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
        self.push_with(data, timestamp_ns, position, &mut |item| {
            out.push(item.map(StreamFrameRef::to_owned_frame));
        });
        out
    }

    /// As [`StreamFramer::push`], handing each frame and error to `sink` as it is found, the
    /// frame's bytes borrowed from the framer.
    pub fn push_with(
        &mut self,
        data: &[u8],
        timestamp_ns: u64,
        position: usize,
        sink: &mut Sink<'_>,
    ) {
        if data.is_empty() {
            return;
        }
        if self.stopped {
            self.base += self.buffered() as u64 + data.len() as u64;
            self.buf.clear();
            self.start = 0;
            return;
        }
        self.buf.drain(..self.start);
        self.start = 0;
        self.buf.extend_from_slice(data);
        self.chunks
            .push_back((self.next_stream_offset(), timestamp_ns, position));
        self.run(false, sink);
    }

    /// Ends the stream: bytes left over are reported as an incomplete frame.
    pub fn finish(&mut self) -> Vec<Result<StreamFrame, StreamFrameError>> {
        let mut out = Vec::new();
        self.finish_with(&mut |item| out.push(item.map(StreamFrameRef::to_owned_frame)));
        out
    }

    /// As [`StreamFramer::finish`], handing each frame and error to `sink`.
    pub fn finish_with(&mut self, sink: &mut Sink<'_>) {
        if !self.stopped {
            self.run(true, sink);
        }
        let next = self.next_stream_offset();
        self.reset(next);
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
        let n = n.min(self.buffered());
        self.start += n;
        self.base += n as u64;
        while self
            .chunks
            .front()
            .is_some_and(|(end, _, _)| *end <= self.base)
        {
            self.chunks.pop_front();
        }
    }

    fn consume_all(&mut self) {
        self.consume(self.buffered());
    }

    fn error(&self, message: String) -> StreamFrameError {
        StreamFrameError {
            stream_offset: self.base,
            position: self.chunk_of(self.base).1,
            message,
            declared_len: None,
        }
    }

    /// Looks for the next plausible SOFH header; false when the bytes run out first.
    fn scan(&mut self, at_end: bool, sink: &mut Sink<'_>) -> bool {
        let waiting = &self.buf[self.start..];
        if let Some(i) = (1..waiting.len()).find(|&i| plausible_sofh(&waiting[i..], at_end)) {
            self.consume(i);
            self.scanning = false;
            return true;
        }
        // Keep what could be the start of a header.
        let keep = waiting.len().min(SOFH_HEADER_LEN - 1);
        self.consume(waiting.len() - keep);
        if at_end && self.buffered() > 0 {
            sink(Err(self.error(format!(
                "stream ends while looking for a SOFH header ({} bytes left)",
                self.buffered()
            ))));
            self.consume_all();
        }
        false
    }

    fn run(&mut self, at_end: bool, sink: &mut Sink<'_>) {
        loop {
            if self.scanning && !self.scan(at_end, sink) {
                return;
            }
            let waiting = &self.buf[self.start..];
            if waiting.is_empty() {
                return;
            }
            let step = match &self.framing {
                Framing::Raw => step_raw(&self.message_length, waiting),
                Framing::Sofh => step_sofh(waiting),
                Framing::LengthPrefixed(prefix) => step_prefixed(prefix, waiting),
                Framing::Mdp3 => step_prefixed(&MDP3_PREFIX, waiting),
            };
            match step {
                Step::Frame { start, end, meta } => {
                    let (timestamp_ns, position) = self.chunk_of(self.base + end as u64 - 1);
                    sink(Ok(StreamFrameRef {
                        stream_offset: self.base + start as u64,
                        bytes: &waiting[start..end],
                        timestamp_ns,
                        position,
                        meta,
                    }));
                    self.consume(end);
                }
                Step::Incomplete { needed } if needed > self.max_frame_len => {
                    let at_least = if self.framing == Framing::Raw {
                        "at least "
                    } else {
                        ""
                    };
                    let mut error = self.error(format!(
                        "{} declares {at_least}{needed} bytes, more than the {} allowed",
                        describe(&self.framing),
                        self.max_frame_len
                    ));
                    error.declared_len = Some(needed);
                    sink(Err(error));
                    if !self.after_error(Resume::Scan) {
                        return;
                    }
                }
                Step::Incomplete { .. } if !at_end => return,
                Step::Incomplete { needed } => {
                    let error = self.error(format!(
                        "stream ends inside a {}: it needs {needed} bytes, {} remain",
                        describe(&self.framing),
                        waiting.len()
                    ));
                    sink(Err(error));
                    // A lying SOFH length is found out at the end: frames may follow it.
                    let next = (self.framing == Framing::Sofh)
                        .then(|| (1..waiting.len()).find(|&i| plausible_sofh(&waiting[i..], true)))
                        .flatten();
                    match next {
                        Some(i) => self.consume(i),
                        None => {
                            self.consume_all();
                            return;
                        }
                    }
                }
                Step::Bad { message, resume } => {
                    sink(Err(self.error(message)));
                    if !self.after_error(resume) {
                        return;
                    }
                }
            }
        }
    }

    /// Applies `resume` after an error; false if framing stops (the bytes stay in `pending`).
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
                false
            }
        }
    }
}

//! In-order TCP stream reassembly.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::{Flow, Payload};

/// A TCP segment to reassemble.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TcpSegment<'a> {
    /// The flow (one direction of the connection).
    pub flow: Flow,
    /// The segment's sequence number.
    pub seq: u32,
    /// Whether the SYN flag is set (the data then starts at `seq + 1`).
    pub syn: bool,
    /// The segment's payload.
    pub data: &'a [u8],
    /// Capture time of the segment.
    pub timestamp_ns: u64,
    /// Offset of the segment's packet in the capture file.
    pub packet_offset: usize,
}

/// What the reassembler produces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamEvent<'a> {
    /// The next contiguous bytes of a stream, with the timestamp and packet offset of the
    /// segment they came in (borrowed from the segment pushed, or owned when they waited).
    Data(Payload<'a>),
    /// Bytes are missing: the stream resumes `missing` bytes after `stream_offset`.
    Gap {
        /// The flow.
        flow: Flow,
        /// Offset in the capture of the packet where the stream resumes.
        packet_offset: usize,
        /// Stream offset where the missing bytes start.
        stream_offset: u64,
        /// How many bytes are missing.
        missing: u64,
    },
}

#[derive(Debug, Clone)]
struct Pending<'a> {
    data: Cow<'a, [u8]>,
    timestamp_ns: u64,
    packet_offset: usize,
}

#[derive(Debug, Clone, Default)]
struct Stream {
    /// Sequence number of the next byte expected.
    next_seq: u32,
    /// Stream offset of the next byte expected.
    next_offset: u64,
    /// Initial sequence number, if a SYN was seen.
    isn: Option<u32>,
    /// Segments after a hole, by stream offset.
    pending: BTreeMap<u64, Pending<'static>>,
    pending_bytes: usize,
}

/// Reassembles TCP streams in sequence order, one per flow (direction of a connection).
///
/// A stream starts at its SYN (the data starting at the initial sequence number + 1) or, when
/// the capture starts mid-connection, at the first segment seen. Bytes already delivered
/// (retransmissions, duplicates, overlaps) are dropped. A segment that comes early (after a hole)
/// waits until the hole is filled; when more than the bound of segments or bytes wait, or the
/// capture ends, the hole is reported as a [`StreamEvent::Gap`] and the stream resumes after it.
/// A SYN with a new initial sequence number starts a new stream on the flow (stream offsets
/// restart at 0). FIN and RST do not end a stream (a later retransmission may still fill a
/// hole). Sequence numbers wrap around. Waiting segments are copied; all streams together hold
/// at most 16 MiB of them by default (beyond it, the stream holding most gives up its first
/// hole), so memory stays bounded however many connections a capture holds.
#[derive(Debug, Clone)]
pub struct TcpReassembler {
    streams: BTreeMap<Flow, Stream>,
    max_pending_segments: usize,
    max_pending_bytes: usize,
    max_total_bytes: usize,
    total_bytes: usize,
}

impl Default for TcpReassembler {
    fn default() -> Self {
        TcpReassembler::new()
    }
}

impl TcpReassembler {
    /// A reassembler holding up to 1024 out-of-order segments or 4 MiB per stream, 16 MiB in all.
    pub fn new() -> TcpReassembler {
        TcpReassembler {
            streams: BTreeMap::new(),
            max_pending_segments: 1024,
            max_pending_bytes: 4 << 20,
            max_total_bytes: 16 << 20,
            total_bytes: 0,
        }
    }

    /// Sets how many out-of-order segments, and how many bytes in them, may wait per stream for
    /// a hole to be filled before the hole is reported as a gap.
    pub fn with_bounds(mut self, segments: usize, bytes: usize) -> TcpReassembler {
        self.max_pending_segments = segments;
        self.max_pending_bytes = bytes;
        self
    }

    /// Sets how many bytes all streams together may hold waiting.
    pub fn with_total_bound(mut self, bytes: usize) -> TcpReassembler {
        self.max_total_bytes = bytes;
        self
    }

    /// Adds a segment; returns the stream bytes that became contiguous, and any gap.
    pub fn push<'a>(&mut self, segment: TcpSegment<'a>) -> Vec<StreamEvent<'a>> {
        let before = self.pending_in(&segment.flow);
        let out = self.push_segment(segment);
        let after = self.pending_in(&segment.flow);
        self.total_bytes = self.total_bytes - before + after;
        self.bound_total(out)
    }

    fn pending_in(&self, flow: &Flow) -> usize {
        self.streams.get(flow).map_or(0, |s| s.pending_bytes)
    }

    /// While all streams hold more than the total bound, the stream holding most skips its first
    /// hole.
    fn bound_total<'a>(&mut self, mut out: Vec<StreamEvent<'a>>) -> Vec<StreamEvent<'a>> {
        while self.total_bytes > self.max_total_bytes {
            let Some((flow, stream)) = self.streams.iter_mut().max_by_key(|(_, s)| s.pending_bytes)
            else {
                break;
            };
            let before = stream.pending_bytes;
            skip_hole(*flow, stream, &mut out);
            drain(*flow, stream, &mut out);
            self.total_bytes -= before - stream.pending_bytes;
        }
        out
    }

    fn push_segment<'a>(&mut self, segment: TcpSegment<'a>) -> Vec<StreamEvent<'a>> {
        let mut out = Vec::new();
        let data_seq = if segment.syn {
            segment.seq.wrapping_add(1)
        } else {
            segment.seq
        };
        let stream = self.streams.entry(segment.flow).or_insert_with(|| Stream {
            next_seq: data_seq,
            ..Stream::default()
        });
        if segment.syn && stream.isn != Some(segment.seq) {
            if stream.isn.is_some() || stream.next_offset > 0 || !stream.pending.is_empty() {
                // A new connection on the same addresses and ports.
                flush(segment.flow, stream, &mut out);
                *stream = Stream::default();
            }
            stream.isn = Some(segment.seq);
            stream.next_seq = data_seq;
        }
        let mut data = segment.data;
        if data.is_empty() {
            return out;
        }
        let diff = data_seq.wrapping_sub(stream.next_seq) as i32;
        if diff > 0 {
            let key = stream.next_offset + diff as u64;
            match stream.pending.get(&key) {
                Some(existing) if existing.data.len() >= data.len() => {}
                existing => {
                    stream.pending_bytes -= existing.map_or(0, |e| e.data.len());
                    stream.pending_bytes += data.len();
                    let pending = Pending {
                        data: Cow::Owned(data.to_vec()),
                        timestamp_ns: segment.timestamp_ns,
                        packet_offset: segment.packet_offset,
                    };
                    stream.pending.insert(key, pending);
                }
            }
            while stream.pending.len() > self.max_pending_segments
                || stream.pending_bytes > self.max_pending_bytes
            {
                skip_hole(segment.flow, stream, &mut out);
                drain(segment.flow, stream, &mut out);
            }
            return out;
        }
        let behind = diff.unsigned_abs() as usize;
        if behind >= data.len() {
            return out; // a retransmission of delivered bytes
        }
        data = &data[behind..];
        let pending = Pending {
            data: Cow::Borrowed(data),
            timestamp_ns: segment.timestamp_ns,
            packet_offset: segment.packet_offset,
        };
        deliver(segment.flow, stream, pending, &mut out);
        drain(segment.flow, stream, &mut out);
        out
    }

    /// Ends every stream: holes with bytes waiting behind them are reported as gaps and the
    /// waiting bytes released.
    pub fn finish(&mut self) -> Vec<StreamEvent<'static>> {
        let mut out = Vec::new();
        for (flow, stream) in self.streams.iter_mut() {
            flush(*flow, stream, &mut out);
        }
        self.streams.clear();
        self.total_bytes = 0;
        out
    }
}

fn deliver<'a>(
    flow: Flow,
    stream: &mut Stream,
    pending: Pending<'a>,
    out: &mut Vec<StreamEvent<'a>>,
) {
    let len = pending.data.len();
    out.push(StreamEvent::Data(Payload {
        timestamp_ns: pending.timestamp_ns,
        flow,
        packet_offset: pending.packet_offset,
        stream_offset: Some(stream.next_offset),
        data: pending.data,
    }));
    stream.next_offset += len as u64;
    stream.next_seq = stream.next_seq.wrapping_add(len as u32);
}

/// Delivers the waiting segments that have become contiguous.
fn drain<'a>(flow: Flow, stream: &mut Stream, out: &mut Vec<StreamEvent<'a>>) {
    while let Some(entry) = stream.pending.first_entry() {
        let key = *entry.key();
        if key > stream.next_offset {
            return;
        }
        let pending = entry.remove();
        stream.pending_bytes -= pending.data.len();
        let behind = (stream.next_offset - key) as usize;
        if behind < pending.data.len() {
            let mut data = pending.data.into_owned();
            data.drain(..behind);
            deliver(
                flow,
                stream,
                Pending {
                    data: Cow::Owned(data),
                    ..pending
                },
                out,
            );
        }
    }
}

/// Reports the hole before the first waiting segment and moves past it.
fn skip_hole(flow: Flow, stream: &mut Stream, out: &mut Vec<StreamEvent<'_>>) {
    let Some((&key, first)) = stream.pending.first_key_value() else {
        return;
    };
    let missing = key.saturating_sub(stream.next_offset);
    out.push(StreamEvent::Gap {
        flow,
        packet_offset: first.packet_offset,
        stream_offset: stream.next_offset,
        missing,
    });
    stream.next_offset = key;
    stream.next_seq = stream.next_seq.wrapping_add(missing as u32);
}

/// Releases every waiting segment, reporting the holes between them.
fn flush<'a>(flow: Flow, stream: &mut Stream, out: &mut Vec<StreamEvent<'a>>) {
    while !stream.pending.is_empty() {
        skip_hole(flow, stream, out);
        drain(flow, stream, out);
    }
}

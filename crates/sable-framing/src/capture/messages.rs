//! Framing a capture's payloads into SBE messages, and checking MDP 3.0 packet sequence numbers.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use super::{CaptureError, ErrorKind, Flow, Payload, Payloads, Queue, Skipped};
use crate::framing::{FrameMeta, Framing, StreamFramer, MDP3_PACKET_HEADER_LEN};

/// An SBE message found in a capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message<'a> {
    /// Capture time of the packet holding the message's last byte.
    pub timestamp_ns: u64,
    /// The flow.
    pub flow: Flow,
    /// Offset in the file of the packet holding the message's last byte.
    pub packet_offset: usize,
    /// Offset of the message in its UDP payload, or in its TCP stream direction.
    pub offset: u64,
    /// The message, starting with its SBE message header.
    pub bytes: Cow<'a, [u8]>,
    /// What the framing knows about the message besides its bytes.
    pub meta: Option<FrameMeta>,
}

impl Message<'_> {
    /// The message with its bytes owned.
    pub fn into_owned(self) -> Message<'static> {
        Message {
            bytes: Cow::Owned(self.bytes.into_owned()),
            ..self
        }
    }
}

type Sink<'s> = dyn FnMut(Result<Message<'_>, CaptureError>) + 's;

/// Frames payloads into messages, one payload at a time: each UDP datagram on its own, each TCP
/// stream direction as a byte stream (a [`StreamFramer`] per flow, holding only an incomplete
/// message). A TCP gap drops any partial message before it and framing resumes at the gap's end.
/// With [`Framing::Mdp3`], each UDP flow's packet sequence numbers are followed: a gap or a
/// repeat is reported as [`ErrorKind::Sequence`] (counted in [`MessageFramer::sequence`]), and TCP
/// flows are reported once each as [`ErrorKind::Unsupported`].
pub struct MessageFramer<F> {
    framing: Framing,
    message_length: F,
    framers: BTreeMap<Flow, StreamFramer<F>>,
    /// The bound on a TCP stream's message (see [`StreamFramer::with_max_frame_len`]).
    max_frame_len: usize,
    unsupported: BTreeSet<Flow>,
    /// The highest MDP 3.0 sequence number of each flow but `recent`'s...
    sequence_numbers: BTreeMap<Flow, u32>,
    /// ...and of the flow of the last packet, kept apart: a feed's packets come mostly from
    /// one flow, whose number is then followed without a lookup in the map.
    recent: Option<(Flow, u32)>,
    sequence: SequenceCounts,
}

/// Sequence number problems seen in MDP 3.0 flows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SequenceCounts {
    /// Gaps: a packet whose sequence number is more than one past the flow's highest.
    pub gaps: u64,
    /// Packets missing in those gaps.
    pub missing: u64,
    /// Packets whose sequence number is not above the flow's highest (repeats, or out of order).
    pub repeats: u64,
}

impl<F> MessageFramer<F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    /// A framer of payloads with `framing`; `message_length` is used by [`Framing::Raw`] only.
    pub fn new(framing: Framing, message_length: F) -> MessageFramer<F> {
        MessageFramer {
            framing,
            message_length,
            framers: BTreeMap::new(),
            max_frame_len: crate::framing::DEFAULT_MAX_FRAME_LEN,
            unsupported: BTreeSet::new(),
            sequence_numbers: BTreeMap::new(),
            recent: None,
            sequence: SequenceCounts::default(),
        }
    }

    /// Sets the bound on a message of a TCP stream (default
    /// [`crate::framing::DEFAULT_MAX_FRAME_LEN`]): one that declares more is an error at once.
    pub fn with_max_frame_len(mut self, max_frame_len: usize) -> MessageFramer<F> {
        self.max_frame_len = max_frame_len;
        self
    }

    /// The sequence number gaps and repeats seen so far.
    pub fn sequence(&self) -> SequenceCounts {
        self.sequence
    }

    /// Frames `payload`, handing each message (and problem) to `out`.
    pub fn payload(&mut self, payload: &Payload<'_>, out: &mut Sink<'_>) {
        match payload.stream_offset {
            None => self.datagram(payload, out),
            Some(offset) => self.stream(payload, offset, out),
        }
    }

    /// Ends the capture: bytes left in TCP streams are reported as incomplete messages.
    pub fn finish(&mut self, out: &mut Sink<'_>) {
        for (flow, framer) in self.framers.iter_mut() {
            framer.finish_with(&mut |result| out(stream_item(*flow, result)));
        }
        self.framers.clear();
    }

    fn datagram(&mut self, payload: &Payload<'_>, out: &mut Sink<'_>) {
        if self.framing == Framing::Mdp3 {
            self.check_sequence(payload, out);
        }
        for frame in self
            .framing
            .frames(&payload.data, self.message_length.clone())
        {
            out(match frame {
                Ok(frame) => Ok(Message {
                    timestamp_ns: payload.timestamp_ns,
                    flow: payload.flow,
                    packet_offset: payload.packet_offset,
                    offset: frame.offset as u64,
                    bytes: Cow::Borrowed(frame.bytes),
                    meta: frame.meta,
                }),
                Err(error) => Err(CaptureError {
                    offset: payload.packet_offset,
                    kind: ErrorKind::Frame,
                    flow: Some(payload.flow),
                    message: format!("at payload offset {}: {}", error.offset, error.message),
                }),
            });
        }
    }

    /// Records `seq` as `flow`'s highest sequence number; returns the one before, if any.
    fn swap_sequence(&mut self, flow: Flow, seq: u32) -> Option<u32> {
        if let Some((f, last)) = &mut self.recent {
            if *f == flow {
                return Some(std::mem::replace(last, seq));
            }
        }
        if let Some((f, last)) = self.recent.replace((flow, seq)) {
            self.sequence_numbers.insert(f, last);
        }
        self.sequence_numbers.remove(&flow)
    }

    /// Follows the flow's MDP 3.0 packet sequence numbers.
    fn check_sequence(&mut self, payload: &Payload<'_>, out: &mut Sink<'_>) {
        let Some(seq) = payload
            .data
            .get(..4)
            .filter(|_| payload.data.len() >= MDP3_PACKET_HEADER_LEN)
        else {
            return;
        };
        let seq = u32::from_le_bytes([seq[0], seq[1], seq[2], seq[3]]);
        let Some(last) = self.swap_sequence(payload.flow, seq) else {
            return;
        };
        let problem = if seq > last && seq - last > 1 {
            let missing = u64::from(seq - last - 1);
            self.sequence.gaps += 1;
            self.sequence.missing += missing;
            format!(
                "MDP 3.0 sequence gap: {missing} packet{} missing (expected {}, got {seq})",
                if missing == 1 { "" } else { "s" },
                u64::from(last) + 1
            )
        } else if seq <= last {
            self.sequence.repeats += 1;
            // Keep following from the highest number seen.
            self.swap_sequence(payload.flow, last);
            if seq == last {
                format!("MDP 3.0 sequence number {seq} repeated")
            } else {
                format!(
                    "MDP 3.0 sequence number {seq} comes after {last}: a repeat or out of order"
                )
            }
        } else {
            return;
        };
        out(Err(CaptureError {
            offset: payload.packet_offset,
            kind: ErrorKind::Sequence,
            flow: Some(payload.flow),
            message: problem,
        }));
    }

    fn stream(&mut self, payload: &Payload<'_>, stream_offset: u64, out: &mut Sink<'_>) {
        if !self.framing.is_stream_framing() {
            if self.unsupported.insert(payload.flow) {
                out(Err(CaptureError {
                    offset: payload.packet_offset,
                    kind: ErrorKind::Unsupported,
                    flow: Some(payload.flow),
                    message: format!("framing {} does not apply to TCP streams", self.framing),
                }));
            }
            return;
        }
        let framer = match self.framers.get_mut(&payload.flow) {
            Some(framer) => framer,
            None => {
                let framer = StreamFramer::new(self.framing, self.message_length.clone())
                    .expect("a stream framing")
                    .with_max_frame_len(self.max_frame_len);
                self.framers.entry(payload.flow).or_insert(framer)
            }
        };
        if framer.next_stream_offset() != stream_offset {
            if framer.buffered() > 0 && !framer.stopped() {
                out(Err(CaptureError {
                    offset: payload.packet_offset,
                    kind: ErrorKind::Frame,
                    flow: Some(payload.flow),
                    message: format!(
                        "{} bytes of an incomplete message dropped at a break in the stream",
                        framer.buffered()
                    ),
                }));
            }
            framer.reset(stream_offset);
        }
        let flow = payload.flow;
        framer.push_with(
            &payload.data,
            payload.timestamp_ns,
            payload.packet_offset,
            &mut |result| out(stream_item(flow, result)),
        );
    }
}

fn stream_item<'a>(
    flow: Flow,
    result: Result<crate::StreamFrameRef<'a>, crate::StreamFrameError>,
) -> Result<Message<'a>, CaptureError> {
    match result {
        Ok(frame) => Ok(Message {
            timestamp_ns: frame.timestamp_ns,
            flow,
            packet_offset: frame.position,
            offset: frame.stream_offset,
            bytes: Cow::Borrowed(frame.bytes),
            meta: frame.meta,
        }),
        Err(error) => Err(CaptureError {
            offset: error.position,
            kind: ErrorKind::Frame,
            flow: Some(flow),
            message: format!(
                "at stream offset {}: {}",
                error.stream_offset, error.message
            ),
        }),
    }
}

/// Iterator over the SBE messages of a capture in memory: see [`super::Capture::messages`] and
/// [`MessageFramer`]. Messages are yielded with their bytes owned.
pub struct Messages<'a, F> {
    payloads: Payloads<'a>,
    framer: MessageFramer<F>,
    queue: Queue<Result<Message<'a>, CaptureError>>,
}

impl<'a, F> Messages<'a, F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    pub(super) fn new(payloads: Payloads<'a>, framer: MessageFramer<F>) -> Messages<'a, F> {
        Messages {
            payloads,
            framer,
            queue: Queue::new(),
        }
    }

    /// The packets passed over so far, by reason.
    pub fn skipped(&self) -> Skipped {
        self.payloads.skipped()
    }

    /// The sequence number gaps and repeats seen so far.
    pub fn sequence(&self) -> SequenceCounts {
        self.framer.sequence()
    }
}

impl<'a, F> Iterator for Messages<'a, F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    type Item = Result<Message<'a>, CaptureError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (payloads, framer) = (&mut self.payloads, &mut self.framer);
        self.queue.next(|queue| {
            let mut push = |item: Result<Message<'_>, CaptureError>| {
                queue.push_back(item.map(Message::into_owned));
            };
            match payloads.next() {
                Some(Ok(payload)) => framer.payload(&payload, &mut push),
                Some(Err(error)) => push(Err(error)),
                None => {
                    framer.finish(&mut push);
                    return false;
                }
            }
            true
        })
    }
}

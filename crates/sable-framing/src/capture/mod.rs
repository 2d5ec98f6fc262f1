//! Packet captures: classic pcap and pcapng files, their packets, and the UDP and TCP payloads
//! in them.
//!
//! [`Capture::parse`] detects the format; [`Capture::packets`] yields link-layer [`Packet`]s;
//! [`Capture::payloads`] decodes them down to UDP datagrams and reassembled TCP stream bytes
//! ([`Payload`]); [`Capture::messages`] applies a [`Framing`] to those payloads.
//!
//! Supported: pcap (both byte orders, microsecond and nanosecond timestamps); pcapng (section
//! header blocks of either byte order, interface description blocks with `if_tsresol` and
//! `if_tsoffset`, enhanced, simple and obsolete packet blocks; other blocks skipped). Link types:
//! Ethernet (with any number of 802.1Q / 802.1ad VLAN tags), Linux cooked capture (SLL and
//! SLL2), raw IP (IPv4 or IPv6), BSD loopback. IPv4 with options; IPv6 skipping extension
//! headers. Not supported: IP fragment reassembly (fragments are reported as skipped), tunnels
//! (GRE, VXLAN, ...), other transports than UDP and TCP.

mod file;
mod net;
mod tcp;

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::net::{IpAddr, SocketAddr};

use crate::framing::{FrameMeta, Framing, StreamFramer};

pub use file::{Format, Packets};
pub use net::{link_type, Transport};
pub use tcp::{StreamEvent, TcpReassembler, TcpSegment};

/// A capture file's bytes, with its format detected.
#[derive(Debug, Clone, Copy)]
pub struct Capture<'a> {
    data: &'a [u8],
    format: Format,
}

impl<'a> Capture<'a> {
    /// Detects the format of `data` (classic pcap or pcapng) and checks its file header.
    pub fn parse(data: &'a [u8]) -> Result<Capture<'a>, CaptureError> {
        let format = file::detect(data)?;
        Ok(Capture { data, format })
    }

    /// The detected format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The link-layer packets, in file order. A structural error (a truncated record or block)
    /// ends the iteration after reporting it; a bad packet within a sound structure is reported
    /// and skipped.
    pub fn packets(&self) -> Packets<'a> {
        Packets::new(self.data, self.format)
    }

    /// UDP datagram payloads and reassembled TCP stream bytes of the flows that `filter`
    /// accepts, in capture order (see [`Payloads`]).
    pub fn payloads(&self, filter: Filter) -> Payloads<'a> {
        Payloads::new(self.packets(), filter, TcpReassembler::new())
    }

    /// Like [`Capture::payloads`], with a TCP reassembler configured by the caller.
    pub fn payloads_with(&self, filter: Filter, reassembler: TcpReassembler<'a>) -> Payloads<'a> {
        Payloads::new(self.packets(), filter, reassembler)
    }

    /// SBE messages framed by `framing` from the payloads that `filter` accepts: each UDP
    /// datagram is framed on its own, each TCP stream direction as one byte stream (a message may
    /// span segments). `message_length` is used by [`Framing::Raw`] only.
    pub fn messages<F>(
        &self,
        filter: Filter,
        framing: Framing,
        message_length: F,
    ) -> Messages<'a, F>
    where
        F: Fn(&[u8]) -> Result<usize, String> + Clone,
    {
        Messages {
            payloads: self.payloads(filter),
            framing,
            message_length,
            framers: BTreeMap::new(),
            unsupported: BTreeSet::new(),
            queue: VecDeque::new(),
            finished: false,
        }
    }
}

/// What kind of problem a [`CaptureError`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The file's structure is broken (bad header, truncated record or block): reading stops.
    Format,
    /// A packet's headers are truncated or malformed: the packet is skipped.
    Packet,
    /// An IP fragment: skipped, as fragments are not reassembled.
    Fragment,
    /// Something this crate does not decode (a link type, or a framing for a transport).
    Unsupported,
    /// Bytes missing from a TCP stream: reassembly resumes after the gap.
    Gap,
    /// A framing error in a payload or stream (from [`Capture::messages`]).
    Frame,
}

/// A problem in a capture, with the offset in the file of the record, block or packet concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureError {
    /// Offset in the capture file (of the record or block, for packet problems).
    pub offset: usize,
    /// What kind of problem.
    pub kind: ErrorKind,
    /// The flow concerned, if known.
    pub flow: Option<Flow>,
    /// A human-readable description.
    pub message: String,
}

impl CaptureError {
    pub(crate) fn new(offset: usize, kind: ErrorKind, message: impl Into<String>) -> CaptureError {
        CaptureError {
            offset,
            kind,
            flow: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at file offset {}", self.offset)?;
        if let Some(flow) = &self.flow {
            write!(f, " ({flow})")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for CaptureError {}

/// A captured link-layer packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packet<'a> {
    /// Offset in the file of the packet's record (pcap) or block (pcapng).
    pub offset: usize,
    /// Capture time in nanoseconds since the Unix epoch. Simple packet blocks carry none: they
    /// get the previous packet's timestamp (0 if none).
    pub timestamp_ns: u64,
    /// The link type (a `LINKTYPE_*` value: see [`link_type`]).
    pub link_type: u16,
    /// The pcapng interface index (0 for pcap).
    pub interface: u32,
    /// The packet's length on the wire (may exceed `data.len()` if the capture was truncated).
    pub original_len: u32,
    /// Offset of `data` in the file.
    pub data_offset: usize,
    /// The captured link-layer bytes.
    pub data: &'a [u8],
}

/// A transport protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Protocol {
    /// UDP.
    Udp,
    /// TCP.
    Tcp,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Udp => "udp",
            Protocol::Tcp => "tcp",
        })
    }
}

/// One direction of a UDP or TCP conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Flow {
    /// The transport protocol.
    pub protocol: Protocol,
    /// Source address and port.
    pub src: SocketAddr,
    /// Destination address and port.
    pub dst: SocketAddr,
}

impl fmt::Display for Flow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} -> {}", self.protocol, self.src, self.dst)
    }
}

/// Which flows to keep. Every condition set must hold; the default keeps everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only this transport protocol.
    pub protocol: Option<Protocol>,
    /// Only flows with this source or destination port.
    pub port: Option<u16>,
    /// Only flows with this source or destination address.
    pub host: Option<IpAddr>,
}

impl Filter {
    /// Whether `flow` passes the filter.
    pub fn matches(&self, flow: &Flow) -> bool {
        self.protocol.map_or(true, |p| p == flow.protocol)
            && self
                .port
                .map_or(true, |p| p == flow.src.port() || p == flow.dst.port())
            && self
                .host
                .map_or(true, |h| h == flow.src.ip() || h == flow.dst.ip())
    }
}

/// Bytes from a capture: a UDP datagram's payload, or a contiguous run of a TCP stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Payload<'a> {
    /// Capture time of the packet that carried the bytes, in nanoseconds since the Unix epoch.
    pub timestamp_ns: u64,
    /// The flow.
    pub flow: Flow,
    /// Offset in the file of the packet's record or block.
    pub packet_offset: usize,
    /// For TCP, the offset of `data` in its stream direction (0 at the first byte seen); `None`
    /// for UDP.
    pub stream_offset: Option<u64>,
    /// The bytes.
    pub data: &'a [u8],
}

/// Iterator over a capture's payloads: see [`Capture::payloads`].
///
/// Yields UDP payloads as they come and TCP bytes as soon as they are contiguous in their stream
/// (so a run may come from a segment buffered earlier, with that segment's timestamp and
/// offset). Packets that are not IP, not UDP or TCP, or not accepted by the filter are passed
/// over silently; IP fragments, malformed packets and unsupported link types are reported as
/// errors and skipped; TCP gaps are reported, then the stream resumes. At the end of the
/// capture, TCP bytes still waiting behind a gap are reported and released.
pub struct Payloads<'a> {
    packets: Packets<'a>,
    filter: Filter,
    reassembler: TcpReassembler<'a>,
    queue: VecDeque<Result<Payload<'a>, CaptureError>>,
    finished: bool,
}

impl<'a> Payloads<'a> {
    fn new(packets: Packets<'a>, filter: Filter, reassembler: TcpReassembler<'a>) -> Payloads<'a> {
        Payloads {
            packets,
            filter,
            reassembler,
            queue: VecDeque::new(),
            finished: false,
        }
    }

    fn events(&mut self, events: Vec<StreamEvent<'a>>) {
        for event in events {
            self.queue.push_back(match event {
                StreamEvent::Data(payload) => Ok(payload),
                StreamEvent::Gap {
                    flow,
                    packet_offset,
                    stream_offset,
                    missing,
                } => Err(CaptureError {
                    offset: packet_offset,
                    kind: ErrorKind::Gap,
                    flow: Some(flow),
                    message: format!(
                        "TCP stream gap: {missing} bytes missing at stream offset {stream_offset}; \
                         resuming after them"
                    ),
                }),
            });
        }
    }

    fn packet(&mut self, packet: Packet<'a>) {
        let transport = match net::decode(packet.link_type, packet.data) {
            Ok(Some(transport)) => transport,
            Ok(None) => return,
            Err((kind, message)) => {
                self.queue
                    .push_back(Err(CaptureError::new(packet.offset, kind, message)));
                return;
            }
        };
        match transport {
            Transport::Udp { flow, payload } => {
                if self.filter.matches(&flow) && !payload.is_empty() {
                    self.queue.push_back(Ok(Payload {
                        timestamp_ns: packet.timestamp_ns,
                        flow,
                        packet_offset: packet.offset,
                        stream_offset: None,
                        data: payload,
                    }));
                }
            }
            Transport::Tcp {
                flow,
                seq,
                flags,
                payload,
            } => {
                if self.filter.matches(&flow) {
                    let events = self.reassembler.push(TcpSegment {
                        flow,
                        seq,
                        syn: flags & net::TCP_SYN != 0,
                        data: payload,
                        timestamp_ns: packet.timestamp_ns,
                        packet_offset: packet.offset,
                    });
                    self.events(events);
                }
            }
        }
    }
}

impl<'a> Iterator for Payloads<'a> {
    type Item = Result<Payload<'a>, CaptureError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.queue.pop_front() {
                return Some(item);
            }
            if self.finished {
                return None;
            }
            match self.packets.next() {
                Some(Ok(packet)) => self.packet(packet),
                Some(Err(error)) => self.queue.push_back(Err(error)),
                None => {
                    self.finished = true;
                    let events = self.reassembler.finish();
                    self.events(events);
                }
            }
        }
    }
}

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

type FramerMap<F> = BTreeMap<Flow, StreamFramer<F>>;

/// Iterator over the SBE messages of a capture: see [`Capture::messages`].
///
/// Errors are those of [`Payloads`], plus framing errors ([`ErrorKind::Frame`]); a TCP gap drops
/// any partial message before it and framing resumes at the gap's end. With [`Framing::Mdp3`],
/// TCP flows are reported once each as [`ErrorKind::Unsupported`].
pub struct Messages<'a, F> {
    payloads: Payloads<'a>,
    framing: Framing,
    message_length: F,
    framers: FramerMap<F>,
    unsupported: BTreeSet<Flow>,
    queue: VecDeque<Result<Message<'a>, CaptureError>>,
    finished: bool,
}

impl<'a, F> Messages<'a, F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    fn datagram(&mut self, payload: Payload<'a>) {
        for frame in self
            .framing
            .frames(payload.data, self.message_length.clone())
        {
            self.queue.push_back(match frame {
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

    fn stream(&mut self, payload: Payload<'a>, stream_offset: u64) {
        if !self.framing.is_stream_framing() {
            if self.unsupported.insert(payload.flow) {
                self.queue.push_back(Err(CaptureError {
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
                    .expect("a stream framing");
                self.framers.entry(payload.flow).or_insert(framer)
            }
        };
        if framer.next_stream_offset() != stream_offset {
            if framer.buffered() > 0 {
                self.queue.push_back(Err(CaptureError {
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
        let results = framer.push(payload.data, payload.timestamp_ns, payload.packet_offset);
        let flow = payload.flow;
        self.stream_results(flow, results);
    }

    fn stream_results(
        &mut self,
        flow: Flow,
        results: Vec<Result<crate::StreamFrame, crate::StreamFrameError>>,
    ) {
        for result in results {
            self.queue.push_back(match result {
                Ok(frame) => Ok(Message {
                    timestamp_ns: frame.timestamp_ns,
                    flow,
                    packet_offset: frame.position,
                    offset: frame.stream_offset,
                    bytes: Cow::Owned(frame.bytes),
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
            });
        }
    }
}

impl<'a, F> Iterator for Messages<'a, F>
where
    F: Fn(&[u8]) -> Result<usize, String> + Clone,
{
    type Item = Result<Message<'a>, CaptureError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.queue.pop_front() {
                return Some(item);
            }
            if self.finished {
                return None;
            }
            match self.payloads.next() {
                Some(Ok(payload)) => match payload.stream_offset {
                    None => self.datagram(payload),
                    Some(offset) => self.stream(payload, offset),
                },
                Some(Err(error)) => self.queue.push_back(Err(error)),
                None => {
                    self.finished = true;
                    let mut framers = std::mem::take(&mut self.framers);
                    for (flow, framer) in framers.iter_mut() {
                        let results = framer.finish();
                        self.stream_results(*flow, results);
                    }
                }
            }
        }
    }
}

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
mod messages;
mod net;
mod stream;
mod tcp;
pub mod write;

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt;
use std::net::{IpAddr, SocketAddr};

use crate::framing::Framing;

pub use file::{Format, Packets};
pub use messages::{Message, MessageFramer, Messages, SequenceCounts};
pub use net::{link_type, Transport};
pub use stream::CaptureStream;
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
    pub fn payloads_with(&self, filter: Filter, reassembler: TcpReassembler) -> Payloads<'a> {
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
        Messages::new(
            self.payloads(filter),
            MessageFramer::new(framing, message_length),
        )
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
    /// A gap or a repeat in a flow's packet sequence numbers (MDP 3.0): reported, not an error
    /// in the capture.
    Sequence,
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
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// The bytes (borrowed from the packet, or owned when they waited for a TCP hole to fill).
    pub data: Cow<'a, [u8]>,
}

/// Packets passed over without a payload, counted by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Not IP (ARP, LLDP, ...), passed over silently.
    pub not_ip: u64,
    /// IP but neither UDP nor TCP (ICMP, ...), passed over silently.
    pub other_protocol: u64,
    /// UDP or TCP of a flow the filter rejects (another port), passed over silently.
    pub filtered: u64,
    /// IP fragments (reported: not reassembled).
    pub fragment: u64,
    /// Truncated or malformed headers (reported).
    pub malformed: u64,
    /// Unsupported link types (reported).
    pub unsupported: u64,
}

impl Skipped {
    /// Every packet passed over.
    pub fn total(&self) -> u64 {
        self.not_ip
            + self.other_protocol
            + self.filtered
            + self.fragment
            + self.malformed
            + self.unsupported
    }

    /// Each non-zero count with its reason, e.g. `[(3, "not IP"), (1, "on other ports")]`.
    pub fn reasons(&self) -> Vec<(u64, &'static str)> {
        [
            (self.filtered, "of flows the filter rejects (--port)"),
            (self.not_ip, "not IP (ARP, LLDP, ...)"),
            (self.other_protocol, "neither UDP nor TCP (ICMP, ...)"),
            (self.fragment, "IP fragments (not reassembled)"),
            (self.malformed, "with truncated or malformed headers"),
            (self.unsupported, "of unsupported link types"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .collect()
    }
}

/// Decodes link-layer packets down to UDP payloads and reassembled TCP stream bytes, one packet
/// at a time: the state behind [`Payloads`] and [`CaptureStream`]-driven readers. Packets that
/// are not IP, not UDP or TCP, or not accepted by the filter are passed over silently (counted in
/// [`PayloadDecoder::skipped`]); IP fragments, malformed packets and unsupported link types are
/// reported as errors and skipped; TCP gaps are reported, then the stream resumes.
#[derive(Debug, Clone)]
pub struct PayloadDecoder {
    filter: Filter,
    reassembler: TcpReassembler,
    skipped: Skipped,
}

impl PayloadDecoder {
    /// A decoder keeping the flows `filter` accepts, reassembling TCP with `reassembler`.
    pub fn new(filter: Filter, reassembler: TcpReassembler) -> PayloadDecoder {
        PayloadDecoder {
            filter,
            reassembler,
            skipped: Skipped::default(),
        }
    }

    /// The packets passed over so far, by reason.
    pub fn skipped(&self) -> Skipped {
        self.skipped
    }

    /// Decodes `packet`, handing its payloads (and problems) to `out`.
    pub fn packet<'p>(
        &mut self,
        packet: &Packet<'p>,
        out: &mut dyn FnMut(Result<Payload<'p>, CaptureError>),
    ) {
        let cut = packet.data.len() < packet.original_len as usize;
        let transport = match net::decode(packet.link_type, packet.data, cut) {
            Ok(transport) => transport,
            Err((kind, message)) => {
                match kind {
                    ErrorKind::Fragment => self.skipped.fragment += 1,
                    ErrorKind::Unsupported => self.skipped.unsupported += 1,
                    _ => self.skipped.malformed += 1,
                }
                out(Err(CaptureError::new(packet.offset, kind, message)));
                return;
            }
        };
        match transport {
            Transport::NotIp => self.skipped.not_ip += 1,
            Transport::OtherProtocol(_) => self.skipped.other_protocol += 1,
            Transport::Udp { flow, .. } | Transport::Tcp { flow, .. }
                if !self.filter.matches(&flow) =>
            {
                self.skipped.filtered += 1;
            }
            Transport::Udp { flow, payload } => {
                if !payload.is_empty() {
                    out(Ok(Payload {
                        timestamp_ns: packet.timestamp_ns,
                        flow,
                        packet_offset: packet.offset,
                        stream_offset: None,
                        data: Cow::Borrowed(payload),
                    }));
                }
            }
            Transport::Tcp {
                flow,
                seq,
                flags,
                payload,
            } => {
                let events = self.reassembler.push(TcpSegment {
                    flow,
                    seq,
                    syn: flags & net::TCP_SYN != 0,
                    data: payload,
                    timestamp_ns: packet.timestamp_ns,
                    packet_offset: packet.offset,
                });
                events.into_iter().for_each(|e| out(event(e)));
            }
        }
    }

    /// Ends the capture: TCP bytes still waiting behind a gap are reported and released.
    pub fn finish(&mut self, out: &mut dyn FnMut(Result<Payload<'static>, CaptureError>)) {
        self.reassembler
            .finish()
            .into_iter()
            .for_each(|e| out(event(e)));
    }
}

fn event(event: StreamEvent<'_>) -> Result<Payload<'_>, CaptureError> {
    match event {
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
    }
}

/// Iterator over a capture's payloads: see [`Capture::payloads`].
///
/// Yields UDP payloads as they come and TCP bytes as soon as they are contiguous in their stream
/// (so a run may come from a segment buffered earlier, with that segment's timestamp and
/// offset); see [`PayloadDecoder`] for what is skipped. At the end of the capture, TCP bytes
/// still waiting behind a gap are reported and released.
pub struct Payloads<'a> {
    packets: Packets<'a>,
    decoder: PayloadDecoder,
    queue: Queue<Result<Payload<'a>, CaptureError>>,
}

/// Items made a batch at a time (a packet's payloads, a payload's messages), given out one by one.
struct Queue<T> {
    items: VecDeque<T>,
    finished: bool,
}

impl<T> Queue<T> {
    fn new() -> Queue<T> {
        Queue {
            items: VecDeque::new(),
            finished: false,
        }
    }

    /// The next item; when there is none, `fill` makes more, returning false once it is done.
    fn next(&mut self, mut fill: impl FnMut(&mut VecDeque<T>) -> bool) -> Option<T> {
        loop {
            if let Some(item) = self.items.pop_front() {
                return Some(item);
            }
            if self.finished {
                return None;
            }
            self.finished = !fill(&mut self.items);
        }
    }
}

impl<'a> Payloads<'a> {
    fn new(packets: Packets<'a>, filter: Filter, reassembler: TcpReassembler) -> Payloads<'a> {
        Payloads {
            packets,
            decoder: PayloadDecoder::new(filter, reassembler),
            queue: Queue::new(),
        }
    }

    /// The packets passed over so far, by reason.
    pub fn skipped(&self) -> Skipped {
        self.decoder.skipped()
    }
}

impl<'a> Iterator for Payloads<'a> {
    type Item = Result<Payload<'a>, CaptureError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (packets, decoder) = (&mut self.packets, &mut self.decoder);
        self.queue.next(|queue| match packets.next() {
            Some(Ok(packet)) => {
                decoder.packet(&packet, &mut |p| queue.push_back(p));
                true
            }
            Some(Err(error)) => {
                queue.push_back(Err(error));
                true
            }
            None => {
                decoder.finish(&mut |p| queue.push_back(p));
                false
            }
        })
    }
}

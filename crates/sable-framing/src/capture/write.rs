//! Writing captures: classic pcap files (nanosecond timestamps) of Ethernet frames carrying IPv4
//! UDP datagrams or TCP segments, for tests and for replaying messages into tools that read
//! captures.

use std::io::{self, Write};
use std::net::SocketAddrV4;

use super::link_type;

/// The TCP flags [`ipv4_tcp`] may set.
pub mod tcp_flags {
    /// FIN.
    pub const FIN: u8 = 0x01;
    /// SYN.
    pub const SYN: u8 = 0x02;
    /// PSH.
    pub const PSH: u8 = 0x08;
    /// ACK.
    pub const ACK: u8 = 0x10;
}

/// Writes a classic pcap file (little-endian, nanosecond timestamps, Ethernet link type).
pub struct PcapWriter<W: Write> {
    out: W,
}

impl<W: Write> PcapWriter<W> {
    /// Writes the file header.
    pub fn new(mut out: W) -> io::Result<PcapWriter<W>> {
        let mut header = Vec::with_capacity(24);
        header.extend_from_slice(&0xA1B2_3C4Du32.to_le_bytes());
        header.extend_from_slice(&2u16.to_le_bytes());
        header.extend_from_slice(&4u16.to_le_bytes());
        header.extend_from_slice(&[0; 8]); // time zone, accuracy
        header.extend_from_slice(&262_144u32.to_le_bytes()); // snapshot length
        header.extend_from_slice(&u32::from(link_type::ETHERNET).to_le_bytes());
        out.write_all(&header)?;
        Ok(PcapWriter { out })
    }

    /// Writes one packet record: `frame` captured whole at `timestamp_ns`.
    pub fn packet(&mut self, timestamp_ns: u64, frame: &[u8]) -> io::Result<()> {
        self.record(timestamp_ns, frame, frame.len())
    }

    /// Writes one packet record whose frame was `original_len` bytes on the wire, of which
    /// `frame` was captured (a snapshot length).
    pub fn record(
        &mut self,
        timestamp_ns: u64,
        frame: &[u8],
        original_len: usize,
    ) -> io::Result<()> {
        let seconds = u32::try_from(timestamp_ns / 1_000_000_000).unwrap_or(u32::MAX);
        let mut header = Vec::with_capacity(16);
        header.extend_from_slice(&seconds.to_le_bytes());
        header.extend_from_slice(&((timestamp_ns % 1_000_000_000) as u32).to_le_bytes());
        header.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        header.extend_from_slice(&(original_len as u32).to_le_bytes());
        self.out.write_all(&header)?;
        self.out.write_all(frame)
    }

    /// The writer (to flush it, for one).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The writer, taken back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// An Ethernet frame carrying an IPv4 UDP datagram from `src` to `dst`.
pub fn ipv4_udp(src: SocketAddrV4, dst: SocketAddrV4, payload: &[u8]) -> Vec<u8> {
    let mut udp = Vec::with_capacity(8 + payload.len());
    udp.extend_from_slice(&src.port().to_be_bytes());
    udp.extend_from_slice(&dst.port().to_be_bytes());
    udp.extend_from_slice(&((8 + payload.len()) as u16).to_be_bytes());
    udp.extend_from_slice(&[0, 0]); // no checksum
    udp.extend_from_slice(payload);
    ethernet_ipv4(src, dst, 17, &udp)
}

/// An Ethernet frame carrying an IPv4 TCP segment from `src` to `dst` with sequence number `seq`
/// and `flags` ([`tcp_flags`]).
pub fn ipv4_tcp(
    src: SocketAddrV4,
    dst: SocketAddrV4,
    seq: u32,
    flags: u8,
    payload: &[u8],
) -> Vec<u8> {
    let mut tcp = Vec::with_capacity(20 + payload.len());
    tcp.extend_from_slice(&src.port().to_be_bytes());
    tcp.extend_from_slice(&dst.port().to_be_bytes());
    tcp.extend_from_slice(&seq.to_be_bytes());
    tcp.extend_from_slice(&0u32.to_be_bytes()); // acknowledgement
    tcp.push(5 << 4); // a 20-byte header
    tcp.push(flags);
    tcp.extend_from_slice(&[0xFF, 0xFF, 0, 0, 0, 0]); // window, checksum, urgent pointer
    tcp.extend_from_slice(payload);
    ethernet_ipv4(src, dst, 6, &tcp)
}

fn ethernet_ipv4(src: SocketAddrV4, dst: SocketAddrV4, protocol: u8, transport: &[u8]) -> Vec<u8> {
    let mut frame = vec![0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00];
    let total = (20 + transport.len()) as u16;
    frame.extend_from_slice(&[0x45, 0]);
    frame.extend_from_slice(&total.to_be_bytes());
    frame.extend_from_slice(&[0, 0, 0x40, 0, 64, protocol, 0, 0]); // don't fragment
    frame.extend_from_slice(&src.ip().octets());
    frame.extend_from_slice(&dst.ip().octets());
    frame.extend_from_slice(transport);
    frame
}

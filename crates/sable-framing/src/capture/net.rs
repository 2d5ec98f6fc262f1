//! Link layer, IP, UDP and TCP header decoding.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use super::{ErrorKind, Flow, Protocol};

/// `LINKTYPE_*` values of the link types this crate decodes.
pub mod link_type {
    /// BSD loopback: a 4-byte address family in the capturing host's byte order.
    pub const NULL: u16 = 0;
    /// Ethernet (with 802.1Q / 802.1ad VLAN tags).
    pub const ETHERNET: u16 = 1;
    /// Raw IP, as some systems number `DLT_RAW`.
    pub const RAW_12: u16 = 12;
    /// Raw IP, as OpenBSD numbers `DLT_RAW`.
    pub const RAW_14: u16 = 14;
    /// Raw IPv4 or IPv6.
    pub const RAW: u16 = 101;
    /// OpenBSD loopback: a 4-byte big-endian address family.
    pub const LOOP: u16 = 108;
    /// Linux cooked capture (SLL).
    pub const LINUX_SLL: u16 = 113;
    /// Raw IPv4.
    pub const IPV4: u16 = 228;
    /// Raw IPv6.
    pub const IPV6: u16 = 229;
    /// Linux cooked capture v2 (SLL2).
    pub const LINUX_SLL2: u16 = 276;
}

pub(super) const TCP_SYN: u8 = 0x02;

/// A decoded UDP or TCP packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport<'a> {
    /// A UDP datagram.
    Udp {
        /// Its flow.
        flow: Flow,
        /// Its payload.
        payload: &'a [u8],
    },
    /// A TCP segment.
    Tcp {
        /// Its flow.
        flow: Flow,
        /// Its sequence number.
        seq: u32,
        /// Its flags byte (FIN 0x01, SYN 0x02, RST 0x04, ...).
        flags: u8,
        /// Its payload.
        payload: &'a [u8],
    },
    /// A packet that is not IP (ARP, LLDP, ...): passed over.
    NotIp,
    /// An IP packet that is neither UDP nor TCP (ICMP, ...): passed over.
    OtherProtocol(u8),
}

type Problem = (ErrorKind, String);

fn packet(message: String) -> Problem {
    (ErrorKind::Packet, message)
}

const ETHERTYPE_IPV4: u16 = 0x0800;
const ETHERTYPE_IPV6: u16 = 0x86DD;

/// Decodes a link-layer packet down to UDP or TCP. When the packet was `cut` (captured shorter
/// than it was on the wire: a snapshot length, or a file cut short), IP and UDP lengths beyond
/// the captured bytes are taken to end with them, so that what was captured is still decoded.
pub fn decode(
    link_type: u16,
    data: &[u8],
    cut: bool,
) -> Result<Transport<'_>, (ErrorKind, String)> {
    let (ethertype, ip) = match link_type {
        link_type::ETHERNET => ethernet(data)?,
        link_type::LINUX_SLL => {
            if data.len() < 16 {
                return Err(packet(format!(
                    "Linux SLL header truncated ({} bytes)",
                    data.len()
                )));
            }
            (u16::from_be_bytes([data[14], data[15]]), &data[16..])
        }
        link_type::LINUX_SLL2 => {
            if data.len() < 20 {
                return Err(packet(format!(
                    "Linux SLL2 header truncated ({} bytes)",
                    data.len()
                )));
            }
            (u16::from_be_bytes([data[0], data[1]]), &data[20..])
        }
        link_type::RAW | link_type::RAW_12 | link_type::RAW_14 => match data.first() {
            Some(b) if b >> 4 == 4 => (ETHERTYPE_IPV4, data),
            Some(b) if b >> 4 == 6 => (ETHERTYPE_IPV6, data),
            Some(b) => return Err(packet(format!("raw IP packet of IP version {}", b >> 4))),
            None => return Err(packet("empty raw IP packet".to_string())),
        },
        link_type::IPV4 => (ETHERTYPE_IPV4, data),
        link_type::IPV6 => (ETHERTYPE_IPV6, data),
        link_type::NULL | link_type::LOOP => {
            if data.len() < 4 {
                return Err(packet("loopback header truncated".to_string()));
            }
            let le = u32::from_le_bytes([data[0], data[1], data[2], data[3]]);
            let be = u32::from_be_bytes([data[0], data[1], data[2], data[3]]);
            let family = if le < 256 { le } else { be };
            match family {
                2 => (ETHERTYPE_IPV4, &data[4..]),
                24 | 28 | 30 => (ETHERTYPE_IPV6, &data[4..]),
                _ => return Ok(Transport::NotIp),
            }
        }
        other => {
            return Err((
                ErrorKind::Unsupported,
                format!("unsupported link type {other}"),
            ))
        }
    };
    match ethertype {
        ETHERTYPE_IPV4 => ipv4(ip, cut),
        ETHERTYPE_IPV6 => ipv6(ip, cut),
        _ => Ok(Transport::NotIp),
    }
}

fn ethernet(data: &[u8]) -> Result<(u16, &[u8]), Problem> {
    if data.len() < 14 {
        return Err(packet(format!(
            "Ethernet header truncated ({} bytes)",
            data.len()
        )));
    }
    let mut at = 12;
    loop {
        let ethertype = u16::from_be_bytes([data[at], data[at + 1]]);
        if matches!(ethertype, 0x8100 | 0x88A8 | 0x9100) {
            if data.len() < at + 6 {
                return Err(packet("VLAN tag truncated".to_string()));
            }
            at += 4;
            continue;
        }
        return Ok((ethertype, &data[at + 2..]));
    }
}

fn ipv4(data: &[u8], cut: bool) -> Result<Transport<'_>, Problem> {
    if data.len() < 20 {
        return Err(packet(format!(
            "IPv4 header truncated ({} bytes)",
            data.len()
        )));
    }
    if data[0] >> 4 != 4 {
        return Err(packet(format!("IPv4 header with version {}", data[0] >> 4)));
    }
    let header_len = (data[0] & 0x0F) as usize * 4;
    if header_len < 20 || header_len > data.len() {
        return Err(packet(format!(
            "IPv4 header length {header_len} is invalid for a packet of {} bytes",
            data.len()
        )));
    }
    let mut total = u16::from_be_bytes([data[2], data[3]]) as usize;
    if total == 0 {
        // Segmentation offload: the length field is left at 0.
        total = data.len();
    }
    if cut {
        total = total.min(data.len());
    }
    if total < header_len {
        return Err(packet(format!(
            "IPv4 total length {total} is less than its header length {header_len}"
        )));
    }
    if total > data.len() {
        return Err(packet(format!(
            "IPv4 packet of {total} bytes truncated to {} bytes",
            data.len()
        )));
    }
    let flags_fragment = u16::from_be_bytes([data[6], data[7]]);
    let more_fragments = flags_fragment & 0x2000 != 0;
    let fragment_offset = flags_fragment & 0x1FFF;
    let src = IpAddr::V4(Ipv4Addr::new(data[12], data[13], data[14], data[15]));
    let dst = IpAddr::V4(Ipv4Addr::new(data[16], data[17], data[18], data[19]));
    if more_fragments || fragment_offset != 0 {
        return Err((
            ErrorKind::Fragment,
            format!(
                "IPv4 fragment {src} -> {dst} (offset {}) skipped: fragments are not reassembled",
                fragment_offset as usize * 8
            ),
        ));
    }
    transport(data[9], src, dst, &data[header_len..total], cut)
}

fn ipv6(data: &[u8], cut: bool) -> Result<Transport<'_>, Problem> {
    if data.len() < 40 {
        return Err(packet(format!(
            "IPv6 header truncated ({} bytes)",
            data.len()
        )));
    }
    if data[0] >> 4 != 6 {
        return Err(packet(format!("IPv6 header with version {}", data[0] >> 4)));
    }
    let payload_len = u16::from_be_bytes([data[4], data[5]]) as usize;
    let mut end = if payload_len == 0 {
        // A jumbogram (or offload): the payload runs to the end.
        data.len()
    } else {
        40 + payload_len
    };
    if cut {
        end = end.min(data.len());
    }
    if end > data.len() {
        return Err(packet(format!(
            "IPv6 packet of {end} bytes truncated to {} bytes",
            data.len()
        )));
    }
    let mut src = [0u8; 16];
    src.copy_from_slice(&data[8..24]);
    let mut dst = [0u8; 16];
    dst.copy_from_slice(&data[24..40]);
    let src = IpAddr::V6(Ipv6Addr::from(src));
    let dst = IpAddr::V6(Ipv6Addr::from(dst));
    let mut next = data[6];
    let mut at = 40;
    loop {
        let header = &data[at..end];
        let len = match next {
            // Hop-by-hop, routing, destination options, mobility, HIP, shim6.
            0 | 43 | 60 | 135 | 139 | 140 => {
                if header.len() < 8 {
                    return Err(packet("IPv6 extension header truncated".to_string()));
                }
                (header[1] as usize + 1) * 8
            }
            // Authentication header.
            51 => {
                if header.len() < 8 {
                    return Err(packet("IPv6 authentication header truncated".to_string()));
                }
                (header[1] as usize + 2) * 4
            }
            // Fragment.
            44 => {
                if header.len() < 8 {
                    return Err(packet("IPv6 fragment header truncated".to_string()));
                }
                let field = u16::from_be_bytes([header[2], header[3]]);
                if field & 0xFFF8 != 0 || field & 1 != 0 {
                    return Err((
                        ErrorKind::Fragment,
                        format!(
                            "IPv6 fragment {src} -> {dst} (offset {}) skipped: fragments are not \
                             reassembled",
                            field & 0xFFF8
                        ),
                    ));
                }
                8
            }
            _ => break,
        };
        if len > header.len() {
            return Err(packet(format!(
                "IPv6 extension header {next} of {len} bytes overruns the packet"
            )));
        }
        next = header[0];
        at += len;
    }
    transport(next, src, dst, &data[at..end], cut)
}

fn transport(
    protocol: u8,
    src: IpAddr,
    dst: IpAddr,
    data: &[u8],
    cut: bool,
) -> Result<Transport<'_>, Problem> {
    match protocol {
        17 => {
            if data.len() < 8 {
                return Err(packet(format!(
                    "UDP header truncated ({} bytes)",
                    data.len()
                )));
            }
            let flow = Flow {
                protocol: Protocol::Udp,
                src: SocketAddr::new(src, u16::from_be_bytes([data[0], data[1]])),
                dst: SocketAddr::new(dst, u16::from_be_bytes([data[2], data[3]])),
            };
            let mut len = u16::from_be_bytes([data[4], data[5]]) as usize;
            if len == 0 {
                len = data.len();
            }
            if cut {
                len = len.min(data.len());
            }
            if len < 8 {
                return Err(packet(format!(
                    "UDP length {len} is less than its 8-byte header"
                )));
            }
            if len > data.len() {
                return Err(packet(format!(
                    "UDP datagram of {len} bytes truncated to {} bytes",
                    data.len()
                )));
            }
            Ok(Transport::Udp {
                flow,
                payload: &data[8..len],
            })
        }
        6 => {
            if data.len() < 20 {
                return Err(packet(format!(
                    "TCP header truncated ({} bytes)",
                    data.len()
                )));
            }
            let flow = Flow {
                protocol: Protocol::Tcp,
                src: SocketAddr::new(src, u16::from_be_bytes([data[0], data[1]])),
                dst: SocketAddr::new(dst, u16::from_be_bytes([data[2], data[3]])),
            };
            let header_len = (data[12] >> 4) as usize * 4;
            if header_len < 20 || header_len > data.len() {
                return Err(packet(format!(
                    "TCP header length {header_len} is invalid for a segment of {} bytes",
                    data.len()
                )));
            }
            Ok(Transport::Tcp {
                flow,
                seq: u32::from_be_bytes([data[4], data[5], data[6], data[7]]),
                flags: data[13],
                payload: &data[header_len..],
            })
        }
        other => Ok(Transport::OtherProtocol(other)),
    }
}

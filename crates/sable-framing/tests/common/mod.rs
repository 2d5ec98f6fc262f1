//! Builders of synthetic packets and capture files for the tests.
#![allow(dead_code)]

use std::net::IpAddr;

/// A TCP segment's flags.
pub const SYN: u8 = 0x02;
pub const ACK: u8 = 0x10;
pub const PSH: u8 = 0x08;

pub fn udp(src_port: u16, dst_port: u16, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&src_port.to_be_bytes());
    out.extend_from_slice(&dst_port.to_be_bytes());
    out.extend_from_slice(&(8 + payload.len() as u16).to_be_bytes());
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(payload);
    out
}

pub fn tcp(src_port: u16, dst_port: u16, seq: u32, flags: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&src_port.to_be_bytes());
    out.extend_from_slice(&dst_port.to_be_bytes());
    out.extend_from_slice(&seq.to_be_bytes());
    out.extend_from_slice(&0u32.to_be_bytes()); // ack
    out.push(6 << 4); // 24-byte header: one option word
    out.push(flags);
    out.extend_from_slice(&[0xFF, 0xFF, 0, 0, 0, 0]); // window, checksum, urgent
    out.extend_from_slice(&[1, 1, 1, 0]); // NOP NOP NOP EOL
    out.extend_from_slice(payload);
    out
}

/// An IPv4 packet; `options` must be a multiple of 4 bytes; `fragment` is the flags/offset field.
pub fn ipv4_full(
    src: [u8; 4],
    dst: [u8; 4],
    protocol: u8,
    options: &[u8],
    fragment: u16,
    payload: &[u8],
) -> Vec<u8> {
    let header_len = 20 + options.len();
    let mut out = vec![0x40 | (header_len / 4) as u8, 0];
    out.extend_from_slice(&((header_len + payload.len()) as u16).to_be_bytes());
    out.extend_from_slice(&[0, 1]);
    out.extend_from_slice(&fragment.to_be_bytes());
    out.extend_from_slice(&[64, protocol, 0, 0]);
    out.extend_from_slice(&src);
    out.extend_from_slice(&dst);
    out.extend_from_slice(options);
    out.extend_from_slice(payload);
    out
}

pub fn ipv4(src: [u8; 4], dst: [u8; 4], protocol: u8, payload: &[u8]) -> Vec<u8> {
    ipv4_full(src, dst, protocol, &[], 0, payload)
}

/// An IPv6 packet with a hop-by-hop and a destination options extension header.
pub fn ipv6(src: [u8; 16], dst: [u8; 16], protocol: u8, payload: &[u8]) -> Vec<u8> {
    let mut ext = Vec::new();
    ext.extend_from_slice(&[60, 0, 1, 4, 0, 0, 0, 0]); // hop-by-hop, next: destination options
    ext.extend_from_slice(&[protocol, 1, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // 16 bytes
    let mut out = vec![0x60, 0, 0, 0];
    out.extend_from_slice(&((ext.len() + payload.len()) as u16).to_be_bytes());
    out.push(0); // next header: hop-by-hop
    out.push(64);
    out.extend_from_slice(&src);
    out.extend_from_slice(&dst);
    out.extend_from_slice(&ext);
    out.extend_from_slice(payload);
    out
}

/// An Ethernet frame with the given VLAN tags (TPIDs with VLAN ids).
pub fn ethernet(vlans: &[(u16, u16)], ethertype: u16, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2];
    for &(tpid, id) in vlans {
        out.extend_from_slice(&tpid.to_be_bytes());
        out.extend_from_slice(&id.to_be_bytes());
    }
    out.extend_from_slice(&ethertype.to_be_bytes());
    out.extend_from_slice(payload);
    // Pad to the Ethernet minimum, as on the wire.
    while out.len() < 60 {
        out.push(0);
    }
    out
}

pub fn sll(protocol: u16, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0];
    out.extend_from_slice(&protocol.to_be_bytes());
    out.extend_from_slice(payload);
    out
}

pub fn sll2(protocol: u16, payload: &[u8]) -> Vec<u8> {
    let mut out = protocol.to_be_bytes().to_vec();
    out.extend_from_slice(&[0, 0, 0, 0, 0, 3, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0]);
    out.extend_from_slice(payload);
    out
}

/// A classic pcap file.
pub struct Pcap {
    pub big_endian: bool,
    pub nanosecond: bool,
    pub link_type: u32,
    pub packets: Vec<(u64, Vec<u8>)>,
}

impl Pcap {
    pub fn new(link_type: u32) -> Pcap {
        Pcap {
            big_endian: false,
            nanosecond: true,
            link_type,
            packets: Vec::new(),
        }
    }

    pub fn packet(mut self, timestamp_ns: u64, data: Vec<u8>) -> Pcap {
        self.packets.push((timestamp_ns, data));
        self
    }

    fn u32(&self, out: &mut Vec<u8>, v: u32) {
        out.extend_from_slice(&if self.big_endian {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        });
    }

    fn u16(&self, out: &mut Vec<u8>, v: u16) {
        out.extend_from_slice(&if self.big_endian {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        });
    }

    pub fn build(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.u32(
            &mut out,
            if self.nanosecond {
                0xA1B2_3C4D
            } else {
                0xA1B2_C3D4
            },
        );
        self.u16(&mut out, 2);
        self.u16(&mut out, 4);
        self.u32(&mut out, 0);
        self.u32(&mut out, 0);
        self.u32(&mut out, 65535);
        self.u32(&mut out, self.link_type);
        for (ts, data) in &self.packets {
            self.u32(&mut out, (ts / 1_000_000_000) as u32);
            let frac = ts % 1_000_000_000;
            self.u32(
                &mut out,
                if self.nanosecond { frac } else { frac / 1000 } as u32,
            );
            self.u32(&mut out, data.len() as u32);
            self.u32(&mut out, data.len() as u32);
            out.extend_from_slice(data);
        }
        out
    }

    /// Offsets in the built file where a record starts (and the file's end).
    pub fn boundaries(&self) -> Vec<usize> {
        let mut at = 24;
        let mut out = vec![at];
        for (_, data) in &self.packets {
            at += 16 + data.len();
            out.push(at);
        }
        out
    }
}

/// A pcapng file writer.
pub struct PcapNg {
    pub big_endian: bool,
    pub out: Vec<u8>,
    /// Offsets where each block ends.
    pub boundaries: Vec<usize>,
}

impl PcapNg {
    pub fn new(big_endian: bool) -> PcapNg {
        let mut ng = PcapNg {
            big_endian,
            out: Vec::new(),
            boundaries: Vec::new(),
        };
        ng.section();
        ng
    }

    fn u32v(&self, v: u32) -> [u8; 4] {
        if self.big_endian {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
    }

    fn u16v(&self, v: u16) -> [u8; 2] {
        if self.big_endian {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
    }

    pub fn block(&mut self, block_type: u32, body: &[u8]) {
        let mut body = body.to_vec();
        while body.len() % 4 != 0 {
            body.push(0);
        }
        let len = 12 + body.len() as u32;
        let t = self.u32v(block_type);
        let l = self.u32v(len);
        self.out.extend_from_slice(&t);
        self.out.extend_from_slice(&l);
        self.out.extend_from_slice(&body);
        self.out.extend_from_slice(&l);
        self.boundaries.push(self.out.len());
    }

    pub fn section(&mut self) {
        let mut body = self.u32v(0x1A2B_3C4D).to_vec();
        body.extend_from_slice(&self.u16v(1));
        body.extend_from_slice(&self.u16v(0));
        body.extend_from_slice(&[0xFF; 8]); // section length: unknown
        self.block(0x0A0D_0D0A, &body);
    }

    /// An interface; `tsresol` is the raw if_tsresol option byte, if any.
    pub fn interface(&mut self, link_type: u16, tsresol: Option<u8>) {
        let mut body = self.u16v(link_type).to_vec();
        body.extend_from_slice(&[0, 0]);
        body.extend_from_slice(&self.u32v(65535));
        // An option this crate ignores (if_name), then if_tsresol, then the end.
        body.extend_from_slice(&self.u16v(2));
        body.extend_from_slice(&self.u16v(3));
        body.extend_from_slice(b"lo\0\0");
        if let Some(resol) = tsresol {
            body.extend_from_slice(&self.u16v(9));
            body.extend_from_slice(&self.u16v(1));
            body.extend_from_slice(&[resol, 0, 0, 0]);
        }
        body.extend_from_slice(&[0, 0, 0, 0]);
        self.block(1, &body);
    }

    /// An enhanced packet block with a timestamp in the interface's units.
    pub fn enhanced(&mut self, interface: u32, ts: u64, data: &[u8]) {
        let mut body = self.u32v(interface).to_vec();
        body.extend_from_slice(&self.u32v((ts >> 32) as u32));
        body.extend_from_slice(&self.u32v(ts as u32));
        body.extend_from_slice(&self.u32v(data.len() as u32));
        body.extend_from_slice(&self.u32v(data.len() as u32));
        body.extend_from_slice(data);
        self.block(6, &body);
    }

    pub fn simple(&mut self, data: &[u8]) {
        let mut body = self.u32v(data.len() as u32).to_vec();
        body.extend_from_slice(data);
        self.block(3, &body);
    }

    /// A block of a type this crate does not know (a name resolution block).
    pub fn unknown(&mut self) {
        self.block(4, &[0, 0, 0, 0]);
    }
}

pub fn v4(addr: [u8; 4]) -> IpAddr {
    IpAddr::from(addr)
}

/// A fake SBE message: an 8-byte header whose blockLength (first 2 bytes, little-endian) is the
/// body length, then the body filled with `fill`.
pub fn message(body_len: u16, fill: u8) -> Vec<u8> {
    let mut out = body_len.to_le_bytes().to_vec();
    out.extend_from_slice(&[1, 0, 1, 0, 0, 0]);
    out.extend(std::iter::repeat(fill).take(body_len as usize));
    out
}

/// The message_length function for [`message`]s: with fewer than 8 bytes, it needs the header's
/// 8 to tell (a length beyond the bytes given means "wait for more").
pub fn message_length(bytes: &[u8]) -> Result<usize, String> {
    if bytes.len() < 8 {
        return Ok(8);
    }
    Ok(8 + u16::from_le_bytes([bytes[0], bytes[1]]) as usize)
}

/// Prefixes `msg` with a SOFH for SBE little-endian.
pub fn sofh(msg: &[u8]) -> Vec<u8> {
    let mut out = ((msg.len() + 6) as u32).to_be_bytes().to_vec();
    out.extend_from_slice(&0x5BE0u16.to_be_bytes());
    out.extend_from_slice(msg);
    out
}

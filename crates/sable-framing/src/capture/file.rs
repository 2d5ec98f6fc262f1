//! Reading pcap and pcapng files.

use super::{CaptureError, ErrorKind, Packet};

/// A capture file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Classic pcap.
    Pcap {
        /// Whether the file is big-endian.
        big_endian: bool,
        /// Whether timestamps have nanosecond (rather than microsecond) resolution.
        nanosecond: bool,
        /// The link type of every packet.
        link_type: u16,
    },
    /// pcapng (each section may have its own byte order).
    PcapNg,
}

const PCAP_HEADER_LEN: usize = 24;
const PCAP_RECORD_LEN: usize = 16;
const SHB: u32 = 0x0A0D_0D0A;
const BYTE_ORDER_MAGIC: u32 = 0x1A2B_3C4D;
const IDB: u32 = 1;
const OBSOLETE_PACKET_BLOCK: u32 = 2;
const SPB: u32 = 3;
const EPB: u32 = 6;

fn u16_at(data: &[u8], at: usize, big: bool) -> u16 {
    let b = [data[at], data[at + 1]];
    if big {
        u16::from_be_bytes(b)
    } else {
        u16::from_le_bytes(b)
    }
}

fn u32_at(data: &[u8], at: usize, big: bool) -> u32 {
    let b = [data[at], data[at + 1], data[at + 2], data[at + 3]];
    if big {
        u32::from_be_bytes(b)
    } else {
        u32::from_le_bytes(b)
    }
}

pub(super) fn detect(data: &[u8]) -> Result<Format, CaptureError> {
    if data.len() < 4 {
        return Err(CaptureError::new(
            0,
            ErrorKind::Format,
            format!("{} bytes: too short for a capture file", data.len()),
        ));
    }
    let magic = u32_at(data, 0, false);
    let (big_endian, nanosecond) = match magic {
        0xA1B2_C3D4 => (false, false),
        0xD4C3_B2A1 => (true, false),
        0xA1B2_3C4D => (false, true),
        0x4D3C_B2A1 => (true, true),
        SHB => {
            if data.len() < 12 {
                return Err(CaptureError::new(
                    0,
                    ErrorKind::Format,
                    "pcapng section header block truncated",
                ));
            }
            let bom = u32_at(data, 8, false);
            if bom != BYTE_ORDER_MAGIC && bom != BYTE_ORDER_MAGIC.swap_bytes() {
                return Err(CaptureError::new(
                    8,
                    ErrorKind::Format,
                    format!("pcapng byte-order magic {bom:#010X} is not 0x1A2B3C4D"),
                ));
            }
            return Ok(Format::PcapNg);
        }
        _ => {
            return Err(CaptureError::new(
                0,
                ErrorKind::Format,
                format!("magic number {magic:#010X} is neither pcap nor pcapng"),
            ))
        }
    };
    if data.len() < PCAP_HEADER_LEN {
        return Err(CaptureError::new(
            0,
            ErrorKind::Format,
            format!(
                "pcap file header truncated: {} of {PCAP_HEADER_LEN} bytes",
                data.len()
            ),
        ));
    }
    let link_type = (u32_at(data, 20, big_endian) & 0xFFFF) as u16;
    Ok(Format::Pcap {
        big_endian,
        nanosecond,
        link_type,
    })
}

#[derive(Debug, Clone, Copy)]
struct Interface {
    link_type: u16,
    /// Timestamp units per second.
    units: u64,
    /// Seconds to add to timestamps.
    offset_s: i64,
}

impl Interface {
    fn nanoseconds(&self, ts: u64) -> u64 {
        let ns = ts as u128 * 1_000_000_000 / self.units.max(1) as u128;
        let ns = ns as i128 + self.offset_s as i128 * 1_000_000_000;
        ns.clamp(0, u64::MAX as i128) as u64
    }
}

/// Iterator over a capture's packets: see [`super::Capture::packets`].
#[derive(Debug, Clone)]
pub struct Packets<'a> {
    data: &'a [u8],
    format: Format,
    pos: usize,
    done: bool,
    /// pcapng: byte order of the current section.
    big: bool,
    interfaces: Vec<Interface>,
    last_timestamp: u64,
}

impl<'a> Packets<'a> {
    pub(super) fn new(data: &'a [u8], format: Format) -> Packets<'a> {
        let pos = match format {
            Format::Pcap { .. } => PCAP_HEADER_LEN,
            Format::PcapNg => 0,
        };
        Packets {
            data,
            format,
            pos,
            done: false,
            big: false,
            interfaces: Vec::new(),
            last_timestamp: 0,
        }
    }

    fn fail(&mut self, offset: usize, message: String) -> Option<Result<Packet<'a>, CaptureError>> {
        self.done = true;
        Some(Err(CaptureError::new(offset, ErrorKind::Format, message)))
    }

    fn next_pcap(
        &mut self,
        big: bool,
        nanosecond: bool,
        link_type: u16,
    ) -> Option<Result<Packet<'a>, CaptureError>> {
        let at = self.pos;
        let rest = &self.data[at..];
        if rest.len() < PCAP_RECORD_LEN {
            return self.fail(
                at,
                format!(
                    "pcap record header truncated: {} of {PCAP_RECORD_LEN} bytes",
                    rest.len()
                ),
            );
        }
        let seconds = u32_at(rest, 0, big) as u64;
        let fraction = u32_at(rest, 4, big) as u64;
        let included = u32_at(rest, 8, big) as usize;
        let original = u32_at(rest, 12, big);
        if included > rest.len() - PCAP_RECORD_LEN {
            return self.fail(
                at,
                format!(
                    "pcap record of {included} bytes runs past the end of the file ({} bytes left)",
                    rest.len() - PCAP_RECORD_LEN
                ),
            );
        }
        self.pos += PCAP_RECORD_LEN + included;
        let fraction_ns = if nanosecond {
            fraction
        } else {
            fraction * 1000
        };
        let timestamp_ns = seconds
            .saturating_mul(1_000_000_000)
            .saturating_add(fraction_ns);
        Some(Ok(Packet {
            offset: at,
            timestamp_ns,
            link_type,
            interface: 0,
            original_len: original,
            data_offset: at + PCAP_RECORD_LEN,
            data: &rest[PCAP_RECORD_LEN..PCAP_RECORD_LEN + included],
        }))
    }

    /// The next pcapng block that is a packet, or an error.
    fn next_pcapng(&mut self) -> Option<Result<Packet<'a>, CaptureError>> {
        loop {
            let at = self.pos;
            let rest = &self.data[at..];
            if rest.is_empty() {
                return None;
            }
            if rest.len() < 12 {
                return self.fail(
                    at,
                    format!("pcapng block truncated: {} bytes left", rest.len()),
                );
            }
            let raw_type = u32_at(rest, 0, false);
            if raw_type == SHB {
                let bom = u32_at(rest, 8, false);
                if bom == BYTE_ORDER_MAGIC {
                    self.big = false;
                } else if bom == BYTE_ORDER_MAGIC.swap_bytes() {
                    self.big = true;
                } else {
                    return self.fail(
                        at + 8,
                        format!("pcapng byte-order magic {bom:#010X} is not 0x1A2B3C4D"),
                    );
                }
                self.interfaces.clear();
            }
            let big = self.big;
            let block_type = u32_at(rest, 0, big);
            let len = u32_at(rest, 4, big) as usize;
            if len < 12 || len % 4 != 0 {
                return self.fail(
                    at,
                    format!("pcapng block length {len} is not a multiple of 4 of at least 12"),
                );
            }
            if len > rest.len() {
                return self.fail(
                    at,
                    format!(
                        "pcapng block of {len} bytes runs past the end of the file ({} bytes left)",
                        rest.len()
                    ),
                );
            }
            let trailer = u32_at(rest, len - 4, big) as usize;
            if trailer != len {
                return self.fail(
                    at,
                    format!("pcapng block length {len} does not match its trailing copy {trailer}"),
                );
            }
            self.pos += len;
            let body = &rest[8..len - 4];
            let body_offset = at + 8;
            match block_type {
                SHB if body.len() < 16 => {
                    return self.fail(at, "pcapng section header block too short".to_string());
                }
                IDB => {
                    if body.len() < 8 {
                        return self.fail(
                            at,
                            "pcapng interface description block too short".to_string(),
                        );
                    }
                    let mut interface = Interface {
                        link_type: u16_at(body, 0, big),
                        units: 1_000_000,
                        offset_s: 0,
                    };
                    if let Err(message) = read_idb_options(&body[8..], big, &mut interface) {
                        // Keep the interface (with defaults) so later packets still resolve.
                        self.interfaces.push(interface);
                        return Some(Err(CaptureError::new(at, ErrorKind::Packet, message)));
                    }
                    self.interfaces.push(interface);
                }
                EPB | OBSOLETE_PACKET_BLOCK => {
                    if body.len() < 20 {
                        return Some(Err(CaptureError::new(
                            at,
                            ErrorKind::Packet,
                            "pcapng packet block too short",
                        )));
                    }
                    let interface_id = if block_type == EPB {
                        u32_at(body, 0, big)
                    } else {
                        u16_at(body, 0, big) as u32
                    };
                    let ts = (u32_at(body, 4, big) as u64) << 32 | u32_at(body, 8, big) as u64;
                    let captured = u32_at(body, 12, big) as usize;
                    let original = u32_at(body, 16, big);
                    if captured > body.len() - 20 {
                        return Some(Err(CaptureError::new(
                            at,
                            ErrorKind::Packet,
                            format!(
                                "pcapng packet of {captured} bytes overruns its block ({} bytes of data)",
                                body.len() - 20
                            ),
                        )));
                    }
                    let Some(interface) = self.interfaces.get(interface_id as usize) else {
                        return Some(Err(CaptureError::new(
                            at,
                            ErrorKind::Packet,
                            format!("pcapng packet refers to unknown interface {interface_id}"),
                        )));
                    };
                    let timestamp_ns = interface.nanoseconds(ts);
                    self.last_timestamp = timestamp_ns;
                    return Some(Ok(Packet {
                        offset: at,
                        timestamp_ns,
                        link_type: interface.link_type,
                        interface: interface_id,
                        original_len: original,
                        data_offset: body_offset + 20,
                        data: &body[20..20 + captured],
                    }));
                }
                SPB => {
                    if body.len() < 4 {
                        return Some(Err(CaptureError::new(
                            at,
                            ErrorKind::Packet,
                            "pcapng simple packet block too short",
                        )));
                    }
                    let original = u32_at(body, 0, big);
                    let captured = (original as usize).min(body.len() - 4);
                    let Some(interface) = self.interfaces.first() else {
                        return Some(Err(CaptureError::new(
                            at,
                            ErrorKind::Packet,
                            "pcapng simple packet block without an interface",
                        )));
                    };
                    return Some(Ok(Packet {
                        offset: at,
                        timestamp_ns: self.last_timestamp,
                        link_type: interface.link_type,
                        interface: 0,
                        original_len: original,
                        data_offset: body_offset + 4,
                        data: &body[4..4 + captured],
                    }));
                }
                _ => {}
            }
        }
    }
}

/// Reads `if_tsresol` and `if_tsoffset` from an interface description block's options.
fn read_idb_options(
    mut options: &[u8],
    big: bool,
    interface: &mut Interface,
) -> Result<(), String> {
    while options.len() >= 4 {
        let code = u16_at(options, 0, big);
        let len = u16_at(options, 2, big) as usize;
        if code == 0 {
            break;
        }
        let padded = (len + 3) & !3;
        if 4 + padded > options.len() {
            return Err(format!(
                "pcapng interface option {code} of {len} bytes overruns its block"
            ));
        }
        let value = &options[4..4 + len];
        match (code, len) {
            (9, 1) => {
                let v = value[0];
                interface.units = if v & 0x80 == 0 {
                    if v > 19 {
                        return Err(format!("pcapng if_tsresol 10^-{v} is out of range"));
                    }
                    10u64.pow(v as u32)
                } else {
                    let exponent = v & 0x7F;
                    if exponent > 63 {
                        return Err(format!("pcapng if_tsresol 2^-{exponent} is out of range"));
                    }
                    1u64 << exponent
                };
            }
            (14, 8) => {
                let mut b = [0; 8];
                b.copy_from_slice(value);
                interface.offset_s = if big {
                    i64::from_be_bytes(b)
                } else {
                    i64::from_le_bytes(b)
                };
            }
            _ => {}
        }
        options = &options[4 + padded..];
    }
    Ok(())
}

impl<'a> Iterator for Packets<'a> {
    type Item = Result<Packet<'a>, CaptureError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = match self.format {
            Format::Pcap {
                big_endian,
                nanosecond,
                link_type,
            } => {
                if self.pos >= self.data.len() {
                    None
                } else {
                    self.next_pcap(big_endian, nanosecond, link_type)
                }
            }
            Format::PcapNg => self.next_pcapng(),
        };
        if item.is_none() {
            self.done = true;
        }
        item
    }
}

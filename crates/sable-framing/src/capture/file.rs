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

/// What parsing the bytes at the reading position gave.
pub(super) enum Parsed<'b> {
    /// A packet, and the bytes its record or block takes.
    Packet(Packet<'b>, usize),
    /// A block that is not a packet (section, interface, statistics...), this many bytes.
    Skip(usize),
    /// A packet's block is bad but the file's structure is sound: skip this many bytes.
    Bad(CaptureError, usize),
    /// The file's structure is broken: reading stops.
    Broken(CaptureError),
    /// The record or block is not complete: it needs this many bytes from the position.
    Need(usize),
}

/// The state of reading packets: the format, and for pcapng the current section's byte order,
/// its interfaces and the last timestamp. Fed the bytes at the reading position, whether they
/// are a whole file in memory ([`Packets`]) or what a stream has delivered so far
/// ([`super::PacketReader`]).
#[derive(Debug, Clone)]
pub(super) struct PacketParser {
    format: Format,
    /// pcapng: byte order of the current section.
    big: bool,
    interfaces: Vec<Interface>,
    last_timestamp: u64,
}

impl PacketParser {
    pub(super) fn new(format: Format) -> PacketParser {
        PacketParser {
            format,
            big: false,
            interfaces: Vec::new(),
            last_timestamp: 0,
        }
    }

    pub(super) fn format(&self) -> Format {
        self.format
    }

    /// Where the first record or block starts.
    pub(super) fn first_offset(&self) -> usize {
        match self.format {
            Format::Pcap { .. } => PCAP_HEADER_LEN,
            Format::PcapNg => 0,
        }
    }

    /// Parses the record or block at the start of `rest`, which is at offset `at` in the file.
    pub(super) fn parse<'b>(&mut self, rest: &'b [u8], at: usize) -> Parsed<'b> {
        match self.format {
            Format::Pcap {
                big_endian,
                nanosecond,
                link_type,
            } => pcap_record(rest, at, big_endian, nanosecond, link_type),
            Format::PcapNg => self.pcapng_block(rest, at),
        }
    }

    /// What is left at the end of the file, `rest` (not empty): a record cut short gives the
    /// bytes it has, marked as cut (`original_len` above their length), so that the complete
    /// messages in them are still decoded; then an error says it was cut.
    pub(super) fn cut<'b>(
        &mut self,
        rest: &'b [u8],
        at: usize,
    ) -> (Option<Packet<'b>>, CaptureError) {
        let cut = |what: &str, have: usize, need: usize| {
            CaptureError::new(
                at,
                ErrorKind::Format,
                format!("{what} cut short at the end of the file: {have} of {need} bytes"),
            )
        };
        match self.format {
            Format::Pcap {
                big_endian,
                nanosecond,
                link_type,
            } if rest.len() >= PCAP_RECORD_LEN => {
                let included = u32_at(rest, 8, big_endian) as usize;
                let mut packet = pcap_packet(rest, at, big_endian, nanosecond, link_type);
                packet.data = &rest[PCAP_RECORD_LEN..];
                packet.original_len = packet.original_len.max(included as u32);
                let error = cut("pcap record", rest.len(), PCAP_RECORD_LEN + included);
                (Some(packet), error)
            }
            Format::Pcap { .. } => (None, cut("pcap record header", rest.len(), PCAP_RECORD_LEN)),
            Format::PcapNg => {
                let need = if rest.len() >= 8 {
                    u32_at(rest, 4, self.big) as usize
                } else {
                    12
                };
                (None, cut("pcapng block", rest.len(), need))
            }
        }
    }

    /// The next pcapng block.
    fn pcapng_block<'b>(&mut self, rest: &'b [u8], at: usize) -> Parsed<'b> {
        let broken = |offset: usize, message: String| {
            Parsed::Broken(CaptureError::new(offset, ErrorKind::Format, message))
        };
        if rest.len() < 12 {
            return Parsed::Need(12);
        }
        let raw_type = u32_at(rest, 0, false);
        let mut big = self.big;
        if raw_type == SHB {
            let bom = u32_at(rest, 8, false);
            if bom == BYTE_ORDER_MAGIC {
                big = false;
            } else if bom == BYTE_ORDER_MAGIC.swap_bytes() {
                big = true;
            } else {
                return broken(
                    at + 8,
                    format!("pcapng byte-order magic {bom:#010X} is not 0x1A2B3C4D"),
                );
            }
        }
        let block_type = u32_at(rest, 0, big);
        let len = u32_at(rest, 4, big) as usize;
        if len < 12 || len % 4 != 0 {
            return broken(
                at,
                format!("pcapng block length {len} is not a multiple of 4 of at least 12"),
            );
        }
        if len > rest.len() {
            return Parsed::Need(len);
        }
        let trailer = u32_at(rest, len - 4, big) as usize;
        if trailer != len {
            return broken(
                at,
                format!("pcapng block length {len} does not match its trailing copy {trailer}"),
            );
        }
        if raw_type == SHB {
            self.big = big;
            self.interfaces.clear();
        }
        let body = &rest[8..len - 4];
        let body_offset = at + 8;
        let bad =
            |message: String| Parsed::Bad(CaptureError::new(at, ErrorKind::Packet, message), len);
        match block_type {
            SHB if body.len() < 16 => {
                broken(at, "pcapng section header block too short".to_string())
            }
            IDB => {
                if body.len() < 8 {
                    return broken(
                        at,
                        "pcapng interface description block too short".to_string(),
                    );
                }
                let mut interface = Interface {
                    link_type: u16_at(body, 0, big),
                    units: 1_000_000,
                    offset_s: 0,
                };
                // On a bad option the interface is kept (with defaults) so later packets resolve.
                let options = read_idb_options(&body[8..], big, &mut interface);
                self.interfaces.push(interface);
                match options {
                    Ok(()) => Parsed::Skip(len),
                    Err(message) => bad(message),
                }
            }
            EPB | OBSOLETE_PACKET_BLOCK => {
                if body.len() < 20 {
                    return bad("pcapng packet block too short".to_string());
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
                    return bad(format!(
                        "pcapng packet of {captured} bytes overruns its block ({} bytes of data)",
                        body.len() - 20
                    ));
                }
                let Some(interface) = self.interfaces.get(interface_id as usize) else {
                    return bad(format!(
                        "pcapng packet refers to unknown interface {interface_id}"
                    ));
                };
                let timestamp_ns = interface.nanoseconds(ts);
                self.last_timestamp = timestamp_ns;
                Parsed::Packet(
                    Packet {
                        offset: at,
                        timestamp_ns,
                        link_type: interface.link_type,
                        interface: interface_id,
                        original_len: original,
                        data_offset: body_offset + 20,
                        data: &body[20..20 + captured],
                    },
                    len,
                )
            }
            SPB => {
                if body.len() < 4 {
                    return bad("pcapng simple packet block too short".to_string());
                }
                let original = u32_at(body, 0, big);
                let captured = (original as usize).min(body.len() - 4);
                let Some(interface) = self.interfaces.first() else {
                    return bad("pcapng simple packet block without an interface".to_string());
                };
                Parsed::Packet(
                    Packet {
                        offset: at,
                        timestamp_ns: self.last_timestamp,
                        link_type: interface.link_type,
                        interface: 0,
                        original_len: original,
                        data_offset: body_offset + 4,
                        data: &body[4..4 + captured],
                    },
                    len,
                )
            }
            _ => Parsed::Skip(len),
        }
    }
}

/// The pcap record at the start of `rest`.
fn pcap_record(rest: &[u8], at: usize, big: bool, nanosecond: bool, link_type: u16) -> Parsed<'_> {
    if rest.len() < PCAP_RECORD_LEN {
        return Parsed::Need(PCAP_RECORD_LEN);
    }
    let included = u32_at(rest, 8, big) as usize;
    let len = PCAP_RECORD_LEN.saturating_add(included);
    if len > rest.len() {
        return Parsed::Need(len);
    }
    let mut packet = pcap_packet(rest, at, big, nanosecond, link_type);
    packet.data = &rest[PCAP_RECORD_LEN..len];
    Parsed::Packet(packet, len)
}

/// A pcap record's packet, its data not yet set.
fn pcap_packet(rest: &[u8], at: usize, big: bool, nanosecond: bool, link_type: u16) -> Packet<'_> {
    let seconds = u32_at(rest, 0, big) as u64;
    let fraction = u32_at(rest, 4, big) as u64;
    let fraction_ns = if nanosecond {
        fraction
    } else {
        fraction * 1000
    };
    Packet {
        offset: at,
        timestamp_ns: seconds
            .saturating_mul(1_000_000_000)
            .saturating_add(fraction_ns),
        link_type,
        interface: 0,
        original_len: u32_at(rest, 12, big),
        data_offset: at + PCAP_RECORD_LEN,
        data: &[],
    }
}

/// Iterator over the packets of a capture in memory: see [`super::Capture::packets`].
#[derive(Debug, Clone)]
pub struct Packets<'a> {
    data: &'a [u8],
    parser: PacketParser,
    pos: usize,
    /// An error to give after the packet just given.
    pending: Option<CaptureError>,
    done: bool,
}

impl<'a> Packets<'a> {
    pub(super) fn new(data: &'a [u8], format: Format) -> Packets<'a> {
        let parser = PacketParser::new(format);
        Packets {
            data,
            pos: parser.first_offset(),
            parser,
            pending: None,
            done: false,
        }
    }
}

impl<'a> Iterator for Packets<'a> {
    type Item = Result<Packet<'a>, CaptureError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(error) = self.pending.take() {
                return Some(Err(error));
            }
            if self.done {
                return None;
            }
            let at = self.pos;
            let rest = self.data.get(at..).unwrap_or_default();
            if rest.is_empty() {
                self.done = true;
                return None;
            }
            match self.parser.parse(rest, at) {
                Parsed::Packet(packet, len) => {
                    self.pos += len;
                    return Some(Ok(packet));
                }
                Parsed::Skip(len) => self.pos += len,
                Parsed::Bad(error, len) => {
                    self.pos += len;
                    return Some(Err(error));
                }
                Parsed::Broken(error) => {
                    self.done = true;
                    return Some(Err(error));
                }
                Parsed::Need(_) => {
                    self.done = true;
                    let (packet, error) = self.parser.cut(rest, at);
                    match packet {
                        Some(packet) => {
                            self.pending = Some(error);
                            return Some(Ok(packet));
                        }
                        None => return Some(Err(error)),
                    }
                }
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

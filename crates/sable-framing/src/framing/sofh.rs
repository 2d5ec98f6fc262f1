//! The Simple Open Framing Header in its two forms: the FIX standard's (4-byte big-endian length,
//! 2-byte big-endian encoding type, 6 bytes) and CME's (2-byte little-endian length, encoding type
//! `0xCAFE` little-endian, 4 bytes). Both lengths count the header. The form is told from the
//! encoding type, frame by frame.

use std::fmt;
use std::str::FromStr;

use super::{FrameMeta, Resume, Step};

/// The SOFH encoding type of SBE 1.0, little-endian.
pub const SOFH_SBE_LITTLE_ENDIAN: u16 = 0x5BE0;
/// The SOFH encoding type of SBE 1.0, big-endian.
pub const SOFH_SBE_BIG_ENDIAN: u16 = 0xEB50;
/// The encoding type of CME's SOFH (iLink 3), written little-endian: bytes `FE CA`.
pub const SOFH_CME: u16 = 0xCAFE;
/// Size of the standard Simple Open Framing Header: a 4-byte length and a 2-byte encoding type.
pub const SOFH_HEADER_LEN: usize = 6;
/// Size of CME's SOFH: a 2-byte little-endian length and the encoding type `0xCAFE`.
pub const SOFH_CME_HEADER_LEN: usize = 4;

/// Which of the two Simple Open Framing Headers to write. Reading needs no choice: the encoding
/// type tells them apart, frame by frame.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum SofhForm {
    /// The FIX standard's 6-byte header: a 4-byte big-endian length counting the header, then
    /// the encoding type `0x5BE0` (little-endian SBE) or `0xEB50` (big-endian SBE), big-endian.
    #[default]
    Standard,
    /// CME's 4-byte header (iLink 3): a 2-byte little-endian length counting the header, then
    /// the encoding type `0xCAFE` little-endian (bytes `FE CA`). It does not name the SBE byte
    /// order, and its length field limits a message to 65,531 bytes.
    Cme,
}

impl SofhForm {
    /// Writes the header of a message of `len` bytes (of big-endian SBE when `big_endian`) to
    /// `out`; fails, writing nothing, when `len` does not fit the header's length field.
    pub fn write(self, len: usize, big_endian: bool, out: &mut Vec<u8>) -> Result<(), String> {
        let too_long = |max: usize| {
            format!("a message of {len} bytes is too long for {self} SOFH framing (at most {max})")
        };
        match self {
            SofhForm::Standard => {
                let total = len
                    .checked_add(SOFH_HEADER_LEN)
                    .and_then(|total| u32::try_from(total).ok())
                    .ok_or_else(|| too_long(u32::MAX as usize - SOFH_HEADER_LEN))?;
                out.extend_from_slice(&total.to_be_bytes());
                let encoding = if big_endian {
                    SOFH_SBE_BIG_ENDIAN
                } else {
                    SOFH_SBE_LITTLE_ENDIAN
                };
                out.extend_from_slice(&encoding.to_be_bytes());
            }
            SofhForm::Cme => {
                let total = len
                    .checked_add(SOFH_CME_HEADER_LEN)
                    .and_then(|total| u16::try_from(total).ok())
                    .ok_or_else(|| too_long(usize::from(u16::MAX) - SOFH_CME_HEADER_LEN))?;
                out.extend_from_slice(&total.to_le_bytes());
                out.extend_from_slice(&SOFH_CME.to_le_bytes());
            }
        }
        Ok(())
    }
}

impl fmt::Display for SofhForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SofhForm::Standard => "standard",
            SofhForm::Cme => "cme",
        })
    }
}

impl FromStr for SofhForm {
    type Err = String;

    /// `standard` (also `fix`) or `cme`.
    fn from_str(s: &str) -> Result<SofhForm, String> {
        match s.to_ascii_lowercase().as_str() {
            "standard" | "fix" => Ok(SofhForm::Standard),
            "cme" => Ok(SofhForm::Cme),
            _ => Err(format!(
                "unknown SOFH form {s:?}: expected standard (FIX, 6 bytes) or cme (CME iLink 3, 4 bytes)"
            )),
        }
    }
}

/// A header read at the start of a buffer.
struct Header {
    /// The header's own size (6 or 4).
    size: usize,
    /// The message length it declares, header included.
    len: usize,
    encoding: u16,
}

/// Reads the header at the start of `buf`: CME's when bytes 2 and 3 are `FE CA`, else the
/// standard's. `Err(needed)` when `buf` is too short to tell.
fn header(buf: &[u8]) -> Result<Header, usize> {
    if buf.len() < SOFH_CME_HEADER_LEN {
        return Err(SOFH_CME_HEADER_LEN);
    }
    if u16::from_le_bytes([buf[2], buf[3]]) == SOFH_CME {
        return Ok(Header {
            size: SOFH_CME_HEADER_LEN,
            len: usize::from(u16::from_le_bytes([buf[0], buf[1]])),
            encoding: SOFH_CME,
        });
    }
    if buf.len() < SOFH_HEADER_LEN {
        return Err(SOFH_HEADER_LEN);
    }
    Ok(Header {
        size: SOFH_HEADER_LEN,
        len: u32::from_be_bytes([buf[0], buf[1], buf[2], buf[3]]) as usize,
        encoding: u16::from_be_bytes([buf[4], buf[5]]),
    })
}

fn known(header: &Header) -> bool {
    matches!(
        header.encoding,
        SOFH_SBE_LITTLE_ENDIAN | SOFH_SBE_BIG_ENDIAN | SOFH_CME
    )
}

pub(super) fn step_sofh(buf: &[u8]) -> Step {
    let h = match header(buf) {
        Ok(h) => h,
        Err(needed) => return Step::Incomplete { needed },
    };
    if h.len < h.size {
        return Step::Bad {
            message: format!(
                "SOFH message length {} is smaller than the {}-byte header",
                h.len, h.size
            ),
            resume: Resume::Scan,
        };
    }
    if !known(&h) {
        let resume = if h.len <= buf.len() {
            Resume::At(h.len)
        } else {
            Resume::Scan
        };
        return Step::Bad {
            message: format!(
                "SOFH encoding type {:#06X} is not SBE 1.0 (0x5BE0 little-endian or 0xEB50 \
                 big-endian, 6-byte header) nor CME's 0xCAFE (4-byte little-endian header)",
                h.encoding
            ),
            resume,
        };
    }
    if h.len == h.size {
        return Step::Bad {
            message: format!("empty SOFH message (length {})", h.len),
            resume: Resume::At(h.size),
        };
    }
    if h.len > buf.len() {
        return Step::Incomplete { needed: h.len };
    }
    Step::Frame {
        start: h.size,
        end: h.len,
        meta: Some(FrameMeta::Sofh {
            encoding_type: h.encoding,
        }),
    }
}

/// Whether `buf` starts with a plausible SOFH header of either form: a known encoding type and
/// a length of more than the header which, if `complete`, fits in `buf`.
pub(super) fn plausible_sofh(buf: &[u8], complete: bool) -> bool {
    header(buf).is_ok_and(|h| known(&h) && h.len > h.size && (!complete || h.len <= buf.len()))
}

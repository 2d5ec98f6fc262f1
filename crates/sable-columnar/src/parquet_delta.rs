//! Parquet's `DELTA_BINARY_PACKED` encoding of a page's integers, written by [`LeafChunk`]
//! (crate::parquet_chunk) in the layout `files::properties` gives arrow-rs's encoder: blocks of
//! [`BLOCK`] deltas in [`MINI_BLOCKS`] mini blocks, the same bytes arrow-rs writes for the
//! same values (unit tests below compare the two).
//!
//! [`LeafChunk`]: crate::parquet_chunk::LeafChunk

/// Deltas in a block.
pub const BLOCK: usize = 1024;
/// Mini blocks in a block.
pub const MINI_BLOCKS: usize = 8;
const MINI: usize = BLOCK / MINI_BLOCKS;

/// Appends `values` to `out` as one page's `DELTA_BINARY_PACKED` data: the header (block size,
/// mini blocks, count, the first value zigzag-encoded), then each block of deltas (its least
/// delta, each mini block's bit width, the mini blocks' deltas less that least delta,
/// bit-packed, the last padded with zeros to [`MINI`] values; mini blocks past the values have
/// width 0 and no bytes). `int32`: the column's physical type is `INT32`, so the values are
/// `i32` (sign-extended into `i64`) and their differences wrap at 32 bits.
pub fn encode(values: &[i64], int32: bool, out: &mut Vec<u8>) {
    varint(BLOCK as u64, out);
    varint(MINI_BLOCKS as u64, out);
    varint(values.len() as u64, out);
    varint(zigzag(values.first().copied().unwrap_or(0)), out);
    let mut deltas = [0i64; BLOCK];
    let mut prev = values.first().copied().unwrap_or(0);
    let mut rest = values.get(1..).unwrap_or(&[]);
    while !rest.is_empty() {
        let n = rest.len().min(BLOCK);
        let mut min = i64::MAX;
        for (d, &v) in deltas[..n].iter_mut().zip(&rest[..n]) {
            *d = if int32 {
                i64::from((v as i32).wrapping_sub(prev as i32))
            } else {
                v.wrapping_sub(prev)
            };
            prev = v;
            min = min.min(*d);
        }
        varint(zigzag(min), out);
        let widths_at = out.len();
        out.resize(widths_at + MINI_BLOCKS, 0);
        for (m, mini) in deltas[..n].chunks(MINI).enumerate() {
            let mut or = 0u64;
            for &d in mini {
                or |= offset(d, min, int32);
            }
            let width = u64::BITS - or.leading_zeros();
            out[widths_at + m] = width as u8;
            pack(mini, min, int32, width, out);
        }
        rest = &rest[n..];
    }
}

/// A delta less the block's least delta, as the unsigned number that is bit-packed.
#[inline]
fn offset(delta: i64, min: i64, int32: bool) -> u64 {
    if int32 {
        u64::from((delta as i32).wrapping_sub(min as i32) as u32)
    } else {
        delta.wrapping_sub(min) as u64
    }
}

/// A mini block's deltas (less `min`) in `width` bits each, least significant first, padded
/// with zeros to [`MINI`] values: `MINI * width` bits, whole 64-bit words.
fn pack(mini: &[i64], min: i64, int32: bool, width: u32, out: &mut Vec<u8>) {
    if width == 0 {
        return;
    }
    let values = mini
        .iter()
        .map(|&d| offset(d, min, int32))
        .chain(std::iter::repeat_n(0, MINI - mini.len()));
    // (`MINI` values of any width are whole words: nothing is left over.)
    pack_bits(values, width as usize, out);
}

/// `values` in `width` bits each (at most 64), least significant first, appended to `out` as
/// little-endian 64-bit words; returns the bits left over (fewer than 64, in the low bits) and
/// their count, for the caller to write as it needs.
#[inline(always)]
pub fn pack_bits(
    values: impl Iterator<Item = u64>,
    width: usize,
    out: &mut Vec<u8>,
) -> (u128, usize) {
    let mut acc: u128 = 0;
    let mut bits = 0;
    for v in values {
        acc |= u128::from(v) << bits;
        bits += width;
        if bits >= 64 {
            out.extend_from_slice(&(acc as u64).to_le_bytes());
            acc >>= 64;
            bits -= 64;
        }
    }
    (acc, bits)
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// An unsigned LEB128 varint (Parquet's ULEB128).
pub fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(values: &[i64], int32: bool) -> Vec<u8> {
        let mut out = Vec::new();
        encode(values, int32, &mut out);
        out
    }

    #[test]
    fn a_header_a_least_delta_and_one_mini_block() {
        // Header: 1,024 (0x80 0x08), 8 mini blocks, 4 values, the first (1) zigzagged (2).
        // Deltas 1, 1, 2: least 1 (zigzag 2); offsets 0, 0, 1 in 1 bit, padded to 128 bits.
        let mut want = vec![
            0x80, 0x08, 0x08, 0x04, 0x02, 0x02, 1, 0, 0, 0, 0, 0, 0, 0, 0x04,
        ];
        want.extend([0; 15]);
        assert_eq!(encoded(&[1, 2, 3, 5], false), want);
    }

    #[test]
    fn no_values_and_one_value_are_a_header() {
        assert_eq!(encoded(&[], false), [0x80, 0x08, 0x08, 0x00, 0x00]);
        assert_eq!(encoded(&[-1], false), [0x80, 0x08, 0x08, 0x01, 0x01]);
    }

    #[test]
    fn int32_deltas_wrap_at_32_bits() {
        // i32::MIN - i32::MAX wraps to 1: one delta, all mini blocks of width 0.
        let values = [i64::from(i32::MAX), i64::from(i32::MIN)];
        let mut want = vec![0x80, 0x08, 0x08, 0x02, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0x02];
        want.extend([0; 8]);
        assert_eq!(encoded(&values, true), want);
        // As INT64 the delta is -(2^32 - 1): the least delta, zigzagged.
        let mut want = vec![0x80, 0x08, 0x08, 0x02, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F];
        want.extend([0xFD, 0xFF, 0xFF, 0xFF, 0x1F]);
        want.extend([0; 8]);
        assert_eq!(encoded(&values, false), want);
    }

    #[test]
    fn widths_up_to_64_bits() {
        // Deltas i64::MAX and i64::MIN + 1: least i64::MIN + 1, offsets 2^64 - 2 and 0.
        let values = [0, i64::MAX, 0];
        let out = encoded(&values, false);
        // Header 5 bytes, the least delta (zigzag of i64::MIN + 1: 2^64 - 3) 10, widths 8.
        assert_eq!(out[15..23], [64, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(out.len(), 23 + 128 * 8);
        assert_eq!(out[23..31], (u64::MAX - 1).to_le_bytes());
        assert!(out[31..].iter().all(|&b| b == 0));
    }
}

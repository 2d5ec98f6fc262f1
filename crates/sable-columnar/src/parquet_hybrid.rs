//! Parquet's RLE/bit-packed hybrid encoding, which the column chunks' levels and dictionary
//! indices are written in (crate::parquet_chunk).

use crate::parquet_delta::{pack_bits, varint};

/// The most values in one bit-packed run of [`hybrid`]: 63 groups of 8, so that the run's
/// header is one byte (as other writers do; some readers expect no more).
const MAX_PACKED: usize = 63 * 8;

/// Appends `values` (each below `1 << bit_width`) to `out` in Parquet's RLE/bit-packed hybrid
/// encoding, without a length prefix: runs of 8 or more equal values as RLE runs (a varint
/// header `count << 1`, then the value in `ceil(bit_width / 8)` bytes, little-endian), the rest
/// bit-packed in groups of 8 (a varint header `groups << 1 | 1`, then the values' bits, least
/// significant first). Only the last bit-packed run may be padded (with zeros): readers stop at
/// the page's count of values.
pub fn hybrid(values: &[u32], bit_width: u8, out: &mut Vec<u8>) {
    let mut literal_start: usize = 0;
    let mut i = 0;
    while i < values.len() {
        let value = values[i];
        // A bit-packed run ends only on a group of 8: a run lends it values to fill it, so an
        // RLE run from here needs `pad + 8` equal values. Where the last of those differs, no
        // run starting here or later in this one is long enough: step on.
        let pad = literal_start.wrapping_sub(i) & 7;
        if values.get(i + pad + 7) != Some(&value) {
            i += 1;
            continue;
        }
        let run = values[i..].iter().take_while(|&&v| v == value).count();
        if run >= pad + 8 {
            packed(&values[literal_start..i + pad], bit_width, out);
            rle(value, run - pad, bit_width, out);
            literal_start = i + run;
        }
        i += run;
    }
    packed(&values[literal_start..], bit_width, out);
}

/// One RLE run of `count` times `value`.
fn rle(value: u32, count: usize, bit_width: u8, out: &mut Vec<u8>) {
    varint((count as u64) << 1, out);
    let bytes = usize::from(bit_width).div_ceil(8);
    out.extend_from_slice(&value.to_le_bytes()[..bytes]);
}

/// `values` bit-packed, in runs of at most [`MAX_PACKED`] values, the last group padded.
fn packed(values: &[u32], bit_width: u8, out: &mut Vec<u8>) {
    let width = usize::from(bit_width);
    for run in values.chunks(MAX_PACKED) {
        let groups = run.len().div_ceil(8);
        varint(((groups as u64) << 1) | 1, out);
        out.reserve(groups * width + 8);
        for group in run.chunks(8) {
            // 8 values of `width` bits are `width` bytes (missing values are the zeros of
            // the padding).
            if width <= 8 {
                let mut word = 0u64;
                for (k, &v) in group.iter().enumerate() {
                    word |= u64::from(v) << (k * width);
                }
                // (All 8 bytes, then the unused cut: no copy of a variable length.)
                let end = out.len() + width;
                out.extend_from_slice(&word.to_le_bytes());
                out.truncate(end);
            } else {
                let values = (0..8).map(|k| u64::from(group.get(k).copied().unwrap_or(0)));
                // (8 values of `width` bits are whole bytes.)
                let (rest, bits) = pack_bits(values, width, out);
                out.extend_from_slice(&rest.to_le_bytes()[..bits / 8]);
            }
        }
    }
}

/// The bits an index below `len` takes (at least 1).
pub fn index_width(len: usize) -> u8 {
    (usize::BITS - len.saturating_sub(1).leading_zeros()).max(1) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(values: &[u32], bit_width: u8) -> Vec<u8> {
        let mut out = Vec::new();
        hybrid(values, bit_width, &mut out);
        out
    }

    #[test]
    fn a_long_run_is_one_rle_run() {
        // Header 10 << 1 = 0x14, then the value in one byte.
        assert_eq!(encoded(&[1; 10], 1), [0x14, 0x01]);
        // Widths past 8 bits take two bytes of value.
        assert_eq!(encoded(&[0x0123; 8], 9), [0x10, 0x23, 0x01]);
    }

    #[test]
    fn distinct_values_are_bit_packed() {
        // The Parquet format's own example: 0 to 7 in 3 bits.
        assert_eq!(
            encoded(&[0, 1, 2, 3, 4, 5, 6, 7], 3),
            [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010]
        );
    }

    #[test]
    fn a_run_then_a_padded_tail() {
        // Nine 1s as a run, then 2 and 3 bit-packed in 2 bits, padded to a group of 8.
        assert_eq!(
            encoded(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3], 2),
            [0x12, 0x01, 0x03, 0x0E, 0x00]
        );
    }

    #[test]
    fn a_run_lends_values_to_fill_the_group_before_it() {
        // 0, 1, 2 and five of the sixteen 5s fill a group of 8; the eleven other 5s are a run.
        let mut values = vec![0, 1, 2];
        values.extend([5; 16]);
        assert_eq!(encoded(&values, 3), [0x03, 0x88, 0xDA, 0xB6, 0x16, 0x05]);
    }

    #[test]
    fn a_short_run_after_values_stays_packed() {
        // 3 values, then 12 of 1: filling the group takes 5, leaving 7 (< 8) for a run, so all
        // 15 are packed in 2 groups of 1 bit: 0,1,0 then twelve 1s then a zero of padding.
        let mut values = vec![0, 1, 0];
        values.extend([1; 12]);
        assert_eq!(encoded(&values, 1), [0x05, 0b1111_1010, 0b0111_1111]);
    }

    #[test]
    fn long_literals_split_at_63_groups() {
        let values: Vec<u32> = (0..(MAX_PACKED as u32 + 8)).map(|i| i % 2).collect();
        let out = encoded(&values, 1);
        // 63 groups (header 0x7F, 63 bytes), then 1 group (header 0x03, 1 byte).
        assert_eq!(out.len(), 1 + 63 + 1 + 1);
        assert_eq!(out[0], 0x7F);
        assert_eq!(out[64], 0x03);
        assert!(out[1..64]
            .iter()
            .chain(&out[65..])
            .all(|&b| b == 0b1010_1010));
    }

    /// The encoding as first written here (each run measured, bytes pushed one by one), to
    /// check the faster one against.
    fn reference(values: &[u32], bit_width: u8) -> Vec<u8> {
        let mut out = Vec::new();
        let packed = |values: &[u32], out: &mut Vec<u8>| {
            for run in values.chunks(MAX_PACKED) {
                let groups = run.len().div_ceil(8);
                varint(((groups as u64) << 1) | 1, out);
                let (mut acc, mut bits) = (0u64, 0u32);
                for &v in run {
                    acc |= u64::from(v) << bits;
                    bits += u32::from(bit_width);
                    while bits >= 8 {
                        out.push(acc as u8);
                        acc >>= 8;
                        bits -= 8;
                    }
                }
                let total = groups * 8 * usize::from(bit_width);
                let mut missing = total - run.len() * usize::from(bit_width) + bits as usize;
                while missing >= 8 {
                    out.push(acc as u8);
                    acc >>= 8;
                    missing -= 8;
                }
            }
        };
        let (mut literal_start, mut i) = (0, 0);
        while i < values.len() {
            let value = values[i];
            let run = values[i..].iter().take_while(|&&v| v == value).count();
            let pad = (8 - (i - literal_start) % 8) % 8;
            if run >= pad + 8 {
                packed(&values[literal_start..i + pad], &mut out);
                rle(value, run - pad, bit_width, &mut out);
                literal_start = i + run;
            }
            i += run;
        }
        packed(&values[literal_start..], &mut out);
        out
    }

    #[test]
    fn the_same_bytes_as_the_reference() {
        let mut x = 7u64;
        for width in [1u8, 2, 3, 5, 8, 9, 13, 16, 20, 31] {
            for len in [0, 1, 7, 8, 9, 30, 600, 1500] {
                // Runs of random lengths (1 to 20) of random values.
                let mut values = Vec::new();
                while values.len() < len {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let run = (x >> 59) as usize % 20 + 1;
                    let v = (x >> 20) as u32 & ((1u32 << width) - 1);
                    values.extend(std::iter::repeat_n(v, run.min(len - values.len())));
                }
                assert_eq!(
                    encoded(&values, width),
                    reference(&values, width),
                    "{width} {len}"
                );
            }
        }
    }

    #[test]
    fn index_widths() {
        assert_eq!(index_width(0), 1);
        assert_eq!(index_width(1), 1);
        assert_eq!(index_width(2), 1);
        assert_eq!(index_width(3), 2);
        assert_eq!(index_width(256), 8);
        assert_eq!(index_width(257), 9);
    }
}

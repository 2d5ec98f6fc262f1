//! The writers: numbers, text and JSON strings appended to a [`Sink`], byte by byte as the
//! canonical JSON form (`docs/json.md`) has them. The bottom layer of the crate: it knows nothing
//! of the IR, the decoder or its values (the decoder's plan builds its JSON keys with
//! [`write_json_str`]; `json_value.rs` writes decoded values with these).

/// How the bytes of a character array or var data are to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Charset {
    /// One byte, one character U+0000..U+00FF: US-ASCII, ISO-8859-1, no encoding declared, and
    /// every encoding other than UTF-8.
    Latin1,
    /// UTF-8.
    Utf8,
}

/// Where the writers write: a `Vec<u8>` (the generic visitor path), or the compiled program's
/// output.
pub(crate) trait Sink {
    /// Appends a byte.
    fn push(&mut self, b: u8);
    /// Appends bytes.
    fn put(&mut self, s: &[u8]);
    /// Appends the first `keep` bytes of `w` (`keep` at most `N`), by a copy of all `N` (a
    /// fixed-size copy: vector moves rather than a call to `memcpy`).
    fn put_window<const N: usize>(&mut self, w: &[u8; N], keep: usize);
}

impl Sink for Vec<u8> {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        Vec::push(self, b);
    }

    #[inline(always)]
    fn put(&mut self, s: &[u8]) {
        self.extend_from_slice(s);
    }

    #[inline(always)]
    fn put_window<const N: usize>(&mut self, w: &[u8; N], keep: usize) {
        let len = self.len() + keep;
        self.extend_from_slice(w);
        self.truncate(len);
    }
}

#[inline(always)]
pub(crate) fn write_i64(out: &mut impl Sink, i: i64) {
    if i < 0 {
        out.push(b'-');
    }
    write_u64(out, i.unsigned_abs());
}

#[inline(always)]
pub(crate) fn write_f32(out: &mut impl Sink, f: f32) {
    match short_decimal_f32(f.abs()) {
        Some(d) => write_hundredths(out, f.is_sign_negative(), d),
        None => write_f32_other(out, f),
    }
}

/// The floats that are not short decimals below 2^16 (see [`write_f32`]).
#[inline(never)]
pub(crate) fn write_f32_other(out: &mut impl Sink, f: f32) {
    match fixed_f32(f) {
        Some((neg, d, k)) => write_fixed(out, neg, d, k),
        None => write_f32_slow(out, f),
    }
}

/// Appends `-` when `neg`, then `d / 100` (`d` below 10^7) as ryu prints the float whose
/// shortest decimal it is ([`short_decimal_f32`]): with two digits after the point, or one when
/// the second is 0. One eight-byte write, its layout found by shifts of constant amounts.
#[inline(always)]
pub(crate) fn write_hundredths(out: &mut impl Sink, neg: bool, d: u32) {
    if neg {
        out.push(b'-');
    }
    if d < 10_000 {
        // Below 100: four digits (two before the point), laid out as below.
        let digits = u64::from(digits4(d));
        let s = digits | (ZEROS >> 32);
        let v = (s & 0xffff) | (u64::from(b'.') << 16) | ((s & 0xffff_0000) << 8);
        let zero = usize::from(digits & 0xff == 0);
        let last = usize::from(digits >> 24 != 0);
        out.put_window(&(v >> (8 * zero)).to_le_bytes(), 4 - zero + last);
        return;
    }
    // Seven digits (the eighth, the leading one of `digits8`, is 0), the last byte free.
    let digits = digits8(d) >> 8;
    let s = digits | (ZEROS >> 8);
    // Five digits, the point, two digits.
    const INT: u64 = (1 << 40) - 1;
    let v = (s & INT) | (u64::from(b'.') << 40) | ((s & !INT) << 8);
    // Leading zero digits, keeping one before the point.
    let zeros = (digits.trailing_zeros() / 8).min(4);
    // The last digit, kept when it is not 0.
    let last = usize::from(digits >> 48 != 0);
    out.put_window(&(v >> (zeros * 8)).to_le_bytes(), 7 - zeros as usize + last);
}

/// A `float` that is written as `d / 10^k` with `k` (1 or 2) digits after the point, `-` first
/// when `neg`: those below 2^16 whose shortest round-tripping decimal has at most two digits
/// after the point (integral ones and zeros included, see [`short_decimal_f32`]), and the
/// integral ones below 10^7.
#[inline(always)]
pub(crate) fn fixed_f32(f: f32) -> Option<(bool, u32, u32)> {
    let a = f.abs();
    let neg = f.is_sign_negative();
    if let Some(d) = short_decimal_f32(a) {
        // One digit after the point when the second is 0 (integral values print `.0`).
        return Some(if d % 10 == 0 {
            (neg, d / 10, 1)
        } else {
            (neg, d, 2)
        });
    }
    // Also rejects NaN.
    if a < 1e7 {
        let i = a as u32;
        if i as f32 == a {
            // Integral values: the shortest form is the integer and `.0`.
            return Some((neg, i * 10, 1));
        }
    }
    None
}

/// The floats [`write_f32`] does not lay out itself.
#[inline(never)]
pub(crate) fn write_f32_slow(out: &mut impl Sink, f: f32) {
    if f.is_finite() {
        out.put(ryu::Buffer::new().format_finite(f).as_bytes());
    } else {
        write_non_finite(out, f.is_nan(), f.is_sign_negative());
    }
}

#[inline]
pub(crate) fn write_f64(out: &mut impl Sink, f: f64) {
    let a = f.abs();
    let neg = f.is_sign_negative();
    if a < 1e7 && (a as u32) as f64 == a {
        write_fixed(out, neg, a as u32 * 10, 1);
    } else if a < 1e15 && (a as u64) as f64 == a {
        if neg {
            out.push(b'-');
        }
        write_u64(out, a as u64);
        out.put(b".0");
    } else if let Some((d, k)) = short_decimal_f64(a) {
        match u32::try_from(d) {
            Ok(d) if d < 100_000_000 => write_fixed(out, neg, d, k),
            _ => {
                if neg {
                    out.push(b'-');
                }
                write_short_decimal(out, d, k)
            }
        }
    } else if f.is_finite() {
        out.put(ryu::Buffer::new().format_finite(f).as_bytes());
    } else {
        write_non_finite(out, f.is_nan(), f.is_sign_negative());
    }
}

/// A char array (`padded`: it ends at its first NUL) or text var data (every byte).
#[inline(always)]
pub(crate) fn write_text(out: &mut impl Sink, bytes: &[u8], charset: Charset, padded: bool) {
    if plain_ascii(bytes) {
        // No NUL (so nothing to cut), nothing to escape, valid in every charset.
        out.push(b'"');
        put_bytes(out, bytes);
        out.push(b'"');
    } else {
        write_text_slow(out, bytes, charset, padded);
    }
}

/// The text [`write_text`] does not copy as it is.
#[inline(never)]
pub(crate) fn write_text_slow(out: &mut impl Sink, bytes: &[u8], charset: Charset, padded: bool) {
    let text = if padded {
        match bytes.iter().position(|&b| b == 0) {
            Some(n) => &bytes[..n],
            None => bytes,
        }
    } else {
        bytes
    };
    if charset == Charset::Utf8 && std::str::from_utf8(text).is_err() {
        out.put(b"{\"hex\":");
        write_hex_str(out, bytes);
        out.push(b'}');
    } else {
        write_json_str(out, text, charset);
    }
}
const ZEROS: u64 = 0x3030_3030_3030_3030;

/// The eight decimal digits of `n` (below 10^8, leading zeros included) as the byte values 0 to
/// 9 of a `u64`, the most significant digit in its lowest byte (first in little-endian order):
/// the divisions done in lanes of the word, each by a multiplication and a shift that are exact
/// in the lane's range (`x * 10486 >> 20` is `x / 100` for `x` below 10^4, `x * 103 >> 10` is
/// `x / 10` below 100; no lane's product reaches the next lane).
#[inline(always)]
fn digits8(n: u32) -> u64 {
    // Four-digit halves in 32-bit lanes, the high half first.
    let x = u64::from(n / 10_000) | (u64::from(n % 10_000) << 32);
    // Two-digit quarters in 16-bit lanes.
    let hundreds = ((x * 10_486) >> 20) & 0x0000_007f_0000_007f;
    let x = hundreds | ((x - hundreds * 100) << 16);
    // Digits in bytes.
    let tens = ((x * 103) >> 10) & 0x000f_000f_000f_000f;
    tens | ((x - tens * 10) << 8)
}

/// Appends `n` (below 10^8) in decimal, by one eight-byte write.
#[inline(always)]
fn write_small(out: &mut impl Sink, n: u32) {
    let d = digits8(n);
    // Leading zero digits (all but the last for 0).
    let zeros = (d.trailing_zeros() / 8).min(7);
    out.put_window(
        &((d | ZEROS) >> (zeros * 8)).to_le_bytes(),
        8 - zeros as usize,
    );
}

/// Appends exactly eight digits of `n` (below 10^8).
#[inline(always)]
fn write_eight(out: &mut impl Sink, n: u32) {
    out.put(&(digits8(n) | ZEROS).to_le_bytes());
}

/// The four decimal digits of `n` (below 10^4) as in [`digits8`], in a `u32`.
#[inline(always)]
fn digits4(n: u32) -> u32 {
    // Two-digit halves in 16-bit lanes, then digits in bytes.
    let hundreds = (n * 10_486) >> 20;
    let x = hundreds | ((n - hundreds * 100) << 16);
    let tens = ((x * 103) >> 10) & 0x000f_000f;
    tens | ((x - tens * 10) << 8)
}

/// Appends `n` (below 10^4) in decimal, by one four-byte write.
#[inline(always)]
fn write_four(out: &mut impl Sink, n: u32) {
    let d = digits4(n);
    // Leading zero digits (all but the last for 0).
    let zeros = (d.trailing_zeros() / 8).min(3);
    out.put_window(
        &((d | ZEROS as u32) >> (zeros * 8)).to_le_bytes(),
        4 - zeros as usize,
    );
}

/// Appends `u` in decimal, eight digits at a time (four for small numbers), without a call to
/// `memcpy`.
#[inline(always)]
pub(crate) fn write_u64(out: &mut impl Sink, u: u64) {
    const E8: u64 = 100_000_000;
    if u < 100 {
        // Two digits (`x * 103 >> 10` is `x / 10` below 100), the first cut when 0.
        let tens = (u as u32 * 103) >> 10;
        let two = (tens | ((u as u32 - tens * 10) << 8)) | 0x3030;
        let one = usize::from(u < 10);
        out.put_window(&((two >> (8 * one)) as u16).to_le_bytes(), 2 - one);
    } else if u < 10_000 {
        write_four(out, u as u32);
    } else if u < E8 {
        write_small(out, u as u32);
    } else if u < E8 * E8 {
        write_small(out, (u / E8) as u32);
        write_eight(out, (u % E8) as u32);
    } else {
        let high = u / E8;
        // Below 1845.
        write_four(out, (high / E8) as u32);
        write_eight(out, (high % E8) as u32);
        write_eight(out, (u % E8) as u32);
    }
}

/// Appends `-` when `neg`, then `d / 10^k` with exactly `k` digits after the point (`k` 1 or 2,
/// `d` below 10^8): below 10^7 by one eight-byte write of a word put together in registers (a
/// sixteen-byte value would be stored in two halves and read back whole, which the processor
/// cannot forward).
#[inline(always)]
pub(crate) fn write_fixed(out: &mut impl Sink, neg: bool, d: u32, k: u32) {
    if neg {
        out.push(b'-');
    }
    if d < 10_000 {
        // Four digits, the point before the last `k`.
        let digits = digits4(d);
        let s = u64::from(digits | ZEROS as u32);
        let before = (4 - k) * 8;
        let mask = (1u64 << before) - 1;
        let v = (s & mask) | (u64::from(b'.') << before) | ((s & !mask) << 8);
        let zeros = (digits.trailing_zeros() / 8).min(3 - k);
        out.put_window(&(v >> (zeros * 8)).to_le_bytes(), (5 - zeros) as usize);
        return;
    }
    if d >= 10_000_000 {
        write_short_decimal(out, i64::from(d), k);
        return;
    }
    // Seven digits (the eighth, the leading one of `digits8`, is 0), the last byte free.
    let digits = digits8(d) >> 8;
    let s = digits | (ZEROS >> 8);
    // The point goes before the last `k` digits.
    let before = (7 - k) * 8;
    let mask = (1u64 << before) - 1;
    let v = (s & mask) | (u64::from(b'.') << before) | ((s & !mask) << 8);
    // Leading zero digits, keeping one before the point.
    let zeros = (digits.trailing_zeros() / 8).min(6 - k);
    out.put_window(&(v >> (zeros * 8)).to_le_bytes(), (8 - zeros) as usize);
}

/// For `a` (not negative) below 2^16 whose shortest round-tripping decimal has at most two
/// digits after the point: `d` with `a` the float nearest `d / 100` (what ryu prints, without
/// ryu, and without a division).
///
/// Why: `y = 100·a` is exact in a double (24 bits times 7), and so is `e = y - d` for the
/// integer `d` nearest `y`. The float nearest `d / 100` is `a` exactly when `d / 100` lies
/// strictly inside `a`'s rounding interval, half the gap to each neighbouring float (`below`
/// is half `up` at a power of two): `-50·up < e < 50·below`, all exact. No decimal of two
/// digits is a tie between two floats (`d / 100` is a dyadic rational only when 25 divides
/// `d`, and then it has at most 17 significant bits, so it is a float itself). Below 2^16 the
/// gap between floats is at most 2^-7 < 0.01, so at most one two-digit decimal reads back as
/// `a`, and no decimal with fewer significant digits can either unless it also has at most two
/// digits after the point (its digits after the point would have to be fewer, and any integer
/// or tenth is also a two-digit decimal). So `d` is the unique shortest: one digit after the
/// point when `d % 10 == 0` (the `.0` of integral values included), and ryu prints it as
/// plain decimal (the range is well within its plain-decimal range: `a` is 0 or at least
/// 0.005, since `d` is 0 only for `a = 0` when the test passes).
#[inline(always)]
pub(crate) fn short_decimal_f32(a: f32) -> Option<u32> {
    // Also rejects NaN and infinities.
    if a.is_nan() || a >= 65536.0 {
        return None;
    }
    let bits = a.to_bits();
    let x = f64::from(a);
    let y = x * 100.0;
    let d = (y + 0.5) as u32;
    let e = y - f64::from(d);
    // The gaps to the next float up and down (finite: `a` is below 2^16).
    let up = f64::from(f32::from_bits(bits + 1)) - x;
    let below = if bits & 0x007f_ffff == 0 {
        up * 0.5
    } else {
        up
    };
    (-50.0 * up < e && e < 50.0 * below).then_some(d)
}

/// As [`short_decimal_f32`], for a `double`: below 2^32 the spacing is at most 2^-20, and `d`
/// (below 2^39) is exact; `x * 10^k` is rounded, but only `d` is used, and it is checked by the
/// correctly rounded division.
#[inline]
fn short_decimal_f64(x: f64) -> Option<(i64, u32)> {
    if x.is_nan() || x.abs() >= 4_294_967_296.0 {
        return None;
    }
    for (k, p) in [(1u32, 10.0f64), (2, 100.0)] {
        let y = x * p;
        let d = (y + if y < 0.0 { -0.5 } else { 0.5 }) as i64;
        if d as f64 / p == x && d != 0 {
            return Some((d, k));
        }
    }
    None
}

/// Writes `d / 10^k` with exactly `k` digits after the point (`k` 1 or 2, `d` not 0).
#[inline]
fn write_short_decimal(out: &mut impl Sink, d: i64, k: u32) {
    if d < 0 {
        out.push(b'-');
    }
    let u = d.unsigned_abs();
    let p = 10u64.pow(k);
    write_u64(out, u / p);
    let frac = u % p;
    if k == 1 {
        out.put(&[b'.', b'0' + frac as u8]);
    } else {
        out.put(&[b'.', b'0' + (frac / 10) as u8, b'0' + (frac % 10) as u8]);
    }
}

fn write_non_finite(out: &mut impl Sink, nan: bool, negative: bool) {
    out.put(if nan {
        b"\"NaN\"".as_slice()
    } else if negative {
        b"\"-Infinity\"".as_slice()
    } else {
        b"\"Infinity\"".as_slice()
    });
}

const HEX: &[u8; 16] = b"0123456789abcdef";

pub(crate) fn write_hex_str(out: &mut impl Sink, bytes: &[u8]) {
    out.push(b'"');
    for &b in bytes {
        out.push(HEX[usize::from(b >> 4)]);
        out.push(HEX[usize::from(b & 15)]);
    }
    out.push(b'"');
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Whether each of the eight bytes of `x` is ASCII from U+0020 and neither `"` nor `\\`. The
/// tests for "some byte is zero" (`x ^ c` for a byte equal to `c`) and "some byte is below
/// 0x20" are exact as to whether there is one.
#[inline(always)]
fn plain_word(x: u64) -> bool {
    let below_space = x.wrapping_sub(ONES * 0x20) & !x;
    let q = x ^ (ONES * u64::from(b'"'));
    let quote = q.wrapping_sub(ONES) & !q;
    let b = x ^ (ONES * u64::from(b'\\'));
    let backslash = b.wrapping_sub(ONES) & !b;
    (below_space | quote | backslash | x) & HIGHS == 0
}

/// Whether every byte is ASCII from U+0020 and neither `"` nor `\\`: text written as it is,
/// whatever its charset. Eight bytes at a time, the last eight (or a short text's bytes) read
/// again in one overlapping word rather than one by one.
#[inline(always)]
pub(crate) fn plain_ascii(text: &[u8]) -> bool {
    let n = text.len();
    if let Some(last) = text.last_chunk::<8>() {
        text.chunks_exact(8)
            .all(|w| <[u8; 8]>::try_from(w).is_ok_and(|w| plain_word(u64::from_le_bytes(w))))
            && plain_word(u64::from_le_bytes(*last))
    } else if let (Some(a), Some(b)) = (text.first_chunk::<4>(), text.last_chunk::<4>()) {
        plain_word(u64::from(u32::from_le_bytes(*a)) | u64::from(u32::from_le_bytes(*b)) << 32)
    } else if let (Some(&a), Some(&b)) = (text.first(), text.last()) {
        // One to three bytes: the first, middle and last are all of them; the rest is `a`.
        let m = text[n / 2];
        plain_word(0x6161_6161_6100_0000 | u64::from(a) | u64::from(m) << 8 | u64::from(b) << 16)
    } else {
        true
    }
}

/// Appends `s`; up to 32 bytes by fixed-size copies (two overlapping windows) rather than a
/// call to `memcpy`.
#[inline(always)]
pub(crate) fn put_bytes(out: &mut impl Sink, s: &[u8]) {
    let n = s.len();
    if n > 32 {
        out.put(s);
    } else if let (Some(a), Some(b)) = (s.first_chunk::<16>(), s.last_chunk::<16>()) {
        out.put_window(a, n - 16);
        out.put_window(b, 16);
    } else if let (Some(a), Some(b)) = (s.first_chunk::<8>(), s.last_chunk::<8>()) {
        out.put_window(a, n - 8);
        out.put_window(b, 8);
    } else if let (Some(a), Some(b)) = (s.first_chunk::<4>(), s.last_chunk::<4>()) {
        out.put_window(a, n - 4);
        out.put_window(b, 4);
    } else {
        for &c in s {
            out.push(c);
        }
    }
}

/// Appends the `n` bytes of `buf` from `at` (in bounds): when 16 (or 32) bytes can be read from
/// there, by one copy of them cut to `n` (the bytes after those `n` read, not kept), else as
/// [`put_bytes`].
#[inline(always)]
pub(crate) fn put_bytes_at(out: &mut impl Sink, buf: &[u8], at: usize, n: usize) {
    let from = buf.get(at..).unwrap_or_default();
    match (from.first_chunk::<16>(), from.first_chunk::<32>()) {
        (Some(w), _) if n <= 16 => out.put_window(w, n),
        (_, Some(w)) if n <= 32 => out.put_window(w, n),
        _ => put_bytes(out, from.get(..n).unwrap_or_default()),
    }
}

/// Whether a byte must not be copied into a JSON string as it is (for Latin-1 text: any byte
/// from 0x80, which becomes two bytes of UTF-8).
const fn escape_table(latin1: bool) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i < 0x20 || i == b'"' as usize || i == b'\\' as usize || (latin1 && i >= 0x80);
        i += 1;
    }
    t
}

static ESCAPE_UTF8: [bool; 256] = escape_table(false);
static ESCAPE_LATIN1: [bool; 256] = escape_table(true);

/// Appends `text` as a JSON string: UTF-8 text (already valid) as it is, Latin-1 text each byte
/// as the character U+0000..U+00FF; `"`, `\` and control characters escaped.
#[inline]
pub(crate) fn write_json_str(out: &mut impl Sink, text: &[u8], charset: Charset) {
    if plain_ascii(text) {
        out.push(b'"');
        put_bytes(out, text);
        out.push(b'"');
        return;
    }
    let table = match charset {
        Charset::Utf8 => &ESCAPE_UTF8,
        Charset::Latin1 => &ESCAPE_LATIN1,
    };
    out.push(b'"');
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        if !table[usize::from(b)] {
            continue;
        }
        out.put(&text[start..i]);
        start = i + 1;
        match b {
            b'"' => out.put(b"\\\""),
            b'\\' => out.put(b"\\\\"),
            b'\n' => out.put(b"\\n"),
            b'\r' => out.put(b"\\r"),
            b'\t' => out.put(b"\\t"),
            0x08 => out.put(b"\\b"),
            0x0c => out.put(b"\\f"),
            0x80.. => {
                out.push(0xc0 | (b >> 6));
                out.push(0x80 | (b & 0x3f));
            }
            _ => {
                out.put(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 15)]);
            }
        }
    }
    out.put(&text[start..]);
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The eight-at-a-time test agrees with the byte table, and strings print the same either
    /// way.
    #[test]
    fn plain_ascii_and_put_bytes() {
        for b in 0..=255u8 {
            for len in 1..20 {
                for at in 0..len {
                    let mut t = vec![b'a'; len];
                    t[at] = b;
                    let want = t
                        .iter()
                        .all(|&c| !ESCAPE_LATIN1[usize::from(c)] && c < 0x80);
                    assert_eq!(plain_ascii(&t), want, "{t:?}");
                }
            }
        }
        for len in 0..40 {
            let t: Vec<u8> = (0..len).map(|i| b'A' + (i % 26) as u8).collect();
            let mut out = b"xy".to_vec();
            put_bytes(&mut out, &t);
            assert_eq!(&out[2..], &t[..]);
            assert_eq!(&out[..2], b"xy");
        }
    }
}

//! The helpers every generated Rust module carries (it depends on nothing): byte reads and
//! writes that never panic, the error types, and the canonical JSON value writers.

/// The module-level items: errors, and the private `sbe_support` module.
pub(crate) const SUPPORT: &str = r##"
/// Why a message could not be decoded, and where: `offset` is the byte offset of the problem from
/// the start of the buffer given to the decoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeError {
    /// The byte offset of the problem.
    pub offset: usize,
    /// What went wrong.
    pub kind: DecodeErrorKind,
}

/// What went wrong while decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The buffer ends before the end of `what`: `needed` bytes at the offset, `available` left.
    Truncated {
        /// The element being read.
        what: &'static str,
        /// The bytes it needs.
        needed: usize,
        /// The bytes the buffer has from the offset on.
        available: usize,
    },
    /// The header's template id is not the message's (or, for `decode_any`, no message's).
    UnknownTemplateId(u64),
    /// The header's schema id is not the schema's.
    SchemaIdMismatch(u64),
    /// A block length is shorter than the fields of a writer at the schema's version need.
    BlockLengthTooShort {
        /// The block length read.
        block_length: usize,
        /// The bytes the fields need.
        needed: usize,
    },
    /// Text that is not valid in its character encoding (as `&str`: UTF-8, or ASCII for the
    /// one-byte encodings).
    InvalidText,
}

impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.kind {
            DecodeErrorKind::Truncated { what, needed, available } => write!(
                f,
                "at byte {}: {what} needs {needed} bytes, {available} left",
                self.offset
            ),
            DecodeErrorKind::UnknownTemplateId(id) => {
                write!(f, "at byte {}: unknown template id {id}", self.offset)
            }
            DecodeErrorKind::SchemaIdMismatch(id) => {
                write!(f, "at byte {}: schema id {id} is not the schema's", self.offset)
            }
            DecodeErrorKind::BlockLengthTooShort { block_length, needed } => write!(
                f,
                "at byte {}: block length {block_length} is less than the {needed} bytes its fields take",
                self.offset
            ),
            DecodeErrorKind::InvalidText => {
                write!(f, "at byte {}: text not valid in its character encoding", self.offset)
            }
        }
    }
}

impl core::error::Error for DecodeError {}

/// Why a message could not be encoded, and where (`offset` from the start of the buffer given
/// to the encoder).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeError {
    /// Where the write was to start.
    pub offset: usize,
    /// What went wrong.
    pub kind: EncodeErrorKind,
}

/// What went wrong while encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The buffer is too small: `needed` bytes from the offset, `available` left.
    BufferTooSmall {
        /// The bytes the write needs.
        needed: usize,
        /// The bytes the buffer has from the offset on.
        available: usize,
    },
    /// A group already holds the most entries its `numInGroup` allows.
    TooManyEntries(u64),
    /// Var data longer than its length type allows.
    TooLong {
        /// The length given.
        length: usize,
        /// The largest allowed.
        max: u64,
    },
}

impl core::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.kind {
            EncodeErrorKind::BufferTooSmall { needed, available } => write!(
                f,
                "at byte {}: {needed} bytes needed, {available} left in the buffer",
                self.offset
            ),
            EncodeErrorKind::TooManyEntries(max) => {
                write!(f, "at byte {}: a group holds at most {max} entries", self.offset)
            }
            EncodeErrorKind::TooLong { length, max } => write!(
                f,
                "at byte {}: var data of {length} bytes is longer than {max}",
                self.offset
            ),
        }
    }
}

impl core::error::Error for EncodeError {}

#[allow(dead_code)]
mod sbe_support {
    use core::fmt::{self, Write as _};

    use super::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

    /// `N` bytes at `off`, if the slice holds them.
    #[inline(always)]
    pub fn get<const N: usize>(b: &[u8], off: usize) -> Option<[u8; N]> {
        match b.get(off..off + N) {
            Some(s) => s.try_into().ok(),
            None => None,
        }
    }

    /// Marks the path that calls it as unlikely (a `#[cold]` function, inlined: no code), so
    /// that LLVM lays the likely path out straight, its branches not taken (a stable Rust
    /// before 1.95's `core::hint::cold_path`).
    #[cold]
    #[inline(always)]
    pub fn cold() {}

    /// `N` bytes at `off` of a block (or composite) of `FULL` bytes at the schema's version:
    /// tested as the whole block, one test every read of a full block shares, then the read
    /// needs none; a shorter block (an older writer) is read as far as it goes, on a path
    /// marked [`cold`].
    #[inline(always)]
    pub fn at<const FULL: usize, const N: usize>(b: &[u8], off: usize) -> Option<[u8; N]> {
        if let Some(Ok(v)) = b.first_chunk::<FULL>().and_then(|f| f.get(off..off + N)).map(<[u8; N]>::try_from) {
            return Some(v);
        }
        cold();
        get::<N>(b, off)
    }

    /// A reference to the `N` bytes at `off` of a block of `FULL` bytes, as [`at`].
    #[inline(always)]
    pub fn at_ref<const FULL: usize, const N: usize>(b: &[u8], off: usize) -> Option<&[u8; N]> {
        if let Some(Ok(v)) = b.first_chunk::<FULL>().and_then(|f| f.get(off..off + N)).map(<&[u8; N]>::try_from) {
            return Some(v);
        }
        cold();
        get_ref::<N>(b, off)
    }

    /// The bytes from `off` on of a block of `FULL` bytes (a composite's), as [`at`].
    #[inline(always)]
    pub fn from<const FULL: usize>(b: &[u8], off: usize) -> &[u8] {
        if let Some(v) = b.first_chunk::<FULL>().and_then(|f| f.get(off..)) {
            return v;
        }
        cold();
        b.get(off..).unwrap_or(&[])
    }

    /// A reference to the `N` bytes at `off`, if the slice holds them.
    #[inline(always)]
    pub fn get_ref<const N: usize>(b: &[u8], off: usize) -> Option<&[u8; N]> {
        match b.get(off..off + N) {
            Some(s) => s.try_into().ok(),
            None => None,
        }
    }

    /// Writes `v` at `off`; the callers have checked the room first.
    #[inline(always)]
    pub fn put<const N: usize>(b: &mut [u8], off: usize, v: [u8; N]) {
        if let Some(d) = b.get_mut(off..off + N) {
            d.copy_from_slice(&v);
        }
    }

    /// Copies `src` to `off` (as much as fits), zeroing the rest of `len` bytes.
    #[inline(always)]
    pub fn put_padded(b: &mut [u8], off: usize, len: usize, src: &[u8]) {
        if let Some(d) = b.get_mut(off..off.saturating_add(len)) {
            let n = src.len().min(d.len());
            let (head, tail) = d.split_at_mut(n);
            head.copy_from_slice(&src[..n]);
            tail.fill(0);
        }
    }

    /// Zeroes `len` bytes at `off` (a block's padding).
    #[inline]
    pub fn zero(b: &mut [u8], off: usize, len: usize) {
        if let Some(d) = b.get_mut(off..off.saturating_add(len)) {
            d.fill(0);
        }
    }

    pub fn truncated(offset: usize, what: &'static str, needed: usize, len: usize) -> DecodeError {
        DecodeError {
            offset,
            kind: DecodeErrorKind::Truncated {
                what,
                needed,
                available: len.saturating_sub(offset),
            },
        }
    }

    /// Where `n` bytes at `start` end, if the buffer holds them.
    #[inline]
    pub fn span(buf: &[u8], start: usize, n: usize, what: &'static str) -> Result<usize, DecodeError> {
        match start.checked_add(n) {
            Some(end) if end <= buf.len() => Ok(end),
            _ => {
                cold();
                Err(truncated(start, what, n, buf.len()))
            }
        }
    }

    /// Checks that `n` bytes fit at `at` in a buffer of `len` bytes; returns the end.
    #[inline]
    pub fn room(len: usize, at: usize, n: usize) -> Result<usize, EncodeError> {
        match at.checked_add(n) {
            Some(end) if end <= len => Ok(end),
            _ => Err(EncodeError {
                offset: at,
                kind: EncodeErrorKind::BufferTooSmall {
                    needed: n,
                    available: len.saturating_sub(at),
                },
            }),
        }
    }

    /// Where a message's groups and var data start (`at[N - 1]`: where the message ends), found
    /// as they are read: `at[i]` is known for `i < known`; `at[0]`, the end of the root block,
    /// from the start.
    #[derive(Debug, Clone)]
    pub struct Marks<const N: usize> {
        known: core::cell::Cell<usize>,
        at: [core::cell::Cell<usize>; N],
    }

    impl<const N: usize> Marks<N> {
        #[inline(always)]
        pub fn new(first: usize) -> Self {
            Self { known: core::cell::Cell::new(1), at: core::array::from_fn(|_| core::cell::Cell::new(first)) }
        }

        /// Where element `i` starts, if found.
        #[inline(always)]
        pub fn get(&self, i: usize) -> Option<usize> {
            if i < self.known.get() {
                self.at.get(i).map(core::cell::Cell::get)
            } else {
                None
            }
        }

        /// The last element found: (index, start).
        #[inline(always)]
        pub fn last(&self) -> (usize, usize) {
            let j = self.known.get().saturating_sub(1);
            (j, self.at.get(j).map_or(0, core::cell::Cell::get))
        }

        /// Records that element `i` starts at `p` (when it is the next one to find).
        #[inline(always)]
        pub fn found(&self, i: usize, p: usize) {
            self.mark(i).found(p);
        }

        /// The place to record element `i`'s start, for a group iterator to fill when it ends.
        #[inline(always)]
        pub fn mark(&self, i: usize) -> Mark<'_> {
            Mark { known: &self.known, at: &self.at, i }
        }

        /// A copy, as plain values, for the out-of-line search (so that the decoder's own cells
        /// never have their address taken by a call, and can live in registers).
        #[inline(always)]
        pub fn load(&self) -> Found<N> {
            let mut at = [0; N];
            for (p, c) in at.iter_mut().zip(self.at.iter()) {
                *p = c.get();
            }
            Found { known: self.known.get(), at }
        }

        /// Keeps what the out-of-line search found.
        #[inline(always)]
        pub fn store(&self, f: &Found<N>) {
            self.known.set(f.known);
            for (c, &p) in self.at.iter().zip(f.at.iter()) {
                c.set(p);
            }
        }
    }

    /// [`Marks`] as plain values, for the out-of-line search.
    #[derive(Debug, Clone, Copy)]
    pub struct Found<const N: usize> {
        known: usize,
        at: [usize; N],
    }

    impl<const N: usize> Found<N> {
        /// Where element `i` starts, if found.
        #[inline(always)]
        pub fn get(&self, i: usize) -> Option<usize> {
            if i < self.known {
                self.at.get(i).copied()
            } else {
                None
            }
        }

        /// The last element found: (index, start).
        #[inline(always)]
        pub fn last(&self) -> (usize, usize) {
            let j = self.known.saturating_sub(1);
            (j, self.at.get(j).copied().unwrap_or(0))
        }

        /// Records that element `i` starts at `p` (when it is the next one to find).
        #[inline(always)]
        pub fn found(&mut self, i: usize, p: usize) {
            if i == self.known {
                if let Some(c) = self.at.get_mut(i) {
                    *c = p;
                    self.known = i + 1;
                }
            }
        }
    }

    /// Where a group iterator records the end of its group (the next element's start) in its
    /// message's [`Marks`].
    #[derive(Debug, Clone, Copy)]
    pub struct Mark<'s> {
        known: &'s core::cell::Cell<usize>,
        at: &'s [core::cell::Cell<usize>],
        i: usize,
    }

    impl Mark<'_> {
        #[inline(always)]
        pub fn found(&self, p: usize) {
            if self.i == self.known.get() {
                if let Some(c) = self.at.get(self.i) {
                    c.set(p);
                    self.known.set(self.i + 1);
                }
            }
        }
    }

    pub fn to_usize(v: u64) -> usize {
        usize::try_from(v).unwrap_or(usize::MAX)
    }

    pub fn to_version(v: u64) -> u16 {
        u16::try_from(v).unwrap_or(u16::MAX)
    }

    /// Text as `&str`: UTF-8 checked for UTF-8, plain ASCII for the one-byte encodings.
    pub fn text(bytes: &[u8], utf8: bool, offset: usize) -> Result<&str, DecodeError> {
        let invalid = DecodeError {
            offset,
            kind: DecodeErrorKind::InvalidText,
        };
        if !utf8 && !bytes.is_ascii() {
            return Err(invalid);
        }
        core::str::from_utf8(bytes).map_err(|_| invalid)
    }

    /// The bytes before the first NUL.
    pub fn until_nul(bytes: &[u8]) -> &[u8] {
        match bytes.iter().position(|&b| b == 0) {
            Some(n) => &bytes[..n],
            None => bytes,
        }
    }

    fn escaped(f: &mut fmt::Formatter<'_>, chars: impl Iterator<Item = char>) -> fmt::Result {
        f.write_char('"')?;
        for c in chars {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                '\u{8}' => f.write_str("\\b")?,
                '\u{c}' => f.write_str("\\f")?,
                c if u32::from(c) < 0x20 => write!(f, "\\u{:04x}", u32::from(c))?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }

    /// A JSON string of `s`.
    pub fn w_str(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
        escaped(f, s.chars())
    }

    /// Lowercase hex in quotes.
    pub fn w_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
        f.write_char('"')?;
        for b in bytes {
            write!(f, "{b:02x}")?;
        }
        f.write_char('"')
    }

    /// Text in a character encoding (UTF-8, else one character per byte); invalid UTF-8 as
    /// `{"hex":...}` of `all`.
    pub fn w_text(f: &mut fmt::Formatter<'_>, text: &[u8], all: &[u8], utf8: bool) -> fmt::Result {
        if utf8 {
            match core::str::from_utf8(text) {
                Ok(s) => w_str(f, s),
                Err(_) => {
                    f.write_str("{\"hex\":")?;
                    w_hex(f, all)?;
                    f.write_char('}')
                }
            }
        } else {
            escaped(f, text.iter().map(|&b| char::from(b)))
        }
    }

    /// A char array: the bytes up to the first NUL, as text.
    pub fn w_chars(f: &mut fmt::Formatter<'_>, bytes: &[u8], utf8: bool) -> fmt::Result {
        w_text(f, until_nul(bytes), bytes, utf8)
    }

    /// A stack buffer for number text.
    struct Digits {
        b: [u8; 48],
        n: usize,
    }

    impl fmt::Write for Digits {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let end = self.n + s.len();
            match self.b.get_mut(self.n..end) {
                Some(d) => {
                    d.copy_from_slice(s.as_bytes());
                    self.n = end;
                    Ok(())
                }
                None => Err(fmt::Error),
            }
        }
    }

    /// Lays out `{:e}` text (shortest digits) as Ryu does: plain decimal when the exponent lies
    /// in `lo..=hi`, else `d[.ddd]e[-]E`.
    fn layout(f: &mut fmt::Formatter<'_>, e_text: &[u8], lo: i32, hi: i32) -> fmt::Result {
        let (neg, t) = match e_text.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, e_text),
        };
        let e_at = t.iter().position(|&b| b == b'e').unwrap_or(t.len());
        let (mantissa, exp_text) = t.split_at(e_at);
        let mut exp: i32 = 0;
        let mut exp_neg = false;
        for &b in exp_text.iter().skip(1) {
            if b == b'-' {
                exp_neg = true;
            } else {
                exp = exp * 10 + i32::from(b - b'0');
            }
        }
        if exp_neg {
            exp = -exp;
        }
        let mut digits = [0u8; 40];
        let mut nd = 0;
        for &b in mantissa {
            if b != b'.' && nd < digits.len() {
                digits[nd] = b;
                nd += 1;
            }
        }
        let digits = &digits[..nd];
        if neg {
            f.write_char('-')?;
        }
        if exp < lo || exp > hi {
            let (first, rest) = digits.split_at(nd.min(1));
            f.write_str(s(first))?;
            if !rest.is_empty() {
                f.write_char('.')?;
                f.write_str(s(rest))?;
            }
            write!(f, "e{exp}")
        } else if exp >= 0 {
            let int_len = usize::try_from(exp).unwrap_or(0) + 1;
            if nd <= int_len {
                f.write_str(s(digits))?;
                for _ in nd..int_len {
                    f.write_char('0')?;
                }
                f.write_str(".0")
            } else {
                let (int, frac) = digits.split_at(int_len);
                f.write_str(s(int))?;
                f.write_char('.')?;
                f.write_str(s(frac))
            }
        } else {
            f.write_str("0.")?;
            for _ in 0..(-exp - 1) {
                f.write_char('0')?;
            }
            f.write_str(s(digits))
        }
    }

    /// A `double` as canonical JSON.
    pub fn w_f64(f: &mut fmt::Formatter<'_>, v: f64) -> fmt::Result {
        if v.is_nan() {
            return f.write_str("\"NaN\"");
        }
        if v.is_infinite() {
            return f.write_str(if v > 0.0 { "\"Infinity\"" } else { "\"-Infinity\"" });
        }
        let mut d = Digits { b: [0; 48], n: 0 };
        write!(d, "{v:e}")?;
        layout(f, &d.b[..d.n], -5, 15)
    }

    /// A `float` as canonical JSON.
    pub fn w_f32(f: &mut fmt::Formatter<'_>, v: f32) -> fmt::Result {
        if v.is_nan() {
            return f.write_str("\"NaN\"");
        }
        if v.is_infinite() {
            return f.write_str(if v > 0.0 { "\"Infinity\"" } else { "\"-Infinity\"" });
        }
        let mut d = Digits { b: [0; 48], n: 0 };
        write!(d, "{v:e}")?;
        layout(f, &d.b[..d.n], -6, 12)
    }

    fn s(d: &[u8]) -> &str {
        core::str::from_utf8(d).unwrap_or("")
    }

    /// A set's JSON array: the names of the bits set in choice order, then unnamed bits by number.
    pub fn w_set(f: &mut fmt::Formatter<'_>, bits: u64, choices: &[(&str, u32)]) -> fmt::Result {
        f.write_char('[')?;
        let mut first = true;
        let mut named = 0u64;
        for &(name, bit) in choices {
            named |= 1u64 << bit;
            if bits & (1u64 << bit) != 0 {
                if !first {
                    f.write_char(',')?;
                }
                first = false;
                w_str(f, name)?;
            }
        }
        for bit in 0..64u32 {
            if bits & !named & (1u64 << bit) != 0 {
                if !first {
                    f.write_char(',')?;
                }
                first = false;
                write!(f, "{bit}")?;
            }
        }
        f.write_char(']')
    }
}
"##;

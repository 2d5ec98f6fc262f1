// The codec support's byte reads and writes (codec_support.rs includes this file, inside
// `sbe_support`): reads that never panic, writes at checked places, text padded or refused,
// array elements and padding.

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
    if let Some(Ok(v)) = b
        .first_chunk::<FULL>()
        .and_then(|f| f.get(off..off + N))
        .map(<[u8; N]>::try_from)
    {
        return Some(v);
    }
    cold();
    get::<N>(b, off)
}

/// A reference to the `N` bytes at `off` of a block of `FULL` bytes, as [`at`].
#[inline(always)]
pub fn at_ref<const FULL: usize, const N: usize>(b: &[u8], off: usize) -> Option<&[u8; N]> {
    if let Some(Ok(v)) = b
        .first_chunk::<FULL>()
        .and_then(|f| f.get(off..off + N))
        .map(<&[u8; N]>::try_from)
    {
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

/// Copies `src` to `off`, zeroing the rest of `len` bytes; text longer than `len` is an
/// error (nothing written), never cut.
#[inline(always)]
pub fn put_padded(
    b: &mut [u8],
    off: usize,
    len: usize,
    src: &[u8],
    field: FieldPath,
) -> Result<(), EncodeError> {
    if src.len() > len {
        cold();
        return Err(EncodeError {
            offset: off,
            field,
            kind: EncodeErrorKind::TextTooLong {
                length: src.len(),
                max: len,
            },
        });
    }
    if let Some(d) = b.get_mut(off..off.saturating_add(len)) {
        let (head, tail) = d.split_at_mut(src.len());
        head.copy_from_slice(src);
        tail.fill(0);
    }
    Ok(())
}

/// Element `index` of an array of `length` elements of `N` bytes at `off`: where it lies,
/// or the error of an index out of range.
#[inline(always)]
pub fn element(
    off: usize,
    index: usize,
    length: usize,
    n: usize,
    field: FieldPath,
) -> Result<usize, EncodeError> {
    if index < length {
        Ok(off + index * n)
    } else {
        cold();
        Err(EncodeError {
            offset: off,
            field,
            kind: EncodeErrorKind::IndexOutOfRange { index, length },
        })
    }
}

/// Zeroes `len` bytes at `off` (a block's padding).
#[inline]
pub fn zero(b: &mut [u8], off: usize, len: usize) {
    if let Some(d) = b.get_mut(off..off.saturating_add(len)) {
        d.fill(0);
    }
}

/// A count, length or block length read from the wire, as `usize` (saturating).
pub fn to_usize(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

/// A version read from the wire, as `u16` (saturating).
pub fn to_version(v: u64) -> u16 {
    u16::try_from(v).unwrap_or(u16::MAX)
}

// The codec support's checks and the errors they make (codec_support.rs includes this file,
// inside `sbe_support`): room in a buffer, entries and items that fit, each error built in a
// `#[cold]` function.

/// The error of a value outside the field's declared range.
#[cold]
pub fn out_of_range(offset: usize, field: FieldPath) -> EncodeError {
    EncodeError {
        offset,
        field,
        kind: EncodeErrorKind::ValueOutOfRange,
    }
}

/// `e`, an error of a composite encoder over the composite's own bytes, with its offset
/// from the start of the buffer (the composite's at `at`).
#[cold]
pub fn moved(e: EncodeError, at: usize) -> EncodeError {
    EncodeError {
        offset: e.offset + at,
        ..e
    }
}

/// The error of a group already holding `max` entries.
#[cold]
pub fn count_too_large(offset: usize, field: FieldPath, max: u64) -> EncodeError {
    EncodeError {
        offset,
        field,
        kind: EncodeErrorKind::CountTooLarge(max),
    }
}

/// The error of var data of `length` bytes, longer than `max`.
#[cold]
pub fn length_too_large(
    offset: usize,
    field: FieldPath,
    length: usize,
    max: u64,
) -> EncodeError {
    EncodeError {
        offset,
        field,
        kind: EncodeErrorKind::LengthTooLarge { length, max },
    }
}

/// The error of an item of `needed` bytes at `offset` that a buffer of `len` bytes does not
/// hold whole.
#[cold]
pub fn truncated(offset: usize, field: FieldPath, needed: usize, len: usize) -> DecodeError {
    DecodeError {
        offset,
        field,
        kind: DecodeErrorKind::Truncated {
            needed,
            available: len.saturating_sub(offset),
        },
    }
}

/// The error of a header member (`field`, at `offset`): the template id or schema id.
#[cold]
pub fn header_error(offset: usize, field: &'static str, kind: DecodeErrorKind) -> DecodeError {
    DecodeError {
        offset,
        field: FieldPath::new(field),
        kind,
    }
}

/// The error of a block length (at `offset`, of `field`) shorter than the `needed` bytes.
#[cold]
pub fn block_too_short(
    offset: usize,
    field: FieldPath,
    block_length: usize,
    needed: usize,
) -> DecodeError {
    DecodeError {
        offset,
        field,
        kind: DecodeErrorKind::BlockLengthTooShort {
            block_length,
            needed,
        },
    }
}

/// `e`, an error inside entry `index` of a group at nesting `depth`, with that index.
#[cold]
pub fn in_entry(e: DecodeError, depth: usize, index: usize) -> DecodeError {
    DecodeError {
        field: e.field.with_index(depth, index),
        ..e
    }
}

/// The error of a group whose `count` entries of `block_length` bytes from `start` do not
/// fit: at the first entry that does not (a group at nesting `depth`, entries `field`).
#[cold]
pub fn entries_truncated(
    start: usize,
    block_length: usize,
    len: usize,
    field: FieldPath,
    depth: usize,
) -> DecodeError {
    let whole = len
        .saturating_sub(start)
        .checked_div(block_length)
        .unwrap_or(0);
    let at = start.saturating_add(whole.saturating_mul(block_length));
    truncated(at, field.with_index(depth, whole), block_length, len)
}

/// Where `count` entries of `block_length` bytes from `start` end, if the buffer holds them;
/// else the error of the first entry that does not fit (`field()`, made only then: the
/// entries of a group at nesting `depth`).
#[inline(always)]
pub fn entries_end(
    buf: &[u8],
    start: usize,
    block_length: usize,
    count: usize,
    field: impl FnOnce() -> FieldPath,
    depth: usize,
) -> Result<usize, DecodeError> {
    match start.checked_add(block_length.saturating_mul(count)) {
        Some(end) if end <= buf.len() => Ok(end),
        _ => {
            cold();
            Err(entries_truncated(
                start,
                block_length,
                buf.len(),
                field(),
                depth,
            ))
        }
    }
}

/// Where `n` bytes at `start` end, if the buffer holds them; else the error of the item
/// (`field()`, made only then) starting there.
#[inline]
pub fn span(
    buf: &[u8],
    start: usize,
    n: usize,
    field: impl FnOnce() -> FieldPath,
) -> Result<usize, DecodeError> {
    match start.checked_add(n) {
        Some(end) if end <= buf.len() => Ok(end),
        _ => {
            cold();
            Err(truncated(start, field(), n, buf.len()))
        }
    }
}

/// Checks that `n` bytes fit at `at` in a buffer of `len` bytes; returns the end. The error
/// names `field()` (made only then).
#[inline(always)]
pub fn room(
    len: usize,
    at: usize,
    n: usize,
    field: impl FnOnce() -> FieldPath,
) -> Result<usize, EncodeError> {
    match at.checked_add(n) {
        Some(end) if end <= len => Ok(end),
        _ => {
            cold();
            Err(EncodeError {
                offset: at,
                field: field(),
                kind: EncodeErrorKind::BufferTooShort {
                    needed: n,
                    available: len.saturating_sub(at),
                },
            })
        }
    }
}

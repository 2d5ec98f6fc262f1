// The items every generated Rust module carries, copied into it as they are here (the module
// depends on nothing): the error types and the private `sbe_support` module (byte reads and
// writes that never panic, the checks, the canonical JSON value writers). The generator writes
// `PATH_DEPTH` (the deepest nesting of groups in the schema, at least 1) and `MEMBER_DEPTH` (of
// composites) before it.
// Compiled and tested on its own by sable-codegen's tests/rust_support.rs.

/// Where in a message something lies, as the codec contract writes it (docs/codecs.md): schema
/// names from `header` or `fields`, `.` between them and each group entry's index in brackets,
/// e.g. `fields.performanceFigures[0].acceleration[2]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldPath {
    /// The path with each entry index left out (`fields.performanceFigures[].acceleration[]`).
    template: &'static str,
    /// The composite members after the path, outermost first (an encoder's error in a
    /// composite: `engine` then `booster` then `horsePower`), the rest empty.
    members: [&'static str; MEMBER_DEPTH],
    /// The entries' indices, outermost first, filling the template's `[]` in order
    /// (`usize::MAX`: not known, printed `[]`).
    indices: [usize; PATH_DEPTH],
}

impl FieldPath {
    /// A path whose entry indices are not known yet.
    #[must_use]
    pub const fn new(template: &'static str) -> Self {
        Self {
            template,
            members: [""; MEMBER_DEPTH],
            indices: [usize::MAX; PATH_DEPTH],
        }
    }

    /// The path with the entry indices left out (`[]`), and without the members.
    #[must_use]
    pub const fn template(&self) -> &'static str {
        self.template
    }

    /// The index of the entry at nesting `depth` (0: a group of the message), if known.
    #[must_use]
    pub fn index(&self, depth: usize) -> Option<usize> {
        self.indices
            .get(depth)
            .copied()
            .filter(|&i| i != usize::MAX)
    }

    /// The path with the entry at nesting `depth` set to `index`.
    #[must_use]
    pub fn with_index(mut self, depth: usize, index: usize) -> Self {
        if let Some(slot) = self.indices.get_mut(depth) {
            *slot = index;
        }
        self
    }

    /// The path with all its entry indices (outermost first).
    #[must_use]
    pub const fn with_indices(mut self, indices: [usize; PATH_DEPTH]) -> Self {
        self.indices = indices;
        self
    }

    /// The path of member `name` of the composite at this path (a composite in a composite
    /// adds its members after its own name).
    #[must_use]
    pub const fn member(mut self, name: &'static str) -> Self {
        let mut i = 0;
        while i < MEMBER_DEPTH {
            if self.members[i].is_empty() {
                self.members[i] = name;
                break;
            }
            i += 1;
        }
        self
    }
}

impl core::fmt::Display for FieldPath {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut depth = 0;
        for (i, piece) in self.template.split("[]").enumerate() {
            if i > 0 {
                match self.index(depth) {
                    Some(index) => write!(f, "[{index}]")?,
                    None => f.write_str("[]")?,
                }
                depth += 1;
            }
            f.write_str(piece)?;
        }
        for member in self.members.iter().take_while(|m| !m.is_empty()) {
            write!(f, ".{member}")?;
        }
        Ok(())
    }
}

/// Why a message could not be decoded, and where (docs/codecs.md, "Errors").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeError {
    /// The byte offset, from the first byte of the message (its header; after `decode_body`,
    /// its body): the first byte of the item that could not be read, or of the header member at
    /// fault.
    pub offset: usize,
    /// The item at fault: `header`, `header.schemaId`, `fields`, `fields.G`, `fields.G[i]`,
    /// `fields.V` ...
    pub field: FieldPath,
    /// What went wrong.
    pub kind: DecodeErrorKind,
}

/// What went wrong while decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The item does not fit whole in the buffer: `needed` bytes from the offset, `available`
    /// left.
    Truncated {
        /// The bytes the item needs.
        needed: usize,
        /// The bytes the buffer has from the offset on.
        available: usize,
    },
    /// The header's schema id is not the schema's.
    SchemaIdMismatch(u64),
    /// The header's template id is not the message's (or, for `decode_any`, no message's).
    UnknownTemplate(u64),
    /// A block length is shorter than the fields of a writer at the schema's version need.
    BlockLengthTooShort {
        /// The block length read.
        block_length: usize,
        /// The bytes the fields need.
        needed: usize,
    },
    /// Text that is not valid in its character encoding (as `&str`: UTF-8, or ASCII for the
    /// one-byte encodings); only from the `_str` accessors, never from decoding.
    InvalidText,
}

impl DecodeErrorKind {
    /// The kind's name in the codec contract (`truncated`, `schemaIdMismatch`,
    /// `unknownTemplate`, `blockLengthTooShort`; `invalidText`).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Truncated { .. } => "truncated",
            Self::SchemaIdMismatch(_) => "schemaIdMismatch",
            Self::UnknownTemplate(_) => "unknownTemplate",
            Self::BlockLengthTooShort { .. } => "blockLengthTooShort",
            Self::InvalidText => "invalidText",
        }
    }
}

impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} at byte {}: ", self.field, self.offset)?;
        match self.kind {
            DecodeErrorKind::Truncated { needed, available } => {
                write!(f, "needs {needed} bytes, the buffer has {available} left")
            }
            DecodeErrorKind::SchemaIdMismatch(id) => {
                write!(f, "schema id {id} is not the schema's")
            }
            DecodeErrorKind::UnknownTemplate(id) => write!(f, "unknown template id {id}"),
            DecodeErrorKind::BlockLengthTooShort {
                block_length,
                needed,
            } => write!(
                f,
                "block length {block_length} is less than the {needed} bytes its fields take"
            ),
            DecodeErrorKind::InvalidText => f.write_str("text not valid in its character encoding"),
        }
    }
}

impl core::error::Error for DecodeError {}

impl DecodeError {
    /// The error as the codec contract's JSON object:
    /// `{"error":{"offset":N,"field":"...","kind":"...","message":"..."}}` (what the codec
    /// driver prints for a message that does not decode).
    #[must_use]
    pub fn json(&self) -> impl core::fmt::Display + '_ {
        ErrorJson(self)
    }
}

/// [`DecodeError::json`]'s text.
struct ErrorJson<'e>(&'e DecodeError);

impl core::fmt::Display for ErrorJson<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use core::fmt::Write as _;
        let e = self.0;
        write!(f, "{{\"error\":{{\"offset\":{},\"field\":\"", e.offset)?;
        write!(sbe_support::Escaped(f), "{}", e.field)?;
        write!(f, "\",\"kind\":\"{}\",\"message\":\"", e.kind.name())?;
        write!(sbe_support::Escaped(f), "{e}")?;
        f.write_str("\"}}")
    }
}

/// Why a value could not be encoded, and where (`offset` from the start of the buffer given to
/// the encoder). Nothing is written by a call that fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeError {
    /// Where the write was to start.
    pub offset: usize,
    /// The field, group or var data written.
    pub field: FieldPath,
    /// What went wrong.
    pub kind: EncodeErrorKind,
}

/// What went wrong while encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The buffer is too short: `needed` bytes from the offset, `available` left.
    BufferTooShort {
        /// The bytes the write needs.
        needed: usize,
        /// The bytes the buffer has from the offset on.
        available: usize,
    },
    /// Text longer than its char array.
    TextTooLong {
        /// The length given.
        length: usize,
        /// The array's length.
        max: usize,
    },
    /// An array index outside `0..length`.
    IndexOutOfRange {
        /// The index given.
        index: usize,
        /// The array's length.
        length: usize,
    },
    /// A value outside the field's declared `minValue`..=`maxValue`.
    ValueOutOfRange,
    /// A group already holds the most entries its `numInGroup` allows (its type's maximum, or
    /// its declared `maxValue`).
    CountTooLarge(u64),
    /// Var data longer than its length type allows (its maximum, or its declared `maxValue`).
    LengthTooLarge {
        /// The length given.
        length: usize,
        /// The largest allowed.
        max: u64,
    },
}

impl EncodeErrorKind {
    /// The kind's name in the codec contract (`bufferTooShort`, `textTooLong`,
    /// `indexOutOfRange`, `valueOutOfRange`, `countTooLarge`, `lengthTooLarge`).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::BufferTooShort { .. } => "bufferTooShort",
            Self::TextTooLong { .. } => "textTooLong",
            Self::IndexOutOfRange { .. } => "indexOutOfRange",
            Self::ValueOutOfRange => "valueOutOfRange",
            Self::CountTooLarge(_) => "countTooLarge",
            Self::LengthTooLarge { .. } => "lengthTooLarge",
        }
    }
}

impl core::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} at byte {}: ", self.field, self.offset)?;
        match self.kind {
            EncodeErrorKind::BufferTooShort { needed, available } => {
                write!(f, "{needed} bytes needed, {available} left in the buffer")
            }
            EncodeErrorKind::TextTooLong { length, max } => {
                write!(f, "text of {length} bytes is longer than its {max}")
            }
            EncodeErrorKind::IndexOutOfRange { index, length } => {
                write!(f, "index {index} is outside the array's {length} elements")
            }
            EncodeErrorKind::ValueOutOfRange => {
                f.write_str("value outside the field's minValue..maxValue")
            }
            EncodeErrorKind::CountTooLarge(max) => write!(f, "a group holds at most {max} entries"),
            EncodeErrorKind::LengthTooLarge { length, max } => {
                write!(f, "var data of {length} bytes is longer than {max}")
            }
        }
    }
}

impl core::error::Error for EncodeError {}

#[allow(dead_code)]
mod sbe_support {
    use core::fmt::{self, Write as _};

    use super::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, FieldPath};

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

    /// Zeroes `len` bytes at `off` (a block's padding).
    #[inline]
    pub fn zero(b: &mut [u8], off: usize, len: usize) {
        if let Some(d) = b.get_mut(off..off.saturating_add(len)) {
            d.fill(0);
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
            Self {
                known: core::cell::Cell::new(1),
                at: core::array::from_fn(|_| core::cell::Cell::new(first)),
            }
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
            Mark {
                known: &self.known,
                at: &self.at,
                i,
            }
        }

        /// A copy, as plain values, for the out-of-line search (so that the decoder's own cells
        /// never have their address taken by a call, and can live in registers).
        #[inline(always)]
        pub fn load(&self) -> Found<N> {
            let mut at = [0; N];
            for (p, c) in at.iter_mut().zip(self.at.iter()) {
                *p = c.get();
            }
            Found {
                known: self.known.get(),
                at,
            }
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
    pub fn text(
        bytes: &[u8],
        utf8: bool,
        offset: usize,
        field: FieldPath,
    ) -> Result<&str, DecodeError> {
        let invalid = DecodeError {
            offset,
            field,
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

    /// A writer of JSON string content: what is written to it goes to the formatter escaped.
    pub struct Escaped<'f, 'g>(pub &'f mut fmt::Formatter<'g>);

    impl fmt::Write for Escaped<'_, '_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            for c in s.chars() {
                escape(self.0, c)?;
            }
            Ok(())
        }
    }

    /// One character of a JSON string, escaped as the canonical JSON does.
    fn escape(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
        match c {
            '"' => f.write_str("\\\""),
            '\\' => f.write_str("\\\\"),
            '\n' => f.write_str("\\n"),
            '\r' => f.write_str("\\r"),
            '\t' => f.write_str("\\t"),
            '\u{8}' => f.write_str("\\b"),
            '\u{c}' => f.write_str("\\f"),
            c if u32::from(c) < 0x20 => write!(f, "\\u{:04x}", u32::from(c)),
            c => f.write_char(c),
        }
    }

    fn escaped(f: &mut fmt::Formatter<'_>, chars: impl Iterator<Item = char>) -> fmt::Result {
        f.write_char('"')?;
        for c in chars {
            escape(f, c)?;
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
            return f.write_str(if v > 0.0 {
                "\"Infinity\""
            } else {
                "\"-Infinity\""
            });
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
            return f.write_str(if v > 0.0 {
                "\"Infinity\""
            } else {
                "\"-Infinity\""
            });
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

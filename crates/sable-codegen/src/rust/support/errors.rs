// The codec support's error types (codec_support.rs includes this file): where in a message
// something lies (`FieldPath`), why a message could not be decoded (`DecodeError`) or a value
// encoded (`EncodeError`), each with the contract's kind names (docs/codecs.md, "Errors").

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

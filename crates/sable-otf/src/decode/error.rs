//! What goes wrong: an IR the decoder cannot use, and a message that does not decode (with the
//! contract's offset, field path and kind).

use std::fmt;

/// An IR the decoder cannot work from (a malformed token list, a header without `templateId`...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl Error {
    pub(crate) fn new(message: impl Into<String>) -> Error {
        Error(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// What went wrong in a [`DecodeError`] (the kinds of docs/codecs.md, "Errors").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DecodeErrorKind {
    /// An item of the message (its header, a block, a group's dimensions, an entry's block, a
    /// var data with its length) does not fit whole in the buffer: the buffer ends inside it or
    /// before it. A lying group count or var-data length is one of these too.
    Truncated,
    /// The header's template id names no message of the schema.
    UnknownTemplateId,
    /// The header's schema id is not the schema's.
    SchemaIdMismatch,
    /// A message's or group's block length, from a writer at the schema's version or newer, is
    /// smaller than the fields present at that version need.
    BlockLengthTooShort,
    /// A group whose entries take no bytes at all claims more than 65535 of them (a bound, so
    /// that a few bytes cannot make the decoder report billions of empty entries).
    GroupCountTooLarge,
}

impl DecodeErrorKind {
    /// The kind's name in error reports (`"truncated"`, `"schemaIdMismatch"`...), as every
    /// language's codecs and the conformance vectors spell it.
    pub fn name(self) -> &'static str {
        match self {
            DecodeErrorKind::Truncated => "truncated",
            DecodeErrorKind::UnknownTemplateId => "unknownTemplate",
            DecodeErrorKind::SchemaIdMismatch => "schemaIdMismatch",
            DecodeErrorKind::BlockLengthTooShort => "blockLengthTooShort",
            DecodeErrorKind::GroupCountTooLarge => "countTooLarge",
        }
    }
}

/// A message that cannot be decoded: where (the byte offset from the start of the buffer given
/// to the decoder, that is from the message header's first byte), which item (its field path,
/// such as `fields.fuelFigures[1]`), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    offset: usize,
    kind: DecodeErrorKind,
    field: String,
    message: String,
    /// For a truncated message: the fewest bytes it takes, by what was read of it.
    needs: usize,
}

impl DecodeError {
    pub(crate) fn new(
        offset: usize,
        kind: DecodeErrorKind,
        field: &str,
        message: String,
    ) -> DecodeError {
        DecodeError {
            offset,
            kind,
            field: field.to_owned(),
            message,
            needs: 0,
        }
    }

    /// A truncated message that takes at least `needs` bytes.
    #[cold]
    #[inline(never)]
    pub(crate) fn needing(mut self, needs: usize) -> DecodeError {
        if self.kind == DecodeErrorKind::Truncated {
            self.needs = self.needs.max(needs);
        }
        self
    }

    /// The item at `offset` (`what`, of `needed` bytes) runs past the end of a buffer of `len`
    /// bytes. `field` is its path from the enclosing block (empty for the block itself).
    pub(crate) fn truncated(
        offset: usize,
        what: &str,
        field: &str,
        needed: usize,
        len: usize,
    ) -> DecodeError {
        DecodeError::new(
            offset,
            DecodeErrorKind::Truncated,
            field,
            format!(
                "truncated message: {what} at offset {offset} needs {needed} bytes, {} left",
                len.saturating_sub(offset)
            ),
        )
        .needing(offset.saturating_add(needed))
    }

    /// The error of entry `index` of group `group`, whose own path was relative to the entry.
    #[cold]
    #[inline(never)]
    pub(crate) fn in_entry(mut self, group: &str, index: u64) -> DecodeError {
        let entry = format!("{group}[{index}]");
        self.field = join(&entry, &self.field);
        self
    }

    /// The error of the message's root block, whose own path was relative to it.
    #[cold]
    #[inline(never)]
    pub(crate) fn in_root(mut self) -> DecodeError {
        self.field = join("fields", &self.field);
        self
    }

    /// The byte offset of the problem, from the start of the buffer given to the decoder.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The kind of problem.
    pub fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The path of the item at fault: `header`, `header.schemaId`, `fields` (the root block),
    /// `fields.G` (a group's dimensions), `fields.G[i]` (an entry's block), `fields.V`, nested as
    /// `fields.G[i].H[j]`.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// A sentence saying what is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// For a truncated message, the fewest bytes the message takes by what was read of it
    /// before the buffer ran out: its header and blocks, a group's count times the least an
    /// entry takes, a var data's length. A reader of a stream waits for at least this many
    /// bytes; one that is larger than any message should be is a lying count or length, found
    /// out without waiting for the bytes. `None` for the other kinds.
    pub fn needs(&self) -> Option<usize> {
        (self.kind == DecodeErrorKind::Truncated).then_some(self.needs)
    }
}

/// `outer.inner`, or `outer` alone when `inner` is empty.
fn join(outer: &str, inner: &str) -> String {
    if inner.is_empty() {
        outer.to_owned()
    } else {
        format!("{outer}.{inner}")
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at byte {} ({}): {}",
            self.offset, self.field, self.message
        )
    }
}

impl std::error::Error for DecodeError {}

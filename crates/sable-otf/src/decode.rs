//! The IR-driven decoder: walks an encoded message by a plan compiled from the IR and reports what
//! it finds to a [`Visitor`].
//!
//! [`Decoder::new`] compiles, once per schema, a compact plan of every message (absolute offsets,
//! primitive types, null values, enum and set tables, group and var-data layouts), so decoding a
//! message never looks at the token list. [`Decoder::decode`] then reads one message starting at
//! its message header; [`Decoder::message_length`] sizes one without visiting its fields.
//!
//! Decoding honours the acting version and block length in the header (and each group's block
//! length): elements newer than the acting version are reported as [`Value::Absent`] (or
//! [`Visitor::absent_group`]), longer blocks written by a newer writer are skipped. A writer at
//! the schema's version or newer must write blocks holding every field the schema knows (else
//! [`DecodeErrorKind::BlockLengthTooShort`]); from an older writer, a field that lies beyond the
//! block it wrote is absent too, even without a `sinceVersion` saying so (schemas that added
//! fields without marking them, such as the shared `versioned-message-v2.xml`). Every read is
//! bounds checked; a malformed message gives a [`DecodeError`] with the contract's offset, field
//! path and kind (docs/codecs.md, "Errors": the first item, in reading order, that does not
//! fit), never a panic. A group count or var-data length larger than the bytes left is found
//! at the first entry, or the var data, that does not fit.

use std::fmt;

use sable_ir::{ByteOrder, Ir, Presence, PrimitiveType, PrimitiveValue, Signal, Token};

use crate::readable::Readable;

/// An IR the decoder cannot work from (a malformed token list, a header without `templateId`...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl Error {
    fn new(message: impl Into<String>) -> Error {
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
    fn new(offset: usize, kind: DecodeErrorKind, field: &str, message: String) -> DecodeError {
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
    fn truncated(offset: usize, what: &str, field: &str, needed: usize, len: usize) -> DecodeError {
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

pub use crate::write::Charset;

impl Charset {
    fn of(name: Option<&str>) -> Charset {
        match name {
            Some(n) if n.eq_ignore_ascii_case("UTF-8") || n.eq_ignore_ascii_case("UTF8") => {
                Charset::Utf8
            }
            _ => Charset::Latin1,
        }
    }
}

/// An integer, signed or not, as found on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Number {
    /// From a signed type or a `char`.
    Int(i64),
    /// From an unsigned type.
    UInt(u64),
}

/// A fixed array of numbers (not `char`, `int8` or `uint8`) as found on the wire.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Array<'a> {
    bytes: &'a [u8],
    primitive_type: PrimitiveType,
    big_endian: bool,
}

impl<'a> Array<'a> {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.bytes.len() / self.primitive_type.size()
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements' primitive type.
    pub fn primitive_type(&self) -> PrimitiveType {
        self.primitive_type
    }

    /// The raw bytes of the array.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Element `index` ([`Value::Int`], [`Value::UInt`], [`Value::F32`] or [`Value::F64`]), or
    /// `None` past the end.
    pub fn get(&self, index: usize) -> Option<Value<'a>> {
        let size = self.primitive_type.size();
        let raw = read_raw(self.bytes, index.checked_mul(size)?, size, self.big_endian)?;
        Some(scalar(self.primitive_type, raw))
    }

    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = Value<'a>> + '_ {
        (0..self.len()).filter_map(move |i| self.get(i))
    }
}

/// One choice of a set: its bit number and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    bit: u32,
    name: Box<str>,
    pub(crate) json: Box<[u8]>,
}

impl Choice {
    /// The bit number (0 is the least significant bit).
    pub fn bit(&self) -> u32 {
        self.bit
    }

    /// The choice's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// A decoded value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// An optional field holding its null value.
    Null,
    /// A field, composite member or var data newer than the message's acting version.
    Absent,
    /// A signed integer (`int8`..`int64`).
    Int(i64),
    /// An unsigned integer (`uint8`..`uint64`).
    UInt(u64),
    /// A `float`.
    F32(f32),
    /// A `double`.
    F64(f64),
    /// A `char` or `char` array: every byte of it, padding included; or var data with a
    /// character encoding (every byte).
    Text {
        /// The bytes.
        bytes: &'a [u8],
        /// How to read them.
        charset: Charset,
    },
    /// An `int8` or `uint8` array, or var data without a character encoding.
    Bytes(&'a [u8]),
    /// Another fixed array.
    Array(Array<'a>),
    /// An enum value: its valid value's name, or `None` when it has none.
    Enum {
        /// The name of the valid value.
        name: Option<&'a str>,
        /// The raw value (a `char` enum's as its character code).
        raw: Number,
    },
    /// A set: the raw bits and the set's choices.
    Set {
        /// The raw value.
        bits: u64,
        /// Every choice of the set, in schema order.
        choices: &'a [Choice],
    },
}

/// Facts about a field, composite member, group or var data, as the visitor sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldInfo {
    name: Box<str>,
    id: i32,
    since_version: i32,
    constant: bool,
    semantic_type: Option<Box<str>>,
    /// `"name":`, JSON escaped.
    pub(crate) json_key: Box<[u8]>,
    /// The same in a fixed chunk (copied whole, then cut), when it fits.
    pub(crate) json_key_chunk: Option<[u8; 32]>,
    /// What it reads as beside its raw value (a decimal, a timestamp, a date).
    pub(crate) readable: Readable,
}

impl FieldInfo {
    fn new(token: &Token, constant: bool) -> FieldInfo {
        let mut json_key = Vec::new();
        crate::write::write_json_str(&mut json_key, token.name.as_bytes(), Charset::Utf8);
        json_key.push(b':');
        FieldInfo {
            name: token.name.as_str().into(),
            id: token.id,
            since_version: token.version,
            constant,
            semantic_type: token.encoding.semantic_type.as_deref().map(Into::into),
            json_key_chunk: (json_key.len() <= 32).then(|| {
                let mut chunk = [0u8; 32];
                chunk[..json_key.len()].copy_from_slice(&json_key);
                chunk
            }),
            json_key: json_key.into(),
            readable: Readable::Raw,
        }
    }

    /// The name in the schema.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The schema id (-1 for composite members).
    pub fn id(&self) -> i32 {
        self.id
    }

    /// The version it appeared in (`sinceVersion`).
    pub fn since_version(&self) -> i32 {
        self.since_version
    }

    /// Whether it is a constant (its value comes from the schema, not the wire).
    pub fn is_constant(&self) -> bool {
        self.constant
    }

    /// The semantic type, if declared.
    pub fn semantic_type(&self) -> Option<&str> {
        self.semantic_type.as_deref()
    }
}

/// Facts about a message, as the visitor sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageInfo {
    name: Box<str>,
    template_id: u64,
    since_version: i32,
    /// `{"message":"Name","header":{`
    pub(crate) json_prefix: Box<[u8]>,
    /// The same in a fixed chunk (copied whole, then cut), when it fits.
    pub(crate) json_prefix_chunk: Option<[u8; 48]>,
}

impl MessageInfo {
    /// The message's name in the schema.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its template id.
    pub fn template_id(&self) -> u64 {
        self.template_id
    }

    /// The version it appeared in.
    pub fn since_version(&self) -> i32 {
        self.since_version
    }
}

/// The message header's standard fields, as found on the wire. (Every field of the header
/// composite is also reported to [`Visitor::field`] between [`Visitor::begin_message`] and
/// [`Visitor::end_header`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Header {
    /// The root block's length.
    pub block_length: u64,
    /// The template id.
    pub template_id: u64,
    /// The schema id, when the header has one.
    pub schema_id: Option<u64>,
    /// The acting version, when the header has one (else 0).
    pub version: u64,
}

/// A group's dimensions, as found on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GroupHeader {
    /// The number of entries.
    pub count: u64,
    /// Each entry's block length.
    pub block_length: u64,
}

/// What the decoder reports, in wire order. Every method does nothing by default.
///
/// A message is: [`begin_message`](Visitor::begin_message), a [`field`](Visitor::field) per
/// header field, [`end_header`](Visitor::end_header), then its fields (composites between
/// [`begin_composite`](Visitor::begin_composite) and
/// [`end_composite`](Visitor::end_composite)), groups (entries between
/// [`begin_entry`](Visitor::begin_entry) and [`end_entry`](Visitor::end_entry)) and var data in
/// schema order, then [`end_message`](Visitor::end_message). When decoding fails, no more calls
/// are made (and `end_message` is not called).
#[allow(unused_variables)]
pub trait Visitor {
    /// A message starts; its header's fields follow.
    fn begin_message(&mut self, message: &MessageInfo, header: &Header) {}
    /// The header's fields are done; the message's fields follow.
    fn end_header(&mut self) {}
    /// A field or composite member holding a value (a constant's value, [`Value::Null`],
    /// [`Value::Absent`] for an element newer than the acting version, composites included).
    fn field(&mut self, field: &FieldInfo, value: Value<'_>) {}
    /// A composite field or member starts; its members follow.
    fn begin_composite(&mut self, field: &FieldInfo) {}
    /// A composite ends.
    fn end_composite(&mut self, field: &FieldInfo) {}
    /// A group starts.
    fn begin_group(&mut self, group: &FieldInfo, header: GroupHeader) {}
    /// Entry `index` of a group starts.
    fn begin_entry(&mut self, group: &FieldInfo, index: u64) {}
    /// Entry `index` of a group ends.
    fn end_entry(&mut self, group: &FieldInfo, index: u64) {}
    /// A group ends.
    fn end_group(&mut self, group: &FieldInfo) {}
    /// A group newer than the acting version (absent from the wire).
    fn absent_group(&mut self, group: &FieldInfo) {}
    /// Var data: [`Value::Text`], [`Value::Bytes`] or [`Value::Absent`].
    fn var_data(&mut self, data: &FieldInfo, value: Value<'_>) {}
    /// The message ends.
    fn end_message(&mut self, message: &MessageInfo) {}
    /// The bytes of a block whose fields come next: the message header's (after
    /// `begin_message`), the root block's (after `end_header`), each group entry's (after
    /// `begin_entry`). `bytes` holds every field present at the `acting` version that lies
    /// within the block (a field newer than `acting`, or past the end of an older writer's
    /// shorter block, is absent). A visitor that reads the fields itself, by their offsets in
    /// the [`layouts`](Decoder::layouts), returns `true`: the block's `field`,
    /// `begin_composite` and `end_composite` calls are then not made. By default it returns
    /// `false`.
    fn block(&mut self, bytes: &[u8], acting: i64) -> bool {
        false
    }
    /// Every entry of a group whose entries hold fields alone (no groups, no var data), after
    /// `begin_group`: `count` blocks of `block_length` bytes back to back in `bytes`, each as
    /// [`block`](Visitor::block) would be given it. A visitor that reads them itself returns
    /// `true`: `begin_entry`, the entries' fields and `end_entry` are then not reported
    /// (`end_group` is). By default it returns `false`. Not called when the entries run past
    /// the end of the message (they are then reported one by one, up to the error).
    fn entries(
        &mut self,
        group: &FieldInfo,
        bytes: &[u8],
        count: u64,
        block_length: usize,
        acting: i64,
    ) -> bool {
        false
    }
}

/// How the decoder reports a block's fields: one by one to the [`Visitor`] by default; a
/// printer of the crate may walk the plan itself (the JSON printer does, writing each field in
/// one step), as long as it reports what the visitor calls would.
pub(crate) trait Walk: Visitor + Sized {
    /// Reports `fields` of a block (`block` its bytes, long enough for every field present at
    /// `acting`).
    #[inline(always)]
    fn fields<const BIG: bool>(&mut self, fields: &[Node], block: &[u8], acting: i64) {
        for n in fields {
            visit_node::<BIG, Self>(n, block, acting, self);
        }
    }
}

impl Walk for () {}

/// Any visitor, walked field by field.
struct Plain<'v, V>(&'v mut V);

impl<V: Visitor> Walk for Plain<'_, V> {
    #[inline(always)]
    fn fields<const BIG: bool>(&mut self, fields: &[Node], block: &[u8], acting: i64) {
        if self.0.block(block, acting) {
            return;
        }
        for n in fields {
            visit_node::<BIG, Self>(n, block, acting, self);
        }
    }
}

impl<V: Visitor> Visitor for Plain<'_, V> {
    #[inline(always)]
    fn begin_message(&mut self, message: &MessageInfo, header: &Header) {
        self.0.begin_message(message, header)
    }
    #[inline(always)]
    fn end_header(&mut self) {
        self.0.end_header()
    }
    #[inline(always)]
    fn field(&mut self, field: &FieldInfo, value: Value<'_>) {
        self.0.field(field, value)
    }
    #[inline(always)]
    fn begin_composite(&mut self, field: &FieldInfo) {
        self.0.begin_composite(field)
    }
    #[inline(always)]
    fn end_composite(&mut self, field: &FieldInfo) {
        self.0.end_composite(field)
    }
    #[inline(always)]
    fn begin_group(&mut self, group: &FieldInfo, header: GroupHeader) {
        self.0.begin_group(group, header)
    }
    #[inline(always)]
    fn begin_entry(&mut self, group: &FieldInfo, index: u64) {
        self.0.begin_entry(group, index)
    }
    #[inline(always)]
    fn end_entry(&mut self, group: &FieldInfo, index: u64) {
        self.0.end_entry(group, index)
    }
    #[inline(always)]
    fn end_group(&mut self, group: &FieldInfo) {
        self.0.end_group(group)
    }
    #[inline(always)]
    fn absent_group(&mut self, group: &FieldInfo) {
        self.0.absent_group(group)
    }
    #[inline(always)]
    fn var_data(&mut self, data: &FieldInfo, value: Value<'_>) {
        self.0.var_data(data, value)
    }
    #[inline(always)]
    fn end_message(&mut self, message: &MessageInfo) {
        self.0.end_message(message)
    }
    #[inline(always)]
    fn block(&mut self, bytes: &[u8], acting: i64) -> bool {
        self.0.block(bytes, acting)
    }
    #[inline(always)]
    fn entries(
        &mut self,
        group: &FieldInfo,
        bytes: &[u8],
        count: u64,
        block_length: usize,
        acting: i64,
    ) -> bool {
        self.0.entries(group, bytes, count, block_length, acting)
    }
}

/// A visitor that does nothing.
impl Visitor for () {}

// ---------------------------------------------------------------------------------------------
// The plan.

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum NullCheck {
    None,
    Bits(u64),
    NaN,
}

#[derive(Debug)]
pub(crate) enum ConstValue {
    Null,
    Int(i64),
    UInt(u64),
    F32(f32),
    F64(f64),
    Text(Box<[u8]>, Charset),
    Enum(Box<str>, Number),
}

impl ConstValue {
    pub(crate) fn value(&self) -> Value<'_> {
        match self {
            ConstValue::Null => Value::Null,
            ConstValue::Int(v) => Value::Int(*v),
            ConstValue::UInt(v) => Value::UInt(*v),
            ConstValue::F32(v) => Value::F32(*v),
            ConstValue::F64(v) => Value::F64(*v),
            ConstValue::Text(b, c) => Value::Text {
                bytes: b,
                charset: *c,
            },
            ConstValue::Enum(n, r) => Value::Enum {
                name: Some(n),
                raw: *r,
            },
        }
    }
}

#[derive(Debug)]
pub(crate) enum Kind {
    Scalar {
        ty: PrimitiveType,
        null: NullCheck,
    },
    Text {
        len: usize,
        charset: Charset,
        null: NullCheck,
    },
    Bytes {
        len: usize,
    },
    Array {
        ty: PrimitiveType,
        len: usize,
    },
    Enum {
        ty: PrimitiveType,
        values: Box<[(u64, Box<str>)]>,
        null: NullCheck,
    },
    Set {
        ty: PrimitiveType,
        choices: Box<[Choice]>,
    },
    Composite(Box<[Node]>),
    Const(ConstValue),
}

#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) info: FieldInfo,
    pub(crate) since: i64,
    /// Offset from the start of the block.
    pub(crate) offset: usize,
    pub(crate) kind: Kind,
}

#[derive(Debug)]
pub(crate) struct GroupPlan {
    pub(crate) info: FieldInfo,
    pub(crate) since: i64,
    pub(crate) check: GroupCheck,
    pub(crate) block: Block,
}

/// What reading a group's dimensions takes.
#[derive(Debug, Clone)]
pub(crate) struct GroupCheck {
    pub(crate) name: Box<str>,
    pub(crate) block_length: (usize, PrimitiveType),
    pub(crate) count: (usize, PrimitiveType),
    pub(crate) header_size: usize,
    pub(crate) shape: Shape,
}

#[derive(Debug)]
pub(crate) struct DataPlan {
    pub(crate) info: FieldInfo,
    pub(crate) since: i64,
    pub(crate) check: DataCheck,
    pub(crate) charset: Option<Charset>,
}

/// What reading a var data's length takes.
#[derive(Debug, Clone)]
pub(crate) struct DataCheck {
    pub(crate) name: Box<str>,
    pub(crate) length: (usize, PrimitiveType),
    pub(crate) data_offset: usize,
}

#[derive(Debug)]
pub(crate) enum Tail {
    Group(GroupPlan),
    Data(DataPlan),
}

impl Tail {
    fn since(&self) -> i64 {
        match self {
            Tail::Group(g) => g.since,
            Tail::Data(d) => d.since,
        }
    }

    fn header_size(&self) -> usize {
        match self {
            Tail::Group(g) => g.check.header_size,
            Tail::Data(d) => d.check.data_offset,
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Block {
    pub(crate) fields: Vec<Node>,
    pub(crate) tail: Vec<Tail>,
    pub(crate) shape: Shape,
}

/// What a block's length and an entry's least size depend on, by version.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shape {
    /// (version, bytes the fields present at that version need), by ascending version, the
    /// bytes cumulative.
    pub(crate) needs: Vec<(i64, usize)>,
    /// Each group's and var data's version and header size.
    pub(crate) tails: Vec<(i64, usize)>,
    /// From this version on every field, group and var data is present: [`Shape::needs`] is
    /// `needs_all` and [`Shape::min_tail`] is `min_tail_all`.
    pub(crate) all_since: i64,
    pub(crate) needs_all: usize,
    pub(crate) min_tail_all: usize,
}

impl Shape {
    /// The bytes of block the fields present at `version` need.
    #[inline]
    fn needs(&self, version: i64) -> usize {
        if version >= self.all_since {
            return self.needs_all;
        }
        let mut n = 0;
        for &(v, len) in &self.needs {
            if v > version {
                break;
            }
            n = len;
        }
        n
    }

    /// The least bytes an entry of this block's shape takes beyond its block at `version`.
    #[inline]
    fn min_tail(&self, version: i64) -> usize {
        if version >= self.all_since {
            return self.min_tail_all;
        }
        self.tails
            .iter()
            .filter(|t| t.0 <= version)
            .map(|t| t.1)
            .sum()
    }
}

#[derive(Debug)]
pub(crate) struct MessagePlan {
    pub(crate) info: MessageInfo,
    pub(crate) block: Block,
}

#[derive(Debug)]
pub(crate) struct HeaderPlan {
    pub(crate) size: usize,
    pub(crate) fields: Vec<Node>,
    pub(crate) block_length: (usize, PrimitiveType),
    pub(crate) template_id: (usize, PrimitiveType),
    pub(crate) schema_id: Option<(usize, PrimitiveType)>,
    pub(crate) version: Option<(usize, PrimitiveType)>,
}

/// A message's header, read and checked ([`Decoder::start`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Start {
    /// Which message (an index in the decoder's messages).
    pub(crate) message: usize,
    /// The header's standard fields.
    pub(crate) header: Header,
    /// The root block's length.
    pub(crate) block_length: usize,
    /// The acting version.
    pub(crate) acting: i64,
}

/// A decoder for the messages of one schema, compiled from its IR.
#[derive(Debug)]
pub struct Decoder {
    big_endian: bool,
    schema_id: u64,
    schema_version: i64,
    header: HeaderPlan,
    /// By template id, ascending.
    index: Vec<(u64, usize)>,
    messages: Vec<MessagePlan>,
    depth: usize,
}

fn primitive(token: &Token) -> Result<PrimitiveType, Error> {
    token
        .encoding
        .primitive_type
        .ok_or_else(|| Error::new(format!("'{}' has no primitive type", token.name)))
}

fn offset_of(token: &Token) -> Result<usize, Error> {
    usize::try_from(token.offset)
        .map_err(|_| Error::new(format!("'{}' has no fixed offset", token.name)))
}

fn mask(size: usize) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    }
}

/// The wire bits of `value` as a `ty` (zero-extended).
fn bits_of(value: &PrimitiveValue, ty: PrimitiveType) -> u64 {
    let m = mask(ty.size());
    match value {
        PrimitiveValue::Int(i) => match ty {
            PrimitiveType::Float => (*i as f32).to_bits().into(),
            PrimitiveType::Double => (*i as f64).to_bits(),
            _ => (*i as u64) & m,
        },
        PrimitiveValue::UInt(u) => match ty {
            PrimitiveType::Float => (*u as f32).to_bits().into(),
            PrimitiveType::Double => (*u as f64).to_bits(),
            _ => u & m,
        },
        PrimitiveValue::Float(f) => match ty {
            PrimitiveType::Float => (*f as f32).to_bits().into(),
            PrimitiveType::Double => f.to_bits(),
            _ => (*f as i64 as u64) & m,
        },
        PrimitiveValue::Bytes { bytes, .. } => bytes.first().map_or(0, |b| u64::from(*b)),
    }
}

fn null_check(token: &Token, ty: PrimitiveType) -> NullCheck {
    if token.encoding.presence != Presence::Optional {
        return NullCheck::None;
    }
    match token.encoding.applicable_null_value() {
        Some(PrimitiveValue::Float(f)) if f.is_nan() => NullCheck::NaN,
        Some(v) => NullCheck::Bits(bits_of(&v, ty)),
        None => NullCheck::None,
    }
}

fn const_of(value: Option<&PrimitiveValue>, ty: PrimitiveType, charset: Charset) -> ConstValue {
    let Some(value) = value else {
        return ConstValue::Null;
    };
    match (ty, value) {
        (PrimitiveType::Char, PrimitiveValue::Bytes { bytes, .. }) => {
            ConstValue::Text(bytes.clone().into(), charset)
        }
        (PrimitiveType::Char, v) => {
            ConstValue::Text(vec![bits_of(v, ty) as u8].into_boxed_slice(), charset)
        }
        (PrimitiveType::Float, v) => ConstValue::F32(f32::from_bits(bits_of(v, ty) as u32)),
        (PrimitiveType::Double, v) => ConstValue::F64(f64::from_bits(bits_of(v, ty))),
        (t, PrimitiveValue::Int(i)) if !t.is_unsigned() => ConstValue::Int(*i),
        (t, PrimitiveValue::UInt(u)) if !t.is_unsigned() => ConstValue::Int(*u as i64),
        (_, PrimitiveValue::Int(i)) => ConstValue::UInt(*i as u64),
        (_, PrimitiveValue::UInt(u)) => ConstValue::UInt(*u),
        (_, PrimitiveValue::Float(f)) => ConstValue::Int(*f as i64),
        (_, PrimitiveValue::Bytes { bytes, .. }) => {
            ConstValue::Text(bytes.clone().into(), Charset::Latin1)
        }
    }
}

pub(crate) fn number_of(bits: u64, ty: PrimitiveType) -> Number {
    match scalar(ty, bits) {
        Value::Int(i) => Number::Int(i),
        Value::UInt(u) => Number::UInt(u),
        _ => Number::Int(bits as i64),
    }
}

/// What a node of `kind` (its type token `t`, named by `named`) reads as beside its raw value:
/// an integer by its `epoch`, `timeUnit` and semantic type; a composite of exactly an integer
/// `mantissa` and an integer `exponent` (constant or not) as a decimal.
fn readable(kind: &Kind, t: &Token, named: &Token) -> Readable {
    let integer = |k: &Kind| match k {
        Kind::Scalar { ty, .. } => !matches!(
            ty,
            PrimitiveType::Char | PrimitiveType::Float | PrimitiveType::Double
        ),
        Kind::Const(c) => matches!(c, ConstValue::Int(_) | ConstValue::UInt(_)),
        _ => false,
    };
    match kind {
        Kind::Scalar { .. } if integer(kind) => {
            let semantic = t
                .encoding
                .semantic_type
                .as_deref()
                .or(named.encoding.semantic_type.as_deref());
            Readable::of_integer(
                t.encoding.epoch.as_deref(),
                t.encoding.time_unit.as_deref(),
                semantic,
            )
        }
        Kind::Composite(members) => {
            let named_integer = |name: &str| {
                members
                    .iter()
                    .any(|m| &*m.info.name == name && integer(&m.kind))
            };
            if members.len() == 2 && named_integer("mantissa") && named_integer("exponent") {
                Readable::Decimal
            } else {
                Readable::Raw
            }
        }
        _ => Readable::Raw,
    }
}

struct Builder {
    depth: usize,
}

impl Builder {
    /// The node of a type whose tokens are `tokens` (starting at the type token), named by
    /// `named` (the field's token, or the member's own), at `offset` in the block.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        tokens: &[Token],
        named: &Token,
        since: i64,
        offset: usize,
        constant_field: bool,
        needs: &mut Vec<(i64, usize)>,
        depth: usize,
    ) -> Result<Node, Error> {
        self.depth = self.depth.max(depth);
        let t = tokens
            .first()
            .ok_or_else(|| Error::new(format!("'{}' has no type", named.name)))?;
        let since = since.max(i64::from(t.version));
        let span = usize::try_from(t.component_token_count)
            .ok()
            .filter(|&n| n >= 1 && n <= tokens.len())
            .ok_or_else(|| Error::new(format!("'{}' has a bad token count", t.name)))?;
        let charset = Charset::of(t.encoding.character_encoding.as_deref());
        let mut constant = constant_field || t.encoding.presence == Presence::Constant;
        let kind = match t.signal {
            Signal::Encoding => {
                let ty = primitive(t)?;
                let len = usize::try_from(t.encoded_length).unwrap_or(0);
                if constant {
                    let value = if constant_field && t.encoding.presence != Presence::Constant {
                        named.encoding.const_value.as_ref()
                    } else {
                        t.encoding.const_value.as_ref()
                    };
                    Kind::Const(const_of(value, ty, charset))
                } else {
                    let n = len / ty.size();
                    match ty {
                        PrimitiveType::Char => Kind::Text {
                            len,
                            charset,
                            null: if n == 1 {
                                null_check(t, ty)
                            } else {
                                NullCheck::None
                            },
                        },
                        _ if n == 1 && len == ty.size() => Kind::Scalar {
                            ty,
                            null: null_check(t, ty),
                        },
                        PrimitiveType::Int8 | PrimitiveType::UInt8 => Kind::Bytes { len },
                        _ => Kind::Array {
                            ty,
                            len: n * ty.size(),
                        },
                    }
                }
            }
            Signal::BeginEnum => {
                let ty = primitive(t)?;
                let mut values: Vec<(u64, Box<str>)> = Vec::new();
                for v in &tokens[1..span.saturating_sub(1)] {
                    if v.signal == Signal::ValidValue {
                        let bits = v
                            .encoding
                            .const_value
                            .as_ref()
                            .map_or(0, |c| bits_of(c, ty));
                        values.push((bits, v.name.as_str().into()));
                    }
                }
                if constant {
                    // A constant field referring to one of the enum's values (`valueRef`).
                    let reference = match named.encoding.const_value.as_ref() {
                        Some(PrimitiveValue::Bytes { bytes, .. }) => {
                            String::from_utf8_lossy(bytes).into_owned()
                        }
                        _ => String::new(),
                    };
                    let name = reference.rsplit('.').next().unwrap_or("");
                    match values.iter().find(|(_, n)| &**n == name) {
                        Some((bits, n)) => {
                            Kind::Const(ConstValue::Enum(n.clone(), number_of(*bits, ty)))
                        }
                        None => Kind::Const(ConstValue::Null),
                    }
                } else {
                    // Every enum's null value is `null`, required or not: the IR does not
                    // keep whether an enum's encodingType is optional (iLink 3's
                    // `uInt8NULL`), so presence cannot tell them apart (docs/json.md).
                    let null = match t.encoding.applicable_null_value() {
                        Some(v) => NullCheck::Bits(bits_of(&v, ty)),
                        None => NullCheck::None,
                    };
                    Kind::Enum {
                        ty,
                        values: values.into(),
                        null,
                    }
                }
            }
            Signal::BeginSet => {
                let ty = primitive(t)?;
                let mut choices = Vec::new();
                for c in &tokens[1..span.saturating_sub(1)] {
                    if c.signal == Signal::Choice {
                        let bit = c
                            .encoding
                            .const_value
                            .as_ref()
                            .map_or(0, |v| bits_of(v, PrimitiveType::UInt64))
                            as u32;
                        let mut json = Vec::new();
                        crate::write::write_json_str(&mut json, c.name.as_bytes(), Charset::Utf8);
                        choices.push(Choice {
                            bit,
                            name: c.name.as_str().into(),
                            json: json.into(),
                        });
                    }
                }
                constant = false;
                Kind::Set {
                    ty,
                    choices: choices.into(),
                }
            }
            Signal::BeginComposite => {
                let mut members = Vec::new();
                let mut i = 1;
                while i + 1 < span {
                    let m = &tokens[i];
                    let n = usize::try_from(m.component_token_count)
                        .ok()
                        .filter(|&n| n >= 1 && i + n < span)
                        .ok_or_else(|| Error::new(format!("'{}' has a bad token count", m.name)))?;
                    let member_offset = if m.encoding.presence == Presence::Constant {
                        0
                    } else {
                        offset_of(m)?
                    };
                    let node = self.node(
                        &tokens[i..i + n],
                        m,
                        since,
                        offset.saturating_add(member_offset),
                        false,
                        needs,
                        depth + 1,
                    )?;
                    members.push(node);
                    i += n;
                }
                constant = false;
                Kind::Composite(members.into())
            }
            s => return Err(Error::new(format!("unexpected {s} token '{}'", t.name))),
        };
        let size = match &kind {
            Kind::Scalar { ty, .. } | Kind::Enum { ty, .. } | Kind::Set { ty, .. } => ty.size(),
            Kind::Text { len, .. } | Kind::Bytes { len } | Kind::Array { len, .. } => *len,
            Kind::Composite(_) | Kind::Const(_) => 0,
        };
        if size > 0 {
            needs.push((since, offset.saturating_add(size)));
        }
        let mut info = FieldInfo::new(named, constant);
        info.readable = readable(&kind, t, named);
        Ok(Node {
            info,
            since,
            offset,
            kind,
        })
    }

    /// The fields, groups and var data in `tokens` (the inside of a message or group).
    fn block(&mut self, tokens: &[Token], depth: usize) -> Result<Block, Error> {
        let mut block = Block::default();
        let mut needs = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            let n = usize::try_from(t.component_token_count)
                .ok()
                .filter(|&n| n >= 2 && i + n <= tokens.len())
                .ok_or_else(|| Error::new(format!("'{}' has a bad token count", t.name)))?;
            let inner = &tokens[i + 1..i + n - 1];
            let since = i64::from(t.version);
            match t.signal {
                Signal::BeginField => {
                    let constant = t.encoding.presence == Presence::Constant;
                    let offset = if constant { 0 } else { offset_of(t)? };
                    let node =
                        self.node(inner, t, since, offset, constant, &mut needs, depth + 1)?;
                    block.fields.push(node);
                }
                Signal::BeginGroup => {
                    let dim = inner
                        .first()
                        .filter(|d| d.signal == Signal::BeginComposite)
                        .ok_or_else(|| {
                            Error::new(format!("group '{}' has no dimension composite", t.name))
                        })?;
                    let dn = usize::try_from(dim.component_token_count)
                        .ok()
                        .filter(|&dn| dn >= 2 && dn <= inner.len())
                        .ok_or_else(|| {
                            Error::new(format!("'{}' has a bad token count", dim.name))
                        })?;
                    let members = &inner[1..dn - 1];
                    let find = |name: &str| -> Result<(usize, PrimitiveType), Error> {
                        let m = members
                            .iter()
                            .find(|m| m.name == name && m.signal == Signal::Encoding)
                            .ok_or_else(|| {
                                Error::new(format!("group '{}' has no {name} member", t.name))
                            })?;
                        Ok((offset_of(m)?, primitive(m)?))
                    };
                    let block_length = find("blockLength")?;
                    let count = find("numInGroup")?;
                    let header_size = usize::try_from(dim.encoded_length).map_err(|_| {
                        Error::new(format!(
                            "group '{}' has a variable-length dimension",
                            t.name
                        ))
                    })?;
                    if block_length.0 + block_length.1.size() > header_size
                        || count.0 + count.1.size() > header_size
                    {
                        return Err(Error::new(format!(
                            "group '{}' has a dimension member outside its composite",
                            t.name
                        )));
                    }
                    let inner_block = self.block(&inner[dn..], depth + 2)?;
                    block.tail.push(Tail::Group(GroupPlan {
                        info: FieldInfo::new(t, false),
                        since,
                        check: GroupCheck {
                            name: t.name.as_str().into(),
                            block_length,
                            count,
                            header_size,
                            shape: inner_block.shape.clone(),
                        },
                        block: inner_block,
                    }));
                }
                Signal::BeginVarData => {
                    let members = inner.get(1..inner.len().saturating_sub(1)).unwrap_or(&[]);
                    let length = members
                        .iter()
                        .find(|m| m.name == "length")
                        .or_else(|| members.first())
                        .ok_or_else(|| {
                            Error::new(format!("var data '{}' has no length member", t.name))
                        })?;
                    let data = members
                        .iter()
                        .find(|m| m.name == "varData")
                        .or_else(|| members.get(1))
                        .ok_or_else(|| {
                            Error::new(format!("var data '{}' has no varData member", t.name))
                        })?;
                    let length_at = (offset_of(length)?, primitive(length)?);
                    let data_offset = offset_of(data)?;
                    if length_at.0 + length_at.1.size() > data_offset {
                        return Err(Error::new(format!(
                            "var data '{}' has its length after its data",
                            t.name
                        )));
                    }
                    let charset = data
                        .encoding
                        .character_encoding
                        .as_deref()
                        .map(|c| Charset::of(Some(c)));
                    block.tail.push(Tail::Data(DataPlan {
                        info: FieldInfo::new(t, false),
                        since,
                        check: DataCheck {
                            name: t.name.as_str().into(),
                            length: length_at,
                            data_offset,
                        },
                        charset,
                    }));
                }
                s => return Err(Error::new(format!("unexpected {s} token '{}'", t.name))),
            }
            i += n;
        }
        needs.sort_unstable();
        let mut max = 0;
        let shape = &mut block.shape;
        for (v, len) in needs {
            max = max.max(len);
            match shape.needs.last_mut() {
                Some(last) if last.0 == v => last.1 = max,
                _ => shape.needs.push((v, max)),
            }
        }
        shape.tails = block
            .tail
            .iter()
            .map(|t| (t.since(), t.header_size()))
            .collect();
        shape.all_since = shape
            .needs
            .iter()
            .chain(&shape.tails)
            .map(|n| n.0)
            .max()
            .unwrap_or(i64::MIN);
        shape.needs_all = shape.needs.last().map_or(0, |n| n.1);
        shape.min_tail_all = shape.tails.iter().map(|t| t.1).sum();
        Ok(block)
    }
}

impl Decoder {
    /// Compiles the plan of every message of `ir`.
    pub fn new(ir: &Ir) -> Result<Decoder, Error> {
        let mut builder = Builder { depth: 0 };
        let header_tokens = &ir.header_tokens;
        let composite = header_tokens
            .first()
            .filter(|t| t.signal == Signal::BeginComposite)
            .ok_or_else(|| Error::new("the message header is not a composite"))?;
        let size = usize::try_from(composite.encoded_length)
            .map_err(|_| Error::new("the message header has no fixed length"))?;
        let mut needs = Vec::new();
        let node = builder.node(header_tokens, composite, 0, 0, false, &mut needs, 0)?;
        if needs.iter().any(|&(_, end)| end > size) {
            return Err(Error::new("a message header field lies outside the header"));
        }
        let Kind::Composite(fields) = node.kind else {
            return Err(Error::new("the message header is not a composite"));
        };
        let fields = fields.into_vec();
        let find = |name: &str| -> Option<(usize, PrimitiveType)> {
            fields.iter().find_map(|n| match n.kind {
                Kind::Scalar { ty, .. } if &*n.info.name == name => Some((n.offset, ty)),
                _ => None,
            })
        };
        let block_length = find("blockLength")
            .ok_or_else(|| Error::new("the message header has no blockLength"))?;
        let template_id =
            find("templateId").ok_or_else(|| Error::new("the message header has no templateId"))?;
        let schema_id = find("schemaId");
        let version = find("version");
        let header = HeaderPlan {
            size,
            block_length,
            template_id,
            schema_id,
            version,
            fields,
        };

        let mut messages = Vec::new();
        let mut index = Vec::new();
        for tokens in &ir.messages {
            let m = tokens
                .first()
                .filter(|t| t.signal == Signal::BeginMessage)
                .ok_or_else(|| Error::new("a message does not start with BEGIN_MESSAGE"))?;
            if tokens.len() < 2 || tokens.last().map(|t| t.signal) != Some(Signal::EndMessage) {
                return Err(Error::new(format!(
                    "message '{}' does not end with END_MESSAGE",
                    m.name
                )));
            }
            let template_id = u64::try_from(m.id)
                .map_err(|_| Error::new(format!("message '{}' has a negative id", m.name)))?;
            let block = builder.block(&tokens[1..tokens.len() - 1], 2)?;
            let mut json_prefix = b"{\"message\":".to_vec();
            crate::write::write_json_str(&mut json_prefix, m.name.as_bytes(), Charset::Utf8);
            json_prefix.extend_from_slice(b",\"header\":{");
            index.push((template_id, messages.len()));
            messages.push(MessagePlan {
                info: MessageInfo {
                    name: m.name.as_str().into(),
                    template_id,
                    since_version: m.version,
                    json_prefix_chunk: (json_prefix.len() <= 48).then(|| {
                        let mut chunk = [0u8; 48];
                        chunk[..json_prefix.len()].copy_from_slice(&json_prefix);
                        chunk
                    }),
                    json_prefix: json_prefix.into(),
                },
                block,
            });
        }
        index.sort_unstable();
        if let Some(w) = index.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(Error::new(format!(
                "two messages have template id {}",
                w[0].0
            )));
        }
        Ok(Decoder {
            big_endian: ir.byte_order == ByteOrder::BigEndian,
            schema_id: u64::try_from(ir.id).unwrap_or(u64::MAX),
            schema_version: i64::from(ir.version),
            header,
            index,
            messages,
            depth: builder.depth,
        })
    }

    /// The message header's plan.
    pub(crate) fn header_plan(&self) -> &HeaderPlan {
        &self.header
    }

    /// Every message's plan (as indexed by [`Start::message`]).
    pub(crate) fn message_plans(&self) -> &[MessagePlan] {
        &self.messages
    }

    /// Whether the schema is big-endian.
    pub(crate) fn is_big_endian(&self) -> bool {
        self.big_endian
    }

    /// The schema's version.
    pub(crate) fn schema_version(&self) -> i64 {
        self.schema_version
    }

    /// The size of the message header.
    pub fn header_length(&self) -> usize {
        self.header.size
    }

    /// How deeply the schema's values nest (composites in groups in groups...).
    pub fn max_depth(&self) -> usize {
        self.depth
    }

    /// Decodes the message whose header starts at `buf[0]`, reporting it to `visitor`; returns
    /// the bytes it takes (header included). Bytes after it are ignored.
    pub fn decode<V: Visitor>(&self, buf: &[u8], visitor: &mut V) -> Result<usize, DecodeError> {
        self.walk(buf, &mut Plain(visitor))
    }

    /// [`decode`](Decoder::decode) with a crate printer's own walk of the fields.
    #[inline]
    pub(crate) fn walk<V: Walk>(&self, buf: &[u8], visitor: &mut V) -> Result<usize, DecodeError> {
        if self.big_endian {
            self.run::<true, true, V>(buf, visitor)
        } else {
            self.run::<false, true, V>(buf, visitor)
        }
    }

    /// The bytes the message whose header starts at `buf[0]` takes (header included), found by
    /// walking its groups and var data without visiting its fields. Fails as
    /// [`decode`](Decoder::decode) would.
    pub fn message_length(&self, buf: &[u8]) -> Result<usize, DecodeError> {
        if self.big_endian {
            self.run::<true, false, ()>(buf, &mut ())
        } else {
            self.run::<false, false, ()>(buf, &mut ())
        }
    }

    /// Reads and checks the header of the message at `buf[0]`: which message it is, where its
    /// block ends, its acting version. Fails before anything of the message is known.
    #[inline]
    pub(crate) fn start<const BIG: bool>(&self, buf: &[u8]) -> Result<Start, DecodeError> {
        let h = &self.header;
        if buf.len() < h.size {
            return Err(DecodeError::truncated(
                0,
                "the message header",
                "header",
                h.size,
                buf.len(),
            ));
        }
        let read =
            |(off, ty): (usize, PrimitiveType)| read_raw(buf, off, ty.size(), BIG).unwrap_or(0);
        let block_length = read(h.block_length);
        let template_id = read(h.template_id);
        let schema_id = h.schema_id.map(read);
        let version = h.version.map_or(0, read);
        if let Some(id) = schema_id {
            if id != self.schema_id {
                return Err(DecodeError::new(
                    h.schema_id.map_or(0, |s| s.0),
                    DecodeErrorKind::SchemaIdMismatch,
                    "header.schemaId",
                    format!(
                        "schema id {id} in the header is not the schema's ({})",
                        self.schema_id
                    ),
                ));
            }
        }
        let Ok(found) = self.index.binary_search_by_key(&template_id, |e| e.0) else {
            return Err(DecodeError::new(
                h.template_id.0,
                DecodeErrorKind::UnknownTemplateId,
                "header.templateId",
                format!("unknown template id {template_id}"),
            ));
        };
        let message = self.index[found].1;
        let msg = &self.messages[message];
        let acting = i64::try_from(version).unwrap_or(i64::MAX);
        let needs = msg.block.shape.needs(acting);
        let bl = usize::try_from(block_length).unwrap_or(usize::MAX);
        if bl < needs && acting >= self.schema_version {
            return Err(DecodeError::new(
                h.block_length.0,
                DecodeErrorKind::BlockLengthTooShort,
                "header.blockLength",
                format!(
                    "block length {block_length} of message '{}' is less than the {needs} bytes its fields take at version {version}",
                    msg.info.name
                ),
            ));
        }
        Ok(Start {
            message,
            header: Header {
                block_length,
                template_id,
                schema_id,
                version,
            },
            block_length: bl,
            acting,
        })
    }

    fn run<const BIG: bool, const VISIT: bool, V: Walk>(
        &self,
        buf: &[u8],
        v: &mut V,
    ) -> Result<usize, DecodeError> {
        let Start {
            message,
            header,
            block_length: bl,
            acting,
        } = self.start::<BIG>(buf)?;
        let h = &self.header;
        let msg = &self.messages[message];
        if VISIT {
            v.begin_message(&msg.info, &header);
            v.fields::<BIG>(&h.fields, &buf[..h.size], i64::MAX);
            v.end_header();
        }
        let end = self
            .block::<BIG, VISIT, V>(&msg.block, buf, h.size, bl, acting, "message block", v)
            .map_err(DecodeError::in_root)?;
        if VISIT {
            v.end_message(&msg.info);
        }
        Ok(end)
    }

    /// Walks the block at `buf[start..]` of `len` bytes (its length already checked against
    /// what its fields need), then its groups and var data; returns where it ends.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn block<const BIG: bool, const VISIT: bool, V: Walk>(
        &self,
        plan: &Block,
        buf: &[u8],
        start: usize,
        len: usize,
        acting: i64,
        what: &str,
        v: &mut V,
    ) -> Result<usize, DecodeError> {
        let end = block_end(start, len, buf.len(), what)?;
        if VISIT {
            v.fields::<BIG>(&plan.fields, &buf[start..end], acting);
        }
        let mut pos = end;
        for t in &plan.tail {
            match t {
                Tail::Group(g) => {
                    pos = self.group::<BIG, VISIT, V>(g, buf, pos, acting, v)?;
                }
                Tail::Data(d) => {
                    if d.since > acting {
                        if VISIT {
                            v.var_data(&d.info, Value::Absent);
                        }
                        continue;
                    }
                    let (data_start, n) = d.check.span::<BIG>(buf, pos)?;
                    if VISIT {
                        let bytes = &buf[data_start..data_start + n];
                        let value = match d.charset {
                            Some(charset) => Value::Text { bytes, charset },
                            None => Value::Bytes(bytes),
                        };
                        v.var_data(&d.info, value);
                    }
                    pos = data_start + n;
                }
            }
        }
        Ok(pos)
    }

    fn group<const BIG: bool, const VISIT: bool, V: Walk>(
        &self,
        g: &GroupPlan,
        buf: &[u8],
        pos: usize,
        acting: i64,
        v: &mut V,
    ) -> Result<usize, DecodeError> {
        if g.since > acting {
            if VISIT {
                v.absent_group(&g.info);
            }
            return Ok(pos);
        }
        let dims = g.check.dims::<BIG>(buf, pos, acting, self.schema_version)?;
        if VISIT {
            v.begin_group(
                &g.info,
                GroupHeader {
                    count: dims.count,
                    block_length: dims.block_length,
                },
            );
        }
        if VISIT && g.block.tail.is_empty() {
            // Entries of fields alone, all there: offered to the visitor at once.
            let end = usize::try_from(dims.count)
                .ok()
                .and_then(|n| n.checked_mul(dims.len))
                .and_then(|total| dims.start.checked_add(total))
                .filter(|&end| end <= buf.len());
            if let Some(end) = end {
                let bytes = &buf[dims.start..end];
                if v.entries(&g.info, bytes, dims.count, dims.len, acting) {
                    v.end_group(&g.info);
                    return Ok(end);
                }
            }
        }
        let mut pos = dims.start;
        // The entries from `i` on, starting at `at`, take at least this many bytes in all.
        let rest = |at: usize, i: u64| {
            let least = dims.len.saturating_add(g.check.shape.min_tail(acting)) as u64;
            let rest = (dims.count - i).saturating_mul(least);
            at.saturating_add(usize::try_from(rest).unwrap_or(usize::MAX))
        };
        for i in 0..dims.count {
            if VISIT {
                // An entry whose block does not fit is not begun: what is reported holds the
                // entries read, each whole.
                block_end(pos, dims.len, buf.len(), "group entry")
                    .map_err(|e| e.in_entry(&g.info.name, i).needing(rest(pos, i)))?;
                v.begin_entry(&g.info, i);
            }
            pos = self
                .block::<BIG, VISIT, V>(&g.block, buf, pos, dims.len, acting, "group entry", v)
                .map_err(|e| e.in_entry(&g.info.name, i).needing(rest(pos, i)))?;
            if VISIT {
                v.end_entry(&g.info, i);
            }
        }
        if VISIT {
            v.end_group(&g.info);
        }
        Ok(pos)
    }
}

/// Where the block of `len` bytes at `start` ends, or the error of a block (`what`) running
/// past the end of a buffer of `buf_len` bytes.
#[inline(always)]
pub(crate) fn block_end(
    start: usize,
    len: usize,
    buf_len: usize,
    what: &str,
) -> Result<usize, DecodeError> {
    match start.checked_add(len) {
        Some(end) if end <= buf_len => Ok(end),
        _ => Err(DecodeError::truncated(start, what, "", len, buf_len)),
    }
}

/// A present group's dimensions, read and checked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dims {
    /// The number of entries.
    pub(crate) count: u64,
    /// Each entry's block length as read.
    pub(crate) block_length: u64,
    /// The same as a length.
    pub(crate) len: usize,
    /// Where the first entry starts.
    pub(crate) start: usize,
}

impl GroupCheck {
    /// Reads and checks the dimensions of the group at `buf[pos..]` (present at `acting`).
    #[inline(always)]
    pub(crate) fn dims<const BIG: bool>(
        &self,
        buf: &[u8],
        pos: usize,
        acting: i64,
        schema_version: i64,
    ) -> Result<Dims, DecodeError> {
        let g = self;
        if let Some(head) = pos
            .checked_add(g.header_size)
            .filter(|&end| end <= buf.len())
            .and_then(|end| buf.get(pos..end))
        {
            let block_length = read_raw(head, g.block_length.0, g.block_length.1.size(), BIG);
            let count = read_raw(head, g.count.0, g.count.1.size(), BIG);
            if let (Some(block_length), Some(count), Ok(bl)) = (
                block_length,
                count,
                usize::try_from(block_length.unwrap_or(0)),
            ) {
                let start = pos + g.header_size;
                let left = (buf.len() - start) as u64;
                if acting >= g.shape.all_since
                    && bl >= g.shape.needs_all
                    && (bl as u64)
                        .checked_add(g.shape.min_tail_all as u64)
                        .filter(|&m| m > 0)
                        .and_then(|m| m.checked_mul(count))
                        .is_some_and(|b| b <= left)
                {
                    return Ok(Dims {
                        count,
                        block_length,
                        len: bl,
                        start,
                    });
                }
            }
        }
        self.dims_slow::<BIG>(buf, pos, acting, schema_version)
    }

    /// [`GroupCheck::dims`] for every case (older writers, entries of no bytes, errors).
    #[cold]
    #[inline(never)]
    fn dims_slow<const BIG: bool>(
        &self,
        buf: &[u8],
        pos: usize,
        acting: i64,
        schema_version: i64,
    ) -> Result<Dims, DecodeError> {
        let g = self;
        if buf.len() < pos || buf.len() - pos < g.header_size {
            return Err(DecodeError::truncated(
                pos,
                "group header",
                &g.name,
                g.header_size,
                buf.len(),
            ));
        }
        let block_length =
            read_raw(buf, pos + g.block_length.0, g.block_length.1.size(), BIG).unwrap_or(0);
        let count = read_raw(buf, pos + g.count.0, g.count.1.size(), BIG).unwrap_or(0);
        let needs = g.shape.needs(acting);
        let bl = usize::try_from(block_length).unwrap_or(usize::MAX);
        if bl < needs && acting >= schema_version {
            return Err(DecodeError::new(
                pos + g.block_length.0,
                DecodeErrorKind::BlockLengthTooShort,
                &g.name,
                format!(
                    "block length {block_length} of group '{}' is less than the {needs} bytes its fields take",
                    g.name
                ),
            ));
        }
        let start = pos + g.header_size;
        // A count too large for the bytes left is not an error here: the entries are walked, and
        // the first one that does not fit is reported (docs/codecs.md). Entries of no bytes
        // never run out, so their count is bounded instead.
        if bl == 0 && g.shape.min_tail(acting) == 0 && count > u64::from(u16::MAX) {
            return Err(DecodeError::new(
                pos + g.count.0,
                DecodeErrorKind::GroupCountTooLarge,
                &g.name,
                format!(
                    "group '{}' claims {count} entries of no bytes (at most 65535)",
                    g.name
                ),
            ));
        }
        Ok(Dims {
            count,
            block_length,
            len: bl,
            start,
        })
    }
}

impl DataCheck {
    /// Reads and checks the length of the var data at `buf[pos..]` (present): where its bytes
    /// start, and how many there are.
    #[inline(always)]
    pub(crate) fn span<const BIG: bool>(
        &self,
        buf: &[u8],
        pos: usize,
    ) -> Result<(usize, usize), DecodeError> {
        let d = self;
        if let Some(head) = pos
            .checked_add(d.data_offset)
            .filter(|&end| end <= buf.len())
            .and_then(|end| buf.get(pos..end))
        {
            if let Some(n) = read_raw(head, d.length.0, d.length.1.size(), BIG) {
                let data_start = pos + d.data_offset;
                if let Ok(n) = usize::try_from(n) {
                    if n <= buf.len() - data_start {
                        return Ok((data_start, n));
                    }
                }
            }
        }
        self.span_slow::<BIG>(buf, pos)
    }

    /// [`DataCheck::span`] for every case (errors).
    #[cold]
    #[inline(never)]
    fn span_slow<const BIG: bool>(
        &self,
        buf: &[u8],
        pos: usize,
    ) -> Result<(usize, usize), DecodeError> {
        let d = self;
        if buf.len() < pos || buf.len() - pos < d.data_offset {
            return Err(DecodeError::truncated(
                pos,
                "var data length",
                &d.name,
                d.data_offset,
                buf.len(),
            ));
        }
        let n = read_raw(buf, pos + d.length.0, d.length.1.size(), BIG).unwrap_or(0);
        let data_start = pos + d.data_offset;
        let left = buf.len() - data_start;
        match usize::try_from(n) {
            Ok(n) if n <= left => Ok((data_start, n)),
            _ => Err(DecodeError::new(
                pos,
                DecodeErrorKind::Truncated,
                &d.name,
                format!(
                    "truncated message: var data '{}' at offset {pos} says {n} bytes, {left} left",
                    d.name
                ),
            )
            .needing(data_start.saturating_add(usize::try_from(n).unwrap_or(usize::MAX)))),
        }
    }
}

/// Reads `size` bytes at `off` as an unsigned integer (zero-extended), or `None` out of bounds.
#[inline(always)]
pub(crate) fn read_raw(b: &[u8], off: usize, size: usize, big: bool) -> Option<u64> {
    Some(match size {
        1 => u64::from(*b.get(off)?),
        2 => {
            let a: [u8; 2] = b.get(off..off.checked_add(2)?)?.try_into().ok()?;
            u64::from(if big {
                u16::from_be_bytes(a)
            } else {
                u16::from_le_bytes(a)
            })
        }
        4 => {
            let a: [u8; 4] = b.get(off..off.checked_add(4)?)?.try_into().ok()?;
            u64::from(if big {
                u32::from_be_bytes(a)
            } else {
                u32::from_le_bytes(a)
            })
        }
        _ => {
            let a: [u8; 8] = b.get(off..off.checked_add(8)?)?.try_into().ok()?;
            if big {
                u64::from_be_bytes(a)
            } else {
                u64::from_le_bytes(a)
            }
        }
    })
}

/// The value of `ty` whose wire bits are `raw`.
#[inline(always)]
fn scalar<'a>(ty: PrimitiveType, raw: u64) -> Value<'a> {
    match ty {
        PrimitiveType::Int8 => Value::Int(i64::from(raw as u8 as i8)),
        PrimitiveType::Int16 => Value::Int(i64::from(raw as u16 as i16)),
        PrimitiveType::Int32 => Value::Int(i64::from(raw as u32 as i32)),
        PrimitiveType::Int64 => Value::Int(raw as i64),
        PrimitiveType::Char => Value::Int(raw as i64),
        PrimitiveType::Float => Value::F32(f32::from_bits(raw as u32)),
        PrimitiveType::Double => Value::F64(f64::from_bits(raw)),
        _ => Value::UInt(raw),
    }
}

#[inline]
pub(crate) fn visit_node<const BIG: bool, V: Visitor>(
    n: &Node,
    block: &[u8],
    acting: i64,
    v: &mut V,
) {
    if n.since > acting {
        v.field(&n.info, Value::Absent);
        return;
    }
    let off = n.offset;
    let value = match &n.kind {
        Kind::Scalar { ty, null } => match read_raw(block, off, ty.size(), BIG) {
            Some(raw) => match null {
                NullCheck::Bits(b) if raw == *b => Value::Null,
                NullCheck::NaN if is_nan(*ty, raw) => Value::Null,
                _ => scalar(*ty, raw),
            },
            None => Value::Absent,
        },
        Kind::Text { len, charset, null } => match block.get(off..off.saturating_add(*len)) {
            Some(bytes) => match null {
                NullCheck::Bits(b) if bytes.first().map(|&c| u64::from(c)) == Some(*b) => {
                    Value::Null
                }
                _ => Value::Text {
                    bytes,
                    charset: *charset,
                },
            },
            None => Value::Absent,
        },
        Kind::Bytes { len } => match block.get(off..off.saturating_add(*len)) {
            Some(bytes) => Value::Bytes(bytes),
            None => Value::Absent,
        },
        Kind::Array { ty, len } => match block.get(off..off.saturating_add(*len)) {
            Some(bytes) => Value::Array(Array {
                bytes,
                primitive_type: *ty,
                big_endian: BIG,
            }),
            None => Value::Absent,
        },
        Kind::Enum {
            ty, values, null, ..
        } => match read_raw(block, off, ty.size(), BIG) {
            Some(raw) => {
                if matches!(null, NullCheck::Bits(b) if raw == *b) {
                    Value::Null
                } else {
                    let name = values.iter().find(|(b, _)| *b == raw).map(|(_, n)| &**n);
                    Value::Enum {
                        name,
                        raw: number_of(raw, *ty),
                    }
                }
            }
            None => Value::Absent,
        },
        Kind::Set { ty, choices } => match read_raw(block, off, ty.size(), BIG) {
            Some(bits) => Value::Set { bits, choices },
            None => Value::Absent,
        },
        Kind::Composite(members) => {
            v.begin_composite(&n.info);
            for m in members.iter() {
                visit_node::<BIG, V>(m, block, acting, v);
            }
            v.end_composite(&n.info);
            return;
        }
        Kind::Const(c) => c.value(),
    };
    v.field(&n.info, value);
}

#[inline(always)]
pub(crate) fn is_nan(ty: PrimitiveType, raw: u64) -> bool {
    match ty {
        PrimitiveType::Float => f32::from_bits(raw as u32).is_nan(),
        PrimitiveType::Double => f64::from_bits(raw).is_nan(),
        _ => false,
    }
}

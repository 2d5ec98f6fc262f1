//! The decoder's plan as a public description: for each message, its fields, composites, groups
//! and var data in the order a [`Visitor`](crate::decode::Visitor) is told of them, each with
//! the kind of [`Value`] it is reported as. Built for callers that must know a message's shape
//! before the first one arrives (columnar writers need each column's type up front).
//!
//! The description is borrowed from the [`Decoder`]: the visitor's [`FieldInfo`] and
//! [`MessageInfo`] are the same objects, so a caller can match them by address if it likes.

use sable_ir::PrimitiveType;

use crate::decode::{
    Block, Charset, Choice, ConstValue, Decoder, FieldInfo, Kind, MessageInfo, Node, NullCheck,
    Tail, Value,
};
use crate::readable::Readable;

/// One message of the schema.
#[derive(Debug)]
pub struct MessageLayout<'a> {
    /// What the visitor's `begin_message` is given.
    pub info: &'a MessageInfo,
    /// Its root block.
    pub block: BlockLayout<'a>,
}

/// A message's root block or a group's entry: fields, then groups and var data, in schema order.
#[derive(Debug)]
pub struct BlockLayout<'a> {
    /// The block's fields, in the order the visitor's `field` (or `begin_composite`) is called.
    pub fields: Vec<FieldLayout<'a>>,
    /// Its groups and var data, in order.
    pub tail: Vec<TailLayout<'a>>,
}

/// A field or composite member.
#[derive(Debug)]
pub struct FieldLayout<'a> {
    /// What the visitor is given.
    pub info: &'a FieldInfo,
    /// The version it is present from (its own `sinceVersion`, or an enclosing one's): from a
    /// writer at an older acting version it is reported [`Value::Absent`].
    pub since: i64,
    /// What its value is.
    pub ty: FieldType<'a>,
    /// What it reads as beside its raw value.
    pub form: Form,
    /// Its offset from the start of its block (a composite member's too: from the block's
    /// start, not the composite's); 0 for a constant.
    pub offset: usize,
    /// The value that means null, for [`FieldType::Scalar`], [`FieldType::Text`] and
    /// [`FieldType::Enum`] fields that have one (`nullable`).
    pub null: Null,
}

/// The value that means null: read as [`Value::Null`] instead of a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Null {
    /// None: every value is one.
    None,
    /// These raw bits (the wire value zero-extended to 64 bits; a `char`'s character code).
    Bits(u64),
    /// Any NaN (floats).
    NaN,
}

/// The kind of [`Value`] a field is reported as (besides [`Value::Absent`], which any field can
/// be from an older writer).
#[derive(Debug)]
pub enum FieldType<'a> {
    /// [`Value::Int`] (signed types and `char`), [`Value::UInt`], [`Value::F32`] or
    /// [`Value::F64`]; [`Value::Null`] when `nullable` and it holds its null value.
    Scalar {
        primitive: PrimitiveType,
        nullable: bool,
    },
    /// [`Value::Text`] of `len` bytes (a `char` or `char` array); [`Value::Null`] when
    /// `nullable` (a single `char` holding its null value).
    Text {
        len: usize,
        charset: Charset,
        nullable: bool,
    },
    /// [`Value::Bytes`] of `len` bytes (an `int8` or `uint8` array).
    Bytes { len: usize },
    /// [`Value::Array`] of `len` elements.
    Array {
        primitive: PrimitiveType,
        len: usize,
    },
    /// [`Value::Enum`]; [`Value::Null`] when `nullable` and it holds its null value.
    Enum {
        primitive: PrimitiveType,
        /// Each valid value: its raw value (as [`Value::Enum`]'s `raw` bits) and name.
        values: Vec<(u64, &'a str)>,
        nullable: bool,
    },
    /// [`Value::Set`].
    Set {
        primitive: PrimitiveType,
        choices: &'a [Choice],
    },
    /// A composite: `begin_composite`, its members, `end_composite` (or one `field` call with
    /// [`Value::Absent`] when the composite is absent).
    Composite(Vec<FieldLayout<'a>>),
    /// A constant: always this value.
    Constant(Value<'a>),
}

/// What a value reads as beside its raw value (docs/json.md, "Readable forms").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Nothing more.
    Raw,
    /// A composite of an integer `mantissa` and an integer `exponent`: `mantissa × 10^exponent`.
    Decimal,
    /// An integer counting `10^-digits` seconds since `epoch_days` days after 1970-01-01.
    Timestamp { digits: u8, epoch_days: i64 },
    /// An integer counting days since `epoch_days` days after 1970-01-01.
    Date { epoch_days: i64 },
}

/// A group or var data of a block.
#[derive(Debug)]
pub enum TailLayout<'a> {
    /// A group: `begin_group`, each entry between `begin_entry` and `end_entry`, `end_group`;
    /// or `absent_group`.
    Group {
        info: &'a FieldInfo,
        since: i64,
        block: BlockLayout<'a>,
    },
    /// Var data: [`Value::Text`] when it has a character encoding, else [`Value::Bytes`].
    Data {
        info: &'a FieldInfo,
        since: i64,
        charset: Option<Charset>,
    },
}

impl Decoder {
    /// Every message's layout, in schema order.
    pub fn layouts(&self) -> Vec<MessageLayout<'_>> {
        self.message_plans()
            .iter()
            .map(|m| MessageLayout {
                info: &m.info,
                block: block(&m.block),
            })
            .collect()
    }

    /// The message header's fields (reported to the visitor between `begin_message` and
    /// `end_header`).
    pub fn header_layout(&self) -> Vec<FieldLayout<'_>> {
        self.header_plan().fields.iter().map(field).collect()
    }

    /// Whether the schema's byte order is big-endian.
    pub fn big_endian(&self) -> bool {
        self.is_big_endian()
    }

    /// The schema's version: a writer at an older acting version may leave out any field that
    /// lies beyond the block it wrote (docs/json.md, "Versions").
    pub fn version(&self) -> i64 {
        self.schema_version()
    }
}

fn block(b: &Block) -> BlockLayout<'_> {
    BlockLayout {
        fields: b.fields.iter().map(field).collect(),
        tail: b
            .tail
            .iter()
            .map(|t| match t {
                Tail::Group(g) => TailLayout::Group {
                    info: &g.info,
                    since: g.since,
                    block: block(&g.block),
                },
                Tail::Data(d) => TailLayout::Data {
                    info: &d.info,
                    since: d.since,
                    charset: d.charset,
                },
            })
            .collect(),
    }
}

fn field(n: &Node) -> FieldLayout<'_> {
    let nullable = |null: &NullCheck| *null != NullCheck::None;
    let ty = match &n.kind {
        Kind::Scalar { ty, null } => FieldType::Scalar {
            primitive: *ty,
            nullable: nullable(null),
        },
        Kind::Text { len, charset, null } => FieldType::Text {
            len: *len,
            charset: *charset,
            nullable: nullable(null),
        },
        Kind::Bytes { len } => FieldType::Bytes { len: *len },
        Kind::Array { ty, len } => FieldType::Array {
            primitive: *ty,
            len: len / ty.size(),
        },
        Kind::Enum { ty, values, null } => FieldType::Enum {
            primitive: *ty,
            values: values.iter().map(|(bits, name)| (*bits, &**name)).collect(),
            nullable: nullable(null),
        },
        Kind::Set { ty, choices } => FieldType::Set {
            primitive: *ty,
            choices,
        },
        Kind::Composite(members) => FieldType::Composite(members.iter().map(field).collect()),
        Kind::Const(c) => FieldType::Constant(match c {
            ConstValue::Null => Value::Null,
            c => c.value(),
        }),
    };
    let form = match n.info.readable {
        Readable::Raw => Form::Raw,
        Readable::Decimal => Form::Decimal,
        Readable::Timestamp { digits, epoch_days } => Form::Timestamp { digits, epoch_days },
        Readable::Date { epoch_days } => Form::Date { epoch_days },
    };
    let null = match &n.kind {
        Kind::Scalar { null, .. } | Kind::Text { null, .. } | Kind::Enum { null, .. } => match null
        {
            NullCheck::None => Null::None,
            NullCheck::Bits(b) => Null::Bits(*b),
            NullCheck::NaN => Null::NaN,
        },
        _ => Null::None,
    };
    FieldLayout {
        info: &n.info,
        since: n.since,
        ty,
        form,
        offset: n.offset,
        null,
    }
}

impl Decoder {
    /// The template id in the header of the message at `buf[0]`, when the header's field is
    /// there (to pick messages without decoding them).
    pub fn template_id_of(&self, buf: &[u8]) -> Option<u64> {
        let (offset, ty) = self.header_plan().template_id;
        crate::decode::read_raw(buf, offset, ty.size(), self.is_big_endian())
    }
}

//! What the decoder reports: values, and the descriptions of fields and messages; the raw reads
//! they are made from.

use sable_ir::{PrimitiveType, Token};

use crate::readable::Readable;

pub use crate::write::Charset;

impl Charset {
    pub(crate) fn of(name: Option<&str>) -> Charset {
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
    pub(crate) bytes: &'a [u8],
    pub(crate) primitive_type: PrimitiveType,
    pub(crate) big_endian: bool,
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
    pub(crate) bit: u32,
    pub(crate) name: Box<str>,
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
    pub(crate) name: Box<str>,
    pub(crate) id: i32,
    pub(crate) since_version: i32,
    pub(crate) constant: bool,
    pub(crate) semantic_type: Option<Box<str>>,
    /// `"name":`, JSON escaped.
    pub(crate) json_key: Box<[u8]>,
    /// The same in a fixed chunk (copied whole, then cut), when it fits.
    pub(crate) json_key_chunk: Option<[u8; 32]>,
    /// What it reads as beside its raw value (a decimal, a timestamp, a date).
    pub(crate) readable: Readable,
}

impl FieldInfo {
    pub(crate) fn new(token: &Token, constant: bool) -> FieldInfo {
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
    pub(crate) name: Box<str>,
    pub(crate) template_id: u64,
    pub(crate) since_version: i32,
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
pub(crate) fn scalar<'a>(ty: PrimitiveType, raw: u64) -> Value<'a> {
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

#[inline(always)]
pub(crate) fn is_nan(ty: PrimitiveType, raw: u64) -> bool {
    match ty {
        PrimitiveType::Float => f32::from_bits(raw as u32).is_nan(),
        PrimitiveType::Double => f64::from_bits(raw).is_nan(),
        _ => false,
    }
}

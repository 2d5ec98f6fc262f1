//! The intermediate representation (IR) of an SBE message schema.
//!
//! The IR is a flat list of [`Token`]s per message, with the same meaning as the reference
//! implementation's IR: a message is `BEGIN_MESSAGE`, its fields, groups and var data, then
//! `END_MESSAGE`. Every `BEGIN_*` token is paired with an `END_*` token, and each token of a pair
//! records in [`Token::component_token_count`] how many tokens the pair spans (both ends included).
//! Generators and on-the-fly decoders consume this, never the XML.
//!
//! See `docs/ir.md` for the model and [`sbeir`] for the binary file format.

#![forbid(unsafe_code)]

mod dump;
pub mod sbeir;
pub mod validate;
mod value;

pub use dump::dump;
pub use validate::{validate, Invalid, MAX_NESTING_DEPTH};
pub use value::PrimitiveValue;

use std::fmt;

/// What a token marks. The discriminants are the reference's `SignalCodec` values in `.sbeir` files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Signal {
    BeginMessage = 1,
    EndMessage = 2,
    BeginComposite = 3,
    EndComposite = 4,
    BeginField = 5,
    EndField = 6,
    BeginGroup = 7,
    EndGroup = 8,
    BeginEnum = 9,
    ValidValue = 10,
    EndEnum = 11,
    BeginSet = 12,
    Choice = 13,
    EndSet = 14,
    BeginVarData = 15,
    EndVarData = 16,
    Encoding = 17,
}

impl Signal {
    pub const ALL: [Signal; 17] = [
        Signal::BeginMessage,
        Signal::EndMessage,
        Signal::BeginComposite,
        Signal::EndComposite,
        Signal::BeginField,
        Signal::EndField,
        Signal::BeginGroup,
        Signal::EndGroup,
        Signal::BeginEnum,
        Signal::ValidValue,
        Signal::EndEnum,
        Signal::BeginSet,
        Signal::Choice,
        Signal::EndSet,
        Signal::BeginVarData,
        Signal::EndVarData,
        Signal::Encoding,
    ];

    /// The signal's name as the reference spells it (`BEGIN_MESSAGE`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Signal::BeginMessage => "BEGIN_MESSAGE",
            Signal::EndMessage => "END_MESSAGE",
            Signal::BeginComposite => "BEGIN_COMPOSITE",
            Signal::EndComposite => "END_COMPOSITE",
            Signal::BeginField => "BEGIN_FIELD",
            Signal::EndField => "END_FIELD",
            Signal::BeginGroup => "BEGIN_GROUP",
            Signal::EndGroup => "END_GROUP",
            Signal::BeginEnum => "BEGIN_ENUM",
            Signal::ValidValue => "VALID_VALUE",
            Signal::EndEnum => "END_ENUM",
            Signal::BeginSet => "BEGIN_SET",
            Signal::Choice => "CHOICE",
            Signal::EndSet => "END_SET",
            Signal::BeginVarData => "BEGIN_VAR_DATA",
            Signal::EndVarData => "END_VAR_DATA",
            Signal::Encoding => "ENCODING",
        }
    }

    pub fn from_code(code: u8) -> Option<Signal> {
        Signal::ALL.iter().copied().find(|s| *s as u8 == code)
    }

    /// The `END_*` signal that closes this `BEGIN_*` signal, if it is one.
    pub fn end(self) -> Option<Signal> {
        match self {
            Signal::BeginMessage => Some(Signal::EndMessage),
            Signal::BeginComposite => Some(Signal::EndComposite),
            Signal::BeginField => Some(Signal::EndField),
            Signal::BeginGroup => Some(Signal::EndGroup),
            Signal::BeginEnum => Some(Signal::EndEnum),
            Signal::BeginSet => Some(Signal::EndSet),
            Signal::BeginVarData => Some(Signal::EndVarData),
            _ => None,
        }
    }

    pub fn is_end(self) -> bool {
        matches!(
            self,
            Signal::EndMessage
                | Signal::EndComposite
                | Signal::EndField
                | Signal::EndGroup
                | Signal::EndEnum
                | Signal::EndSet
                | Signal::EndVarData
        )
    }
}

impl fmt::Display for Signal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An SBE primitive type. The discriminants are the reference's `PrimitiveTypeCodec` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PrimitiveType {
    Char = 1,
    Int8 = 2,
    Int16 = 3,
    Int32 = 4,
    Int64 = 5,
    UInt8 = 6,
    UInt16 = 7,
    UInt32 = 8,
    UInt64 = 9,
    Float = 10,
    Double = 11,
}

impl PrimitiveType {
    pub const ALL: [PrimitiveType; 11] = [
        PrimitiveType::Char,
        PrimitiveType::Int8,
        PrimitiveType::Int16,
        PrimitiveType::Int32,
        PrimitiveType::Int64,
        PrimitiveType::UInt8,
        PrimitiveType::UInt16,
        PrimitiveType::UInt32,
        PrimitiveType::UInt64,
        PrimitiveType::Float,
        PrimitiveType::Double,
    ];

    /// The name used in schemas (`char`, `int8`, ..., `double`).
    pub fn schema_name(self) -> &'static str {
        match self {
            PrimitiveType::Char => "char",
            PrimitiveType::Int8 => "int8",
            PrimitiveType::Int16 => "int16",
            PrimitiveType::Int32 => "int32",
            PrimitiveType::Int64 => "int64",
            PrimitiveType::UInt8 => "uint8",
            PrimitiveType::UInt16 => "uint16",
            PrimitiveType::UInt32 => "uint32",
            PrimitiveType::UInt64 => "uint64",
            PrimitiveType::Float => "float",
            PrimitiveType::Double => "double",
        }
    }

    pub fn from_schema_name(name: &str) -> Option<PrimitiveType> {
        PrimitiveType::ALL
            .iter()
            .copied()
            .find(|t| t.schema_name() == name)
    }

    pub fn from_code(code: u8) -> Option<PrimitiveType> {
        PrimitiveType::ALL
            .iter()
            .copied()
            .find(|t| *t as u8 == code)
    }

    /// Encoded size in bytes.
    pub fn size(self) -> usize {
        match self {
            PrimitiveType::Char | PrimitiveType::Int8 | PrimitiveType::UInt8 => 1,
            PrimitiveType::Int16 | PrimitiveType::UInt16 => 2,
            PrimitiveType::Int32 | PrimitiveType::UInt32 | PrimitiveType::Float => 4,
            PrimitiveType::Int64 | PrimitiveType::UInt64 | PrimitiveType::Double => 8,
        }
    }

    pub fn is_unsigned(self) -> bool {
        matches!(
            self,
            PrimitiveType::UInt8
                | PrimitiveType::UInt16
                | PrimitiveType::UInt32
                | PrimitiveType::UInt64
        )
    }

    pub fn is_float(self) -> bool {
        matches!(self, PrimitiveType::Float | PrimitiveType::Double)
    }

    /// The standard's default null value (SBE 1.0, section 2 "Field encoding").
    pub fn null_value(self) -> PrimitiveValue {
        match self {
            PrimitiveType::Char => PrimitiveValue::Int(0),
            PrimitiveType::Int8 => PrimitiveValue::Int(i8::MIN.into()),
            PrimitiveType::Int16 => PrimitiveValue::Int(i16::MIN.into()),
            PrimitiveType::Int32 => PrimitiveValue::Int(i32::MIN.into()),
            PrimitiveType::Int64 => PrimitiveValue::Int(i64::MIN),
            PrimitiveType::UInt8 => PrimitiveValue::UInt(u8::MAX.into()),
            PrimitiveType::UInt16 => PrimitiveValue::UInt(u16::MAX.into()),
            PrimitiveType::UInt32 => PrimitiveValue::UInt(u32::MAX.into()),
            PrimitiveType::UInt64 => PrimitiveValue::UInt(u64::MAX),
            PrimitiveType::Float => PrimitiveValue::Float(f32::NAN.into()),
            PrimitiveType::Double => PrimitiveValue::Float(f64::NAN),
        }
    }

    /// The standard's default minimum value.
    pub fn min_value(self) -> PrimitiveValue {
        match self {
            PrimitiveType::Char => PrimitiveValue::Int(0x20),
            PrimitiveType::Int8 => PrimitiveValue::Int(i64::from(i8::MIN) + 1),
            PrimitiveType::Int16 => PrimitiveValue::Int(i64::from(i16::MIN) + 1),
            PrimitiveType::Int32 => PrimitiveValue::Int(i64::from(i32::MIN) + 1),
            PrimitiveType::Int64 => PrimitiveValue::Int(i64::MIN + 1),
            PrimitiveType::UInt8
            | PrimitiveType::UInt16
            | PrimitiveType::UInt32
            | PrimitiveType::UInt64 => PrimitiveValue::UInt(0),
            PrimitiveType::Float => PrimitiveValue::Float(f64::from(-f32::MAX)),
            PrimitiveType::Double => PrimitiveValue::Float(-f64::MAX),
        }
    }

    /// The standard's default maximum value.
    pub fn max_value(self) -> PrimitiveValue {
        match self {
            PrimitiveType::Char => PrimitiveValue::Int(0x7e),
            PrimitiveType::Int8 => PrimitiveValue::Int(i8::MAX.into()),
            PrimitiveType::Int16 => PrimitiveValue::Int(i16::MAX.into()),
            PrimitiveType::Int32 => PrimitiveValue::Int(i32::MAX.into()),
            PrimitiveType::Int64 => PrimitiveValue::Int(i64::MAX),
            PrimitiveType::UInt8 => PrimitiveValue::UInt(u64::from(u8::MAX) - 1),
            PrimitiveType::UInt16 => PrimitiveValue::UInt(u64::from(u16::MAX) - 1),
            PrimitiveType::UInt32 => PrimitiveValue::UInt(u64::from(u32::MAX) - 1),
            PrimitiveType::UInt64 => PrimitiveValue::UInt(u64::MAX - 1),
            PrimitiveType::Float => PrimitiveValue::Float(f64::from(f32::MAX)),
            PrimitiveType::Double => PrimitiveValue::Float(f64::MAX),
        }
    }
}

impl fmt::Display for PrimitiveType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.schema_name())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ByteOrder {
    #[default]
    LittleEndian,
    BigEndian,
}

impl ByteOrder {
    /// As the reference prints it (`LITTLE_ENDIAN`, `BIG_ENDIAN`).
    pub fn as_str(self) -> &'static str {
        match self {
            ByteOrder::LittleEndian => "LITTLE_ENDIAN",
            ByteOrder::BigEndian => "BIG_ENDIAN",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Presence {
    #[default]
    Required,
    Optional,
    Constant,
}

impl Presence {
    /// As the reference prints it (`REQUIRED`, `OPTIONAL`, `CONSTANT`).
    pub fn as_str(self) -> &'static str {
        match self {
            Presence::Required => "REQUIRED",
            Presence::Optional => "OPTIONAL",
            Presence::Constant => "CONSTANT",
        }
    }
}

/// How a token's value is encoded on the wire, and its metadata.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Encoding {
    pub presence: Presence,
    /// `None` for tokens that carry no primitive value (messages, fields, composites, groups).
    pub primitive_type: Option<PrimitiveType>,
    pub byte_order: ByteOrder,
    pub min_value: Option<PrimitiveValue>,
    pub max_value: Option<PrimitiveValue>,
    pub null_value: Option<PrimitiveValue>,
    pub const_value: Option<PrimitiveValue>,
    pub character_encoding: Option<String>,
    pub epoch: Option<String>,
    pub time_unit: Option<String>,
    pub semantic_type: Option<String>,
}

impl Encoding {
    /// The null value in force: the declared one, else the primitive type's default.
    pub fn applicable_null_value(&self) -> Option<PrimitiveValue> {
        self.null_value
            .clone()
            .or_else(|| self.primitive_type.map(PrimitiveType::null_value))
    }

    pub fn applicable_min_value(&self) -> Option<PrimitiveValue> {
        self.min_value
            .clone()
            .or_else(|| self.primitive_type.map(PrimitiveType::min_value))
    }

    pub fn applicable_max_value(&self) -> Option<PrimitiveValue> {
        self.max_value
            .clone()
            .or_else(|| self.primitive_type.map(PrimitiveType::max_value))
    }
}

/// One token of the IR.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub signal: Signal,
    pub name: String,
    /// For a type reached through `<ref>` or a named type used inside a composite: the type's name.
    pub referenced_name: Option<String>,
    pub description: Option<String>,
    /// Schema id of a message or field; -1 where none applies.
    pub id: i32,
    /// The schema version the element appeared in (`sinceVersion`).
    pub version: i32,
    /// The version the element was deprecated in; 0 when not deprecated.
    pub deprecated: i32,
    /// Encoded length in bytes; for a message its block length; for a group its block length;
    /// -1 where variable.
    pub encoded_length: i32,
    /// Offset in bytes from the start of the enclosing block or composite.
    pub offset: i32,
    /// Tokens this one spans, itself included: for `BEGIN_x`/`END_x` the whole pair, else 1.
    pub component_token_count: i32,
    pub encoding: Encoding,
}

impl Token {
    /// A token with no id (-1), version 0, not deprecated, zero length and offset, default encoding.
    pub fn new(signal: Signal, name: impl Into<String>) -> Token {
        Token {
            signal,
            name: name.into(),
            referenced_name: None,
            description: None,
            id: -1,
            version: 0,
            deprecated: 0,
            encoded_length: 0,
            offset: 0,
            component_token_count: 1,
            encoding: Encoding::default(),
        }
    }

    /// For an `ENCODING` token of a fixed array, the number of elements; 1 otherwise.
    pub fn array_length(&self) -> i32 {
        match self.encoding.primitive_type {
            Some(t) if self.encoded_length > 0 => self.encoded_length / t.size() as i32,
            _ => 1,
        }
    }

    pub fn is_constant(&self) -> bool {
        self.encoding.presence == Presence::Constant
    }

    pub fn is_optional(&self) -> bool {
        self.encoding.presence == Presence::Optional
    }
}

/// The whole IR of a schema: schema-level facts, the message header's tokens, and each message's.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ir {
    pub package_name: String,
    pub namespace_name: Option<String>,
    pub id: i32,
    pub version: i32,
    pub description: Option<String>,
    pub semantic_version: Option<String>,
    pub byte_order: ByteOrder,
    /// The tokens of the `headerType` composite (`BEGIN_COMPOSITE` ... `END_COMPOSITE`).
    pub header_tokens: Vec<Token>,
    /// One token list per message, in schema order.
    pub messages: Vec<Vec<Token>>,
}

impl Ir {
    /// The message whose `BEGIN_MESSAGE` token has this template id.
    pub fn message(&self, template_id: i32) -> Option<&[Token]> {
        self.messages
            .iter()
            .find(|m| m.first().is_some_and(|t| t.id == template_id))
            .map(Vec::as_slice)
    }

    /// The header token named `name` (e.g. `blockLength`, `templateId`).
    pub fn header_field(&self, name: &str) -> Option<&Token> {
        self.header_tokens.iter().find(|t| t.name == name)
    }
}

/// Sets [`Token::component_token_count`] on every token: for each `BEGIN_x` and its matching
/// `END_x`, the number of tokens from one to the other inclusive; 1 for every other token.
pub fn update_component_token_counts(tokens: &mut [Token]) {
    let mut open: Vec<usize> = Vec::new();
    for i in 0..tokens.len() {
        let signal = tokens[i].signal;
        if signal.end().is_some() {
            open.push(i);
        } else if signal.is_end() {
            let begin = open.pop().expect("END token without BEGIN");
            let count = (i - begin + 1) as i32;
            tokens[begin].component_token_count = count;
            tokens[i].component_token_count = count;
        } else {
            tokens[i].component_token_count = 1;
        }
    }
}

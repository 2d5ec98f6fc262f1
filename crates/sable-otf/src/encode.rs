//! Canonical JSON (`docs/json.md`) to SBE bytes, driven by the IR alone.
//!
//! [`Encoder::new`] turns each message's token list into a plan once; [`Encoder::encode_json`]
//! (or [`Encoder::encode_value`] for an already parsed value, e.g. one line of JSON Lines) then
//! appends one message, header first, to a byte vector.
//!
//! The encoder writes the schema's own block lengths and version. What it accepts, beyond the
//! canonical form the decoder prints:
//!
//! - a key may be omitted when its value could be `null` (an optional field or member, or an
//!   element with `sinceVersion` above 0, which decodes as `null` from older writers), or when it
//!   is a constant; `null` writes the null value (a group of no entries, empty var data);
//! - `header` may be omitted; when present each of its members must agree with the schema;
//! - a char array, char or text var data may be given as `{"hex":"..."}` as well as a string;
//! - a float or double may be given as any JSON number, or `"NaN"`, `"Infinity"`, `"-Infinity"`;
//! - an enum's `{"unknown":N}` may hold any value of the encoding type, named or not.
//!
//! Values are checked against the type's range: the schema's `minValue`/`maxValue`, else the
//! primitive type's (SBE 1.0 section 2), and the type's null value given as a number (a required
//! field holding its null value is what a decoder shows for it: the spec's own ExecutionReport
//! example has a required `uint8` of 255). A decoder shows whatever is on the wire, so
//! [`Encoder::with_range_checks`]`(false)` relaxes this to what the primitive type can hold.
//!
//! Nothing panics on any input: every problem is an [`EncodeError`] naming the JSON path.

use std::collections::HashMap;
use std::fmt;

use sable_ir::{ByteOrder, Ir, Presence, PrimitiveType, PrimitiveValue, Signal, Token};
use serde_json::{Map, Value};

mod plan;
mod write;

use plan::MessagePlan;

/// An IR the encoder cannot plan from (malformed tokens, layouts that do not fit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot encode with this IR: {}", self.message)
    }
}

impl std::error::Error for Error {}

/// Why a JSON message could not be encoded, and where: [`EncodeError::path`] is the JSON path of
/// the offending value (`fields.fuelFigures[1].speed`, `header.version`, `message`; empty for the
/// document as a whole).
#[derive(Debug, Clone, PartialEq)]
pub struct EncodeError {
    /// The JSON path of the value at fault.
    pub path: String,
    /// What is wrong with it.
    pub kind: EncodeErrorKind,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}: {}", self.path, self.kind)
        }
    }
}

impl std::error::Error for EncodeError {}

/// The kinds of [`EncodeError`].
#[derive(Debug, Clone, PartialEq)]
pub enum EncodeErrorKind {
    /// The text is not JSON.
    InvalidJson(String),
    /// The JSON value has the wrong type; `expected` describes what fits.
    WrongType {
        expected: String,
        found: &'static str,
    },
    /// No message of this name in the schema.
    UnknownMessage(String),
    /// A required key is missing.
    MissingField,
    /// A key the schema does not have at this place.
    UnknownField,
    /// `null` given where the schema has no null value (a required field of version 0).
    NullNotAllowed,
    /// A number outside the type's range.
    OutOfRange {
        value: String,
        type_name: String,
        min: String,
        max: String,
    },
    /// A number that is not an integer where an integer is needed.
    NotAnInteger(String),
    /// A string that is not one of the enum's valid value names.
    UnknownEnumValue { name: String, enum_name: String },
    /// A set member that is neither a choice name nor a bit number of the set.
    UnknownChoice { choice: String, set_name: String },
    /// A string longer than its char array (in bytes of its character encoding).
    StringTooLong { length: usize, type_name: String },
    /// A character the field's character encoding cannot represent.
    UnencodableCharacter { character: char, encoding: String },
    /// Hex that is malformed or has the wrong number of bytes.
    BadHex(String),
    /// An array with the wrong number of elements.
    WrongArrayLength { expected: usize, found: usize },
    /// A header member that disagrees with the schema or the message named.
    HeaderMismatch { expected: String, found: String },
    /// A constant given with a value other than the schema's.
    ConstantMismatch { expected: String, found: String },
    /// More (or fewer) group entries than the dimension's `numInGroup` allows.
    GroupCountOutOfRange {
        count: usize,
        min: String,
        max: String,
    },
    /// Var data longer than its length type allows.
    VarDataTooLong { length: usize, max: String },
}

/// How long an echoed value may be before it is cut short.
const ECHO_CHARS: usize = 40;

/// A value from the input (or the schema) as an error message shows it: control characters
/// escaped, at most [`ECHO_CHARS`] characters.
fn echo(text: &str) -> String {
    crate::shown(text, ECHO_CHARS)
}

impl fmt::Display for EncodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeErrorKind::InvalidJson(e) => write!(f, "not valid JSON: {}", echo(e)),
            EncodeErrorKind::WrongType { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            EncodeErrorKind::UnknownMessage(m) => {
                write!(f, "no message named '{}' in the schema", echo(m))
            }
            EncodeErrorKind::MissingField => write!(f, "missing (required by the schema)"),
            EncodeErrorKind::UnknownField => write!(f, "unknown field (not in the schema here)"),
            EncodeErrorKind::NullNotAllowed => {
                write!(f, "null is not allowed for a required value")
            }
            EncodeErrorKind::OutOfRange {
                value,
                type_name,
                min,
                max,
            } => write!(
                f,
                "{} is out of range for {type_name} ({min} to {max})",
                echo(value)
            ),
            EncodeErrorKind::NotAnInteger(v) => write!(
                f,
                "{} is not an integer (write integers without a fraction or exponent)",
                echo(v)
            ),
            EncodeErrorKind::UnknownEnumValue { name, enum_name } => write!(
                f,
                "'{}' is not a valid value name of enum {enum_name}",
                echo(name)
            ),
            EncodeErrorKind::UnknownChoice { choice, set_name } => {
                write!(f, "{} is not a choice of set {set_name}", echo(choice))
            }
            EncodeErrorKind::StringTooLong { length, type_name } => {
                write!(f, "string of {length} bytes is too long for {type_name}")
            }
            EncodeErrorKind::UnencodableCharacter {
                character,
                encoding,
            } => write!(f, "character {character:?} cannot be encoded in {encoding}"),
            EncodeErrorKind::BadHex(why) => write!(f, "bad hex: {}", echo(why)),
            EncodeErrorKind::WrongArrayLength { expected, found } => {
                write!(f, "expected an array of {expected} elements, found {found}")
            }
            EncodeErrorKind::HeaderMismatch { expected, found } => write!(
                f,
                "header disagrees with the schema: expected {}, found {}",
                echo(expected),
                echo(found)
            ),
            EncodeErrorKind::ConstantMismatch { expected, found } => {
                write!(f, "constant is {}, found {}", echo(expected), echo(found))
            }
            EncodeErrorKind::GroupCountOutOfRange { count, min, max } => write!(
                f,
                "group of {count} entries is out of range for its numInGroup ({min} to {max})"
            ),
            EncodeErrorKind::VarDataTooLong { length, max } => write!(
                f,
                "var data of {length} bytes is too long for its length type (at most {max})"
            ),
        }
    }
}

/// Encodes canonical JSON messages of one schema into SBE.
#[derive(Debug, Clone)]
pub struct Encoder {
    byte_order: ByteOrder,
    header: plan::Composite,
    schema_id: i64,
    schema_version: i64,
    messages: HashMap<String, MessagePlan>,
    range_checks: bool,
}

impl Encoder {
    /// Plans the encoding of every message of `ir`.
    pub fn new(ir: &Ir) -> Result<Encoder, Error> {
        let byte_order = ir.byte_order;
        let header = plan::header(&ir.header_tokens)?;
        for name in ["blockLength", "templateId", "schemaId", "version"] {
            if !header.members.iter().any(|m| m.name == name) {
                return Err(Error::new(format!("the message header has no '{name}'")));
            }
        }
        let mut messages = HashMap::new();
        for tokens in &ir.messages {
            let plan = plan::message(tokens)?;
            messages.insert(plan.name.clone(), plan);
        }
        Ok(Encoder {
            byte_order,
            header,
            schema_id: i64::from(ir.id),
            schema_version: i64::from(ir.version),
            messages,
            range_checks: true,
        })
    }

    /// Turns range checks on (the default) or off. Off, integers need only fit the primitive
    /// type (so a required `uint8` may hold 255) and floats need only be representable; enum
    /// names, set choices, lengths, constants and the header are checked all the same.
    pub fn with_range_checks(mut self, on: bool) -> Encoder {
        self.range_checks = on;
        self
    }

    /// Parses `json` (one message object) and appends its encoding to `out`, returning the
    /// number of bytes appended. On error `out` is left as it was.
    pub fn encode_json(&self, json: &str, out: &mut Vec<u8>) -> Result<usize, EncodeError> {
        let value: Value = serde_json::from_str(json).map_err(|e| EncodeError {
            path: String::new(),
            kind: EncodeErrorKind::InvalidJson(e.to_string()),
        })?;
        self.encode_value(&value, out)
    }

    /// Appends the encoding of one parsed message object to `out`, returning the number of bytes
    /// appended. On error `out` is left as it was.
    pub fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<usize, EncodeError> {
        let start = out.len();
        let result = self.encode_inner(value, out);
        match result {
            Ok(()) => Ok(out.len() - start),
            Err(e) => {
                out.truncate(start);
                Err(e)
            }
        }
    }

    fn encode_inner(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let root = write::Path::Root;
        let object = write::as_object(value, &root, "a message object")?;
        let name_path = write::Path::Key(&root, "message");
        let name = match object.get("message") {
            None => return Err(name_path.error(EncodeErrorKind::MissingField)),
            Some(Value::String(s)) => s,
            Some(other) => {
                return Err(name_path.error(write::wrong_type("the message's name", other)))
            }
        };
        let Some(message) = self.messages.get(name.as_str()) else {
            return Err(name_path.error(EncodeErrorKind::UnknownMessage(name.clone())));
        };
        let writer = write::Writer {
            order: self.byte_order,
            range_checks: self.range_checks,
        };

        // The header: what the schema says, checked against what the JSON says.
        // A constant header member is what it is (checked as a constant if given).
        let expected: Vec<(&str, i64)> = [
            ("blockLength", i64::from(message.block_length)),
            ("templateId", i64::from(message.template_id)),
            ("schemaId", self.schema_id),
            ("version", self.schema_version),
        ]
        .into_iter()
        .filter(|(name, _)| {
            !self
                .header
                .members
                .iter()
                .any(|m| m.name == *name && m.ty.is_constant())
        })
        .collect();
        let header_path = write::Path::Key(&root, "header");
        let mut header_values = Map::new();
        if let Some(given) = object.get("header") {
            let given = write::as_object(given, &header_path, "the header object")?;
            for (key, v) in given {
                let key_path = write::Path::Key(&header_path, key);
                if !self.header.members.iter().any(|m| &m.name == key) {
                    return Err(key_path.error(EncodeErrorKind::UnknownField));
                }
                if let Some((_, want)) = expected.iter().find(|(n, _)| n == key) {
                    let agrees = match v {
                        Value::Number(n) => n.as_i64() == Some(*want),
                        _ => false,
                    };
                    if !agrees {
                        return Err(key_path.error(EncodeErrorKind::HeaderMismatch {
                            expected: want.to_string(),
                            found: v.to_string(),
                        }));
                    }
                }
                header_values.insert(key.clone(), v.clone());
            }
        }
        for (key, want) in &expected {
            header_values.insert((*key).to_owned(), Value::from(*want));
        }
        let header_value = Value::Object(header_values);
        let start = out.len();
        out.resize(start + self.header.length, 0);
        // Header members beyond the four standard ones are written as given, else as null.
        writer.composite(
            &self.header,
            &header_value,
            true,
            &header_path,
            &mut out[start..],
        )?;

        let fields_path = write::Path::Key(&root, "fields");
        let fields = match object.get("fields") {
            Some(v) => v,
            None => return Err(fields_path.error(EncodeErrorKind::MissingField)),
        };
        writer.block(&message.body, fields, &fields_path, out)
    }
}

/// Reads an IR value as an integer (for ranges, constants, enum values).
fn value_as_i128(v: &PrimitiveValue) -> Option<i128> {
    match v {
        PrimitiveValue::Int(i) => Some(i128::from(*i)),
        PrimitiveValue::UInt(u) => Some(i128::from(*u)),
        PrimitiveValue::Float(f) if f.fract() == 0.0 && f.abs() < 1e38 => Some(*f as i128),
        PrimitiveValue::Float(_) => None,
        PrimitiveValue::Bytes { bytes, .. } => match bytes.as_slice() {
            [b] => Some(i128::from(*b)),
            _ => None,
        },
    }
}

/// Reads an IR value as a float (for ranges and constants of float types).
fn value_as_f64(v: &PrimitiveValue) -> Option<f64> {
    match v {
        PrimitiveValue::Int(i) => Some(*i as f64),
        PrimitiveValue::UInt(u) => Some(*u as f64),
        PrimitiveValue::Float(f) => Some(*f),
        PrimitiveValue::Bytes { .. } => None,
    }
}

/// The presence of a token, for planning.
fn is_optional(t: &Token) -> bool {
    t.encoding.presence == Presence::Optional
}

fn signal_is(t: Option<&Token>, s: Signal) -> bool {
    t.is_some_and(|t| t.signal == s)
}

/// The primitive type of a token that must have one.
fn primitive_of(t: &Token) -> Result<PrimitiveType, Error> {
    t.encoding
        .primitive_type
        .ok_or_else(|| Error::new(format!("'{}' has no primitive type", t.name)))
}

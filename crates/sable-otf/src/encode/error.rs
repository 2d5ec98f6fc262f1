//! What the encoder reports: an IR it cannot plan from ([`Error`]), a JSON value it cannot
//! encode ([`EncodeError`], with its JSON path and [`EncodeErrorKind`]).

use std::fmt;

/// An IR the encoder cannot plan from (malformed tokens, layouts that do not fit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    pub(super) fn new(message: impl Into<String>) -> Error {
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

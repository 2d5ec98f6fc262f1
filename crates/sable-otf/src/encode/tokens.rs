//! Reading the IR's tokens and values while planning and writing.

use sable_ir::{Presence, PrimitiveType, PrimitiveValue, Signal, Token};

use super::error::Error;

/// Reads an IR value as an integer (for ranges, constants, enum values).
pub(super) fn value_as_i128(v: &PrimitiveValue) -> Option<i128> {
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
pub(super) fn value_as_f64(v: &PrimitiveValue) -> Option<f64> {
    match v {
        PrimitiveValue::Int(i) => Some(*i as f64),
        PrimitiveValue::UInt(u) => Some(*u as f64),
        PrimitiveValue::Float(f) => Some(*f),
        PrimitiveValue::Bytes { .. } => None,
    }
}

/// The presence of a token, for planning.
pub(super) fn is_optional(t: &Token) -> bool {
    t.encoding.presence == Presence::Optional
}

pub(super) fn signal_is(t: Option<&Token>, s: Signal) -> bool {
    t.is_some_and(|t| t.signal == s)
}

/// The primitive type of a token that must have one.
pub(super) fn primitive_of(t: &Token) -> Result<PrimitiveType, Error> {
    t.encoding
        .primitive_type
        .ok_or_else(|| Error::new(format!("'{}' has no primitive type", t.name)))
}

//! The JSON text of constants, worked out when generating (docs/json.md).

use sable_ir::{PrimitiveType, PrimitiveValue};

use super::names::{is_utf8, json_str};
use crate::model::Primitive;

/// The JSON text of a constant primitive's value.
pub(super) fn const_json(p: &Primitive, v: &PrimitiveValue) -> String {
    match v {
        PrimitiveValue::Bytes { bytes, .. } => {
            json_str(&text_of(bytes, p.character_encoding.as_deref()))
        }
        PrimitiveValue::Int(i) if p.primitive_type == PrimitiveType::Char => {
            let b = u8::try_from(*i).unwrap_or(0);
            json_str(&text_of(&[b], p.character_encoding.as_deref()))
        }
        PrimitiveValue::Float(f) => crate::rust::float_json(*f, p.primitive_type),
        other => other.as_i128().unwrap_or(0).to_string(),
    }
}

/// Text of bytes up to the first NUL, in a character encoding (UTF-8, else a byte a character).
pub(super) fn text_of(bytes: &[u8], encoding: Option<&str>) -> String {
    let bytes = match bytes.iter().position(|&b| b == 0) {
        Some(n) => &bytes[..n],
        None => bytes,
    };
    if is_utf8(encoding) {
        String::from_utf8_lossy(bytes).into_owned()
    } else {
        bytes.iter().map(|&b| char::from(b)).collect()
    }
}

//! C++ names, types and literals.

use sable_ir::{ByteOrder, PrimitiveType, PrimitiveValue};

pub use sable_names::cpp::{ident, namespace};

/// The C++ type of a primitive.
pub fn ctype(t: PrimitiveType) -> &'static str {
    match t {
        PrimitiveType::Char => "char",
        PrimitiveType::Int8 => "std::int8_t",
        PrimitiveType::Int16 => "std::int16_t",
        PrimitiveType::Int32 => "std::int32_t",
        PrimitiveType::Int64 => "std::int64_t",
        PrimitiveType::UInt8 => "std::uint8_t",
        PrimitiveType::UInt16 => "std::uint16_t",
        PrimitiveType::UInt32 => "std::uint32_t",
        PrimitiveType::UInt64 => "std::uint64_t",
        PrimitiveType::Float => "float",
        PrimitiveType::Double => "double",
    }
}

pub fn is_big(order: ByteOrder) -> &'static str {
    match order {
        ByteOrder::BigEndian => "true",
        ByteOrder::LittleEndian => "false",
    }
}

/// `sable::detail::load<T, BE>(PTR)`.
pub fn load(t: PrimitiveType, order: ByteOrder, ptr: &str) -> String {
    format!(
        "sable::detail::load<{}, {}>({ptr})",
        ctype(t),
        is_big(order)
    )
}

/// `sable::detail::store<T, BE>(PTR, VALUE)`.
pub fn store(t: PrimitiveType, order: ByteOrder, ptr: &str, value: &str) -> String {
    format!(
        "sable::detail::store<{}, {}>({ptr}, {value})",
        ctype(t),
        is_big(order)
    )
}

/// A C++ constant expression of type `t` for `v`.
pub fn literal(t: PrimitiveType, v: &PrimitiveValue) -> String {
    match t {
        PrimitiveType::Float | PrimitiveType::Double => {
            let f = match v {
                PrimitiveValue::Float(f) => *f,
                PrimitiveValue::Int(i) => *i as f64,
                PrimitiveValue::UInt(u) => *u as f64,
                PrimitiveValue::Bytes { .. } => 0.0,
            };
            let ty = ctype(t);
            if f.is_nan() {
                format!("std::numeric_limits<{ty}>::quiet_NaN()")
            } else if f.is_infinite() {
                let sign = if f < 0.0 { "-" } else { "" };
                format!("{sign}std::numeric_limits<{ty}>::infinity()")
            } else if t == PrimitiveType::Float {
                format!("static_cast<float>({f:?})")
            } else {
                format!("{f:?}")
            }
        }
        _ => {
            let i = match v {
                PrimitiveValue::Bytes { bytes, .. } => bytes.first().copied().unwrap_or(0) as i128,
                PrimitiveValue::Float(f) => *f as i128,
                other => other.as_i128().unwrap_or(0),
            };
            let text = if i == i64::MIN as i128 {
                "(-9223372036854775807LL - 1)".to_owned()
            } else if i > i64::MAX as i128 {
                format!("{i}ULL")
            } else if i < i32::MIN as i128 || i > i32::MAX as i128 {
                if i < 0 {
                    format!("({i}LL)")
                } else {
                    format!("{i}LL")
                }
            } else if i < 0 {
                format!("({i})")
            } else {
                format!("{i}")
            };
            match t {
                PrimitiveType::Int32 if i >= i32::MIN as i128 => text,
                _ => format!("static_cast<{}>({text})", ctype(t)),
            }
        }
    }
}

/// A C++ string literal of the bytes (octal escapes for everything outside printable ASCII).
pub fn string_literal(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'?' => s.push_str("\\?"),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\{b:03o}")),
        }
    }
    s.push('"');
    s
}

/// Whether `t` is signed (for JSON output).
pub fn signed(t: PrimitiveType) -> bool {
    matches!(
        t,
        PrimitiveType::Int8 | PrimitiveType::Int16 | PrimitiveType::Int32 | PrimitiveType::Int64
    )
}

/// Whether a character encoding is UTF-8.
pub fn is_utf8(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| e.eq_ignore_ascii_case("UTF-8") || e.eq_ignore_ascii_case("UTF8"))
}

/// Writes a schema description as a Doxygen comment (`/** ... */`, on one line, whitespace
/// collapsed); nothing when there is none.
pub fn doc(w: &mut crate::writer::CodeWriter, description: Option<&str>) {
    let Some(text) = description.map(str::trim).filter(|d| !d.is_empty()) else {
        return;
    };
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // `*/` would end the comment early.
    w.line(format!("/** {} */", text.replace("*/", "* /")));
}

/// The declared `minValue` and `maxValue` of a primitive field, as C++ literals, each only when
/// the schema narrows the type's own range and the C++ type can hold a value beyond it (so that
/// the test is never always false).
pub fn declared_range(p: &crate::model::Primitive) -> (Option<String>, Option<String>) {
    let t = p.primitive_type;
    if p.is_array() || p.is_constant() {
        return (None, None);
    }
    let (min, max) = match t {
        PrimitiveType::Float | PrimitiveType::Double => {
            let f = |v: &PrimitiveValue| match v {
                PrimitiveValue::Float(f) => Some(*f),
                other => other.as_i128().map(|i| i as f64),
            };
            let narrower = |declared: &PrimitiveValue, implicit: PrimitiveValue| {
                f(declared).filter(|d| d.is_finite() && Some(*d) != f(&implicit))
            };
            (
                narrower(&p.min_value, t.min_value()).is_some(),
                narrower(&p.max_value, t.max_value()).is_some(),
            )
        }
        _ => {
            let (lo, hi) = c_range(t);
            let declared = |v: &PrimitiveValue, implicit: PrimitiveValue| {
                v.as_i128().filter(|d| Some(*d) != implicit.as_i128())
            };
            (
                declared(&p.min_value, t.min_value()).is_some_and(|d| d > lo && d <= hi),
                declared(&p.max_value, t.max_value()).is_some_and(|d| d < hi && d >= lo),
            )
        }
    };
    (
        min.then(|| literal(t, &p.min_value)),
        max.then(|| literal(t, &p.max_value)),
    )
}

/// The values every C++ compiler's type for `t` holds (`char` taken as 0..127).
fn c_range(t: PrimitiveType) -> (i128, i128) {
    match t {
        PrimitiveType::Char => (0, 127),
        PrimitiveType::Int8 => (i8::MIN.into(), i8::MAX.into()),
        PrimitiveType::Int16 => (i16::MIN.into(), i16::MAX.into()),
        PrimitiveType::Int32 => (i32::MIN.into(), i32::MAX.into()),
        PrimitiveType::Int64 => (i64::MIN.into(), i64::MAX.into()),
        PrimitiveType::UInt8 => (0, u8::MAX.into()),
        PrimitiveType::UInt16 => (0, u16::MAX.into()),
        PrimitiveType::UInt32 => (0, u32::MAX.into()),
        PrimitiveType::UInt64 => (0, u64::MAX.into()),
        PrimitiveType::Float | PrimitiveType::Double => (i128::MIN, i128::MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_typed() {
        assert_eq!(
            literal(PrimitiveType::Int64, &PrimitiveValue::Int(i64::MIN)),
            "static_cast<std::int64_t>((-9223372036854775807LL - 1))"
        );
        assert_eq!(
            literal(PrimitiveType::UInt64, &PrimitiveValue::UInt(u64::MAX)),
            "static_cast<std::uint64_t>(18446744073709551615ULL)"
        );
        assert_eq!(
            literal(PrimitiveType::Int32, &PrimitiveValue::Int(-5)),
            "(-5)"
        );
        assert_eq!(
            literal(PrimitiveType::Float, &PrimitiveValue::Float(f64::NAN)),
            "std::numeric_limits<float>::quiet_NaN()"
        );
        assert_eq!(string_literal(b"a\"\x01"), "\"a\\\"\\001\"");
    }
}

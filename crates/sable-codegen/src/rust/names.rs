//! Rust names for schema names, and Rust literals for schema values.

use sable_ir::{PrimitiveType, PrimitiveValue};

pub use sable_names::rust::{camel, method, module, snake, upper};

/// The Rust type of a primitive.
pub fn rtype(p: PrimitiveType) -> &'static str {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => "u8",
        PrimitiveType::Int8 => "i8",
        PrimitiveType::Int16 => "i16",
        PrimitiveType::Int32 => "i32",
        PrimitiveType::Int64 => "i64",
        PrimitiveType::UInt16 => "u16",
        PrimitiveType::UInt32 => "u32",
        PrimitiveType::UInt64 => "u64",
        PrimitiveType::Float => "f32",
        PrimitiveType::Double => "f64",
    }
}

/// A Rust expression of type `rtype(p)` for `v`.
pub fn lit(v: &PrimitiveValue, p: PrimitiveType) -> String {
    let t = rtype(p);
    match p {
        PrimitiveType::Float | PrimitiveType::Double => {
            let f = v.as_f64().unwrap_or(f64::NAN);
            if f.is_nan() {
                format!("{t}::NAN")
            } else if f.is_infinite() {
                format!("{}{t}::INFINITY", if f < 0.0 { "-" } else { "" })
            } else if p == PrimitiveType::Float {
                let x = f as f32;
                if x == f32::MAX {
                    "f32::MAX".to_owned()
                } else if x == -f32::MAX {
                    "f32::MIN".to_owned()
                } else {
                    format!("{x:?}_f32")
                }
            } else if f == f64::MAX {
                "f64::MAX".to_owned()
            } else if f == -f64::MAX {
                "f64::MIN".to_owned()
            } else {
                format!("{f:?}_f64")
            }
        }
        _ => {
            let i = match v {
                PrimitiveValue::Bytes { bytes, .. } => bytes.first().copied().map_or(0, i128::from),
                other => other.as_i128().unwrap_or(0),
            };
            int_lit(i, p)
        }
    }
}

/// An integer literal of the primitive's Rust type (the type's MIN and MAX by name).
pub fn int_lit(i: i128, p: PrimitiveType) -> String {
    let t = rtype(p);
    let (min, max): (i128, i128) = match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => (0, u8::MAX.into()),
        PrimitiveType::Int8 => (i8::MIN.into(), i8::MAX.into()),
        PrimitiveType::Int16 => (i16::MIN.into(), i16::MAX.into()),
        PrimitiveType::Int32 => (i32::MIN.into(), i32::MAX.into()),
        PrimitiveType::Int64 => (i64::MIN.into(), i64::MAX.into()),
        PrimitiveType::UInt16 => (0, u16::MAX.into()),
        PrimitiveType::UInt32 => (0, u32::MAX.into()),
        PrimitiveType::UInt64 => (0, u64::MAX.into()),
        PrimitiveType::Float | PrimitiveType::Double => (i128::MIN, i128::MAX),
    };
    if i == max && p != PrimitiveType::Char {
        format!("{t}::MAX")
    } else if i == min && min != 0 {
        format!("{t}::MIN")
    } else {
        let i = i.clamp(min, max);
        format!("{i}_{t}")
    }
}

/// A Rust string literal.
pub fn str_lit(s: &str) -> String {
    format!("{s:?}")
}

/// A Rust byte string literal.
pub fn bytes_lit(b: &[u8]) -> String {
    let mut out = String::from("b\"");
    for &c in b {
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(char::from(c)),
            _ => out.push_str(&format!("\\x{c:02x}")),
        }
    }
    out.push('"');
    out
}

/// `s` as JSON string text (with quotes), escaped as the canonical form escapes.
pub fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether a character encoding name means UTF-8.
pub fn is_utf8(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8"))
}

/// A doc comment from a schema description (one line; nothing when absent).
pub fn doc(description: Option<&str>) -> String {
    match description.map(str::trim).filter(|d| !d.is_empty()) {
        Some(d) => {
            let text: Vec<&str> = d.split_whitespace().collect();
            let text = text.join(" ").replace('`', "'");
            format!("/// {}\n", escape_doc(&text))
        }
        None => String::new(),
    }
}

/// Escapes characters rustdoc would read as markup or links.
fn escape_doc(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '[' | ']' | '<' | '>' | '*' | '_' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(int_lit(255, PrimitiveType::UInt8), "u8::MAX");
        assert_eq!(int_lit(-128, PrimitiveType::Int8), "i8::MIN");
        assert_eq!(int_lit(3, PrimitiveType::Int8), "3_i8");
    }
}

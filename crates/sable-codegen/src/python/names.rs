//! Python names for schema names (sable-names' rules, plus the names the generated classes
//! use themselves), and Python literals for schema values.

use sable_ir::{ByteOrder, PrimitiveType, PrimitiveValue};

pub use sable_names::python::{class_name, constant, module, snake};

/// Attributes the support base classes (and `int`, for sets) already define: an accessor by
/// one of these names gets `_` appended.
const TAKEN: &[&str] = &[
    "acting_version",
    "acting_block_length",
    "add",
    "count",
    "decode",
    "encoded_length",
    "fields",
    "index",
    "next_entry",
    "present",
    "to_json",
    "wrap",
    "wrap_body",
    // builtins the annotations in a class name, which a method would hide
    "bool",
    "bytearray",
    "bytes",
    "dict",
    "float",
    "int",
    "list",
    "memoryview",
    "str",
    "tuple",
    "type",
    // int's own, which a set's choices would hide
    "real",
    "imag",
    "numerator",
    "denominator",
    "conjugate",
    "bit_length",
    "bit_count",
    "to_bytes",
    "from_bytes",
    "as_integer_ratio",
    "is_integer",
];

/// The accessor of a field, member, group, var data or set choice.
pub fn accessor(name: &str) -> String {
    let s = snake(name);
    if TAKEN.contains(&s.as_str()) {
        format!("{s}_")
    } else {
        s
    }
}

/// `base + n`, or `base` when `n` is 0: an offset in the generated code.
pub fn plus(base: &str, n: usize) -> String {
    if n == 0 {
        base.to_owned()
    } else {
        format!("{base} + {n}")
    }
}

/// A Python string literal (double quotes; the file is UTF-8).
pub fn str_lit(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A Python bytes literal.
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

/// A docstring from a schema description, or `fallback` when it has none.
pub fn docstring(description: Option<&str>, fallback: &str) -> String {
    let text = description
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| fallback.to_owned());
    let text = text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let text = if text.ends_with('"') {
        format!("{text} ")
    } else {
        text
    };
    format!("\"\"\"{text}\"\"\"")
}

/// The Python type a primitive reads as.
pub fn py_type(p: PrimitiveType) -> &'static str {
    match p {
        PrimitiveType::Float | PrimitiveType::Double => "float",
        PrimitiveType::Char => "str",
        _ => "int",
    }
}

/// The `struct` format letter of a primitive (a char reads as its code).
pub fn format_letter(p: PrimitiveType) -> char {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => 'B',
        PrimitiveType::Int8 => 'b',
        PrimitiveType::Int16 => 'h',
        PrimitiveType::UInt16 => 'H',
        PrimitiveType::Int32 => 'i',
        PrimitiveType::UInt32 => 'I',
        PrimitiveType::Int64 => 'q',
        PrimitiveType::UInt64 => 'Q',
        PrimitiveType::Float => 'f',
        PrimitiveType::Double => 'd',
    }
}

/// A precompiled `struct.Struct`: its format and the module-level name it is bound to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Format {
    pub name: String,
    pub format: String,
}

/// The `Struct` reading `count` values of `p` (`count` 1 for a single value); `text` reads a
/// char or byte array as `bytes`.
pub fn format(p: PrimitiveType, order: ByteOrder, count: usize, text: bool) -> Format {
    let (prefix, tag) = match order {
        ByteOrder::BigEndian => ('>', "BE"),
        _ => ('<', "LE"),
    };
    let type_name = format!("{p:?}").to_uppercase();
    if text {
        return Format {
            name: format!("_BYTES_{count}"),
            format: format!("{count}s"),
        };
    }
    let letter = format_letter(p);
    if count == 1 {
        Format {
            name: format!("_{tag}_{type_name}"),
            format: format!("{prefix}{letter}"),
        }
    } else {
        Format {
            name: format!("_{tag}_{type_name}_X{count}"),
            format: format!("{prefix}{count}{letter}"),
        }
    }
}

/// A Python literal for a value of `p`.
pub fn lit(v: &PrimitiveValue, p: PrimitiveType) -> String {
    if p.is_float() {
        let f = v.as_f64().unwrap_or(f64::NAN);
        return if f.is_nan() {
            "math.nan".to_owned()
        } else if f.is_infinite() {
            format!("{}math.inf", if f < 0.0 { "-" } else { "" })
        } else if p == PrimitiveType::Float {
            format!("{:?}", f64::from(f as f32))
        } else {
            format!("{f:?}")
        };
    }
    let i = match v {
        PrimitiveValue::Bytes { bytes, .. } => bytes.first().copied().map_or(0, i128::from),
        other => other.as_i128().unwrap_or(0),
    };
    i.to_string()
}

/// Whether a character encoding name means UTF-8.
pub fn is_utf8(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8"))
}

/// The Python codec of a character encoding: UTF-8, else one character a byte.
pub fn codec(encoding: Option<&str>) -> &'static str {
    if is_utf8(encoding) {
        "utf-8"
    } else {
        "latin-1"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_literals() {
        assert_eq!(accessor("count"), "count_");
        assert_eq!(accessor("fuelFigures"), "fuel_figures");
        assert_eq!(str_lit("a\"b\\\u{1}"), "\"a\\\"b\\\\\\x01\"");
        assert_eq!(bytes_lit(&[0, b'A']), "b\"\\x00A\"");
        assert_eq!(docstring(Some("a  \"b\""), "x"), "\"\"\"a \"b\" \"\"\"");
        assert_eq!(
            format(PrimitiveType::UInt16, ByteOrder::LittleEndian, 1, false),
            Format {
                name: "_LE_UINT16".into(),
                format: "<H".into()
            }
        );
        assert_eq!(
            lit(&PrimitiveValue::Float(f64::NAN), PrimitiveType::Double),
            "math.nan"
        );
    }
}

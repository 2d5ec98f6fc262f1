//! Rust names for schema names, and Rust literals for schema values.

use sable_ir::{PrimitiveType, PrimitiveValue};

use crate::naming;

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen", "union",
];

/// Method names the generated types use themselves, or that clippy expects to implement a
/// trait: a field with such a name gets `_` appended.
const RESERVED_METHODS: &[&str] = &[
    "decode",
    "decode_body",
    "header",
    "wrap",
    "new",
    "new_body",
    "acting_version",
    "acting_block_length",
    "encoded_length",
    "next",
    "next_entry",
    "default",
    "clone",
    "hash",
    "eq",
    "cmp",
    "partial_cmp",
    "add",
    "sub",
    "mul",
    "div",
    "neg",
    "not",
    "deref",
    "drop",
    "index",
    "borrow",
    "as_ref",
    "as_mut",
    "into_iter",
    "from_iter",
    "from_str",
    "fmt",
    "to_string",
    "count",
    "len",
    "is_empty",
];

/// `MDEntryPx` -> `md_entry_px`, `serialNumber` -> `serial_number`.
pub fn snake(name: &str) -> String {
    let id = naming::identifier(name);
    let mut out = String::new();
    for c in naming::upper_snake(&id).to_lowercase().chars() {
        if c == '_' && (out.ends_with('_')) {
            continue;
        }
        out.push(c);
    }
    let trimmed = out.trim_end_matches('_');
    let mut s = if trimmed.is_empty() {
        "_x".to_owned()
    } else {
        trimmed.to_owned()
    };
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    if KEYWORDS.contains(&s.as_str()) {
        s.push('_');
    }
    s
}

/// A method name for a field: snake case, with `_` appended when reserved.
pub fn method(name: &str) -> String {
    let s = snake(name);
    if RESERVED_METHODS.contains(&s.as_str()) {
        format!("{s}_")
    } else {
        s
    }
}

/// `fuelFigures` -> `FUEL_FIGURES`.
pub fn upper(name: &str) -> String {
    snake(name).trim_end_matches('_').to_uppercase()
}

/// `fuelFigures` -> `FuelFigures`, `NITROUS` -> `Nitrous`, `new_order` -> `NewOrder`.
pub fn camel(name: &str) -> String {
    let id = naming::identifier(name);
    let mut out = String::new();
    for part in id.split('_').filter(|p| !p.is_empty()) {
        let all_upper = part.chars().all(|c| !c.is_lowercase()) && part.len() > 1;
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            if all_upper {
                out.extend(chars.flat_map(char::to_lowercase));
            } else {
                out.extend(chars);
            }
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

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
        assert_eq!(snake("MDEntryPx"), "md_entry_px");
        assert_eq!(snake("serialNumber"), "serial_number");
        assert_eq!(snake("type"), "type_");
        assert_eq!(method("next"), "next_");
        assert_eq!(upper("fuelFigures"), "FUEL_FIGURES");
        assert_eq!(camel("NITROUS"), "Nitrous");
        assert_eq!(camel("fuelFigures"), "FuelFigures");
        assert_eq!(camel("MDEntryType"), "MDEntryType");
        assert_eq!(camel("new_order"), "NewOrder");
        assert_eq!(camel("9x"), "V9x");
        assert_eq!(int_lit(255, PrimitiveType::UInt8), "u8::MAX");
        assert_eq!(int_lit(-128, PrimitiveType::Int8), "i8::MIN");
        assert_eq!(int_lit(3, PrimitiveType::Int8), "3_i8");
    }
}

//! TypeScript names for schema names (sable-names' rules, plus the names the support classes
//! use themselves), TypeScript literals and TSDoc comments.

use sable_ir::{ByteOrder, PrimitiveType, PrimitiveValue};

pub use sable_names::typescript::{camel, module, pascal};

/// Members the support base classes (and sets) already define: an accessor by one of these
/// names gets `_` appended.
const TAKEN: &[&str] = &[
    "actingBlockLength",
    "actingVersion",
    "blockLength",
    "bytes",
    "constructor",
    "count",
    "decode",
    "encodedLength",
    "hasNext",
    "index",
    "isEmpty",
    "json",
    "next",
    "present",
    "raw",
    "schemaId",
    "schemaVersion",
    "templateId",
    "toJson",
    "toString",
    "valueOf",
    "wrap",
    "wrapBody",
];

/// The accessor of a field, member, group, var data or set choice.
pub fn accessor(name: &str) -> String {
    let s = camel(name);
    if TAKEN.contains(&s.as_str()) || s.starts_with('_') {
        format!("{s}_")
    } else {
        s
    }
}

/// The field caching the flyweight of a composite field or member (`_cEngine`).
pub fn cache(name: &str) -> String {
    format!("_c{}", sable_names::common::upper_first(&accessor(name)))
}

/// A class or type name.
pub fn class_name(name: &str) -> String {
    pascal(name)
}

/// A constant: `fuelFigures` -> `FUEL_FIGURES`.
pub fn constant(name: &str) -> String {
    sable_names::common::screaming_snake(name)
}

/// A TypeScript string literal (double quotes; the file is UTF-8).
pub fn str_lit(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A TSDoc comment from a schema description, or `fallback` when it has none.
pub fn doc(description: Option<&str>, fallback: &str) -> String {
    let text = description
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| fallback.to_owned());
    let text = text.replace("*/", "*\\/").replace('@', "\\@");
    format!("/** {text} */")
}

/// Whether a 64-bit type (read as `bigint`).
pub fn is_big(p: PrimitiveType) -> bool {
    matches!(p, PrimitiveType::Int64 | PrimitiveType::UInt64)
}

/// The TypeScript type a primitive reads as.
pub fn ts_type(p: PrimitiveType) -> &'static str {
    match p {
        PrimitiveType::Char => "string",
        _ if is_big(p) => "bigint",
        _ => "number",
    }
}

/// The `DataView` method suffix of a primitive (`Uint16`, `BigInt64`, `Float64`).
pub fn view_type(p: PrimitiveType) -> &'static str {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => "Uint8",
        PrimitiveType::Int8 => "Int8",
        PrimitiveType::Int16 => "Int16",
        PrimitiveType::UInt16 => "Uint16",
        PrimitiveType::Int32 => "Int32",
        PrimitiveType::UInt32 => "Uint32",
        PrimitiveType::Int64 => "BigInt64",
        PrimitiveType::UInt64 => "BigUint64",
        PrimitiveType::Float => "Float32",
        PrimitiveType::Double => "Float64",
    }
}

/// `, true` for a little-endian multi-byte access (`DataView` reads big-endian by default).
pub fn le_arg(p: PrimitiveType, order: ByteOrder) -> &'static str {
    if p.size() > 1 && order != ByteOrder::BigEndian {
        ", true"
    } else {
        ""
    }
}

/// An expression reading a `p` at `pos` of view `view`.
pub fn read(view: &str, p: PrimitiveType, order: ByteOrder, pos: &str) -> String {
    format!("{view}.get{}({pos}{})", view_type(p), le_arg(p, order))
}

/// A statement writing `value` as a `p` at `pos` of view `view`.
pub fn write(view: &str, p: PrimitiveType, order: ByteOrder, pos: &str, value: &str) -> String {
    format!(
        "{view}.set{}({pos}, {value}{});",
        view_type(p),
        le_arg(p, order)
    )
}

/// The support module's reader or writer of an unsigned length or count (`readUint16LE`).
pub fn length_fn(kind: &str, p: PrimitiveType, order: ByteOrder) -> String {
    let t = match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => "Uint8",
        PrimitiveType::Int8 => "Int8",
        PrimitiveType::Int16 => "Int16",
        PrimitiveType::UInt16 => "Uint16",
        PrimitiveType::Int32 => "Int32",
        PrimitiveType::UInt32 => "Uint32",
        PrimitiveType::Int64 => "Int64",
        _ => "Uint64",
    };
    let o = if p.size() == 1 {
        ""
    } else if order == ByteOrder::BigEndian {
        "BE"
    } else {
        "LE"
    };
    format!("{kind}{t}{o}")
}

/// A TypeScript literal for a value of `p` (`123n` for 64-bit types).
pub fn lit(v: &PrimitiveValue, p: PrimitiveType) -> String {
    if p.is_float() {
        let f = v.as_f64().unwrap_or(f64::NAN);
        return if f.is_nan() {
            "NaN".to_owned()
        } else if f.is_infinite() {
            format!("{}Infinity", if f < 0.0 { "-" } else { "" })
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
    if is_big(p) {
        format!("{i}n")
    } else {
        i.to_string()
    }
}

/// Whether a character encoding name means UTF-8.
pub fn is_utf8(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8"))
}

/// `true` or `false`.
pub fn bool_lit(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// The largest value of an unsigned count or length type (signed: its positive maximum), as
/// a `number` (a 64-bit one capped at 2^53 - 1, the largest exact).
pub fn full_max(p: PrimitiveType) -> i128 {
    let max = match p {
        PrimitiveType::Int8 => 127,
        PrimitiveType::Int16 => 32767,
        PrimitiveType::Int32 => 2_147_483_647,
        PrimitiveType::Int64 => i128::from(i64::MAX),
        other => (1i128 << (8 * other.size())) - 1,
    };
    max.min((1i128 << 53) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_literals() {
        assert_eq!(accessor("count"), "count_");
        assert_eq!(accessor("fuelFigures"), "fuelFigures");
        assert_eq!(accessor("class"), "class_");
        assert_eq!(constant("fuelFigures"), "FUEL_FIGURES");
        assert_eq!(str_lit("a\"b\\\u{1}"), "\"a\\\"b\\\\\\x01\"");
        assert_eq!(doc(Some("a */ b"), "x"), "/** a *\\/ b */");
        assert_eq!(
            read("v", PrimitiveType::UInt16, ByteOrder::LittleEndian, "o"),
            "v.getUint16(o, true)"
        );
        assert_eq!(
            read("v", PrimitiveType::UInt16, ByteOrder::BigEndian, "o"),
            "v.getUint16(o)"
        );
        assert_eq!(
            lit(&PrimitiveValue::UInt(5), PrimitiveType::UInt64),
            "5n".to_owned()
        );
        assert_eq!(
            length_fn("read", PrimitiveType::UInt32, ByteOrder::BigEndian),
            "readUint32BE"
        );
    }
}

//! C# names for schema names, and C# literals, reads and writes for schema values.

use sable_ir::{ByteOrder, PrimitiveType, PrimitiveValue};

pub use sable_names::csharp::{namespace, pascal};

/// The C# type of a primitive (`char` is a byte: SBE chars are bytes).
pub fn cs_type(p: PrimitiveType) -> &'static str {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => "byte",
        PrimitiveType::Int8 => "sbyte",
        PrimitiveType::Int16 => "short",
        PrimitiveType::Int32 => "int",
        PrimitiveType::Int64 => "long",
        PrimitiveType::UInt16 => "ushort",
        PrimitiveType::UInt32 => "uint",
        PrimitiveType::UInt64 => "ulong",
        PrimitiveType::Float => "float",
        PrimitiveType::Double => "double",
    }
}

pub fn is_float(p: PrimitiveType) -> bool {
    matches!(p, PrimitiveType::Float | PrimitiveType::Double)
}

/// A C# constant expression of type `cs_type(p)` for `v`.
pub fn lit(v: &PrimitiveValue, p: PrimitiveType) -> String {
    let t = cs_type(p);
    if is_float(p) {
        let f = v.as_f64().unwrap_or(f64::NAN);
        return if f.is_nan() {
            format!("{t}.NaN")
        } else if f.is_infinite() {
            format!(
                "{t}.{}Infinity",
                if f < 0.0 { "Negative" } else { "Positive" }
            )
        } else if p == PrimitiveType::Float {
            let x = f as f32;
            if x == f32::MAX {
                "float.MaxValue".into()
            } else if x == -f32::MAX {
                "float.MinValue".into()
            } else {
                format!("{x:e}f")
            }
        } else if f == f64::MAX {
            "double.MaxValue".into()
        } else if f == -f64::MAX {
            "double.MinValue".into()
        } else {
            format!("{f:e}d")
        };
    }
    let i = match v {
        PrimitiveValue::Bytes { bytes, .. } => bytes.first().copied().map_or(0, i128::from),
        other => other.as_i128().unwrap_or(0),
    };
    int_lit(i, p)
}

/// An integer constant of the primitive's C# type (the type's MinValue and MaxValue by name).
pub fn int_lit(i: i128, p: PrimitiveType) -> String {
    let t = cs_type(p);
    let (min, max) = range(p);
    if i >= max && p != PrimitiveType::Char {
        format!("{t}.MaxValue")
    } else if i <= min && min != 0 {
        format!("{t}.MinValue")
    } else {
        let i = i.clamp(min, max);
        match p {
            PrimitiveType::UInt64 => format!("{i}UL"),
            PrimitiveType::UInt32 => format!("{i}U"),
            PrimitiveType::Int64 => format!("{i}L"),
            PrimitiveType::Int32 => i.to_string(),
            _ => format!("({t}){i}"),
        }
    }
}

/// The range of an integer primitive.
pub fn range(p: PrimitiveType) -> (i128, i128) {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => (0, u8::MAX.into()),
        PrimitiveType::Int8 => (i8::MIN.into(), i8::MAX.into()),
        PrimitiveType::Int16 => (i16::MIN.into(), i16::MAX.into()),
        PrimitiveType::Int32 => (i32::MIN.into(), i32::MAX.into()),
        PrimitiveType::Int64 => (i64::MIN.into(), i64::MAX.into()),
        PrimitiveType::UInt16 => (0, u16::MAX.into()),
        PrimitiveType::UInt32 => (0, u32::MAX.into()),
        PrimitiveType::UInt64 => (0, u64::MAX.into()),
        PrimitiveType::Float | PrimitiveType::Double => (i128::MIN, i128::MAX),
    }
}

fn endian(o: ByteOrder) -> &'static str {
    if o == ByteOrder::BigEndian {
        "BigEndian"
    } else {
        "LittleEndian"
    }
}

fn bp_name(p: PrimitiveType) -> &'static str {
    match p {
        PrimitiveType::Int16 => "Int16",
        PrimitiveType::UInt16 => "UInt16",
        PrimitiveType::Int32 | PrimitiveType::Float => "Int32",
        PrimitiveType::UInt32 => "UInt32",
        PrimitiveType::Int64 | PrimitiveType::Double => "Int64",
        _ => "UInt64",
    }
}

/// An expression reading primitive `p` from span `buf` at offset `at`.
pub fn read(buf: &str, at: &str, p: PrimitiveType, o: ByteOrder) -> String {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => format!("{buf}[{at}]"),
        PrimitiveType::Int8 => format!("(sbyte){buf}[{at}]"),
        PrimitiveType::Float => format!(
            "BitConverter.Int32BitsToSingle(BinaryPrimitives.ReadInt32{}({buf}.Slice({at})))",
            endian(o)
        ),
        PrimitiveType::Double => format!(
            "BitConverter.Int64BitsToDouble(BinaryPrimitives.ReadInt64{}({buf}.Slice({at})))",
            endian(o)
        ),
        _ => format!(
            "BinaryPrimitives.Read{}{}({buf}.Slice({at}))",
            bp_name(p),
            endian(o)
        ),
    }
}

/// A statement writing `v` (of the primitive's C# type) to span `buf` at offset `at`.
pub fn write(buf: &str, at: &str, p: PrimitiveType, o: ByteOrder, v: &str) -> String {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => format!("{buf}[{at}] = {v};"),
        PrimitiveType::Int8 => format!("{buf}[{at}] = (byte){v};"),
        PrimitiveType::Float => format!(
            "BinaryPrimitives.WriteInt32{}({buf}.Slice({at}), BitConverter.SingleToInt32Bits({v}));",
            endian(o)
        ),
        PrimitiveType::Double => format!(
            "BinaryPrimitives.WriteInt64{}({buf}.Slice({at}), BitConverter.DoubleToInt64Bits({v}));",
            endian(o)
        ),
        _ => format!(
            "BinaryPrimitives.Write{}{}({buf}.Slice({at}), {v});",
            bp_name(p),
            endian(o)
        ),
    }
}

/// A C# string literal.
pub fn str_lit(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (' '..='~').contains(&c) => o.push(c),
            c => {
                let mut b = [0u16; 2];
                for u in c.encode_utf16(&mut b) {
                    o.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    o.push('"');
    o
}

/// The canonical JSON text of a string (docs/json.md escaping).
pub fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            '\u{8}' => o.push_str("\\b"),
            '\u{c}' => o.push_str("\\f"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A statement appending `text` to the StringBuilder `sb`.
pub fn append(text: &str) -> String {
    if text.chars().count() == 1 {
        let c = text.chars().next().unwrap_or(' ');
        let lit = match c {
            '\'' => "'\\''".to_owned(),
            '\\' => "'\\\\'".to_owned(),
            c => format!("'{c}'"),
        };
        return format!("sb.Append({lit});");
    }
    format!("sb.Append({});", str_lit(text))
}

/// An XML doc comment from a schema description (or `fallback`).
pub fn doc(desc: Option<&str>, fallback: &str) -> String {
    let text = desc
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .unwrap_or(fallback);
    let text = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.len() <= 1 {
        format!(
            "/// <summary>{}</summary>",
            lines.first().copied().unwrap_or("")
        )
    } else {
        let mut o = String::from("/// <summary>\n");
        for l in lines {
            o.push_str(&format!("/// {l}\n"));
        }
        o.push_str("/// </summary>");
        o
    }
}

/// Whether a character encoding is UTF-8 (else one byte per character).
pub fn is_utf8(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| {
        let e = e.trim().to_ascii_uppercase();
        e == "UTF-8" || e == "UTF8"
    })
}

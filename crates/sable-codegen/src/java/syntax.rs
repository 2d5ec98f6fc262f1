//! Java spelling: names, types, literals and doc comments (shared by every part of the generator;
//! it imports none of them).

use sable_ir::{PrimitiveType, PrimitiveValue};

use crate::writer::CodeWriter;

pub use sable_names::java::{class_name, ident, prop};

/// The Java type a primitive reads as (the reference's mapping: unsigned types widen).
pub fn java_type(t: PrimitiveType) -> &'static str {
    use PrimitiveType::*;
    match t {
        Char | Int8 => "byte",
        Int16 | UInt8 => "short",
        Int32 | UInt16 => "int",
        Int64 | UInt32 | UInt64 => "long",
        Float => "float",
        Double => "double",
    }
}

/// `expr`, of the Java type of `t`, as an `int` (a cast only where it is a `long`).
pub fn as_int(t: PrimitiveType, expr: &str) -> String {
    match java_type(t) {
        "long" => format!("(int) {expr}"),
        _ => expr.to_owned(),
    }
}

/// A Java literal of the Java type of `t` holding `v`.
pub fn literal(t: PrimitiveType, v: &PrimitiveValue) -> String {
    use PrimitiveType::*;
    let int = || -> i128 {
        match v {
            PrimitiveValue::Bytes { bytes, .. } => i128::from(bytes.first().copied().unwrap_or(0)),
            other => other.as_i128().unwrap_or(0),
        }
    };
    match t {
        Char | Int8 => format!("(byte) {}", int() as i8),
        UInt8 | Int16 => format!("(short) {}", int() as i16),
        UInt16 | Int32 => format!("{}", int() as i32),
        Int64 | UInt32 | UInt64 => {
            let n = int() as i64;
            if n == i64::MIN {
                "Long.MIN_VALUE".to_owned()
            } else {
                format!("{n}L")
            }
        }
        Float => float_literal(v.as_f64().unwrap_or(0.0) as f32),
        Double => double_literal(v.as_f64().unwrap_or(0.0)),
    }
}

pub fn float_literal(f: f32) -> String {
    if f.is_nan() {
        "Float.NaN".to_owned()
    } else if f.is_infinite() {
        if f > 0.0 {
            "Float.POSITIVE_INFINITY"
        } else {
            "Float.NEGATIVE_INFINITY"
        }
        .to_owned()
    } else if f == f32::MAX {
        "Float.MAX_VALUE".to_owned()
    } else if f == -f32::MAX {
        "-Float.MAX_VALUE".to_owned()
    } else {
        format!("{f:?}f")
    }
}

pub fn double_literal(d: f64) -> String {
    if d.is_nan() {
        "Double.NaN".to_owned()
    } else if d.is_infinite() {
        if d > 0.0 {
            "Double.POSITIVE_INFINITY"
        } else {
            "Double.NEGATIVE_INFINITY"
        }
        .to_owned()
    } else if d == f64::MAX {
        "Double.MAX_VALUE".to_owned()
    } else if d == -f64::MAX {
        "-Double.MAX_VALUE".to_owned()
    } else {
        format!("{d:?}")
    }
}

/// A Java string literal.
pub fn string_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Unicode escapes are read before lexing, so control characters are octal escapes.
            c if (c as u32) < 0x20 => {
                out.push_str(&format!("\\{:03o}", c as u32));
            }
            c if (c as u32) > 0x7e => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether the character encoding is UTF-8 (any spelling the JSON form accepts).
pub fn is_utf8(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| {
        let e = e.to_ascii_uppercase();
        e == "UTF-8" || e == "UTF8"
    })
}

/// Writes a javadoc comment: the description (escaped for javadoc) then extra lines.
pub fn javadoc(w: &mut CodeWriter, description: Option<&str>, extra: &[String]) {
    let mut lines: Vec<String> = Vec::new();
    if let Some(d) = description.map(str::trim).filter(|d| !d.is_empty()) {
        for l in d.lines() {
            lines.push(escape_javadoc(l.trim()));
        }
    }
    if !lines.is_empty() && extra.first().is_some_and(|e| !e.starts_with('@')) {
        lines.push("<p>".to_owned());
    }
    for l in extra {
        // A blank line before the first tag.
        if l.starts_with('@')
            && lines
                .last()
                .is_some_and(|last| !last.is_empty() && !last.starts_with('@'))
        {
            lines.push(String::new());
        }
        lines.push(l.clone());
    }
    if lines.is_empty() {
        return;
    }
    w.line("/**");
    for l in lines {
        if l.is_empty() {
            w.line(" *");
        } else {
            w.line(format!(" * {l}"));
        }
    }
    w.line(" */");
}

/// A javadoc of `text`: one line when it is one line, else a block (`\n\n` separating
/// paragraphs and tags).
pub fn doc(w: &mut CodeWriter, text: &str) {
    if !text.contains('\n') {
        w.line(format!("/** {text} */"));
        return;
    }
    w.line("/**");
    for l in text.lines() {
        if l.is_empty() {
            w.line(" *");
        } else {
            w.line(format!(" * {l}"));
        }
    }
    w.line(" */");
}

pub fn escape_javadoc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace("*/", "*&#47;")
        .replace('@', "&#64;")
        .replace("\\u", "\\\\u")
}

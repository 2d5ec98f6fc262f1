//! The canonical JSON (docs/json.md) the generated `Display`s write: constants' text and statements.

#[allow(clippy::wildcard_imports)]
use super::*;

/// The JSON text of a constant primitive's value.
pub(crate) fn const_json(p: &Primitive, v: &PrimitiveValue) -> String {
    match v {
        PrimitiveValue::Bytes { bytes, .. } => text_json(bytes, p.character_encoding.as_deref()),
        PrimitiveValue::Int(i) if p.primitive_type == PrimitiveType::Char => {
            let b = u8::try_from(*i).unwrap_or(0);
            if b == 0 {
                "\"\"".to_owned()
            } else {
                text_json(&[b], p.character_encoding.as_deref())
            }
        }
        PrimitiveValue::Float(f) => float_json(*f, p.primitive_type),
        other => other.as_i128().unwrap_or(0).to_string(),
    }
}

pub(super) fn text_json(bytes: &[u8], encoding: Option<&str>) -> String {
    let bytes = match bytes.iter().position(|&b| b == 0) {
        Some(n) => &bytes[..n],
        None => bytes,
    };
    if is_utf8(encoding) {
        json_str(&String::from_utf8_lossy(bytes))
    } else {
        json_str(&bytes.iter().map(|&b| char::from(b)).collect::<String>())
    }
}

/// Canonical JSON of a float constant (the same layout the generated writers use).
pub(crate) fn float_json(f: f64, p: PrimitiveType) -> String {
    if f.is_nan() {
        return "\"NaN\"".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "\"Infinity\"".into()
        } else {
            "\"-Infinity\"".into()
        };
    }
    let (e_text, lo, hi) = if p == PrimitiveType::Float {
        (format!("{:e}", f as f32), -6, 12)
    } else {
        (format!("{f:e}"), -5, 15)
    };
    let (neg, t) = match e_text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, e_text.as_str()),
    };
    let (m, e) = t.split_once('e').unwrap_or((t, "0"));
    let exp: i32 = e.parse().unwrap_or(0);
    let digits: String = m.chars().filter(|c| *c != '.').collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if exp < lo || exp > hi {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{exp}");
    } else if exp >= 0 {
        let int_len = exp as usize + 1;
        if digits.len() <= int_len {
            out.push_str(&digits);
            out.push_str(&"0".repeat(int_len - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        }
    } else {
        out.push_str("0.");
        out.push_str(&"0".repeat((-exp - 1) as usize));
        out.push_str(&digits);
    }
    out
}

/// A statement (a line) writing `text` with `f.write_str`.
pub(super) fn ws(text: &str) -> String {
    format!("f.write_str({})?;\n", str_lit(text))
}

/// The JSON statements of a group or var data member: its `key`, then `inner` (writing the
/// value), or `null` when the acting version is older than `since`.
pub(super) fn versioned_member(key: &str, since: i32, inner: &str) -> String {
    let key = ws(&format!("{key}:"));
    if since > 0 {
        format!(
            "{key}if self.version < {since} {{\nf.write_str(\"null\")?;\n}} else {{\n{inner}\n}}"
        )
    } else {
        format!("{key}{inner}")
    }
}

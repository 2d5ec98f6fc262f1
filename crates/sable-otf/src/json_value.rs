//! Decoded values ([`Value`]) written as canonical JSON (`docs/json.md`), by the writers of
//! `write.rs`: shared by the [`crate::json::JsonVisitor`], the compiled program and the text
//! printer.

use crate::decode::{Number, Value};
use crate::readable::{write_decimal, Readable};
use crate::write::{
    write_f32, write_f64, write_hex_str, write_i64, write_json_str, write_text, write_u64, Charset,
    Sink,
};

#[inline]
pub(crate) fn write_enum(out: &mut impl Sink, name: Option<&str>, raw: Number) {
    match name {
        Some(n) => write_json_str(out, n.as_bytes(), Charset::Utf8),
        None => {
            out.put(b"{\"unknown\":");
            match raw {
                Number::Int(i) => out.put(itoa::Buffer::new().format(i).as_bytes()),
                Number::UInt(u) => out.put(itoa::Buffer::new().format(u).as_bytes()),
            }
            out.push(b'}');
        }
    }
}

/// Appends the JSON of `value`. `padded`: a [`Value::Text`] ends at its first NUL (a char
/// array), else every byte is text (var data).
#[inline(always)]
pub(crate) fn write_value(out: &mut impl Sink, value: Value<'_>, padded: bool) {
    match value {
        Value::Null | Value::Absent => out.put(b"null"),
        Value::Int(i) => write_i64(out, i),
        Value::UInt(u) => write_u64(out, u),
        Value::F32(f) => write_f32(out, f),
        Value::F64(f) => write_f64(out, f),
        Value::Text { bytes, charset } => write_text(out, bytes, charset, padded),
        Value::Bytes(bytes) => write_hex_str(out, bytes),
        Value::Array(a) => {
            out.push(b'[');
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(out, e, padded);
            }
            out.push(b']');
        }
        Value::Enum { name, raw } => write_enum(out, name, raw),
        Value::Set { bits, choices } => {
            out.push(b'[');
            let mut first = true;
            let mut known = 0u64;
            for c in choices {
                let bit = 1u64.checked_shl(c.bit()).unwrap_or(0);
                known |= bit;
                if bits & bit != 0 {
                    if !first {
                        out.push(b',');
                    }
                    first = false;
                    out.put(&c.json);
                }
            }
            let mut unknown = bits & !known;
            while unknown != 0 {
                let bit = unknown.trailing_zeros();
                unknown &= unknown - 1;
                if !first {
                    out.push(b',');
                }
                first = false;
                out.put(itoa::Buffer::new().format(bit).as_bytes());
            }
            out.push(b']');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: Value<'_>) -> String {
        let mut out = Vec::new();
        write_value(&mut out, v, true);
        String::from_utf8(out).unwrap()
    }

    fn next_up32(f: f32) -> f32 {
        f32::from_bits(f.to_bits() + 1)
    }

    /// The integral fast path prints what ryu prints.
    #[test]
    fn integral_floats_match_ryu() {
        let mut values: Vec<f64> = (-3000..3000).map(f64::from).collect();
        for e in 0..17 {
            let p = 10f64.powi(e);
            values.extend([p, -p, p - 1.0, p + 1.0, 2f64.powi(e * 3)]);
        }
        for f in values {
            let g = f as f32;
            let want32 = if g.is_finite() {
                ryu::Buffer::new().format_finite(g).to_owned()
            } else {
                continue;
            };
            assert_eq!(text(Value::F32(g)), want32, "{g}");
            assert_eq!(
                text(Value::F64(f)),
                ryu::Buffer::new().format_finite(f),
                "{f}"
            );
        }
        assert_eq!(text(Value::F64(-0.0)), "-0.0");
        assert_eq!(text(Value::F32(f32::NAN)), "\"NaN\"");
        assert_eq!(text(Value::F64(f64::NEG_INFINITY)), "\"-Infinity\"");
        assert_eq!(text(Value::F64(1e300)), "1e300");
        assert_eq!(text(Value::F32(0.1)), "0.1");
        for i in (-20_000i64..20_000).chain([i64::MIN, i64::MAX, 99_999, 100_000]) {
            assert_eq!(text(Value::Int(i)), i.to_string());
        }
        // Short decimals without ryu: every one- and two-digit decimal in range, and their
        // neighbours.
        let mut x = 0u64;
        while x < 7_000_000 {
            for v in [x as f64 / 100.0, x as f64 / 10.0] {
                for g in [v as f32, next_up32(v as f32), -(v as f32)] {
                    assert_eq!(text(Value::F32(g)), ryu::Buffer::new().format_finite(g));
                }
                for g in [v, f64::from_bits(v.to_bits() + 1), -v, v * 613.0] {
                    assert_eq!(text(Value::F64(g)), ryu::Buffer::new().format_finite(g));
                }
            }
            x += if x < 200_000 { 1 } else { 7 };
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2_000_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let g = f32::from_bits(seed as u32);
            if g.is_finite() {
                assert_eq!(text(Value::F32(g)), ryu::Buffer::new().format_finite(g));
            }
            let h = f64::from_bits(seed);
            if h.is_finite() {
                assert_eq!(text(Value::F64(h)), ryu::Buffer::new().format_finite(h));
            }
            let s = (seed >> 40) as f32 / 64.0;
            assert_eq!(text(Value::F32(s)), ryu::Buffer::new().format_finite(s));
        }
        let powers = (1..20).flat_map(|e| {
            let p = 10u64.pow(e);
            [p - 1, p, p + 1, p * 15 / 10]
        });
        for u in (0u64..20_000).chain([u64::MAX]).chain(powers) {
            assert_eq!(text(Value::UInt(u)), u.to_string());
        }
    }
}

/// A decimal composite's members, gathered while they are reported, for its readable form.
#[derive(Debug, Default)]
pub(crate) struct DecimalParts {
    /// `Some(None)` once the mantissa is seen null.
    mantissa: Option<Option<i128>>,
    exponent: Option<i128>,
}

impl DecimalParts {
    /// Takes the member `name` holding `value`.
    pub(crate) fn member(&mut self, name: &str, value: &Value<'_>) {
        let n = integer_of(value);
        match name {
            "mantissa" => self.mantissa = Some(n),
            "exponent" => self.exponent = n,
            _ => {}
        }
    }

    /// Writes the decimal (as a JSON string when `quoted`), or `null` when the mantissa or the
    /// exponent is null (or absent).
    pub(crate) fn write(&self, out: &mut Vec<u8>, quoted: bool) {
        match (self.mantissa, self.exponent) {
            (Some(Some(m)), Some(e)) => {
                let e = i64::try_from(e).unwrap_or(if e < 0 { i64::MIN } else { i64::MAX });
                if quoted {
                    out.push(b'"');
                }
                write_decimal(out, m, e);
                if quoted {
                    out.push(b'"');
                }
            }
            _ => out.extend_from_slice(b"null"),
        }
    }
}

/// Writes the readable form of an integer `value` of a timestamp or date field (as a JSON
/// string when `quoted`); `false` (nothing written) when it has none.
pub(crate) fn write_readable_integer(
    out: &mut Vec<u8>,
    readable: Readable,
    value: &Value<'_>,
    quoted: bool,
) -> bool {
    let Some(n) = integer_of(value) else {
        return false;
    };
    let start = out.len();
    if quoted {
        out.push(b'"');
    }
    if !readable.write_integer(out, n) {
        out.truncate(start);
        return false;
    }
    if quoted {
        out.push(b'"');
    }
    true
}

fn integer_of(value: &Value<'_>) -> Option<i128> {
    match value {
        Value::Int(i) => Some(i128::from(*i)),
        Value::UInt(u) => Some(i128::from(*u)),
        _ => None,
    }
}

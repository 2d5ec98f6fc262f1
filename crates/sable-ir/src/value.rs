//! Constant, minimum, maximum and null values as the IR carries them.

use std::fmt;

use crate::PrimitiveType;

/// A value in the IR. Its [`Display`](fmt::Display) form is the text the reference implementation
/// prints (its `PrimitiveValue.toString()`): integers in decimal, floating point as Java's
/// `Double.toString`, byte arrays as their characters decoded in their character encoding.
/// (One difference: an unsigned 64-bit value above `i64::MAX` prints as itself, where the
/// reference, which keeps it in a Java `long`, prints it negative.)
///
/// `.sbeir` files hold values in binary, not as text: see [`crate::sbeir`].
#[derive(Debug, Clone, PartialEq)]
pub enum PrimitiveValue {
    /// A signed integer, or a `char` as its code.
    Int(i64),
    /// An unsigned integer.
    UInt(u64),
    /// A `float` or `double` (a `float` widened exactly).
    Float(f64),
    /// A character array (a constant string), with its character encoding.
    Bytes {
        bytes: Vec<u8>,
        character_encoding: String,
    },
}

impl PrimitiveValue {
    /// Parses a value written in a schema or `.sbeir` file as a value of `primitive_type`.
    ///
    /// A `char` value of one character is its code; of more characters (a constant char
    /// array) its bytes. Integers are decimal; `0x` hex is accepted as the reference does not,
    /// because schemas in the wild use it. Floating point accepts `NaN` and `Infinity`.
    pub fn parse(text: &str, primitive_type: PrimitiveType) -> Result<PrimitiveValue, String> {
        let trimmed = text.trim();
        match primitive_type {
            PrimitiveType::Char => {
                if text.chars().count() == 1 {
                    Ok(PrimitiveValue::Int(
                        text.chars().next().map_or(0, |c| c as i64),
                    ))
                } else {
                    Ok(PrimitiveValue::Bytes {
                        bytes: text.as_bytes().to_vec(),
                        character_encoding: "US-ASCII".to_owned(),
                    })
                }
            }
            PrimitiveType::Float | PrimitiveType::Double => parse_float(trimmed)
                .map(|v| {
                    if primitive_type == PrimitiveType::Float {
                        PrimitiveValue::Float(f64::from(v as f32))
                    } else {
                        PrimitiveValue::Float(v)
                    }
                })
                .ok_or_else(|| format!("'{text}' is not a valid {primitive_type} value")),
            t if t.is_unsigned() => {
                let v = parse_integer::<u64>(trimmed)
                    .ok_or_else(|| format!("'{text}' is not a valid {t} value"))?;
                let max = match t {
                    PrimitiveType::UInt8 => u64::from(u8::MAX),
                    PrimitiveType::UInt16 => u64::from(u16::MAX),
                    PrimitiveType::UInt32 => u64::from(u32::MAX),
                    _ => u64::MAX,
                };
                if v > max {
                    return Err(format!("{text} is out of range for {t} (0 to {max})"));
                }
                Ok(PrimitiveValue::UInt(v))
            }
            t => {
                let v = parse_integer::<i64>(trimmed)
                    .ok_or_else(|| format!("'{text}' is not a valid {t} value"))?;
                let (min, max) = match t {
                    PrimitiveType::Int8 => (i64::from(i8::MIN), i64::from(i8::MAX)),
                    PrimitiveType::Int16 => (i64::from(i16::MIN), i64::from(i16::MAX)),
                    PrimitiveType::Int32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
                    _ => (i64::MIN, i64::MAX),
                };
                if v < min || v > max {
                    return Err(format!("{text} is out of range for {t} ({min} to {max})"));
                }
                Ok(PrimitiveValue::Int(v))
            }
        }
    }

    /// The value as a signed 128-bit integer, for range comparisons; `None` for floats and bytes.
    pub fn as_i128(&self) -> Option<i128> {
        match self {
            PrimitiveValue::Int(v) => Some(i128::from(*v)),
            PrimitiveValue::UInt(v) => Some(i128::from(*v)),
            _ => None,
        }
    }

    /// The value as a double, for range comparisons; `None` for bytes.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            PrimitiveValue::Int(v) => Some(*v as f64),
            PrimitiveValue::UInt(v) => Some(*v as f64),
            PrimitiveValue::Float(v) => Some(*v),
            PrimitiveValue::Bytes { .. } => None,
        }
    }
}

trait FromRadix: Sized {
    fn from_str_radix(s: &str, radix: u32) -> Option<Self>;
}

impl FromRadix for u64 {
    fn from_str_radix(s: &str, radix: u32) -> Option<Self> {
        u64::from_str_radix(s, radix).ok()
    }
}

impl FromRadix for i64 {
    fn from_str_radix(s: &str, radix: u32) -> Option<Self> {
        i64::from_str_radix(s, radix).ok()
    }
}

fn parse_integer<T: FromRadix>(text: &str) -> Option<T> {
    let text = text.strip_prefix('+').unwrap_or(text);
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return T::from_str_radix(hex, 16);
    }
    T::from_str_radix(text, 10)
}

fn parse_float(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "Infinity" | "+Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => {
            // Java accepts a trailing type suffix (`1.5f`, `2d`); so do we.
            let text = text.trim_end_matches(['f', 'F', 'd', 'D']);
            text.parse::<f64>().ok()
        }
    }
}

impl fmt::Display for PrimitiveValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrimitiveValue::Int(v) => write!(f, "{v}"),
            PrimitiveValue::UInt(v) => write!(f, "{v}"),
            PrimitiveValue::Float(v) => f.write_str(&java_double_to_string(*v)),
            PrimitiveValue::Bytes {
                bytes,
                character_encoding,
            } => f.write_str(&decode_text(bytes, character_encoding)),
        }
    }
}

/// Bytes to text as Java's `new String(bytes, charset)` decodes them: US-ASCII maps every byte
/// above 0x7f to U+FFFD, ISO-8859-1 maps each byte to the code point of the same value, and
/// anything else (UTF-8 and unknown names) decodes as UTF-8 with U+FFFD for malformed sequences.
fn decode_text(bytes: &[u8], character_encoding: &str) -> String {
    let name = character_encoding.to_ascii_uppercase().replace('_', "-");
    match name.as_str() {
        "US-ASCII" | "ASCII" | "ISO646-US" => bytes
            .iter()
            .map(|&b| {
                if b.is_ascii() {
                    char::from(b)
                } else {
                    '\u{fffd}'
                }
            })
            .collect(),
        "ISO-8859-1" | "ISO8859-1" | "LATIN1" | "ISO-LATIN-1" => {
            bytes.iter().map(|&b| char::from(b)).collect()
        }
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// Formats a double as Java's `Double.toString` does: `NaN`, `Infinity`, plain decimal with at
/// least one fraction digit for 1e-3 <= |v| < 1e7, otherwise `d.dddE[-]n`; always the shortest
/// digits that round-trip.
pub fn java_double_to_string(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0.0" } else { "0.0" }.to_owned();
    }
    // Rust's `{:e}` gives the shortest round-trip digits as `d.ddde[-]n`.
    let sci = format!("{:e}", v.abs());
    let (mantissa, exponent) = sci.split_once('e').expect("exponent in {:e} output");
    let exponent: i32 = exponent.parse().expect("integer exponent");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if v < 0.0 { "-" } else { "" };
    if (-3..7).contains(&exponent) {
        let point = exponent + 1;
        let text = if point <= 0 {
            format!("0.{}{}", "0".repeat((-point) as usize), digits)
        } else if point as usize >= digits.len() {
            format!("{}{}.0", digits, "0".repeat(point as usize - digits.len()))
        } else {
            format!(
                "{}.{}",
                &digits[..point as usize],
                &digits[point as usize..]
            )
        };
        format!("{sign}{text}")
    } else {
        let fraction = if digits.len() > 1 { &digits[1..] } else { "0" };
        format!("{sign}{}.{}E{}", &digits[..1], fraction, exponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_print_as_java_does() {
        for (v, text) in [
            (1.0, "1.0"),
            (0.5, "0.5"),
            (100.0, "100.0"),
            (1234567.0, "1234567.0"),
            (1.0e7, "1.0E7"),
            (0.001, "0.001"),
            (0.0001, "1.0E-4"),
            (-2.5e-10, "-2.5E-10"),
            (f64::MAX, "1.7976931348623157E308"),
            (f64::from(f32::MAX), "3.4028234663852886E38"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
            (0.0, "0.0"),
        ] {
            assert_eq!(java_double_to_string(v), text, "{v}");
        }
    }

    #[test]
    fn byte_arrays_print_decoded_in_their_character_encoding() {
        let text = |bytes: &[u8], encoding: &str| {
            PrimitiveValue::Bytes {
                bytes: bytes.to_vec(),
                character_encoding: encoding.to_owned(),
            }
            .to_string()
        };
        let utf8 = "h\u{e9}llo".as_bytes();
        assert_eq!(text(utf8, "UTF-8"), "h\u{e9}llo");
        // As Java's US-ASCII decoder: one replacement character per byte above 0x7f.
        assert_eq!(text(utf8, "US-ASCII"), "h\u{fffd}\u{fffd}llo");
        assert_eq!(text(utf8, "ASCII"), "h\u{fffd}\u{fffd}llo");
        assert_eq!(text(&[0x68, 0xe9], "ISO-8859-1"), "h\u{e9}");
        assert_eq!(text(b"Petrol\0", "US-ASCII"), "Petrol\0");
        assert_eq!(text(&[0x68, 0xff], "UTF-8"), "h\u{fffd}");
    }

    #[test]
    fn parses_by_type_with_range_checks() {
        assert_eq!(
            PrimitiveValue::parse("255", PrimitiveType::UInt8),
            Ok(PrimitiveValue::UInt(255))
        );
        assert!(PrimitiveValue::parse("256", PrimitiveType::UInt8).is_err());
        assert!(PrimitiveValue::parse("-1", PrimitiveType::UInt64).is_err());
        assert_eq!(
            PrimitiveValue::parse("-128", PrimitiveType::Int8),
            Ok(PrimitiveValue::Int(-128))
        );
        assert_eq!(
            PrimitiveValue::parse("A", PrimitiveType::Char),
            Ok(PrimitiveValue::Int(65))
        );
        assert_eq!(
            PrimitiveValue::parse("0x10", PrimitiveType::Int32),
            Ok(PrimitiveValue::Int(16))
        );
        assert!(matches!(
            PrimitiveValue::parse("Petrol", PrimitiveType::Char),
            Ok(PrimitiveValue::Bytes { .. })
        ));
        assert!(PrimitiveValue::parse("abc", PrimitiveType::Int16).is_err());
    }
}

// The codec support's text and canonical JSON (codec_support.rs includes this file, inside
// `sbe_support`): char arrays and var data as text, and the JSON value writers (strings,
// hex, floats laid out as Ryu does, sets).

/// Text as `&str`: UTF-8 checked for UTF-8, plain ASCII for the one-byte encodings.
pub fn text(
    bytes: &[u8],
    utf8: bool,
    offset: usize,
    field: FieldPath,
) -> Result<&str, DecodeError> {
    let invalid = DecodeError {
        offset,
        field,
        kind: DecodeErrorKind::InvalidText,
    };
    if !utf8 && !bytes.is_ascii() {
        return Err(invalid);
    }
    core::str::from_utf8(bytes).map_err(|_| invalid)
}

/// The bytes before the first NUL.
pub fn until_nul(bytes: &[u8]) -> &[u8] {
    match bytes.iter().position(|&b| b == 0) {
        Some(n) => &bytes[..n],
        None => bytes,
    }
}

/// A writer of JSON string content: what is written to it goes to the formatter escaped.
pub struct Escaped<'f, 'g>(pub &'f mut fmt::Formatter<'g>);

impl fmt::Write for Escaped<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            escape(self.0, c)?;
        }
        Ok(())
    }
}

/// One character of a JSON string, escaped as the canonical JSON does.
fn escape(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    match c {
        '"' => f.write_str("\\\""),
        '\\' => f.write_str("\\\\"),
        '\n' => f.write_str("\\n"),
        '\r' => f.write_str("\\r"),
        '\t' => f.write_str("\\t"),
        '\u{8}' => f.write_str("\\b"),
        '\u{c}' => f.write_str("\\f"),
        c if u32::from(c) < 0x20 => write!(f, "\\u{:04x}", u32::from(c)),
        c => f.write_char(c),
    }
}

fn escaped(f: &mut fmt::Formatter<'_>, chars: impl Iterator<Item = char>) -> fmt::Result {
    f.write_char('"')?;
    for c in chars {
        escape(f, c)?;
    }
    f.write_char('"')
}

/// A JSON string of `s`.
pub fn w_str(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    escaped(f, s.chars())
}

/// Lowercase hex in quotes.
pub fn w_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    f.write_char('"')?;
    for b in bytes {
        write!(f, "{b:02x}")?;
    }
    f.write_char('"')
}

/// Text in a character encoding (UTF-8, else one character per byte); invalid UTF-8 as
/// `{"hex":...}` of `all`.
pub fn w_text(f: &mut fmt::Formatter<'_>, text: &[u8], all: &[u8], utf8: bool) -> fmt::Result {
    if utf8 {
        match core::str::from_utf8(text) {
            Ok(s) => w_str(f, s),
            Err(_) => {
                f.write_str("{\"hex\":")?;
                w_hex(f, all)?;
                f.write_char('}')
            }
        }
    } else {
        escaped(f, text.iter().map(|&b| char::from(b)))
    }
}

/// A char array: the bytes up to the first NUL, as text.
pub fn w_chars(f: &mut fmt::Formatter<'_>, bytes: &[u8], utf8: bool) -> fmt::Result {
    w_text(f, until_nul(bytes), bytes, utf8)
}

/// A stack buffer for number text.
struct Digits {
    b: [u8; 48],
    n: usize,
}

impl fmt::Write for Digits {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.n + s.len();
        match self.b.get_mut(self.n..end) {
            Some(d) => {
                d.copy_from_slice(s.as_bytes());
                self.n = end;
                Ok(())
            }
            None => Err(fmt::Error),
        }
    }
}

/// Lays out `{:e}` text (shortest digits) as Ryu does: plain decimal when the exponent lies
/// in `lo..=hi`, else `d[.ddd]e[-]E`.
fn layout(f: &mut fmt::Formatter<'_>, e_text: &[u8], lo: i32, hi: i32) -> fmt::Result {
    let (neg, t) = match e_text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, e_text),
    };
    let e_at = t.iter().position(|&b| b == b'e').unwrap_or(t.len());
    let (mantissa, exp_text) = t.split_at(e_at);
    let mut exp: i32 = 0;
    let mut exp_neg = false;
    for &b in exp_text.iter().skip(1) {
        if b == b'-' {
            exp_neg = true;
        } else {
            exp = exp * 10 + i32::from(b - b'0');
        }
    }
    if exp_neg {
        exp = -exp;
    }
    let mut digits = [0u8; 40];
    let mut nd = 0;
    for &b in mantissa {
        if b != b'.' && nd < digits.len() {
            digits[nd] = b;
            nd += 1;
        }
    }
    let digits = &digits[..nd];
    if neg {
        f.write_char('-')?;
    }
    if exp < lo || exp > hi {
        let (first, rest) = digits.split_at(nd.min(1));
        f.write_str(s(first))?;
        if !rest.is_empty() {
            f.write_char('.')?;
            f.write_str(s(rest))?;
        }
        write!(f, "e{exp}")
    } else if exp >= 0 {
        let int_len = usize::try_from(exp).unwrap_or(0) + 1;
        if nd <= int_len {
            f.write_str(s(digits))?;
            for _ in nd..int_len {
                f.write_char('0')?;
            }
            f.write_str(".0")
        } else {
            let (int, frac) = digits.split_at(int_len);
            f.write_str(s(int))?;
            f.write_char('.')?;
            f.write_str(s(frac))
        }
    } else {
        f.write_str("0.")?;
        for _ in 0..(-exp - 1) {
            f.write_char('0')?;
        }
        f.write_str(s(digits))
    }
}

/// A `double` as canonical JSON.
pub fn w_f64(f: &mut fmt::Formatter<'_>, v: f64) -> fmt::Result {
    if v.is_nan() {
        return f.write_str("\"NaN\"");
    }
    if v.is_infinite() {
        return f.write_str(if v > 0.0 {
            "\"Infinity\""
        } else {
            "\"-Infinity\""
        });
    }
    let mut d = Digits { b: [0; 48], n: 0 };
    write!(d, "{v:e}")?;
    layout(f, &d.b[..d.n], -5, 15)
}

/// A `float` as canonical JSON.
pub fn w_f32(f: &mut fmt::Formatter<'_>, v: f32) -> fmt::Result {
    if v.is_nan() {
        return f.write_str("\"NaN\"");
    }
    if v.is_infinite() {
        return f.write_str(if v > 0.0 {
            "\"Infinity\""
        } else {
            "\"-Infinity\""
        });
    }
    let mut d = Digits { b: [0; 48], n: 0 };
    write!(d, "{v:e}")?;
    layout(f, &d.b[..d.n], -6, 12)
}

fn s(d: &[u8]) -> &str {
    core::str::from_utf8(d).unwrap_or("")
}

/// A set's JSON array: the names of the bits set in choice order, then unnamed bits by number.
pub fn w_set(f: &mut fmt::Formatter<'_>, bits: u64, choices: &[(&str, u32)]) -> fmt::Result {
    f.write_char('[')?;
    let mut first = true;
    let mut named = 0u64;
    for &(name, bit) in choices {
        named |= 1u64 << bit;
        if bits & (1u64 << bit) != 0 {
            if !first {
                f.write_char(',')?;
            }
            first = false;
            w_str(f, name)?;
        }
    }
    for bit in 0..64u32 {
        if bits & !named & (1u64 << bit) != 0 {
            if !first {
                f.write_char(',')?;
            }
            first = false;
            write!(f, "{bit}")?;
        }
    }
    f.write_char(']')
}

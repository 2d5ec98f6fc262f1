//! The canonical JSON form of a message (`docs/json.md`), printed by a [`Visitor`].
//!
//! [`JsonPrinter`] decodes a message and appends its JSON object to a caller's `Vec<u8>`, which
//! can be reused from one message to the next (nothing else is allocated per message). When
//! decoding fails midway, what was decoded is kept: the printer closes what it had opened and
//! adds a top-level `"error":{"offset":N,"message":"..."}` key, so the output is always one
//! valid JSON object.

use sable_ir::Ir;

use crate::decode::{
    Charset, DecodeError, Decoder, Error, FieldInfo, GroupHeader, Header, MessageInfo, Number,
    Value, Visitor,
};

/// Decodes messages of one schema into canonical JSON.
#[derive(Debug)]
pub struct JsonPrinter {
    decoder: Decoder,
}

impl JsonPrinter {
    /// A printer for the messages of `ir`.
    pub fn new(ir: &Ir) -> Result<JsonPrinter, Error> {
        Ok(JsonPrinter {
            decoder: Decoder::new(ir)?,
        })
    }

    /// A printer using `decoder`.
    pub fn from_decoder(decoder: Decoder) -> JsonPrinter {
        JsonPrinter { decoder }
    }

    /// The decoder.
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Decodes the message whose header starts at `buf[0]` and appends its JSON object to `out`
    /// (no newline); returns the bytes the message takes. On error `out` still receives one
    /// complete JSON object: what was decoded, and an `error` key.
    pub fn print(&self, buf: &[u8], out: &mut Vec<u8>) -> Result<usize, DecodeError> {
        let mut w = JsonVisitor::new(out);
        match self.decoder.decode(buf, &mut w) {
            Ok(n) => Ok(n),
            Err(e) => {
                w.finish_with_error(&e);
                Err(e)
            }
        }
    }
}

/// The [`Visitor`] that writes canonical JSON into a `Vec<u8>`.
#[derive(Debug)]
pub struct JsonVisitor<'o> {
    out: &'o mut Vec<u8>,
    comma: bool,
    /// Open containers, innermost in bit 0: 1 for an array, 0 for an object.
    stack: u128,
    depth: usize,
    /// Containers beyond 128 levels.
    deep: Vec<bool>,
}

impl<'o> JsonVisitor<'o> {
    /// A visitor appending to `out`.
    pub fn new(out: &'o mut Vec<u8>) -> JsonVisitor<'o> {
        JsonVisitor {
            out,
            comma: false,
            stack: 0,
            depth: 0,
            deep: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, array: bool) {
        if self.depth >= 128 {
            self.deep.push(self.stack >> 127 != 0);
        }
        self.stack = (self.stack << 1) | u128::from(array);
        self.depth += 1;
        self.out.push(if array { b'[' } else { b'{' });
        self.comma = false;
    }

    #[inline]
    fn pop(&mut self) {
        if self.depth == 0 {
            return;
        }
        let array = self.stack & 1 == 1;
        self.stack >>= 1;
        self.depth -= 1;
        if self.depth >= 128 {
            let top = self.deep.pop().unwrap_or(false);
            self.stack |= u128::from(top) << 127;
        }
        self.out.push(if array { b']' } else { b'}' });
        self.comma = true;
    }

    #[inline]
    fn key(&mut self, info: &FieldInfo) {
        if self.comma {
            self.out.push(b',');
        }
        match &info.json_key_chunk {
            // A fixed-size copy compiles to a few vector moves rather than a call to memcpy.
            Some(chunk) => {
                let len = self.out.len() + info.json_key.len();
                self.out.extend_from_slice(chunk);
                self.out.truncate(len);
            }
            None => self.out.extend_from_slice(&info.json_key),
        }
        self.comma = true;
    }

    /// Closes what is open but the top-level object and adds the `error` key (opening an object
    /// first when nothing was written).
    pub fn finish_with_error(&mut self, e: &DecodeError) {
        while self.depth > 1 {
            self.pop();
        }
        if self.depth == 0 {
            self.push(false);
        } else {
            self.out.push(b',');
        }
        self.out.extend_from_slice(b"\"error\":{\"offset\":");
        self.out
            .extend_from_slice(itoa::Buffer::new().format(e.offset()).as_bytes());
        self.out.extend_from_slice(b",\"message\":");
        write_json_str(self.out, e.message().as_bytes(), Charset::Utf8);
        self.out.push(b'}');
        self.pop();
    }
}

impl Visitor for JsonVisitor<'_> {
    #[inline]
    fn begin_message(&mut self, message: &MessageInfo, _header: &Header) {
        self.out.extend_from_slice(&message.json_prefix);
        // The top-level object and the header object.
        self.stack <<= 2;
        self.depth += 2;
        self.comma = false;
    }

    #[inline]
    fn end_header(&mut self) {
        self.out.extend_from_slice(b"},\"fields\":{");
        self.comma = false;
    }

    #[inline(always)]
    fn field(&mut self, field: &FieldInfo, value: Value<'_>) {
        self.key(field);
        write_value(self.out, value, true);
    }

    #[inline]
    fn begin_composite(&mut self, field: &FieldInfo) {
        self.key(field);
        self.push(false);
    }

    #[inline]
    fn end_composite(&mut self, _field: &FieldInfo) {
        self.pop();
    }

    #[inline]
    fn begin_group(&mut self, group: &FieldInfo, _header: GroupHeader) {
        self.key(group);
        self.push(true);
    }

    #[inline]
    fn begin_entry(&mut self, _group: &FieldInfo, index: u64) {
        if index > 0 {
            self.out.push(b',');
        }
        self.push(false);
    }

    #[inline]
    fn end_entry(&mut self, _group: &FieldInfo, _index: u64) {
        self.pop();
    }

    #[inline]
    fn end_group(&mut self, _group: &FieldInfo) {
        self.pop();
    }

    fn absent_group(&mut self, group: &FieldInfo) {
        self.key(group);
        self.out.extend_from_slice(b"null");
    }

    #[inline]
    fn var_data(&mut self, data: &FieldInfo, value: Value<'_>) {
        self.key(data);
        write_value(self.out, value, false);
    }

    #[inline]
    fn end_message(&mut self, _message: &MessageInfo) {
        self.pop();
        self.pop();
    }
}

/// Appends the JSON of `value`. `padded`: a [`Value::Text`] ends at its first NUL (a char
/// array), else every byte is text (var data).
#[inline(always)]
pub(crate) fn write_value(out: &mut Vec<u8>, value: Value<'_>, padded: bool) {
    match value {
        Value::Null | Value::Absent => out.extend_from_slice(b"null"),
        Value::Int(i) => {
            if let Ok(u) = u64::try_from(i) {
                write_u64(out, u);
            } else {
                out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
            }
        }
        Value::UInt(u) => write_u64(out, u),
        Value::F32(f) => {
            if f == f.trunc() && f.abs() < 1e7 && !(f == 0.0 && f.is_sign_negative()) {
                // Integral values: the shortest form is the integer and `.0`.
                out.extend_from_slice(itoa::Buffer::new().format(f as i64).as_bytes());
                out.extend_from_slice(b".0");
            } else if f.is_finite() {
                out.extend_from_slice(ryu::Buffer::new().format_finite(f).as_bytes());
            } else {
                write_non_finite(out, f.is_nan(), f.is_sign_negative());
            }
        }
        Value::F64(f) => {
            if f == f.trunc() && f.abs() < 1e15 && !(f == 0.0 && f.is_sign_negative()) {
                out.extend_from_slice(itoa::Buffer::new().format(f as i64).as_bytes());
                out.extend_from_slice(b".0");
            } else if f.is_finite() {
                out.extend_from_slice(ryu::Buffer::new().format_finite(f).as_bytes());
            } else {
                write_non_finite(out, f.is_nan(), f.is_sign_negative());
            }
        }
        Value::Text { bytes, charset } => {
            let text = if padded {
                match bytes.iter().position(|&b| b == 0) {
                    Some(n) => &bytes[..n],
                    None => bytes,
                }
            } else {
                bytes
            };
            if charset == Charset::Utf8 && std::str::from_utf8(text).is_err() {
                out.extend_from_slice(b"{\"hex\":");
                write_hex_str(out, bytes);
                out.push(b'}');
            } else {
                write_json_str(out, text, charset);
            }
        }
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
        Value::Enum { name, raw } => match name {
            Some(n) => write_json_str(out, n.as_bytes(), Charset::Utf8),
            None => {
                out.extend_from_slice(b"{\"unknown\":");
                match raw {
                    Number::Int(i) => {
                        out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes())
                    }
                    Number::UInt(u) => {
                        out.extend_from_slice(itoa::Buffer::new().format(u).as_bytes())
                    }
                }
                out.push(b'}');
            }
        },
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
                    out.extend_from_slice(&c.json);
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
                out.extend_from_slice(itoa::Buffer::new().format(bit).as_bytes());
            }
            out.push(b']');
        }
    }
}

/// Appends `u` in decimal; small values without a call to `memcpy`.
#[inline]
fn write_u64(out: &mut Vec<u8>, u: u64) {
    if u < 10 {
        out.push(b'0' + u as u8);
    } else if u < 100 {
        out.extend_from_slice(&[b'0' + (u / 10) as u8, b'0' + (u % 10) as u8]);
    } else if u < 10_000 {
        let u = u as u16;
        let digits = [
            b'0' + (u / 1000) as u8,
            b'0' + (u / 100 % 10) as u8,
            b'0' + (u / 10 % 10) as u8,
            b'0' + (u % 10) as u8,
        ];
        let skip = if u < 1000 { 1 } else { 0 };
        out.extend_from_slice(&digits);
        if skip == 1 {
            // Drop the leading zero of a three-digit value.
            let n = out.len();
            out.copy_within(n - 3..n, n - 4);
            out.truncate(n - 1);
        }
    } else {
        out.extend_from_slice(itoa::Buffer::new().format(u).as_bytes());
    }
}

fn write_non_finite(out: &mut Vec<u8>, nan: bool, negative: bool) {
    out.extend_from_slice(if nan {
        b"\"NaN\"".as_slice()
    } else if negative {
        b"\"-Infinity\"".as_slice()
    } else {
        b"\"Infinity\"".as_slice()
    });
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn write_hex_str(out: &mut Vec<u8>, bytes: &[u8]) {
    out.reserve(bytes.len() * 2 + 2);
    out.push(b'"');
    for &b in bytes {
        out.push(HEX[usize::from(b >> 4)]);
        out.push(HEX[usize::from(b & 15)]);
    }
    out.push(b'"');
}

/// Whether a byte must not be copied into a JSON string as it is (for Latin-1 text: any byte
/// from 0x80, which becomes two bytes of UTF-8).
const fn escape_table(latin1: bool) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i < 0x20 || i == b'"' as usize || i == b'\\' as usize || (latin1 && i >= 0x80);
        i += 1;
    }
    t
}

static ESCAPE_UTF8: [bool; 256] = escape_table(false);
static ESCAPE_LATIN1: [bool; 256] = escape_table(true);

/// Appends `text` as a JSON string: UTF-8 text (already valid) as it is, Latin-1 text each byte
/// as the character U+0000..U+00FF; `"`, `\` and control characters escaped.
#[inline]
pub(crate) fn write_json_str(out: &mut Vec<u8>, text: &[u8], charset: Charset) {
    let table = match charset {
        Charset::Utf8 => &ESCAPE_UTF8,
        Charset::Latin1 => &ESCAPE_LATIN1,
    };
    out.push(b'"');
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        if !table[usize::from(b)] {
            continue;
        }
        out.extend_from_slice(&text[start..i]);
        start = i + 1;
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            0x80.. => {
                out.push(0xc0 | (b >> 6));
                out.push(0x80 | (b & 0x3f));
            }
            _ => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 15)]);
            }
        }
    }
    out.extend_from_slice(&text[start..]);
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: Value<'_>) -> String {
        let mut out = Vec::new();
        write_value(&mut out, v, true);
        String::from_utf8(out).unwrap()
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
        for u in (0u64..20_000).chain([u64::MAX]) {
            assert_eq!(text(Value::UInt(u)), u.to_string());
        }
    }
}

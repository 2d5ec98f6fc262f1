//! The canonical JSON form of a message (`docs/json.md`).
//!
//! [`JsonPrinter`] decodes a message and appends its JSON object to a caller's `Vec<u8>`, which
//! can be reused from one message to the next (nothing else is allocated per message, but a
//! scratch buffer kept per thread). It runs a program compiled per message from the decoder's
//! plan (`program.rs`, run by `json/run.rs`); [`JsonVisitor`] writes the same bytes as a [`Visitor`] of any
//! [`Decoder::decode`], the generic path the program is tested against. When
//! decoding fails midway, what was decoded is kept: the printer closes what it had opened and
//! adds a top-level `"error":{"offset":N,"field":"...","kind":"...","message":"..."}` key, so the output is always one
//! valid JSON object.

use sable_ir::Ir;

mod run;

pub use run::Jit;
use run::Program;

use crate::decode::{
    Charset, DecodeError, Decoder, Error, FieldInfo, GroupHeader, Header, MessageInfo, Value,
    Visitor,
};
use crate::json_value::{write_readable_integer, write_value, DecimalParts};
use crate::readable::Readable;
use crate::write::{write_hex_str, write_json_str, write_text};

/// Decodes messages of one schema into canonical JSON.
#[derive(Debug)]
pub struct JsonPrinter {
    decoder: Decoder,
    /// The messages' compiled programs (`None` only for a schema too large for them, printed
    /// through the generic path).
    program: Option<Program>,
    /// Whether readable forms are added beside raw values ([`JsonPrinter::readable`]).
    readable: bool,
}

impl JsonPrinter {
    /// A printer for the messages of `ir`, compiling each to machine code as [`Jit::DEFAULT`]
    /// says.
    pub fn new(ir: &Ir) -> Result<JsonPrinter, Error> {
        JsonPrinter::with_jit(ir, Jit::DEFAULT)
    }

    /// A printer for the messages of `ir`, compiling each to machine code as `jit` says.
    pub fn with_jit(ir: &Ir, jit: Jit) -> Result<JsonPrinter, Error> {
        Ok(JsonPrinter::from_decoder_with_jit(Decoder::new(ir)?, jit))
    }

    /// A printer using `decoder`, compiling as [`Jit::DEFAULT`] says.
    pub fn from_decoder(decoder: Decoder) -> JsonPrinter {
        JsonPrinter::from_decoder_with_jit(decoder, Jit::DEFAULT)
    }

    /// A printer using `decoder`, compiling each message to machine code as `jit` says.
    pub fn from_decoder_with_jit(decoder: Decoder, jit: Jit) -> JsonPrinter {
        JsonPrinter {
            program: Program::new(&decoder, jit),
            decoder,
            readable: false,
        }
    }

    /// The same printer adding, when `on`, each readable form (a decimal, a timestamp, a date)
    /// beside its raw value under the key `"name.readable"` (docs/json.md); the output is then
    /// canonical JSON no more. Such messages are printed through the generic path.
    pub fn readable(mut self, on: bool) -> JsonPrinter {
        self.readable = on;
        self
    }

    /// How many blocks' operations were compiled to machine code, of how many (feature `jit`;
    /// for its tests).
    #[doc(hidden)]
    #[cfg(feature = "jit")]
    pub fn compiled_blocks(&self) -> (usize, usize) {
        self.program
            .as_ref()
            .map_or((0, 0), |p| p.compiled_blocks())
    }

    /// How many messages were compiled whole to machine code, of how many (feature `jit`; for
    /// its tests).
    #[doc(hidden)]
    #[cfg(feature = "jit")]
    pub fn compiled_messages(&self) -> (usize, usize) {
        self.program
            .as_ref()
            .map_or((0, 0), |p| p.compiled_messages())
    }

    /// The decoder.
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Decodes the message whose header starts at `buf[0]` and appends its JSON object to `out`
    /// (no newline); returns the bytes the message takes. On error `out` still receives one
    /// complete JSON object: what was decoded, and an `error` key.
    pub fn print(&self, buf: &[u8], out: &mut Vec<u8>) -> Result<usize, DecodeError> {
        let Some(program) = self.program.as_ref().filter(|_| !self.readable) else {
            return self.print_generic(buf, out);
        };
        let printed = if self.decoder.is_big_endian() {
            program.print::<true>(&self.decoder, buf, out)
        } else {
            program.print::<false>(&self.decoder, buf, out)
        };
        match printed {
            Some(r) => r,
            None => self.print_generic(buf, out),
        }
    }

    /// [`print`](JsonPrinter::print) through the generic [`Visitor`] path.
    fn print_generic(&self, buf: &[u8], out: &mut Vec<u8>) -> Result<usize, DecodeError> {
        let mut w = if self.readable {
            JsonVisitor::readable(out)
        } else {
            JsonVisitor::new(out)
        };
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
    /// The caller's buffer, taken for the visitor's life (owned, so that the compiler sees that
    /// writing bytes does not change its length) and given back on drop.
    out: Vec<u8>,
    dest: &'o mut Vec<u8>,
    comma: bool,
    /// Open containers, innermost in bit 0: 1 for an array, 0 for an object.
    stack: u128,
    depth: usize,
    /// Containers beyond 128 levels.
    deep: Vec<bool>,
    /// Whether readable forms are added beside raw values (`"name.readable":...`).
    readable: bool,
    /// The members of the decimal composite being written, when `readable`.
    decimal: Option<DecimalParts>,
}

impl Drop for JsonVisitor<'_> {
    fn drop(&mut self) {
        *self.dest = std::mem::take(&mut self.out);
    }
}

impl<'o> JsonVisitor<'o> {
    /// A visitor appending to `out`.
    pub fn new(out: &'o mut Vec<u8>) -> JsonVisitor<'o> {
        JsonVisitor {
            out: std::mem::take(out),
            dest: out,
            comma: false,
            stack: 0,
            depth: 0,
            deep: Vec::new(),
            readable: false,
            decimal: None,
        }
    }

    /// A visitor appending to `out` that adds, after each value that has one, its readable form
    /// (a decimal, a timestamp, a date) under the key `"name.readable"` (`docs/json.md`).
    pub fn readable(out: &'o mut Vec<u8>) -> JsonVisitor<'o> {
        let mut v = JsonVisitor::new(out);
        v.readable = true;
        v
    }

    /// `,"name.readable":` after a value.
    fn readable_key(&mut self, info: &FieldInfo) {
        self.out.push(b',');
        // The key `"name":` without its closing `":`.
        let key = &info.json_key;
        self.out
            .extend_from_slice(key.get(..key.len().saturating_sub(2)).unwrap_or_default());
        self.out.extend_from_slice(b".readable\":");
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
        self.out.extend_from_slice(b",\"field\":");
        write_json_str(&mut self.out, e.field().as_bytes(), Charset::Utf8);
        self.out.extend_from_slice(b",\"kind\":\"");
        self.out.extend_from_slice(e.kind().name().as_bytes());
        self.out.extend_from_slice(b"\",\"message\":");
        write_json_str(&mut self.out, e.message().as_bytes(), Charset::Utf8);
        self.out.push(b'}');
        self.pop();
    }
}

impl Visitor for JsonVisitor<'_> {
    #[inline]
    fn begin_message(&mut self, message: &MessageInfo, _header: &Header) {
        match &message.json_prefix_chunk {
            Some(chunk) => {
                let len = self.out.len() + message.json_prefix.len();
                self.out.extend_from_slice(chunk);
                self.out.truncate(len);
            }
            None => self.out.extend_from_slice(&message.json_prefix),
        }
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
        write_value(&mut self.out, value, true);
        if !self.readable {
            return;
        }
        if let Some(d) = self.decimal.as_mut() {
            d.member(field.name(), &value);
        } else if field.readable != Readable::Raw {
            let at = self.out.len();
            self.readable_key(field);
            if matches!(value, Value::Null | Value::Absent) {
                self.out.extend_from_slice(b"null");
            } else if !write_readable_integer(&mut self.out, field.readable, &value, true) {
                self.out.truncate(at);
            }
        }
    }

    #[inline]
    fn begin_composite(&mut self, field: &FieldInfo) {
        self.key(field);
        self.push(false);
        if self.readable && field.readable == Readable::Decimal {
            self.decimal = Some(DecimalParts::default());
        }
    }

    #[inline]
    fn end_composite(&mut self, field: &FieldInfo) {
        self.pop();
        if let Some(d) = self.decimal.take() {
            self.readable_key(field);
            d.write(&mut self.out, true);
        }
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
        match value {
            Value::Text { bytes, charset } => write_text(&mut self.out, bytes, charset, false),
            Value::Bytes(bytes) => write_hex_str(&mut self.out, bytes),
            _ => write_value(&mut self.out, value, false),
        }
    }

    #[inline]
    fn end_message(&mut self, _message: &MessageInfo) {
        self.pop();
        self.pop();
    }
}

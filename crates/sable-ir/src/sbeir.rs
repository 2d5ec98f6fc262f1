//! `.sbeir` files: the IR serialized as the reference implementation (`uk.co.real-logic:sbe-all`
//! 1.32.1, `IrEncoder`/`IrDecoder`) serializes it, so files move both ways between the two.
//!
//! The format is SBE itself, described by the reference's own schema `sbe-ir.xml` (inside its
//! jar): one `FrameCodec` message, then one `TokenCodec` message per token (the message header's
//! tokens, then each message's), all little-endian and with no message headers. Values (minimum,
//! maximum, null, constant) are stored in binary, in the size of the token's primitive type.
//! `docs/sbeir.md` describes every field and the reference's quirks that [`read`] mirrors.
//!
//! ```
//! use sable_ir::{sbeir, update_component_token_counts, Ir, PrimitiveType, Signal, Token};
//!
//! let mut header = vec![Token::new(Signal::BeginComposite, "messageHeader")];
//! header[0].encoded_length = 8;
//! for (i, name) in ["blockLength", "templateId", "schemaId", "version"].iter().enumerate() {
//!     let mut field = Token::new(Signal::Encoding, *name);
//!     field.encoding.primitive_type = Some(PrimitiveType::UInt16);
//!     (field.encoded_length, field.offset) = (2, 2 * i as i32);
//!     header.push(field);
//! }
//! header.push(Token::new(Signal::EndComposite, "messageHeader"));
//! update_component_token_counts(&mut header);
//! let ir = Ir { package_name: "demo".into(), id: 7, header_tokens: header, ..Ir::default() };
//!
//! let bytes = sbeir::write(&ir);
//! assert_eq!(sbeir::read(&bytes)?, ir);
//! # Ok::<(), sbeir::SbeirError>(())
//! ```

use std::fmt;

use crate::{
    validate, ByteOrder, Encoding, Ir, Presence, PrimitiveType, PrimitiveValue, Signal, Token,
};

/// The only `irVersion` there is; the reference refuses any other.
pub const IR_VERSION: i32 = 0;

/// `FrameCodec`'s fixed block: `irId`, `irVersion`, `schemaVersion` (int32 each).
const FRAME_BLOCK_LENGTH: usize = 12;

/// `TokenCodec`'s fixed block: five int32, four uint8 enums, the int32 `deprecated`.
const TOKEN_BLOCK_LENGTH: usize = 28;

/// The longest var-data field: what its uint16 length holds. (The reference's encoder refuses
/// more than 65534, uint16's largest non-null value; its decoder reads 65535 like any other.)
const MAX_VAR_DATA_LENGTH: usize = 65535;

/// Why a `.sbeir` file could not be read: where (a byte offset into the file) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SbeirError {
    offset: usize,
    message: String,
}

impl SbeirError {
    fn new(offset: usize, message: impl Into<String>) -> SbeirError {
        SbeirError {
            offset,
            message: message.into(),
        }
    }

    /// The byte offset in the file where the problem is.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong, without the offset.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SbeirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for SbeirError {}

// ---------------------------------------------------------------------------------------------
// Writing

/// Serializes `ir` as a `.sbeir` file the reference's `IrDecoder` reads.
///
/// Writes the frame, then the header tokens, then each message's tokens in `ir.messages` order.
/// Unlike the reference's encoder, it writes each token's `deprecated` field (0 when not
/// deprecated) rather than leaving stale bytes there. Fields the format cannot hold are dropped:
/// the schema description (the format has no field for it), values on a token without a
/// primitive type, and anything past 65535 bytes in a text or value field (cut at a character
/// boundary); the reference's encoder throws on the last two. It writes the tokens as they are,
/// without checking them: [`read`] refuses a file whose tokens do not form an IR.
pub fn write(ir: &Ir) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&ir.id.to_le_bytes());
    out.extend_from_slice(&IR_VERSION.to_le_bytes());
    out.extend_from_slice(&ir.version.to_le_bytes());
    put_text(&mut out, &ir.package_name);
    put_text(&mut out, ir.namespace_name.as_deref().unwrap_or(""));
    put_text(&mut out, ir.semantic_version.as_deref().unwrap_or(""));
    for token in ir.header_tokens.iter().chain(ir.messages.iter().flatten()) {
        write_token(&mut out, token);
    }
    out
}

fn write_token(out: &mut Vec<u8>, t: &Token) {
    let e = &t.encoding;
    out.extend_from_slice(&t.offset.to_le_bytes());
    out.extend_from_slice(&t.encoded_length.to_le_bytes());
    out.extend_from_slice(&t.id.to_le_bytes());
    out.extend_from_slice(&t.version.to_le_bytes());
    out.extend_from_slice(&t.component_token_count.to_le_bytes());
    out.push(t.signal as u8);
    out.push(e.primitive_type.map_or(0, |p| p as u8));
    out.push(match e.byte_order {
        ByteOrder::LittleEndian => 0,
        ByteOrder::BigEndian => 1,
    });
    out.push(match e.presence {
        Presence::Required => 0,
        Presence::Optional => 1,
        Presence::Constant => 2,
    });
    out.extend_from_slice(&t.deprecated.to_le_bytes());
    put_text(out, &t.name);
    for value in [&e.const_value, &e.min_value, &e.max_value, &e.null_value] {
        let bytes = match (value, e.primitive_type) {
            (Some(v), Some(p)) => encode_value(v, p),
            _ => Vec::new(),
        };
        put_bytes(out, &bytes[..bytes.len().min(MAX_VAR_DATA_LENGTH)]);
    }
    for text in [
        &e.character_encoding,
        &e.epoch,
        &e.time_unit,
        &e.semantic_type,
        &t.description,
        &t.referenced_name,
    ] {
        put_text(out, text.as_deref().unwrap_or(""));
    }
}

/// A value in binary as the reference's `IrUtil.put` writes it: little-endian in the type's
/// size; a `char` value one byte, or all the bytes of a character array. A value whose variant
/// does not suit the type is converted as a cast would.
fn encode_value(value: &PrimitiveValue, primitive_type: PrimitiveType) -> Vec<u8> {
    let bits = || match value {
        PrimitiveValue::Int(v) => *v,
        PrimitiveValue::UInt(v) => *v as i64,
        PrimitiveValue::Float(v) => *v as i64,
        PrimitiveValue::Bytes { bytes, .. } => {
            let mut le = [0u8; 8];
            let n = bytes.len().min(8);
            le[..n].copy_from_slice(&bytes[..n]);
            i64::from_le_bytes(le)
        }
    };
    let real = || match value {
        PrimitiveValue::Float(v) => *v,
        other => other.as_f64().unwrap_or(bits() as f64),
    };
    match primitive_type {
        PrimitiveType::Char => match value {
            PrimitiveValue::Bytes { bytes, .. } => bytes.clone(),
            _ => vec![bits() as u8],
        },
        PrimitiveType::Float => (real() as f32).to_le_bytes().to_vec(),
        PrimitiveType::Double => real().to_le_bytes().to_vec(),
        integer => bits().to_le_bytes()[..integer.size()].to_vec(),
    }
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    let mut end = text.len().min(MAX_VAR_DATA_LENGTH);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    put_bytes(out, &text.as_bytes()[..end]);
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    debug_assert!(bytes.len() <= MAX_VAR_DATA_LENGTH);
    out.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
    out.extend_from_slice(bytes);
}

// ---------------------------------------------------------------------------------------------
// Reading

/// Reads a `.sbeir` file, as the reference's `IrDecoder` interprets it.
///
/// Mirrors the reference decoder: `deprecated` reads as 0 (the reference's encoder leaves stale
/// bytes in that field, and its decoder never reads it); `componentTokenCount` is recomputed for every `BEGIN_*`/`END_*` pair; a one-byte
/// `char` value is a character code and a longer one a byte array; empty namespace, semantic
/// version and optional token texts are absent. There is no schema description.
///
/// The file has no field for the schema's byte order. The reference's decoder takes the first
/// header token's, which is always little-endian (composite tokens carry the default order);
/// Sable takes the first header `ENCODING` token's, which carries the schema's, so a big-endian
/// schema reads back big-endian.
///
/// Stricter than the reference, it refuses (rather than misreads or throws on) unknown enum
/// codes, text that is not UTF-8, values whose length does not suit their primitive type,
/// unbalanced or interleaved `BEGIN_*`/`END_*` tokens, tokens outside the header and messages,
/// and duplicate template ids. Like the reference, it refuses a message header without
/// `blockLength`, `templateId`, `schemaId` and `version` fields that have primitive types.
/// Never panics, and allocates no more than in proportion to `bytes.len()`.
pub fn read(bytes: &[u8]) -> Result<Ir, SbeirError> {
    let mut r = Reader { bytes, pos: 0 };
    r.need(
        FRAME_BLOCK_LENGTH,
        "the frame (irId, irVersion, schemaVersion)",
    )?;
    let id = r.i32();
    let ir_version_at = r.pos;
    let ir_version = r.i32();
    if ir_version != IR_VERSION {
        return Err(SbeirError::new(
            ir_version_at,
            format!("irVersion is {ir_version}; only {IR_VERSION} is supported"),
        ));
    }
    let version = r.i32();
    let package_name = r.text("packageName")?;
    let namespace_name = non_empty(r.text("namespaceName")?);
    let semantic_version = non_empty(r.text("semanticVersion")?);
    let frame_end = r.pos;

    let mut tokens = Vec::new();
    while r.pos < bytes.len() {
        tokens.push(read_token(&mut r)?);
    }

    if tokens.is_empty() {
        return Err(SbeirError::new(
            frame_end,
            "no tokens after the frame: a .sbeir file holds at least the message header's",
        ));
    }
    let (offsets, tokens): (Vec<usize>, Vec<Token>) =
        tokens.into_iter().map(|t| (t.offset, t.token)).unzip();
    let invalid = |e: validate::Invalid| SbeirError::new(offsets[e.index()], e.message());
    let (header_end, message_ends) = validate::split(&tokens).map_err(invalid)?;
    // The schema byte order is not in the file: take the first header ENCODING token's.
    let byte_order = tokens[..header_end]
        .iter()
        .find(|t| t.signal == Signal::Encoding)
        .map_or(tokens[0].encoding.byte_order, |t| t.encoding.byte_order);

    let mut tokens = tokens.into_iter();
    let header_tokens: Vec<Token> = tokens.by_ref().take(header_end).collect();
    let mut messages: Vec<Vec<Token>> = Vec::with_capacity(message_ends.len());
    let mut start = header_end;
    for end in message_ends {
        messages.push(tokens.by_ref().take(end - start).collect());
        start = end;
    }

    let ir = Ir {
        package_name,
        namespace_name,
        id,
        version,
        description: None,
        semantic_version,
        byte_order,
        header_tokens,
        messages,
    };
    validate::validate(&ir).map_err(invalid)?;
    Ok(ir)
}

/// A token and the offset of its `TokenCodec` message in the file.
struct Located {
    offset: usize,
    token: Token,
}

fn read_token(r: &mut Reader<'_>) -> Result<Located, SbeirError> {
    let offset = r.pos;
    r.need(TOKEN_BLOCK_LENGTH, "a token's fixed fields")?;
    let token_offset = r.i32();
    let encoded_length = r.i32();
    let id = r.i32();
    let version = r.i32();
    let component_token_count = r.i32();
    let code_at = r.pos;
    let code = r.u8();
    let signal = Signal::from_code(code)
        .ok_or_else(|| SbeirError::new(code_at, format!("unknown signal code {code}")))?;
    let code = r.u8();
    let primitive_type = match code {
        0 => None,
        _ => Some(PrimitiveType::from_code(code).ok_or_else(|| {
            SbeirError::new(code_at + 1, format!("unknown primitive type code {code}"))
        })?),
    };
    let byte_order = match r.u8() {
        0 => ByteOrder::LittleEndian,
        1 => ByteOrder::BigEndian,
        code => {
            return Err(SbeirError::new(
                code_at + 2,
                format!("unknown byte order code {code}"),
            ))
        }
    };
    let presence = match r.u8() {
        0 => Presence::Required,
        1 => Presence::Optional,
        2 => Presence::Constant,
        code => {
            return Err(SbeirError::new(
                code_at + 3,
                format!("unknown presence code {code}"),
            ))
        }
    };
    // `deprecated`: the reference's encoder never writes it (stale bytes) and its decoder never
    // reads it; every token it decodes is not deprecated.
    let _ = r.i32();

    let name = r.text("name")?;
    let const_raw = r.var_data("constValue")?;
    let min_raw = r.var_data("minValue")?;
    let max_raw = r.var_data("maxValue")?;
    let null_raw = r.var_data("nullValue")?;
    let character_encoding = non_empty(r.text("characterEncoding")?);
    let epoch = non_empty(r.text("epoch")?);
    let time_unit = non_empty(r.text("timeUnit")?);
    let semantic_type = non_empty(r.text("semanticType")?);
    let description = non_empty(r.text("description")?);
    let referenced_name = non_empty(r.text("referencedName")?);

    let value = |(at, raw): (usize, &[u8]), field: &str| {
        decode_value(raw, primitive_type, character_encoding.as_deref())
            .map_err(|why| SbeirError::new(at, format!("{field} of token '{name}': {why}")))
    };
    let encoding = Encoding {
        presence,
        primitive_type,
        byte_order,
        const_value: value(const_raw, "constValue")?,
        min_value: value(min_raw, "minValue")?,
        max_value: value(max_raw, "maxValue")?,
        null_value: value(null_raw, "nullValue")?,
        character_encoding,
        epoch,
        time_unit,
        semantic_type,
    };
    Ok(Located {
        offset,
        token: Token {
            signal,
            name,
            referenced_name,
            description,
            id,
            version,
            deprecated: 0,
            encoded_length,
            offset: token_offset,
            component_token_count,
            encoding,
        },
    })
}

/// A value as the reference's `IrUtil.get` reads it; `None` when empty.
fn decode_value(
    raw: &[u8],
    primitive_type: Option<PrimitiveType>,
    character_encoding: Option<&str>,
) -> Result<Option<PrimitiveValue>, String> {
    if raw.is_empty() {
        return Ok(None);
    }
    let Some(primitive_type) = primitive_type else {
        return Err(format!(
            "{} bytes, but the token has no primitive type to read them as",
            raw.len()
        ));
    };
    if primitive_type == PrimitiveType::Char {
        return Ok(Some(if raw.len() == 1 {
            // Java's byte is signed: the reference reads 0x80..0xff as negative codes.
            PrimitiveValue::Int(i64::from(raw[0] as i8))
        } else {
            // The reference labels every byte array US-ASCII; the token's own encoding says
            // better what the bytes mean.
            PrimitiveValue::Bytes {
                bytes: raw.to_vec(),
                character_encoding: character_encoding.unwrap_or("US-ASCII").to_owned(),
            }
        }));
    }
    let size = primitive_type.size();
    if raw.len() != size {
        return Err(format!(
            "{} bytes, but a {primitive_type} value is {size}",
            raw.len()
        ));
    }
    let mut le = [0u8; 8];
    le[..size].copy_from_slice(raw);
    let unsigned = u64::from_le_bytes(le);
    Ok(Some(match primitive_type {
        PrimitiveType::Float => PrimitiveValue::Float(f64::from(f32::from_bits(unsigned as u32))),
        PrimitiveType::Double => PrimitiveValue::Float(f64::from_bits(unsigned)),
        t if t.is_unsigned() => PrimitiveValue::UInt(unsigned),
        _ => {
            // Sign-extend from the type's width.
            let shift = 64 - 8 * size as u32;
            PrimitiveValue::Int(((unsigned << shift) as i64) >> shift)
        }
    }))
}

fn non_empty(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

/// A cursor over the file that reports where things run out.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// Checks that `n` more bytes are there for `what`.
    fn need(&self, n: usize, what: &str) -> Result<(), SbeirError> {
        if self.remaining() < n {
            return Err(SbeirError::new(
                self.pos,
                format!(
                    "truncated: {what} needs {n} bytes, but only {} remain",
                    self.remaining()
                ),
            ));
        }
        Ok(())
    }

    fn take(&mut self, n: usize) -> &'a [u8] {
        let slice = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        slice
    }

    /// Reads an int32; the caller has checked the length.
    fn i32(&mut self) -> i32 {
        let mut le = [0u8; 4];
        le.copy_from_slice(self.take(4));
        i32::from_le_bytes(le)
    }

    /// Reads a uint8; the caller has checked the length.
    fn u8(&mut self) -> u8 {
        self.take(1)[0]
    }

    /// Reads a var-data field (uint16 length, then the bytes): its offset and bytes.
    fn var_data(&mut self, field: &str) -> Result<(usize, &'a [u8]), SbeirError> {
        let at = self.pos;
        if self.remaining() < 2 {
            return Err(SbeirError::new(
                at,
                format!(
                    "truncated: the length of {field} needs 2 bytes, but only {} remain",
                    self.remaining()
                ),
            ));
        }
        let length = usize::from(u16::from_le_bytes([self.bytes[at], self.bytes[at + 1]]));
        self.pos += 2;
        if length > self.remaining() {
            let remaining = self.remaining();
            self.pos = at;
            return Err(SbeirError::new(
                at,
                format!("{field} says it is {length} bytes long, but only {remaining} remain"),
            ));
        }
        Ok((at, self.take(length)))
    }

    /// Reads a var-data text field, which must be UTF-8. (The reference's decoder would put
    /// U+FFFD for malformed bytes; its encoder never writes any.)
    fn text(&mut self, field: &str) -> Result<String, SbeirError> {
        let (at, bytes) = self.var_data(field)?;
        match std::str::from_utf8(bytes) {
            Ok(text) => Ok(text.to_owned()),
            Err(e) => Err(SbeirError::new(
                at + 2 + e.valid_up_to(),
                format!("{field} is not valid UTF-8"),
            )),
        }
    }
}

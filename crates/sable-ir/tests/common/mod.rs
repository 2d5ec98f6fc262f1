//! Helpers for the `.sbeir` tests: an IR using every token kind and value type, and an
//! independent walk over a file's layout (the test's own reading of `sbe-ir.xml`, to find
//! fields to corrupt and to compare files field by field).

#![allow(dead_code)] // Each test file uses a different part.

use sable_ir::{
    update_component_token_counts, ByteOrder, Encoding, Ir, Presence, PrimitiveType,
    PrimitiveValue, Signal, Token,
};

/// `FrameCodec`'s fixed block length.
pub const FRAME_BLOCK: usize = 12;
/// `TokenCodec`'s fixed block length.
pub const TOKEN_BLOCK: usize = 28;
/// Offsets in a token's fixed block.
pub const SIGNAL: usize = 20;
pub const PRIMITIVE_TYPE: usize = 21;
pub const BYTE_ORDER: usize = 22;
pub const PRESENCE: usize = 23;
pub const DEPRECATED: usize = 24;
/// A token's var-data fields, in order.
pub const TOKEN_VAR_DATA: [&str; 11] = [
    "name",
    "constValue",
    "minValue",
    "maxValue",
    "nullValue",
    "characterEncoding",
    "epoch",
    "timeUnit",
    "semanticType",
    "description",
    "referencedName",
];

/// Where a token's message sits in a file.
#[derive(Debug, Clone)]
pub struct TokenLayout {
    /// Offset of its fixed block.
    pub start: usize,
    /// Offset just past its last var-data field.
    pub end: usize,
    /// Offset of each var-data field's uint16 length, in [`TOKEN_VAR_DATA`] order.
    pub var_data: Vec<usize>,
}

/// Where everything sits in a well-formed file.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Offsets of the frame's three var-data lengths.
    pub frame_var_data: Vec<usize>,
    pub frame_end: usize,
    pub tokens: Vec<TokenLayout>,
}

/// Walks a well-formed file's layout; panics if it is not one.
pub fn layout(bytes: &[u8]) -> Layout {
    let length_at = |at: usize| usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
    let mut pos = FRAME_BLOCK;
    let mut frame_var_data = Vec::new();
    for _ in 0..3 {
        frame_var_data.push(pos);
        pos += 2 + length_at(pos);
    }
    let frame_end = pos;
    let mut tokens = Vec::new();
    while pos < bytes.len() {
        let start = pos;
        pos += TOKEN_BLOCK;
        let mut var_data = Vec::new();
        for _ in TOKEN_VAR_DATA {
            var_data.push(pos);
            pos += 2 + length_at(pos);
        }
        assert!(pos <= bytes.len(), "token at {start} runs past the end");
        tokens.push(TokenLayout {
            start,
            end: pos,
            var_data,
        });
    }
    Layout {
        frame_var_data,
        frame_end,
        tokens,
    }
}

fn token(signal: Signal, name: &str) -> Token {
    Token::new(signal, name)
}

fn encoding_token(name: &str, t: PrimitiveType, offset: i32) -> Token {
    let mut tok = token(Signal::Encoding, name);
    tok.encoded_length = t.size() as i32;
    tok.offset = offset;
    tok.encoding.primitive_type = Some(t);
    tok
}

/// The standard message header composite.
pub fn header() -> Vec<Token> {
    let mut tokens = vec![token(Signal::BeginComposite, "messageHeader")];
    tokens[0].encoded_length = 8;
    tokens[0].description = Some("Message identifiers and length of message root".into());
    for (i, name) in ["blockLength", "templateId", "schemaId", "version"]
        .iter()
        .enumerate()
    {
        tokens.push(encoding_token(name, PrimitiveType::UInt16, 2 * i as i32));
    }
    let mut end = tokens[0].clone();
    end.signal = Signal::EndComposite;
    tokens.push(end);
    tokens
}

/// Wraps `body` in a field named `name` with `id`: BEGIN_FIELD, body, END_FIELD.
fn field(name: &str, id: i32, body: Vec<Token>) -> Vec<Token> {
    let mut begin = token(Signal::BeginField, name);
    begin.id = id;
    begin.encoded_length = body.first().map_or(0, |t| t.encoded_length);
    begin.offset = body.first().map_or(0, |t| t.offset);
    let mut end = begin.clone();
    end.signal = Signal::EndField;
    let mut tokens = vec![begin];
    tokens.extend(body);
    tokens.push(end);
    tokens
}

/// A big-endian IR with two messages that between them use every signal, every primitive type
/// with minimum, maximum, null and constant values, character arrays, every optional text, and
/// non-ASCII text. Everything in it survives a write and read unchanged, except `deprecated`
/// (read as 0), the schema description (not in the format) and the IR's byte order (read from
/// the first header token): see [`as_read_back`].
pub fn rich_ir() -> Ir {
    let order = ByteOrder::BigEndian;
    let mut m1 = vec![token(Signal::BeginMessage, "Everything")];
    m1[0].id = 1;
    m1[0].description = Some("Uses every kind of token; d\u{e9}j\u{e0} vu\tand\nlines".into());
    m1[0].encoding.semantic_type = Some("n/a".into());
    let mut offset = 0;
    let samples: Vec<(
        PrimitiveType,
        PrimitiveValue,
        PrimitiveValue,
        PrimitiveValue,
    )> = vec![
        (
            PrimitiveType::Char,
            PrimitiveValue::Int(0x20),
            PrimitiveValue::Int(0x7e),
            PrimitiveValue::Int(0),
        ),
        (
            PrimitiveType::Int8,
            PrimitiveValue::Int(-127),
            PrimitiveValue::Int(127),
            PrimitiveValue::Int(-128),
        ),
        (
            PrimitiveType::Int16,
            PrimitiveValue::Int(-32767),
            PrimitiveValue::Int(32767),
            PrimitiveValue::Int(-32768),
        ),
        (
            PrimitiveType::Int32,
            PrimitiveValue::Int(i64::from(i32::MIN) + 1),
            PrimitiveValue::Int(i32::MAX.into()),
            PrimitiveValue::Int(i32::MIN.into()),
        ),
        (
            PrimitiveType::Int64,
            PrimitiveValue::Int(i64::MIN + 1),
            PrimitiveValue::Int(i64::MAX),
            PrimitiveValue::Int(i64::MIN),
        ),
        (
            PrimitiveType::UInt8,
            PrimitiveValue::UInt(0),
            PrimitiveValue::UInt(254),
            PrimitiveValue::UInt(255),
        ),
        (
            PrimitiveType::UInt16,
            PrimitiveValue::UInt(1),
            PrimitiveValue::UInt(65534),
            PrimitiveValue::UInt(65535),
        ),
        (
            PrimitiveType::UInt32,
            PrimitiveValue::UInt(2),
            PrimitiveValue::UInt(u64::from(u32::MAX) - 1),
            PrimitiveValue::UInt(u32::MAX.into()),
        ),
        (
            PrimitiveType::UInt64,
            PrimitiveValue::UInt(3),
            PrimitiveValue::UInt(u64::MAX - 1),
            PrimitiveValue::UInt(u64::MAX),
        ),
        (
            PrimitiveType::Float,
            PrimitiveValue::Float(f64::from(0.1f32)),
            PrimitiveValue::Float(f64::from(f32::MAX)),
            PrimitiveValue::Float(f64::NAN),
        ),
        (
            PrimitiveType::Double,
            PrimitiveValue::Float(-1.0e300),
            PrimitiveValue::Float(0.1),
            PrimitiveValue::Float(f64::NAN),
        ),
    ];
    for (i, (t, min, max, null)) in samples.into_iter().enumerate() {
        let mut enc = encoding_token(&format!("v{i}"), t, offset);
        enc.encoding.presence = Presence::Optional;
        enc.encoding.byte_order = order;
        enc.encoding.min_value = Some(min);
        enc.encoding.max_value = Some(max);
        enc.encoding.null_value = Some(null);
        enc.version = 2;
        enc.encoding.semantic_type = Some(format!("Type{i}"));
        offset += t.size() as i32;
        let mut f = field(&format!("f{i}"), 10 + i as i32, vec![enc]);
        f[0].version = 2;
        f[0].deprecated = 3;
        let last = f.len() - 1;
        f[last].deprecated = 3;
        m1.extend(f);
    }
    // Constants of every type, a char array, and a one-character array (read back as a code).
    let constants = [
        (
            PrimitiveType::Char,
            PrimitiveValue::Bytes {
                bytes: "Caf\u{e9}\0".as_bytes().to_vec(),
                character_encoding: "UTF-8".into(),
            },
        ),
        (PrimitiveType::Char, PrimitiveValue::Int(-3)),
        (PrimitiveType::Int8, PrimitiveValue::Int(-5)),
        (PrimitiveType::Int16, PrimitiveValue::Int(-300)),
        (PrimitiveType::Int32, PrimitiveValue::Int(-70000)),
        (PrimitiveType::Int64, PrimitiveValue::Int(-5_000_000_000)),
        (PrimitiveType::UInt8, PrimitiveValue::UInt(200)),
        (PrimitiveType::UInt16, PrimitiveValue::UInt(60000)),
        (PrimitiveType::UInt32, PrimitiveValue::UInt(4_000_000_000)),
        (PrimitiveType::UInt64, PrimitiveValue::UInt(u64::MAX - 7)),
        (PrimitiveType::Float, PrimitiveValue::Float(1.5)),
        (PrimitiveType::Double, PrimitiveValue::Float(-0.0)),
    ];
    for (i, (t, value)) in constants.into_iter().enumerate() {
        let mut enc = encoding_token(&format!("c{i}"), t, offset);
        enc.encoded_length = 0;
        enc.encoding.presence = Presence::Constant;
        enc.encoding.byte_order = order;
        if matches!(value, PrimitiveValue::Bytes { .. }) {
            enc.encoding.character_encoding = Some("UTF-8".into());
        }
        enc.encoding.const_value = Some(value);
        m1.extend(field(&format!("k{i}"), 30 + i as i32, vec![enc]));
    }
    // A timestamp field with epoch and time unit, referencing a named type.
    let mut ts = encoding_token("timestamp", PrimitiveType::UInt64, offset);
    ts.referenced_name = Some("UTCTimestamp".into());
    ts.encoding.byte_order = order;
    ts.encoding.epoch = Some("unix".into());
    ts.encoding.time_unit = Some("nanosecond".into());
    offset += 8;
    m1.extend(field("when", 50, vec![ts]));
    // An enum, a set and a composite.
    let mut en = token(Signal::BeginEnum, "Side");
    en.encoded_length = 1;
    en.offset = offset;
    en.encoding.primitive_type = Some(PrimitiveType::Char);
    en.encoding.byte_order = order;
    en.encoding.null_value = Some(PrimitiveValue::Int(0));
    let mut body = vec![en.clone()];
    for (name, code) in [("Buy", b'1'), ("Sell", b'2')] {
        let mut v = token(Signal::ValidValue, name);
        v.encoding.primitive_type = Some(PrimitiveType::Char);
        v.encoding.byte_order = order;
        v.encoding.const_value = Some(PrimitiveValue::Int(code.into()));
        v.description = Some(format!("{name} side"));
        body.push(v);
    }
    en.signal = Signal::EndEnum;
    body.push(en);
    offset += 1;
    m1.extend(field("side", 51, body));
    let mut set = token(Signal::BeginSet, "Flags");
    set.encoded_length = 2;
    set.offset = offset;
    set.encoding.primitive_type = Some(PrimitiveType::UInt16);
    let mut body = vec![set.clone()];
    for (name, bit) in [("a", 0u64), ("b", 15)] {
        let mut c = token(Signal::Choice, name);
        c.encoding.primitive_type = Some(PrimitiveType::UInt16);
        c.encoding.byte_order = order;
        c.encoding.const_value = Some(PrimitiveValue::UInt(bit));
        body.push(c);
    }
    set.signal = Signal::EndSet;
    body.push(set);
    offset += 2;
    m1.extend(field("flags", 52, body));
    let mut comp = token(Signal::BeginComposite, "Price");
    comp.encoded_length = 9;
    comp.offset = offset;
    let mut body = vec![comp.clone()];
    let mut mantissa = encoding_token("mantissa", PrimitiveType::Int64, 0);
    mantissa.encoding.byte_order = order;
    body.push(mantissa);
    let mut exponent = encoding_token("exponent", PrimitiveType::Int8, 8);
    exponent.encoding.presence = Presence::Constant;
    exponent.encoded_length = 0;
    exponent.encoding.byte_order = order;
    exponent.encoding.const_value = Some(PrimitiveValue::Int(-7));
    body.push(exponent);
    comp.signal = Signal::EndComposite;
    body.push(comp);
    offset += 9;
    m1.extend(field("price", 53, body));
    m1[0].encoded_length = offset;
    // A group with a nested group and var data inside, then var data in the message.
    let group = |name: &str, id: i32, inner: Vec<Token>| {
        let mut begin = token(Signal::BeginGroup, name);
        begin.id = id;
        begin.encoded_length = 4;
        begin.offset = -1;
        let mut tokens = vec![begin.clone()];
        let mut dim = token(Signal::BeginComposite, "groupSizeEncoding");
        dim.encoded_length = 4;
        tokens.push(dim.clone());
        tokens.push(encoding_token("blockLength", PrimitiveType::UInt16, 0));
        tokens.push(encoding_token("numInGroup", PrimitiveType::UInt16, 2));
        dim.signal = Signal::EndComposite;
        tokens.push(dim);
        tokens.extend(inner);
        begin.signal = Signal::EndGroup;
        tokens.push(begin);
        tokens
    };
    let var_data = |name: &str, id: i32| {
        let mut begin = token(Signal::BeginVarData, name);
        begin.id = id;
        begin.offset = -1;
        let mut tokens = vec![begin.clone()];
        let mut comp = token(Signal::BeginComposite, "varDataEncoding");
        comp.encoded_length = -1;
        comp.offset = -1;
        tokens.push(comp.clone());
        let mut length = encoding_token("length", PrimitiveType::UInt32, 0);
        length.encoding.max_value = Some(PrimitiveValue::UInt(1 << 30));
        tokens.push(length);
        let mut data = encoding_token("varData", PrimitiveType::UInt8, 4);
        data.encoded_length = -1;
        data.encoding.character_encoding = Some("UTF-8".into());
        tokens.push(data);
        comp.signal = Signal::EndComposite;
        tokens.push(comp);
        begin.signal = Signal::EndVarData;
        tokens.push(begin);
        tokens
    };
    let mut inner_fields = field(
        "qty",
        61,
        vec![encoding_token("qty", PrimitiveType::UInt32, 0)],
    );
    inner_fields.extend(group("legs", 62, var_data("note", 63)));
    m1.extend(group("entries", 60, inner_fields));
    m1.extend(var_data("text", 70));
    let mut end = m1[0].clone();
    end.signal = Signal::EndMessage;
    m1.push(end);
    update_component_token_counts(&mut m1);

    let mut m2 = vec![token(Signal::BeginMessage, "Empty")];
    m2[0].id = 2;
    m2[0].version = 1;
    let mut end = m2[0].clone();
    end.signal = Signal::EndMessage;
    m2.push(end);
    update_component_token_counts(&mut m2);

    let mut header_tokens = header();
    for t in &mut header_tokens {
        if t.signal == Signal::Encoding {
            t.encoding.byte_order = order;
        }
    }
    update_component_token_counts(&mut header_tokens);
    Ir {
        package_name: "sable.test".into(),
        namespace_name: Some("ns".into()),
        id: 42,
        version: 3,
        description: Some("not in the file format".into()),
        semantic_version: Some("FIX.5.0".into()),
        byte_order: order,
        header_tokens,
        messages: vec![m1, m2],
    }
}

/// What reading `ir` back from its `.sbeir` gives: no schema description, every token not
/// deprecated, and the first header token's byte order as the schema's.
pub fn as_read_back(ir: &Ir) -> Ir {
    let mut ir = ir.clone();
    ir.description = None;
    ir.byte_order = ir
        .header_tokens
        .iter()
        .find(|t| t.signal == Signal::Encoding)
        .map_or(ByteOrder::LittleEndian, |t| t.encoding.byte_order);
    for t in ir
        .header_tokens
        .iter_mut()
        .chain(ir.messages.iter_mut().flatten())
    {
        t.deprecated = 0;
    }
    ir
}

/// A minimal well-formed IR: the header and one empty message.
/// The standard header with two constant `uint8` members after its four fields, `spare1` and
/// `spare2` (tokens 5 and 6), free to carry any value a test needs.
pub fn minimal_ir() -> Ir {
    let mut header_tokens = header();
    for name in ["spare1", "spare2"] {
        let mut spare = encoding_token(name, PrimitiveType::UInt8, 8);
        spare.encoded_length = 0;
        spare.encoding.presence = Presence::Constant;
        header_tokens.insert(header_tokens.len() - 1, spare);
    }
    update_component_token_counts(&mut header_tokens);
    let mut message = vec![
        token(Signal::BeginMessage, "M"),
        token(Signal::EndMessage, "M"),
    ];
    message[0].id = 1;
    message[1].id = 1;
    update_component_token_counts(&mut message);
    Ir {
        package_name: "p".into(),
        id: 1,
        header_tokens,
        messages: vec![message],
        ..Ir::default()
    }
}

/// Compares IRs with NaN values equal to themselves (`PartialEq` on `f64` says NaN != NaN).
pub fn same_ir(a: &Ir, b: &Ir) -> bool {
    // The dump prints NaN as "NaN", and covers every field but the schema description.
    sable_ir::dump(a) == sable_ir::dump(b) && a.description == b.description && {
        let tokens = |ir: &Ir| -> Vec<Token> {
            ir.header_tokens
                .iter()
                .chain(ir.messages.iter().flatten())
                .map(|t| {
                    let mut t = t.clone();
                    t.encoding = without_nan(&t.encoding);
                    t
                })
                .collect()
        };
        tokens(a) == tokens(b)
    }
}

fn without_nan(e: &Encoding) -> Encoding {
    let fix = |v: &Option<PrimitiveValue>| match v {
        Some(PrimitiveValue::Float(f)) if f.is_nan() => Some(PrimitiveValue::Bytes {
            bytes: b"NaN".to_vec(),
            character_encoding: "nan".into(),
        }),
        other => other.clone(),
    };
    Encoding {
        min_value: fix(&e.min_value),
        max_value: fix(&e.max_value),
        null_value: fix(&e.null_value),
        const_value: fix(&e.const_value),
        ..e.clone()
    }
}

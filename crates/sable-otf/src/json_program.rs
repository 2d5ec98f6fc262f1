//! The JSON printer's compiled program: per message, the JSON it prints laid out as a list of
//! operations, each "copy this constant text, then write the value at this offset".
//!
//! The constant text between two values (keys, commas, braces, a composite's opening, the
//! closing of the composites before, constants' values) is one [`Text`], copied by one
//! fixed-size copy. A block's fields are one flat list of operations (composites flattened into
//! it); its groups and var data follow, walked beside the decoder's plan (whose checks, shared
//! with [`Decoder::decode`], give the same errors at the same offsets).
//!
//! When a message fails midway, what is open at the failing point is known statically, so each
//! place that can fail carries the text that closes everything (after what was written), and the
//! printer adds the `error` key: the same bytes as [`crate::json::JsonVisitor`] writes through
//! the generic [`crate::decode::Visitor`] path (the tests compare the two on every conformance
//! vector, every truncation of each, and random messages of every shared schema).

use sable_ir::PrimitiveType;

use crate::decode::{
    block_end, is_nan, number_of, read_raw, Block, Charset, Choice, DecodeError, Decoder, Kind,
    Node, NullCheck, Tail, Value,
};
use crate::json::{
    write_enum, write_f32, write_f64, write_hex_str, write_i64, write_json_str, write_text,
    write_u64, write_value,
};

/// Constant text, written by one fixed-size copy (then cut) when it fits in 32 bytes.
#[derive(Debug, Clone)]
pub(crate) struct Text {
    short: [u8; 32],
    len: u8,
    long: Option<Box<[u8]>>,
}

impl Text {
    fn new(bytes: &[u8]) -> Text {
        let mut short = [0u8; 32];
        match short.get_mut(..bytes.len()) {
            Some(s) => {
                s.copy_from_slice(bytes);
                Text {
                    short,
                    len: bytes.len() as u8,
                    long: None,
                }
            }
            None => Text {
                short,
                len: 0,
                long: Some(bytes.into()),
            },
        }
    }

    /// Appends the text.
    #[inline(always)]
    pub(crate) fn put(&self, out: &mut Vec<u8>) {
        match &self.long {
            // A fixed-size copy compiles to two vector moves rather than a call to memcpy.
            None => {
                let len = out.len() + usize::from(self.len);
                out.extend_from_slice(&self.short);
                out.truncate(len);
            }
            Some(long) => out.extend_from_slice(long),
        }
    }
}

/// One operation of a block's fields: `text`, then the value (or `null` when the field is newer
/// than the acting version).
#[derive(Debug)]
struct Op {
    text: Text,
    /// The version the value appeared in; `i64::MIN` when it is present whenever the block is.
    since: i64,
    /// The value's offset in the block.
    off: usize,
    val: Val,
}

/// How the value of an [`Op`] is read and written. An integer's `Option<u64>` is its null
/// value's wire bits, when it has one.
#[derive(Debug)]
enum Val {
    /// No value: the text alone (closing a composite that may be absent).
    None,
    /// A composite that may be absent: `{` then its members, or `null` and the next `skip`
    /// operations skipped (its members and its closing).
    Open {
        skip: usize,
    },
    U8(Option<u64>),
    U16(Option<u64>),
    U32(Option<u64>),
    U64(Option<u64>),
    I8(Option<u64>),
    I16(Option<u64>),
    I32(Option<u64>),
    I64(Option<u64>),
    F32(NullCheck),
    F64(NullCheck),
    /// A char array: a string up to its first NUL; `null` when its first byte is the null value.
    Chars {
        len: usize,
        charset: Charset,
        null: Option<u64>,
    },
    /// An int8 or uint8 array: hex.
    Hex {
        len: usize,
    },
    /// Another array of numbers.
    Array {
        ty: PrimitiveType,
        len: usize,
    },
    Enum(Box<EnumOp>),
    Set {
        ty: PrimitiveType,
        choices: Box<[Choice]>,
    },
    /// A constant that may be absent: its JSON.
    Const(Box<[u8]>),
}

/// An enum's names, and a table from the raw value to them for one-byte encodings.
#[derive(Debug)]
struct EnumOp {
    ty: PrimitiveType,
    /// Each valid value's name as a JSON string.
    names: Box<[Text]>,
    /// One-byte encodings: by raw value, an index in `names`, or `UNKNOWN` or `NULL`.
    table: Option<Box<[u32; 256]>>,
    /// The raw values and their index in `names`, sorted by value, the first of equal values
    /// kept (as the decoder's lookup finds it).
    values: Box<[(u64, u32)]>,
    null: Option<u64>,
}

const UNKNOWN: u32 = u32::MAX - 1;
const NULL: u32 = u32::MAX;

impl EnumOp {
    fn new(
        ty: PrimitiveType,
        values: &[(u64, Box<str>)],
        null: NullCheck,
    ) -> Result<EnumOp, std::num::TryFromIntError> {
        let null = match null {
            NullCheck::Bits(b) => Some(b),
            _ => None,
        };
        let names = values
            .iter()
            .map(|(_, n)| {
                let mut json = Vec::new();
                write_json_str(&mut json, n.as_bytes(), Charset::Utf8);
                Text::new(&json)
            })
            .collect();
        let mut sorted = Vec::with_capacity(values.len());
        for (i, (raw, _)) in values.iter().enumerate() {
            sorted.push((*raw, u32::try_from(i)?));
        }
        // Stable: among equal values the first stays first, and is the one kept.
        sorted.sort_by_key(|e| e.0);
        sorted.dedup_by_key(|e| e.0);
        let table = (ty.size() == 1 && values.len() < UNKNOWN as usize).then(|| {
            let mut t = Box::new([UNKNOWN; 256]);
            for &(raw, i) in &sorted {
                if let Some(e) = t.get_mut(raw as usize) {
                    *e = i;
                }
            }
            if let Some(e) = null.and_then(|b| t.get_mut(b as usize)) {
                *e = NULL;
            }
            t
        });
        Ok(EnumOp {
            ty,
            names,
            table,
            values: sorted.into(),
            null,
        })
    }

    #[inline(always)]
    fn write(&self, out: &mut Vec<u8>, raw: u64) {
        let i = match &self.table {
            Some(t) => t[usize::from(raw as u8)],
            None if self.null == Some(raw) => NULL,
            None => match self.values.binary_search_by_key(&raw, |e| e.0) {
                Ok(at) => self.values[at].1,
                Err(_) => UNKNOWN,
            },
        };
        match self.names.get(i as usize) {
            Some(name) => name.put(out),
            None if i == NULL => out.extend_from_slice(b"null"),
            None => write_enum(out, None, number_of(raw, self.ty)),
        }
    }
}

/// A block's program: its fields' operations, then its groups and var data (beside the
/// decoder's plan's `tail`, in the same order), then `end`.
#[derive(Debug)]
struct BlockProgram {
    ops: Box<[Op]>,
    tails: Box<[TailProgram]>,
    /// Written after everything: the text after the last value, and the block's closing.
    end: Text,
    /// Written when the block runs past the end of the buffer: what is written at its start,
    /// then what closes everything open.
    cut: Box<[u8]>,
}

/// A group or var data of a block.
#[derive(Debug)]
struct TailProgram {
    /// Written once it is known to be there (or absent): the text since the last value, its key.
    text: Text,
    /// Written when its header is bad: the text since the last value, then what closes
    /// everything open.
    fail: Box<[u8]>,
    /// A group's entries.
    entry: Option<BlockProgram>,
}

/// A message's program: its header's fields (on the header's bytes), then its root block.
#[derive(Debug)]
struct MessageProgram {
    header: Box<[Op]>,
    root: BlockProgram,
}

/// The programs of every message of a decoder's schema (in the decoder's order).
#[derive(Debug)]
pub(crate) struct Program {
    messages: Vec<MessageProgram>,
}

/// Lays out operations, keeping the constant text since the last value in `pending`.
struct Builder {
    ops: Vec<Op>,
    pending: Vec<u8>,
    /// Whether the next key is the first of its object (no comma).
    first: bool,
}

impl Builder {
    fn new(pending: &[u8]) -> Builder {
        Builder {
            ops: Vec::new(),
            pending: pending.to_vec(),
            first: true,
        }
    }

    fn key(&mut self, key: &[u8]) {
        if !self.first {
            self.pending.push(b',');
        }
        self.first = false;
        self.pending.extend_from_slice(key);
    }

    fn op(&mut self, since: i64, off: usize, val: Val) {
        let text = Text::new(&self.pending);
        self.pending.clear();
        self.ops.push(Op {
            text,
            since,
            off,
            val,
        });
    }

    /// The operations of `n`, present whenever the code runs at versions of at least `floor`.
    fn node(&mut self, n: &Node, floor: i64) -> Result<(), std::num::TryFromIntError> {
        self.key(&n.info.json_key);
        let since = if n.since <= floor { i64::MIN } else { n.since };
        let off = n.offset;
        let int = |null: &NullCheck| match null {
            NullCheck::Bits(b) => Some(*b),
            _ => None,
        };
        let val = match &n.kind {
            Kind::Composite(members) => {
                if since == i64::MIN {
                    self.pending.push(b'{');
                    self.first = true;
                    for m in members.iter() {
                        self.node(m, floor)?;
                    }
                    self.pending.push(b'}');
                } else {
                    let at = self.ops.len();
                    self.op(since, off, Val::Open { skip: 0 });
                    self.first = true;
                    for m in members.iter() {
                        self.node(m, n.since)?;
                    }
                    self.pending.push(b'}');
                    self.op(i64::MIN, 0, Val::None);
                    let skip = self.ops.len() - at - 1;
                    self.ops[at].val = Val::Open { skip };
                }
                self.first = false;
                return Ok(());
            }
            Kind::Const(c) => {
                let mut json = Vec::new();
                write_value(&mut json, c.value(), true);
                if since == i64::MIN {
                    self.pending.extend_from_slice(&json);
                    return Ok(());
                }
                Val::Const(json.into())
            }
            Kind::Scalar { ty, null } => match ty {
                PrimitiveType::UInt8 | PrimitiveType::Char => Val::U8(int(null)),
                PrimitiveType::UInt16 => Val::U16(int(null)),
                PrimitiveType::UInt32 => Val::U32(int(null)),
                PrimitiveType::UInt64 => Val::U64(int(null)),
                PrimitiveType::Int8 => Val::I8(int(null)),
                PrimitiveType::Int16 => Val::I16(int(null)),
                PrimitiveType::Int32 => Val::I32(int(null)),
                PrimitiveType::Int64 => Val::I64(int(null)),
                PrimitiveType::Float => Val::F32(*null),
                PrimitiveType::Double => Val::F64(*null),
            },
            Kind::Text { len, charset, null } => Val::Chars {
                len: *len,
                charset: *charset,
                null: int(null),
            },
            Kind::Bytes { len } => Val::Hex { len: *len },
            Kind::Array { ty, len } => Val::Array { ty: *ty, len: *len },
            Kind::Enum {
                ty, values, null, ..
            } => Val::Enum(Box::new(EnumOp::new(*ty, values, *null)?)),
            Kind::Set { ty, choices } => Val::Set {
                ty: *ty,
                choices: choices.clone(),
            },
        };
        self.op(since, off, val);
        Ok(())
    }
}

/// The program of `plan`'s block: `lead` is written at its start, `close` closes everything open
/// inside it (its own object included), `end` closes it after its last element; its fields are
/// present whenever it is at versions of at least `floor`.
fn block_program(
    plan: &Block,
    lead: &[u8],
    close: &[u8],
    end: &[u8],
    floor: i64,
) -> Result<BlockProgram, std::num::TryFromIntError> {
    let mut b = Builder::new(lead);
    let cut = [lead, close].concat().into();
    for n in &plan.fields {
        b.node(n, floor)?;
    }
    let mut tails = Vec::new();
    for t in &plan.tail {
        let fail = [&b.pending[..], close].concat().into();
        let (key, entry) = match t {
            Tail::Group(g) => {
                let inner = [b"}]", close].concat();
                let entry = block_program(&g.block, b"{", &inner, b"}", floor.max(g.since))?;
                (&g.info.json_key, Some(entry))
            }
            Tail::Data(d) => (&d.info.json_key, None),
        };
        b.key(key);
        tails.push(TailProgram {
            text: Text::new(&b.pending),
            fail,
            entry,
        });
        b.pending.clear();
    }
    b.pending.extend_from_slice(end);
    Ok(BlockProgram {
        ops: b.ops.into(),
        tails: tails.into(),
        end: Text::new(&b.pending),
        cut,
    })
}

impl Program {
    /// The programs of `decoder`'s messages; `None` for a schema too large for them (an enum
    /// of more than 2^32 values), which the printer then prints through the generic path.
    pub(crate) fn new(decoder: &Decoder) -> Option<Program> {
        let header = decoder.header_plan();
        let mut messages = Vec::new();
        for m in decoder.message_plans() {
            let mut b = Builder::new(&m.info.json_prefix);
            for n in &header.fields {
                // The header's fields are always present.
                b.node(n, i64::MAX).ok()?;
            }
            b.pending.extend_from_slice(b"},\"fields\":{");
            let root = block_program(&m.block, &b.pending, b"}", b"}}", 0).ok()?;
            messages.push(MessageProgram {
                header: b.ops.into(),
                root,
            });
        }
        Some(Program { messages })
    }

    /// Prints the message at `buf[0]` as [`crate::json::JsonPrinter::print`] does.
    #[inline]
    pub(crate) fn print<const BIG: bool>(
        &self,
        decoder: &Decoder,
        buf: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<usize, DecodeError> {
        let start = match decoder.start::<BIG>(buf) {
            Ok(s) => s,
            Err(e) => {
                out.push(b'{');
                write_error(out, &e);
                return Err(e);
            }
        };
        let (Some(m), Some(plan)) = (
            self.messages.get(start.message),
            decoder.message_plans().get(start.message),
        ) else {
            unreachable!("a program for every message")
        };
        let size = decoder.header_plan().size;
        ops::<BIG>(&m.header, &buf[..size], i64::MAX, out);
        let run = Run {
            buf,
            acting: start.acting,
            schema_version: decoder.schema_version(),
        };
        match run.block::<BIG>(
            &plan.block,
            &m.root,
            size,
            start.block_length,
            "message block",
            out,
        ) {
            Ok(end) => Ok(end),
            Err(e) => {
                out.push(b',');
                write_error(out, &e);
                Err(e)
            }
        }
    }
}

/// `"error":{"offset":N,"message":"..."}}`: the error key and the top-level object's closing.
fn write_error(out: &mut Vec<u8>, e: &DecodeError) {
    out.extend_from_slice(b"\"error\":{\"offset\":");
    out.extend_from_slice(itoa::Buffer::new().format(e.offset()).as_bytes());
    out.extend_from_slice(b",\"message\":");
    write_json_str(out, e.message().as_bytes(), Charset::Utf8);
    out.extend_from_slice(b"}}");
}

/// What stays the same through a message.
struct Run<'b> {
    buf: &'b [u8],
    acting: i64,
    schema_version: i64,
}

impl Run<'_> {
    /// Prints the block of `len` bytes at `start`, then its groups and var data; returns where
    /// it ends. On error, what closes everything open has been written.
    fn block<const BIG: bool>(
        &self,
        plan: &Block,
        prog: &BlockProgram,
        start: usize,
        len: usize,
        what: &str,
        out: &mut Vec<u8>,
    ) -> Result<usize, DecodeError> {
        let buf = self.buf;
        let end = match block_end(start, len, buf.len(), what) {
            Ok(end) => end,
            Err(e) => {
                out.extend_from_slice(&prog.cut);
                return Err(e);
            }
        };
        ops::<BIG>(&prog.ops, &buf[start..end], self.acting, out);
        let mut pos = end;
        for (t, p) in plan.tail.iter().zip(prog.tails.iter()) {
            match t {
                Tail::Group(g) => {
                    if g.since > self.acting {
                        p.text.put(out);
                        out.extend_from_slice(b"null");
                        continue;
                    }
                    let dims = match g.dims::<BIG>(buf, pos, self.acting, self.schema_version) {
                        Ok(d) => d,
                        Err(e) => {
                            out.extend_from_slice(&p.fail);
                            return Err(e);
                        }
                    };
                    p.text.put(out);
                    out.push(b'[');
                    pos = dims.start;
                    if let Some(entry) = &p.entry {
                        for i in 0..dims.count {
                            if i > 0 {
                                out.push(b',');
                            }
                            pos = self.block::<BIG>(
                                &g.block,
                                entry,
                                pos,
                                dims.len,
                                "group entry",
                                out,
                            )?;
                        }
                    }
                    out.push(b']');
                }
                Tail::Data(d) => {
                    if d.since > self.acting {
                        p.text.put(out);
                        out.extend_from_slice(b"null");
                        continue;
                    }
                    let (at, n) = match d.span::<BIG>(buf, pos) {
                        Ok(s) => s,
                        Err(e) => {
                            out.extend_from_slice(&p.fail);
                            return Err(e);
                        }
                    };
                    p.text.put(out);
                    let bytes = &buf[at..at + n];
                    match d.charset {
                        Some(charset) => write_text(out, bytes, charset, false),
                        None => write_hex_str(out, bytes),
                    }
                    pos = at + n;
                }
            }
        }
        prog.end.put(out);
        Ok(pos)
    }
}

/// Reads `N` bytes at `off`, or `None` out of bounds.
#[inline(always)]
fn bytes<const N: usize>(block: &[u8], off: usize) -> Option<[u8; N]> {
    block.get(off..off.checked_add(N)?)?.try_into().ok()
}

/// Runs a block's operations on its bytes.
#[inline(always)]
fn ops<const BIG: bool>(ops: &[Op], block: &[u8], acting: i64, out: &mut Vec<u8>) {
    let mut i = 0;
    while let Some(op) = ops.get(i) {
        i += 1;
        op.text.put(out);
        if op.since > acting {
            out.extend_from_slice(b"null");
            if let Val::Open { skip } = op.val {
                i += skip;
            }
            continue;
        }
        value::<BIG>(&op.val, op.off, block, out);
    }
}

/// Writes the value of one operation.
#[inline(always)]
fn value<const BIG: bool>(val: &Val, off: usize, block: &[u8], out: &mut Vec<u8>) {
    macro_rules! int {
        ($n:literal, $null:expr, $conv:expr) => {
            match bytes::<$n>(block, off) {
                Some(b) => {
                    let raw = if BIG {
                        let mut w = [0u8; 8];
                        w[8 - $n..].copy_from_slice(&b);
                        u64::from_be_bytes(w)
                    } else {
                        let mut w = [0u8; 8];
                        w[..$n].copy_from_slice(&b);
                        u64::from_le_bytes(w)
                    };
                    if Some(raw) == *$null {
                        out.extend_from_slice(b"null");
                    } else {
                        $conv(out, raw);
                    }
                }
                None => out.extend_from_slice(b"null"),
            }
        };
    }
    match val {
        Val::None => {}
        Val::Open { .. } => out.push(b'{'),
        Val::U8(null) => int!(1, null, write_u64),
        Val::U16(null) => int!(2, null, write_u64),
        Val::U32(null) => int!(4, null, write_u64),
        Val::U64(null) => int!(8, null, write_u64),
        Val::I8(null) => int!(1, null, |o, r: u64| write_i64(o, i64::from(r as u8 as i8))),
        Val::I16(null) => int!(2, null, |o, r: u64| write_i64(
            o,
            i64::from(r as u16 as i16)
        )),
        Val::I32(null) => int!(4, null, |o, r: u64| write_i64(
            o,
            i64::from(r as u32 as i32)
        )),
        Val::I64(null) => int!(8, null, |o, r: u64| write_i64(o, r as i64)),
        Val::F32(null) => match read_raw(block, off, 4, BIG) {
            Some(raw)
                if !(matches!(null, NullCheck::Bits(b) if raw == *b)
                    || (*null == NullCheck::NaN && is_nan(PrimitiveType::Float, raw))) =>
            {
                write_f32(out, f32::from_bits(raw as u32))
            }
            _ => out.extend_from_slice(b"null"),
        },
        Val::F64(null) => match read_raw(block, off, 8, BIG) {
            Some(raw)
                if !(matches!(null, NullCheck::Bits(b) if raw == *b)
                    || (*null == NullCheck::NaN && is_nan(PrimitiveType::Double, raw))) =>
            {
                write_f64(out, f64::from_bits(raw))
            }
            _ => out.extend_from_slice(b"null"),
        },
        Val::Chars { len, charset, null } => match block.get(off..off.saturating_add(*len)) {
            Some(bytes) if !(null.is_some() && bytes.first().map(|&c| u64::from(c)) == *null) => {
                write_text(out, bytes, *charset, true)
            }
            _ => out.extend_from_slice(b"null"),
        },
        Val::Hex { len } => match block.get(off..off.saturating_add(*len)) {
            Some(bytes) => write_hex_str(out, bytes),
            None => out.extend_from_slice(b"null"),
        },
        Val::Array { ty, len } => match block.get(off..off.saturating_add(*len)) {
            Some(bytes) => {
                let size = ty.size();
                out.push(b'[');
                for (i, e) in bytes.chunks_exact(size).enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    let raw = read_raw(e, 0, size, BIG).unwrap_or(0);
                    match ty {
                        PrimitiveType::Int8 => write_i64(out, i64::from(raw as u8 as i8)),
                        PrimitiveType::Int16 => write_i64(out, i64::from(raw as u16 as i16)),
                        PrimitiveType::Int32 => write_i64(out, i64::from(raw as u32 as i32)),
                        PrimitiveType::Int64 | PrimitiveType::Char => write_i64(out, raw as i64),
                        PrimitiveType::Float => write_f32(out, f32::from_bits(raw as u32)),
                        PrimitiveType::Double => write_f64(out, f64::from_bits(raw)),
                        _ => write_u64(out, raw),
                    }
                }
                out.push(b']');
            }
            None => out.extend_from_slice(b"null"),
        },
        Val::Enum(e) => match read_raw(block, off, e.ty.size(), BIG) {
            Some(raw) => e.write(out, raw),
            None => out.extend_from_slice(b"null"),
        },
        Val::Set { ty, choices } => match read_raw(block, off, ty.size(), BIG) {
            Some(bits) => write_value(out, Value::Set { bits, choices }, true),
            None => out.extend_from_slice(b"null"),
        },
        Val::Const(json) => out.extend_from_slice(json),
    }
}

//! The JSON printer's compiled program: per message, the JSON it prints laid out as a list of
//! operations, each "copy this constant text, then write the value at this offset".
//!
//! The constant text between two values (keys, commas, braces, a composite's opening, the
//! closing of the composites before, constants' values) is one [`Text`], copied by one
//! fixed-size copy. A block's fields are one flat list of operations (composites flattened into
//! it); values newer than their block are behind one version test per run of them
//! ([`K::Since`]). Its groups and var data follow, walked beside the decoder's plan (whose
//! checks, shared with [`Decoder::decode`], give the same errors at the same offsets); the
//! entries of groups of common shapes (fields only; fields then var data; fields then groups of
//! fields only) are printed by loops of their own, without a call per entry. Output goes to a
//! scratch buffer kept per thread, each block's operations writing into room reserved for the
//! most they can write (so that the cursor stays in registers), then to the caller's `Vec` in
//! one copy.
//!
//! When a message fails midway, what is open at the failing point is known statically, so each
//! place that can fail carries the text that closes everything (after what was written), and the
//! printer adds the `error` key: the same bytes as [`crate::json::JsonVisitor`] writes through
//! the generic [`crate::decode::Visitor`] path (the tests compare the two on every conformance
//! vector, every truncation of each, and random messages of every shared schema).

use sable_ir::PrimitiveType;

#[cfg(feature = "jit")]
mod jit;

use crate::decode::{
    block_end, number_of, read_raw, Block, Charset, Choice, DecodeError, Decoder, Dims, GroupPlan,
    Kind, Node, NullCheck, Tail, Value,
};
use crate::json::{
    plain_ascii, put_bytes, put_bytes_at, short_decimal_f32, write_enum, write_f32,
    write_f32_other, write_f64, write_hex_str, write_hundredths, write_i64, write_json_str,
    write_text_slow, write_u64, write_value, Sink,
};

/// Constant text, written by one fixed-size copy of 32 bytes (then cut) when it is shorter.
#[derive(Debug, Clone)]
pub(crate) struct Text {
    short: [u8; 32],
    len: u8,
    long: Option<Box<[u8]>>,
}

impl Text {
    fn new(bytes: &[u8]) -> Text {
        let mut short = [0u8; 32];
        // At most 31 bytes (see `Op::text`).
        match short.get_mut(..bytes.len()).filter(|s| s.len() < 32) {
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
    pub(crate) fn put(&self, out: &mut impl Sink) {
        match &self.long {
            None => out.put_window(&self.short, usize::from(self.len % 32)),
            Some(long) => out.put(long),
        }
    }
}

/// The program's output: a buffer kept initialized from one message to the next (a thread's
/// scratch), written at a cursor, then copied to the caller's `Vec` in one go. A write checks
/// for room once (growing the buffer, out of line, when there is not enough) but never has to
/// update a `Vec`'s length or cut it back.
#[derive(Debug, Default)]
pub(crate) struct Cursor {
    buf: Vec<u8>,
    pos: usize,
    /// A write into a [`Slice`] did not fit (see there).
    short: bool,
}

std::thread_local! {
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A scratch buffer grown beyond this size is given back to the allocator after use.
const SCRATCH_KEPT: usize = 1 << 20;

impl Cursor {
    /// A cursor on this thread's scratch buffer.
    fn take() -> Cursor {
        Cursor {
            buf: SCRATCH.try_with(std::cell::Cell::take).unwrap_or_default(),
            pos: 0,
            short: false,
        }
    }

    /// Takes back the last byte written when it is `b`.
    fn unpush(&mut self, b: u8) {
        if self.pos > 0 && self.buf.get(self.pos - 1) == Some(&b) {
            self.pos -= 1;
        }
    }

    /// Makes room for `n` more bytes.
    #[inline(always)]
    fn reserve(&mut self, n: usize) {
        if self.buf.len().saturating_sub(self.pos) < n {
            self.grow(n);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, n: usize) {
        let len = self
            .pos
            .saturating_add(n)
            .max(self.buf.len().saturating_mul(2))
            .max(4096);
        self.buf.resize(len, 0);
    }

    /// Runs `f` on the room of `room` bytes reserved at the cursor, as a [`Slice`] (the
    /// cursor's state in locals while it writes), then moves the cursor past what it wrote.
    #[inline(always)]
    fn in_room(&mut self, room: usize, f: impl FnOnce(&mut Slice<'_>)) {
        self.reserve(room);
        let total = self.buf.len();
        let mut s = Slice {
            rest: self.buf.get_mut(self.pos..).unwrap_or_default(),
            short: false,
        };
        f(&mut s);
        let (left, short) = (s.rest.len(), s.short);
        self.pos = total - left;
        self.short |= short;
    }

    /// Appends what was written to `out`, and gives the scratch buffer back.
    fn finish(self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.buf.get(..self.pos).unwrap_or_default());
        if self.buf.len() <= SCRATCH_KEPT {
            let _ = SCRATCH.try_with(|s| s.set(self.buf));
        }
    }

    /// Writes `w` and keeps `keep` of its bytes after growing the buffer.
    #[cold]
    #[inline(never)]
    fn put_slow(&mut self, w: &[u8], keep: usize) {
        self.grow(w.len());
        if let Some(r) = self.buf.get_mut(self.pos..self.pos + w.len()) {
            r.copy_from_slice(w);
            self.pos += keep.min(w.len());
        }
    }
}

impl Sink for Cursor {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        match self.buf.get_mut(self.pos) {
            Some(r) => {
                *r = b;
                self.pos += 1;
            }
            None => self.put_slow(&[b], 1),
        }
    }

    #[inline(always)]
    fn put(&mut self, s: &[u8]) {
        match self.buf.get_mut(self.pos..self.pos.wrapping_add(s.len())) {
            Some(r) => {
                r.copy_from_slice(s);
                self.pos += s.len();
            }
            None => self.put_slow(s, s.len()),
        }
    }

    #[inline(always)]
    fn put_window<const N: usize>(&mut self, w: &[u8; N], keep: usize) {
        match self.buf.get_mut(self.pos..self.pos.wrapping_add(N)) {
            Some(r) => {
                r.copy_from_slice(w);
                self.pos += keep.min(N);
            }
            None => self.put_slow(w, keep),
        }
    }
}

/// The scratch buffer at the cursor, with room reserved for a block's operations (the most
/// bytes they can write, found when the program is compiled): the cursor's state in locals, and
/// writes that never grow the buffer. A write that does not fit (which the reserved room rules
/// out) is dropped and remembered in `short`, and the message is then printed again through the
/// generic path.
struct Slice<'a> {
    /// The room left (what is written is cut off the front).
    rest: &'a mut [u8],
    short: bool,
}

impl Sink for Slice<'_> {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        self.put_window(&[b], 1);
    }

    #[inline(always)]
    fn put(&mut self, s: &[u8]) {
        let rest = std::mem::take(&mut self.rest);
        match rest.get_mut(..s.len()) {
            Some(head) => {
                head.copy_from_slice(s);
                self.rest = &mut rest[s.len()..];
            }
            None => {
                self.rest = rest;
                self.short = true;
            }
        }
    }

    #[inline(always)]
    fn put_window<const N: usize>(&mut self, w: &[u8; N], keep: usize) {
        let rest = std::mem::take(&mut self.rest);
        match rest.first_chunk_mut::<N>() {
            Some(head) => {
                *head = *w;
                self.rest = &mut rest[keep.min(N)..];
            }
            None => {
                self.rest = rest;
                self.short = true;
            }
        }
    }
}

impl Slice<'_> {
    /// Runs `f` on a slice of its own, out of line, so that this one is never passed by
    /// reference to a call (and its state stays in registers).
    #[inline(always)]
    fn aside(&mut self, f: impl FnOnce(&mut Slice<'_>)) {
        let (rest, short) = aside(std::mem::take(&mut self.rest), f);
        self.rest = rest;
        self.short |= short;
    }
}

#[inline(never)]
fn aside<'a>(rest: &'a mut [u8], f: impl FnOnce(&mut Slice<'a>)) -> (&'a mut [u8], bool) {
    let mut s = Slice { rest, short: false };
    f(&mut s);
    (s.rest, s.short)
}

/// What an [`Op`] writes after its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum K {
    /// Nothing: the text alone (the closing of a composite that may be absent).
    None,
    /// A composite that may be absent: `{` then its members, or `null` and the next `aux`
    /// operations skipped (its members and its closing).
    Open,
    /// The text `texts[aux]` (constant text too long for an operation's own).
    Long,
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
    /// A char array of `aux` bytes: a string up to its first NUL (in `charset`).
    Chars,
    /// An int8 or uint8 array of `aux` bytes: hex.
    Hex,
    /// Another array of numbers (of `ty`), `aux` bytes.
    Array,
    /// `enums[aux]`.
    Enum,
    /// `enums[aux]`, of one byte (by its table).
    Enum1,
    /// `sets[aux]`.
    Set,
    /// `sets[aux]`, of one byte (by its table).
    Set1,
    /// A constant that may be absent: `texts[aux]`.
    Const,
    /// The test of the version of the next `aux` operations (all of `since`): below it,
    /// `texts[off]` (their texts and `null`s) instead of them.
    Since,
}

/// One operation of a block's fields: `text`, then the value at `off` (or `null` when it holds
/// its null value). Values newer than the block are behind a [`K::Since`] operation. One cache
/// line.
#[derive(Debug, Clone)]
struct Op {
    /// Constant text, the first `len` bytes (copied whole, then cut; `len` below 32).
    text: [u8; 32],
    /// The null value's wire bits (when `has_null`; else `u64::MAX`, which no value of less than
    /// eight bytes equals: those are tested by one comparison).
    null: u64,
    /// The version the value appeared in; `i32::MIN` when present whenever the block is (after
    /// [`versions_tested_once`], every operation's but [`K::Since`]'s).
    since: i32,
    off: u32,
    aux: u32,
    len: u8,
    kind: K,
    has_null: bool,
    /// A float whose null value is NaN: every NaN is null.
    nan_null: bool,
    ty: PrimitiveType,
    charset: Charset,
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
    fn new(ty: PrimitiveType, values: &[(u64, Box<str>)], null: NullCheck) -> Option<EnumOp> {
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
            sorted.push((*raw, u32::try_from(i).ok().filter(|&i| i < UNKNOWN)?));
        }
        // Stable: among equal values the first stays first, and is the one kept.
        sorted.sort_by_key(|e| e.0);
        sorted.dedup_by_key(|e| e.0);
        let table = (ty.size() == 1).then(|| {
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
        Some(EnumOp {
            ty,
            names,
            table,
            values: sorted.into(),
            null,
        })
    }

    /// The most bytes a value writes.
    fn bound(&self) -> usize {
        let names = self.names.iter().map(Text::bound).max().unwrap_or(0);
        // `{"unknown":-9223372036854775808}`
        names.max(32)
    }

    #[inline(always)]
    fn write(&self, out: &mut Slice<'_>, raw: u64) {
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
            None if i == NULL => out.put(b"null"),
            None => {
                let n = number_of(raw, self.ty);
                out.aside(|o| write_enum(o, None, n));
            }
        }
    }
}

impl Text {
    /// The text's bytes.
    #[cfg(feature = "jit")]
    fn bytes(&self) -> &[u8] {
        match &self.long {
            None => self
                .short
                .get(..usize::from(self.len % 32))
                .unwrap_or_default(),
            Some(long) => long,
        }
    }

    /// The bytes a copy of the text may touch.
    fn bound(&self) -> usize {
        self.long.as_ref().map_or(32, |l| l.len())
    }
}

/// A block's program: its fields' operations, then its groups and var data (beside the
/// decoder's plan's `tail`, in the same order), then `end`.
#[derive(Debug)]
struct BlockProgram {
    /// The fields' operations; the root block's start with the header's (all read from the
    /// message's first byte: `base`, the header's size, is in the block's offsets).
    ops: Box<[Op]>,
    base: usize,
    /// The most bytes the operations write.
    bound: usize,
    /// As a group's entry: the most bytes an entry writes (its fields, its closing and a
    /// comma), and the most entries written in one reserved room.
    entry_room: usize,
    entries_at_once: u64,
    /// `end` and a comma (an entry's closing before the next entry).
    end_comma: Text,
    tails: Box<[TailProgram]>,
    /// Whether its tails are var data only, at most [`MAX_DATA`] of them.
    data_tails: bool,
    /// Whether its tails are groups of entries of fields only.
    group_tails: bool,
    /// Written after everything: the text after the last value, and the block's closing.
    end: Text,
    /// Written when the block runs past the end of the buffer: what is written at its start,
    /// then what closes everything open.
    cut: Box<[u8]>,
    /// The operations compiled to machine code (feature `jit`).
    #[cfg(feature = "jit")]
    jit: Option<jit::Compiled>,
}

impl BlockProgram {
    /// A group entry's `cut` without the entry's own `{}`: what closes everything open around an
    /// entry that is not begun.
    fn entry_cut(&self) -> &[u8] {
        debug_assert!(self.cut.starts_with(b"{}"));
        self.cut.get(2..).unwrap_or_default()
    }
}

/// A group or var data of a block.
#[derive(Debug)]
struct TailProgram {
    /// Written once it is known to be there (or absent): the text since the last value, its key.
    text: Text,
    /// `text` and what opens a present group (`[`) or var data of text (`"`).
    open: Text,
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
    header_bound: usize,
    root: BlockProgram,
    /// The whole message compiled to machine code, for the common case (feature `jit`).
    #[cfg(feature = "jit")]
    jit: Option<jit::CompiledMessage>,
}

/// The programs of every message of a decoder's schema (in the decoder's order).
#[derive(Debug)]
pub(crate) struct Program {
    messages: Vec<MessageProgram>,
    tables: Tables,
    /// The compiled code of the blocks (feature `jit`), kept alive with them.
    #[cfg(feature = "jit")]
    _code: Option<jit::Code>,
}

/// What operations refer to by index.
#[derive(Debug, Default)]
struct Tables {
    texts: Vec<Box<[u8]>>,
    enums: Vec<EnumOp>,
    sets: Vec<SetOp>,
}

/// A set, and for one-byte encodings the JSON of each of its 256 values.
#[derive(Debug)]
struct SetOp {
    ty: PrimitiveType,
    choices: Box<[Choice]>,
    table: Option<Box<[Text]>>,
    /// One-byte encodings, for the compiled code (feature `jit`): by value, 32 bytes holding
    /// its JSON (when it fits), then by value, the JSON's length (`u8::MAX` when it does not
    /// fit).
    #[cfg(feature = "jit")]
    windows: Option<Box<[u8]>>,
}

impl SetOp {
    fn new(ty: PrimitiveType, choices: &[Choice]) -> SetOp {
        let table = (ty.size() == 1).then(|| {
            (0..256u64)
                .map(|bits| {
                    let mut json = Vec::new();
                    write_value(&mut json, Value::Set { bits, choices }, true);
                    Text::new(&json)
                })
                .collect()
        });
        #[cfg(feature = "jit")]
        let windows = (ty.size() == 1).then(|| {
            let mut w = vec![0u8; 256 * 33];
            for bits in 0..256usize {
                let mut json = Vec::new();
                write_value(
                    &mut json,
                    Value::Set {
                        bits: bits as u64,
                        choices,
                    },
                    true,
                );
                let len = match w.get_mut(bits * 32..bits * 32 + json.len()) {
                    Some(at) if json.len() <= 32 => {
                        at.copy_from_slice(&json);
                        json.len() as u8
                    }
                    _ => u8::MAX,
                };
                w[256 * 32 + bits] = len;
            }
            w.into_boxed_slice()
        });
        SetOp {
            ty,
            choices: choices.into(),
            table,
            #[cfg(feature = "jit")]
            windows,
        }
    }
}

/// Lays out operations, keeping the constant text since the last value in `pending`.
struct Builder<'t> {
    tables: &'t mut Tables,
    ops: Vec<Op>,
    bound: usize,
    pending: Vec<u8>,
    /// Whether the next key is the first of its object (no comma).
    first: bool,
    /// Added to every value's offset (the root block's operations read the message from its
    /// header on).
    base: usize,
}

/// The most bytes a value of `ty` writes (with the room its fixed-size writes touch).
fn number_bound(ty: PrimitiveType) -> usize {
    match ty {
        PrimitiveType::Double => 40,
        _ => 32,
    }
}

impl<'t> Builder<'t> {
    fn new(tables: &'t mut Tables, pending: &[u8]) -> Builder<'t> {
        Builder {
            tables,
            ops: Vec::new(),
            bound: 0,
            pending: pending.to_vec(),
            first: true,
            base: 0,
        }
    }

    fn key(&mut self, key: &[u8]) {
        if !self.first {
            self.pending.push(b',');
        }
        self.first = false;
        self.pending.extend_from_slice(key);
    }

    fn index<T>(v: &[T]) -> Option<u32> {
        u32::try_from(v.len()).ok()
    }

    /// Adds an operation (with the pending text) writing at most `bound` bytes of value.
    fn op(&mut self, since: i64, off: usize, kind: K, bound: usize) -> Option<&mut Op> {
        let mut text = [0u8; 32];
        // At most 31 bytes: a length the operations can take modulo 32 (no test against the
        // window's size).
        let len = match text.get_mut(..self.pending.len()).filter(|t| t.len() < 32) {
            Some(t) => {
                t.copy_from_slice(&self.pending);
                self.pending.len()
            }
            None if self.pending.len() < 63 => {
                // Too long for the operation, short enough for two: the head by an operation
                // of text alone before it (cheaper than a `Long` one's call to `memcpy`).
                let split = self.pending.len() - 31;
                let (head, tail) = self.pending.split_at(split);
                let mut first = [0u8; 32];
                first.get_mut(..split)?.copy_from_slice(head);
                text.get_mut(..31)?.copy_from_slice(tail);
                self.bound += 32;
                self.ops.push(Op {
                    text: first,
                    null: u64::MAX,
                    since: i32::MIN,
                    off: 0,
                    aux: 0,
                    len: split as u8,
                    kind: K::None,
                    has_null: false,
                    nan_null: false,
                    ty: PrimitiveType::UInt8,
                    charset: Charset::Latin1,
                });
                31
            }
            None => {
                // Too long for two operations: a `Long` one before it.
                let aux = Self::index(&self.tables.texts)?;
                self.bound += self.pending.len();
                self.tables.texts.push(self.pending.as_slice().into());
                self.ops.push(Op {
                    text,
                    null: u64::MAX,
                    since: i32::MIN,
                    off: 0,
                    aux,
                    len: 0,
                    kind: K::Long,
                    has_null: false,
                    nan_null: false,
                    ty: PrimitiveType::UInt8,
                    charset: Charset::Latin1,
                });
                0
            }
        };
        self.pending.clear();
        // A value newer than the acting version is `null`.
        self.bound += 32 + bound.max(4);
        self.ops.push(Op {
            text,
            null: u64::MAX,
            since: if since == i64::MIN {
                i32::MIN
            } else {
                i32::try_from(since).ok()?
            },
            off: u32::try_from(off.checked_add(self.base)?).ok()?,
            aux: 0,
            len: len as u8,
            kind,
            has_null: false,
            nan_null: false,
            ty: PrimitiveType::UInt8,
            charset: Charset::Latin1,
        });
        self.ops.last_mut()
    }

    /// The operations of `n`, present whenever the code runs at versions of at least `floor`.
    fn node(&mut self, n: &Node, floor: i64) -> Option<()> {
        self.key(&n.info.json_key);
        let since = if n.since <= floor { i64::MIN } else { n.since };
        let off = n.offset;
        let null = |null: &NullCheck| match null {
            NullCheck::Bits(b) => Some(*b),
            _ => None,
        };
        let (kind, bound, null, aux) = match &n.kind {
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
                    self.op(since, off, K::Open, 1)?;
                    let at = self.ops.len().max(at + 1) - 1;
                    self.first = true;
                    for m in members.iter() {
                        self.node(m, n.since)?;
                    }
                    self.pending.push(b'}');
                    self.op(i64::MIN, 0, K::None, 0)?;
                    let skip = self.ops.len() - at - 1;
                    self.ops[at].aux = u32::try_from(skip).ok()?;
                }
                self.first = false;
                return Some(());
            }
            Kind::Const(c) => {
                let mut json = Vec::new();
                write_value(&mut json, c.value(), true);
                if since == i64::MIN {
                    self.pending.extend_from_slice(&json);
                    return Some(());
                }
                let aux = Self::index(&self.tables.texts)?;
                let bound = json.len();
                self.tables.texts.push(json.into());
                (K::Const, bound, None, aux)
            }
            Kind::Scalar { ty, null: n } => {
                let kind = match ty {
                    PrimitiveType::UInt8 | PrimitiveType::Char => K::U8,
                    PrimitiveType::UInt16 => K::U16,
                    PrimitiveType::UInt32 => K::U32,
                    PrimitiveType::UInt64 => K::U64,
                    PrimitiveType::Int8 => K::I8,
                    PrimitiveType::Int16 => K::I16,
                    PrimitiveType::Int32 => K::I32,
                    PrimitiveType::Int64 => K::I64,
                    PrimitiveType::Float => K::F32,
                    PrimitiveType::Double => K::F64,
                };
                let op = self.op(since, off, kind, number_bound(*ty))?;
                if let Some(b) = null(n) {
                    op.has_null = true;
                    op.null = b;
                }
                op.nan_null = *n == NullCheck::NaN;
                return Some(());
            }
            Kind::Text {
                len,
                charset,
                null: n,
            } => {
                let op = self.op(since, off, K::Chars, (6 * len + 2).max(2 * len + 10) + 32)?;
                op.aux = u32::try_from(*len).ok()?;
                op.charset = *charset;
                if let Some(b) = null(n) {
                    op.has_null = true;
                    op.null = b;
                }
                return Some(());
            }
            Kind::Bytes { len } => (K::Hex, 2 * len + 2, None, u32::try_from(*len).ok()?),
            Kind::Array { ty, len } => {
                let n = len / ty.size();
                let op = self.op(since, off, K::Array, n * (number_bound(*ty) + 1) + 2)?;
                op.aux = u32::try_from(*len).ok()?;
                op.ty = *ty;
                return Some(());
            }
            Kind::Enum {
                ty, values, null, ..
            } => {
                let e = EnumOp::new(*ty, values, *null)?;
                let bound = e.bound();
                let aux = Self::index(&self.tables.enums)?;
                self.tables.enums.push(e);
                let kind = if ty.size() == 1 { K::Enum1 } else { K::Enum };
                (kind, bound, None, aux)
            }
            Kind::Set { ty, choices } => {
                let bound = 2 + choices.iter().map(|c| c.json.len() + 1).sum::<usize>() + 64 * 3;
                let aux = Self::index(&self.tables.sets)?;
                self.tables.sets.push(SetOp::new(*ty, choices));
                let kind = if ty.size() == 1 { K::Set1 } else { K::Set };
                (kind, bound, None, aux)
            }
        };
        let op = self.op(since, off, kind, bound)?;
        op.aux = aux;
        if let Kind::Enum { ty, .. } = &n.kind {
            op.ty = *ty;
        }
        if let Some(b) = null {
            op.has_null = true;
            op.null = b;
        }
        Some(())
    }
}

/// `ops` with the version tests of each run of operations of the same version (a composite's
/// members included) made by one [`K::Since`] operation before them, their null texts added to
/// `texts`; and the most bytes those texts add to what the operations write.
fn versions_tested_once(ops: &[Op], texts: &mut Vec<Box<[u8]>>) -> Option<(Vec<Op>, usize)> {
    let mut out = Vec::with_capacity(ops.len());
    let mut more = 0;
    lower_versions(ops, texts, &mut out, &mut more)?;
    Some((out, more))
}

/// The operations an operation at `ops[0]` spans: itself, and a composite's members and closing.
fn unit_len(ops: &[Op]) -> usize {
    match ops.first() {
        Some(op) if op.kind == K::Open => (1 + op.aux as usize).min(ops.len()),
        _ => 1,
    }
}

fn lower_versions(
    ops: &[Op],
    texts: &mut Vec<Box<[u8]>>,
    out: &mut Vec<Op>,
    more: &mut usize,
) -> Option<()> {
    let mut i = 0;
    while let Some(op) = ops.get(i) {
        let since = op.since;
        let mut j = i;
        let mut null = Vec::new();
        while let Some(o) = ops.get(j).filter(|o| o.since == since) {
            null.extend_from_slice(o.text.get(..usize::from(o.len))?);
            null.extend_from_slice(b"null");
            j += unit_len(&ops[j..]);
        }
        let test = out.len();
        if since != i32::MIN {
            out.push(Op {
                kind: K::Since,
                len: 0,
                off: u32::try_from(texts.len()).ok()?,
                ..op.clone()
            });
            // A copy of up to 64 bytes touches 32 more.
            *more += null.len() + 32;
            texts.push(null.into());
        }
        while i < j {
            let n = unit_len(&ops[i..]);
            let mut op = ops.get(i)?.clone();
            op.since = i32::MIN;
            let open = out.len();
            out.push(op);
            lower_versions(ops.get(i + 1..i + n)?, texts, out, more)?;
            out[open].aux = if out[open].kind == K::Open {
                u32::try_from(out.len() - open - 1).ok()?
            } else {
                out[open].aux
            };
            i += n;
        }
        if since != i32::MIN {
            out[test].aux = u32::try_from(out.len() - test - 1).ok()?;
        }
    }
    Some(())
}

/// The program of `plan`'s block: `lead` is written at its start, `close` closes everything open
/// inside it (its own object included), `end` closes it after its last element; its fields are
/// present whenever it is at versions of at least `floor`.
#[allow(clippy::too_many_arguments)]
fn block_program(
    tables: &mut Tables,
    plan: &Block,
    lead: &[u8],
    close: &[u8],
    end: &[u8],
    floor: i64,
    header: (Vec<Op>, usize),
    base: usize,
) -> Option<BlockProgram> {
    let mut b = Builder::new(tables, lead);
    (b.ops, b.bound) = header;
    b.base = base;
    let cut = [lead, close].concat().into();
    for n in &plan.fields {
        b.node(n, floor)?;
    }
    let Builder {
        ops,
        bound,
        mut pending,
        first,
        ..
    } = b;
    let (ops, more) = versions_tested_once(&ops, &mut tables.texts)?;
    let bound = bound + more;
    let mut first = first;
    let mut tails = Vec::new();
    for t in &plan.tail {
        let fail = [&pending[..], close].concat().into();
        let (key, entry) = match t {
            Tail::Group(g) => {
                let inner = [b"}]", close].concat();
                let entry = block_program(
                    tables,
                    &g.block,
                    b"{",
                    &inner,
                    b"}",
                    floor.max(g.since),
                    (Vec::new(), 0),
                    0,
                )?;
                (&g.info.json_key, Some(entry))
            }
            Tail::Data(d) => (&d.info.json_key, None),
        };
        if !first {
            pending.push(b',');
        }
        first = false;
        pending.extend_from_slice(key);
        let open = [&pending[..], if entry.is_some() { b"[" } else { b"\"" }].concat();
        tails.push(TailProgram {
            text: Text::new(&pending),
            open: Text::new(&open),
            fail,
            entry,
        });
        pending.clear();
    }
    pending.extend_from_slice(end);
    let end = Text::new(&pending);
    let end_comma = Text::new(&[&pending[..], b","].concat());
    // (One more for [`entries_one_by_one`]'s comma before an entry.)
    let entry_room = bound + end_comma.bound().max(end.bound()) + 1;
    Some(BlockProgram {
        ops: ops.into(),
        base,
        bound,
        entry_room,
        entries_at_once: (ENTRIES_ROOM / entry_room) as u64,
        end_comma,
        data_tails: !tails.is_empty()
            && tails.len() <= MAX_DATA
            && tails.iter().all(|t| t.entry.is_none()),
        group_tails: !tails.is_empty()
            && tails
                .iter()
                .all(|t| t.entry.as_ref().is_some_and(|e| e.tails.is_empty())),
        tails: tails.into(),
        end,
        cut,
        #[cfg(feature = "jit")]
        jit: None,
    })
}

impl Program {
    /// The programs of `decoder`'s messages; `None` for a schema too large for them (offsets or
    /// versions beyond 32 bits, enums of 2^32 values), which the printer then prints through the
    /// generic path.
    pub(crate) fn new(decoder: &Decoder) -> Option<Program> {
        let header = decoder.header_plan();
        let mut tables = Tables::default();
        let mut messages = Vec::new();
        for m in decoder.message_plans() {
            let mut b = Builder::new(&mut tables, &m.info.json_prefix);
            for n in &header.fields {
                // The header's fields are always present.
                b.node(n, i64::MAX)?;
            }
            b.pending.extend_from_slice(b"},\"fields\":{");
            let Builder {
                ops,
                bound,
                pending,
                ..
            } = b;
            // The root block's operations start with the header's (all read from the
            // message's first byte).
            let root = block_program(
                &mut tables,
                &m.block,
                &pending,
                b"}",
                b"}}",
                0,
                (ops.clone(), bound),
                header.size,
            )?;
            messages.push(MessageProgram {
                header: ops.into(),
                header_bound: bound,
                root,
                #[cfg(feature = "jit")]
                jit: None,
            });
        }
        #[cfg(feature = "jit")]
        let _code = jit::compile_all(&tables, &mut messages, decoder.message_plans(), header.size);
        Some(Program {
            messages,
            tables,
            #[cfg(feature = "jit")]
            _code,
        })
    }

    /// How many messages were compiled whole to machine code, of how many (feature `jit`).
    #[cfg(feature = "jit")]
    pub(crate) fn compiled_messages(&self) -> (usize, usize) {
        let n = self.messages.iter().filter(|m| m.jit.is_some()).count();
        (n, self.messages.len())
    }

    /// How many blocks' operations were compiled to machine code, of how many (feature `jit`).
    #[cfg(feature = "jit")]
    pub(crate) fn compiled_blocks(&self) -> (usize, usize) {
        fn count(p: &BlockProgram, n: &mut (usize, usize)) {
            n.0 += usize::from(p.jit.is_some());
            n.1 += 1;
            for t in p.tails.iter() {
                if let Some(e) = &t.entry {
                    count(e, n);
                }
            }
        }
        let mut n = (0, 0);
        for m in &self.messages {
            count(&m.root, &mut n);
        }
        n
    }

    /// Prints the message at `buf[0]` as [`crate::json::JsonPrinter::print`] does; `None` (and
    /// nothing written) when it could not (see [`Slice`]).
    #[inline]
    pub(crate) fn print<const BIG: bool>(
        &self,
        decoder: &Decoder,
        buf: &[u8],
        out: &mut Vec<u8>,
    ) -> Option<Result<usize, DecodeError>> {
        // The message's compiled code (feature `jit`, little-endian), straight into `out`;
        // anything it does not print (errors included) goes to the interpreter.
        #[cfg(feature = "jit")]
        if !BIG {
            if let Ok(start) = decoder.start::<false>(buf) {
                if let Some(c) = self
                    .messages
                    .get(start.message)
                    .and_then(|m| m.jit.as_ref())
                {
                    let (bl, acting) = (start.block_length, start.acting);
                    if let Some(end) = jit::run_message(c, &self.tables, buf, bl, acting, out) {
                        return Some(Ok(end));
                    }
                }
            }
        }
        let mut cursor = Cursor::take();
        let r = self.run::<BIG>(decoder, buf, &mut cursor);
        if cursor.short {
            // Not expected (the room reserved for each block is the most it can write), but
            // then the generic path prints the message.
            cursor.pos = 0;
            cursor.finish(out);
            return None;
        }
        cursor.finish(out);
        Some(r)
    }

    #[inline(always)]
    fn run<const BIG: bool>(
        &self,
        decoder: &Decoder,
        buf: &[u8],
        out: &mut Cursor,
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
        let run = Run {
            tables: &self.tables,
            buf,
            acting: start.acting,
            schema_version: decoder.schema_version(),
            message: m,
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
                // The same item as the plain walk's, which also names it (its field path): the
                // program's loops do not track where they are.
                let e = decoder.message_length(buf).err().unwrap_or(e);
                out.push(b',');
                write_error(out, &e);
                Err(e)
            }
        }
    }
}

/// `"error":{"offset":N,"field":"...","kind":"...","message":"..."}}`: the error key and the
/// top-level object's closing.
fn write_error(out: &mut Cursor, e: &DecodeError) {
    out.put(b"\"error\":{\"offset\":");
    out.put(itoa::Buffer::new().format(e.offset()).as_bytes());
    out.put(b",\"field\":");
    write_json_str(out, e.field().as_bytes(), Charset::Utf8);
    out.put(b",\"kind\":\"");
    out.put(e.kind().name().as_bytes());
    out.put(b"\",\"message\":");
    write_json_str(out, e.message().as_bytes(), Charset::Utf8);
    out.put(b"}}");
}

/// What stays the same through a message.
struct Run<'b> {
    tables: &'b Tables,
    buf: &'b [u8],
    acting: i64,
    schema_version: i64,
    message: &'b MessageProgram,
}

impl Run<'_> {
    /// The dimensions of the group `g` whose header is at `pos`; `None` when it is newer than
    /// the acting version (its key and `null` written). On error, what closes everything open
    /// has been written.
    #[inline(always)]
    fn group_dims<const BIG: bool>(
        &self,
        g: &GroupPlan,
        p: &TailProgram,
        pos: usize,
        out: &mut Cursor,
    ) -> Result<Option<Dims>, DecodeError> {
        if g.since > self.acting {
            p.text.put(out);
            out.put(b"null");
            return Ok(None);
        }
        match g
            .check
            .dims::<BIG>(self.buf, pos, self.acting, self.schema_version)
        {
            Ok(d) => Ok(Some(d)),
            Err(e) => {
                out.put(&p.fail);
                Err(e)
            }
        }
    }

    /// Prints the block of `len` bytes at `start`, then its groups and var data; returns where
    /// it ends. On error, what closes everything open has been written.
    fn block<const BIG: bool>(
        &self,
        plan: &Block,
        prog: &BlockProgram,
        start: usize,
        len: usize,
        what: &str,
        out: &mut Cursor,
    ) -> Result<usize, DecodeError> {
        let buf = self.buf;
        let end = match block_end(start, len, buf.len(), what) {
            Ok(end) => end,
            Err(e) => {
                if prog.base > 0 {
                    // The root block: the header is printed all the same.
                    let m = self.message;
                    let header = buf.get(..prog.base).unwrap_or_default();
                    ops::<BIG>(
                        self.tables,
                        &m.header,
                        m.header_bound,
                        None,
                        header,
                        i64::MAX,
                        out,
                    );
                    out.put(&prog.cut);
                } else {
                    // A group's entry: not begun (nor the comma before it), as the visitors see it.
                    out.unpush(b',');
                    out.put(prog.entry_cut());
                }
                return Err(e);
            }
        };
        ops::<BIG>(
            self.tables,
            &prog.ops,
            prog.bound,
            Some(prog),
            buf.get(start.saturating_sub(prog.base)..end)
                .unwrap_or_default(),
            self.acting,
            out,
        );
        let mut pos = end;
        for (t, p) in plan.tail.iter().zip(prog.tails.iter()) {
            match t {
                Tail::Group(g) => {
                    let Some(dims) = self.group_dims::<BIG>(g, p, pos, out)? else {
                        continue;
                    };
                    pos = dims.start;
                    if let Some(entry) = p.entry.as_ref().filter(|e| e.tails.is_empty()) {
                        // Entries of fields only: all of them in one loop, with the key and
                        // the brackets.
                        pos = entries::<BIG>(
                            self.tables,
                            &p.open,
                            entry,
                            buf,
                            pos,
                            dims.count,
                            dims.len,
                            self.acting,
                            out,
                        )?;
                        continue;
                    }
                    p.open.put(out);
                    if let Some(entry) = p.entry.as_ref().filter(|e| e.data_tails) {
                        pos = self.entries_with_data::<BIG>(&g.block, entry, pos, dims, out)?;
                    } else if let Some(entry) = p.entry.as_ref().filter(|e| e.group_tails) {
                        pos = self.entries_with_groups::<BIG>(&g.block, entry, pos, dims, out)?;
                    } else if let Some(entry) = &p.entry {
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
                        out.put(b"null");
                        continue;
                    }
                    let (at, n) = match d.check.span::<BIG>(buf, pos) {
                        Ok(s) => s,
                        Err(e) => {
                            out.put(&p.fail);
                            return Err(e);
                        }
                    };
                    let bytes = &buf[at..at + n];
                    match d.charset {
                        Some(_) if plain_ascii(bytes) => {
                            p.open.put(out);
                            put_bytes_at(out, buf, at, n);
                            out.push(b'"');
                        }
                        Some(charset) => {
                            p.text.put(out);
                            write_text_slow(out, bytes, charset, false);
                        }
                        None => {
                            p.text.put(out);
                            write_hex_str(out, bytes);
                        }
                    }
                    pos = at + n;
                }
            }
        }
        prog.end.put(out);
        Ok(pos)
    }
}

/// The most var data of a group's entry written with its fields.
const MAX_DATA: usize = 4;

impl Run<'_> {
    /// The entries of a group whose entries end in var data only (`prog.data_tails`), after
    /// `[`; returns where they end. An entry in bounds whose var data are present
    /// and plain text is written in one reserved room (its fields, its var data, its closing),
    /// without a call per entry; any other through [`Run::block`].
    #[inline(never)]
    fn entries_with_data<const BIG: bool>(
        &self,
        plan: &Block,
        prog: &BlockProgram,
        mut pos: usize,
        dims: Dims,
        out: &mut Cursor,
    ) -> Result<usize, DecodeError> {
        let buf = self.buf;
        for i in 0..dims.count {
            let mut spans = [(0usize, 0usize); MAX_DATA];
            let mut room = prog.entry_room;
            let mut fast = None;
            if let Some(end) = pos.checked_add(dims.len).filter(|&e| e <= buf.len()) {
                let mut at = end;
                let mut n = 0;
                for ((t, p), span) in plan.tail.iter().zip(&prog.tails).zip(spans.iter_mut()) {
                    let Tail::Data(d) = t else { break };
                    if d.since > self.acting || d.charset.is_none() {
                        break;
                    }
                    let Ok((start, len)) = d.check.span::<BIG>(buf, at) else {
                        break;
                    };
                    if !plain_ascii(buf.get(start..start + len).unwrap_or_default()) {
                        break;
                    }
                    *span = (start, len);
                    // The key, the text and its quotes, and the room a window copy touches.
                    room += p.open.bound() + len + 33;
                    at = start + len;
                    n += 1;
                }
                if n == plan.tail.len() {
                    fast = Some((end, at));
                }
            }
            let Some((end, after)) = fast else {
                if i > 0 {
                    out.push(b',');
                }
                pos = self.block::<BIG>(plan, prog, pos, dims.len, "group entry", out)?;
                continue;
            };
            let block = buf.get(pos..end).unwrap_or_default();
            out.in_room(room, |s| {
                if i > 0 {
                    s.push(b',');
                }
                block_ops::<BIG>(self.tables, prog, block, self.acting, s);
                for (p, &(start, len)) in prog.tails.iter().zip(spans.iter()) {
                    p.open.put(s);
                    put_bytes_at(s, buf, start, len);
                    s.push(b'"');
                }
                prog.end.put(s);
            });
            pos = after;
        }
        Ok(pos)
    }
}

impl Run<'_> {
    /// The entries of a group whose entries end in groups of fields only (`prog.group_tails`),
    /// after `[`; returns where they end. Each entry's fields written in its own room, without
    /// a call per entry (an entry out of bounds goes through [`Run::block`], which writes the
    /// error).
    #[inline(never)]
    fn entries_with_groups<const BIG: bool>(
        &self,
        plan: &Block,
        prog: &BlockProgram,
        mut pos: usize,
        dims: Dims,
        out: &mut Cursor,
    ) -> Result<usize, DecodeError> {
        let buf = self.buf;
        for i in 0..dims.count {
            let Some(end) = pos.checked_add(dims.len).filter(|&e| e <= buf.len()) else {
                if i > 0 {
                    out.push(b',');
                }
                pos = self.block::<BIG>(plan, prog, pos, dims.len, "group entry", out)?;
                continue;
            };
            let block = buf.get(pos..end).unwrap_or_default();
            out.in_room(prog.entry_room, |s| {
                if i > 0 {
                    s.push(b',');
                }
                block_ops::<BIG>(self.tables, prog, block, self.acting, s);
            });
            pos = end;
            for (t, p) in plan.tail.iter().zip(prog.tails.iter()) {
                let (Tail::Group(g), Some(entry)) = (t, &p.entry) else {
                    continue;
                };
                let Some(dims) = self.group_dims::<BIG>(g, p, pos, out)? else {
                    continue;
                };
                pos = entries::<BIG>(
                    self.tables,
                    &p.open,
                    entry,
                    buf,
                    dims.start,
                    dims.count,
                    dims.len,
                    self.acting,
                    out,
                )?;
            }
            prog.end.put(out);
        }
        Ok(pos)
    }
}

/// Reads `N` bytes at `off`, or `None` out of bounds.
#[inline(always)]
fn bytes<const N: usize>(block: &[u8], off: usize) -> Option<[u8; N]> {
    block.get(off..off.checked_add(N)?)?.try_into().ok()
}

/// Runs a block's operations on its bytes (`prog`'s, when given: compiled when they are).
#[inline(never)]
fn ops<const BIG: bool>(
    tables: &Tables,
    ops: &[Op],
    bound: usize,
    prog: Option<&BlockProgram>,
    block: &[u8],
    acting: i64,
    out: &mut Cursor,
) {
    // `Cursor::in_room` written out: through the closure, LLVM lays out this hottest loop
    // and `entries`' with a few more instructions per message (MarketData +32, measured).
    out.reserve(bound);
    let len = out.buf.len();
    let mut s = Slice {
        rest: out.buf.get_mut(out.pos..).unwrap_or_default(),
        short: false,
    };
    match prog {
        Some(prog) => block_ops::<BIG>(tables, prog, block, acting, &mut s),
        None => ops_in::<BIG>(tables, ops, block, acting, &mut s),
    }
    let (left, short) = (s.rest.len(), s.short);
    out.pos = len - left;
    out.short |= short;
}

/// The most room reserved at once for a group's entries (more entries are written one by one).
const ENTRIES_ROOM: usize = 1 << 14;

/// The entries of a group whose entries hold fields only (no group or var data), each `len`
/// bytes from `pos`, after `key` (with the `[`), then `]`. Returns where they end.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn entries<const BIG: bool>(
    tables: &Tables,
    key: &Text,
    prog: &BlockProgram,
    buf: &[u8],
    pos: usize,
    count: u64,
    len: usize,
    acting: i64,
    out: &mut Cursor,
) -> Result<usize, DecodeError> {
    // The dimensions' checks put every entry inside the buffer (`count` entries of at least
    // `len` bytes fit in what is left), so no entry can fail: no check per entry.
    let body = (count <= prog.entries_at_once)
        .then(|| buf.get(pos..pos.checked_add((count as usize).checked_mul(len)?)?))
        .flatten();
    let Some(body) = body else {
        return entries_one_by_one::<BIG>(tables, key, prog, buf, pos, count, len, acting, out);
    };
    let n = count as usize;
    // The key, `]`, and each entry: its fields, its closing and a comma.
    // `Cursor::in_room` written out, as in `ops`.
    out.reserve(key.bound() + 1 + n * prog.entry_room);
    let total = out.buf.len();
    let mut s = Slice {
        rest: out.buf.get_mut(out.pos..).unwrap_or_default(),
        short: false,
    };
    key.put(&mut s);
    let mut rest = body;
    for i in 1..=n {
        let (block, after) = rest.split_at_checked(len).unwrap_or_default();
        rest = after;
        block_ops::<BIG>(tables, prog, block, acting, &mut s);
        // The entry's closing, and the comma before the next one.
        if i < n { &prog.end_comma } else { &prog.end }.put(&mut s);
    }
    s.push(b']');
    let (rest, short) = (s.rest.len(), s.short);
    out.pos = total - rest;
    out.short |= short;
    Ok(pos + body.len())
}

/// [`entries`] one entry at a time, checking each one's bounds (many entries).
#[allow(clippy::too_many_arguments)]
#[cold]
#[inline(never)]
fn entries_one_by_one<const BIG: bool>(
    tables: &Tables,
    key: &Text,
    prog: &BlockProgram,
    buf: &[u8],
    mut pos: usize,
    count: u64,
    len: usize,
    acting: i64,
    out: &mut Cursor,
) -> Result<usize, DecodeError> {
    key.put(out);
    let room = prog.entry_room;
    for i in 0..count {
        let end = match block_end(pos, len, buf.len(), "group entry") {
            Ok(end) => end,
            Err(e) => {
                out.put(prog.entry_cut());
                return Err(e);
            }
        };
        out.in_room(room, |s| {
            if i > 0 {
                s.push(b',');
            }
            block_ops::<BIG>(tables, prog, &buf[pos..end], acting, s);
            prog.end.put(s);
        });
        pos = end;
    }
    out.push(b']');
    Ok(pos)
}

/// A block's operations, writing into `s`: compiled (feature `jit`, little-endian), else
/// [`ops_in`].
#[inline(always)]
fn block_ops<const BIG: bool>(
    tables: &Tables,
    prog: &BlockProgram,
    block: &[u8],
    acting: i64,
    s: &mut Slice<'_>,
) {
    #[cfg(feature = "jit")]
    if let Some(c) = prog.jit.as_ref().filter(|_| !BIG) {
        if jit::run(c, tables, prog, block, acting, s) {
            return;
        }
    }
    ops_in::<BIG>(tables, &prog.ops, block, acting, s);
}

/// The loop of a block's operations, writing into `s`.
#[inline(always)]
fn ops_in<const BIG: bool>(
    tables: &Tables,
    ops: &[Op],
    block: &[u8],
    acting: i64,
    s: &mut Slice<'_>,
) {
    let mut ops = ops;
    while let Some((op, rest)) = ops.split_first() {
        ops = rest;
        s.put_window(&op.text, usize::from(op.len % 32));
        value::<BIG>(tables, op, block, acting, &mut ops, s);
    }
}

/// Writes the value of one operation.
#[inline(always)]
fn value<const BIG: bool>(
    tables: &Tables,
    op: &Op,
    block: &[u8],
    acting: i64,
    ops: &mut &[Op],
    out: &mut Slice<'_>,
) {
    let off = op.off as usize;
    macro_rules! int {
        ($n:literal, $raw:ident => $write:expr) => {
            match bytes::<$n>(block, off) {
                Some(b) => {
                    let $raw = if BIG {
                        let mut w = [0u8; 8];
                        w[8 - $n..].copy_from_slice(&b);
                        u64::from_be_bytes(w)
                    } else {
                        let mut w = [0u8; 8];
                        w[..$n].copy_from_slice(&b);
                        u64::from_le_bytes(w)
                    };
                    if (if $n < 8 {
                        $raw == op.null
                    } else {
                        op.has_null && $raw == op.null
                    }) {
                        out.put_window(b"null", 4);
                    } else {
                        $write;
                    }
                }
                None => out.put_window(b"null", 4),
            }
        };
    }
    match op.kind {
        K::None => {}
        K::Open => out.push(b'{'),
        K::Since => {
            if i64::from(op.since) > acting {
                if let Some(t) = tables.texts.get(op.off as usize) {
                    put_bytes(out, t);
                }
                *ops = ops.get(op.aux as usize..).unwrap_or_default();
            }
        }
        K::Long | K::Const => {
            if let Some(t) = tables.texts.get(op.aux as usize) {
                out.put(t);
            }
        }
        K::U8 => int!(1, r => write_u64(out, r)),
        K::U16 => int!(2, r => write_u64(out, r)),
        K::U32 => int!(4, r => write_u64(out, r)),
        K::U64 => int!(8, r => write_u64(out, r)),
        K::I8 => int!(1, r => write_i64(out, i64::from(r as u8 as i8))),
        K::I16 => int!(2, r => write_i64(out, i64::from(r as u16 as i16))),
        K::I32 => int!(4, r => write_i64(out, i64::from(r as u32 as i32))),
        K::I64 => int!(8, r => write_i64(out, r as i64)),
        K::F32 => int!(4, r => {
            let f = f32::from_bits(r as u32);
            if op.nan_null && f.is_nan() {
                out.put_window(b"null", 4);
            } else {
                match short_decimal_f32(f.abs()) {
                    Some(d) => write_hundredths(out, f.is_sign_negative(), d),
                    None => out.aside(|o| write_f32_other(o, f)),
                }
            }
        }),
        K::F64 => int!(8, r => {
            let f = f64::from_bits(r);
            if op.nan_null && f.is_nan() {
                out.put_window(b"null", 4);
            } else {
                out.aside(|o| write_f64(o, f));
            }
        }),
        K::Chars => match block.get(off..off.saturating_add(op.aux as usize)) {
            Some(bytes) if bytes.first().map(|&c| u64::from(c)) != Some(op.null) => {
                if plain_ascii(bytes) {
                    out.push(b'"');
                    put_bytes_at(out, block, off, bytes.len());
                    out.push(b'"');
                } else {
                    let charset = op.charset;
                    out.aside(|o| write_text_slow(o, bytes, charset, true));
                }
            }
            _ => out.put_window(b"null", 4),
        },
        K::Hex => match block.get(off..off.saturating_add(op.aux as usize)) {
            Some(bytes) => out.aside(|o| write_hex_str(o, bytes)),
            None => out.put_window(b"null", 4),
        },
        K::Array => match block.get(off..off.saturating_add(op.aux as usize)) {
            Some(bytes) => {
                let ty = op.ty;
                out.aside(|o| write_array::<BIG>(o, ty, bytes));
            }
            None => out.put_window(b"null", 4),
        },
        K::Enum => {
            if let Some(e) = tables.enums.get(op.aux as usize) {
                match read_raw(block, off, e.ty.size(), BIG) {
                    Some(raw) => e.write(out, raw),
                    None => out.put_window(b"null", 4),
                }
            }
        }
        K::Enum1 => {
            let e = tables.enums.get(op.aux as usize);
            match (e.and_then(|e| e.table.as_ref()), block.get(off)) {
                (Some(t), Some(&raw)) => {
                    let i = t[usize::from(raw)];
                    match e.and_then(|e| e.names.get(i as usize)) {
                        Some(name) => name.put(out),
                        None if i == NULL => out.put_window(b"null", 4),
                        None => {
                            let n = number_of(u64::from(raw), op.ty);
                            out.aside(|o| write_enum(o, None, n));
                        }
                    }
                }
                _ => out.put_window(b"null", 4),
            }
        }
        K::Set1 => {
            let set = tables.sets.get(op.aux as usize);
            match (set.and_then(|s| s.table.as_ref()), block.get(off)) {
                (Some(t), Some(&bits)) => {
                    if let Some(json) = t.get(usize::from(bits)) {
                        json.put(out);
                    }
                }
                _ => out.put_window(b"null", 4),
            }
        }
        K::Set => {
            if let Some(set) = tables.sets.get(op.aux as usize) {
                match read_raw(block, off, set.ty.size(), BIG) {
                    Some(bits) => match set.table.as_ref().and_then(|t| t.get(bits as usize)) {
                        Some(json) => json.put(out),
                        None => {
                            let choices = &set.choices[..];
                            out.aside(|o| write_value(o, Value::Set { bits, choices }, true))
                        }
                    },
                    None => out.put_window(b"null", 4),
                }
            }
        }
    }
}

/// An array of numbers of `ty`.
fn write_array<const BIG: bool>(out: &mut Slice<'_>, ty: PrimitiveType, bytes: &[u8]) {
    // Each element read as `N` bytes, after `[` (the first) or `,`.
    macro_rules! each {
        ($n:literal, $raw:ident => $write:expr) => {{
            let mut sep = b'[';
            for e in bytes.chunks_exact($n) {
                let mut w = [0u8; 8];
                let $raw = if BIG {
                    w[8 - $n..].copy_from_slice(e);
                    u64::from_be_bytes(w)
                } else {
                    w[..$n].copy_from_slice(e);
                    u64::from_le_bytes(w)
                };
                out.push(sep);
                sep = b',';
                $write;
            }
            if sep == b'[' {
                out.push(b'[');
            }
        }};
    }
    match ty {
        PrimitiveType::Int8 => each!(1, r => write_i64(out, i64::from(r as u8 as i8))),
        PrimitiveType::Int16 => each!(2, r => write_i64(out, i64::from(r as u16 as i16))),
        PrimitiveType::Int32 => each!(4, r => write_i64(out, i64::from(r as u32 as i32))),
        PrimitiveType::Int64 => each!(8, r => write_i64(out, r as i64)),
        PrimitiveType::Char | PrimitiveType::UInt8 => each!(1, r => write_u64(out, r)),
        PrimitiveType::UInt16 => each!(2, r => write_u64(out, r)),
        PrimitiveType::UInt32 => each!(4, r => write_u64(out, r)),
        PrimitiveType::UInt64 => each!(8, r => write_u64(out, r)),
        PrimitiveType::Float => each!(4, r => write_f32(out, f32::from_bits(r as u32))),
        PrimitiveType::Double => each!(8, r => write_f64(out, f64::from_bits(r))),
    }
    out.push(b']');
}

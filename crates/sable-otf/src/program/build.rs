//! Programs built from the decoder's plan: each block's fields laid out as operations, with
//! the constant text between values merged, versions tested once per run of newer fields.

use sable_ir::PrimitiveType;

use super::ops::{
    BlockProgram, EnumOp, MessageProgram, Op, Programs, SetOp, Tables, TailProgram, Text,
    ENTRIES_ROOM, K, MAX_DATA,
};
use crate::decode::{Block, Charset, Decoder, Kind, Node, NullCheck, Tail};
use crate::json_value::write_value;

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
                // One table per distinct set: building one writes all 256 values of a
                // one-byte set, too slow to repeat for every field of an exchange's schema.
                let same = |s: &SetOp| s.ty == *ty && *s.choices == **choices;
                let aux = match self.tables.sets.iter().position(same) {
                    Some(at) => u32::try_from(at).ok()?,
                    None => {
                        let aux = Self::index(&self.tables.sets)?;
                        self.tables.sets.push(SetOp::new(*ty, choices));
                        aux
                    }
                };
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
        jit: std::sync::OnceLock::new(),
    })
}

impl Programs {
    /// The programs of `decoder`'s messages; `None` for a schema too large for them (offsets or
    /// versions beyond 32 bits, enums of 2^32 values), which the printer then prints through the
    /// generic path.
    pub(crate) fn new(decoder: &Decoder) -> Option<Programs> {
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
                jit: std::sync::OnceLock::new(),
            });
        }
        Some(Programs { messages, tables })
    }
}

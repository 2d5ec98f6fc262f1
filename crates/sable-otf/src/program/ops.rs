//! The program's parts: operations ([`Op`]), the tables they refer to, and the programs of
//! blocks, groups, var data and messages, with the slots where the JIT leaves their machine
//! code.

use sable_ir::PrimitiveType;

use super::out::Slice;
use crate::decode::{number_of, Charset, Choice, NullCheck, Value};
use crate::json_value::{write_enum, write_value};
use crate::write::{write_json_str, Sink};

/// Constant text, written by one fixed-size copy of 32 bytes (then cut) when it is shorter.
#[derive(Debug, Clone)]
pub(crate) struct Text {
    pub(crate) short: [u8; 32],
    pub(crate) len: u8,
    pub(crate) long: Option<Box<[u8]>>,
}

impl Text {
    pub(crate) fn new(bytes: &[u8]) -> Text {
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

/// What an [`Op`] writes after its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum K {
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
pub(crate) struct Op {
    /// Constant text, the first `len` bytes (copied whole, then cut; `len` below 32).
    pub(crate) text: [u8; 32],
    /// The null value's wire bits (when `has_null`; else `u64::MAX`, which no value of less than
    /// eight bytes equals: those are tested by one comparison).
    pub(crate) null: u64,
    /// The version the value appeared in; `i32::MIN` when present whenever the block is (after
    /// [`versions_tested_once`], every operation's but [`K::Since`]'s).
    pub(crate) since: i32,
    pub(crate) off: u32,
    pub(crate) aux: u32,
    pub(crate) len: u8,
    pub(crate) kind: K,
    pub(crate) has_null: bool,
    /// A float whose null value is NaN: every NaN is null.
    pub(crate) nan_null: bool,
    pub(crate) ty: PrimitiveType,
    pub(crate) charset: Charset,
}

/// An enum's names, and a table from the raw value to them for one-byte encodings.
#[derive(Debug)]
pub(crate) struct EnumOp {
    pub(crate) ty: PrimitiveType,
    /// Each valid value's name as a JSON string.
    pub(crate) names: Box<[Text]>,
    /// One-byte encodings: by raw value, an index in `names`, or `UNKNOWN` or `NULL`.
    pub(crate) table: Option<Box<[u32; 256]>>,
    /// The raw values and their index in `names`, sorted by value, the first of equal values
    /// kept (as the decoder's lookup finds it).
    pub(crate) values: Box<[(u64, u32)]>,
    pub(crate) null: Option<u64>,
}

pub(crate) const UNKNOWN: u32 = u32::MAX - 1;
pub(crate) const NULL: u32 = u32::MAX;

impl EnumOp {
    pub(crate) fn new(
        ty: PrimitiveType,
        values: &[(u64, Box<str>)],
        null: NullCheck,
    ) -> Option<EnumOp> {
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
    pub(crate) fn bound(&self) -> usize {
        let names = self.names.iter().map(Text::bound).max().unwrap_or(0);
        // `{"unknown":-9223372036854775808}`
        names.max(32)
    }

    #[inline(always)]
    pub(crate) fn write(&self, out: &mut Slice<'_>, raw: u64) {
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
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.long {
            None => self
                .short
                .get(..usize::from(self.len % 32))
                .unwrap_or_default(),
            Some(long) => long,
        }
    }

    /// The bytes a copy of the text may touch.
    pub(crate) fn bound(&self) -> usize {
        self.long.as_ref().map_or(32, |l| l.len())
    }
}

/// A block's program: its fields' operations, then its groups and var data (beside the
/// decoder's plan's `tail`, in the same order), then `end`.
#[derive(Debug)]
pub(crate) struct BlockProgram {
    /// The fields' operations; the root block's start with the header's (all read from the
    /// message's first byte: `base`, the header's size, is in the block's offsets).
    pub(crate) ops: Box<[Op]>,
    pub(crate) base: usize,
    /// The most bytes the operations write.
    pub(crate) bound: usize,
    /// As a group's entry: the most bytes an entry writes (its fields, its closing and a
    /// comma), and the most entries written in one reserved room.
    pub(crate) entry_room: usize,
    pub(crate) entries_at_once: u64,
    /// `end` and a comma (an entry's closing before the next entry).
    pub(crate) end_comma: Text,
    pub(crate) tails: Box<[TailProgram]>,
    /// Whether its tails are var data only, at most [`MAX_DATA`] of them.
    pub(crate) data_tails: bool,
    /// Whether its tails are groups of entries of fields only.
    pub(crate) group_tails: bool,
    /// Written after everything: the text after the last value, and the block's closing.
    pub(crate) end: Text,
    /// Written when the block runs past the end of the buffer: what is written at its start,
    /// then what closes everything open.
    pub(crate) cut: Box<[u8]>,
    /// The operations compiled to machine code (feature `jit`), once the message is compiled.
    #[cfg(feature = "jit")]
    pub(crate) jit: std::sync::OnceLock<CompiledBlock>,
}

impl BlockProgram {
    /// A group entry's `cut` without the entry's own `{}`: what closes everything open around an
    /// entry that is not begun.
    pub(crate) fn entry_cut(&self) -> &[u8] {
        debug_assert!(self.cut.starts_with(b"{}"));
        self.cut.get(2..).unwrap_or_default()
    }
}

/// A group or var data of a block.
#[derive(Debug)]
pub(crate) struct TailProgram {
    /// Written once it is known to be there (or absent): the text since the last value, its key.
    pub(crate) text: Text,
    /// `text` and what opens a present group (`[`) or var data of text (`"`).
    pub(crate) open: Text,
    /// Written when its header is bad: the text since the last value, then what closes
    /// everything open.
    pub(crate) fail: Box<[u8]>,
    /// A group's entries.
    pub(crate) entry: Option<BlockProgram>,
}

/// A message's program: its header's fields (on the header's bytes), then its root block.
#[derive(Debug)]
pub(crate) struct MessageProgram {
    pub(crate) header: Box<[Op]>,
    pub(crate) header_bound: usize,
    pub(crate) root: BlockProgram,
    /// The whole message compiled to machine code, for the common case (feature `jit`), once
    /// it is compiled.
    #[cfg(feature = "jit")]
    pub(crate) jit: std::sync::OnceLock<CompiledMessage>,
}

/// The programs of every message of a decoder's schema (in the decoder's order).
#[derive(Debug)]
pub(crate) struct Programs {
    pub(crate) messages: Vec<MessageProgram>,
    pub(crate) tables: Tables,
}

/// What operations refer to by index.
#[derive(Debug, Default)]
pub(crate) struct Tables {
    pub(crate) texts: Vec<Box<[u8]>>,
    pub(crate) enums: Vec<EnumOp>,
    pub(crate) sets: Vec<SetOp>,
}

/// A set, and for one-byte encodings the JSON of each of its 256 values.
#[derive(Debug)]
pub(crate) struct SetOp {
    pub(crate) ty: PrimitiveType,
    pub(crate) choices: Box<[Choice]>,
    pub(crate) table: Option<Box<[Text]>>,
    /// One-byte encodings, for the compiled code (feature `jit`): by value, 32 bytes holding
    /// its JSON (when it fits), then by value, the JSON's length (`u8::MAX` when it does not
    /// fit).
    #[cfg(feature = "jit")]
    pub(crate) windows: Option<Box<[u8]>>,
}

impl SetOp {
    pub(crate) fn new(ty: PrimitiveType, choices: &[Choice]) -> SetOp {
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

/// The machine code of a block's operations, left by the JIT (`crate::jit`, feature `jit`):
/// `(tables, ops, block, block_len, out, out_end, acting)`, and where it ends (or null: not
/// printed, the interpreter prints the block). Only the JIT calls it.
#[cfg(feature = "jit")]
pub(crate) type BlockFn = unsafe extern "C" fn(
    *const Tables,
    *const Op,
    *const u8,
    usize,
    *mut u8,
    *mut u8,
    i64,
) -> *mut u8;

/// A block's operations compiled to machine code (feature `jit`).
#[cfg(feature = "jit")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct CompiledBlock {
    pub(crate) f: BlockFn,
    /// The bytes of the block its inline reads need (a shorter block goes to the interpreter).
    pub(crate) need: usize,
    /// The room it needs at the cursor.
    pub(crate) room: usize,
}

/// The machine code of a message, left by the JIT (feature `jit`): `(tables, buf, buf_len,
/// block_length, out, out_end, pos_out)`, and where its output ends (the message's end stored
/// at `pos_out`); null when it did not print it (the interpreter has to), 1 when it needs more
/// room. Only the JIT calls it.
#[cfg(feature = "jit")]
pub(crate) type MessageFn = unsafe extern "C" fn(
    *const Tables,
    *const u8,
    usize,
    usize,
    *mut u8,
    *mut u8,
    *mut usize,
) -> *mut u8;

/// A message's compiled code (feature `jit`).
#[cfg(feature = "jit")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct CompiledMessage {
    pub(crate) f: MessageFn,
    /// The least acting version it runs at (every field, group and var data present).
    pub(crate) newest: i64,
}

/// The most var data of a group's entry written with its fields.
pub(crate) const MAX_DATA: usize = 4;

/// The most room reserved at once for a group's entries (more entries are written one by one).
pub(crate) const ENTRIES_ROOM: usize = 1 << 14;

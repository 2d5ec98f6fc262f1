//! What each operation's inline code writes and reads: the bounds the reserves are built from,
//! and which operations compile inline at all.

use sable_ir::PrimitiveType;

use crate::program::{EnumOp, Op, Tables, K};

/// The most bytes an operation writes after its text, by the compiled code (`None`: through
/// `sable_jit_value`, bounded by the room it gets; 4 reserved all the same, so that the `null`
/// a version test writes instead of it fits in what it reserves).
pub(super) fn inline_bound(op: &Op, tables: &Tables) -> Option<usize> {
    match op.kind {
        K::None => Some(0),
        // `{`, or `null` instead of the composite.
        K::Open => Some(4),
        K::Long | K::Const => tables.texts.get(op.aux as usize).map(|t| t.len()),
        K::U8 | K::U16 | K::U32 | K::U64 | K::I8 | K::I16 | K::I32 | K::I64 | K::F32 => Some(32),
        // Its names, `null` or `{"unknown":N}` (a sign and at most 28 bytes touched by the
        // number).
        K::Enum1 => Some(
            tables
                .enums
                .get(op.aux as usize)?
                .names
                .iter()
                .map(|n| n.bytes().len())
                .max()
                .unwrap_or(0)
                .max(UNKNOWN_BOUND),
        ),
        // The null texts, or the operations run.
        K::Since => Some(0),
        K::Chars if chars_inline(op) => Some((op.aux as usize + 2).max(4)),
        // A window of 32 bytes.
        K::Set1 if set1_table(op, tables).is_some() => Some(32),
        // `[`, each element after `[` or `,` (an integer or float touches at most 32), `]`.
        K::Array => array_inline(op).map(|(n, _)| 2 + n * 33),
        K::Enum => enum_inline(op, tables).map(|e| {
            e.names
                .iter()
                .map(|n| n.bytes().len())
                .max()
                .unwrap_or(0)
                .max(UNKNOWN_BOUND)
        }),
        _ => None,
    }
}

/// The most bytes `{"unknown":N}` touches: its text, a sign, a number's 28, `}`.
pub(super) const UNKNOWN_BOUND: usize = 11 + 1 + 28 + 1;

/// The end of the bytes operation `op` reads inline (from the block's start), if any.
pub(super) fn inline_read(op: &Op, tables: &Tables) -> Option<usize> {
    let off = op.off as usize;
    let n = match op.kind {
        K::Enum1 | K::Set1 => 1,
        K::Chars | K::Array => op.aux as usize,
        K::Enum => tables.enums.get(op.aux as usize)?.ty.size(),
        k => usize::from(int_size(k)?),
    };
    off.checked_add(n)
}

/// Whether a `Chars` operation is compiled inline (1 to 32 bytes).
pub(super) fn chars_inline(op: &Op) -> bool {
    (1..=32).contains(&op.aux)
}

/// A one-byte set's windows (see `SetOp`).
pub(super) fn set1_table<'t>(op: &Op, tables: &'t Tables) -> Option<&'t [u8]> {
    let w = tables.sets.get(op.aux as usize)?.windows.as_deref()?;
    (w.len() == 256 * 33).then_some(w)
}

/// An array compiled inline: its number of elements (at most 16) and their size; integers and
/// floats.
pub(super) fn array_inline(op: &Op) -> Option<(usize, usize)> {
    let size = match op.ty {
        PrimitiveType::Double | PrimitiveType::Char => return None,
        t => t.size(),
    };
    let n = op.aux as usize / size;
    (n <= 16).then_some((n, size))
}

/// An enum of more than one byte compiled inline (a switch on at most 256 values).
pub(super) fn enum_inline<'t>(op: &Op, tables: &'t Tables) -> Option<&'t EnumOp> {
    let e = tables.enums.get(op.aux as usize)?;
    (matches!(e.ty.size(), 2 | 4 | 8) && e.values.len() <= 256 && e.table.is_none()).then_some(e)
}

/// The bytes an integer operation reads.
pub(super) fn int_size(k: K) -> Option<u8> {
    match k {
        K::U8 | K::I8 => Some(1),
        K::U16 | K::I16 => Some(2),
        K::U32 | K::I32 | K::F32 => Some(4),
        K::U64 | K::I64 => Some(8),
        _ => None,
    }
}

/// The reserve of each operation of `ops` (see the module's documentation), and the bytes of
/// the block their inline reads need.
pub(super) fn analyse(ops: &[Op], tables: &Tables) -> (Vec<usize>, usize) {
    let mut reserve = vec![0usize; ops.len() + 1];
    let mut need = 0usize;
    for (i, op) in ops.iter().enumerate().rev() {
        let value = inline_bound(op, tables).unwrap_or(4);
        reserve[i] = reserve[i + 1] + usize::from(op.len % 32) + value;
        if let Some(end) = inline_read(op, tables) {
            need = need.max(end);
        }
    }
    (reserve, need)
}

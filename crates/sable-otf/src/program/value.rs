//! The operations run one by one: the interpreter's loop over a block's operations, and the
//! value of one operation (also called by the JIT's code for what it does not compile inline).

use sable_ir::PrimitiveType;

use super::ops::{Op, Tables, K, NULL};
use super::out::Slice;
use crate::decode::{number_of, read_raw, Value};
use crate::json_value::{write_enum, write_value};
use crate::write::{
    plain_ascii, put_bytes, put_bytes_at, short_decimal_f32, write_f32, write_f32_other, write_f64,
    write_hex_str, write_hundredths, write_i64, write_text_slow, write_u64, Sink,
};

/// Reads `N` bytes at `off`, or `None` out of bounds.
#[inline(always)]
fn bytes<const N: usize>(block: &[u8], off: usize) -> Option<[u8; N]> {
    block.get(off..off.checked_add(N)?)?.try_into().ok()
}

/// The loop of a block's operations, writing into `s`.
#[inline(always)]
pub(crate) fn ops_in<const BIG: bool>(
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
pub(crate) fn value<const BIG: bool>(
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

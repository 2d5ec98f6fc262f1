//! Rust expressions the generated code is made of: byte reads and writes at offsets.

#[allow(clippy::wildcard_imports)]
use super::*;

/// `base + off`, without `+ 0`.
pub(super) fn add(base: &str, off: usize) -> String {
    if off == 0 {
        base.to_owned()
    } else if base == "0" || base.is_empty() {
        off.to_string()
    } else {
        format!("{base} + {off}")
    }
}

pub(super) fn from_bytes(p: PrimitiveType, order: ByteOrder) -> String {
    let f = if order == ByteOrder::BigEndian {
        "from_be_bytes"
    } else {
        "from_le_bytes"
    };
    format!("{}::{f}", rtype(p))
}

pub(super) fn to_bytes(order: ByteOrder) -> &'static str {
    if order == ByteOrder::BigEndian {
        "to_be_bytes"
    } else {
        "to_le_bytes"
    }
}

/// An expression of `Option<T>`: the primitive at `slice[off..]` of a block or composite whose
/// full size is `full`.
pub(super) fn read(
    slice: &str,
    off: &str,
    p: PrimitiveType,
    order: ByteOrder,
    full: usize,
) -> String {
    format!(
        "sbe_support::at::<{full}, {}>({slice}, {off}).map({})",
        p.size(),
        from_bytes(p, order)
    )
}

/// An expression of `Option<&[u8; n]>`: the array at `off` of `self.{slice}` (`sl`). In a
/// block (a message's or a group entry's) it is tested on its own (`get_ref`): the whole-block
/// test of [`read`] (`at_ref`) makes LLVM test a block shorter than `full` again for each array
/// (Car: 410 -> 405 instructions a decode); in a composite, whose slice has the composite's
/// length when the block is full, `at_ref` costs nothing.
pub(super) fn array_ref(slice: &str, sl: &str, full: usize, n: usize, off: usize) -> String {
    if slice == "block" {
        format!("sbe_support::get_ref::<{n}>({sl}, {off})")
    } else {
        format!("sbe_support::at_ref::<{full}, {n}>({sl}, {off})")
    }
}

/// An expression of `u64`: an unsigned integer at `slice[off..]`, 0 when absent.
pub(super) fn read_u64(slice: &str, off: &str, p: PrimitiveType, order: ByteOrder) -> String {
    if p.is_unsigned() || p == PrimitiveType::Char {
        format!(
            "sbe_support::get::<{}>({slice}, {off}).map_or(0, |b| u64::from({}(b)))",
            p.size(),
            from_bytes(p, order)
        )
    } else {
        format!(
            "sbe_support::get::<{}>({slice}, {off}).map_or(0, |b| u64::try_from({}(b)).unwrap_or(0))",
            p.size(),
            from_bytes(p, order)
        )
    }
}

/// A statement writing `value` (an expression of the primitive's type) at `slice[off..]`.
pub(super) fn write(slice: &str, off: &str, value: &str, order: ByteOrder) -> String {
    format!(
        "sbe_support::put({slice}, {off}, ({value}).{}());",
        to_bytes(order)
    )
}

pub(super) fn is_float(p: PrimitiveType) -> bool {
    p.is_float()
}

/// The condition (Rust) under which an element of `since` lying up to `end` is present; `None`
/// when always.
pub(super) fn present_cond(block: &str, version: &str, since: i32, end: usize) -> Option<String> {
    let mut c = Vec::new();
    if since > 0 {
        c.push(format!("{version} >= {since}"));
    }
    if end == 1 {
        c.push(format!("!{block}.is_empty()"));
    } else if end > 1 {
        c.push(format!("{block}.len() >= {end}"));
    }
    if c.is_empty() {
        None
    } else {
        Some(c.join(" && "))
    }
}

/// The bytes of an integer of `size` bytes in `order` (two's complement, truncated).
pub(super) fn int_bytes(v: i128, size: usize, order: ByteOrder) -> Vec<u8> {
    let le = v.to_le_bytes();
    let mut b = le[..size].to_vec();
    if order == ByteOrder::BigEndian {
        b.reverse();
    }
    b
}

/// An expression of `u64`: primitive member `name` of composite `c` (a message header, a
/// group's dimensions) read from the bytes of `slice`, or its constant; `None` when `c` has no
/// such member.
pub(super) fn member_u64(c: &Composite, name: &str, slice: &str) -> Option<String> {
    let (m, p) = c.primitive(name)?;
    Some(if p.is_constant() {
        let value = p.const_value.as_ref().and_then(PrimitiveValue::as_i128);
        format!("{}_u64", value.unwrap_or(0))
    } else {
        read_u64(slice, &m.offset.to_string(), p.primitive_type, p.byte_order)
    })
}

//! Var data: where it ends, checked.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Where the var data `v` whose length is at `buf[p..]` ends, checked (`?` on the errors):
/// statements reading its length (into `n`), then the expression of its end. `buf` is the
/// buffer's expression, `field` the var data's path (a string literal). Both errors are at
/// the length's first byte (the contract's var data item: its length and its bytes).
pub(super) fn var_data_end(v: &VarData, buf: &str, field: &str) -> (String, String) {
    let ls = v.length_size();
    let len_read = read_u64("&b", "0", v.length.primitive_type, v.length.byte_order);
    (
        format!("let Some(b) = sbe_support::get::<{ls}>({buf}, p) else {{ sbe_support::cold(); return Err(sbe_support::truncated(p, FieldPath::new({field}), {ls}, {buf}.len())); }};\nlet n = sbe_support::to_usize({len_read});\n"),
        format!("sbe_support::span({buf}, p, n.saturating_add({ls}), || FieldPath::new({field}))?"),
    )
}

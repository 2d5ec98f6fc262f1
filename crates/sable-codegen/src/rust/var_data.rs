//! Var data: where it ends, checked.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Gen<'_> {
    /// A message's or an entry's reads of var data `v` (the `e`th of its groups and var data;
    /// in an entry, its slots from `idx`): the accessors, and the JSON member's statements.
    pub(super) fn var_data_reads(
        &self,
        v: &VarData,
        e: usize,
        idx: usize,
        at: &BodyAt<'_>,
    ) -> (String, String) {
        let top = at.depth == 0;
        let mut o = String::new();
        let m = method(&v.name);
        let u = upper(&v.name);
        let d = doc(v.description.as_deref());
        let utf8 = is_utf8(v.character_encoding.as_deref());
        let _ = writeln!(o, "\n/// The id of var data `{}`.\npub const {u}_ID: u16 = {};\n/// The version var data `{}` appeared in.\npub const {u}_SINCE_VERSION: u16 = {};", v.name, v.id, v.name, v.since_version);
        if let Some(ce) = &v.character_encoding {
            let _ = writeln!(o, "/// The character encoding of `{}`.\npub const {u}_CHARACTER_ENCODING: &'static str = {};", v.name, str_lit(ce));
        }
        if top {
            let ls = v.length_size();
            let (len, end) = var_data_end(v, "self.buf", &at.element(&v.name));
            let absent = if v.since_version > 0 {
                format!(
                    "if self.version < {} {{\nreturn Ok(&[]);\n}}\n",
                    v.since_version
                )
            } else {
                String::new()
            };
            let _ = writeln!(o, "\n{d}///\n/// The bytes (empty when absent at the acting version).\n///\n/// # Errors\n///\n/// The length or the bytes running past the end of the buffer (or the groups and var data before them, when not read yet).\n#[inline]\npub fn {m}(&self) -> Result<&'a [u8], DecodeError> {{\n{absent}let p = self.sbe_start({e})?;\n{len}let end = {end};\nself.marks.found({}, end);\nOk(self.buf.get(p + {ls}..end).unwrap_or(&[]))\n}}", e + 1);
            if v.is_text() {
                let _ = writeln!(o, "\n/// `{}` as text (UTF-8 checked, or ASCII for one-byte encodings).\n///\n/// # Errors\n///\n/// As [`Self::{m}`]; text not valid as `&str`.\n#[inline]\npub fn {}_str(&self) -> Result<&'a str, DecodeError> {{\nlet b = self.{m}()?;\nsbe_support::text(b, {utf8}, self.sbe_start({e})? + {ls}, FieldPath::new({}))\n}}", v.name, snake(&v.name), at.element(&v.name));
            }
            let key = json_str(&v.name);
            let inner = if v.is_text() {
                format!("let Ok(b) = self.{m}() else {{\nreturn Err(core::fmt::Error);\n}};\nsbe_support::w_text(f, b, b, {utf8})?;")
            } else {
                format!("let Ok(b) = self.{m}() else {{\nreturn Err(core::fmt::Error);\n}};\nsbe_support::w_hex(f, b)?;")
            };
            return (o, versioned_member(&key, v.since_version, &inner));
        }
        let absent = if v.since_version > 0 {
            format!(
                "if self.version < {} {{\nreturn &[];\n}}\n",
                v.since_version
            )
        } else {
            String::new()
        };
        let _ = writeln!(o, "\n{d}///\n/// The bytes (empty when absent at the acting version).\n#[must_use]\n#[inline]\npub fn {m}(&self) -> &'a [u8] {{\n{absent}self.buf.get(self.pos[{idx}]..self.pos[{}]).unwrap_or(&[])\n}}", idx + 1);
        if v.is_text() {
            let _ = writeln!(o, "\n/// `{}` as text (UTF-8 checked, or ASCII for one-byte encodings).\n///\n/// # Errors\n///\n/// Text not valid as `&str`.\n#[inline]\npub fn {}_str(&self) -> Result<&'a str, DecodeError> {{\nsbe_support::text(self.{m}(), {utf8}, self.pos[{idx}], FieldPath::new({}))\n}}", v.name, snake(&v.name), at.element(&v.name));
        }
        let key = json_str(&v.name);
        let inner = if v.is_text() {
            format!("let b = self.{m}();\nsbe_support::w_text(f, b, b, {utf8})?;")
        } else {
            format!("sbe_support::w_hex(f, self.{m}())?;")
        };
        (o, versioned_member(&key, v.since_version, &inner))
    }
}

/// Where the var data `v` whose length is at `buf[p..]` ends, checked (`?` on the errors):
/// statements reading its length (into `n`), then the expression of its end. `buf` is the
/// buffer's expression, `field` the var data's path (a string literal). Both errors are at
/// the length's first byte (the contract's var data item: its length and its bytes).
pub(super) fn var_data_end(v: &VarData, buf: &str, field: &str) -> (String, String) {
    let ls = v.length_size();
    let len_read = read_u64("&b", "0", v.length.primitive_type, v.length.byte_order);
    (
        format!("let Some(b) = sbe_support::get::<{ls}>({buf}, p) else {{\nsbe_support::cold();\nreturn Err(sbe_support::truncated(p, FieldPath::new({field}), {ls}, {buf}.len()));\n}};\nlet n = sbe_support::to_usize({len_read});\n"),
        format!("sbe_support::span({buf}, p, n.saturating_add({ls}), || FieldPath::new({field}))?"),
    )
}

//! The schema's types: enums, sets and composites (decoders and encoders).

#[allow(clippy::wildcard_imports)]
use super::*;

impl Gen<'_> {
    pub(super) fn enum_type(&mut self, e: &EnumType) {
        let name = camel(&e.name);
        let t = rtype(e.encoding_type);
        let mut variants: Vec<(String, &str, String)> = Vec::new();
        let mut used = vec!["Unknown".to_owned()];
        for v in &e.values {
            let mut vn = camel(&v.name);
            while used.contains(&vn) {
                vn.push('_');
            }
            used.push(vn.clone());
            let raw = lit(&v.value, e.encoding_type);
            variants.push((vn, &v.name, raw));
        }
        let mut o = String::new();
        o.push_str(&doc(e.description.as_deref()));
        o.push_str("#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]\n");
        let _ = writeln!(o, "pub enum {name} {{");
        for (v, ev) in variants.iter().zip(&e.values) {
            o.push_str(&doc(ev.description.as_deref()));
            let _ = writeln!(o, "{},", v.0);
        }
        let _ = writeln!(
            o,
            "/// A value with no name in the schema (the null value of an optional field too, where it has none).\nUnknown({t}),\n}}\n"
        );
        let _ = writeln!(o, "impl {name} {{");
        let _ = writeln!(
            o,
            "/// The null value of the encoding.\npub const NULL_VALUE: {t} = {};\n",
            lit(&e.null_value, e.encoding_type)
        );
        let _ = writeln!(
            o,
            "/// The value for a raw number: its named value, else `Unknown`.\n#[must_use]\npub const fn from_raw(raw: {t}) -> Self {{\nmatch raw {{"
        );
        for (v, _, raw) in &variants {
            let _ = writeln!(o, "{raw} => Self::{v},");
        }
        let _ = writeln!(o, "other => Self::Unknown(other),\n}}\n}}\n");
        // Two matches, each with one variable arm at most, or-ed: LLVM makes each a select or
        // a table and folds `from_raw(x).raw()` to branch-free code; as one match (the named
        // values, then the unknown's) it compiled to compare-and-branch code or a jump table.
        if variants.is_empty() {
            let _ = writeln!(
                o,
                "/// The raw number on the wire.\n#[must_use]\npub const fn raw(self) -> {t} {{\nmatch self {{\nSelf::Unknown(raw) => raw,\n}}\n}}\n"
            );
        } else {
            let _ = writeln!(
                o,
                "/// The raw number on the wire.\n#[must_use]\npub const fn raw(self) -> {t} {{\n(match self {{"
            );
            for (v, _, raw) in &variants {
                let _ = writeln!(o, "Self::{v} => {raw},");
            }
            let _ = writeln!(
                o,
                "Self::Unknown(_) => 0,\n}}) | (match self {{\nSelf::Unknown(raw) => raw,\n_ => 0,\n}})\n}}\n"
            );
        }
        let _ = writeln!(
            o,
            "/// The value's name in the schema (`None` for `Unknown`).\n#[must_use]\npub const fn name(self) -> Option<&'static str> {{\nmatch self {{"
        );
        for (v, sn, _) in &variants {
            let _ = writeln!(o, "Self::{v} => Some({}),", str_lit(sn));
        }
        let _ = writeln!(o, "Self::Unknown(_) => None,\n}}\n}}\n}}\n");
        let _ = writeln!(
            o,
            "impl From<{t}> for {name} {{\nfn from(raw: {t}) -> Self {{\nSelf::from_raw(raw)\n}}\n}}\n"
        );
        let _ = writeln!(
            o,
            "impl From<{name}> for {t} {{\nfn from(v: {name}) -> Self {{\nv.raw()\n}}\n}}\n"
        );
        let _ = writeln!(
            o,
            "/// The canonical JSON value: the name as a string, or `{{\"unknown\":N}}`.\nimpl core::fmt::Display for {name} {{\nfn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{\nmatch self.name() {{\nSome(n) => sbe_support::w_str(f, n),\nNone => write!(f, \"{{{{\\\"unknown\\\":{{}}}}}}\", self.raw()),\n}}\n}}\n}}"
        );
        self.w(o);
    }

    pub(super) fn set_type(&mut self, st: &SetType) {
        let name = camel(&st.name);
        let t = rtype(st.encoding_type);
        let bits64 = if t == "u64" {
            "self.0"
        } else {
            "u64::from(self.0)"
        };
        let mut o = String::new();
        o.push_str(&doc(st.description.as_deref()));
        o.push_str("///\n/// A bit set: combine flags with `|`, test with `contains`.\n");
        let _ = writeln!(
            o,
            "#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]\npub struct {name}({t});\n"
        );
        let _ = writeln!(o, "impl {name} {{");
        let mut consts = Vec::new();
        for c in &st.choices {
            let mut cn = upper(&c.name);
            while consts.contains(&cn) || cn == "CHOICES" {
                cn.push('_');
            }
            consts.push(cn.clone());
            o.push_str(&doc(c.description.as_deref()));
            let _ = writeln!(o, "pub const {cn}: Self = Self(1 << {});", c.bit);
        }
        let _ = writeln!(
            o,
            "\n/// Every choice: its name in the schema and its flag.\npub const CHOICES: &'static [(&'static str, Self)] = &["
        );
        for (c, cn) in st.choices.iter().zip(&consts) {
            let _ = writeln!(o, "({}, Self::{cn}),", str_lit(&c.name));
        }
        let _ = writeln!(o, "];");
        let all = if consts.is_empty() {
            "0".to_owned()
        } else {
            consts
                .iter()
                .map(|c| format!("Self::{c}.0"))
                .collect::<Vec<_>>()
                .join(" | ")
        };
        let _ = writeln!(
            o,
            "{}{}",
            set_methods(t, &all),
            set_traits(&name, t, bits64)
        );
        for c in &st.choices {
            let _ = writeln!(o, "({}, {}),", str_lit(&c.name), c.bit);
        }
        let _ = writeln!(o, "],\n)\n}}\n}}");
        self.w(o);
    }

    pub(super) fn composite(&mut self, c: &Composite) {
        let name = camel(&c.name);
        let dn = format!("{name}Decoder");
        let en = format!("{name}Encoder");
        let len = c.encoded_length.max(0) as usize;
        let d = doc(c.description.as_deref());
        let mut o = String::new();
        let _ = writeln!(
            o,
            "{d}///\n/// A view of the composite's bytes (members past the end of a shorter slice read as null).\n#[derive(Debug, Clone, Copy)]\npub struct {dn}<'a> {{\nbuf: &'a [u8],\nversion: u16,\n}}\n"
        );
        let _ = writeln!(o, "impl<'a> {dn}<'a> {{\n/// The composite's size in bytes.\npub const ENCODED_LENGTH: usize = {len};\n\n/// A view of `buf` (from the composite's first byte), read at `acting_version`.\n#[must_use]\n#[inline]\npub fn wrap(buf: &'a [u8], acting_version: u16) -> Self {{\nSelf {{\nbuf,\nversion: acting_version,\n}}\n}}\n\n/// The acting version.\n#[must_use]\npub fn acting_version(&self) -> u16 {{\nself.version\n}}");
        let mut jsons = Vec::new();
        for m in &c.members {
            let path = format!("FieldPath::new({})", str_lit(&m.name));
            let (g, j) = self.getter(&self.member_slot(m, len, path));
            o.push_str(&g);
            jsons.push(j);
        }
        o.push_str("}\n\n");
        let _ = writeln!(o, "/// The canonical JSON object of the composite.\nimpl core::fmt::Display for {dn}<'_> {{\nfn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{\nf.write_str(\"{{\")?;");
        for (i, j) in jsons.iter().enumerate() {
            if i > 0 {
                o.push_str(&ws(","));
            }
            o.push_str(j);
            o.push('\n');
        }
        let _ = writeln!(o, "f.write_str(\"}}\")\n}}\n}}\n");
        // Encoder.
        let _ = writeln!(
            o,
            "{d}///\n/// Writes the composite's members into its bytes.\n#[derive(Debug)]\npub struct {en}<'b> {{\nbuf: &'b mut [u8],\n#[allow(dead_code)]\nat: usize,\n#[allow(dead_code)]\npath: FieldPath,\n}}\n"
        );
        let _ = writeln!(o, "impl<'b> {en}<'b> {{\n/// The composite's size in bytes.\npub const ENCODED_LENGTH: usize = {len};\n\n/// An encoder over `buf` (from the composite's first byte; writes past its end are dropped).\n#[inline]\npub fn wrap(buf: &'b mut [u8]) -> Self {{\nSelf::wrap_at(buf, 0, FieldPath::new({}))\n}}\n\n/// An encoder over `buf`, the composite's bytes at offset `at` of a message, whose errors\n/// name the composite `path` and their offsets from the message's start.\n#[inline]\npub fn wrap_at(buf: &'b mut [u8], at: usize, path: FieldPath) -> Self {{\nSelf {{ buf, at, path }}\n}}", str_lit(&c.name));
        for m in &c.members {
            let path = format!("self.path.member({})", str_lit(&m.name));
            let slot = self.member_slot(m, len, path);
            o.push_str(&self.setter(&slot, "0", "'_"));
        }
        o.push_str("}\n");
        self.w(o);
    }
}

/// A set's methods after its choices (`empty` ... `set`), and the end of its `impl`.
fn set_methods(t: &str, all: &str) -> String {
    format!(
        r#"
/// No flag set.
#[must_use]
pub const fn empty() -> Self {{
Self(0)
}}

/// Every named flag set.
#[must_use]
pub const fn all() -> Self {{
Self({all})
}}

/// The set of these bits (unnamed bits kept).
#[must_use]
pub const fn from_bits(bits: {t}) -> Self {{
Self(bits)
}}

/// The bits.
#[must_use]
pub const fn bits(self) -> {t} {{
self.0
}}

/// Whether no bit is set.
#[must_use]
pub const fn is_empty(self) -> bool {{
self.0 == 0
}}

/// Whether every flag of `other` is set.
#[must_use]
pub const fn contains(self, other: Self) -> bool {{
self.0 & other.0 == other.0
}}

/// Whether any flag of `other` is set.
#[must_use]
pub const fn intersects(self, other: Self) -> bool {{
self.0 & other.0 != 0
}}

/// Both sets' flags.
#[must_use]
pub const fn union(self, other: Self) -> Self {{
Self(self.0 | other.0)
}}

/// Sets the flags of `other`.
pub fn insert(&mut self, other: Self) {{
self.0 |= other.0;
}}

/// Clears the flags of `other`.
pub fn remove(&mut self, other: Self) {{
self.0 &= !other.0;
}}

/// Sets or clears the flags of `other`.
pub fn set(&mut self, other: Self, value: bool) {{
if value {{
self.insert(other)
}} else {{
self.remove(other)
}}
}}
}}

"#
    )
}

/// A set's trait impls (bit operators, conversions, `Debug`), up to its `Display`'s list of
/// choices, which the caller writes and closes.
fn set_traits(name: &str, t: &str, bits64: &str) -> String {
    format!(
        r#"impl core::ops::BitOr for {name} {{
type Output = Self;

fn bitor(self, rhs: Self) -> Self {{
Self(self.0 | rhs.0)
}}
}}

impl core::ops::BitOrAssign for {name} {{
fn bitor_assign(&mut self, rhs: Self) {{
self.0 |= rhs.0;
}}
}}

impl core::ops::BitAnd for {name} {{
type Output = Self;

fn bitand(self, rhs: Self) -> Self {{
Self(self.0 & rhs.0)
}}
}}

impl core::ops::BitAndAssign for {name} {{
fn bitand_assign(&mut self, rhs: Self) {{
self.0 &= rhs.0;
}}
}}

impl From<{t}> for {name} {{
fn from(bits: {t}) -> Self {{
Self(bits)
}}
}}

impl From<{name}> for {t} {{
fn from(v: {name}) -> Self {{
v.0
}}
}}

impl core::fmt::Debug for {name} {{
fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{
f.write_str("{name}(")?;
let mut first = true;
let mut rest = self.0;
for (n, flag) in Self::CHOICES {{
if self.contains(*flag) && flag.0 != 0 {{
if !first {{
f.write_str(" | ")?;
}}
first = false;
f.write_str(n)?;
rest &= !flag.0;
}}
}}
if rest != 0 {{
if !first {{
f.write_str(" | ")?;
}}
write!(f, "{{rest:#x}}")?;
}}
f.write_str(")")
}}
}}

/// The canonical JSON value: the names of the flags set, in schema order, then unnamed bits.
impl core::fmt::Display for {name} {{
fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{
sbe_support::w_set(
f,
{bits64},
&["#
    )
}

//! The Rust generator: one self-contained module per schema (no dependency, no `unsafe`,
//! `no_std`), with decoders borrowing `&[u8]` and encoders over `&mut [u8]`. See `docs/rust.md`.

mod names;

/// The items every generated module carries (errors, `sbe_support`): a real Rust file, compiled
/// and tested on its own (tests/rust_support.rs), copied in after its leading comment.
const SUPPORT: &str = include_str!("codec_support.rs");

pub use names::{camel, method, module, snake};

use std::fmt::Write as _;
use std::path::Path;

use sable_ir::{ByteOrder, Ir, Presence, PrimitiveType, PrimitiveValue};

use crate::model::{
    self, Body, Composite, EnumType, Field, Group, Member, Primitive, Schema, SetType, TypeDef,
    TypeRef, VarData,
};
use names::{bytes_lit, doc, int_lit, is_utf8, json_str, lit, rtype, str_lit, upper};

/// The module name for a schema: its package (or namespace) in snake case, dots as `_`.
pub fn module_name(ir: &Ir) -> String {
    let package = ir
        .namespace_name
        .as_deref()
        .filter(|n| !n.is_empty())
        .unwrap_or(&ir.package_name);
    sable_names::rust::module(package)
}

/// Generates the module's source: items to put in a module of the user's crate (`mod x;` over
/// the file, or `include!` in a `mod x { }`). Not formatted: see [`rustfmt`].
pub fn generate(ir: &Ir) -> String {
    let schema = model::build(ir);
    let mut g = Gen {
        s: &schema,
        out: String::new(),
    };
    g.module();
    g.out
}

/// Formats generated source with the toolchain's `rustfmt` (edition 2021).
pub fn rustfmt(source: &str) -> Result<String, String> {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let rustfmt = std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into());
    let mut child = Command::new(&rustfmt)
        .args(["--edition", "2021", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", Path::new(&rustfmt).display()))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let text = source.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(format!(
            "rustfmt failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}

/// Generates and formats (when `rustfmt` runs; else the unformatted text and the reason).
pub fn generate_formatted(ir: &Ir) -> (String, Option<String>) {
    let text = generate(ir);
    match rustfmt(&text) {
        Ok(t) => (t, None),
        Err(e) => (text, Some(e)),
    }
}

struct Gen<'a> {
    s: &'a Schema,
    out: String,
}

/// `base + off`, without `+ 0`.
fn add(base: &str, off: usize) -> String {
    if off == 0 {
        base.to_owned()
    } else if base == "0" || base.is_empty() {
        off.to_string()
    } else {
        format!("{base} + {off}")
    }
}

fn from_bytes(p: PrimitiveType, order: ByteOrder) -> String {
    let f = if order == ByteOrder::BigEndian {
        "from_be_bytes"
    } else {
        "from_le_bytes"
    };
    format!("{}::{f}", rtype(p))
}

fn to_bytes(order: ByteOrder) -> &'static str {
    if order == ByteOrder::BigEndian {
        "to_be_bytes"
    } else {
        "to_le_bytes"
    }
}

/// An expression of `Option<T>`: the primitive at `slice[off..]` of a block or composite whose
/// full size is `full`.
fn read(slice: &str, off: &str, p: PrimitiveType, order: ByteOrder, full: usize) -> String {
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
fn array_ref(slice: &str, sl: &str, full: usize, n: usize, off: usize) -> String {
    if slice == "block" {
        format!("sbe_support::get_ref::<{n}>({sl}, {off})")
    } else {
        format!("sbe_support::at_ref::<{full}, {n}>({sl}, {off})")
    }
}

/// An expression of `u64`: an unsigned integer at `slice[off..]`, 0 when absent.
fn read_u64(slice: &str, off: &str, p: PrimitiveType, order: ByteOrder) -> String {
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
fn write(slice: &str, off: &str, value: &str, order: ByteOrder) -> String {
    format!(
        "sbe_support::put({slice}, {off}, ({value}).{}());",
        to_bytes(order)
    )
}

fn is_float(p: PrimitiveType) -> bool {
    p.is_float()
}

/// The condition (Rust) under which an element of `since` lying up to `end` is present; `None`
/// when always.
fn present_cond(block: &str, version: &str, since: i32, end: usize) -> Option<String> {
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

/// A fixed-size element to read or write: a field of a block or a member of a composite.
struct Slot<'s> {
    /// Its name in the schema.
    name: &'s str,
    desc: Option<&'s str>,
    kind: Kind<'s>,
    presence: Presence,
    /// A constant enum field's value name.
    const_enum: Option<&'s str>,
    /// Its offset in the block or composite.
    off: usize,
    since: i32,
    /// The decoder's slice holding it: `block` (a message's or an entry's) or `buf` (a
    /// composite's).
    slice: &'static str,
    /// The block's or composite's size at the schema's version.
    full: usize,
    /// The Rust expression of its [`FieldPath`] for errors: `FieldPath::new("fields.vehicleCode")`,
    /// in an entry encoder `...with_indices(self.idx)`, in a composite encoder
    /// `self.path.member("name")`.
    path: String,
}

/// What a fixed-size element holds, resolved.
#[derive(Clone, Copy)]
enum Kind<'s> {
    Prim(&'s Primitive),
    Enum(&'s EnumType),
    Set(&'s SetType),
    Comp(&'s Composite),
}

/// The JSON text of a constant primitive's value.
fn const_json(p: &Primitive, v: &PrimitiveValue) -> String {
    match v {
        PrimitiveValue::Bytes { bytes, .. } => text_json(bytes, p.character_encoding.as_deref()),
        PrimitiveValue::Int(i) if p.primitive_type == PrimitiveType::Char => {
            let b = u8::try_from(*i).unwrap_or(0);
            if b == 0 {
                "\"\"".to_owned()
            } else {
                text_json(&[b], p.character_encoding.as_deref())
            }
        }
        PrimitiveValue::Float(f) => float_json(*f, p.primitive_type),
        other => other.as_i128().unwrap_or(0).to_string(),
    }
}

fn text_json(bytes: &[u8], encoding: Option<&str>) -> String {
    let bytes = match bytes.iter().position(|&b| b == 0) {
        Some(n) => &bytes[..n],
        None => bytes,
    };
    if is_utf8(encoding) {
        json_str(&String::from_utf8_lossy(bytes))
    } else {
        json_str(&bytes.iter().map(|&b| char::from(b)).collect::<String>())
    }
}

/// Canonical JSON of a float constant (the same layout the generated writers use).
fn float_json(f: f64, p: PrimitiveType) -> String {
    if f.is_nan() {
        return "\"NaN\"".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "\"Infinity\"".into()
        } else {
            "\"-Infinity\"".into()
        };
    }
    let (e_text, lo, hi) = if p == PrimitiveType::Float {
        (format!("{:e}", f as f32), -6, 12)
    } else {
        (format!("{f:e}"), -5, 15)
    };
    let (neg, t) = match e_text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, e_text.as_str()),
    };
    let (m, e) = t.split_once('e').unwrap_or((t, "0"));
    let exp: i32 = e.parse().unwrap_or(0);
    let digits: String = m.chars().filter(|c| *c != '.').collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if exp < lo || exp > hi {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{exp}");
    } else if exp >= 0 {
        let int_len = exp as usize + 1;
        if digits.len() <= int_len {
            out.push_str(&digits);
            out.push_str(&"0".repeat(int_len - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        }
    } else {
        out.push_str("0.");
        out.push_str(&"0".repeat((-exp - 1) as usize));
        out.push_str(&digits);
    }
    out
}

/// A Rust string literal holding `text` for `f.write_str`.
fn ws(text: &str) -> String {
    format!("f.write_str({})?;", str_lit(text))
}

/// The JSON statements of a group or var data member: its `key`, then `inner` (writing the
/// value), or `null` when the acting version is older than `since`.
fn versioned_member(key: &str, since: i32, inner: &str) -> String {
    let key = ws(&format!("{key}:"));
    if since > 0 {
        format!("{key}if self.version < {since} {{ f.write_str(\"null\")?; }} else {{ {inner} }}")
    } else {
        format!("{key}{inner}")
    }
}

impl<'a> Gen<'a> {
    fn kind(&self, t: &'a TypeRef) -> Kind<'a> {
        match t {
            TypeRef::Primitive(p) => Kind::Prim(p),
            TypeRef::Enum(n) => Kind::Enum(self.s.enum_type(n)),
            TypeRef::Set(n) => Kind::Set(self.s.set_type(n)),
            TypeRef::Composite(n) => Kind::Comp(self.s.composite(n)),
        }
    }

    fn w(&mut self, text: impl AsRef<str>) {
        self.out.push_str(text.as_ref());
        self.out.push('\n');
    }

    fn header_size(&self) -> usize {
        self.s.header_composite().encoded_length.max(0) as usize
    }

    fn module(&mut self) {
        let s = self.s;
        self.w(format!(
            "// Generated by Sable from the SBE schema `{}` (id {}, version {}). Do not edit.\n",
            s.package.replace('\n', " "),
            s.id,
            s.version
        ));
        self.w(format!(
            "/// The schema's id.\npub const SCHEMA_ID: u16 = {};",
            s.id
        ));
        self.w(format!(
            "/// The schema's version.\npub const SCHEMA_VERSION: u16 = {};",
            s.version
        ));
        self.w(format!(
            "/// The schema's semantic version.\npub const SEMANTIC_VERSION: &str = {};",
            str_lit(s.semantic_version.as_deref().unwrap_or(""))
        ));
        self.w(format!(
            "/// The schema's package.\npub const PACKAGE: &str = {};",
            str_lit(&s.package)
        ));
        self.w(format!(
            "/// The size of the message header, in bytes.\npub const HEADER_SIZE: usize = {};",
            self.header_size()
        ));
        self.w(format!(
            "/// The deepest nesting of groups in the schema's messages (at least 1): the entry\n/// indices a [`FieldPath`] holds.\npub const PATH_DEPTH: usize = {};",
            self.s.messages.iter().map(|m| depth(&m.body)).max().unwrap_or(0).max(1)
        ));
        let start = SUPPORT.find("\n\n").map_or(0, |i| i + 2);
        self.w(&SUPPORT[start..]);
        for t in &s.types {
            match t {
                TypeDef::Enum(e) => self.enum_type(e),
                TypeDef::Set(st) => self.set_type(st),
                TypeDef::Composite(c) => {
                    if c.encoded_length >= 0 {
                        self.composite(c);
                    }
                }
            }
        }
        for m in &s.messages {
            self.message(m);
        }
        self.any_message();
    }

    // ----- enums -----

    fn enum_type(&mut self, e: &EnumType) {
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
            "/// A value with no name in the schema (the null value of an optional field too, where it has none).\nUnknown({t}),\n}}"
        );
        let _ = writeln!(o, "impl {name} {{");
        let _ = writeln!(
            o,
            "/// The null value of the encoding.\npub const NULL_VALUE: {t} = {};",
            lit(&e.null_value, e.encoding_type)
        );
        let _ = writeln!(
            o,
            "/// The value for a raw number: its named value, else `Unknown`.\n#[must_use]\npub const fn from_raw(raw: {t}) -> Self {{ match raw {{"
        );
        for (v, _, raw) in &variants {
            let _ = writeln!(o, "{raw} => Self::{v},");
        }
        let _ = writeln!(o, "other => Self::Unknown(other), }} }}");
        // Two matches, each with one variable arm at most, or-ed: LLVM makes each a select or
        // a table and folds `from_raw(x).raw()` to branch-free code; as one match (the named
        // values, then the unknown's) it compiled to compare-and-branch code or a jump table.
        if variants.is_empty() {
            let _ = writeln!(
                o,
                "/// The raw number on the wire.\n#[must_use]\npub const fn raw(self) -> {t} {{ match self {{ Self::Unknown(raw) => raw, }} }}"
            );
        } else {
            let _ = writeln!(
                o,
                "/// The raw number on the wire.\n#[must_use]\npub const fn raw(self) -> {t} {{ (match self {{"
            );
            for (v, _, raw) in &variants {
                let _ = writeln!(o, "Self::{v} => {raw},");
            }
            let _ = writeln!(
                o,
                "Self::Unknown(_) => 0, }}) | (match self {{ Self::Unknown(raw) => raw, _ => 0, }}) }}"
            );
        }
        let _ = writeln!(
            o,
            "/// The value's name in the schema (`None` for `Unknown`).\n#[must_use]\npub const fn name(self) -> Option<&'static str> {{ match self {{"
        );
        for (v, sn, _) in &variants {
            let _ = writeln!(o, "Self::{v} => Some({}),", str_lit(sn));
        }
        let _ = writeln!(o, "Self::Unknown(_) => None, }} }} }}");
        let _ = writeln!(
            o,
            "impl From<{t}> for {name} {{ fn from(raw: {t}) -> Self {{ Self::from_raw(raw) }} }}"
        );
        let _ = writeln!(
            o,
            "impl From<{name}> for {t} {{ fn from(v: {name}) -> Self {{ v.raw() }} }}"
        );
        let _ = writeln!(
            o,
            "/// The canonical JSON value: the name as a string, or `{{\"unknown\":N}}`.\nimpl core::fmt::Display for {name} {{\nfn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{ match self.name() {{ Some(n) => sbe_support::w_str(f, n), None => write!(f, \"{{{{\\\"unknown\\\":{{}}}}}}\", self.raw()) }} }} }}"
        );
        self.w(o);
    }

    // ----- sets -----

    fn set_type(&mut self, st: &SetType) {
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
            "#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]\npub struct {name}({t});"
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
            "/// Every choice: its name in the schema and its flag.\npub const CHOICES: &'static [(&'static str, Self)] = &["
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
            r#"/// No flag set.
#[must_use]
pub const fn empty() -> Self {{ Self(0) }}
/// Every named flag set.
#[must_use]
pub const fn all() -> Self {{ Self({all}) }}
/// The set of these bits (unnamed bits kept).
#[must_use]
pub const fn from_bits(bits: {t}) -> Self {{ Self(bits) }}
/// The bits.
#[must_use]
pub const fn bits(self) -> {t} {{ self.0 }}
/// Whether no bit is set.
#[must_use]
pub const fn is_empty(self) -> bool {{ self.0 == 0 }}
/// Whether every flag of `other` is set.
#[must_use]
pub const fn contains(self, other: Self) -> bool {{ self.0 & other.0 == other.0 }}
/// Whether any flag of `other` is set.
#[must_use]
pub const fn intersects(self, other: Self) -> bool {{ self.0 & other.0 != 0 }}
/// Both sets' flags.
#[must_use]
pub const fn union(self, other: Self) -> Self {{ Self(self.0 | other.0) }}
/// Sets the flags of `other`.
pub fn insert(&mut self, other: Self) {{ self.0 |= other.0; }}
/// Clears the flags of `other`.
pub fn remove(&mut self, other: Self) {{ self.0 &= !other.0; }}
/// Sets or clears the flags of `other`.
pub fn set(&mut self, other: Self, value: bool) {{ if value {{ self.insert(other) }} else {{ self.remove(other) }} }}
}}
impl core::ops::BitOr for {name} {{ type Output = Self; fn bitor(self, rhs: Self) -> Self {{ Self(self.0 | rhs.0) }} }}
impl core::ops::BitOrAssign for {name} {{ fn bitor_assign(&mut self, rhs: Self) {{ self.0 |= rhs.0; }} }}
impl core::ops::BitAnd for {name} {{ type Output = Self; fn bitand(self, rhs: Self) -> Self {{ Self(self.0 & rhs.0) }} }}
impl core::ops::BitAndAssign for {name} {{ fn bitand_assign(&mut self, rhs: Self) {{ self.0 &= rhs.0; }} }}
impl From<{t}> for {name} {{ fn from(bits: {t}) -> Self {{ Self(bits) }} }}
impl From<{name}> for {t} {{ fn from(v: {name}) -> Self {{ v.0 }} }}
impl core::fmt::Debug for {name} {{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{
        f.write_str("{name}(")?;
        let mut first = true;
        let mut rest = self.0;
        for (n, flag) in Self::CHOICES {{
            if self.contains(*flag) && flag.0 != 0 {{
                if !first {{ f.write_str(" | ")?; }}
                first = false;
                f.write_str(n)?;
                rest &= !flag.0;
            }}
        }}
        if rest != 0 {{
            if !first {{ f.write_str(" | ")?; }}
            write!(f, "{{rest:#x}}")?;
        }}
        f.write_str(")")
    }}
}}
/// The canonical JSON value: the names of the flags set, in schema order, then unnamed bits.
impl core::fmt::Display for {name} {{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{
        sbe_support::w_set(f, {bits64}, &["#
        );
        for c in &st.choices {
            let _ = write!(o, "({}, {}),", str_lit(&c.name), c.bit);
        }
        let _ = writeln!(o, "]) }} }}");
        self.w(o);
    }

    // ----- values inside a block or composite (decoding) -----

    /// Getter(s) for a fixed-size element (`slot`). Returns (getter code, JSON code).
    fn getter(&self, slot: &Slot<'_>) -> (String, String) {
        let Slot {
            name,
            desc,
            ref kind,
            presence,
            const_enum,
            off,
            since,
            slice,
            full,
            ref path,
        } = *slot;
        let m = method(name);
        let mut o = String::new();
        let d = doc(desc);
        let end = off + self.kind_size(kind, presence);
        let present = present_cond(&format!("self.{slice}"), "self.version", since, end);
        let gate = |expr: String, absent: &str| -> String {
            if since > 0 {
                format!("if self.version < {since} {{ {absent} }} else {{ {expr} }}")
            } else {
                expr
            }
        };
        let sl = format!("self.{slice}");
        let offs = off.to_string();
        let json;
        let key = json_str(name);
        match kind {
            Kind::Prim(p) => {
                let t = rtype(p.primitive_type);
                let u = upper(name);
                if presence == Presence::Constant || p.is_constant() {
                    let cv = p.const_value.clone().unwrap_or(PrimitiveValue::Int(0));
                    let cname = format!("{u}_VALUE");
                    match &cv {
                        PrimitiveValue::Bytes { bytes, .. }
                            if p.primitive_type == PrimitiveType::Char =>
                        {
                            let _ = writeln!(o, "/// The constant value of `{name}`.\npub const {cname}: &'static [u8] = {};", bytes_lit(bytes));
                            let _ = writeln!(o, "{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> &'static [u8] {{ Self::{cname} }}");
                        }
                        _ => {
                            let _ = writeln!(
                                o,
                                "/// The constant value of `{name}`.\npub const {cname}: {t} = {};",
                                lit(&cv, p.primitive_type)
                            );
                            let _ = writeln!(o, "{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {t} {{ Self::{cname} }}");
                        }
                    }
                    let val = const_json(p, &cv);
                    json = match present_cond(&sl, "self.version", since, 0) {
                        Some(c) => format!("if {c} {{ {} }} else {{ {} }}", ws(&val), ws("null")),
                        None => ws(&val),
                    };
                    return (o, format!("{}{json}", ws(&format!("{key}:"))));
                }
                let null = lit(&p.null_value, p.primitive_type);
                let _ = writeln!(
                    o,
                    "/// The null value of `{name}`.\npub const {u}_NULL: {t} = {null};"
                );
                let _ = writeln!(
                    o,
                    "/// The minimum value of `{name}`.\npub const {u}_MIN: {t} = {};",
                    lit(&p.min_value, p.primitive_type)
                );
                let _ = writeln!(
                    o,
                    "/// The maximum value of `{name}`.\npub const {u}_MAX: {t} = {};",
                    lit(&p.max_value, p.primitive_type)
                );
                let utf8 = is_utf8(p.character_encoding.as_deref());
                if p.is_array() {
                    let n = p.length;
                    let _ = writeln!(o, "/// The number of elements of `{name}`.\npub const {u}_LENGTH: usize = {n};");
                    if p.primitive_type == PrimitiveType::Char {
                        let expr = gate(array_ref(slice, &sl, full, n, off), "None");
                        let raw = format!("{}_raw", snake(name));
                        let _ = writeln!(o, "{d}///\n/// The text: the bytes before the first NUL (all {n} when there is none).\n#[must_use]\n#[inline]\npub fn {m}(&self) -> &'a [u8] {{ sbe_support::until_nul(self.{raw}()) }}");
                        let _ = writeln!(o, "/// All {n} bytes of `{name}`, its NUL padding included.\n#[must_use]\n#[inline]\npub fn {raw}(&self) -> &'a [u8; {n}] {{ ({expr}).unwrap_or(&[0; {n}]) }}");
                        let _ = writeln!(o, "/// `{name}` as text, up to the first NUL (UTF-8 checked, or ASCII for one-byte encodings).\n///\n/// # Errors\n///\n/// Text not valid as `&str` (`InvalidText`).\n#[inline]\npub fn {}_str(&self) -> Result<&'a str, DecodeError> {{ sbe_support::text(self.{m}(), {utf8}, {off}, {path}) }}", snake(name));
                        json = format!("sbe_support::w_chars(f, self.{raw}(), {utf8})?;");
                    } else if p.primitive_type == PrimitiveType::UInt8 {
                        let expr = gate(array_ref(slice, &sl, full, n, off), "None");
                        let _ = writeln!(o, "{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> &'a [u8; {n}] {{ ({expr}).unwrap_or(&[0; {n}]) }}");
                        {
                            json = format!("sbe_support::w_hex(f, self.{m}())?;");
                        }
                    } else {
                        let sz = p.primitive_type.size();
                        let mut body = format!(
                            "let mut out = [{null}; {n}];\nif let Some(b) = {} {{ for (v, c) in out.iter_mut().zip(b.chunks_exact({sz})) {{ if let Ok(a) = c.try_into() {{ *v = {}(a); }} }} }}\nout",
                            array_ref(slice, &sl, full, n * sz, off), from_bytes(p.primitive_type, p.byte_order)
                        );
                        if since > 0 {
                            body = format!(
                                "if self.version < {since} {{ return [{null}; {n}]; }}\n{body}"
                            );
                        }
                        let _ = writeln!(o, "{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> [{t}; {n}] {{ {body} }}");
                        json = if p.primitive_type == PrimitiveType::Int8 {
                            format!("let a = self.{m}(); let mut b = [0u8; {n}]; for (d, s) in b.iter_mut().zip(a) {{ *d = s.to_le_bytes()[0]; }} sbe_support::w_hex(f, &b)?;")
                        } else {
                            let item = self.num_json("*v", p.primitive_type);
                            format!("f.write_str(\"[\")?; for (i, v) in self.{m}().iter().enumerate() {{ if i > 0 {{ f.write_str(\",\")?; }} {item} }} f.write_str(\"]\")?;")
                        }
                    }
                } else {
                    let raw = gate(
                        read(&sl, &offs, p.primitive_type, p.byte_order, full),
                        "None",
                    );
                    let optional =
                        presence == Presence::Optional || p.presence == Presence::Optional;
                    if optional {
                        let filt = if is_float(p.primitive_type)
                            && p.null_value.as_f64().is_some_and(f64::is_nan)
                        {
                            ".filter(|v| !v.is_nan())".to_owned()
                        } else {
                            format!(".filter(|v| *v != Self::{u}_NULL)")
                        };
                        let _ = writeln!(o, "{d}///\n/// `None` for the null value (or when absent at the acting version).\n#[must_use]\n#[inline]\npub fn {m}(&self) -> Option<{t}> {{ ({raw}){filt} }}");
                        let item = if p.primitive_type == PrimitiveType::Char {
                            format!("sbe_support::w_chars(f, &[v], {utf8})?;")
                        } else {
                            self.num_json("v", p.primitive_type)
                        };
                        json = format!("match self.{m}() {{ Some(v) => {{ {item} }} None => f.write_str(\"null\")?, }}");
                    } else {
                        let _ = writeln!(o, "{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {t} {{ ({raw}).unwrap_or(Self::{u}_NULL) }}");
                        json = if p.primitive_type == PrimitiveType::Char {
                            format!("sbe_support::w_chars(f, &[self.{m}()], {utf8})?;")
                        } else {
                            let v = format!("self.{m}()");
                            self.num_json(&v, p.primitive_type)
                        };
                    }
                }
            }
            Kind::Enum(e) => {
                let en = camel(&e.name);
                let t = rtype(e.encoding_type);
                if presence == Presence::Constant {
                    let vname = const_enum.unwrap_or("");
                    let var = e
                        .values
                        .iter()
                        .find(|v| v.name == vname)
                        .map(|v| lit(&v.value, e.encoding_type))
                        .unwrap_or_else(|| "0".into());
                    let u = upper(name);
                    let _ = writeln!(o, "/// The constant value of `{name}`.\npub const {u}_VALUE: {en} = {en}::from_raw({var});");
                    let _ = writeln!(o, "{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {en} {{ Self::{u}_VALUE }}");
                    let val = json_str(vname);
                    json = match present_cond(&sl, "self.version", since, 0) {
                        Some(c) => format!("if {c} {{ {} }} else {{ {} }}", ws(&val), ws("null")),
                        None => ws(&val),
                    };
                    return (o, format!("{}{json}", ws(&format!("{key}:"))));
                }
                let raw = gate(
                    read(&sl, &offs, e.encoding_type, e.byte_order, full),
                    "None",
                );
                if presence == Presence::Optional {
                    let _ = writeln!(o, "{d}///\n/// `None` for the null value (or when absent at the acting version).\n#[must_use]\n#[inline]\npub fn {m}(&self) -> Option<{en}> {{ ({raw}).filter(|v| *v != {en}::NULL_VALUE).map({en}::from_raw) }}");
                    json = format!("match self.{m}() {{ Some(v) => write!(f, \"{{v}}\")?, None => f.write_str(\"null\")?, }}");
                } else {
                    let _ = writeln!(o, "{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {en} {{ {en}::from_raw(({raw}).unwrap_or({en}::NULL_VALUE)) }}");
                    let _ = t;
                    json = format!("write!(f, \"{{}}\", self.{m}())?;");
                }
            }
            Kind::Set(st) => {
                let sn = camel(&st.name);
                let raw = gate(
                    read(&sl, &offs, st.encoding_type, st.byte_order, full),
                    "None",
                );
                let _ = writeln!(o, "{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {sn} {{ {sn}::from_bits(({raw}).unwrap_or(0)) }}");
                json = format!("write!(f, \"{{}}\", self.{m}())?;");
            }
            Kind::Comp(c) => {
                let cn = format!("{}Decoder", camel(&c.name));
                // The block's full size when it holds the composite (it does at the schema's
                // version), so that the test is the one the block's other reads share.
                let full = full.max(off + c.encoded_length.max(0) as usize);
                let slice = if since > 0 {
                    format!("if self.version < {since} {{ &[] }} else {{ sbe_support::from::<{full}>({sl}, {off}) }}")
                } else {
                    format!("sbe_support::from::<{full}>({sl}, {off})")
                };
                let _ = writeln!(o, "{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {cn}<'a> {{ {cn}::wrap({slice}, self.version) }}");
                json = format!("write!(f, \"{{}}\", self.{m}())?;");
            }
        }
        let body = match present {
            Some(c) => format!("if {c} {{ {json} }} else {{ f.write_str(\"null\")?; }}"),
            None => json,
        };
        (o, format!("{}{body}", ws(&format!("{key}:"))))
    }

    fn num_json(&self, v: &str, p: PrimitiveType) -> String {
        match p {
            PrimitiveType::Float => format!("sbe_support::w_f32(f, {v})?;"),
            PrimitiveType::Double => format!("sbe_support::w_f64(f, {v})?;"),
            _ => format!("write!(f, \"{{}}\", {v})?;"),
        }
    }

    fn kind_size(&self, kind: &Kind<'_>, presence: Presence) -> usize {
        if presence == Presence::Constant {
            return 0;
        }
        match kind {
            Kind::Prim(p) => p.size(),
            Kind::Enum(e) => e.encoding_type.size(),
            Kind::Set(s) => s.encoding_type.size(),
            Kind::Comp(c) => c.encoded_length.max(0) as usize,
        }
    }

    /// Setter(s) for a fixed-size element (`slot`) at `base + slot.off` of `self.buf`;
    /// `lifetime_ret`: the lifetime of a composite encoder returned.
    fn setter(&self, slot: &Slot<'_>, base: &str, lifetime_ret: &str) -> String {
        let m = method(slot.name);
        let d = doc(slot.desc);
        let at = add(base, slot.off);
        let path = &slot.path;
        let mut o = String::new();
        match slot.kind {
            Kind::Prim(p) => {
                if slot.presence == Presence::Constant || p.is_constant() {
                    return o;
                }
                let t = rtype(p.primitive_type);
                if p.is_array() {
                    let n = p.length;
                    let sz = p.primitive_type.size();
                    if p.primitive_type == PrimitiveType::Char {
                        let _ = writeln!(o, "{d}///\n/// A shorter value is padded with NUL.\n///\n/// # Errors\n///\n/// `TextTooLong`: longer than the array's {n} bytes (nothing written).\n#[inline]\npub fn {m}(&mut self, value: &[u8]) -> Result<&mut Self, EncodeError> {{ sbe_support::put_padded(self.buf, {at}, {n}, value, {path})?; Ok(self) }}");
                    } else if p.primitive_type == PrimitiveType::UInt8 {
                        let _ = writeln!(o, "{d}#[inline]\npub fn {m}(&mut self, value: &[u8; {n}]) -> &mut Self {{ sbe_support::put(self.buf, {at}, *value); self }}");
                    } else {
                        let tb = to_bytes(p.byte_order);
                        let _ = writeln!(o, "{d}#[inline]\npub fn {m}(&mut self, value: &[{t}; {n}]) -> &mut Self {{ let mut b = [0u8; {}]; for (c, v) in b.chunks_exact_mut({sz}).zip(value) {{ c.copy_from_slice(&v.{tb}()); }} sbe_support::put(self.buf, {at}, b); self }}", n * sz);
                    }
                    let w = write("self.buf", "at", "value", p.byte_order);
                    let _ = writeln!(o, "/// Writes element `index` of `{}`.\n///\n/// # Errors\n///\n/// `IndexOutOfRange`: `index` not below {n}.\n#[inline]\npub fn {}_at(&mut self, index: usize, value: {t}) -> Result<&mut Self, EncodeError> {{ let at = sbe_support::element({at}, index, {n}, {sz}, {path})?; {w} Ok(self) }}", slot.name, m.trim_end_matches('_'));
                    return o;
                }
                let optional =
                    slot.presence == Presence::Optional || p.presence == Presence::Optional;
                let check = p.range_declared.then(|| {
                    let (min, max) = (lit(&p.min_value, p.primitive_type), lit(&p.max_value, p.primitive_type));
                    format!("if !({min}..={max}).contains(&v) {{ return Err(sbe_support::out_of_range({at}, {path})); }}")
                });
                let (arg, value, null_doc) = if optional {
                    let null = lit(&p.null_value, p.primitive_type);
                    (
                        format!("Option<{t}>"),
                        format!("value.unwrap_or({null})"),
                        "///\n/// `None` writes the null value.\n",
                    )
                } else {
                    (t.to_owned(), "value".to_owned(), "")
                };
                let w = write("self.buf", &at, &value, p.byte_order);
                match check {
                    Some(check) => {
                        let test = if optional {
                            format!("if let Some(v) = value {{ {check} }}")
                        } else {
                            format!("let v = value; {check}")
                        };
                        let (min, max) = (
                            lit(&p.min_value, p.primitive_type),
                            lit(&p.max_value, p.primitive_type),
                        );
                        let _ = writeln!(o, "{d}{null_doc}///\n/// # Errors\n///\n/// `ValueOutOfRange`: outside the declared {min}..={max} (nothing written).\n#[inline]\npub fn {m}(&mut self, value: {arg}) -> Result<&mut Self, EncodeError> {{ {test} {w} Ok(self) }}");
                    }
                    None => {
                        let _ = writeln!(o, "{d}{null_doc}#[inline]\npub fn {m}(&mut self, value: {arg}) -> &mut Self {{ {w} self }}");
                    }
                }
            }
            Kind::Enum(e) => {
                if slot.presence == Presence::Constant {
                    return o;
                }
                let en = camel(&e.name);
                if slot.presence == Presence::Optional {
                    let w = write(
                        "self.buf",
                        &at,
                        &format!("value.map_or({en}::NULL_VALUE, {en}::raw)"),
                        e.byte_order,
                    );
                    let _ = writeln!(o, "{d}///\n/// `None` writes the null value.\n#[inline]\npub fn {m}(&mut self, value: Option<{en}>) -> &mut Self {{ {w} self }}");
                } else {
                    let w = write("self.buf", &at, "value.raw()", e.byte_order);
                    let _ = writeln!(o, "{d}#[inline]\npub fn {m}(&mut self, value: {en}) -> &mut Self {{ {w} self }}");
                }
            }
            Kind::Set(st) => {
                let sn = camel(&st.name);
                let w = write("self.buf", &at, "value.bits()", st.byte_order);
                let _ = writeln!(
                    o,
                    "{d}#[inline]\npub fn {m}(&mut self, value: {sn}) -> &mut Self {{ {w} self }}"
                );
            }
            Kind::Comp(c) => {
                let cn = format!("{}Encoder", camel(&c.name));
                let len = c.encoded_length.max(0) as usize;
                let _ = writeln!(o, "{d}#[inline]\npub fn {m}(&mut self) -> {cn}<{lifetime_ret}> {{ let at = {at}; {cn}::wrap_at(self.buf.get_mut(at..at + {len}).unwrap_or_default(), {path}) }}");
            }
        }
        o
    }

    // ----- composites -----

    fn composite(&mut self, c: &Composite) {
        let name = camel(&c.name);
        let dn = format!("{name}Decoder");
        let en = format!("{name}Encoder");
        let len = c.encoded_length.max(0) as usize;
        let d = doc(c.description.as_deref());
        let mut o = String::new();
        let _ = writeln!(
            o,
            "{d}///\n/// A view of the composite's bytes (members past the end of a shorter slice read as null).\n#[derive(Debug, Clone, Copy)]\npub struct {dn}<'a> {{ buf: &'a [u8], version: u16 }}"
        );
        let _ = writeln!(o, "impl<'a> {dn}<'a> {{\n/// The composite's size in bytes.\npub const ENCODED_LENGTH: usize = {len};\n/// A view of `buf` (from the composite's first byte), read at `acting_version`.\n#[must_use]\n#[inline]\npub fn wrap(buf: &'a [u8], acting_version: u16) -> Self {{ Self {{ buf, version: acting_version }} }}\n/// The acting version.\n#[must_use]\npub fn acting_version(&self) -> u16 {{ self.version }}");
        let mut jsons = Vec::new();
        for m in &c.members {
            let kind = self.kind(&m.type_ref);
            let presence = member_presence(m, &kind);
            let (g, j) = self.getter(&Slot {
                name: &m.name,
                desc: m.description.as_deref(),
                kind,
                presence,
                const_enum: None,
                off: m.offset,
                since: m.since_version,
                slice: "buf",
                full: len,
                path: format!("FieldPath::new({})", str_lit(&m.name)),
            });
            o.push_str(&g);
            jsons.push(j);
        }
        o.push_str("}\n");
        let _ = writeln!(o, "/// The canonical JSON object of the composite.\nimpl core::fmt::Display for {dn}<'_> {{\nfn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{\nf.write_str(\"{{\")?;");
        for (i, j) in jsons.iter().enumerate() {
            if i > 0 {
                o.push_str(&ws(","));
            }
            o.push_str(j);
            o.push('\n');
        }
        let _ = writeln!(o, "f.write_str(\"}}\") }} }}");
        // Encoder.
        let _ = writeln!(
            o,
            "{d}///\n/// Writes the composite's members into its bytes.\n#[derive(Debug)]\npub struct {en}<'b> {{ buf: &'b mut [u8], #[allow(dead_code)] path: FieldPath }}"
        );
        let _ = writeln!(o, "impl<'b> {en}<'b> {{\n/// The composite's size in bytes.\npub const ENCODED_LENGTH: usize = {len};\n/// An encoder over `buf` (from the composite's first byte; writes past its end are dropped).\n#[inline]\npub fn wrap(buf: &'b mut [u8]) -> Self {{ Self::wrap_at(buf, FieldPath::new({})) }}\n/// An encoder over `buf` whose errors name the composite `path`.\n#[inline]\npub fn wrap_at(buf: &'b mut [u8], path: FieldPath) -> Self {{ Self {{ buf, path }} }}", str_lit(&c.name));
        for m in &c.members {
            let kind = self.kind(&m.type_ref);
            let presence = member_presence(m, &kind);
            let slot = Slot {
                name: &m.name,
                desc: m.description.as_deref(),
                kind,
                presence,
                const_enum: None,
                off: m.offset,
                since: m.since_version,
                slice: "buf",
                full: len,
                path: format!("self.path.member({})", str_lit(&m.name)),
            };
            o.push_str(&self.setter(&slot, "0", "'_"));
        }
        o.push_str("}\n");
        self.w(o);
    }

    // ----- messages -----

    fn message(&mut self, msg: &model::Message) {
        let name = camel(&msg.name);
        let modname = snake(&msg.name);
        let mut names = GroupNames::default();
        names.collect(&msg.body, "");
        let mut o = String::new();
        let _ = writeln!(
            o,
            "/// The groups of `{}` (entry decoders and iterators, group and entry encoders).\n#[allow(clippy::module_inception)]\npub mod {modname} {{\n#[allow(unused_imports)]\nuse super::*;",
            msg.name
        );
        // Decoder.
        let dn = format!("{name}Decoder");
        let en = format!("{name}Encoder");
        let hs = self.header_size();
        let hc = self.s.header_composite();
        let d = doc(msg.description.as_deref());
        let n = elements(&msg.body);
        let needs = min_block(&msg.body);
        let mut fields = format!("hdr: [u8; {hs}],\nblock: &'a [u8],\nversion: u16,\n");
        if n > 0 {
            fields.push_str(&format!(
                "buf: &'a [u8],\nmarks: sbe_support::Marks<{}>,\n",
                n + 1
            ));
        } else {
            fields.push_str("end: usize,\n");
        }
        let _ = writeln!(
            o,
            "{d}///\n/// A decoded `{}` message: its header and root block checked against the buffer when \
             decoded, so its fields' reads never fail; its groups and var data are found and checked as they are read \
             (in any order: each read returns a `Result`, and where a group or var data starts is kept once found).\n\
             #[derive(Debug, Clone)]\npub struct {dn}<'a> {{\n{fields}}}",
            msg.name
        );
        let _ = writeln!(o, "impl<'a> {dn}<'a> {{");
        let _ = writeln!(
            o,
            "/// The message's name in the schema.\npub const NAME: &'static str = {};\n/// The template id.\npub const TEMPLATE_ID: u16 = {};\n/// The root block length at the schema's version.\npub const BLOCK_LENGTH: u16 = {};",
            str_lit(&msg.name),
            msg.id,
            msg.block_length
        );
        if let Some(st) = &msg.semantic_type {
            let _ = writeln!(
                o,
                "/// The message's semantic type.\npub const SEMANTIC_TYPE: &'static str = {};",
                str_lit(st)
            );
        }
        // decode
        let hdr_read = |member: &str| -> Option<String> {
            let m = hc.member(member)?;
            match &m.type_ref {
                TypeRef::Primitive(p) if p.is_constant() => Some(format!(
                    "{}_u64",
                    p.const_value
                        .as_ref()
                        .and_then(|v| v.as_i128())
                        .unwrap_or(0)
                )),
                TypeRef::Primitive(p) => Some(read_u64(
                    "&hdr",
                    &m.offset.to_string(),
                    p.primitive_type,
                    p.byte_order,
                )),
                _ => None,
            }
        };
        let mut dec = String::new();
        let _ = writeln!(dec, "/// Decodes the message at the start of `buf`, header first: checks the template id \
            (and schema id), then reads the message at the block length and version the header gives.\n\
            ///\n/// # Errors\n///\n/// A header or message that does not fit in `buf`, another template or schema id, \
            a block length shorter than the fields need, group entries or var data running past the end.\n\
            #[inline]\npub fn decode(buf: &'a [u8]) -> Result<Self, DecodeError> {{");
        let _ = writeln!(
            dec,
            "let Some(hdr) = sbe_support::get::<{hs}>(buf, 0) else {{ sbe_support::cold(); return Err(sbe_support::truncated(0, FieldPath::new(\"header\"), {hs}, buf.len())); }};"
        );
        // Template id and schema id side by side: one test of both bytes against the
        // message's, the two tests (and their errors) only when it fails.
        let ids = match (hc.primitive("templateId"), hc.primitive("schemaId")) {
            (Some((tm, tp)), Some((sm, sp)))
                if !tp.is_constant()
                    && !sp.is_constant()
                    && !tp.is_array()
                    && !sp.is_array()
                    && sm.offset == tm.offset + tp.size() =>
            {
                let mut bytes = int_bytes(i128::from(msg.id), tp.size(), tp.byte_order);
                bytes.extend(int_bytes(i128::from(self.s.id), sp.size(), sp.byte_order));
                Some((tm.offset, bytes))
            }
            _ => None,
        };
        if let Some((off, bytes)) = &ids {
            let _ = writeln!(
                dec,
                "if sbe_support::get::<{}>(buf, {off}) != Some(*{}) {{\nsbe_support::cold();",
                bytes.len(),
                bytes_lit(bytes)
            );
        }
        // The contract's order: the schema id first, then the template id.
        if let Some(e) = hdr_read("schemaId") {
            let off = hc.member("schemaId").map_or(0, |m| m.offset);
            let _ = writeln!(dec, "let schema_id = {e};\nif schema_id != u64::from(SCHEMA_ID) {{ return Err(sbe_support::header_error({off}, \"header.schemaId\", DecodeErrorKind::SchemaIdMismatch(schema_id))); }}");
        }
        if let Some(e) = hdr_read("templateId") {
            let off = hc.member("templateId").map_or(0, |m| m.offset);
            let _ = writeln!(dec, "let template_id = {e};\nif template_id != u64::from(Self::TEMPLATE_ID) {{ return Err(sbe_support::header_error({off}, \"header.templateId\", DecodeErrorKind::UnknownTemplate(template_id))); }}");
        }
        if ids.is_some() {
            dec.push_str("}\n");
        }
        let bl = hdr_read("blockLength").unwrap_or_else(|| format!("{}_u64", msg.block_length));
        let ver = hdr_read("version").unwrap_or_else(|| "0_u64".into());
        let bl_off = hc.member("blockLength").map_or(0, |m| m.offset);
        let _ = writeln!(dec, "let block_length = sbe_support::to_usize({bl});\nlet version = sbe_support::to_version({ver});\nSelf::sbe_new(buf, {hs}, block_length, version, hdr, {bl_off})\n}}");
        // decode_body
        let _ = writeln!(dec, "/// Decodes a message body (no header) at the start of `buf`, written with `block_length` \
            and at `acting_version`; error offsets are from the start of `buf`.\n///\n/// # Errors\n///\n/// As [`Self::decode`], without the header checks.\n\
            #[inline]\npub fn decode_body(buf: &'a [u8], block_length: usize, acting_version: u16) -> Result<Self, DecodeError> {{\nlet mut hdr = [0u8; {hs}];");
        for m in &hc.members {
            if let TypeRef::Primitive(p) = &m.type_ref {
                if p.is_constant() {
                    continue;
                }
                let t = rtype(p.primitive_type);
                let v = match m.name.as_str() {
                    "blockLength" => format!("block_length as {t}"),
                    "templateId" => int_lit(i128::from(msg.id), p.primitive_type),
                    "schemaId" => int_lit(i128::from(self.s.id), p.primitive_type),
                    "version" if t == "u16" => "acting_version".to_owned(),
                    "version" => format!("acting_version as {t}"),
                    _ => lit(&p.null_value, p.primitive_type),
                };
                if p.is_array() {
                    continue;
                }
                dec.push_str(&write("&mut hdr", &m.offset.to_string(), &v, p.byte_order));
                dec.push('\n');
            }
        }
        let _ = writeln!(
            dec,
            "Self::sbe_new(buf, 0, block_length, acting_version, hdr, 0)\n}}"
        );
        // sbe_new
        let _ = writeln!(dec, "#[inline]\nfn sbe_new(buf: &'a [u8], start: usize, block_length: usize, version: u16, hdr: [u8; {hs}], bl_at: usize) -> Result<Self, DecodeError> {{");
        if needs > 0 {
            let cond = if self.s.version > 0 {
                format!("version >= SCHEMA_VERSION && block_length < {needs}")
            } else {
                format!("block_length < {needs}")
            };
            let _ = writeln!(dec, "if {cond} {{ sbe_support::cold(); return Err(sbe_support::block_too_short(bl_at, FieldPath::new(\"header.blockLength\"), block_length, {needs})); }}");
        } else {
            dec.push_str("let _ = bl_at;\n");
        }
        let _ = writeln!(dec, "let block_end = sbe_support::span(buf, start, block_length, || FieldPath::new(\"fields\"))?;\nlet block = buf.get(start..block_end).unwrap_or(&[]);");
        if n > 0 {
            let _ = writeln!(dec, "Ok(Self {{ hdr, block, version, buf, marks: sbe_support::Marks::new(block_end) }})\n}}");
        } else {
            let _ = writeln!(
                dec,
                "Ok(Self {{ hdr, block, version, end: block_end }})\n}}"
            );
        }
        let _ = writeln!(dec, "/// The acting version (the writer's).\n#[must_use]\npub fn acting_version(&self) -> u16 {{ self.version }}\n\
            /// The acting block length (the writer's).\n#[must_use]\npub fn acting_block_length(&self) -> usize {{ self.block.len() }}\n\
            /// The message's length in bytes: header (when decoded with it), block, groups and var data \
            (found, and checked, as far as not read yet).\n///\n/// # Errors\n///\n/// A group or var data running past the end \
            of the buffer, or a group's block length shorter than its fields need.\n#[inline]\npub fn encoded_length(&self) -> Result<usize, DecodeError> {{ {} }}\n\
            /// The message header as read (or, after `decode_body`, as made from its arguments).\n#[must_use]\npub fn header(&self) -> {}Decoder<'_> {{ {}Decoder::wrap(&self.hdr, SCHEMA_VERSION) }}",
            if n > 0 { format!("self.sbe_start({n})") } else { "Ok(self.end)".to_owned() },
            camel(&hc.name), camel(&hc.name));
        o.push_str(&dec);
        let names_ref = &names;
        let (body_code, json) =
            self.body_decoder(&msg.body, &BodyAt::message(names_ref), msg.block_length);
        o.push_str(&body_code);
        o.push_str("}\n");
        // A message whose groups or var data do not fit prints as its error (the reads below
        // then all succeed).
        let check = if n > 0 {
            "if let Err(e) = self.encoded_length() { return write!(f, \"{}\", e.json()); }\n"
        } else {
            ""
        };
        let _ = writeln!(o, "/// The canonical JSON form of the message (docs/json.md of Sable); a message whose groups or var data \
            do not fit in the buffer prints as its error, `{{\"error\":{{\"offset\":N,...}}}}` (`DecodeError::json`).\nimpl core::fmt::Display for {dn}<'_> {{\nfn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{\n{check}f.write_str({})?;\nwrite!(f, \"{{}}\", self.header())?;\nf.write_str(\",\\\"fields\\\":{{\")?;\n{json}\nf.write_str(\"}}}}\") }} }}",
            str_lit(&format!("{{\"message\":{},\"header\":", json_str(&msg.name))));
        // Group types (decoders) for the body.
        o.push_str(&self.group_types(&msg.body, &BodyAt::message(names_ref)));
        // Encoder.
        o.push_str(&self.message_encoder(msg, &name, &en, names_ref));
        o.push_str("}\n");
        let _ = writeln!(
            o,
            "#[allow(unused_imports)]\npub use {modname}::{{{dn}, {en}}};"
        );
        self.w(o);
    }

    /// Decoder methods for a body's fields (in a block of `block_length` bytes at the schema's
    /// version), groups and var data; and the JSON statements of its members (comma separated).
    /// A message's body (`top`) finds its groups and var data as they are read, each read
    /// checked (`sbe_start`); a group entry's were found and checked when its iterator made it
    /// (`sbe_walk`).
    fn body_decoder(&self, body: &Body, at: &BodyAt<'_>, block_length: usize) -> (String, String) {
        let (path, names, top) = (at.path.as_str(), at.names, at.depth == 0);
        let mut o = String::new();
        let mut jsons = Vec::new();
        for fd in &body.fields {
            let kind = self.kind(&fd.type_ref);
            let (g, j) = self.getter(&Slot {
                name: &fd.name,
                desc: fd.description.as_deref(),
                kind,
                presence: fd.presence,
                const_enum: fd.const_enum_value.as_deref(),
                off: fd.offset,
                since: fd.since_version,
                slice: "block",
                full: block_length,
                path: format!("FieldPath::new({})", at.element(&fd.name)),
            });
            o.push_str(&field_meta(fd));
            o.push_str(&g);
            jsons.push(j);
        }
        let mut idx = 0;
        // `e`: the index among the body's groups and var data, in schema order.
        for (e, g) in body.groups.iter().enumerate() {
            let gname = names.name(path, &g.name);
            let m = method(&g.name);
            let u = upper(&g.name);
            let d = doc(g.description.as_deref());
            let _ = writeln!(o, "/// The id of group `{}`.\npub const {u}_ID: u16 = {};\n/// The version group `{}` appeared in.\npub const {u}_SINCE_VERSION: u16 = {};", g.name, g.id, g.name, g.since_version);
            let absent = if g.since_version > 0 {
                format!(
                    " (none when the group is newer than the acting version {})",
                    g.since_version
                )
            } else {
                String::new()
            };
            if top {
                let fixed = slots(&g.body) == 0;
                let none = if fixed {
                    format!("{gname}Iter {{ entries: &[], remaining: 0, block_length: 0, version: self.version }}")
                } else {
                    format!("{gname}Iter {{ buf: self.buf, pos: 0, index: 0, remaining: 0, block_length: 0, version: self.version, mark: None }}")
                };
                let absent_check = if g.since_version > 0 {
                    format!(
                        "if self.version < {} {{ return Ok({none}); }}\n",
                        g.since_version
                    )
                } else {
                    String::new()
                };
                if fixed {
                    // The header read checks the group whole: its entries are one slice, cut
                    // as the iterator goes.
                    let _ = writeln!(o, "{d}///\n/// An iterator over the entries{absent}.\n///\n/// # Errors\n///\n/// The group's header or entries running past the end of the buffer, or a block length shorter than the entries' fields need (and the same of the groups and var data before it, when not read yet).\n#[inline]\npub fn {m}(&self) -> Result<{gname}Iter<'a>, DecodeError> {{\n{absent_check}let p = self.sbe_start({e})?;\nlet (start, count, bl, end) = {gname}Iter::sbe_skip::<true>(self.buf, p, self.version)?;\nself.marks.found({}, end);\nOk({gname}Iter {{ entries: self.buf.get(start..end).unwrap_or(&[]), remaining: count, block_length: bl, version: self.version }})\n}}", e + 1);
                } else {
                    // Entries with groups or var data are checked one by one as the iterator
                    // makes them; the iterator records where the group ends once it gets there.
                    let _ = writeln!(o, "{d}///\n/// An iterator over the entries{absent}, each checked as it is made.\n///\n/// # Errors\n///\n/// The group's header running past the end of the buffer, or a block length shorter than the entries' fields need (and the same of the groups and var data before it, when not read yet).\n#[inline]\npub fn {m}(&self) -> Result<{gname}Iter<'_>, DecodeError> {{\n{absent_check}let p = self.sbe_start({e})?;\nlet (start, count, bl) = {gname}Iter::sbe_open::<true>(self.buf, p, self.version)?;\nOk({gname}Iter {{ buf: self.buf, pos: start, index: 0, remaining: count, block_length: bl, version: self.version, mark: Some(self.marks.mark({})) }})\n}}", e + 1);
                }
                let key = json_str(&g.name);
                let inner = format!("let Ok(it) = self.{m}() else {{ return Err(core::fmt::Error); }}; f.write_str(\"[\")?; for (i, e) in it.enumerate() {{ let e = e.map_err(|_| core::fmt::Error)?; if i > 0 {{ f.write_str(\",\")?; }} write!(f, \"{{e}}\")?; }} f.write_str(\"]\")?;");
                jsons.push(versioned_member(&key, g.since_version, &inner));
                idx += 3;
                continue;
            }
            // The walk checked the group whole: the entries of a group of fixed-size entries are
            // one slice, cut as the iterator goes.
            let at = if slots(&g.body) == 0 {
                format!("entries: self.buf.get(self.pos[{idx}]..self.pos[{idx}].wrapping_add(self.pos[{}].wrapping_mul(self.pos[{}]))).unwrap_or(&[])", idx + 1, idx + 2)
            } else {
                format!("buf: self.buf, pos: self.pos[{idx}]")
            };
            let _ = writeln!(o, "{d}///\n/// An iterator over the entries{absent}.\n#[must_use]\n#[inline]\npub fn {m}(&self) -> {gname}Iter<'a> {{ {gname}Iter {{ {at}, remaining: self.pos[{}], block_length: self.pos[{}], version: self.version }} }}", idx + 1, idx + 2);
            let key = json_str(&g.name);
            let inner = format!("f.write_str(\"[\")?; for (i, e) in self.{m}().enumerate() {{ let e = e.map_err(|_| core::fmt::Error)?; if i > 0 {{ f.write_str(\",\")?; }} write!(f, \"{{e}}\")?; }} f.write_str(\"]\")?;");
            jsons.push(versioned_member(&key, g.since_version, &inner));
            idx += 3;
        }
        for (e, v) in (body.groups.len()..).zip(&body.var_data) {
            let m = method(&v.name);
            let u = upper(&v.name);
            let d = doc(v.description.as_deref());
            let utf8 = is_utf8(v.character_encoding.as_deref());
            let _ = writeln!(o, "/// The id of var data `{}`.\npub const {u}_ID: u16 = {};\n/// The version var data `{}` appeared in.\npub const {u}_SINCE_VERSION: u16 = {};", v.name, v.id, v.name, v.since_version);
            if let Some(ce) = &v.character_encoding {
                let _ = writeln!(o, "/// The character encoding of `{}`.\npub const {u}_CHARACTER_ENCODING: &'static str = {};", v.name, str_lit(ce));
            }
            if top {
                let ls = v.length_size();
                let (len, end) = var_data_end(v, "self.buf", &at.element(&v.name));
                let absent = if v.since_version > 0 {
                    format!(
                        "if self.version < {} {{ return Ok(&[]); }}\n",
                        v.since_version
                    )
                } else {
                    String::new()
                };
                let _ = writeln!(o, "{d}///\n/// The bytes (empty when absent at the acting version).\n///\n/// # Errors\n///\n/// The length or the bytes running past the end of the buffer (or the groups and var data before them, when not read yet).\n#[inline]\npub fn {m}(&self) -> Result<&'a [u8], DecodeError> {{\n{absent}let p = self.sbe_start({e})?;\n{len}let end = {end};\nself.marks.found({}, end);\nOk(self.buf.get(p + {ls}..end).unwrap_or(&[]))\n}}", e + 1);
                if v.is_text() {
                    let _ = writeln!(o, "/// `{}` as text (UTF-8 checked, or ASCII for one-byte encodings).\n///\n/// # Errors\n///\n/// As [`Self::{m}`]; text not valid as `&str`.\n#[inline]\npub fn {}_str(&self) -> Result<&'a str, DecodeError> {{ let b = self.{m}()?; sbe_support::text(b, {utf8}, self.sbe_start({e})? + {ls}, FieldPath::new({})) }}", v.name, snake(&v.name), at.element(&v.name));
                }
                let key = json_str(&v.name);
                let inner = if v.is_text() {
                    format!("let Ok(b) = self.{m}() else {{ return Err(core::fmt::Error); }}; sbe_support::w_text(f, b, b, {utf8})?;")
                } else {
                    format!("let Ok(b) = self.{m}() else {{ return Err(core::fmt::Error); }}; sbe_support::w_hex(f, b)?;")
                };
                jsons.push(versioned_member(&key, v.since_version, &inner));
                idx += 2;
                continue;
            }
            let absent = if v.since_version > 0 {
                format!("if self.version < {} {{ return &[]; }}\n", v.since_version)
            } else {
                String::new()
            };
            let _ = writeln!(o, "{d}///\n/// The bytes (empty when absent at the acting version).\n#[must_use]\n#[inline]\npub fn {m}(&self) -> &'a [u8] {{ {absent}self.buf.get(self.pos[{idx}]..self.pos[{}]).unwrap_or(&[]) }}", idx + 1);
            if v.is_text() {
                let _ = writeln!(o, "/// `{}` as text (UTF-8 checked, or ASCII for one-byte encodings).\n///\n/// # Errors\n///\n/// Text not valid as `&str`.\n#[inline]\npub fn {}_str(&self) -> Result<&'a str, DecodeError> {{ sbe_support::text(self.{m}(), {utf8}, self.pos[{idx}], FieldPath::new({})) }}", v.name, snake(&v.name), at.element(&v.name));
            }
            let key = json_str(&v.name);
            let inner = if v.is_text() {
                format!("let b = self.{m}(); sbe_support::w_text(f, b, b, {utf8})?;")
            } else {
                format!("sbe_support::w_hex(f, self.{m}())?;")
            };
            jsons.push(versioned_member(&key, v.since_version, &inner));
            idx += 2;
        }
        let n = elements(body);
        if top && n > 0 {
            let _ = writeln!(o, "/// Where group or var data `i` (in schema order; `{n}`: the end of the message) starts: found before, or found now \
                by skipping (checked) the ones between the last found and it.\n#[inline(always)]\nfn sbe_start(&self, i: usize) -> Result<usize, DecodeError> {{\nmatch self.marks.get(i) {{ Some(p) => Ok(p), None => {{ let mut m = self.marks.load(); let r = Self::sbe_find(self.buf, self.version, i, &mut m); self.marks.store(&m); r }} }}\n}}\n\
                /// Finds where group or var data `i` starts, skipping (checked) the ones between the last found and it (recorded in `m`). Out of line, and given copies rather than `self`, so that the decoder's address is never taken.\n#[inline(never)]\nfn sbe_find(buf: &[u8], version: u16, i: usize, m: &mut sbe_support::Found<{n1}>) -> Result<usize, DecodeError> {{\nlet _ = version;\nloop {{\nif let Some(p) = m.get(i) {{ return Ok(p); }}\nlet (j, p) = m.last();\nlet end = match j {{", n1 = n + 1);
            let mut e = 0;
            for g in &body.groups {
                let gname = names.name(path, &g.name);
                let step = format!("{gname}Iter::sbe_skip::<true>(buf, p, version)?.3");
                if g.since_version > 0 {
                    let _ = writeln!(
                        o,
                        "{e} => if version >= {} {{ {step} }} else {{ p }},",
                        g.since_version
                    );
                } else {
                    let _ = writeln!(o, "{e} => {step},");
                }
                e += 1;
            }
            for v in &body.var_data {
                let (len, end) = var_data_end(v, "buf", &at.element(&v.name));
                let step = format!("{len}{end}");
                if v.since_version > 0 {
                    let _ = writeln!(
                        o,
                        "{e} => if version >= {} {{ {step} }} else {{ p }},",
                        v.since_version
                    );
                } else {
                    let _ = writeln!(o, "{e} => {{ {step} }}");
                }
                e += 1;
            }
            let _ = writeln!(o, "_ => return Ok(p),\n}};\nm.found(j + 1, end);\n}}\n}}");
        }
        // walk
        let k = slots(body);
        if !top && k > 0 {
            let _ = writeln!(o, "/// Finds the groups and var data from `p` (checked against `buf`; block lengths too with `CHECK`): their positions and the end.\n#[inline]\nfn sbe_walk<const CHECK: bool>(buf: &[u8], p: usize, version: u16) -> Result<([usize; {k}], usize), DecodeError> {{\nlet mut pos = [0usize; {k}];\nlet mut p = p;\nlet _ = version;");
            let mut i = 0;
            for g in &body.groups {
                let gname = names.name(path, &g.name);
                let step = format!("let (start, count, bl, end) = {gname}Iter::sbe_skip::<CHECK>(buf, p, version)?;\npos[{i}] = start; pos[{}] = count; pos[{}] = bl; p = end;", i + 1, i + 2);
                if g.since_version > 0 {
                    let _ = writeln!(o, "if version >= {} {{ {step} }}", g.since_version);
                } else {
                    let _ = writeln!(o, "{step}");
                }
                i += 3;
            }
            for v in &body.var_data {
                let ls = v.length_size();
                let (len, end) = var_data_end(v, "buf", &at.element(&v.name));
                let step = format!(
                    "{len}let end = {end};\npos[{i}] = p + {ls}; pos[{}] = end; p = end;",
                    i + 1
                );
                if v.since_version > 0 {
                    let _ = writeln!(
                        o,
                        "if version >= {} {{ {step} }} else {{ pos[{i}] = p; pos[{}] = p; }}",
                        v.since_version,
                        i + 1
                    );
                } else {
                    let _ = writeln!(o, "{step}");
                }
                i += 2;
            }
            let _ = writeln!(o, "Ok((pos, p))\n}}");
        }
        let mut json = String::new();
        for (i, j) in jsons.iter().enumerate() {
            if i > 0 {
                json.push_str(&ws(","));
            }
            json.push_str(j);
            json.push('\n');
        }
        (o, json)
    }

    /// The decoder types of a body's groups (recursively): iterators and entry decoders.
    fn group_types(&self, body: &Body, at: &BodyAt<'_>) -> String {
        let mut o = String::new();
        for g in &body.groups {
            o.push_str(&self.group_decoder(g, at));
            o.push_str(&self.group_types(&g.body, &at.entry(g)));
        }
        o
    }

    fn group_decoder(&self, g: &Group, at: &BodyAt<'_>) -> String {
        let gname = at.type_name(g);
        let path = at.path.as_str();
        let (group_path, entry_path, depth) = (
            at.element(&g.name),
            str_lit(&format!("{}.{}[]", at.json, g.name)),
            at.depth,
        );
        let it = format!("{gname}Iter");
        let dn = format!("{gname}Decoder");
        let dim = self.s.composite(&g.dimension);
        let dim_len = dim.encoded_length.max(0) as usize;
        let k = slots(&g.body);
        let needs = min_block(&g.body);
        let mut o = String::new();
        let dimread = |member: &str| -> String {
            match dim.primitive(member) {
                Some((_, p)) if p.is_constant() => format!(
                    "{}_u64",
                    p.const_value
                        .as_ref()
                        .and_then(|v| v.as_i128())
                        .unwrap_or(0)
                ),
                Some((m, p)) => {
                    read_u64("dim", &m.offset.to_string(), p.primitive_type, p.byte_order)
                }
                None => "0_u64".into(),
            }
        };
        let d = doc(g.description.as_deref());
        // A message's group of entries with groups or var data checks each entry as it makes
        // it (`checked`), and records in the message where the group ends.
        let checked = path.is_empty() && k > 0;
        let storage = if k == 0 {
            "entries: &'a [u8]"
        } else if checked {
            "buf: &'a [u8], pos: usize, index: usize, mark: Option<sbe_support::Mark<'a>>"
        } else {
            "buf: &'a [u8], pos: usize"
        };
        let _ = writeln!(o, "{d}///\n/// An iterator over the entries of group `{}`.\n#[derive(Debug, Clone)]\npub struct {it}<'a> {{ {storage}, remaining: usize, block_length: usize, version: u16 }}", g.name);
        let bl_off = dim.member("blockLength").map_or(0, |m| m.offset);
        let needs_check = if needs > 0 {
            let cond = if self.s.version > 0 {
                format!("version >= SCHEMA_VERSION && block_length < {needs}")
            } else {
                format!("block_length < {needs}")
            };
            format!("if CHECK && {cond} {{ sbe_support::cold(); return Err(sbe_support::block_too_short({}, FieldPath::new({group_path}), block_length, {needs})); }}", add("p", bl_off))
        } else {
            String::new()
        };
        let _ = writeln!(o, "impl<'a> {it}<'a> {{\n/// The block length of an entry at the schema's version.\npub const BLOCK_LENGTH: u16 = {};\n/// The size of the group's header (its dimensions).\npub const HEADER_SIZE: usize = {dim_len};", g.block_length);
        let _ = writeln!(o, "/// Reads and checks the group's header at `p`: (first entry, count, block length).\n#[inline]\nfn sbe_open<const CHECK: bool>(buf: &[u8], p: usize, version: u16) -> Result<(usize, usize, usize), DecodeError> {{\nlet Some(dim) = sbe_support::get_ref::<{dim_len}>(buf, p) else {{ sbe_support::cold(); return Err(sbe_support::truncated(p, FieldPath::new({group_path}), {dim_len}, buf.len())); }};\nlet block_length = sbe_support::to_usize({});\nlet count = sbe_support::to_usize({});\nlet _ = version;\n{needs_check}\nOk((p + {dim_len}, count, block_length))\n}}",
            dimread("blockLength"), dimread("numInGroup"));
        if k == 0 {
            let _ = writeln!(o, "/// Checks the group at `p`: (first entry, count, block length, end).\n#[inline]\npub(super) fn sbe_skip<const CHECK: bool>(buf: &[u8], p: usize, version: u16) -> Result<(usize, usize, usize, usize), DecodeError> {{\nlet (start, count, bl) = Self::sbe_open::<CHECK>(buf, p, version)?;\nlet end = sbe_support::entries_end(buf, start, bl, count, || FieldPath::new({entry_path}), {depth})?;\nOk((start, count, bl, end))\n}}");
        } else {
            let _ = writeln!(o, "/// Checks the group at `p`: (first entry, count, block length, end).\n#[inline]\npub(super) fn sbe_skip<const CHECK: bool>(buf: &[u8], p: usize, version: u16) -> Result<(usize, usize, usize, usize), DecodeError> {{\nlet (start, count, bl) = Self::sbe_open::<CHECK>(buf, p, version)?;\nlet mut q = start;\nfor i in 0..count {{\nq = sbe_support::span(buf, q, bl, || FieldPath::new({entry_path}).with_index({depth}, i))?;\nq = {dn}::sbe_walk::<CHECK>(buf, q, version).map_err(|e| sbe_support::in_entry(e, {depth}, i))?.1;\n}}\nOk((start, count, bl, q))\n}}");
        }
        let _ = writeln!(o, "/// The entries' block length (the writer's).\n#[must_use]\npub fn acting_block_length(&self) -> usize {{ self.block_length }}\n}}");
        let next_body = if checked {
            "if self.remaining == 0 {\nif let Some(m) = self.mark.take() { m.found(self.pos); }\nreturn None;\n}\nmatch self.sbe_entry() {\nOk(e) => Some(Ok(e)),\nErr(e) => { self.remaining = 0; self.mark = None; Some(Err(e)) }\n}".to_owned()
        } else if k == 0 {
            "if self.block_length == 0 {\nif self.remaining == 0 { return None; }\nself.remaining -= 1;\nreturn Some(Ok(ENTRY { block: &[], version: self.version }));\n}\nlet (block, rest) = self.entries.split_at_checked(self.block_length)?;\nself.entries = rest;\nSome(Ok(ENTRY { block, version: self.version }))".replace("ENTRY", &dn)
        } else {
            "if self.remaining == 0 { return None; }\nlet block = self.buf.get(self.pos..)?.get(..self.block_length)?;\nlet block_end = self.pos + block.len();\nlet (pos, end) = ENTRY::sbe_walk::<false>(self.buf, block_end, self.version).ok()?;\nself.pos = end;\nself.remaining -= 1;\nSome(Ok(ENTRY { block, version: self.version, buf: self.buf, pos }))".replace("ENTRY", &dn)
        };
        // Entries of a fixed size are counted by the bytes left (the walk checked that the
        // group holds its count of them exactly), so the loop keeps one counter; empty ones
        // by `remaining`.
        let len = if checked {
            "let n = self.remaining; (n.min(1), Some(n))"
        } else if k == 0 {
            "let n = self.entries.len().checked_div(self.block_length).unwrap_or(self.remaining);"
        } else {
            "let n = self.remaining;"
        };
        if checked {
            let _ = writeln!(o, "impl<'a> {it}<'a> {{\n/// Checks and makes the next entry (its block, groups and var data).\n#[inline]\nfn sbe_entry(&mut self) -> Result<{dn}<'a>, DecodeError> {{\nlet Some(block) = self.buf.get(self.pos..).and_then(|b| b.get(..self.block_length)) else {{ sbe_support::cold(); return Err(sbe_support::truncated(self.pos, FieldPath::new({entry_path}).with_index(0, self.index), self.block_length, self.buf.len())); }};\nlet block_end = self.pos + block.len();\nlet index = self.index;\nlet (pos, end) = {dn}::sbe_walk::<true>(self.buf, block_end, self.version).map_err(|e| sbe_support::in_entry(e, 0, index))?;\nself.pos = end;\nself.index += 1;\nself.remaining -= 1;\nOk({dn} {{ block, version: self.version, buf: self.buf, pos }})\n}}\n}}");
            let _ = writeln!(o, "/// Each entry checked as it is made: an entry that does not fit is an error, and the last item.\nimpl<'a> Iterator for {it}<'a> {{\ntype Item = Result<{dn}<'a>, DecodeError>;\n#[inline]\nfn next(&mut self) -> Option<Self::Item> {{\n{next_body}\n}}\nfn size_hint(&self) -> (usize, Option<usize>) {{ {len} }}\n}}\nimpl core::iter::FusedIterator for {it}<'_> {{}}");
        } else {
            let _ = writeln!(o, "impl<'a> Iterator for {it}<'a> {{\ntype Item = Result<{dn}<'a>, DecodeError>;\n#[inline]\nfn next(&mut self) -> Option<Self::Item> {{\n{next_body}\n}}\nfn size_hint(&self) -> (usize, Option<usize>) {{ {len} (n, Some(n)) }}\n}}\nimpl ExactSizeIterator for {it}<'_> {{}}\nimpl core::iter::FusedIterator for {it}<'_> {{}}");
        }
        let mut fields = "block: &'a [u8],\nversion: u16,\n".to_owned();
        if k > 0 {
            fields.push_str(&format!("buf: &'a [u8],\npos: [usize; {k}],\n"));
        }
        let _ = writeln!(o, "{d}///\n/// An entry of group `{}`.\n#[derive(Debug, Clone, Copy)]\npub struct {dn}<'a> {{\n{fields}}}", g.name);
        let _ = writeln!(o, "impl<'a> {dn}<'a> {{\n/// The acting version (the writer's).\n#[must_use]\npub fn acting_version(&self) -> u16 {{ self.version }}\n/// The entry's block length (the writer's).\n#[must_use]\npub fn acting_block_length(&self) -> usize {{ self.block.len() }}");
        let (code, json) = self.body_decoder(&g.body, &at.entry(g), g.block_length);
        o.push_str(&code);
        o.push_str("}\n");
        let _ = writeln!(o, "/// The canonical JSON object of the entry.\nimpl core::fmt::Display for {dn}<'_> {{\nfn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{\nf.write_str(\"{{\")?;\n{json}\nf.write_str(\"}}\") }} }}");
        o
    }

    // ----- encoders -----

    fn message_encoder(
        &self,
        msg: &model::Message,
        _name: &str,
        en: &str,
        names: &GroupNames,
    ) -> String {
        let hs = self.header_size();
        let hc = self.s.header_composite();
        let bl = msg.block_length;
        let mut o = String::new();
        let d = doc(msg.description.as_deref());
        let _ = writeln!(o, "{d}///\n/// Writes a `{}` message: fixed fields in any order, then groups and var data in schema order.\n#[derive(Debug)]\npub struct {en}<'a> {{ buf: &'a mut [u8], #[allow(dead_code)] start: usize, limit: usize }}", msg.name);
        let _ = writeln!(o, "impl<'a> {en}<'a> {{\n/// The template id.\npub const TEMPLATE_ID: u16 = {};\n/// The root block length.\npub const BLOCK_LENGTH: u16 = {bl};", msg.id);
        let mut hdr = String::new();
        for m in &hc.members {
            if let TypeRef::Primitive(p) = &m.type_ref {
                if p.is_constant() || p.is_array() {
                    continue;
                }
                let v = match m.name.as_str() {
                    "blockLength" => int_lit(bl as i128, p.primitive_type),
                    "templateId" => int_lit(msg.id as i128, p.primitive_type),
                    "schemaId" => int_lit(self.s.id as i128, p.primitive_type),
                    "version" => int_lit(self.s.version as i128, p.primitive_type),
                    _ => lit(&p.null_value, p.primitive_type),
                };
                hdr.push_str(&write("h", &m.offset.to_string(), &v, p.byte_order));
                hdr.push('\n');
            }
        }
        let gaps = zero_gaps(&msg.body, bl, "buf", "start");
        let _ = writeln!(o, "/// Starts the message at the start of `buf`: writes the header (block length, template id, schema id, version).\n///\n/// # Errors\n///\n/// `buf` too small for the header and the root block.\n#[inline]\npub fn new(buf: &'a mut [u8]) -> Result<Self, EncodeError> {{\nlet limit = sbe_support::room(buf.len(), 0, {}, || FieldPath::new(\"header\"))?;\nif let Some(h) = buf.first_chunk_mut::<{hs}>() {{\n{hdr}}}\nlet start = {hs};\n{gaps}Ok(Self {{ buf, start, limit }})\n}}", hs + bl);
        let _ = writeln!(o, "/// Starts the message body (no header) at the start of `buf`.\n///\n/// # Errors\n///\n/// `buf` too small for the root block.\n#[inline]\npub fn new_body(buf: &'a mut [u8]) -> Result<Self, EncodeError> {{\nlet limit = sbe_support::room(buf.len(), 0, {bl}, || FieldPath::new(\"fields\"))?;\nlet start = 0;\n{gaps}Ok(Self {{ buf, start, limit }})\n}}");
        let _ = writeln!(o, "/// The bytes written so far: header (with `new`), block, groups and var data.\n#[must_use]\n#[inline]\npub fn encoded_length(&self) -> usize {{ self.limit }}\n/// The message written so far.\n#[must_use]\npub fn as_bytes(&self) -> &[u8] {{ self.buf.get(..self.limit).unwrap_or(&[]) }}");
        o.push_str(&self.body_encoder(
            &msg.body,
            &BodyAt::message(names),
            "self.start",
            "self.limit",
        ));
        o.push_str("}\n");
        o.push_str(&self.group_encoders(&msg.body, &BodyAt::message(names)));
        o
    }

    /// Encoder methods for a body: setters at `base`, groups and var data at `limit` (an
    /// lvalue expression).
    fn body_encoder(&self, body: &Body, at: &BodyAt<'_>, base: &str, limit: &str) -> String {
        let mut o = String::new();
        for fd in &body.fields {
            let slot = Slot {
                name: &fd.name,
                desc: fd.description.as_deref(),
                kind: self.kind(&fd.type_ref),
                presence: fd.presence,
                const_enum: None,
                off: fd.offset,
                since: fd.since_version,
                slice: "block",
                full: 0,
                path: at.path_expr(&fd.name),
            };
            o.push_str(&self.setter(&slot, base, "'_"));
        }
        let idx = if at.depth == 0 {
            "[usize::MAX; PATH_DEPTH]"
        } else {
            "self.idx"
        };
        for g in &body.groups {
            let gname = at.type_name(g);
            let gpath = at.path_expr(&g.name);
            let m = method(&g.name);
            let d = doc(g.description.as_deref());
            let dim = self.s.composite(&g.dimension);
            let dim_len = dim.encoded_length.max(0) as usize;
            let mut hdr = String::new();
            for mem in &dim.members {
                if let TypeRef::Primitive(p) = &mem.type_ref {
                    if p.is_constant() || p.is_array() {
                        continue;
                    }
                    let v = match mem.name.as_str() {
                        "blockLength" => int_lit(g.block_length as i128, p.primitive_type),
                        "numInGroup" => int_lit(0, p.primitive_type),
                        _ => lit(&p.null_value, p.primitive_type),
                    };
                    hdr.push_str(&write("self.buf", &add("at", mem.offset), &v, p.byte_order));
                    hdr.push('\n');
                }
            }
            let _ = writeln!(o, "{d}///\n/// Starts the group (with no entries): add them with `next_entry`.\n///\n/// # Errors\n///\n/// No room for the group's header.\n#[inline]\npub fn {m}(&mut self) -> Result<{gname}GroupEncoder<'_>, EncodeError> {{\nlet at = {limit};\n{limit} = sbe_support::room(self.buf.len(), at, {dim_len}, || {gpath})?;\n{hdr}Ok({gname}GroupEncoder {{ buf: &mut *self.buf, limit: &mut {limit}, header: at, count: 0, idx: {idx} }})\n}}");
        }
        for v in &body.var_data {
            let m = method(&v.name);
            let vpath = at.path_expr(&v.name);
            let d = doc(v.description.as_deref());
            let ls = v.length_size();
            let lp = &v.length;
            let max = lp
                .max_value
                .as_i128()
                .unwrap_or(0)
                .min(match lp.primitive_type.size() {
                    1 => 255,
                    2 => 65535,
                    4 => u32::MAX as i128,
                    _ => i64::MAX as i128,
                })
                .max(0);
            let t = rtype(lp.primitive_type);
            let wl = write(
                "self.buf",
                "at",
                &format!("value.len() as {t}"),
                lp.byte_order,
            );
            let _ = writeln!(o, "{d}///\n/// # Errors\n///\n/// `LengthTooLarge`: longer than its length allows ({max} bytes); `BufferTooShort`: no room.\n#[inline]\npub fn {m}(&mut self, value: &[u8]) -> Result<&mut Self, EncodeError> {{\nlet at = {limit};\nif value.len() as u64 > {max}_u64 {{ return Err(sbe_support::length_too_large(at, {vpath}, value.len(), {max})); }}\nlet end = sbe_support::room(self.buf.len(), at, {ls} + value.len(), || {vpath})?;\n{wl}\nif let Some(d) = self.buf.get_mut(at + {ls}..end) {{ d.copy_from_slice(value); }}\n{limit} = end;\nOk(self)\n}}");
        }
        o
    }

    fn group_encoders(&self, body: &Body, at: &BodyAt<'_>) -> String {
        let mut o = String::new();
        for g in &body.groups {
            let gname = at.type_name(g);
            let entry = at.entry(g);
            let (gpath, epath, depth) = (at.element(&g.name), str_lit(&entry.json), at.depth);
            let ge = format!("{gname}GroupEncoder");
            let ee = format!("{gname}Encoder");
            let dim = self.s.composite(&g.dimension);
            let (cm, cp) = match dim.primitive("numInGroup") {
                Some((m, p)) => (m.offset, p.clone()),
                None => continue,
            };
            let ct = rtype(cp.primitive_type);
            let max = cp.max_value.as_i128().unwrap_or(0).max(0);
            let max_lit = int_lit(max, cp.primitive_type);
            let bl = g.block_length;
            let wc = write(
                "self.buf",
                &add("self.header", cm),
                "self.count",
                cp.byte_order,
            );
            let gaps = zero_gaps(&g.body, bl, "self.buf", "at");
            let k = g.body.groups.len() + g.body.var_data.len();
            let (limit_field, limit_init) = if k > 0 {
                ("limit: &'b mut usize, ", "limit: &mut *self.limit, ")
            } else {
                ("", "")
            };

            let _ = writeln!(o, "/// Writes the entries of group `{}`; the count in its header follows the entries added.\n#[derive(Debug)]\npub struct {ge}<'b> {{ buf: &'b mut [u8], limit: &'b mut usize, header: usize, count: {ct}, idx: [usize; PATH_DEPTH] }}", g.name);
            let _ = writeln!(o, "impl {ge}<'_> {{\n/// The most entries the group may hold.\npub const MAX_COUNT: {ct} = {max_lit};\n/// Adds an entry and returns its encoder.\n///\n/// # Errors\n///\n/// The group is full, or no room for the entry's block.\n#[inline]\npub fn next_entry(&mut self) -> Result<{ee}<'_>, EncodeError> {{\nlet at = *self.limit;\nif self.count >= Self::MAX_COUNT {{ return Err(sbe_support::count_too_large(at, FieldPath::new({gpath}).with_indices(self.idx), u64::from(Self::MAX_COUNT))); }}\nlet mut idx = self.idx;\nif let Some(i) = idx.get_mut({depth}) {{ *i = self.count as usize; }}\n*self.limit = sbe_support::room(self.buf.len(), at, {bl}, || FieldPath::new({epath}).with_indices(idx))?;\nself.count += 1;\n{wc}\n{gaps}Ok({ee} {{ buf: &mut *self.buf, {limit_init}block: at, idx }})\n}}\n/// The entries added so far.\n#[must_use]\npub fn count(&self) -> {ct} {{ self.count }}\n}}");
            let _ = writeln!(o, "/// Writes an entry of group `{}`: fixed fields in any order, then nested groups and var data in schema order.\n#[derive(Debug)]\npub struct {ee}<'b> {{ #[allow(dead_code)] buf: &'b mut [u8], {limit_field}#[allow(dead_code)] block: usize, #[allow(dead_code)] idx: [usize; PATH_DEPTH] }}", g.name);
            let _ = writeln!(o, "impl {ee}<'_> {{");
            o.push_str(&self.body_encoder(&g.body, &entry, "self.block", "*self.limit"));
            o.push_str("}\n");
            o.push_str(&self.group_encoders(&g.body, &entry));
        }
        o
    }

    fn any_message(&mut self) {
        let mut o = String::new();
        let _ = writeln!(o, "/// Any message of the schema, decoded.\n#[derive(Debug, Clone)]\n#[allow(clippy::large_enum_variant)]\npub enum AnyMessage<'a> {{");
        let mut used = Vec::new();
        let mut variants = Vec::new();
        for m in &self.s.messages {
            let mut v = camel(&m.name);
            while used.contains(&v) {
                v.push('_');
            }
            used.push(v.clone());
            let _ = writeln!(
                o,
                "/// A `{}` message.\n{v}({}Decoder<'a>),",
                m.name,
                camel(&m.name)
            );
            variants.push((v, m));
        }
        o.push_str("}\n");
        let hc = self.s.header_composite();
        let hs = self.header_size();
        let header_read = |name: &str| {
            hc.member(name).and_then(|m| match &m.type_ref {
                TypeRef::Primitive(p) if p.is_constant() => Some(format!(
                    "{}_u64",
                    p.const_value
                        .as_ref()
                        .and_then(|v| v.as_i128())
                        .unwrap_or(0)
                )),
                TypeRef::Primitive(p) => Some((
                    read_u64("buf", &m.offset.to_string(), p.primitive_type, p.byte_order),
                    m.offset,
                ))
                .map(|(e, _)| e),
                _ => None,
            })
        };
        let offset = |name: &str| hc.member(name).map_or(0, |m| m.offset);
        let _ = writeln!(o, "/// Decodes the message at the start of `buf` by the template id in its header, and checks it whole: the schema-level entry point (`Display` of the result prints its canonical JSON).\n///\n/// # Errors\n///\n/// The codec contract's first error in reading order: the header truncated, another schema id, a template id of no message, a block length too short, then the root block, groups and var data running past the end.\npub fn decode_any(buf: &[u8]) -> Result<AnyMessage<'_>, DecodeError> {{\nif buf.len() < {hs} {{ sbe_support::cold(); return Err(sbe_support::truncated(0, FieldPath::new(\"header\"), {hs}, buf.len())); }}");
        if let Some(sid) = header_read("schemaId") {
            let _ = writeln!(o, "let schema_id = {sid};\nif schema_id != u64::from(SCHEMA_ID) {{ return Err(sbe_support::header_error({}, \"header.schemaId\", DecodeErrorKind::SchemaIdMismatch(schema_id))); }}", offset("schemaId"));
        }
        let tid = header_read("templateId").unwrap_or_else(|| "0_u64".into());
        let _ = writeln!(o, "let template_id = {tid};\nmatch template_id {{");
        for (v, m) in &variants {
            let _ = writeln!(
                o,
                "{} => {{ let m = {}Decoder::decode(buf)?; m.encoded_length()?; Ok(AnyMessage::{v}(m)) }}",
                m.id,
                camel(&m.name)
            );
        }
        let _ = writeln!(o, "other => Err(sbe_support::header_error({}, \"header.templateId\", DecodeErrorKind::UnknownTemplate(other))),\n}}\n}}", offset("templateId"));
        let _ = writeln!(o, "impl AnyMessage<'_> {{\n/// The message's length in bytes.\n///\n/// # Errors\n///\n/// As the message decoders' `encoded_length` (none for a message from `decode_any`, which checked it).\npub fn encoded_length(&self) -> Result<usize, DecodeError> {{ match self {{");
        for (v, _) in &variants {
            let _ = writeln!(o, "Self::{v}(m) => m.encoded_length(),");
        }
        if variants.is_empty() {
            o.push_str("_ => Ok(0),\n");
        }
        let _ = writeln!(o, "}} }} }}\n/// The canonical JSON form of the message.\nimpl core::fmt::Display for AnyMessage<'_> {{\nfn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{ match self {{");
        for (v, _) in &variants {
            let _ = writeln!(o, "Self::{v}(m) => write!(f, \"{{m}}\"),");
        }
        if variants.is_empty() {
            o.push_str("_ => Ok(()),\n");
        }
        o.push_str("} } }\n");
        self.w(o);
    }
}

/// The bytes of an integer of `size` bytes in `order` (two's complement, truncated).
fn int_bytes(v: i128, size: usize, order: ByteOrder) -> Vec<u8> {
    let le = v.to_le_bytes();
    let mut b = le[..size].to_vec();
    if order == ByteOrder::BigEndian {
        b.reverse();
    }
    b
}

/// Static metadata of a field, as associated consts.
fn field_meta(fd: &Field) -> String {
    let u = upper(&fd.name);
    let mut o = String::new();
    let _ = writeln!(o, "/// The id of field `{}`.\npub const {u}_ID: u16 = {};\n/// The version field `{}` appeared in.\npub const {u}_SINCE_VERSION: u16 = {};\n/// The offset of field `{}` in the block.\npub const {u}_OFFSET: usize = {};\n/// The size of field `{}` in bytes (0 for a constant).\npub const {u}_ENCODED_LENGTH: usize = {};",
        fd.name, fd.id.max(0), fd.name, fd.since_version.max(0), fd.name, fd.offset, fd.name, fd.size);
    for (what, v) in [
        ("SEMANTIC_TYPE", &fd.meta.semantic_type),
        ("EPOCH", &fd.meta.epoch),
        ("TIME_UNIT", &fd.meta.time_unit),
        ("CHARACTER_ENCODING", &fd.meta.character_encoding),
    ] {
        if let Some(v) = v {
            let _ = writeln!(
                o,
                "/// The {} of field `{}`.\npub const {u}_{what}: &'static str = {};",
                what.to_lowercase().replace('_', " "),
                fd.name,
                str_lit(v)
            );
        }
    }
    o
}

/// A composite member's presence, as a field's.
fn member_presence(m: &Member, kind: &Kind<'_>) -> Presence {
    match kind {
        Kind::Prim(p) if p.is_constant() => Presence::Constant,
        Kind::Prim(p) => p.presence,
        _ => m.presence,
    }
}

/// The decoder's position slots for a body: 3 per group (first entry, count, block length), 2
/// per var data (start and end of the bytes).
fn slots(body: &Body) -> usize {
    3 * body.groups.len() + 2 * body.var_data.len()
}

/// Where the var data `v` whose length is at `buf[p..]` ends, checked (`?` on the errors):
/// statements reading its length (into `n`), then the expression of its end. `buf` is the
/// buffer's expression, `field` the var data's path (a string literal). Both errors are at
/// the length's first byte (the contract's var data item: its length and its bytes).
fn var_data_end(v: &VarData, buf: &str, field: &str) -> (String, String) {
    let ls = v.length_size();
    let len_read = read_u64("&b", "0", v.length.primitive_type, v.length.byte_order);
    (
        format!("let Some(b) = sbe_support::get::<{ls}>({buf}, p) else {{ sbe_support::cold(); return Err(sbe_support::truncated(p, FieldPath::new({field}), {ls}, {buf}.len())); }};\nlet n = sbe_support::to_usize({len_read});\n"),
        format!("sbe_support::span({buf}, p, n.saturating_add({ls}), || FieldPath::new({field}))?"),
    )
}

/// The deepest nesting of groups in a body (0: none).
fn depth(body: &Body) -> usize {
    body.groups
        .iter()
        .map(|g| 1 + depth(&g.body))
        .max()
        .unwrap_or(0)
}

/// The number of a message body's groups and var data.
fn elements(body: &Body) -> usize {
    body.groups.len() + body.var_data.len()
}

/// The bytes of block the fields need at the schema's version.
fn min_block(body: &Body) -> usize {
    body.fields
        .iter()
        .filter(|f| !f.is_constant())
        .map(Field::end)
        .max()
        .unwrap_or(0)
}

/// Statements zeroing the bytes of a block no field covers (padding).
fn zero_gaps(body: &Body, block_length: usize, buf: &str, base: &str) -> String {
    let mut covered = vec![false; block_length];
    for f in &body.fields {
        if f.is_constant() {
            continue;
        }
        for c in covered.iter_mut().skip(f.offset).take(f.size) {
            *c = true;
        }
    }
    let mut o = String::new();
    let mut i = 0;
    while i < block_length {
        if covered[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < block_length && !covered[i] {
            i += 1;
        }
        let _ = writeln!(
            o,
            "sbe_support::zero({buf}, {}, {});",
            add(base, start),
            i - start
        );
    }
    o
}

/// Where a body lies in its message: for its group types' names and its errors' paths.
struct BodyAt<'n> {
    names: &'n GroupNames,
    /// The groups above it, `/`-separated (as [`GroupNames`] keys them).
    path: String,
    /// Its [`FieldPath`] template: `fields`, `fields.G[]`, `fields.G[].H[]` ...
    json: String,
    /// The group entries above it: the nesting depth its groups' entry indices go at.
    depth: usize,
}

impl<'n> BodyAt<'n> {
    /// A message's body.
    fn message(names: &'n GroupNames) -> Self {
        Self {
            names,
            path: String::new(),
            json: "fields".to_owned(),
            depth: 0,
        }
    }

    /// The body of group `g`'s entries.
    fn entry(&self, g: &Group) -> Self {
        Self {
            names: self.names,
            path: format!("{}/{}", self.path, g.name),
            json: format!("{}.{}[]", self.json, g.name),
            depth: self.depth + 1,
        }
    }

    /// The path of an element of the body (group `g`'s header, a var data): `fields.name`.
    fn element(&self, name: &str) -> String {
        str_lit(&format!("{}.{name}", self.json))
    }

    /// The Rust expression of the [`FieldPath`] of element `name` in an encoder of the body
    /// (an entry encoder's indices in `self.idx`).
    fn path_expr(&self, name: &str) -> String {
        if self.depth == 0 {
            format!("FieldPath::new({})", self.element(name))
        } else {
            format!(
                "FieldPath::new({}).with_indices(self.idx)",
                self.element(name)
            )
        }
    }

    /// The Rust type name of group `g` of the body.
    fn type_name(&self, g: &Group) -> String {
        self.names.name(&self.path, &g.name)
    }
}

/// Rust type names of a message's groups: the group's own name, or its path when two groups
/// of the message share a name.
#[derive(Default)]
struct GroupNames {
    all: Vec<(String, String)>,
}

impl GroupNames {
    fn collect(&mut self, body: &Body, path: &str) {
        for g in &body.groups {
            let p = format!("{path}/{}", g.name);
            self.all.push((p.clone(), g.name.clone()));
            self.collect(&g.body, &p);
        }
    }

    fn name(&self, path: &str, name: &str) -> String {
        let dup = self
            .all
            .iter()
            .filter(|(_, n)| camel(n) == camel(name))
            .count()
            > 1;
        if dup {
            let full = format!("{path}/{name}");
            full.split('/')
                .filter(|s| !s.is_empty())
                .map(camel)
                .collect::<String>()
        } else {
            camel(name)
        }
    }
}

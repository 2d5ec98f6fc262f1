//! The Rust generator: one self-contained module per schema (no dependency, no `unsafe`,
//! `no_std`), with decoders borrowing `&[u8]` and encoders over `&mut [u8]`. See `docs/rust.md`.

pub(crate) mod body;
mod code;
mod fields;
mod groups;
pub(crate) mod json;
mod messages;
mod names;
mod types;
mod var_data;

/// The items every generated module carries (errors, `sbe_support`): real Rust files, compiled
/// and tested on their own (tests/rust_support.rs), by name. `codec_support.rs` is the root: it
/// `include!`s the others ([`support`]).
const SUPPORT: &[(&str, &str)] = &[
    ("codec_support.rs", include_str!("support/codec_support.rs")),
    ("errors.rs", include_str!("support/errors.rs")),
    ("bytes.rs", include_str!("support/bytes.rs")),
    ("checks.rs", include_str!("support/checks.rs")),
    ("marks.rs", include_str!("support/marks.rs")),
    ("json.rs", include_str!("support/json.rs")),
];

/// The support code as the module carries it: the support file `name` after its leading comment
/// (up to its first blank line), each line `include!("F");` replaced by the file F, so expanded,
/// indented as the line.
fn support(name: &str) -> String {
    let text = SUPPORT
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no support file {name}"))
        .1;
    let body = text.find("\n\n").map_or(text, |i| &text[i + 2..]);
    let mut out = String::with_capacity(body.len());
    for line in body.lines() {
        let code = line.trim_start();
        let Some(inner) = code
            .strip_prefix("include!(\"")
            .and_then(|r| r.strip_suffix("\");"))
        else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let indent = &line[..line.len() - code.len()];
        for l in support(inner).trim_end().lines() {
            if !l.is_empty() {
                out.push_str(indent);
                out.push_str(l);
            }
            out.push('\n');
        }
    }
    out
}

pub(crate) use json::float_json;
pub use names::{camel, method, module, snake};

use std::fmt::Write as _;
use std::path::Path;

use sable_ir::{ByteOrder, Ir, Presence, PrimitiveType, PrimitiveValue};

#[allow(clippy::wildcard_imports)]
use self::{body::*, code::*, fields::*, groups::*, json::*, var_data::*};
use crate::model::{
    self, Body, Composite, EnumType, Field, Group, Member, Primitive, Schema, SetType, TypeDef,
    TypeRef, VarData,
};
use crate::writer::CodeWriter;
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
/// the file, or `include!` in a `mod x { }`). Laid out as rustfmt would in the main (4-space
/// indentation by blocks, a blank line between items), with long lines left long: see
/// [`rustfmt`].
pub fn generate(ir: &Ir) -> String {
    let schema = model::build(ir);
    let mut g = Gen {
        s: &schema,
        out: CodeWriter::new("    "),
    };
    g.module();
    let mut text = g.out.finish();
    // The blank line after the last item.
    while text.ends_with("\n\n") {
        text.pop();
    }
    text
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
    out: CodeWriter,
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

    /// Writes an item (lines of code, see [`CodeWriter::code`]) and a blank line after it.
    fn w(&mut self, text: impl AsRef<str>) {
        self.out.code(text).code("");
    }

    /// The deepest nesting of composites: 1 for a composite of primitives, enums and sets.
    fn member_depth(&self) -> usize {
        fn depth(s: &Schema, c: &Composite, limit: usize) -> usize {
            let inner = c.members.iter().filter_map(|m| match &m.type_ref {
                TypeRef::Composite(n) if limit > 0 => Some(depth(s, s.composite(n), limit - 1)),
                _ => None,
            });
            1 + inner.max().unwrap_or(0)
        }
        let composites = self.s.types.iter().filter_map(|t| match t {
            TypeDef::Composite(c) => Some(depth(self.s, c, 64)),
            _ => None,
        });
        composites.max().unwrap_or(1)
    }

    fn header_size(&self) -> usize {
        self.s.header_composite().encoded_length.max(0) as usize
    }

    fn module(&mut self) {
        let s = self.s;
        self.w(format!(
            "// Generated by Sable from the SBE schema `{}` (id {}, version {}). Do not edit.",
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
        self.w(format!(
            "/// The deepest nesting of composites in the schema (at least 1): the composite members\n/// a [`FieldPath`] holds.\npub const MEMBER_DEPTH: usize = {};",
            self.member_depth()
        ));
        self.out
            .line(support("codec_support.rs").trim_end())
            .code("");
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
}

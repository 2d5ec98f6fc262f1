//! The C# generator: per schema one file of `ref struct` codecs over `Span<byte>` (so over
//! `byte[]`, `Memory<byte>` and unmanaged memory alike), in the schema's namespace, and the
//! support file `Sable.Sbe.cs` beside it. See `docs/csharp.md`.

mod body;
mod fields;
mod json;
mod messages;
mod names;
mod types;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use sable_ir::{Ir, Presence, PrimitiveType, PrimitiveValue};

#[allow(clippy::wildcard_imports)]
use self::{body::*, fields::*, json::*, names::*};
use crate::model::{
    self, Body, Composite, EnumType, Group, Member, Primitive, Schema, SetType, TypeDef, TypeRef,
    VarData,
};
use crate::writer::CodeWriter;
use crate::GeneratedFile;

/// The support code every schema's codecs use (namespace `Sable.Sbe`).
pub const SUPPORT: &str = include_str!("SableSbe.cs");

/// The name of the member every generated enum has for its null value.
const NULL_MEMBER: &str = "NullValue";

/// Options of the C# generator.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The namespace's package (dotted), instead of the schema's.
    pub package: Option<String>,
}

/// The namespace for a schema: its package (or namespace), each dotted part PascalCase.
pub fn namespace_name(ir: &Ir, options: &Options) -> String {
    let package = options.package.clone().unwrap_or_else(|| {
        ir.namespace_name
            .clone()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| ir.package_name.clone())
    });
    namespace(&package)
}

/// Generates `<Namespace>.cs` and `Sable.Sbe.cs`.
pub fn generate(ir: &Ir, options: &Options) -> Vec<GeneratedFile> {
    let schema = model::build(ir);
    let ns = namespace_name(ir, options);
    let uses = composite_uses(&schema);
    let mut g = Gen {
        s: &schema,
        ns: ns.clone(),
        out: CodeWriter::new("    "),
        uses,
    };
    g.file(&ns);
    let mut text = g.out.finish();
    while text.ends_with("\n\n") {
        text.pop();
    }
    vec![
        GeneratedFile {
            path: PathBuf::from(format!("{ns}.cs")),
            text,
        },
        GeneratedFile {
            path: PathBuf::from("Sable.Sbe.cs"),
            text: SUPPORT.to_owned(),
        },
    ]
}

struct Gen<'a> {
    s: &'a Schema,
    /// The namespace (types are named `global::NS.Type` in members, which may share their names).
    ns: String,
    out: CodeWriter,
    /// Where composites are used, for their encoders' error paths.
    uses: CompositeUses,
}

/// Where each composite is used, for the error paths of composite encoders: an encoder whose
/// members can fail (arrays, char arrays, declared ranges, or such a nested composite) carries
/// the id of its path in `SbeSchema.SbeCompositePaths` (one int, the paths written out when
/// generating) and the entry indices of the group entry it lies in.
#[derive(Default)]
struct CompositeUses {
    /// Per composite: the most entry indices its encoder carries (the deepest group entry a
    /// field of it, or of a composite holding it, lies in).
    depths: HashMap<String, usize>,
    /// Per composite: whether its encoder can report an error (and so carries its path).
    fallible: HashMap<String, bool>,
    /// The path templates, by id.
    paths: Vec<String>,
    /// The id of each composite field's path (by its template, `fields.g[].engine`).
    field_ids: HashMap<String, usize>,
    /// The id of each composite's path when its encoder is used alone (its name).
    type_ids: HashMap<String, usize>,
    /// Per composite and member (a composite): the member's id less the composite's.
    rel: HashMap<(String, String), usize>,
}

/// Where each composite is used (see `CompositeUses`).
fn composite_uses(s: &Schema) -> CompositeUses {
    fn fallible(s: &Schema, name: &str, memo: &mut HashMap<String, bool>) -> bool {
        if let Some(&f) = memo.get(name) {
            return f;
        }
        let mut f = false;
        for m in &s.composite(name).members {
            f |= match &m.type_ref {
                TypeRef::Primitive(p) => !p.is_constant() && (p.is_array() || p.range_declared),
                TypeRef::Composite(n) => fallible(s, n, memo),
                _ => false,
            };
        }
        memo.insert(name.to_owned(), f);
        f
    }
    /// The ids a composite's tree takes: itself and its composite members, depth first.
    fn size(s: &Schema, name: &str) -> usize {
        1 + s
            .composite(name)
            .members
            .iter()
            .map(|m| match &m.type_ref {
                TypeRef::Composite(n) => size(s, n),
                _ => 0,
            })
            .sum::<usize>()
    }
    fn lay_out(s: &Schema, name: &str, path: &str, paths: &mut Vec<String>) {
        paths.push(path.to_owned());
        for m in &s.composite(name).members {
            if let TypeRef::Composite(n) = &m.type_ref {
                lay_out(s, n, &format!("{path}.{}", m.name), paths);
            }
        }
    }
    fn mark(s: &Schema, name: &str, depth: usize, depths: &mut HashMap<String, usize>) {
        let e = depths.entry(name.to_owned()).or_insert(0);
        *e = (*e).max(depth);
        for m in &s.composite(name).members {
            if let TypeRef::Composite(n) = &m.type_ref {
                mark(s, n, depth, depths);
            }
        }
    }
    fn body(s: &Schema, b: &Body, template: &str, depth: usize, u: &mut CompositeUses) {
        for f in &b.fields {
            if let TypeRef::Composite(n) = &f.type_ref {
                if f.is_constant() {
                    continue;
                }
                mark(s, n, depth, &mut u.depths);
                if u.fallible.get(n).copied().unwrap_or(false) {
                    let path = format!("{template}.{}", f.name);
                    u.field_ids.insert(path.clone(), u.paths.len());
                    lay_out(s, n, &path, &mut u.paths);
                }
            }
        }
        for g in &b.groups {
            body(
                s,
                &g.body,
                &format!("{template}.{}[]", g.name),
                depth + 1,
                u,
            );
        }
    }
    let mut u = CompositeUses::default();
    for t in &s.types {
        if let TypeDef::Composite(c) = t {
            fallible(s, &c.name, &mut u.fallible);
        }
    }
    for t in &s.types {
        if let TypeDef::Composite(c) = t {
            if u.fallible[&c.name] && c.encoded_length >= 0 {
                u.type_ids.insert(c.name.clone(), u.paths.len());
                lay_out(s, &c.name, &c.name, &mut u.paths);
            }
            let mut at = 1;
            for m in &c.members {
                if let TypeRef::Composite(n) = &m.type_ref {
                    u.rel.insert((c.name.clone(), m.name.clone()), at);
                    at += size(s, n);
                }
            }
        }
    }
    for m in &s.messages {
        body(s, &m.body, "fields", 0, &mut u);
    }
    u
}

impl Gen<'_> {
    /// The entry indices composite `name`'s encoder carries (none when it cannot fail).
    fn comp_depth(&self, name: &str) -> usize {
        if self.comp_fallible(name) {
            self.uses.depths.get(name).copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// Whether composite `name`'s encoder can report an error (and carries its path).
    fn comp_fallible(&self, name: &str) -> bool {
        self.uses.fallible.get(name).copied().unwrap_or(false)
    }

    /// The qualified C# name of schema type `name`.
    fn ty(&self, name: &str) -> String {
        format!("global::{}.{}", self.ns, pascal(name))
    }

    /// Writes lines of code (indented by their braces) and a blank line after.
    fn w(&mut self, text: impl AsRef<str>) {
        self.out
            .code(inline_hints(&void_twins(text.as_ref())))
            .code("");
    }

    fn file(&mut self, ns: &str) {
        let s = self.s;
        self.w(format!(
            "// <auto-generated>\n// Generated by Sable from the SBE schema {} (id {}, version {}). Do not edit.\n// </auto-generated>",
            s.package.replace('\n', " "),
            s.id,
            s.version
        ));
        self.w("using System;\nusing System.Buffers.Binary;\nusing System.Runtime.CompilerServices;\nusing System.Text;\nusing Sable.Sbe;");
        self.out.code(format!("namespace {ns}\n{{"));
        for t in &s.types {
            match t {
                TypeDef::Enum(e) => self.enum_type(e),
                TypeDef::Set(st) => self.set_type(st),
                TypeDef::Composite(c) if c.encoded_length >= 0 => self.composite(c),
                TypeDef::Composite(_) => {}
            }
        }
        for m in &s.messages {
            self.message(m);
        }
        self.schema_entry();
        self.out.code("}");
    }
}

/// Gives each fluent setter (a public encoder method ending `return this;`) a twin returning
/// nothing, `SetX` (`MoveNext` for a group's `Next`), which holds the body; the fluent method
/// calls it and returns the encoder. mono copies a returned `ref struct` at every call, chained
/// or not, so the twins are the fast form there (docs/csharp.md).
fn void_twins(code: &str) -> String {
    let lines: Vec<&str> = code.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        if let Some((ret, name, params)) = fluent_signature(lines[i].trim()) {
            if let Some(end) = fluent_body_end(&lines, i + 1) {
                let twin = if name == "Next" {
                    "MoveNext".to_owned()
                } else {
                    format!("Set{name}")
                };
                let args: Vec<&str> = params
                    .split(", ")
                    .filter_map(|p| p.rsplit(' ').next())
                    .filter(|a| !a.is_empty())
                    .collect();
                out.push(format!("public void {twin}({params})"));
                out.extend(lines[i + 1..end - 1].iter().map(|l| l.to_string()));
                out.push("}".to_owned());
                out.push(String::new());
                out.push(format!(
                    "/// <summary>As <c>{twin}</c>, then returns the encoder (fluent).</summary>"
                ));
                out.push(format!("public {ret} {name}({params})"));
                out.push("{".to_owned());
                out.push(format!("{twin}({});", args.join(", ")));
                out.push("return this;".to_owned());
                out.push("}".to_owned());
                i = end + 1;
                continue;
            }
        }
        out.push(lines[i].to_owned());
        i += 1;
    }
    let mut s = out.join("\n");
    if code.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// `public XEncoder Name(params)`: the return type, name and parameters.
fn fluent_signature(t: &str) -> Option<(&str, &str, &str)> {
    let rest = t.strip_prefix("public ")?;
    let (ret, call) = rest.split_once(' ')?;
    let (name, params) = call.strip_suffix(')')?.split_once('(')?;
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (ret.ends_with("Encoder") && plain(ret) && plain(name)).then_some((ret, name, params))
}

/// The line of the closing brace of the body opening at `open`, when its last statement is
/// `return this;`.
fn fluent_body_end(lines: &[&str], open: usize) -> Option<usize> {
    if lines.get(open)?.trim() != "{" {
        return None;
    }
    let mut depth = 0;
    for (j, l) in lines.iter().enumerate().skip(open) {
        match l.trim() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return (lines[j - 1].trim() == "return this;").then_some(j);
                }
            }
            _ => {}
        }
    }
    None
}

const INLINE: &str = "[MethodImpl(MethodImplOptions.AggressiveInlining)]";

/// Decoders' constructors of nested groups or groups whose entries vary in size, and encoders'
/// `XCount` methods (each reads or writes a group's header, once per group) are not inlined:
/// RyuJIT (.NET Core 3.1) stops promoting structs to registers once a method has 512 locals,
/// and a method with every group's header checks inlined passes that, leaving the spans of later
/// reads and writes in memory (copied through stores the next loads wait on). Called instead, the benchmark's Car
/// decode takes 43% less time there, its Car encode 60% less; under mono about 1% more
/// instructions or fewer. The constructors of a message's groups of same-size entries, shorter,
/// are inlined: fewer instructions on both runtimes, the Car decode's time unchanged
/// (docs/benchmarks.md, "C# codecs").
const NOT_INLINED: &str = "[MethodImpl(MethodImplOptions.NoInlining)]";

/// Marks the codecs' accessors, setters and constructors for inlining (mono's JIT inlines only
/// tiny methods otherwise): expression-bodied properties get an inlined `get` accessor, methods
/// and `get` blocks the attribute.
fn inline_hints(code: &str) -> String {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = String::with_capacity(code.len() + code.len() / 4);
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        let next = lines.get(i + 1).map_or("", |l| l.trim());
        let walk = t.contains(" SbeSkip");
        let public = !walk && (t.starts_with("public ") || t.starts_with("internal "))
            || t.starts_with("private int SbeStart")
            || (t.starts_with("private ") && t.contains("Decoder(") && !t.contains(" static "))
            || (t.starts_with("private ") && t.contains("Encoder(") && !t.contains(" static "));
        let declaration = ["ref struct", " class ", " enum ", "const ", "override "]
            .iter()
            .any(|k| t.contains(k));
        if public && !declaration {
            if let Some((sig, expr)) = t.split_once(" => ") {
                if !sig.contains('(') && t.ends_with(';') {
                    out.push_str(&format!("{sig}\n{{\n{INLINE}\nget => {expr}\n}}\n"));
                    continue;
                }
            }
            let marked = i > 0 && lines[i - 1].trim().starts_with("[MethodImpl(");
            if t.contains('(')
                && !t.ends_with(';')
                && !marked
                && (next == "{" || next.starts_with(": this("))
            {
                out.push_str(INLINE);
                out.push('\n');
            }
        } else if t == "get" && next == "{" {
            out.push_str(INLINE);
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

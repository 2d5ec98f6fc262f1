//! Schema names that become the same identifier in a target language's generated code, which
//! then does not compile: `bidPx` and `bid_px` are both `bid_px` in Rust. Which identifiers
//! each name gives, and which of them share a scope, is sable-names' `generated` module; this
//! walks the schema's scopes and reports each clash at the second name, as an error.

use std::collections::HashMap;

use sable_ir::PrimitiveType;
use sable_names::generated::{self, FieldType, Member, Owner, TypeKind};
use sable_names::Language;

use crate::diagnostic::{Diagnostic, Severity};
use crate::xml::{Element, Sources};

/// Reports every clash in the schema under `root`.
pub fn check(root: &Element, sources: &Sources, diags: &mut Vec<Diagnostic>) {
    let declared: Vec<&Element> = root
        .children
        .iter()
        .filter(|c| c.name == "types")
        .flat_map(|t| &t.children)
        .filter(|c| matches!(c.name.as_str(), "type" | "composite" | "enum" | "set"))
        .collect();
    let types: HashMap<&str, &Element> = declared
        .iter()
        .filter_map(|el| Some((name_of(el)?, *el)))
        .collect();
    let mut c = Checker {
        sources,
        diags,
        types,
    };
    let mut messages = Vec::new();
    crate::parse::collect_messages(root, &mut messages);

    let mut package = Scope::default();
    for el in &declared {
        c.declared_type(el, &mut package);
    }
    for message in &messages {
        c.add(&mut package, message, "message", |l, n| {
            generated::package_type(l, n, TypeKind::Message)
        });
        c.members(message, Owner::Message);
    }
}

struct Checker<'a> {
    sources: &'a Sources,
    diags: &'a mut Vec<Diagnostic>,
    /// Declared types by name (the first of a name; later ones are reported by the parser).
    types: HashMap<&'a str, &'a Element>,
}

/// The names seen so far in one scope: each one's element and kind, and, per language, which
/// of them declared each identifier (and whether as its own name rather than a derived one).
#[derive(Default)]
struct Scope<'e> {
    names: Vec<(&'e Element, &'static str)>,
    taken: HashMap<(Language, String), (usize, bool)>,
}

/// A clash with an earlier name: which, in what language, the identifier, and whether it is
/// both names' own identifier (not one derived from either).
type Clash = (usize, Language, String, bool);

impl<'a> Checker<'a> {
    /// A declared type (and the types declared inside a composite), and its members.
    fn declared_type<'e>(&mut self, el: &'e Element, package: &mut Scope<'e>) {
        let (kind, word) = match el.name.as_str() {
            "composite" => (TypeKind::Composite, "composite"),
            "enum" => (TypeKind::Enum, "enum"),
            "set" => (TypeKind::Set, "set"),
            _ => return,
        };
        self.add(package, el, word, |l, n| {
            generated::package_type(l, n, kind)
        });
        let mut scope = Scope::default();
        match kind {
            TypeKind::Composite => {
                for m in el.children.iter().filter(|m| {
                    matches!(
                        m.name.as_str(),
                        "type" | "composite" | "enum" | "set" | "ref"
                    )
                }) {
                    let t = self.member_type(m);
                    self.add(&mut scope, m, "member", |l, n| {
                        generated::composite_member(l, n, t)
                    });
                    self.declared_type(m, package);
                }
            }
            TypeKind::Enum => {
                for v in el.children.iter().filter(|v| v.name == "validValue") {
                    self.add(&mut scope, v, "value", |l, n| {
                        generated::enum_value(l, n).into_iter().collect()
                    });
                }
            }
            TypeKind::Set => {
                for v in el.children.iter().filter(|v| v.name == "choice") {
                    self.add(&mut scope, v, "choice", |l, n| {
                        generated::set_choice(l, n).into_iter().collect()
                    });
                }
            }
            TypeKind::Message => {}
        }
    }

    /// The fields, groups and var data of a message or group, and those of its groups.
    fn members(&mut self, parent: &Element, owner: Owner) {
        let mut scope = Scope::default();
        for el in &parent.children {
            let (member, kind) = match el.name.as_str() {
                "field" => (Member::Field(self.field_type(el)), "field"),
                "group" => (Member::Group, "group"),
                "data" => (Member::Data, "var data"),
                _ => continue,
            };
            self.add(&mut scope, el, kind, |l, n| {
                generated::member(l, n, member, owner)
            });
            if member == Member::Group {
                self.members(el, Owner::Group);
            }
        }
    }

    /// What a field's type makes of it (a constant field is one whatever its type).
    fn field_type(&self, field: &Element) -> FieldType {
        if field.value("presence").map(str::trim) == Some("constant") {
            return FieldType::Constant;
        }
        match field
            .value("type")
            .map(str::trim)
            .and_then(|t| self.types.get(t))
        {
            Some(el) => self.member_type(el),
            None => FieldType::Scalar,
        }
    }

    /// What a type element (or a composite's `<ref>`) makes of a name typed by it.
    fn member_type(&self, el: &Element) -> FieldType {
        match el.name.as_str() {
            "composite" => FieldType::Composite,
            "enum" => FieldType::Enum,
            "set" => FieldType::Set,
            "ref" => match el
                .value("type")
                .map(str::trim)
                .and_then(|t| self.types.get(t))
            {
                Some(target) if target.name != "ref" => self.member_type(target),
                _ => FieldType::Scalar,
            },
            _ => {
                let length: u32 = el
                    .value("length")
                    .and_then(|l| l.trim().parse().ok())
                    .unwrap_or(1);
                let char_type = el.value("primitiveType").map(str::trim)
                    == Some(PrimitiveType::Char.schema_name());
                if el.value("presence").map(str::trim) == Some("constant") {
                    FieldType::Constant
                } else if length > 1 && char_type {
                    FieldType::Chars
                } else if length > 1 {
                    FieldType::Array
                } else {
                    FieldType::Scalar
                }
            }
        }
    }

    /// Adds `el`'s name to `scope`, reporting it when one of its identifiers is already taken.
    fn add<'e>(
        &mut self,
        scope: &mut Scope<'e>,
        el: &'e Element,
        kind: &'static str,
        identifiers: impl Fn(Language, &str) -> Vec<String>,
    ) {
        let Some(name) = name_of(el) else {
            return;
        };
        let index = scope.names.len();
        // The first clash with each earlier name, per language.
        let mut clashes: Vec<Clash> = Vec::new();
        for lang in Language::ALL {
            for (i, id) in identifiers(lang, name).into_iter().enumerate() {
                match scope.taken.get(&(lang, id.clone())) {
                    // The name's own identifiers may repeat; the same name twice is the
                    // parser's to report.
                    Some(&(earlier, own))
                        if earlier != index && name_of(scope.names[earlier].0) != Some(name) =>
                    {
                        if !clashes.iter().any(|c| c.0 == earlier && c.1 == lang) {
                            clashes.push((earlier, lang, id, own && i == 0));
                        }
                    }
                    Some(_) => {}
                    None => {
                        scope.taken.insert((lang, id), (index, i == 0));
                    }
                }
            }
        }
        scope.names.push((el, kind));
        let Some(&(earlier, ..)) = clashes.first() else {
            return;
        };
        clashes.retain(|c| c.0 == earlier);
        let (first, first_kind) = scope.names[earlier];
        self.report(first, first_kind, el, kind, &clashes);
    }

    fn report(
        &mut self,
        first: &Element,
        first_kind: &str,
        second: &Element,
        kind: &str,
        clashes: &[Clash],
    ) {
        let a = name_of(first).unwrap_or_default();
        let b = name_of(second).unwrap_or_default();
        let who = if first_kind == kind {
            format!("{} \"{a}\" and \"{b}\"", plural(kind))
        } else {
            format!("{first_kind} \"{a}\" and {kind} \"{b}\"")
        };
        // "become" when the identifier is both names' own; "generate" when derived from one.
        let verb = if clashes.iter().all(|c| c.3) {
            "become"
        } else {
            "generate"
        };
        let message = format!("{who} both {verb} {}", by_identifier(clashes));
        let at = self.sources.diagnostic(
            Severity::Error,
            first.loc_of("name"),
            String::new(),
            String::new(),
            None,
        );
        let help = format!(
            "\"{a}\" is at {}:{}:{}; rename one of them",
            at.file.display(),
            at.line,
            at.column
        );
        let d = self.sources.diagnostic(
            Severity::Error,
            second.loc_of("name"),
            second.label(),
            message,
            Some(help),
        );
        self.diags.push(d);
    }
}

/// `bid_px in Rust and Python, BidPx in C#`: each identifier with the languages it is in.
fn by_identifier(clashes: &[Clash]) -> String {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (_, lang, id, _) in clashes {
        match groups.iter_mut().find(|(i, _)| i == id) {
            Some((_, langs)) => langs.push(lang.name()),
            None => groups.push((id, vec![lang.name()])),
        }
    }
    groups
        .iter()
        .map(|(id, langs)| format!("{id} in {}", and_list(langs)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn plural(kind: &str) -> String {
    match kind {
        "var data" => "var data".to_owned(),
        _ => format!("{kind}s"),
    }
}

fn name_of(el: &Element) -> Option<&str> {
    el.value("name").map(str::trim).filter(|n| !n.is_empty())
}

//! Schema names that become the same identifier in a target language's generated code, which
//! then does not compile: `bidPx` and `bid_px` are both `bid_px` in Rust. Which identifiers
//! each name gives, and which of them share a scope, is sable-names' `generated` module; this
//! walks the schema's scopes and reports each clash at the second name, as an error.
//!
//! Every name gives a few dozen identifiers over all languages, and large schemas repeat the
//! same member names in every message: a member's identifiers are computed once per name and
//! interned as numbers, so that its scope compares numbers rather than strings. (Package-level
//! names are each declared once; their identifiers are used as they are.)

use std::collections::hash_map::Entry;
use std::hash::Hash;
use std::rc::Rc;

use bumpalo::Bump;
use foldhash::HashMap;
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
        .flat_map(|t| t.children)
        .filter(|c| matches!(c.name, "type" | "composite" | "enum" | "set"))
        .collect();
    let types: HashMap<&str, &Element> = declared
        .iter()
        .filter_map(|el| Some((name_of(el)?, *el)))
        .collect();
    let arena = Bump::new();
    let mut c = Checker {
        sources,
        diags,
        types,
        identifiers: Identifiers {
            arena: &arena,
            by_name: HashMap::default(),
            interned: HashMap::default(),
        },
        spare: Vec::new(),
    };
    let mut messages = Vec::new();
    crate::parse::collect_messages(root, &mut messages);

    // Most package-level names give a handful of identifiers in all: room for them up front.
    let mut package = Scope::with_capacity((declared.len() + messages.len()) * 8);
    for el in &declared {
        c.declared_type(el, &mut package);
    }
    for message in &messages {
        c.add(
            &mut package,
            message,
            "message",
            Kind::PackageType(TypeKind::Message),
        );
        c.members(message, Owner::Message);
    }
}

struct Checker<'a> {
    sources: &'a Sources,
    diags: &'a mut Vec<Diagnostic>,
    /// Declared types by name (the first of a name; later ones are reported by the parser).
    types: HashMap<&'a str, &'a Element<'a>>,
    identifiers: Identifiers<'a>,
    /// Emptied tables of scopes done with, for the next scope to fill without growing one.
    spare: Vec<HashMap<(Language, u32), (usize, bool)>>,
}

/// What a name is in its scope, which decides the identifiers it gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    PackageType(TypeKind),
    CompositeMember(FieldType),
    EnumValue,
    SetChoice,
    Member(Member, Owner),
}

impl Kind {
    /// The identifiers `name` gives in `lang`: its own first, then those derived from it.
    fn identifiers(self, lang: Language, name: &str) -> Vec<String> {
        match self {
            Kind::PackageType(kind) => generated::package_type(lang, name, kind),
            Kind::CompositeMember(t) => generated::composite_member(lang, name, t),
            Kind::EnumValue => generated::enum_value(lang, name).into_iter().collect(),
            Kind::SetChoice => generated::set_choice(lang, name).into_iter().collect(),
            Kind::Member(member, owner) => generated::member(lang, name, member, owner),
        }
    }
}

/// One identifier a name gives: in which language, as an interned number, and its place in
/// that language's list (0 for the name's own identifier).
#[derive(Clone, Copy)]
struct Identifier {
    lang: Language,
    id: u32,
    index: u32,
}

/// Each member name's identifiers in every language, computed once per kind and name.
struct Identifiers<'b> {
    /// Holds the package-level identifiers, which live as long as the check.
    arena: &'b Bump,
    by_name: HashMap<Kind, HashMap<Box<str>, Rc<[Identifier]>>>,
    /// Every member identifier seen, per language, and its number.
    interned: HashMap<Language, HashMap<String, u32>>,
}

impl Identifiers<'_> {
    fn of(&mut self, kind: Kind, name: &str) -> Rc<[Identifier]> {
        let names = self.by_name.entry(kind).or_default();
        if let Some(known) = names.get(name) {
            return Rc::clone(known);
        }
        let mut all = Vec::new();
        for lang in Language::ALL {
            let interned = self.interned.entry(lang).or_default();
            for (index, text) in kind.identifiers(lang, name).into_iter().enumerate() {
                let next = u32::try_from(interned.len()).unwrap_or(u32::MAX);
                let id = *interned.entry(text).or_insert(next);
                all.push(Identifier {
                    lang,
                    id,
                    index: index as u32,
                });
            }
        }
        let all: Rc<[Identifier]> = all.into();
        names.insert(name.into(), Rc::clone(&all));
        all
    }
}

/// How a scope keys the identifiers in it: by language and identifier, as text or interned.
trait Key<'b>: Hash + Eq + Sized {
    /// The identifiers `name` gives as `kind`: each one's key, language and place in its
    /// language's list (0 for the name's own identifier).
    fn keys(
        identifiers: &mut Identifiers<'b>,
        kind: Kind,
        name: &str,
    ) -> Vec<(Self, Language, usize)>;
}

/// For the package scope, whose names are each declared once: the text, kept in the arena.
impl<'b> Key<'b> for (Language, &'b str) {
    fn keys(
        identifiers: &mut Identifiers<'b>,
        kind: Kind,
        name: &str,
    ) -> Vec<(Self, Language, usize)> {
        let mut keys = Vec::new();
        for lang in Language::ALL {
            for (index, text) in kind.identifiers(lang, name).into_iter().enumerate() {
                let text: &'b str = identifiers.arena.alloc_str(&text);
                keys.push(((lang, text), lang, index));
            }
        }
        keys
    }
}

/// For the scopes of members, whose names repeat from one message (or type) to the next.
impl Key<'_> for (Language, u32) {
    fn keys(identifiers: &mut Identifiers, kind: Kind, name: &str) -> Vec<(Self, Language, usize)> {
        identifiers
            .of(kind, name)
            .iter()
            .map(|i| ((i.lang, i.id), i.lang, i.index as usize))
            .collect()
    }
}

/// The names seen so far in one scope: each one's element and kind, and, per language, which
/// of them declared each identifier (and whether as its own name rather than a derived one).
struct Scope<'e, K> {
    names: Vec<(&'e Element<'e>, &'static str)>,
    taken: HashMap<K, (usize, bool)>,
}

/// A scope of members, keyed by interned identifiers.
type Members<'e> = Scope<'e, (Language, u32)>;

impl<K> Scope<'_, K> {
    fn with_capacity(identifiers: usize) -> Self {
        Scope {
            names: Vec::new(),
            taken: HashMap::with_capacity_and_hasher(identifiers, Default::default()),
        }
    }
}

/// A clash with an earlier name: which, in what language, the identifier, and whether it is
/// both names' own identifier (not one derived from either).
type Clash = (usize, Language, String, bool);

impl<'a> Checker<'a> {
    /// A declared type (and the types declared inside a composite), and its members.
    fn declared_type<'e>(&mut self, el: &'e Element, package: &mut Scope<'e, (Language, &'a str)>) {
        let (kind, word) = match el.name {
            "composite" => (TypeKind::Composite, "composite"),
            "enum" => (TypeKind::Enum, "enum"),
            "set" => (TypeKind::Set, "set"),
            _ => return,
        };
        self.add(package, el, word, Kind::PackageType(kind));
        let mut scope = self.scope();
        match kind {
            TypeKind::Composite => {
                for m in el
                    .children
                    .iter()
                    .filter(|m| matches!(m.name, "type" | "composite" | "enum" | "set" | "ref"))
                {
                    let t = self.member_type(m);
                    self.add(&mut scope, m, "member", Kind::CompositeMember(t));
                    self.declared_type(m, package);
                }
            }
            TypeKind::Enum => {
                for v in el.children.iter().filter(|v| v.name == "validValue") {
                    self.add(&mut scope, v, "value", Kind::EnumValue);
                }
            }
            TypeKind::Set => {
                for v in el.children.iter().filter(|v| v.name == "choice") {
                    self.add(&mut scope, v, "choice", Kind::SetChoice);
                }
            }
            TypeKind::Message => {}
        }
        self.done(scope);
    }

    /// A new scope of members, with a table left by an earlier one.
    fn scope<'e>(&mut self) -> Members<'e> {
        Scope {
            names: Vec::new(),
            taken: self.spare.pop().unwrap_or_default(),
        }
    }

    fn done(&mut self, mut scope: Members) {
        scope.taken.clear();
        self.spare.push(scope.taken);
    }

    /// The fields, groups and var data of a message or group, and those of its groups.
    fn members(&mut self, parent: &Element, owner: Owner) {
        let mut scope = self.scope();
        for el in parent.children {
            let (member, kind) = match el.name {
                "field" => (Member::Field(self.field_type(el)), "field"),
                "group" => (Member::Group, "group"),
                "data" => (Member::Data, "var data"),
                _ => continue,
            };
            self.add(&mut scope, el, kind, Kind::Member(member, owner));
            if member == Member::Group {
                self.members(el, Owner::Group);
            }
        }
        self.done(scope);
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
        match el.name {
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
    fn add<'e, K: Key<'a>>(
        &mut self,
        scope: &mut Scope<'e, K>,
        el: &'e Element,
        word: &'static str,
        kind: Kind,
    ) {
        let Some(name) = name_of(el) else {
            return;
        };
        let index = scope.names.len();
        // The first clash with each earlier name, per language.
        let mut clashes: Vec<Clash> = Vec::new();
        for (key, lang, i) in K::keys(&mut self.identifiers, kind, name) {
            match scope.taken.entry(key) {
                // The name's own identifiers may repeat; the same name twice is the
                // parser's to report.
                Entry::Occupied(taken) => {
                    let (earlier, own) = *taken.get();
                    if earlier != index
                        && name_of(scope.names[earlier].0) != Some(name)
                        && !clashes.iter().any(|c| c.0 == earlier && c.1 == lang)
                    {
                        let id = kind.identifiers(lang, name).swap_remove(i);
                        clashes.push((earlier, lang, id, own && i == 0));
                    }
                }
                Entry::Vacant(free) => {
                    free.insert((index, i == 0));
                }
            }
        }
        scope.names.push((el, word));
        let Some(&(earlier, ..)) = clashes.first() else {
            return;
        };
        clashes.retain(|c| c.0 == earlier);
        let (first, first_kind) = scope.names[earlier];
        self.report(first, first_kind, el, word, &clashes);
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

fn name_of<'t>(el: &Element<'t>) -> Option<&'t str> {
    el.value("name").map(str::trim).filter(|n| !n.is_empty())
}

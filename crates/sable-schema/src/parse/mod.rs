//! Element tree to [`Schema`], checking the rules of the standard and those the reference
//! implementation enforces as it goes. Every problem becomes a diagnostic; parsing carries on
//! past errors so that one run reports them all.

use foldhash::{HashMap, HashSet};
use std::rc::Rc;

use sable_ir::{ByteOrder, Presence, PrimitiveType};

use crate::diagnostic::{Diagnostic, Severity};
use crate::model::*;
use crate::names;
use crate::order::resolution_order;
use crate::xml::{Element, Loc, Sources};

mod fields;
mod layout;
mod types;

use layout::BlockLimit;
use types::bare_type;

/// Composites nested in composites (directly or through refs) deeper than this are refused: no
/// real schema comes near it, and it bounds recursion over types.
pub const MAX_COMPOSITE_DEPTH: usize = 64;
/// IR tokens one composite may expand to, counting those of every composite, enum and set it
/// holds or refers to: refs that each hold several refs grow exponentially otherwise.
pub const MAX_COMPOSITE_TOKENS: usize = 65_536;
/// IR tokens the whole schema may lower to: many fields of one large composite would otherwise
/// multiply without bound.
pub const MAX_SCHEMA_TOKENS: usize = 1 << 22;

/// Parses a whole schema. Returns `None` only when nothing sensible can be built; the caller
/// decides from the diagnostics whether the schema is usable.
pub fn parse(root: &Element, sources: &Sources, diags: &mut Vec<Diagnostic>) -> Option<Schema> {
    let mut p = Parser {
        sources,
        diags,
        declared: HashMap::default(),
        resolved: HashMap::default(),
        schema_version: 0,
        tokens: 0,
        block_limit: BlockLimit::ir(),
        data_types: HashSet::default(),
    };
    p.schema(root)
}

struct Parser<'a> {
    sources: &'a Sources,
    diags: &'a mut Vec<Diagnostic>,
    /// Type elements declared in `<types>`, by name (the first declaration wins).
    declared: HashMap<String, &'a Element<'a>>,
    /// Types resolved so far; `None` for one that failed to resolve (reported once).
    resolved: HashMap<String, Option<Rc<TypeDef>>>,
    schema_version: i32,
    /// IR tokens of the messages parsed so far, against [`MAX_SCHEMA_TOKENS`].
    tokens: usize,
    /// What the message header's `blockLength` can express.
    block_limit: BlockLimit,
    /// The types `<data>` elements name.
    data_types: HashSet<String>,
}

impl<'a> Parser<'a> {
    fn report(
        &mut self,
        severity: Severity,
        el: &Element,
        loc: Loc,
        message: String,
        help: Option<&str>,
    ) {
        let d =
            self.sources
                .diagnostic(severity, loc, el.label(), message, help.map(str::to_owned));
        self.diags.push(d);
    }

    fn error(&mut self, el: &Element, loc: Loc, message: String, help: Option<&str>) {
        self.report(Severity::Error, el, loc, message, help);
    }

    fn warning(&mut self, el: &Element, loc: Loc, message: String, help: Option<&str>) {
        self.report(Severity::Warning, el, loc, message, help);
    }

    /// A required attribute; reports and returns `None` when absent or blank.
    fn required(&mut self, el: &Element, name: &str) -> Option<String> {
        match el.value(name).map(str::trim) {
            Some(v) if !v.is_empty() => Some(v.to_owned()),
            _ => {
                self.error(
                    el,
                    el.loc,
                    format!("missing required attribute `{name}`"),
                    None,
                );
                None
            }
        }
    }

    fn optional(el: &Element, name: &str) -> Option<String> {
        el.value(name)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    }

    /// An integer attribute within `min..=max`, or `default` when absent.
    fn int(&mut self, el: &Element, name: &str, default: i64, min: i64, max: i64) -> i64 {
        let Some(text) = el.value(name) else {
            return default;
        };
        match text.trim().parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => v,
            _ => {
                self.error(
                    el,
                    el.loc_of(name),
                    format!("`{name}` must be a whole number from {min} to {max}, not \"{text}\""),
                    None,
                );
                default
            }
        }
    }

    fn version_attr(&mut self, el: &Element, name: &str) -> i32 {
        self.int(el, name, 0, 0, i64::from(i32::MAX)) as i32
    }

    /// `sinceVersion`, checked against the schema's version.
    fn since_version(&mut self, el: &Element) -> i32 {
        let v = self.version_attr(el, "sinceVersion");
        if v > self.schema_version {
            self.error(
                el,
                el.loc_of("sinceVersion"),
                format!(
                    "sinceVersion {v} is greater than the schema's version {}",
                    self.schema_version
                ),
                Some("raise the messageSchema's `version`, or lower this `sinceVersion`"),
            );
        }
        v
    }

    fn presence(&mut self, el: &Element) -> Presence {
        match el.value("presence").map(str::trim) {
            None | Some("required") => Presence::Required,
            Some("optional") => Presence::Optional,
            Some("constant") => Presence::Constant,
            Some(other) => {
                self.error(
                    el,
                    el.loc_of("presence"),
                    format!("unknown presence \"{other}\""),
                    Some("use required, optional or constant"),
                );
                Presence::Required
            }
        }
    }

    fn check_name(&mut self, el: &Element, name: &str) {
        if let Some(problem) = names::problem(name) {
            let mut d = self.sources.diagnostic(
                Severity::Warning,
                el.loc_of("name"),
                el.label(),
                problem,
                Some("rename it, or expect generators to mangle it".to_owned()),
            );
            d.category = crate::diagnostic::Category::GeneratedNames;
            self.diags.push(d);
        }
    }

    fn schema(&mut self, root: &'a Element<'a>) -> Option<Schema> {
        if root.name != "messageSchema" {
            self.error(
                root,
                root.loc,
                format!("the root element is <{}>, not <messageSchema>", root.name),
                None,
            );
            return None;
        }
        let package = Self::optional(root, "package").unwrap_or_default();
        let id = self.int(root, "id", 0, 0, i64::from(u16::MAX)) as i32;
        if root.value("id").is_none() {
            self.error(
                root,
                root.loc,
                "missing required attribute `id`".to_owned(),
                None,
            );
        }
        self.schema_version = self.version_attr(root, "version");
        let byte_order = match root.value("byteOrder").map(str::trim) {
            None | Some("littleEndian") => ByteOrder::LittleEndian,
            Some("bigEndian") => ByteOrder::BigEndian,
            Some(other) => {
                self.error(
                    root,
                    root.loc_of("byteOrder"),
                    format!("unknown byteOrder \"{other}\""),
                    Some("use littleEndian or bigEndian"),
                );
                ByteOrder::LittleEndian
            }
        };
        let header_type =
            Self::optional(root, "headerType").unwrap_or_else(|| "messageHeader".to_owned());

        for types in root.children.iter().filter(|c| c.name == "types") {
            for el in types.children {
                if !matches!(el.name, "type" | "composite" | "enum" | "set") {
                    continue;
                }
                let Some(name) = self.required(el, "name") else {
                    continue;
                };
                if PrimitiveType::from_schema_name(&name).is_some() {
                    self.error(
                        el,
                        el.loc_of("name"),
                        format!("type name \"{name}\" is a primitive type's name"),
                        None,
                    );
                } else if self.declared.contains_key(&name) {
                    self.warning(
                        el,
                        el.loc_of("name"),
                        format!("type \"{name}\" is already defined; this definition is ignored"),
                        Some("give each type a unique name"),
                    );
                } else {
                    self.declared.entry(name).or_insert(el);
                }
            }
        }
        // Resolve every declared type, so that problems in unused types are reported too.
        let mut roots: Vec<(&str, &Element)> = self
            .declared
            .iter()
            .map(|(n, el)| (n.as_str(), *el))
            .collect();
        roots.sort_by_key(|(_, el)| (el.loc.file, el.loc.line, el.loc.column));
        let roots: Vec<&str> = roots.into_iter().map(|(n, _)| n).collect();
        let order = resolution_order(&self.declared, &roots);
        let owned =
            |names: &[&str]| -> Vec<String> { names.iter().map(|n| (*n).to_owned()).collect() };
        let cycles: Vec<Vec<String>> = order.cycles.iter().map(|c| owned(c)).collect();
        let order = owned(&order.order);
        for cycle in &cycles {
            self.cycle(cycle);
        }
        for name in &order {
            self.resolve(name);
        }

        let header = match self.declared.get(&header_type).copied() {
            Some(el) => self
                .resolve(&header_type)
                .filter(|t| self.check_header(el, t)),
            None => {
                self.error(
                    root,
                    root.loc_of("headerType"),
                    format!("the message header type \"{header_type}\" is not defined"),
                    Some("define a composite with blockLength, templateId, schemaId and version (uint16) in <types>"),
                );
                None
            }
        };

        if let Some(h) = &header {
            self.block_limit = BlockLimit::of(h, "the message header");
        }
        let mut messages = Vec::new();
        let mut ids: HashMap<i32, String> = HashMap::default();
        let mut message_elements = Vec::new();
        collect_messages(root, &mut message_elements);
        for el in &message_elements {
            collect_data_types(el, &mut self.data_types);
        }
        for el in message_elements {
            if let Some(m) = self.message(el) {
                if let Some(other) = ids.get(&m.id) {
                    let msg = format!(
                        "message template id {} is already used by message \"{other}\"",
                        m.id
                    );
                    self.error(
                        el,
                        el.loc_of("id"),
                        msg,
                        Some("give each message a unique id"),
                    );
                } else {
                    ids.insert(m.id, m.name.clone());
                }
                messages.push(m);
            }
        }

        Some(Schema {
            package,
            id,
            version: self.schema_version,
            semantic_version: Self::optional(root, "semanticVersion"),
            description: Self::optional(root, "description"),
            byte_order,
            header: header?,
            messages,
            loc: root.loc,
        })
    }

    fn check_header(&mut self, el: &Element, header: &TypeDef) -> bool {
        if !matches!(header.kind, TypeKind::Composite(_)) {
            self.error(
                el,
                el.loc,
                "the message header type must be a composite".to_owned(),
                None,
            );
            return false;
        }
        let mut ok = true;
        for name in ["blockLength", "templateId", "schemaId", "version"] {
            match header.member(name) {
                None => {
                    self.error(
                        el,
                        el.loc,
                        format!("the message header composite has no \"{name}\""),
                        Some(
                            "a message header needs blockLength, templateId, schemaId and version",
                        ),
                    );
                    ok = false;
                }
                Some(m) => match &m.kind {
                    TypeKind::Encoded(e) if e.primitive.is_unsigned() => {
                        if e.primitive != PrimitiveType::UInt16 {
                            self.warning(
                                el,
                                el.loc,
                                format!(
                                    "message header \"{name}\" is {}; it should be uint16",
                                    e.primitive
                                ),
                                None,
                            );
                        }
                    }
                    _ => {
                        self.error(
                            el,
                            el.loc,
                            format!("message header \"{name}\" must be an unsigned integer type"),
                            None,
                        );
                        ok = false;
                    }
                },
            }
        }
        ok
    }

    /// Reports a cycle of declared types (the first name repeated at the end), and marks the
    /// type that closes it as failed, so that resolving it and those using it stops there.
    fn cycle(&mut self, cycle: &[String]) {
        let Some(name) = cycle.last() else { return };
        let Some(el) = self.declared.get(name).copied() else {
            return;
        };
        self.error(
            el,
            el.loc,
            format!(
                "types refer to each other in a cycle: {}",
                cycle_text(cycle)
            ),
            Some("a composite cannot contain itself, directly or through refs"),
        );
        self.resolved.insert(name.clone(), None);
    }

    /// Resolves a type by name, as a copy that the caller may change (a ref renames it).
    fn resolve(&mut self, name: &str) -> Option<TypeDef> {
        self.resolve_shared(name).map(|t| TypeDef::clone(&t))
    }

    /// Resolves a type by name: a primitive, or a declared type. Declared types are resolved in
    /// an order that puts each after those it uses (see [`resolution_order`]), so this finds them
    /// resolved already and does not recurse from one declared type into another. Shared, so
    /// that the fields using a type do not each copy its names and description.
    fn resolve_shared(&mut self, name: &str) -> Option<Rc<TypeDef>> {
        if let Some(done) = self.resolved.get(name) {
            return done.clone();
        }
        if let Some(t) = PrimitiveType::from_schema_name(name) {
            let t = Rc::new(bare_type(
                name,
                TypeKind::Encoded(Rc::new(Encoded {
                    presence: Presence::Required,
                    primitive: t,
                    length: 1,
                    // Unlike a declared char type, a bare primitive has no character encoding.
                    character_encoding: None,
                    min: None,
                    max: None,
                    null: None,
                    constant: None,
                })),
            ));
            self.resolved.insert(name.to_owned(), Some(t.clone()));
            return Some(t);
        }
        let el = *self.declared.get(name)?;
        // Marked failed while in progress, so that a use the resolution order missed cannot loop.
        self.resolved.insert(name.to_owned(), None);
        let t = self.type_element(el).map(Rc::new);
        self.resolved.insert(name.to_owned(), t.clone());
        t
    }
}

/// A cycle's names joined by arrows, the middle of a long one elided.
fn cycle_text(cycle: &[String]) -> String {
    const ENDS: usize = 4;
    if cycle.len() <= 3 * ENDS {
        return cycle.join(" -> ");
    }
    let (head, tail) = (&cycle[..ENDS], &cycle[cycle.len() - ENDS..]);
    let elided = cycle.len() - 2 * ENDS;
    format!(
        "{} -> ({elided} more) -> {}",
        head.join(" -> "),
        tail.join(" -> ")
    )
}

/// Messages anywhere under the root except inside `<types>` (XIncludes may wrap them).
pub(crate) fn collect_messages<'a>(el: &'a Element, out: &mut Vec<&'a Element<'a>>) {
    for child in el.children {
        match child.name {
            "message" => out.push(child),
            "types" => {}
            _ => collect_messages(child, out),
        }
    }
}

/// The types named by `<data>` elements in a message or group, at any depth.
fn collect_data_types(el: &Element, out: &mut HashSet<String>) {
    for child in el.children {
        match child.name {
            "data" => out.extend(child.value("type").map(|t| t.trim().to_owned())),
            "group" => collect_data_types(child, out),
            _ => {}
        }
    }
}

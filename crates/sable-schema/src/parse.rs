//! Element tree to [`Schema`], checking the rules of the standard and those the reference
//! implementation enforces as it goes. Every problem becomes a diagnostic; parsing carries on
//! past errors so that one run reports them all.

use foldhash::{HashMap, HashSet};
use std::rc::Rc;

use sable_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};

use crate::diagnostic::{Diagnostic, Severity};
use crate::model::*;
use crate::names;
use crate::order::resolution_order;
use crate::xml::{Element, Loc, Sources};

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

    fn type_element(&mut self, el: &Element) -> Option<TypeDef> {
        match el.name {
            "type" => self.encoded(el),
            "composite" => self.composite(el),
            "enum" => self.enumeration(el),
            "set" => self.set(el),
            _ => None,
        }
    }

    fn common(&mut self, el: &Element, name: String, kind: TypeKind) -> TypeDef {
        let offset = el
            .value("offset")
            .map(|_| self.int(el, "offset", 0, 0, i64::from(i32::MAX)) as i32);
        TypeDef {
            name,
            referenced_name: None,
            description: Self::optional(el, "description"),
            semantic_type: Self::optional(el, "semanticType"),
            since_version: self.since_version(el),
            deprecated: self.version_attr(el, "deprecated"),
            offset,
            kind,
            loc: el.loc,
        }
    }

    fn primitive_attr(&mut self, el: &Element, attr: &str) -> Option<PrimitiveType> {
        let text = self.required(el, attr)?;
        let t = PrimitiveType::from_schema_name(&text);
        if t.is_none() {
            self.error(
                el,
                el.loc_of(attr),
                format!("unknown primitive type \"{text}\""),
                Some("use char, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float or double"),
            );
        }
        t
    }

    fn value_attr(&mut self, el: &Element, attr: &str, t: PrimitiveType) -> Option<PrimitiveValue> {
        let text = el.value(attr)?.trim().to_owned();
        if text.is_empty() {
            return None;
        }
        match PrimitiveValue::parse(&text, t) {
            Ok(v) => Some(v),
            Err(e) => {
                self.error(el, el.loc_of(attr), format!("`{attr}`: {e}"), None);
                None
            }
        }
    }

    fn encoded(&mut self, el: &Element) -> Option<TypeDef> {
        let name = self.required(el, "name")?;
        let primitive = self.primitive_attr(el, "primitiveType")?;
        let presence = self.presence(el);
        let variable = el
            .value("variableLength")
            .is_some_and(|v| v.trim() == "true");
        let mut length = if variable {
            0
        } else {
            self.int(el, "length", 1, 0, i64::from(u32::MAX)) as u32
        };
        let bytes = primitive.size() as i64 * i64::from(length);
        if bytes > i64::from(i32::MAX) {
            self.error(
                el,
                el.loc_of("length"),
                format!(
                    "length {length} of {primitive} is {bytes} bytes, more than the {} a type can have",
                    i32::MAX
                ),
                None,
            );
            // Reported; a length of 1 keeps the sizes of what holds it sane.
            length = 1;
        }
        let character_encoding = Self::optional(el, "characterEncoding")
            .or_else(|| (primitive == PrimitiveType::Char).then(|| "US-ASCII".to_owned()));
        let min = self.value_attr(el, "minValue", primitive);
        let max = self.value_attr(el, "maxValue", primitive);
        let null = self.value_attr(el, "nullValue", primitive);
        if null.is_some() && presence != Presence::Optional {
            self.error(
                el,
                el.loc_of("nullValue"),
                "nullValue is set, but presence is not optional".to_owned(),
                Some("add presence=\"optional\", or remove nullValue"),
            );
        }
        if let (Some(lo), Some(hi)) = (
            min.as_ref().and_then(PrimitiveValue::as_f64),
            max.as_ref().and_then(PrimitiveValue::as_f64),
        ) {
            if lo > hi {
                self.error(
                    el,
                    el.loc_of("minValue"),
                    format!("minValue {lo} is greater than maxValue {hi}"),
                    None,
                );
            }
        }
        let mut constant = None;
        if presence == Presence::Constant {
            let text = el.text.trim();
            if let Some(value_ref) = Self::optional(el, "valueRef") {
                constant = self.enum_value(el, &value_ref).and_then(|v| match v {
                    PrimitiveValue::Int(i) => PrimitiveValue::parse(&i.to_string(), primitive).ok(),
                    PrimitiveValue::UInt(u) => {
                        PrimitiveValue::parse(&u.to_string(), primitive).ok()
                    }
                    other => Some(other),
                });
            }
            if text.is_empty() && el.value("valueRef").is_none() {
                self.error(
                    el,
                    el.loc,
                    "type has presence \"constant\" but no value".to_owned(),
                    Some("put the constant's value in the element's text"),
                );
            } else if !text.is_empty() && constant.is_none() {
                constant = if primitive == PrimitiveType::Char && length != 1 {
                    Some(PrimitiveValue::Bytes {
                        bytes: text.as_bytes().to_vec(),
                        character_encoding: character_encoding.clone().unwrap_or_default(),
                    })
                } else {
                    match PrimitiveValue::parse(text, primitive) {
                        Ok(v) => Some(v),
                        Err(e) => {
                            self.error(el, el.loc, format!("constant value: {e}"), None);
                            None
                        }
                    }
                };
            }
        }
        self.check_name(el, &name);
        Some(self.common(
            el,
            name,
            TypeKind::Encoded(Rc::new(Encoded {
                presence,
                primitive,
                length,
                character_encoding,
                min,
                max,
                null,
                constant,
            })),
        ))
    }

    fn composite(&mut self, el: &Element) -> Option<TypeDef> {
        let name = self.required(el, "name")?;
        let mut members: Vec<TypeDef> = Vec::new();
        let mut member_names: HashSet<String> = HashSet::default();
        let mut offset: i64 = 0;
        let mut tokens: usize = 2;
        // A member composite or ref that failed, or limits exceeded: this composite fails too,
        // so that a chain of refs past a limit is reported once, where it crosses it.
        let mut failed = false;
        for child in el.children {
            let member = match child.name {
                "type" => self.encoded(child),
                "composite" => self.composite(child),
                "enum" => self.enumeration(child),
                "set" => self.set(child),
                "ref" => self.reference(child),
                // Anything else has been reported by the vocabulary check.
                _ => continue,
            };
            let Some(member) = member else {
                failed |= matches!(child.name, "composite" | "ref");
                continue;
            };
            if failed {
                continue;
            }
            if member.depth() >= MAX_COMPOSITE_DEPTH {
                self.error(
                    child,
                    child.loc,
                    format!("composites are nested more than {MAX_COMPOSITE_DEPTH} deep here"),
                    Some("no real schema nests composites this deep; flatten them"),
                );
                failed = true;
                continue;
            }
            tokens = tokens.saturating_add(member.tokens());
            if tokens > MAX_COMPOSITE_TOKENS {
                self.error(
                    child,
                    child.loc,
                    format!(
                        "composite \"{name}\" expands to more than {MAX_COMPOSITE_TOKENS} IR tokens here"
                    ),
                    Some("every member of a referenced composite, enum value and set choice counts, once per ref"),
                );
                failed = true;
                continue;
            }
            if !member_names.insert(member.name.clone()) {
                self.error(
                    child,
                    child.loc_of("name"),
                    format!(
                        "composite \"{name}\" already has a member named \"{}\"",
                        member.name
                    ),
                    None,
                );
            }
            if let Some(o) = member.offset.map(i64::from) {
                if o < offset {
                    self.error(
                        child,
                        child.loc_of("offset"),
                        format!("offset {o} overlaps the member before it, which ends at {offset}"),
                        Some("offsets must not go backwards; remove the offset or make it larger"),
                    );
                }
                offset = o;
            }
            let len = member.size();
            if len != i64::from(VARIABLE_LENGTH) {
                offset += len;
            }
            members.push(member);
        }
        if offset > i64::from(i32::MAX) {
            self.error(
                el,
                el.loc,
                format!(
                    "composite \"{name}\" is {offset} bytes long, more than the {} a type can have",
                    i32::MAX
                ),
                None,
            );
            return None;
        }
        if el.children.is_empty() {
            self.error(
                el,
                el.loc,
                format!("composite \"{name}\" has no members"),
                None,
            );
        }
        self.check_name(el, &name);
        if failed {
            return None;
        }
        let composite = Composite::new(members);
        Some(self.common(el, name, TypeKind::Composite(Rc::new(composite))))
    }

    fn reference(&mut self, el: &Element) -> Option<TypeDef> {
        let name = self.required(el, "name")?;
        let type_name = self.required(el, "type")?;
        let Some(mut t) = self.resolve(&type_name) else {
            // A declared type that failed to resolve has been reported already.
            if !self.declared.contains_key(&type_name) {
                self.error(
                    el,
                    el.loc_of("type"),
                    format!("ref to unknown type \"{type_name}\""),
                    None,
                );
            }
            return None;
        };
        t.referenced_name = Some(type_name);
        t.name = name;
        t.offset = el
            .value("offset")
            .map(|_| self.int(el, "offset", 0, 0, i64::from(i32::MAX)) as i32);
        if el.value("sinceVersion").is_some() {
            t.since_version = self.since_version(el);
        }
        if el.value("deprecated").is_some() {
            t.deprecated = self.version_attr(el, "deprecated");
        }
        t.loc = el.loc;
        Some(t)
    }

    /// The encoding of an enum or set: a primitive, or a declared `<type>` (whose range limits
    /// the values). Returns the primitive type and the encoding type, if one was named.
    fn encoding_type(
        &mut self,
        el: &Element,
        allowed: &[PrimitiveType],
    ) -> Option<(PrimitiveType, Option<Rc<Encoded>>)> {
        let text = self.required(el, "encodingType")?;
        let (primitive, encoded) = match PrimitiveType::from_schema_name(&text) {
            Some(t) => (t, None),
            None => match self.resolve(&text) {
                Some(TypeDef {
                    kind: TypeKind::Encoded(e),
                    ..
                }) if e.length == 1 => (e.primitive, Some(e)),
                Some(_) => {
                    self.error(el, el.loc_of("encodingType"), format!("encodingType \"{text}\" must be a primitive type or a single-value <type>"), None);
                    return None;
                }
                None => {
                    // A declared type that failed to resolve has been reported already.
                    if !self.declared.contains_key(&text) {
                        self.error(
                            el,
                            el.loc_of("encodingType"),
                            format!("unknown encodingType \"{text}\""),
                            None,
                        );
                    }
                    return None;
                }
            },
        };
        if !allowed.contains(&primitive) {
            let names: Vec<&str> = allowed.iter().map(|t| t.schema_name()).collect();
            self.error(
                el,
                el.loc_of("encodingType"),
                format!("encodingType {primitive} is not allowed here"),
                Some(&format!("use one of {}", names.join(", "))),
            );
            return None;
        }
        Some((primitive, encoded))
    }

    fn enumeration(&mut self, el: &Element) -> Option<TypeDef> {
        use PrimitiveType::*;
        let name = self.required(el, "name")?;
        let (encoding, encoded) = self.encoding_type(
            el,
            &[
                Char, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
            ],
        )?;
        self.presence(el);
        let declared_null = self.value_attr(el, "nullValue", encoding);
        let null_value = declared_null
            .clone()
            .or_else(|| encoded.as_ref().and_then(|e| e.null.clone()))
            .unwrap_or_else(|| encoding.null_value());
        let min = encoded.as_ref().and_then(|e| e.min.clone());
        let max = encoded.as_ref().and_then(|e| e.max.clone());
        let mut values: Vec<Item> = Vec::new();
        let mut seen = Seen::default();
        for child in el.children.iter().filter(|c| c.name == "validValue") {
            let Some(item) = self.item(child, encoding) else {
                continue;
            };
            let v = item.value.as_i128();
            if v.is_some() && v == null_value.as_i128() {
                self.error(
                    child,
                    child.loc,
                    format!("validValue {} uses the null value {null_value}", item.name),
                    Some("pick another value, or another nullValue"),
                );
            } else if let (Some(v), Some(lo), Some(hi)) = (
                v,
                min.as_ref().and_then(PrimitiveValue::as_i128),
                max.as_ref().and_then(PrimitiveValue::as_i128),
            ) {
                if v < lo || v > hi {
                    self.error(
                        child,
                        child.loc,
                        format!(
                            "validValue {} is {v}, outside the encoding's range {lo} to {hi}",
                            item.name
                        ),
                        None,
                    );
                }
            } else if let (Some(v), Some(lo)) = (v, min.as_ref().and_then(PrimitiveValue::as_i128))
            {
                if v < lo {
                    self.error(
                        child,
                        child.loc,
                        format!(
                            "validValue {} is {v}, below the encoding's minValue {lo}",
                            item.name
                        ),
                        None,
                    );
                }
            } else if let (Some(v), Some(hi)) = (v, max.as_ref().and_then(PrimitiveValue::as_i128))
            {
                if v > hi {
                    self.error(
                        child,
                        child.loc,
                        format!(
                            "validValue {} is {v}, above the encoding's maxValue {hi}",
                            item.name
                        ),
                        None,
                    );
                }
            }
            self.check_distinct(&name, child, &mut seen, &item);
            values.push(item);
        }
        self.check_name(el, &name);
        Some(self.common(
            el,
            name,
            TypeKind::Enum(Rc::new(EnumDef {
                encoding,
                null_value,
                values,
            })),
        ))
    }

    fn set(&mut self, el: &Element) -> Option<TypeDef> {
        use PrimitiveType::*;
        let name = self.required(el, "name")?;
        let (encoding, _) = self.encoding_type(el, &[UInt8, UInt16, UInt32, UInt64])?;
        let bits = encoding.size() as u64 * 8;
        let mut choices: Vec<Item> = Vec::new();
        let mut seen = Seen::default();
        for child in el.children.iter().filter(|c| c.name == "choice") {
            let Some(item) = self.item(child, UInt8) else {
                continue;
            };
            let Some(bit) = item.value.as_i128() else {
                continue;
            };
            if bit >= i128::from(bits) {
                self.error(
                    child,
                    child.loc,
                    format!(
                        "choice {} is bit {bit}, but {encoding} has bits 0 to {}",
                        item.name,
                        bits - 1
                    ),
                    None,
                );
            }
            self.check_distinct(&name, child, &mut seen, &item);
            choices.push(item);
        }
        self.check_name(el, &name);
        Some(self.common(
            el,
            name,
            TypeKind::Set(Rc::new(SetDef { encoding, choices })),
        ))
    }

    /// Reports an enum's valid value or a set's choice whose name or value an earlier one of
    /// the same type already has.
    fn check_distinct(&mut self, owner: &str, child: &Element, seen: &mut Seen, item: &Item) {
        let kind = &child.name;
        let first_with_value = item.value.as_i128().map(|v| {
            seen.values
                .entry(v)
                .or_insert_with(|| item.name.clone())
                .clone()
        });
        if !seen.names.insert(item.name.clone()) {
            let message = format!("\"{owner}\" already has a {kind} named \"{}\"", item.name);
            self.error(child, child.loc_of("name"), message, None);
        } else if let Some(o) = first_with_value.filter(|o| *o != item.name) {
            let message = format!("{kind} {} has the same value as {o}", item.name);
            self.error(child, child.loc, message, None);
        }
    }

    fn item(&mut self, el: &Element, t: PrimitiveType) -> Option<Item> {
        let name = self.required(el, "name")?;
        let text = el.text.trim();
        let value = match PrimitiveValue::parse(text, t) {
            Ok(v) => v,
            Err(e) => {
                self.error(el, el.loc, format!("{} value: {e}", el.name), None);
                return None;
            }
        };
        self.check_name(el, &name);
        Some(Item {
            name,
            value,
            description: Self::optional(el, "description"),
            since_version: self.since_version(el),
            deprecated: self.version_attr(el, "deprecated"),
            loc: el.loc,
        })
    }

    fn message(&mut self, el: &Element) -> Option<Message> {
        let name = self.required(el, "name");
        if let Some(name) = &name {
            self.check_name(el, name);
        }
        let id = self
            .required(el, "id")
            .map(|_| self.int(el, "id", 0, 0, i64::from(u16::MAX)) as i32);
        let limit = self.block_limit.clone();
        let block_length = self.int(el, "blockLength", 0, 0, limit.max) as i32;
        let since_version = self.since_version(el);
        let mut fields = self.fields(el);
        let mut problems = Vec::new();
        let computed = layout(&mut fields, block_length, &limit, &mut problems);
        for (loc, label, message) in problems {
            let d = self
                .sources
                .diagnostic(Severity::Error, loc, label, message, None);
            self.diags.push(d);
        }
        if block_length != 0 && i64::from(block_length) < computed {
            self.error(
                el,
                el.loc_of("blockLength"),
                format!(
                    "blockLength {block_length} is too small for the fields, which need {computed}"
                ),
                Some("remove blockLength, or make it at least as large as the fields"),
            );
        }
        Some(Message {
            name: name?,
            id: id?,
            block_length: to_i32(i64::from(block_length).max(computed)),
            semantic_type: Self::optional(el, "semanticType"),
            since_version,
            deprecated: self.version_attr(el, "deprecated"),
            description: Self::optional(el, "description"),
            fields,
            loc: el.loc,
        })
    }

    fn fields(&mut self, parent: &Element) -> Vec<Field> {
        let mut fields: Vec<Field> = Vec::with_capacity(parent.children.len());
        let mut seen_group = false;
        let mut seen_data = false;
        let mut ids: HashSet<i32> = HashSet::default();
        let mut names: HashSet<String> = HashSet::default();
        for el in parent.children {
            if self.tokens > MAX_SCHEMA_TOKENS {
                // Reported where the schema crossed the limit; checking on would cost as much.
                break;
            }
            let field = match el.name {
                "field" => {
                    if seen_group || seen_data {
                        self.error(
                            el,
                            el.loc,
                            "a field comes after a group or data".to_owned(),
                            Some("move fields before all groups and data"),
                        );
                    }
                    self.field(el)
                }
                "group" => {
                    if seen_data {
                        self.error(
                            el,
                            el.loc,
                            "a group comes after data".to_owned(),
                            Some("move groups before all data"),
                        );
                    }
                    seen_group = true;
                    self.group(el)
                }
                "data" => {
                    seen_data = true;
                    self.data(el)
                }
                _ => continue,
            };
            let Some(field) = field else { continue };
            self.count_tokens(el, &field);
            if !ids.insert(field.id) {
                self.error(
                    el,
                    el.loc_of("id"),
                    format!("id {} is already used in this {}", field.id, parent.name),
                    Some("give each field, group and data a unique id"),
                );
            }
            if !names.insert(field.name.clone()) {
                self.error(
                    el,
                    el.loc_of("name"),
                    format!(
                        "name \"{}\" is already used in this {}",
                        field.name, parent.name
                    ),
                    None,
                );
            }
            fields.push(field);
        }
        fields
    }

    /// Adds the IR tokens a field lowers to (a group's own fields count as they are parsed) to
    /// the schema's, and reports the field that takes them past [`MAX_SCHEMA_TOKENS`].
    fn count_tokens(&mut self, el: &Element, field: &Field) {
        let own = match &field.kind {
            FieldKind::Plain(t) => t.tokens(),
            FieldKind::Data(t) => t.tokens(),
            FieldKind::Group { dimension, .. } => dimension.tokens(),
        };
        let before = self.tokens;
        self.tokens = before.saturating_add(2).saturating_add(own);
        if before <= MAX_SCHEMA_TOKENS && self.tokens > MAX_SCHEMA_TOKENS {
            self.error(
                el,
                el.loc,
                format!("the schema expands to more than {MAX_SCHEMA_TOKENS} IR tokens here"),
                Some("every member of a field's composite, enum value and set choice counts, once per field"),
            );
        }
    }

    fn field_common(&mut self, el: &Element, kind: FieldKind) -> Option<Field> {
        let name = self.required(el, "name")?;
        let id = self
            .required(el, "id")
            .map(|_| self.int(el, "id", 0, 0, i64::from(u16::MAX)) as i32)?;
        self.check_name(el, &name);
        Some(Field {
            name,
            id,
            kind,
            offset: self.int(el, "offset", 0, 0, i64::from(i32::MAX)) as i32,
            presence: self.presence(el),
            value_ref: Self::optional(el, "valueRef"),
            value_ref_value: None,
            since_version: self.since_version(el),
            deprecated: self.version_attr(el, "deprecated"),
            epoch: Self::optional(el, "epoch"),
            time_unit: Self::optional(el, "timeUnit"),
            semantic_type: Self::optional(el, "semanticType"),
            description: Self::optional(el, "description"),
            computed_offset: 0,
            computed_block_length: 0,
            loc: el.loc,
        })
    }

    fn field(&mut self, el: &Element) -> Option<Field> {
        let type_name = self.required(el, "type")?;
        let Some(t) = self.resolve_shared(&type_name) else {
            if !self.resolved.contains_key(&type_name) {
                self.error(
                    el,
                    el.loc_of("type"),
                    format!("unknown type \"{type_name}\""),
                    Some("declare it in <types>, or use a primitive type"),
                );
            }
            return None;
        };
        if let (Some(fs), Some(ts)) = (el.value("semanticType"), t.semantic_type.as_deref()) {
            if fs.trim() != ts {
                self.error(
                    el,
                    el.loc_of("semanticType"),
                    format!(
                        "semanticType \"{}\" differs from its type's \"{ts}\"",
                        fs.trim()
                    ),
                    Some("make them the same, or drop the field's"),
                );
            }
        }
        if t.encoded_length() == VARIABLE_LENGTH {
            self.error(
                el,
                el.loc_of("type"),
                format!("type \"{type_name}\" has variable length; use <data> for it"),
                None,
            );
        } else if let Some(TypeKind::Encoded(data)) = t.member("varData").map(|m| &m.kind) {
            if t.member("length").is_some() && self.data_types.contains(&type_name) {
                // The reference turns the composite into var data for every use once a <data>
                // uses it, which leaves this field variable-length in the block.
                self.error(
                    el,
                    el.loc_of("type"),
                    format!("type \"{type_name}\" is also used by a <data>, which makes its varData variable-length here too"),
                    Some("use <data> for variable-length data, or give the field a composite of its own"),
                );
            } else if t.member("length").is_some() {
                // The reference reads such a field this way, and schemas depend on it.
                let message = format!(
                    "type \"{type_name}\" is a var-data composite (length + varData), but as a <field> it is a fixed-size composite of {} bytes: varData is always its declared length {} ({}), whatever `length` holds",
                    t.encoded_length(),
                    data.length,
                    data.primitive,
                );
                let help = "use <data> for variable-length data, or rename the members if a fixed-size composite is meant";
                self.warning(el, el.loc_of("type"), message, Some(help));
            }
        }
        let mut field = self.field_common(el, FieldKind::Plain(t.clone()))?;
        if el.value("presence").is_none() {
            if let TypeKind::Encoded(e) = &t.kind {
                field.presence = e.presence;
            }
        }
        self.check_value_ref(el, &mut field, &t);
        if field.presence == Presence::Constant
            && field.value_ref.is_none()
            && !t.is_constant()
            && !matches!(t.kind, TypeKind::Enum(_))
        {
            self.error(
                el,
                el.loc_of("presence"),
                "a constant field needs a constant type or a valueRef".to_owned(),
                None,
            );
        }
        Some(field)
    }

    fn check_value_ref(&mut self, el: &Element, field: &mut Field, t: &TypeDef) {
        let Some(value_ref) = field.value_ref.clone() else {
            if field.presence == Presence::Constant && matches!(t.kind, TypeKind::Enum(_)) {
                self.error(
                    el,
                    el.loc,
                    "a constant enum field needs a valueRef".to_owned(),
                    Some("add valueRef=\"Enum.Value\""),
                );
            }
            return;
        };
        if field.presence != Presence::Constant {
            self.error(
                el,
                el.loc_of("valueRef"),
                "valueRef is only allowed on a constant field".to_owned(),
                Some("add presence=\"constant\""),
            );
        }
        let value = self.enum_value(el, &value_ref);
        field.value_ref_value = match (value, &t.kind) {
            (Some(PrimitiveValue::Int(i)), TypeKind::Encoded(e)) => {
                PrimitiveValue::parse(&i.to_string(), e.primitive).ok()
            }
            (Some(PrimitiveValue::UInt(u)), TypeKind::Encoded(e)) => {
                PrimitiveValue::parse(&u.to_string(), e.primitive).ok()
            }
            (v, _) => v,
        };
    }

    /// The value a `valueRef` ("Enum.Value") names, reporting a bad reference.
    fn enum_value(&mut self, el: &Element, value_ref: &str) -> Option<PrimitiveValue> {
        let Some((enum_name, value_name)) = value_ref.split_once('.') else {
            self.error(
                el,
                el.loc_of("valueRef"),
                format!("valueRef \"{value_ref}\" is not of the form Enum.Value"),
                None,
            );
            return None;
        };
        match self.resolve(enum_name) {
            Some(TypeDef {
                kind: TypeKind::Enum(e),
                ..
            }) => {
                let v = e
                    .values
                    .iter()
                    .find(|v| v.name == value_name)
                    .map(|v| v.value.clone());
                if v.is_none() {
                    self.error(
                        el,
                        el.loc_of("valueRef"),
                        format!("enum \"{enum_name}\" has no validValue \"{value_name}\""),
                        None,
                    );
                }
                v
            }
            _ => {
                self.error(
                    el,
                    el.loc_of("valueRef"),
                    format!("valueRef names \"{enum_name}\", which is not an enum"),
                    None,
                );
                None
            }
        }
    }

    fn group(&mut self, el: &Element) -> Option<Field> {
        let dim_name =
            Self::optional(el, "dimensionType").unwrap_or_else(|| "groupSizeEncoding".to_owned());
        let dimension = match self.resolve(&dim_name) {
            None if self.declared.contains_key(&dim_name) => None,
            None => {
                self.error(
                    el,
                    el.loc_of("dimensionType"),
                    format!("unknown dimensionType \"{dim_name}\""),
                    Some("declare a composite with blockLength and numInGroup in <types>"),
                );
                None
            }
            Some(t) if !matches!(t.kind, TypeKind::Composite(_)) => {
                self.error(
                    el,
                    el.loc_of("dimensionType"),
                    format!("dimensionType \"{dim_name}\" must be a composite"),
                    None,
                );
                None
            }
            Some(t) => {
                self.check_counter(el, &t, "blockLength", false);
                self.check_counter(el, &t, "numInGroup", true);
                Some(t)
            }
        };
        let limit = dimension
            .as_ref()
            .map_or_else(BlockLimit::ir, BlockLimit::of_group);
        let block_length = self.int(el, "blockLength", 0, 0, limit.max) as i32;
        let fields = self.fields(el);
        let field = self.field_common(
            el,
            FieldKind::Group {
                dimension: dimension.clone().unwrap_or_else(|| placeholder(&dim_name)),
                block_length,
                fields,
            },
        )?;
        // Kept even with a bad dimension, so that its layout is still checked.
        Some(field)
    }

    /// Checks a member of a group dimension or var-data composite that holds a count or length.
    fn check_counter(
        &mut self,
        el: &Element,
        composite: &TypeDef,
        member: &str,
        check_max: bool,
    ) -> bool {
        let what = if member == "length" {
            "a var-data composite"
        } else {
            "a group dimension composite"
        };
        let Some(m) = composite.member(member) else {
            self.error(
                el,
                el.loc,
                format!(
                    "\"{}\" is used as {what} but has no \"{member}\"",
                    composite.name
                ),
                None,
            );
            return false;
        };
        let TypeKind::Encoded(e) = &m.kind else {
            self.error(
                el,
                el.loc,
                format!(
                    "\"{}.{member}\" must be an unsigned integer type",
                    composite.name
                ),
                None,
            );
            return false;
        };
        if !e.primitive.is_unsigned() || e.length != 1 {
            self.error(
                el,
                el.loc,
                format!(
                    "\"{}.{member}\" must be an unsigned integer type, not {}",
                    composite.name, e.primitive
                ),
                None,
            );
            return false;
        }
        if check_max && matches!(e.primitive, PrimitiveType::UInt32 | PrimitiveType::UInt64) {
            let limit = i128::from(i32::MAX);
            let max = e.max.as_ref().and_then(PrimitiveValue::as_i128);
            if !max.is_some_and(|m| m <= limit) {
                self.error(
                    el,
                    el.loc,
                    format!(
                        "\"{}.{member}\" is {} without a maxValue of at most {limit}",
                        composite.name, e.primitive
                    ),
                    Some(
                        "set maxValue (e.g. 1073741824) so that every language can hold the count",
                    ),
                );
                return false;
            }
        }
        true
    }

    fn data(&mut self, el: &Element) -> Option<Field> {
        let type_name = self.required(el, "type")?;
        let t = match self.resolve(&type_name) {
            None if self.declared.contains_key(&type_name) => None,
            None => {
                self.error(
                    el,
                    el.loc_of("type"),
                    format!("unknown type \"{type_name}\""),
                    None,
                );
                None
            }
            Some(t) if !matches!(t.kind, TypeKind::Composite(_)) => {
                self.error(
                    el,
                    el.loc_of("type"),
                    format!(
                        "data type \"{type_name}\" must be a composite with length and varData"
                    ),
                    None,
                );
                None
            }
            Some(t) => {
                let ok = self.check_counter(el, &t, "length", true);
                match t.member("varData") {
                    None => {
                        self.error(el, el.loc, format!("\"{type_name}\" is used as a var-data composite but has no \"varData\""), None);
                        None
                    }
                    Some(_) if !ok => None,
                    Some(_) => Some(var_data(t)),
                }
            }
        };
        self.field_common(
            el,
            FieldKind::Data(t.unwrap_or_else(|| placeholder(&type_name))),
        )
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

/// The names and values (with the first name to use each) of an enum's valid values or a set's
/// choices so far, so that repeats are found without comparing each with all before it.
#[derive(Default)]
struct Seen {
    names: HashSet<String>,
    values: HashMap<i128, String>,
}

/// A type with a name and nothing else declared: a primitive used directly, or a stand-in.
fn bare_type(name: &str, kind: TypeKind) -> TypeDef {
    TypeDef {
        name: name.to_owned(),
        referenced_name: None,
        description: None,
        semantic_type: None,
        since_version: 0,
        deprecated: 0,
        offset: None,
        kind,
        loc: Loc::default(),
    }
}

/// A var-data composite as `<data>` uses it: its varData is the data itself, whatever length it
/// declares (a `<field>` of the same composite keeps the declared length, as in the reference).
fn var_data(mut t: TypeDef) -> TypeDef {
    if let TypeKind::Composite(c) = &t.kind {
        let mut members = c.members.clone();
        for m in members.iter_mut().filter(|m| m.name == "varData") {
            if let TypeKind::Encoded(e) = &mut m.kind {
                Rc::make_mut(e).length = 0;
            }
        }
        // A new composite, so that its length is worked out again (variable now).
        t.kind = TypeKind::Composite(Rc::new(Composite::new(members)));
    }
    t
}

/// A stand-in for a type that failed to resolve, so that checking can go on.
fn placeholder(name: &str) -> TypeDef {
    bare_type(
        name,
        TypeKind::Composite(Rc::new(Composite::new(Vec::new()))),
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

/// Where a layout problem is, the element, and what is wrong.
type Problem = (Loc, String, String);

/// What a block's length field can express: a message's (the header's `blockLength`) or a
/// group entry's (its dimension's `blockLength`).
#[derive(Debug, Clone)]
struct BlockLimit {
    max: i64,
    /// Why, for diagnostics: "the message header's blockLength is uint16".
    why: String,
}

impl BlockLimit {
    /// The limit `composite`'s `blockLength` member sets: its primitive's range, within the
    /// IR's i32.
    fn of(composite: &TypeDef, owner: &str) -> BlockLimit {
        match composite.member("blockLength").map(|m| &m.kind) {
            Some(TypeKind::Encoded(e)) if e.length == 1 => {
                let p = e.primitive;
                let bits = 8 * p.size() as u32 - u32::from(!p.is_unsigned());
                let max = (1i128 << bits) - 1;
                let why = format!("{owner}'s blockLength is {p}");
                if max > i128::from(i32::MAX) {
                    BlockLimit {
                        why: format!("{why}, and the IR holds lengths as int32"),
                        ..BlockLimit::ir()
                    }
                } else {
                    BlockLimit {
                        max: max as i64,
                        why,
                    }
                }
            }
            _ => BlockLimit::ir(),
        }
    }

    fn of_group(dimension: &TypeDef) -> BlockLimit {
        BlockLimit::of(dimension, &format!("the dimension \"{}\"", dimension.name))
    }

    /// The limit of the IR alone, where there is no usable length field (already reported).
    fn ir() -> BlockLimit {
        BlockLimit {
            max: i64::from(i32::MAX),
            why: "the IR holds lengths as int32".to_owned(),
        }
    }
}

/// `v` as the IR's i32. Layout reports every length beyond `BlockLimit::max` (at most i32::MAX)
/// before it stores one, so this clamps only in a schema that already has an error.
fn to_i32(v: i64) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// Computes each field's offset and block length as the reference does, and returns the
/// block length of the fields before the first group or data. Offsets that go backwards,
/// group block lengths too small for their fields, and blocks longer than `limit` (or a
/// group's entries longer than its dimension's) are added to `problems`.
fn layout(
    fields: &mut [Field],
    block_length: i32,
    limit: &BlockLimit,
    problems: &mut Vec<Problem>,
) -> i64 {
    let mut variable = false;
    let mut offset: i64 = 0;
    let mut root_length: i64 = 0;
    let mut root_done = false;
    let mut too_long = false;
    for field in fields.iter_mut() {
        let label = format!("<field name=\"{}\">", field.name);
        if field.offset != 0 && i64::from(field.offset) < offset && !variable {
            problems.push((
                field.loc,
                label.clone(),
                format!(
                    "offset {} overlaps the field before it, which ends at {offset}",
                    field.offset
                ),
            ));
        }
        if field.offset != 0 {
            offset = i64::from(field.offset);
        } else if !matches!(field.kind, FieldKind::Plain(_)) && block_length != 0 {
            offset = i64::from(block_length);
        }
        let field_offset = offset;
        field.computed_offset = if variable {
            VARIABLE_LENGTH
        } else {
            to_i32(offset)
        };
        match &mut field.kind {
            FieldKind::Group {
                fields: group_fields,
                block_length: declared,
                dimension,
            } => {
                let entry_limit = BlockLimit::of_group(dimension);
                let computed = layout(group_fields, 0, &entry_limit, problems);
                if *declared != 0 && i64::from(*declared) < computed {
                    problems.push((
                        field.loc,
                        format!("<group name=\"{}\">", field.name),
                        format!("blockLength {declared} is too small for the group's fields, which need {computed}"),
                    ));
                }
                field.computed_block_length = to_i32(i64::from(*declared).max(computed));
                variable = true;
                root_done = true;
            }
            FieldKind::Data(_) => {
                variable = true;
                root_done = true;
            }
            FieldKind::Plain(t) => {
                let size = t.size();
                if field.presence != Presence::Constant && size != i64::from(VARIABLE_LENGTH) {
                    field.computed_block_length = to_i32(size);
                    if !variable {
                        offset += size;
                    }
                }
                if !root_done {
                    root_length = if field.presence == Presence::Constant {
                        field_offset
                    } else {
                        field_offset + size.max(0)
                    };
                    if root_length > limit.max && !too_long {
                        too_long = true;
                        problems.push((
                            field.loc,
                            label,
                            format!(
                                "the block is {root_length} bytes long with this field, more than the {} bytes it can have: {}",
                                limit.max, limit.why
                            ),
                        ));
                    }
                }
            }
        }
    }
    root_length
}

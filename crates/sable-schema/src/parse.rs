//! Element tree to [`Schema`], checking the rules of the standard and those the reference
//! implementation enforces as it goes. Every problem becomes a diagnostic; parsing carries on
//! past errors so that one run reports them all.

use std::collections::{HashMap, HashSet};

use sable_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};

use crate::diagnostic::{Diagnostic, Severity};
use crate::model::*;
use crate::names;
use crate::xml::{Element, Loc, Sources};

/// Parses a whole schema. Returns `None` only when nothing sensible can be built; the caller
/// decides from the diagnostics whether the schema is usable.
pub fn parse(root: &Element, sources: &Sources, diags: &mut Vec<Diagnostic>) -> Option<Schema> {
    let mut p = Parser {
        sources,
        diags,
        declared: HashMap::new(),
        resolved: HashMap::new(),
        schema_version: 0,
    };
    let schema = p.schema(root);
    crate::collisions::check(root, sources, diags);
    schema
}

struct Parser<'a> {
    sources: &'a Sources,
    diags: &'a mut Vec<Diagnostic>,
    /// Type elements declared in `<types>`, by name (the first declaration wins).
    declared: HashMap<String, &'a Element>,
    /// Types resolved so far; `None` for one that failed to resolve (reported once).
    resolved: HashMap<String, Option<TypeDef>>,
    schema_version: i32,
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
            self.warning(
                el,
                el.loc_of("name"),
                problem,
                Some("rename it, or expect generators to mangle it"),
            );
        }
    }

    fn schema(&mut self, root: &'a Element) -> Option<Schema> {
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
            for el in &types.children {
                if !matches!(el.name.as_str(), "type" | "composite" | "enum" | "set") {
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
        let mut names: Vec<(&String, &&Element)> = self.declared.iter().collect();
        names.sort_by_key(|(_, el)| (el.loc.file, el.loc.line, el.loc.column));
        let names: Vec<String> = names.into_iter().map(|(n, _)| n.clone()).collect();
        for name in &names {
            self.resolve(name, &mut Vec::new());
        }

        let header = match self.declared.get(&header_type).copied() {
            Some(el) => self
                .resolve(&header_type, &mut Vec::new())
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

        let mut messages = Vec::new();
        let mut ids: HashMap<i32, String> = HashMap::new();
        let mut message_elements = Vec::new();
        collect_messages(root, &mut message_elements);
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

    /// Resolves a type by name: a primitive, or a declared type. `stack` holds the composites
    /// being resolved, to catch cycles.
    fn resolve(&mut self, name: &str, stack: &mut Vec<String>) -> Option<TypeDef> {
        if let Some(t) = PrimitiveType::from_schema_name(name) {
            return Some(bare_type(
                name,
                TypeKind::Encoded(Encoded {
                    presence: Presence::Required,
                    primitive: t,
                    length: 1,
                    // Unlike a declared char type, a bare primitive has no character encoding.
                    character_encoding: None,
                    min: None,
                    max: None,
                    null: None,
                    constant: None,
                }),
            ));
        }
        if let Some(done) = self.resolved.get(name) {
            return done.clone();
        }
        let el = *self.declared.get(name)?;
        if stack.iter().any(|n| n == name) {
            let cycle = format!("{} -> {name}", stack.join(" -> "));
            self.error(
                el,
                el.loc,
                format!("types refer to each other in a cycle: {cycle}"),
                Some("a composite cannot contain itself, directly or through refs"),
            );
            self.resolved.insert(name.to_owned(), None);
            return None;
        }
        stack.push(name.to_owned());
        let t = self.type_element(el, stack);
        stack.pop();
        self.resolved.insert(name.to_owned(), t.clone());
        t
    }

    fn type_element(&mut self, el: &Element, stack: &mut Vec<String>) -> Option<TypeDef> {
        match el.name.as_str() {
            "type" => self.encoded(el),
            "composite" => self.composite(el, stack),
            "enum" => self.enumeration(el, stack),
            "set" => self.set(el, stack),
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
        let length = if variable {
            0
        } else {
            self.int(el, "length", 1, 0, i64::from(u32::MAX)) as u32
        };
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
            TypeKind::Encoded(Encoded {
                presence,
                primitive,
                length,
                character_encoding,
                min,
                max,
                null,
                constant,
            }),
        ))
    }

    fn composite(&mut self, el: &Element, stack: &mut Vec<String>) -> Option<TypeDef> {
        let name = self.required(el, "name")?;
        let mut members: Vec<TypeDef> = Vec::new();
        let mut offset: i32 = 0;
        for child in &el.children {
            let member = match child.name.as_str() {
                "type" => self.encoded(child),
                "composite" => self.composite(child, stack),
                "enum" => self.enumeration(child, stack),
                "set" => self.set(child, stack),
                "ref" => self.reference(child, stack),
                "group" | "data" => {
                    self.error(
                        child,
                        child.loc,
                        format!("<{}> is not allowed inside a composite", child.name),
                        Some("declare groups and data in a message"),
                    );
                    continue;
                }
                _ => continue,
            };
            let Some(member) = member else { continue };
            if members.iter().any(|m| m.name == member.name) {
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
            if let Some(o) = member.offset {
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
            let len = member.encoded_length();
            if len != VARIABLE_LENGTH {
                offset = offset.saturating_add(len);
            }
            members.push(member);
        }
        if el.children.is_empty() {
            self.error(
                el,
                el.loc,
                format!("composite \"{name}\" has no members"),
                None,
            );
        }
        // In a var-data composite, varData is the data itself, whatever length it declares.
        if members.iter().any(|m| m.name == "length") {
            for m in members.iter_mut().filter(|m| m.name == "varData") {
                if let TypeKind::Encoded(e) = &mut m.kind {
                    e.length = 0;
                }
            }
        }
        self.check_name(el, &name);
        Some(self.common(el, name, TypeKind::Composite(members)))
    }

    fn reference(&mut self, el: &Element, stack: &mut Vec<String>) -> Option<TypeDef> {
        let name = self.required(el, "name")?;
        let type_name = self.required(el, "type")?;
        let Some(mut t) = self.resolve(&type_name, stack) else {
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
        stack: &mut Vec<String>,
        allowed: &[PrimitiveType],
    ) -> Option<(PrimitiveType, Option<Encoded>)> {
        let text = self.required(el, "encodingType")?;
        let (primitive, encoded) = match PrimitiveType::from_schema_name(&text) {
            Some(t) => (t, None),
            None => match self.resolve(&text, stack) {
                Some(TypeDef {
                    kind: TypeKind::Encoded(e),
                    ..
                }) if e.length == 1 => (e.primitive, Some(e)),
                Some(_) => {
                    self.error(el, el.loc_of("encodingType"), format!("encodingType \"{text}\" must be a primitive type or a single-value <type>"), None);
                    return None;
                }
                None => {
                    self.error(
                        el,
                        el.loc_of("encodingType"),
                        format!("unknown encodingType \"{text}\""),
                        None,
                    );
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

    fn enumeration(&mut self, el: &Element, stack: &mut Vec<String>) -> Option<TypeDef> {
        use PrimitiveType::*;
        let name = self.required(el, "name")?;
        let (encoding, encoded) = self.encoding_type(
            el,
            stack,
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
            self.check_distinct(&name, child, &values, &item);
            values.push(item);
        }
        self.check_name(el, &name);
        Some(self.common(
            el,
            name,
            TypeKind::Enum(EnumDef {
                encoding,
                null_value,
                values,
            }),
        ))
    }

    fn set(&mut self, el: &Element, stack: &mut Vec<String>) -> Option<TypeDef> {
        use PrimitiveType::*;
        let name = self.required(el, "name")?;
        let (encoding, _) = self.encoding_type(el, stack, &[UInt8, UInt16, UInt32, UInt64])?;
        let bits = encoding.size() as u64 * 8;
        let mut choices: Vec<Item> = Vec::new();
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
            self.check_distinct(&name, child, &choices, &item);
            choices.push(item);
        }
        self.check_name(el, &name);
        Some(self.common(el, name, TypeKind::Set(SetDef { encoding, choices })))
    }

    /// Reports an enum's valid value or a set's choice whose name or value an earlier one of
    /// the same type already has.
    fn check_distinct(&mut self, owner: &str, child: &Element, earlier: &[Item], item: &Item) {
        let kind = &child.name;
        if earlier.iter().any(|o| o.name == item.name) {
            let message = format!("\"{owner}\" already has a {kind} named \"{}\"", item.name);
            self.error(child, child.loc_of("name"), message, None);
        } else if let Some(o) = earlier.iter().find(|o| o.value == item.value) {
            let message = format!("{kind} {} has the same value as {}", item.name, o.name);
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
        let block_length = self.int(el, "blockLength", 0, 0, i64::from(u16::MAX)) as i32;
        let since_version = self.since_version(el);
        let mut fields = self.fields(el);
        let mut problems = Vec::new();
        let computed = layout(&mut fields, block_length, &mut problems);
        for (loc, label, message) in problems {
            let d = self
                .sources
                .diagnostic(Severity::Error, loc, label, message, None);
            self.diags.push(d);
        }
        if block_length != 0 && block_length < computed {
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
            block_length: block_length.max(computed),
            semantic_type: Self::optional(el, "semanticType"),
            since_version,
            deprecated: self.version_attr(el, "deprecated"),
            description: Self::optional(el, "description"),
            fields,
        })
    }

    fn fields(&mut self, parent: &Element) -> Vec<Field> {
        let mut fields: Vec<Field> = Vec::new();
        let mut seen_group = false;
        let mut seen_data = false;
        let mut ids: HashSet<i32> = HashSet::new();
        let mut names: HashSet<String> = HashSet::new();
        for el in &parent.children {
            let field = match el.name.as_str() {
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
        let Some(t) = self.resolve(&type_name, &mut Vec::new()) else {
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
        match self.resolve(enum_name, &mut Vec::new()) {
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
        let dimension = match self.resolve(&dim_name, &mut Vec::new()) {
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
        let block_length = self.int(el, "blockLength", 0, 0, i64::from(u16::MAX)) as i32;
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
        let t = match self.resolve(&type_name, &mut Vec::new()) {
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
                    Some(_) => Some(t),
                }
            }
        };
        self.field_common(
            el,
            FieldKind::Data(t.unwrap_or_else(|| placeholder(&type_name))),
        )
    }
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

/// A stand-in for a type that failed to resolve, so that checking can go on.
fn placeholder(name: &str) -> TypeDef {
    bare_type(name, TypeKind::Composite(Vec::new()))
}

/// Messages anywhere under the root except inside `<types>` (XIncludes may wrap them).
pub(crate) fn collect_messages<'a>(el: &'a Element, out: &mut Vec<&'a Element>) {
    for child in &el.children {
        match child.name.as_str() {
            "message" => out.push(child),
            "types" => {}
            _ => collect_messages(child, out),
        }
    }
}

/// Where a layout problem is, the element, and what is wrong.
type Problem = (Loc, String, String);

/// Computes each field's offset and block length as the reference does, and returns the
/// block length of the fields before the first group or data. Offsets that go backwards and
/// group block lengths too small for their fields are added to `problems`.
fn layout(fields: &mut [Field], block_length: i32, problems: &mut Vec<Problem>) -> i32 {
    let mut variable = false;
    let mut offset: i32 = 0;
    let mut root_length = 0;
    let mut root_done = false;
    for field in fields.iter_mut() {
        let label = format!("<field name=\"{}\">", field.name);
        if field.offset != 0 && field.offset < offset && !variable {
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
            offset = field.offset;
        } else if !matches!(field.kind, FieldKind::Plain(_)) && block_length != 0 {
            offset = block_length;
        }
        field.computed_offset = if variable { VARIABLE_LENGTH } else { offset };
        match &mut field.kind {
            FieldKind::Group {
                fields: group_fields,
                block_length: declared,
                ..
            } => {
                let computed = layout(group_fields, 0, problems);
                if *declared != 0 && *declared < computed {
                    problems.push((
                        field.loc,
                        format!("<group name=\"{}\">", field.name),
                        format!("blockLength {declared} is too small for the group's fields, which need {computed}"),
                    ));
                }
                field.computed_block_length = (*declared).max(computed);
                variable = true;
                root_done = true;
            }
            FieldKind::Data(_) => {
                variable = true;
                root_done = true;
            }
            FieldKind::Plain(t) => {
                let size = t.encoded_length();
                if field.presence != Presence::Constant && size != VARIABLE_LENGTH {
                    field.computed_block_length = size;
                    if !variable {
                        offset = offset.saturating_add(size);
                    }
                }
                if !root_done {
                    root_length = if field.presence == Presence::Constant {
                        field.computed_offset
                    } else {
                        field.computed_offset.saturating_add(size.max(0))
                    };
                }
            }
        }
    }
    root_length
}

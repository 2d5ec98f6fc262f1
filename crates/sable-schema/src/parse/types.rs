//! Type definitions: `<type>`, `<composite>`, `<ref>`, `<enum>` and `<set>`, with their members,
//! valid values and choices.

use foldhash::{HashMap, HashSet};
use std::rc::Rc;

use sable_ir::{Presence, PrimitiveType, PrimitiveValue};

use super::{Parser, MAX_COMPOSITE_DEPTH, MAX_COMPOSITE_TOKENS};
use crate::model::*;
use crate::xml::{Element, Loc};

impl<'a> Parser<'a> {
    pub(super) fn type_element(&mut self, el: &Element) -> Option<TypeDef> {
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

    /// The value a `valueRef` ("Enum.Value") names, reporting a bad reference.
    pub(super) fn enum_value(&mut self, el: &Element, value_ref: &str) -> Option<PrimitiveValue> {
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
}

/// The names and values (with the first name to use each) of an enum's valid values or a set's
/// choices so far, so that repeats are found without comparing each with all before it.
#[derive(Default)]
pub(super) struct Seen {
    names: HashSet<String>,
    values: HashMap<i128, String>,
}

/// A type with a name and nothing else declared: a primitive used directly, or a stand-in.
pub(super) fn bare_type(name: &str, kind: TypeKind) -> TypeDef {
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
pub(super) fn var_data(mut t: TypeDef) -> TypeDef {
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
pub(super) fn placeholder(name: &str) -> TypeDef {
    bare_type(
        name,
        TypeKind::Composite(Rc::new(Composite::new(Vec::new()))),
    )
}

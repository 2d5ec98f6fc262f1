//! Messages and their fields, groups and var data.

use foldhash::HashSet;

use sable_ir::{Presence, PrimitiveType, PrimitiveValue};

use super::layout::{layout, to_i32, BlockLimit};
use super::types::{placeholder, var_data};
use super::{Parser, MAX_SCHEMA_TOKENS};
use crate::diagnostic::Severity;
use crate::model::*;
use crate::xml::Element;

impl<'a> Parser<'a> {
    pub(super) fn message(&mut self, el: &Element) -> Option<Message> {
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

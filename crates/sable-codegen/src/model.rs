//! A typed model of a schema, built from the IR's flat token lists: what every generator needs
//! (messages with their fields, groups and var data; composites, enums and sets by name), with
//! offsets, lengths and versions already worked out.

use sable_ir::{ByteOrder, Ir, Presence, PrimitiveType, PrimitiveValue, Signal, Token};

/// The whole schema.
#[derive(Debug, Clone)]
pub struct Schema {
    pub package: String,
    pub namespace: Option<String>,
    pub id: i32,
    pub version: i32,
    pub semantic_version: Option<String>,
    pub byte_order: ByteOrder,
    pub description: Option<String>,
    /// The message header composite (also listed in `types`).
    pub header: String,
    pub messages: Vec<Message>,
    /// Every composite, enum and set reached from the header or a message, by type name, in
    /// order of first use. Two uses of one name are one type (the first is kept).
    pub types: Vec<TypeDef>,
}

impl Schema {
    /// The type named `name`. Panics when there is none: the model only names types it holds.
    pub fn type_def(&self, name: &str) -> &TypeDef {
        self.types
            .iter()
            .find(|t| t.name() == name)
            .unwrap_or_else(|| panic!("no type {name} in the model"))
    }

    pub fn composite(&self, name: &str) -> &Composite {
        match self.type_def(name) {
            TypeDef::Composite(c) => c,
            other => panic!("{} is not a composite", other.name()),
        }
    }

    pub fn enum_type(&self, name: &str) -> &EnumType {
        match self.type_def(name) {
            TypeDef::Enum(e) => e,
            other => panic!("{} is not an enum", other.name()),
        }
    }

    pub fn set_type(&self, name: &str) -> &SetType {
        match self.type_def(name) {
            TypeDef::Set(s) => s,
            other => panic!("{} is not a set", other.name()),
        }
    }

    /// The message header composite.
    pub fn header_composite(&self) -> &Composite {
        self.composite(&self.header)
    }
}

/// A named type.
#[derive(Debug, Clone)]
pub enum TypeDef {
    Composite(Composite),
    Enum(EnumType),
    Set(SetType),
}

impl TypeDef {
    pub fn name(&self) -> &str {
        match self {
            TypeDef::Composite(c) => &c.name,
            TypeDef::Enum(e) => &e.name,
            TypeDef::Set(s) => &s.name,
        }
    }
}

/// A primitive value or fixed array (an `ENCODING` token).
#[derive(Debug, Clone, PartialEq)]
pub struct Primitive {
    pub primitive_type: PrimitiveType,
    /// Elements: 1 for a single value.
    pub length: usize,
    pub presence: Presence,
    pub byte_order: ByteOrder,
    pub null_value: PrimitiveValue,
    pub min_value: PrimitiveValue,
    pub max_value: PrimitiveValue,
    pub const_value: Option<PrimitiveValue>,
    pub character_encoding: Option<String>,
    /// The schema declares `minValue` or `maxValue` (encoders check values against them).
    pub range_declared: bool,
}

impl Primitive {
    fn from_token(token: &Token) -> Primitive {
        let e = &token.encoding;
        let primitive_type = e.primitive_type.unwrap_or(PrimitiveType::UInt8);
        let length = if token.encoded_length < 0 {
            // The varData member of a var-data composite: variable length.
            0
        } else if token.encoded_length > 0 {
            token.array_length().max(1) as usize
        } else if let Some(PrimitiveValue::Bytes { bytes, .. }) = &e.const_value {
            bytes.len().max(1)
        } else {
            1
        };
        Primitive {
            primitive_type,
            length,
            presence: e.presence,
            byte_order: e.byte_order,
            null_value: e
                .applicable_null_value()
                .unwrap_or(primitive_type.null_value()),
            min_value: e
                .applicable_min_value()
                .unwrap_or(primitive_type.min_value()),
            max_value: e
                .applicable_max_value()
                .unwrap_or(primitive_type.max_value()),
            const_value: e.const_value.clone(),
            character_encoding: e.character_encoding.clone(),
            range_declared: e.min_value.is_some() || e.max_value.is_some(),
        }
    }

    pub fn is_array(&self) -> bool {
        self.length > 1
    }

    pub fn is_constant(&self) -> bool {
        self.presence == Presence::Constant
    }

    /// Encoded size in bytes (0 for a constant).
    pub fn size(&self) -> usize {
        if self.is_constant() {
            0
        } else {
            self.length * self.primitive_type.size()
        }
    }
}

/// What a field or composite member holds.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeRef {
    Primitive(Box<Primitive>),
    Enum(String),
    Set(String),
    Composite(String),
}

/// A member of a composite.
#[derive(Debug, Clone)]
pub struct Member {
    pub name: String,
    pub description: Option<String>,
    pub offset: usize,
    pub since_version: i32,
    pub deprecated: i32,
    pub type_ref: TypeRef,
    /// For an enum member: the presence of its encoding (optional enums decode null).
    pub presence: Presence,
}

#[derive(Debug, Clone)]
pub struct Composite {
    pub name: String,
    pub description: Option<String>,
    /// Bytes; -1 when the composite holds var-length data (a var-data composite).
    pub encoded_length: i32,
    pub members: Vec<Member>,
    pub semantic_type: Option<String>,
}

impl Composite {
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.name == name)
    }

    /// The primitive of member `name`, if it has that name and is a primitive.
    pub fn primitive(&self, name: &str) -> Option<(&Member, &Primitive)> {
        let m = self.member(name)?;
        match &m.type_ref {
            TypeRef::Primitive(p) => Some((m, p)),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ValidValue {
    pub name: String,
    pub description: Option<String>,
    pub value: PrimitiveValue,
    pub since_version: i32,
    pub deprecated: i32,
}

#[derive(Debug, Clone)]
pub struct EnumType {
    pub name: String,
    pub description: Option<String>,
    pub encoding_type: PrimitiveType,
    pub byte_order: ByteOrder,
    pub null_value: PrimitiveValue,
    pub values: Vec<ValidValue>,
}

#[derive(Debug, Clone)]
pub struct Choice {
    pub name: String,
    pub description: Option<String>,
    pub bit: u32,
    pub since_version: i32,
    pub deprecated: i32,
}

#[derive(Debug, Clone)]
pub struct SetType {
    pub name: String,
    pub description: Option<String>,
    pub encoding_type: PrimitiveType,
    pub byte_order: ByteOrder,
    pub choices: Vec<Choice>,
}

/// Metadata a field carries besides its type.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldMeta {
    pub semantic_type: Option<String>,
    pub epoch: Option<String>,
    pub time_unit: Option<String>,
    pub character_encoding: Option<String>,
}

/// A fixed-size field of a message or group block.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub id: i32,
    pub description: Option<String>,
    pub since_version: i32,
    pub deprecated: i32,
    pub offset: usize,
    /// Bytes on the wire (0 for a constant).
    pub size: usize,
    /// The field's presence: `Constant` for a constant field (a constant enum's value is in
    /// `const_value`), `Optional` for an optional one.
    pub presence: Presence,
    pub type_ref: TypeRef,
    /// A constant enum field's value: the valid value's name.
    pub const_enum_value: Option<String>,
    pub meta: FieldMeta,
}

impl Field {
    pub fn is_constant(&self) -> bool {
        self.presence == Presence::Constant
            || matches!(&self.type_ref, TypeRef::Primitive(p) if p.is_constant())
    }

    /// The offset just past the field: it is on the wire only when a block is at least this long.
    pub fn end(&self) -> usize {
        self.offset + self.size
    }
}

/// A repeating group.
#[derive(Debug, Clone)]
pub struct Group {
    pub name: String,
    pub id: i32,
    pub description: Option<String>,
    pub since_version: i32,
    pub deprecated: i32,
    pub block_length: usize,
    /// The dimension composite (`blockLength`, `numInGroup`).
    pub dimension: String,
    pub body: Body,
}

/// Variable-length data.
#[derive(Debug, Clone)]
pub struct VarData {
    pub name: String,
    pub id: i32,
    pub description: Option<String>,
    pub since_version: i32,
    pub deprecated: i32,
    /// The var-data composite.
    pub composite: String,
    /// The `length` member.
    pub length: Primitive,
    /// The `varData` member's element type (uint8, char, ...).
    pub data_type: PrimitiveType,
    pub character_encoding: Option<String>,
    pub semantic_type: Option<String>,
}

impl VarData {
    /// Bytes of the length prefix.
    pub fn length_size(&self) -> usize {
        self.length.primitive_type.size()
    }

    /// Whether the data is text: its encoding has a character encoding.
    pub fn is_text(&self) -> bool {
        self.character_encoding.is_some()
    }
}

/// What a message or a group entry holds, in schema order: fields, then groups, then var data.
#[derive(Debug, Clone, Default)]
pub struct Body {
    pub fields: Vec<Field>,
    pub groups: Vec<Group>,
    pub var_data: Vec<VarData>,
}

impl Body {
    /// The bytes of block the fields need at the schema's version.
    pub fn min_block(&self) -> usize {
        self.fields
            .iter()
            .filter(|f| !f.is_constant())
            .map(Field::end)
            .max()
            .unwrap_or(0)
    }
}

#[derive(Debug, Clone)]
pub struct Message {
    pub name: String,
    pub id: i32,
    pub description: Option<String>,
    pub since_version: i32,
    pub deprecated: i32,
    pub block_length: usize,
    pub semantic_type: Option<String>,
    pub body: Body,
}

/// Builds the model from the IR.
/// A fixed field of a block, or a member of a composite.
pub struct Slot<'a> {
    pub name: &'a str,
    pub description: Option<&'a str>,
    pub id: Option<i32>,
    pub since: i32,
    pub offset: usize,
    pub type_ref: &'a TypeRef,
    pub optional: bool,
    pub constant: bool,
    /// A constant enum's value name.
    pub const_enum: Option<&'a str>,
}

impl<'a> Slot<'a> {
    pub fn of_field(f: &'a Field) -> Slot<'a> {
        Slot {
            name: &f.name,
            description: f.description.as_deref(),
            id: Some(f.id),
            since: f.since_version,
            offset: f.offset,
            type_ref: &f.type_ref,
            optional: f.presence == Presence::Optional,
            constant: f.is_constant(),
            const_enum: f.const_enum_value.as_deref(),
        }
    }

    pub fn of_member(m: &'a Member) -> Slot<'a> {
        let constant = matches!(&m.type_ref, TypeRef::Primitive(p) if p.is_constant())
            || m.presence == Presence::Constant;
        let optional = match &m.type_ref {
            TypeRef::Primitive(p) => p.presence == Presence::Optional,
            _ => m.presence == Presence::Optional,
        };
        Slot {
            name: &m.name,
            description: m.description.as_deref(),
            id: None,
            since: m.since_version,
            offset: m.offset,
            type_ref: &m.type_ref,
            optional,
            constant,
            const_enum: None,
        }
    }
}

pub fn build(ir: &Ir) -> Schema {
    let mut types = Vec::new();
    let header = read_composite(&ir.header_tokens, &mut types);
    let messages = ir
        .messages
        .iter()
        .map(|tokens| {
            let first = &tokens[0];
            let inner = &tokens[1..tokens.len() - 1];
            Message {
                name: first.name.clone(),
                id: first.id,
                description: first.description.clone(),
                since_version: first.version,
                deprecated: first.deprecated,
                block_length: first.encoded_length.max(0) as usize,
                semantic_type: first.encoding.semantic_type.clone(),
                body: read_body(inner, &mut types),
            }
        })
        .collect();
    Schema {
        package: ir.package_name.clone(),
        namespace: ir.namespace_name.clone().filter(|n| !n.is_empty()),
        id: ir.id,
        version: ir.version,
        semantic_version: ir.semantic_version.clone(),
        byte_order: ir.byte_order,
        description: ir.description.clone(),
        header,
        messages,
        types,
    }
}

fn span(tokens: &[Token], i: usize) -> usize {
    tokens[i].component_token_count.max(1) as usize
}

fn add_type(types: &mut Vec<TypeDef>, def: TypeDef) {
    if !types.iter().any(|t| t.name() == def.name()) {
        types.push(def);
    }
}

/// The name a type is known by: the referenced type's when reached through `<ref>`.
fn type_name(token: &Token) -> String {
    token
        .referenced_name
        .clone()
        .unwrap_or_else(|| token.name.clone())
}

/// Reads a `BEGIN_COMPOSITE` ... `END_COMPOSITE` span, records it (and its nested types), and
/// returns its type name.
fn read_composite(tokens: &[Token], types: &mut Vec<TypeDef>) -> String {
    let begin = &tokens[0];
    let name = type_name(begin);
    let mut members = Vec::new();
    let mut i = 1;
    while i < tokens.len() - 1 {
        let t = &tokens[i];
        let n = span(tokens, i);
        let (type_ref, presence) = read_type(&tokens[i..i + n], types);
        members.push(Member {
            name: t.name.clone(),
            description: t.description.clone(),
            offset: t.offset.max(0) as usize,
            since_version: t.version,
            deprecated: t.deprecated,
            type_ref,
            presence,
        });
        i += n;
    }
    add_type(
        types,
        TypeDef::Composite(Composite {
            name: name.clone(),
            description: begin.description.clone(),
            encoded_length: begin.encoded_length,
            members,
            semantic_type: begin.encoding.semantic_type.clone(),
        }),
    );
    name
}

/// Reads one type span (an ENCODING token, or a composite, enum or set span).
fn read_type(tokens: &[Token], types: &mut Vec<TypeDef>) -> (TypeRef, Presence) {
    let t = &tokens[0];
    match t.signal {
        Signal::Encoding => (
            TypeRef::Primitive(Box::new(Primitive::from_token(t))),
            t.encoding.presence,
        ),
        Signal::BeginComposite => (
            TypeRef::Composite(read_composite(tokens, types)),
            t.encoding.presence,
        ),
        Signal::BeginEnum => {
            let name = type_name(t);
            let encoding_type = t.encoding.primitive_type.unwrap_or(PrimitiveType::UInt8);
            let values = tokens[1..tokens.len() - 1]
                .iter()
                .filter(|v| v.signal == Signal::ValidValue)
                .map(|v| ValidValue {
                    name: v.name.clone(),
                    description: v.description.clone(),
                    value: v
                        .encoding
                        .const_value
                        .clone()
                        .unwrap_or(PrimitiveValue::Int(0)),
                    since_version: v.version,
                    deprecated: v.deprecated,
                })
                .collect();
            add_type(
                types,
                TypeDef::Enum(EnumType {
                    name: name.clone(),
                    description: t.description.clone(),
                    encoding_type,
                    byte_order: t.encoding.byte_order,
                    null_value: t
                        .encoding
                        .applicable_null_value()
                        .unwrap_or(encoding_type.null_value()),
                    values,
                }),
            );
            (TypeRef::Enum(name), t.encoding.presence)
        }
        Signal::BeginSet => {
            let name = type_name(t);
            let encoding_type = t.encoding.primitive_type.unwrap_or(PrimitiveType::UInt8);
            let choices = tokens[1..tokens.len() - 1]
                .iter()
                .filter(|c| c.signal == Signal::Choice)
                .map(|c| Choice {
                    name: c.name.clone(),
                    description: c.description.clone(),
                    bit: match &c.encoding.const_value {
                        Some(v) => v.as_i128().unwrap_or(0) as u32,
                        None => 0,
                    },
                    since_version: c.version,
                    deprecated: c.deprecated,
                })
                .collect();
            add_type(
                types,
                TypeDef::Set(SetType {
                    name: name.clone(),
                    description: t.description.clone(),
                    encoding_type,
                    byte_order: tokens
                        .get(1)
                        .map_or(t.encoding.byte_order, |c| c.encoding.byte_order),
                    choices,
                }),
            );
            (TypeRef::Set(name), t.encoding.presence)
        }
        other => panic!("unexpected {other} token as a type"),
    }
}

/// Reads the fields, groups and var data between a message's or group's begin and end tokens.
fn read_body(tokens: &[Token], types: &mut Vec<TypeDef>) -> Body {
    let mut body = Body::default();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let n = span(tokens, i);
        let inner = &tokens[i + 1..i + n - 1];
        match t.signal {
            Signal::BeginField => {
                let (type_ref, _) = read_type(inner, types);
                let type_token = &inner[0];
                let const_enum_value = match (&type_ref, &t.encoding.const_value) {
                    (TypeRef::Enum(_), Some(v)) if t.encoding.presence == Presence::Constant => {
                        let text = v.to_string();
                        Some(text.rsplit('.').next().unwrap_or(&text).to_owned())
                    }
                    _ => None,
                };
                let presence = match &type_ref {
                    TypeRef::Primitive(p) if p.is_constant() => Presence::Constant,
                    TypeRef::Primitive(p) => p.presence,
                    TypeRef::Enum(_) | TypeRef::Set(_) => {
                        match (t.encoding.presence, type_token.encoding.presence) {
                            (Presence::Constant, _) | (_, Presence::Constant) => Presence::Constant,
                            (Presence::Optional, _) | (_, Presence::Optional) => Presence::Optional,
                            _ => Presence::Required,
                        }
                    }
                    TypeRef::Composite(_) => t.encoding.presence,
                };
                let size = if presence == Presence::Constant {
                    0
                } else {
                    t.encoded_length.max(0) as usize
                };
                body.fields.push(Field {
                    name: t.name.clone(),
                    id: t.id,
                    description: t.description.clone(),
                    since_version: t.version,
                    deprecated: t.deprecated,
                    offset: t.offset.max(0) as usize,
                    size,
                    presence,
                    type_ref,
                    const_enum_value,
                    meta: FieldMeta {
                        semantic_type: type_token
                            .encoding
                            .semantic_type
                            .clone()
                            .or_else(|| t.encoding.semantic_type.clone()),
                        epoch: t
                            .encoding
                            .epoch
                            .clone()
                            .or_else(|| type_token.encoding.epoch.clone()),
                        time_unit: t
                            .encoding
                            .time_unit
                            .clone()
                            .or_else(|| type_token.encoding.time_unit.clone()),
                        character_encoding: type_token.encoding.character_encoding.clone(),
                    },
                });
            }
            Signal::BeginGroup => {
                let dim_len = span(inner, 0);
                let dimension = read_composite(&inner[..dim_len], types);
                body.groups.push(Group {
                    name: t.name.clone(),
                    id: t.id,
                    description: t.description.clone(),
                    since_version: t.version,
                    deprecated: t.deprecated,
                    block_length: t.encoded_length.max(0) as usize,
                    dimension,
                    body: read_body(&inner[dim_len..], types),
                });
            }
            Signal::BeginVarData => {
                let composite = read_composite(inner, types);
                let length_token = inner
                    .iter()
                    .find(|m| m.signal == Signal::Encoding && m.name == "length")
                    .unwrap_or(&inner[1]);
                let data_token = inner
                    .iter()
                    .find(|m| m.signal == Signal::Encoding && m.name == "varData")
                    .unwrap_or(&inner[inner.len() - 2]);
                body.var_data.push(VarData {
                    name: t.name.clone(),
                    id: t.id,
                    description: t.description.clone(),
                    since_version: t.version,
                    deprecated: t.deprecated,
                    composite,
                    length: Primitive::from_token(length_token),
                    data_type: data_token
                        .encoding
                        .primitive_type
                        .unwrap_or(PrimitiveType::UInt8),
                    character_encoding: data_token.encoding.character_encoding.clone(),
                    semantic_type: data_token
                        .encoding
                        .semantic_type
                        .clone()
                        .or_else(|| t.encoding.semantic_type.clone()),
                });
            }
            other => panic!("unexpected {other} token in a message body"),
        }
        i += n;
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;
    use sable_ir::Encoding;

    fn token(signal: Signal, name: &str, length: i32, offset: i32) -> Token {
        Token {
            encoded_length: length,
            offset,
            ..Token::new(signal, name)
        }
    }

    fn encoding(name: &str, t: PrimitiveType, length: i32, offset: i32) -> Token {
        Token {
            encoding: Encoding {
                primitive_type: Some(t),
                ..Encoding::default()
            },
            ..token(Signal::Encoding, name, length, offset)
        }
    }

    #[test]
    fn builds_messages_fields_and_header() {
        let mut header = vec![
            token(Signal::BeginComposite, "messageHeader", 4, 0),
            encoding("blockLength", PrimitiveType::UInt16, 2, 0),
            encoding("templateId", PrimitiveType::UInt16, 2, 2),
            token(Signal::EndComposite, "messageHeader", 4, 0),
        ];
        sable_ir::update_component_token_counts(&mut header);
        let mut message = vec![
            token(Signal::BeginMessage, "M", 12, 0),
            token(Signal::BeginField, "a", 8, 0),
            encoding("int64", PrimitiveType::Int64, 8, 0),
            token(Signal::EndField, "a", 8, 0),
            token(Signal::BeginField, "b", 4, 8),
            encoding("codes", PrimitiveType::Char, 4, 8),
            token(Signal::EndField, "b", 4, 8),
            token(Signal::EndMessage, "M", 12, 0),
        ];
        sable_ir::update_component_token_counts(&mut message);
        let ir = Ir {
            header_tokens: header,
            messages: vec![message],
            ..Ir::default()
        };
        let schema = build(&ir);
        assert_eq!(schema.header, "messageHeader");
        assert_eq!(schema.header_composite().members.len(), 2);
        let m = &schema.messages[0];
        assert_eq!(m.block_length, 12);
        assert_eq!(m.body.fields.len(), 2);
        let b = &m.body.fields[1];
        assert_eq!((b.offset, b.size, b.end()), (8, 4, 12));
        match &b.type_ref {
            TypeRef::Primitive(p) => {
                assert_eq!(p.length, 4);
                assert!(p.is_array());
            }
            other => panic!("{other:?}"),
        }
    }
}

//! The IR of a schema as a tree of the parts schema evolution speaks of: messages, their
//! fields, groups and var data, and the types of each. Each part carries its path, the key of
//! its declaration in [`sable_schema::Locations`].

use sable_ir::{ByteOrder, Ir, Presence, PrimitiveType, PrimitiveValue, Signal, Token};

#[derive(Debug, Clone)]
pub struct Schema {
    pub id: i32,
    pub version: i32,
    pub byte_order: ByteOrder,
    pub header: Type,
    pub messages: Vec<Message>,
}

#[derive(Debug, Clone)]
pub struct Message {
    pub name: String,
    pub id: i32,
    pub block_length: i32,
    pub path: String,
    pub body: Body,
}

/// What a message or a group entry holds: its block's fields, then groups, then var data.
#[derive(Debug, Clone, Default)]
pub struct Body {
    pub fields: Vec<Field>,
    pub groups: Vec<Group>,
    pub data: Vec<Data>,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub id: i32,
    pub offset: i32,
    /// Bytes it takes in the block: 0 for a constant.
    pub length: i32,
    pub since: i32,
    pub path: String,
    pub ty: Type,
}

#[derive(Debug, Clone)]
pub struct Group {
    pub name: String,
    pub id: i32,
    pub since: i32,
    pub path: String,
    pub dimension: Type,
    pub body: Body,
}

#[derive(Debug, Clone)]
pub struct Data {
    pub name: String,
    pub id: i32,
    pub since: i32,
    pub path: String,
    /// The composite of `length` and `varData`.
    pub ty: Type,
}

/// A type as it is laid out: what one token (or one `BEGIN_x`...`END_x` span) of the IR says.
#[derive(Debug, Clone)]
pub struct Type {
    pub name: String,
    pub path: String,
    pub offset: i32,
    /// Bytes it takes; -1 for variable length.
    pub length: i32,
    pub since: i32,
    pub kind: Kind,
}

#[derive(Debug, Clone)]
pub enum Kind {
    Encoded {
        primitive: PrimitiveType,
        presence: Presence,
        null: Option<PrimitiveValue>,
        constant: Option<PrimitiveValue>,
        charset: Option<String>,
    },
    Composite(Vec<Type>),
    Enum {
        primitive: PrimitiveType,
        presence: Presence,
        null: Option<PrimitiveValue>,
        items: Vec<Item>,
    },
    Set {
        primitive: PrimitiveType,
        items: Vec<Item>,
    },
}

/// An enum's valid value or a set's choice (its bit number).
#[derive(Debug, Clone)]
pub struct Item {
    pub name: String,
    pub value: PrimitiveValue,
    pub path: String,
}

impl Type {
    /// Whether generated code has a class (struct, enum) of this type's name: composites, enums
    /// and sets. A simple type's fields are read as its primitive, whatever its name.
    pub fn is_generated_class(&self) -> bool {
        !matches!(self.kind, Kind::Encoded { .. })
    }
}

impl Schema {
    /// The tree of `ir`. The IR is well formed (compiled, or validated when read from `.sbeir`);
    /// spans that run past the end are cut short rather than trusted.
    pub fn of(ir: &Ir) -> Schema {
        Schema {
            id: ir.id,
            version: ir.version,
            byte_order: ir.byte_order,
            header: type_of(&ir.header_tokens, "type:"),
            messages: ir
                .messages
                .iter()
                .filter_map(|tokens| {
                    let begin = tokens.first()?;
                    let path = format!("message:{}", begin.name);
                    Some(Message {
                        name: begin.name.clone(),
                        id: begin.id,
                        block_length: begin.encoded_length,
                        body: body(inner(tokens, 0), &path),
                        path,
                    })
                })
                .collect(),
        }
    }
}

/// The tokens strictly inside the `BEGIN_x` at `at` and its `END_x`.
fn inner(tokens: &[Token], at: usize) -> &[Token] {
    let span = span(tokens, at);
    tokens
        .get(at + 1..at + span.saturating_sub(1))
        .unwrap_or(&[])
}

/// How many tokens the element at `at` spans (at least one, never past the end).
fn span(tokens: &[Token], at: usize) -> usize {
    let n = tokens.get(at).map_or(1, |t| t.component_token_count.max(1)) as usize;
    n.min(tokens.len().saturating_sub(at)).max(1)
}

fn body(tokens: &[Token], parent: &str) -> Body {
    let mut found = Body::default();
    let mut at = 0;
    while let Some(t) = tokens.get(at) {
        let path = format!("{parent}/{}", t.name);
        match t.signal {
            Signal::BeginField => found.fields.push(Field {
                name: t.name.clone(),
                id: t.id,
                offset: t.offset,
                length: t.encoded_length,
                since: t.version,
                ty: type_of(inner(tokens, at), "type:"),
                path,
            }),
            Signal::BeginGroup => {
                let content = inner(tokens, at);
                let dimension_span = span(content, 0);
                found.groups.push(Group {
                    name: t.name.clone(),
                    id: t.id,
                    since: t.version,
                    dimension: type_of(content, "type:"),
                    body: body(content.get(dimension_span..).unwrap_or(&[]), &path),
                    path,
                })
            }
            Signal::BeginVarData => found.data.push(Data {
                name: t.name.clone(),
                id: t.id,
                since: t.version,
                ty: type_of(inner(tokens, at), "type:"),
                path,
            }),
            _ => {}
        }
        at += span(tokens, at);
    }
    found
}

/// The type whose tokens start `tokens` (a lone `ENCODING`, or a `BEGIN_x`...`END_x` span),
/// declared at `prefix` + its name.
fn type_of(tokens: &[Token], prefix: &str) -> Type {
    let Some(t) = tokens.first() else {
        return Type {
            name: String::new(),
            path: prefix.to_owned(),
            offset: 0,
            length: 0,
            since: 0,
            kind: Kind::Composite(Vec::new()),
        };
    };
    let path = format!("{prefix}{}", t.name);
    let primitive = t.encoding.primitive_type.unwrap_or(PrimitiveType::UInt8);
    let content = inner(tokens, 0);
    let items = |signal: Signal| -> Vec<Item> {
        content
            .iter()
            .filter(|c| c.signal == signal)
            .map(|c| Item {
                name: c.name.clone(),
                value: c
                    .encoding
                    .const_value
                    .clone()
                    .unwrap_or(PrimitiveValue::Int(0)),
                path: format!("{path}/{}", c.name),
            })
            .collect()
    };
    let kind = match t.signal {
        Signal::BeginComposite => {
            let mut members = Vec::new();
            let mut at = 0;
            let member_prefix = format!("{path}/");
            while at < content.len() {
                members.push(type_of(&content[at..], &member_prefix));
                at += span(content, at);
            }
            Kind::Composite(members)
        }
        Signal::BeginEnum => Kind::Enum {
            primitive,
            presence: t.encoding.presence,
            null: t.encoding.applicable_null_value(),
            items: items(Signal::ValidValue),
        },
        Signal::BeginSet => Kind::Set {
            primitive,
            items: items(Signal::Choice),
        },
        _ => Kind::Encoded {
            primitive,
            presence: t.encoding.presence,
            null: t.encoding.applicable_null_value(),
            constant: t.encoding.const_value.clone(),
            charset: t.encoding.character_encoding.clone(),
        },
    };
    Type {
        name: t.name.clone(),
        path,
        offset: t.offset,
        length: t.encoded_length,
        since: t.version,
        kind,
    }
}

impl Type {
    pub fn presence(&self) -> Presence {
        match &self.kind {
            Kind::Encoded { presence, .. } | Kind::Enum { presence, .. } => *presence,
            Kind::Composite(_) | Kind::Set { .. } => Presence::Required,
        }
    }

    /// What the type is, in a few words (`uint32[4]`, `enum BooleanType (uint8)`).
    pub fn describe(&self) -> String {
        match &self.kind {
            Kind::Encoded { primitive, .. } => {
                let n = if self.length > 0 {
                    self.length / primitive.size() as i32
                } else {
                    1
                };
                if n > 1 || self.length < 0 {
                    let n = if self.length < 0 {
                        String::new()
                    } else {
                        n.to_string()
                    };
                    format!("{primitive}[{n}]")
                } else {
                    primitive.to_string()
                }
            }
            Kind::Composite(_) => format!("composite {} ({} bytes)", self.name, self.length),
            Kind::Enum { primitive, .. } => format!("enum {} ({primitive})", self.name),
            Kind::Set { primitive, .. } => format!("set {} ({primitive})", self.name),
        }
    }
}

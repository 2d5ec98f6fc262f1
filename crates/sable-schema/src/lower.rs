//! [`Schema`] to IR tokens, laid out as the reference implementation lays them out.

use sable_ir::{
    update_component_token_counts, ByteOrder, Encoding, Ir, Presence, PrimitiveType,
    PrimitiveValue, Signal, Token,
};

use crate::model::*;

pub fn lower(schema: &Schema) -> Ir {
    let lowering = Lowering {
        byte_order: schema.byte_order,
    };
    let mut header_tokens = Vec::new();
    lowering.composite(&schema.header, 0, Context::header(), &mut header_tokens);
    update_component_token_counts(&mut header_tokens);
    let messages = schema
        .messages
        .iter()
        .map(|m| {
            let mut tokens = Vec::new();
            lowering.message(m, &mut tokens);
            update_component_token_counts(&mut tokens);
            tokens
        })
        .collect();
    Ir {
        package_name: schema.package.clone(),
        namespace_name: None,
        id: schema.id,
        version: schema.version,
        description: schema.description.clone(),
        semantic_version: schema.semantic_version.clone(),
        byte_order: schema.byte_order,
        header_tokens,
        messages,
    }
}

struct Lowering {
    byte_order: ByteOrder,
}

/// What a type token inherits from where it is used.
#[derive(Clone, Copy)]
struct Context<'a> {
    /// The field using the type, for a type used directly by a field.
    field: Option<&'a Field>,
    /// The version of the field or composite the type sits in: a member is never older.
    version: i32,
    /// Members of composites carry no semantic type of their own, as in the reference.
    member: bool,
}

impl<'a> Context<'a> {
    fn of(field: &'a Field) -> Context<'a> {
        Context {
            field: Some(field),
            version: field.since_version,
            member: false,
        }
    }

    fn header() -> Context<'a> {
        Context {
            field: None,
            version: 0,
            member: false,
        }
    }
}

/// The type's semantic type, else the field's.
fn semantic_type(t: Option<&TypeDef>, field: Option<&Field>) -> Option<String> {
    t.and_then(|t| t.semantic_type.clone())
        .or_else(|| field.and_then(|f| f.semantic_type.clone()))
}

impl Lowering {
    fn message(&self, m: &Message, out: &mut Vec<Token>) {
        let begin = Token {
            description: m.description.clone(),
            id: m.id,
            version: m.since_version,
            deprecated: m.deprecated,
            encoded_length: m.block_length,
            encoding: Encoding {
                semantic_type: m.semantic_type.clone(),
                ..Encoding::default()
            },
            ..Token::new(Signal::BeginMessage, m.name.clone())
        };
        let end = Token {
            signal: Signal::EndMessage,
            ..begin.clone()
        };
        out.push(begin);
        self.fields(&m.fields, out);
        out.push(end);
    }

    fn fields(&self, fields: &[Field], out: &mut Vec<Token>) {
        for field in fields {
            match &field.kind {
                FieldKind::Group {
                    dimension, fields, ..
                } => {
                    let (begin, end) =
                        self.field_tokens(field, Signal::BeginGroup, Signal::EndGroup, 0);
                    out.push(begin);
                    self.composite(dimension, 0, Context::of(field), out);
                    self.fields(fields, out);
                    out.push(end);
                }
                FieldKind::Data(t) => {
                    let (begin, end) =
                        self.field_tokens(field, Signal::BeginVarData, Signal::EndVarData, 0);
                    out.push(begin);
                    self.composite(t, field.computed_offset, Context::of(field), out);
                    out.push(end);
                }
                FieldKind::Plain(t) => {
                    let (begin, end) = self.field_tokens(
                        field,
                        Signal::BeginField,
                        Signal::EndField,
                        t.since_version,
                    );
                    out.push(begin);
                    self.typed(t, field.computed_offset, Context::of(field), out);
                    out.push(end);
                }
            }
        }
    }

    fn field_tokens(
        &self,
        field: &Field,
        begin: Signal,
        end: Signal,
        type_since_version: i32,
    ) -> (Token, Token) {
        let mut encoding = Encoding {
            presence: field.presence,
            epoch: field.epoch.clone(),
            time_unit: field.time_unit.clone(),
            semantic_type: semantic_type(None, Some(field)),
            ..Encoding::default()
        };
        if field.presence == Presence::Constant {
            if let Some(value_ref) = &field.value_ref {
                encoding.const_value = Some(PrimitiveValue::Bytes {
                    bytes: value_ref.as_bytes().to_vec(),
                    character_encoding: "UTF-8".to_owned(),
                });
                encoding.primitive_type = Some(PrimitiveType::Char);
            }
        }
        let token = Token {
            description: field.description.clone(),
            id: field.id,
            version: field.since_version.max(type_since_version),
            deprecated: field.deprecated,
            encoded_length: field.computed_block_length,
            offset: field.computed_offset,
            encoding,
            ..Token::new(begin, field.name.clone())
        };
        let end = Token {
            signal: end,
            ..token.clone()
        };
        (token, end)
    }

    fn typed(&self, t: &TypeDef, offset: i32, cx: Context, out: &mut Vec<Token>) {
        match &t.kind {
            TypeKind::Encoded(e) => self.encoded(t, e, offset, cx, out),
            TypeKind::Composite(_) => self.composite(t, offset, cx, out),
            TypeKind::Enum(e) => self.enumeration(t, e, offset, cx, out),
            TypeKind::Set(s) => self.set(t, s, offset, cx, out),
        }
    }

    /// A token for a type, before its signal-specific parts.
    fn type_token(&self, signal: Signal, t: &TypeDef, offset: i32, cx: Context) -> Token {
        Token {
            referenced_name: t.referenced_name.clone(),
            description: t.description.clone(),
            version: t.since_version.max(cx.version),
            deprecated: t.deprecated,
            encoded_length: t.encoded_length(),
            offset,
            encoding: Encoding {
                // Composite and set tokens keep the default byte order, as in the reference.
                byte_order: if matches!(signal, Signal::BeginComposite | Signal::BeginSet) {
                    ByteOrder::default()
                } else {
                    self.byte_order
                },
                // Encoded members of composites carry no semantic type, as in the reference.
                semantic_type: if cx.member && signal == Signal::Encoding {
                    None
                } else {
                    semantic_type(Some(t), cx.field)
                },
                ..Encoding::default()
            },
            ..Token::new(signal, t.name.clone())
        }
    }

    fn encoded(&self, t: &TypeDef, e: &Encoded, offset: i32, cx: Context, out: &mut Vec<Token>) {
        let mut token = self.type_token(Signal::Encoding, t, offset, cx);
        let field = cx.field;
        let enc = &mut token.encoding;
        enc.primitive_type = Some(e.primitive);
        enc.character_encoding = e.character_encoding.clone();
        if let Some(f) = field {
            enc.epoch = f.epoch.clone();
            enc.time_unit = f.time_unit.clone();
        }
        // An optional field makes its required type optional.
        enc.presence = match field {
            Some(f) if f.presence == Presence::Optional && e.presence == Presence::Required => {
                Presence::Optional
            }
            _ => e.presence,
        };
        // A constant field over a non-constant type takes its value from its valueRef.
        let mut constant = e.constant.clone();
        if let Some(f) =
            field.filter(|f| f.presence == Presence::Constant && e.presence != Presence::Constant)
        {
            enc.presence = Presence::Constant;
            constant = f.value_ref_value.clone();
        }
        match enc.presence {
            Presence::Required => {
                enc.min_value = e.min.clone();
                enc.max_value = e.max.clone();
            }
            Presence::Optional => {
                enc.min_value = e.min.clone();
                enc.max_value = e.max.clone();
                enc.null_value = e.null.clone();
            }
            Presence::Constant => {
                token.encoded_length = 0;
                token.encoding.const_value = constant;
            }
        }
        out.push(token);
    }

    fn composite(&self, t: &TypeDef, offset: i32, cx: Context, out: &mut Vec<Token>) {
        let begin = self.type_token(Signal::BeginComposite, t, offset, cx);

        let end = Token {
            signal: Signal::EndComposite,
            ..begin.clone()
        };
        let begin_version = begin.version;
        out.push(begin);
        let member_cx = Context {
            field: None,
            version: begin_version,
            member: true,
        };
        let mut member_offset = 0;
        if let TypeKind::Composite(c) = &t.kind {
            for m in &c.members {
                if let Some(o) = m.offset {
                    member_offset = o;
                }
                self.typed(m, member_offset, member_cx, out);
                // Parsing refuses composites longer than i32::MAX, so this cannot overflow.
                member_offset += m.encoded_length();
            }
        }
        out.push(end);
    }

    fn enumeration(
        &self,
        t: &TypeDef,
        e: &EnumDef,
        offset: i32,
        cx: Context,
        out: &mut Vec<Token>,
    ) {
        let mut begin = self.type_token(Signal::BeginEnum, t, offset, cx);
        begin.encoding.primitive_type = Some(e.encoding);
        begin.encoding.null_value = Some(e.null_value.clone());
        let end = Token {
            signal: Signal::EndEnum,
            ..begin.clone()
        };
        out.push(begin);
        for v in &e.values {
            out.push(self.item(Signal::ValidValue, v, e.encoding));
        }
        out.push(end);
    }

    fn set(&self, t: &TypeDef, s: &SetDef, offset: i32, cx: Context, out: &mut Vec<Token>) {
        let mut begin = self.type_token(Signal::BeginSet, t, offset, cx);
        begin.encoding.primitive_type = Some(s.encoding);
        let end = Token {
            signal: Signal::EndSet,
            ..begin.clone()
        };
        out.push(begin);
        for c in &s.choices {
            out.push(self.item(Signal::Choice, c, s.encoding));
        }
        out.push(end);
    }

    fn item(&self, signal: Signal, item: &Item, encoding: PrimitiveType) -> Token {
        Token {
            description: item.description.clone(),
            version: item.since_version,
            deprecated: item.deprecated,
            encoding: Encoding {
                primitive_type: Some(encoding),
                byte_order: self.byte_order,
                const_value: Some(item.value.clone()),
                ..Encoding::default()
            },
            ..Token::new(signal, item.name.clone())
        }
    }
}

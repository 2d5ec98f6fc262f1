//! Plans: each message's token list turned once into the shape the writer walks.

use sable_ir::{PrimitiveType, PrimitiveValue, Signal, Token};

use super::error::Error;
use super::tokens::{is_optional, primitive_of, signal_is, value_as_i128};

/// One message: its name and id, its block length, and its body.
#[derive(Debug, Clone)]
pub(super) struct MessagePlan {
    pub name: String,
    pub template_id: i32,
    pub block_length: i32,
    pub body: Block,
}

/// A block (a message's root or a group entry) and what follows it.
#[derive(Debug, Clone)]
pub(super) struct Block {
    pub length: usize,
    pub fields: Vec<Field>,
    pub groups: Vec<Group>,
    pub var_data: Vec<VarData>,
}

impl Block {
    /// Whether the block has an element named `key`.
    pub fn has(&self, key: &str) -> bool {
        self.fields.iter().any(|f| f.name == key)
            || self.groups.iter().any(|g| g.name == key)
            || self.var_data.iter().any(|v| v.name == key)
    }
}

/// A fixed field of a block.
#[derive(Debug, Clone)]
pub(super) struct Field {
    pub name: String,
    pub offset: usize,
    /// Whether `null` (or leaving it out) is accepted: optional, or newer than version 0.
    pub nullable: bool,
    pub ty: Type,
}

/// A field's or composite member's type.
#[derive(Debug, Clone)]
pub(super) enum Type {
    Prim(Prim),
    Enum(Enum),
    Set(Set),
    Composite(Composite),
}

impl Type {
    /// Bytes it takes in its block or composite (0 for constants).
    pub fn size(&self) -> usize {
        match self {
            Type::Prim(p) if p.constant.is_some() => 0,
            Type::Prim(p) => p.ptype.size() * p.length,
            Type::Enum(e) if e.constant.is_some() => 0,
            Type::Enum(e) => e.ptype.size(),
            Type::Set(s) => s.ptype.size(),
            Type::Composite(c) => c.length,
        }
    }

    /// Whether it is a constant (takes no space; may be omitted).
    pub fn is_constant(&self) -> bool {
        match self {
            Type::Prim(p) => p.constant.is_some(),
            Type::Enum(e) => e.constant.is_some(),
            Type::Set(_) => false,
            Type::Composite(c) => c.members.iter().all(|m| m.ty.is_constant()),
        }
    }
}

/// A primitive value or fixed array.
#[derive(Debug, Clone)]
pub(super) struct Prim {
    pub ptype: PrimitiveType,
    /// Elements (1 for a scalar).
    pub length: usize,
    pub min: Option<PrimitiveValue>,
    pub max: Option<PrimitiveValue>,
    pub null: PrimitiveValue,
    pub character_encoding: Option<String>,
    pub constant: Option<PrimitiveValue>,
}

impl Prim {
    fn from_token(t: &Token, field_constant: Option<&PrimitiveValue>) -> Result<Prim, Error> {
        let ptype = primitive_of(t)?;
        let constant = if t.is_constant() {
            Some(
                t.encoding
                    .const_value
                    .clone()
                    .or(field_constant.cloned())
                    .ok_or_else(|| Error::new(format!("constant '{}' has no value", t.name)))?,
            )
        } else {
            field_constant.cloned()
        };
        let length = if constant.is_some() {
            match &constant {
                Some(PrimitiveValue::Bytes { bytes, .. }) => bytes.len(),
                _ => 1,
            }
        } else {
            let len = usize::try_from(t.encoded_length)
                .map_err(|_| Error::new(format!("'{}' has a variable length", t.name)))?;
            if len % ptype.size() != 0 {
                return Err(Error::new(format!(
                    "'{}' has a length of {len}, not a whole number of {ptype}",
                    t.name
                )));
            }
            len / ptype.size()
        };
        Ok(Prim {
            ptype,
            length,
            min: t.encoding.min_value.clone(),
            max: t.encoding.max_value.clone(),
            null: t
                .encoding
                .applicable_null_value()
                .unwrap_or_else(|| ptype.null_value()),
            character_encoding: t.encoding.character_encoding.clone(),
            constant,
        })
    }

    /// The type as error messages name it: `uint16`, `char[6]`.
    pub fn type_name(&self) -> String {
        if self.length == 1 {
            self.ptype.to_string()
        } else {
            format!("{}[{}]", self.ptype, self.length)
        }
    }
}

/// An enum.
#[derive(Debug, Clone)]
pub(super) struct Enum {
    pub name: String,
    pub ptype: PrimitiveType,
    pub values: Vec<(String, i128)>,
    pub null: i128,
    /// For a constant field: the valid value's name.
    pub constant: Option<String>,
}

/// A set (bitset).
#[derive(Debug, Clone)]
pub(super) struct Set {
    pub name: String,
    pub ptype: PrimitiveType,
    pub choices: Vec<(String, u32)>,
}

/// A composite.
#[derive(Debug, Clone)]
pub(super) struct Composite {
    pub name: String,
    pub length: usize,
    pub members: Vec<Member>,
}

impl Composite {
    /// The member named `name` with its offset, when it is a primitive.
    pub fn prim(&self, name: &str) -> Option<(usize, &Prim)> {
        self.members.iter().find_map(|m| match &m.ty {
            Type::Prim(p) if m.name == name => Some((m.offset, p)),
            _ => None,
        })
    }
}

/// A composite's member.
#[derive(Debug, Clone)]
pub(super) struct Member {
    pub name: String,
    pub offset: usize,
    pub nullable: bool,
    pub ty: Type,
}

/// A repeating group.
#[derive(Debug, Clone)]
pub(super) struct Group {
    pub name: String,
    pub nullable: bool,
    pub dimension: Composite,
    pub body: Block,
}

/// Var data.
#[derive(Debug, Clone)]
pub(super) struct VarData {
    pub name: String,
    pub nullable: bool,
    pub length_offset: usize,
    pub length: Prim,
    /// Offset of the data from the start of the var-data composite.
    pub data_offset: usize,
    /// The character encoding, when the data is text.
    pub character_encoding: Option<String>,
}

/// The token at `i`, or an error saying the list ended early.
fn at(tokens: &[Token], i: usize) -> Result<&Token, Error> {
    tokens
        .get(i)
        .ok_or_else(|| Error::new("token list ends inside an element"))
}

/// The index just past the element that starts at `i`.
fn after(tokens: &[Token], i: usize) -> Result<usize, Error> {
    let t = at(tokens, i)?;
    let count = usize::try_from(t.component_token_count)
        .ok()
        .filter(|c| *c >= 1 && i + c <= tokens.len())
        .ok_or_else(|| Error::new(format!("'{}' has a bad component token count", t.name)))?;
    let end = &tokens[i + count - 1];
    if t.signal.end().is_some_and(|e| e != end.signal) {
        return Err(Error::new(format!(
            "'{}' is not closed where it should be",
            t.name
        )));
    }
    Ok(i + count)
}

fn offset_of(t: &Token) -> Result<usize, Error> {
    usize::try_from(t.offset).map_err(|_| Error::new(format!("'{}' has no fixed offset", t.name)))
}

/// Plans the message header composite.
pub(super) fn header(tokens: &[Token]) -> Result<Composite, Error> {
    if !signal_is(tokens.first(), Signal::BeginComposite) {
        return Err(Error::new("the message header is not a composite"));
    }
    match ty(tokens, 0, false, None)? {
        (Type::Composite(c), _) => Ok(c),
        _ => Err(Error::new("the message header is not a composite")),
    }
}

/// Plans one message.
pub(super) fn message(tokens: &[Token]) -> Result<MessagePlan, Error> {
    let first = at(tokens, 0)?;
    if first.signal != Signal::BeginMessage {
        return Err(Error::new(
            "a message's tokens do not start with BEGIN_MESSAGE",
        ));
    }
    let end = after(tokens, 0)?;
    let body = block(tokens, 1, end - 1, first)?;
    Ok(MessagePlan {
        name: first.name.clone(),
        template_id: first.id,
        block_length: first.encoded_length,
        body,
    })
}

/// Plans the block whose elements are `tokens[start..end]`, owned by `owner` (message or group).
fn block(tokens: &[Token], start: usize, end: usize, owner: &Token) -> Result<Block, Error> {
    let length = usize::try_from(owner.encoded_length)
        .map_err(|_| Error::new(format!("'{}' has no block length", owner.name)))?;
    let mut b = Block {
        length,
        fields: Vec::new(),
        groups: Vec::new(),
        var_data: Vec::new(),
    };
    let mut i = start;
    while i < end {
        let t = at(tokens, i)?;
        let next = after(tokens, i)?;
        let nullable = is_optional(t) || t.version > 0;
        match t.signal {
            Signal::BeginField => {
                let field_constant = if t.is_constant() {
                    t.encoding.const_value.as_ref()
                } else {
                    None
                };
                let (ty, _) = ty(tokens, i + 1, nullable, field_constant)?;
                let offset = if ty.size() == 0 { 0 } else { offset_of(t)? };
                if offset + ty.size() > length {
                    return Err(Error::new(format!(
                        "field '{}' ends past its block's length of {length}",
                        t.name
                    )));
                }
                b.fields.push(Field {
                    name: t.name.clone(),
                    offset,
                    nullable,
                    ty,
                });
            }
            Signal::BeginGroup => {
                let dim_start = i + 1;
                let (dim, body_start) = match ty(tokens, dim_start, false, None)? {
                    (Type::Composite(c), n) => (c, n),
                    _ => {
                        return Err(Error::new(format!(
                            "group '{}' has no dimension composite",
                            t.name
                        )))
                    }
                };
                if dim.prim("blockLength").is_none() || dim.prim("numInGroup").is_none() {
                    return Err(Error::new(format!(
                        "group '{}': its dimension needs blockLength and numInGroup",
                        t.name
                    )));
                }
                let body = block(tokens, body_start, next - 1, t)?;
                b.groups.push(Group {
                    name: t.name.clone(),
                    nullable: t.version > 0,
                    dimension: dim,
                    body,
                });
            }
            Signal::BeginVarData => b.var_data.push(var_data(tokens, i, t)?),
            other => {
                return Err(Error::new(format!(
                    "unexpected {other} '{}' in a message or group",
                    t.name
                )))
            }
        }
        i = next;
    }
    Ok(b)
}

fn var_data(tokens: &[Token], i: usize, t: &Token) -> Result<VarData, Error> {
    let comp = at(tokens, i + 1)?;
    if comp.signal != Signal::BeginComposite {
        return Err(Error::new(format!(
            "var data '{}' has no composite",
            t.name
        )));
    }
    let comp_end = after(tokens, i + 1)? - 1;
    let mut length = None;
    let mut data = None;
    for m in tokens.get(i + 2..comp_end).unwrap_or(&[]) {
        if m.signal != Signal::Encoding {
            continue;
        }
        match m.name.as_str() {
            "length" => length = Some(m),
            "varData" => data = Some(m),
            _ => {}
        }
    }
    let (Some(length), Some(data)) = (length, data) else {
        return Err(Error::new(format!(
            "var data '{}' needs members length and varData",
            t.name
        )));
    };
    let length_offset = offset_of(length)?;
    let length_prim = Prim::from_token(length, None)?;
    if length_prim.ptype.is_float() || length_prim.length != 1 || length_prim.constant.is_some() {
        return Err(Error::new(format!(
            "var data '{}' has a length that is not an integer",
            t.name
        )));
    }
    let length_end = length_offset + length_prim.ptype.size();
    let data_offset = usize::try_from(data.offset).unwrap_or(length_end);
    if data_offset < length_end {
        return Err(Error::new(format!(
            "var data '{}' has its data before the end of its length",
            t.name
        )));
    }
    Ok(VarData {
        name: t.name.clone(),
        nullable: t.version > 0,
        length_offset,
        length: length_prim,
        data_offset,
        character_encoding: data.encoding.character_encoding.clone(),
    })
}

/// Plans the type whose tokens start at `i`; returns it and the index past it.
fn ty(
    tokens: &[Token],
    i: usize,
    nullable: bool,
    field_constant: Option<&PrimitiveValue>,
) -> Result<(Type, usize), Error> {
    let t = at(tokens, i)?;
    let next = after(tokens, i)?;
    let ty = match t.signal {
        Signal::Encoding => Type::Prim(Prim::from_token(t, field_constant)?),
        Signal::BeginEnum => {
            let ptype = primitive_of(t)?;
            let mut values = Vec::new();
            for v in tokens.get(i + 1..next - 1).unwrap_or(&[]) {
                if v.signal == Signal::ValidValue {
                    let n = v.encoding.const_value.as_ref().and_then(value_as_i128);
                    let n = n.ok_or_else(|| {
                        Error::new(format!("valid value '{}' has no integer value", v.name))
                    })?;
                    values.push((v.name.clone(), n));
                }
            }
            let null = t
                .encoding
                .applicable_null_value()
                .as_ref()
                .and_then(value_as_i128)
                .unwrap_or(0);
            let constant = match field_constant {
                None => None,
                Some(c) => {
                    let name = match c {
                        PrimitiveValue::Bytes { bytes, .. } => {
                            let text = String::from_utf8_lossy(bytes);
                            text.rsplit('.').next().unwrap_or_default().to_owned()
                        }
                        other => {
                            let n = value_as_i128(other);
                            values
                                .iter()
                                .find(|(_, v)| Some(*v) == n)
                                .map(|(name, _)| name.clone())
                                .unwrap_or_default()
                        }
                    };
                    if !values.iter().any(|(n, _)| *n == name) {
                        return Err(Error::new(format!(
                            "constant '{c}' is not a value of enum '{}'",
                            t.name
                        )));
                    }
                    Some(name)
                }
            };
            Type::Enum(Enum {
                name: t.referenced_name.clone().unwrap_or_else(|| t.name.clone()),
                ptype,
                values,
                null,
                constant,
            })
        }
        Signal::BeginSet => {
            let ptype = primitive_of(t)?;
            let mut choices = Vec::new();
            for c in tokens.get(i + 1..next - 1).unwrap_or(&[]) {
                if c.signal == Signal::Choice {
                    let bit = c
                        .encoding
                        .const_value
                        .as_ref()
                        .and_then(value_as_i128)
                        .and_then(|b| u32::try_from(b).ok())
                        .filter(|b| (*b as usize) < ptype.size() * 8)
                        .ok_or_else(|| {
                            Error::new(format!("choice '{}' has a bad bit number", c.name))
                        })?;
                    choices.push((c.name.clone(), bit));
                }
            }
            Type::Set(Set {
                name: t.referenced_name.clone().unwrap_or_else(|| t.name.clone()),
                ptype,
                choices,
            })
        }
        Signal::BeginComposite => {
            let length = usize::try_from(t.encoded_length)
                .map_err(|_| Error::new(format!("composite '{}' has a variable length", t.name)))?;
            let mut members = Vec::new();
            let mut k = i + 1;
            while k < next - 1 {
                let m = at(tokens, k)?;
                let member_nullable = nullable || is_optional(m);
                let (mty, after_member) = ty(tokens, k, member_nullable, None)?;
                let offset = if mty.size() == 0 { 0 } else { offset_of(m)? };
                if offset + mty.size() > length {
                    return Err(Error::new(format!(
                        "member '{}' ends past its composite's length of {length}",
                        m.name
                    )));
                }
                members.push(Member {
                    name: m.name.clone(),
                    offset,
                    nullable: member_nullable,
                    ty: mty,
                });
                k = after_member;
            }
            Type::Composite(Composite {
                name: t.referenced_name.clone().unwrap_or_else(|| t.name.clone()),
                length,
                members,
            })
        }
        other => {
            return Err(Error::new(format!(
                "unexpected {other} '{}' where a type should be",
                t.name
            )))
        }
    };
    Ok((ty, next))
}

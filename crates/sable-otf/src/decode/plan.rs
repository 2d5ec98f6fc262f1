//! The plan a [`Decoder`](super::Decoder) decodes by, compiled once per schema from the IR's
//! tokens: absolute offsets, primitive types, null values, enum and set tables, group and var
//! data layouts.

use sable_ir::{Presence, PrimitiveType, PrimitiveValue, Signal, Token};

use super::error::Error;
use super::value::{scalar, Charset, Choice, FieldInfo, Header, MessageInfo, Number, Value};
use crate::readable::Readable;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum NullCheck {
    None,
    Bits(u64),
    NaN,
}

#[derive(Debug)]
pub(crate) enum ConstValue {
    Null,
    Int(i64),
    UInt(u64),
    F32(f32),
    F64(f64),
    Text(Box<[u8]>, Charset),
    Enum(Box<str>, Number),
}

impl ConstValue {
    pub(crate) fn value(&self) -> Value<'_> {
        match self {
            ConstValue::Null => Value::Null,
            ConstValue::Int(v) => Value::Int(*v),
            ConstValue::UInt(v) => Value::UInt(*v),
            ConstValue::F32(v) => Value::F32(*v),
            ConstValue::F64(v) => Value::F64(*v),
            ConstValue::Text(b, c) => Value::Text {
                bytes: b,
                charset: *c,
            },
            ConstValue::Enum(n, r) => Value::Enum {
                name: Some(n),
                raw: *r,
            },
        }
    }
}

#[derive(Debug)]
pub(crate) enum Kind {
    Scalar {
        ty: PrimitiveType,
        null: NullCheck,
    },
    Text {
        len: usize,
        charset: Charset,
        null: NullCheck,
    },
    Bytes {
        len: usize,
    },
    Array {
        ty: PrimitiveType,
        len: usize,
    },
    Enum {
        ty: PrimitiveType,
        values: Box<[(u64, Box<str>)]>,
        null: NullCheck,
    },
    Set {
        ty: PrimitiveType,
        choices: Box<[Choice]>,
    },
    Composite(Box<[Node]>),
    Const(ConstValue),
}

#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) info: FieldInfo,
    pub(crate) since: i64,
    /// Offset from the start of the block.
    pub(crate) offset: usize,
    pub(crate) kind: Kind,
}

#[derive(Debug)]
pub(crate) struct GroupPlan {
    pub(crate) info: FieldInfo,
    pub(crate) since: i64,
    pub(crate) check: GroupCheck,
    pub(crate) block: Block,
}

/// What reading a group's dimensions takes.
#[derive(Debug, Clone)]
pub(crate) struct GroupCheck {
    pub(crate) name: Box<str>,
    pub(crate) block_length: (usize, PrimitiveType),
    pub(crate) count: (usize, PrimitiveType),
    pub(crate) header_size: usize,
    pub(crate) shape: Shape,
}

#[derive(Debug)]
pub(crate) struct DataPlan {
    pub(crate) info: FieldInfo,
    pub(crate) since: i64,
    pub(crate) check: DataCheck,
    pub(crate) charset: Option<Charset>,
}

/// What reading a var data's length takes.
#[derive(Debug, Clone)]
pub(crate) struct DataCheck {
    pub(crate) name: Box<str>,
    pub(crate) length: (usize, PrimitiveType),
    pub(crate) data_offset: usize,
}

#[derive(Debug)]
pub(crate) enum Tail {
    Group(GroupPlan),
    Data(DataPlan),
}

impl Tail {
    fn since(&self) -> i64 {
        match self {
            Tail::Group(g) => g.since,
            Tail::Data(d) => d.since,
        }
    }

    fn header_size(&self) -> usize {
        match self {
            Tail::Group(g) => g.check.header_size,
            Tail::Data(d) => d.check.data_offset,
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Block {
    pub(crate) fields: Vec<Node>,
    pub(crate) tail: Vec<Tail>,
    pub(crate) shape: Shape,
}

/// What a block's length and an entry's least size depend on, by version.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shape {
    /// (version, bytes the fields present at that version need), by ascending version, the
    /// bytes cumulative.
    pub(crate) needs: Vec<(i64, usize)>,
    /// Each group's and var data's version and header size.
    pub(crate) tails: Vec<(i64, usize)>,
    /// From this version on every field, group and var data is present: [`Shape::needs`] is
    /// `needs_all` and [`Shape::min_tail`] is `min_tail_all`.
    pub(crate) all_since: i64,
    pub(crate) needs_all: usize,
    pub(crate) min_tail_all: usize,
}

impl Shape {
    /// The bytes of block the fields present at `version` need.
    #[inline]
    pub(crate) fn needs(&self, version: i64) -> usize {
        if version >= self.all_since {
            return self.needs_all;
        }
        let mut n = 0;
        for &(v, len) in &self.needs {
            if v > version {
                break;
            }
            n = len;
        }
        n
    }

    /// The least bytes an entry of this block's shape takes beyond its block at `version`.
    #[inline]
    pub(crate) fn min_tail(&self, version: i64) -> usize {
        if version >= self.all_since {
            return self.min_tail_all;
        }
        self.tails
            .iter()
            .filter(|t| t.0 <= version)
            .map(|t| t.1)
            .sum()
    }
}

#[derive(Debug)]
pub(crate) struct MessagePlan {
    pub(crate) info: MessageInfo,
    pub(crate) block: Block,
}

#[derive(Debug)]
pub(crate) struct HeaderPlan {
    pub(crate) size: usize,
    pub(crate) fields: Vec<Node>,
    pub(crate) block_length: (usize, PrimitiveType),
    pub(crate) template_id: (usize, PrimitiveType),
    pub(crate) schema_id: Option<(usize, PrimitiveType)>,
    pub(crate) version: Option<(usize, PrimitiveType)>,
}

/// A message's header, read and checked ([`Decoder::start`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Start {
    /// Which message (an index in the decoder's messages).
    pub(crate) message: usize,
    /// The header's standard fields.
    pub(crate) header: Header,
    /// The root block's length.
    pub(crate) block_length: usize,
    /// The acting version.
    pub(crate) acting: i64,
}

fn primitive(token: &Token) -> Result<PrimitiveType, Error> {
    token
        .encoding
        .primitive_type
        .ok_or_else(|| Error::new(format!("'{}' has no primitive type", token.name)))
}

fn offset_of(token: &Token) -> Result<usize, Error> {
    usize::try_from(token.offset)
        .map_err(|_| Error::new(format!("'{}' has no fixed offset", token.name)))
}

fn mask(size: usize) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    }
}

/// The wire bits of `value` as a `ty` (zero-extended).
fn bits_of(value: &PrimitiveValue, ty: PrimitiveType) -> u64 {
    let m = mask(ty.size());
    match value {
        PrimitiveValue::Int(i) => match ty {
            PrimitiveType::Float => (*i as f32).to_bits().into(),
            PrimitiveType::Double => (*i as f64).to_bits(),
            _ => (*i as u64) & m,
        },
        PrimitiveValue::UInt(u) => match ty {
            PrimitiveType::Float => (*u as f32).to_bits().into(),
            PrimitiveType::Double => (*u as f64).to_bits(),
            _ => u & m,
        },
        PrimitiveValue::Float(f) => match ty {
            PrimitiveType::Float => (*f as f32).to_bits().into(),
            PrimitiveType::Double => f.to_bits(),
            _ => (*f as i64 as u64) & m,
        },
        PrimitiveValue::Bytes { bytes, .. } => bytes.first().map_or(0, |b| u64::from(*b)),
    }
}

fn null_check(token: &Token, ty: PrimitiveType) -> NullCheck {
    if token.encoding.presence != Presence::Optional {
        return NullCheck::None;
    }
    match token.encoding.applicable_null_value() {
        Some(PrimitiveValue::Float(f)) if f.is_nan() => NullCheck::NaN,
        Some(v) => NullCheck::Bits(bits_of(&v, ty)),
        None => NullCheck::None,
    }
}

fn const_of(value: Option<&PrimitiveValue>, ty: PrimitiveType, charset: Charset) -> ConstValue {
    let Some(value) = value else {
        return ConstValue::Null;
    };
    match (ty, value) {
        (PrimitiveType::Char, PrimitiveValue::Bytes { bytes, .. }) => {
            ConstValue::Text(bytes.clone().into(), charset)
        }
        (PrimitiveType::Char, v) => {
            ConstValue::Text(vec![bits_of(v, ty) as u8].into_boxed_slice(), charset)
        }
        (PrimitiveType::Float, v) => ConstValue::F32(f32::from_bits(bits_of(v, ty) as u32)),
        (PrimitiveType::Double, v) => ConstValue::F64(f64::from_bits(bits_of(v, ty))),
        (t, PrimitiveValue::Int(i)) if !t.is_unsigned() => ConstValue::Int(*i),
        (t, PrimitiveValue::UInt(u)) if !t.is_unsigned() => ConstValue::Int(*u as i64),
        (_, PrimitiveValue::Int(i)) => ConstValue::UInt(*i as u64),
        (_, PrimitiveValue::UInt(u)) => ConstValue::UInt(*u),
        (_, PrimitiveValue::Float(f)) => ConstValue::Int(*f as i64),
        (_, PrimitiveValue::Bytes { bytes, .. }) => {
            ConstValue::Text(bytes.clone().into(), Charset::Latin1)
        }
    }
}

pub(crate) fn number_of(bits: u64, ty: PrimitiveType) -> Number {
    match scalar(ty, bits) {
        Value::Int(i) => Number::Int(i),
        Value::UInt(u) => Number::UInt(u),
        _ => Number::Int(bits as i64),
    }
}

/// What a node of `kind` (its type token `t`, named by `named`) reads as beside its raw value:
/// an integer by its `epoch`, `timeUnit` and semantic type; a composite of exactly an integer
/// `mantissa` and an integer `exponent` (constant or not) as a decimal.
fn readable(kind: &Kind, t: &Token, named: &Token) -> Readable {
    let integer = |k: &Kind| match k {
        Kind::Scalar { ty, .. } => !matches!(
            ty,
            PrimitiveType::Char | PrimitiveType::Float | PrimitiveType::Double
        ),
        Kind::Const(c) => matches!(c, ConstValue::Int(_) | ConstValue::UInt(_)),
        _ => false,
    };
    match kind {
        Kind::Scalar { .. } if integer(kind) => {
            let semantic = t
                .encoding
                .semantic_type
                .as_deref()
                .or(named.encoding.semantic_type.as_deref());
            Readable::of_integer(
                t.encoding.epoch.as_deref(),
                t.encoding.time_unit.as_deref(),
                semantic,
            )
        }
        Kind::Composite(members) => {
            let named_integer = |name: &str| {
                members
                    .iter()
                    .any(|m| m.info.name() == name && integer(&m.kind))
            };
            if members.len() == 2 && named_integer("mantissa") && named_integer("exponent") {
                Readable::Decimal
            } else {
                Readable::Raw
            }
        }
        _ => Readable::Raw,
    }
}

pub(crate) struct Builder {
    pub(crate) depth: usize,
}

impl Builder {
    /// The node of a type whose tokens are `tokens` (starting at the type token), named by
    /// `named` (the field's token, or the member's own), at `offset` in the block.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn node(
        &mut self,
        tokens: &[Token],
        named: &Token,
        since: i64,
        offset: usize,
        constant_field: bool,
        needs: &mut Vec<(i64, usize)>,
        depth: usize,
    ) -> Result<Node, Error> {
        self.depth = self.depth.max(depth);
        let t = tokens
            .first()
            .ok_or_else(|| Error::new(format!("'{}' has no type", named.name)))?;
        let since = since.max(i64::from(t.version));
        let span = usize::try_from(t.component_token_count)
            .ok()
            .filter(|&n| n >= 1 && n <= tokens.len())
            .ok_or_else(|| Error::new(format!("'{}' has a bad token count", t.name)))?;
        let charset = Charset::of(t.encoding.character_encoding.as_deref());
        let mut constant = constant_field || t.encoding.presence == Presence::Constant;
        let kind = match t.signal {
            Signal::Encoding => {
                let ty = primitive(t)?;
                let len = usize::try_from(t.encoded_length).unwrap_or(0);
                if constant {
                    let value = if constant_field && t.encoding.presence != Presence::Constant {
                        named.encoding.const_value.as_ref()
                    } else {
                        t.encoding.const_value.as_ref()
                    };
                    Kind::Const(const_of(value, ty, charset))
                } else {
                    let n = len / ty.size();
                    match ty {
                        PrimitiveType::Char => Kind::Text {
                            len,
                            charset,
                            null: if n == 1 {
                                null_check(t, ty)
                            } else {
                                NullCheck::None
                            },
                        },
                        _ if n == 1 && len == ty.size() => Kind::Scalar {
                            ty,
                            null: null_check(t, ty),
                        },
                        PrimitiveType::Int8 | PrimitiveType::UInt8 => Kind::Bytes { len },
                        _ => Kind::Array {
                            ty,
                            len: n * ty.size(),
                        },
                    }
                }
            }
            Signal::BeginEnum => {
                let ty = primitive(t)?;
                let mut values: Vec<(u64, Box<str>)> = Vec::new();
                for v in &tokens[1..span.saturating_sub(1)] {
                    if v.signal == Signal::ValidValue {
                        let bits = v
                            .encoding
                            .const_value
                            .as_ref()
                            .map_or(0, |c| bits_of(c, ty));
                        values.push((bits, v.name.as_str().into()));
                    }
                }
                if constant {
                    // A constant field referring to one of the enum's values (`valueRef`).
                    let reference = match named.encoding.const_value.as_ref() {
                        Some(PrimitiveValue::Bytes { bytes, .. }) => {
                            String::from_utf8_lossy(bytes).into_owned()
                        }
                        _ => String::new(),
                    };
                    let name = reference.rsplit('.').next().unwrap_or("");
                    match values.iter().find(|(_, n)| &**n == name) {
                        Some((bits, n)) => {
                            Kind::Const(ConstValue::Enum(n.clone(), number_of(*bits, ty)))
                        }
                        None => Kind::Const(ConstValue::Null),
                    }
                } else {
                    // Every enum's null value is `null`, required or not: the IR does not
                    // keep whether an enum's encodingType is optional (iLink 3's
                    // `uInt8NULL`), so presence cannot tell them apart (docs/json.md).
                    let null = match t.encoding.applicable_null_value() {
                        Some(v) => NullCheck::Bits(bits_of(&v, ty)),
                        None => NullCheck::None,
                    };
                    Kind::Enum {
                        ty,
                        values: values.into(),
                        null,
                    }
                }
            }
            Signal::BeginSet => {
                let ty = primitive(t)?;
                let mut choices = Vec::new();
                for c in &tokens[1..span.saturating_sub(1)] {
                    if c.signal == Signal::Choice {
                        let bit = c
                            .encoding
                            .const_value
                            .as_ref()
                            .map_or(0, |v| bits_of(v, PrimitiveType::UInt64))
                            as u32;
                        let mut json = Vec::new();
                        crate::write::write_json_str(&mut json, c.name.as_bytes(), Charset::Utf8);
                        choices.push(Choice {
                            bit,
                            name: c.name.as_str().into(),
                            json: json.into(),
                        });
                    }
                }
                constant = false;
                Kind::Set {
                    ty,
                    choices: choices.into(),
                }
            }
            Signal::BeginComposite => {
                let mut members = Vec::new();
                let mut i = 1;
                while i + 1 < span {
                    let m = &tokens[i];
                    let n = usize::try_from(m.component_token_count)
                        .ok()
                        .filter(|&n| n >= 1 && i + n < span)
                        .ok_or_else(|| Error::new(format!("'{}' has a bad token count", m.name)))?;
                    let member_offset = if m.encoding.presence == Presence::Constant {
                        0
                    } else {
                        offset_of(m)?
                    };
                    let node = self.node(
                        &tokens[i..i + n],
                        m,
                        since,
                        offset.saturating_add(member_offset),
                        false,
                        needs,
                        depth + 1,
                    )?;
                    members.push(node);
                    i += n;
                }
                constant = false;
                Kind::Composite(members.into())
            }
            s => return Err(Error::new(format!("unexpected {s} token '{}'", t.name))),
        };
        let size = match &kind {
            Kind::Scalar { ty, .. } | Kind::Enum { ty, .. } | Kind::Set { ty, .. } => ty.size(),
            Kind::Text { len, .. } | Kind::Bytes { len } | Kind::Array { len, .. } => *len,
            Kind::Composite(_) | Kind::Const(_) => 0,
        };
        if size > 0 {
            needs.push((since, offset.saturating_add(size)));
        }
        let mut info = FieldInfo::new(named, constant);
        info.readable = readable(&kind, t, named);
        Ok(Node {
            info,
            since,
            offset,
            kind,
        })
    }

    /// The fields, groups and var data in `tokens` (the inside of a message or group).
    pub(crate) fn block(&mut self, tokens: &[Token], depth: usize) -> Result<Block, Error> {
        let mut block = Block::default();
        let mut needs = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            let n = usize::try_from(t.component_token_count)
                .ok()
                .filter(|&n| n >= 2 && i + n <= tokens.len())
                .ok_or_else(|| Error::new(format!("'{}' has a bad token count", t.name)))?;
            let inner = &tokens[i + 1..i + n - 1];
            let since = i64::from(t.version);
            match t.signal {
                Signal::BeginField => {
                    let constant = t.encoding.presence == Presence::Constant;
                    let offset = if constant { 0 } else { offset_of(t)? };
                    let node =
                        self.node(inner, t, since, offset, constant, &mut needs, depth + 1)?;
                    block.fields.push(node);
                }
                Signal::BeginGroup => {
                    let dim = inner
                        .first()
                        .filter(|d| d.signal == Signal::BeginComposite)
                        .ok_or_else(|| {
                            Error::new(format!("group '{}' has no dimension composite", t.name))
                        })?;
                    let dn = usize::try_from(dim.component_token_count)
                        .ok()
                        .filter(|&dn| dn >= 2 && dn <= inner.len())
                        .ok_or_else(|| {
                            Error::new(format!("'{}' has a bad token count", dim.name))
                        })?;
                    let members = &inner[1..dn - 1];
                    let find = |name: &str| -> Result<(usize, PrimitiveType), Error> {
                        let m = members
                            .iter()
                            .find(|m| m.name == name && m.signal == Signal::Encoding)
                            .ok_or_else(|| {
                                Error::new(format!("group '{}' has no {name} member", t.name))
                            })?;
                        Ok((offset_of(m)?, primitive(m)?))
                    };
                    let block_length = find("blockLength")?;
                    let count = find("numInGroup")?;
                    let header_size = usize::try_from(dim.encoded_length).map_err(|_| {
                        Error::new(format!(
                            "group '{}' has a variable-length dimension",
                            t.name
                        ))
                    })?;
                    if block_length.0 + block_length.1.size() > header_size
                        || count.0 + count.1.size() > header_size
                    {
                        return Err(Error::new(format!(
                            "group '{}' has a dimension member outside its composite",
                            t.name
                        )));
                    }
                    let inner_block = self.block(&inner[dn..], depth + 2)?;
                    block.tail.push(Tail::Group(GroupPlan {
                        info: FieldInfo::new(t, false),
                        since,
                        check: GroupCheck {
                            name: t.name.as_str().into(),
                            block_length,
                            count,
                            header_size,
                            shape: inner_block.shape.clone(),
                        },
                        block: inner_block,
                    }));
                }
                Signal::BeginVarData => {
                    let members = inner.get(1..inner.len().saturating_sub(1)).unwrap_or(&[]);
                    let length = members
                        .iter()
                        .find(|m| m.name == "length")
                        .or_else(|| members.first())
                        .ok_or_else(|| {
                            Error::new(format!("var data '{}' has no length member", t.name))
                        })?;
                    let data = members
                        .iter()
                        .find(|m| m.name == "varData")
                        .or_else(|| members.get(1))
                        .ok_or_else(|| {
                            Error::new(format!("var data '{}' has no varData member", t.name))
                        })?;
                    let length_at = (offset_of(length)?, primitive(length)?);
                    let data_offset = offset_of(data)?;
                    if length_at.0 + length_at.1.size() > data_offset {
                        return Err(Error::new(format!(
                            "var data '{}' has its length after its data",
                            t.name
                        )));
                    }
                    let charset = data
                        .encoding
                        .character_encoding
                        .as_deref()
                        .map(|c| Charset::of(Some(c)));
                    block.tail.push(Tail::Data(DataPlan {
                        info: FieldInfo::new(t, false),
                        since,
                        check: DataCheck {
                            name: t.name.as_str().into(),
                            length: length_at,
                            data_offset,
                        },
                        charset,
                    }));
                }
                s => return Err(Error::new(format!("unexpected {s} token '{}'", t.name))),
            }
            i += n;
        }
        needs.sort_unstable();
        let mut max = 0;
        let shape = &mut block.shape;
        for (v, len) in needs {
            max = max.max(len);
            match shape.needs.last_mut() {
                Some(last) if last.0 == v => last.1 = max,
                _ => shape.needs.push((v, max)),
            }
        }
        shape.tails = block
            .tail
            .iter()
            .map(|t| (t.since(), t.header_size()))
            .collect();
        shape.all_since = shape
            .needs
            .iter()
            .chain(&shape.tails)
            .map(|n| n.0)
            .max()
            .unwrap_or(i64::MIN);
        shape.needs_all = shape.needs.last().map_or(0, |n| n.1);
        shape.min_tail_all = shape.tails.iter().map(|t| t.1).sum();
        Ok(block)
    }
}

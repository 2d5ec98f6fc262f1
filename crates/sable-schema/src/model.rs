//! The parsed schema, before lowering to IR. Types are resolved: a field holds its type.

use std::rc::Rc;

use sable_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};

use crate::xml::Loc;

/// Encoded length of a variable-length type (the reference's `Token.VARIABLE_LENGTH`).
pub const VARIABLE_LENGTH: i32 = -1;

#[derive(Debug, Clone)]
pub struct Schema {
    pub package: String,
    pub id: i32,
    pub version: i32,
    pub semantic_version: Option<String>,
    pub description: Option<String>,
    pub byte_order: ByteOrder,
    pub header: TypeDef,
    pub messages: Vec<Message>,
    pub loc: Loc,
}

/// A named type: declared in `<types>`, a member of a composite, or a primitive used directly.
#[derive(Debug, Clone)]
pub struct TypeDef {
    pub name: String,
    /// The type's name when this one was reached through a `<ref>` (then `name` is the ref's).
    pub referenced_name: Option<String>,
    pub description: Option<String>,
    pub semantic_type: Option<String>,
    pub since_version: i32,
    pub deprecated: i32,
    /// The `offset` attribute, for composite members.
    pub offset: Option<i32>,
    pub kind: TypeKind,
    pub loc: Loc,
}

/// The parts of a type are shared, not copied, by every ref and field that uses them,
/// so that resolving and checking a schema takes time and memory in proportion to its text.
#[derive(Debug, Clone)]
pub enum TypeKind {
    Encoded(Rc<Encoded>),
    Composite(Rc<Composite>),
    Enum(Rc<EnumDef>),
    Set(Rc<SetDef>),
}

/// A composite's members, with what is known of them as a whole, computed once.
#[derive(Debug)]
pub struct Composite {
    pub members: Vec<TypeDef>,
    /// Bytes the composite takes, or [`VARIABLE_LENGTH`], in 64 bits (see [`TypeDef::size`]).
    pub size: i64,
    /// IR tokens the composite lowers to, nested composites, enums and sets included.
    pub tokens: usize,
    /// Composites nested in one another, this one included (1 when no member is a composite).
    pub depth: usize,
}

impl Composite {
    pub fn new(members: Vec<TypeDef>) -> Composite {
        let size = members
            .iter()
            .try_fold(0i64, |offset, m| {
                let len = m.size();
                (len != i64::from(VARIABLE_LENGTH))
                    .then(|| m.offset.map_or(offset, i64::from) + len)
            })
            .unwrap_or(i64::from(VARIABLE_LENGTH));
        Composite {
            size,
            tokens: members
                .iter()
                .fold(2usize, |n, m| n.saturating_add(m.tokens())),
            depth: 1 + members.iter().map(TypeDef::depth).max().unwrap_or(0),
            members,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Encoded {
    pub presence: Presence,
    pub primitive: PrimitiveType,
    /// Array length; 0 marks variable-length data.
    pub length: u32,
    pub character_encoding: Option<String>,
    pub min: Option<PrimitiveValue>,
    pub max: Option<PrimitiveValue>,
    pub null: Option<PrimitiveValue>,
    pub constant: Option<PrimitiveValue>,
}

#[derive(Debug, Clone)]
pub struct EnumDef {
    pub encoding: PrimitiveType,
    pub null_value: PrimitiveValue,
    pub values: Vec<Item>,
}

#[derive(Debug, Clone)]
pub struct SetDef {
    pub encoding: PrimitiveType,
    pub choices: Vec<Item>,
}

/// A `validValue` of an enum or a `choice` of a set.
#[derive(Debug, Clone)]
pub struct Item {
    pub name: String,
    pub value: PrimitiveValue,
    pub description: Option<String>,
    pub since_version: i32,
    pub deprecated: i32,
    pub loc: Loc,
}

impl TypeDef {
    /// Bytes the type takes in a block: 0 for constants, [`VARIABLE_LENGTH`] for var data.
    /// Parsing refuses types longer than `i32::MAX` (see [`TypeDef::size`]), so this fits.
    pub fn encoded_length(&self) -> i32 {
        i32::try_from(self.size()).unwrap_or(i32::MAX)
    }

    /// [`TypeDef::encoded_length`] in 64 bits, where the sizes of hostile schemas cannot
    /// overflow, so that parsing can report a type too long for the IR.
    pub fn size(&self) -> i64 {
        match &self.kind {
            TypeKind::Encoded(e) => {
                if e.presence == Presence::Constant {
                    0
                } else if e.length == 0 {
                    i64::from(VARIABLE_LENGTH)
                } else {
                    e.primitive.size() as i64 * i64::from(e.length)
                }
            }
            TypeKind::Composite(c) => c.size,
            TypeKind::Enum(e) => e.encoding.size() as i64,
            TypeKind::Set(s) => s.encoding.size() as i64,
        }
    }

    pub fn is_constant(&self) -> bool {
        matches!(&self.kind, TypeKind::Encoded(e) if e.presence == Presence::Constant)
    }

    pub fn member(&self, name: &str) -> Option<&TypeDef> {
        match &self.kind {
            TypeKind::Composite(c) => c.members.iter().find(|m| m.name == name),
            _ => None,
        }
    }

    /// IR tokens the type lowers to.
    pub fn tokens(&self) -> usize {
        match &self.kind {
            TypeKind::Encoded(_) => 1,
            TypeKind::Composite(c) => c.tokens,
            TypeKind::Enum(e) => 2 + e.values.len(),
            TypeKind::Set(s) => 2 + s.choices.len(),
        }
    }

    /// Composites nested in one another in the type: 0 for a type that is not a composite.
    pub fn depth(&self) -> usize {
        match &self.kind {
            TypeKind::Composite(c) => c.depth,
            _ => 0,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Message {
    pub name: String,
    pub id: i32,
    pub block_length: i32,
    pub semantic_type: Option<String>,
    pub since_version: i32,
    pub deprecated: i32,
    pub description: Option<String>,
    pub fields: Vec<Field>,
    pub loc: Loc,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub id: i32,
    pub kind: FieldKind,
    /// The `offset` attribute (0 when absent, as the reference reads it).
    pub offset: i32,
    pub presence: Presence,
    pub value_ref: Option<String>,
    /// The value `value_ref` names, as a value of the field's primitive type.
    pub value_ref_value: Option<PrimitiveValue>,
    pub since_version: i32,
    pub deprecated: i32,
    pub epoch: Option<String>,
    pub time_unit: Option<String>,
    pub semantic_type: Option<String>,
    pub description: Option<String>,
    /// Filled in by layout.
    pub computed_offset: i32,
    pub computed_block_length: i32,
    pub loc: Loc,
}

#[derive(Debug, Clone)]
pub enum FieldKind {
    /// Shared with the type's other uses.
    Plain(Rc<TypeDef>),
    Group {
        dimension: TypeDef,
        block_length: i32,
        fields: Vec<Field>,
    },
    Data(TypeDef),
}

//! Blocks read straight into their columns. Each block of a message (the root block, each
//! group's entry) is compiled once, when the tables are made, into operations that each read
//! one field at its offset and append it to its column's builder: no [`Value`] per field and no
//! visitor call per field. The decoder still walks the message (header, group dimensions, var
//! data, every bounds check) and hands each block's bytes to [`BlockReader::read`] through
//! `Visitor::block`; what is appended is what the field-by-field path (`Visit::field` and
//! `Columns::push`) appends, which the tests check on every conformance vector.

use sable_ir::PrimitiveType;
use sable_otf::decode::{Charset, Number, Value};

use sable_otf::layout::{BlockLayout, FieldLayout, FieldType, Form, Null};

use crate::columns::{rescale, Columns, Kind, Values};

/// A block's fields as operations, in field order (a composite's members after it).
#[derive(Debug)]
pub(crate) struct BlockReader {
    ops: Vec<Op>,
    /// A block of at least this many bytes holds every field...
    full_len: usize,
    /// ...present from this version on: such a block reads without a check per field.
    full_since: i64,
    /// How many children of the block's struct its fields are (its groups and var data
    /// follow them).
    pub(crate) fields: usize,
}

#[derive(Debug)]
struct Op {
    /// The column.
    node: usize,
    /// Where the field's bytes start and end in the block (`end` 0 for constants).
    off: usize,
    end: usize,
    /// The version it is present from.
    since: i64,
    kind: OpKind,
}

/// A decimal composite's member.
#[derive(Debug, Clone, Copy)]
enum Member {
    Constant {
        value: i64,
        since: i64,
    },
    Read {
        off: usize,
        end: usize,
        since: i64,
        size: u8,
        signed: bool,
        null: Null,
    },
}

/// A number's type on the wire and in its column (the same).
#[derive(Debug, Clone, Copy)]
enum Num {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
}

impl Num {
    fn of(primitive: PrimitiveType) -> Num {
        match primitive {
            PrimitiveType::Int8 => Num::I8,
            PrimitiveType::Int16 => Num::I16,
            PrimitiveType::Int32 => Num::I32,
            PrimitiveType::Int64 => Num::I64,
            PrimitiveType::UInt8 | PrimitiveType::Char => Num::U8,
            PrimitiveType::UInt16 => Num::U16,
            PrimitiveType::UInt32 => Num::U32,
            PrimitiveType::UInt64 => Num::U64,
            PrimitiveType::Float => Num::F32,
            PrimitiveType::Double => Num::F64,
        }
    }
}

#[derive(Debug)]
enum OpKind {
    /// A number appended as it is (the column's type is the field's): integers and floats.
    Raw { num: Num, null: Null },
    /// An integer moved to another epoch (timestamps, dates).
    Shift {
        size: u8,
        signed: bool,
        null: Null,
        shift: i128,
    },
    /// A mantissa and exponent composite as a decimal (`end` spans both members). With `same`,
    /// the exponent is a constant equal to minus the scale: the value is the mantissa, when
    /// less than `limit` (`10^precision`) in magnitude.
    Decimal {
        mantissa: Member,
        exponent: Member,
        scale: i8,
        precision: u8,
        same: bool,
        limit: i128,
    },
    /// An enum's dictionary key.
    Enum {
        primitive: PrimitiveType,
        size: u8,
        null: Null,
    },
    /// A set's bits.
    Set { size: u8 },
    /// A `char` or `char` array.
    Text { charset: Charset, null: Null },
    /// An `int8` or `uint8` array.
    Bytes,
    /// Another fixed array: `len` elements of `size` bytes into the list's `child`.
    Array { child: usize, len: usize, size: u8 },
    /// A constant.
    Constant(Constant),
    /// A composite (not a decimal) begins: its `members` operations follow.
    Struct { members: usize },
}

/// A constant's value, owned.
#[derive(Debug)]
enum Constant {
    Null,
    Int(i64),
    UInt(u64),
    F32(f32),
    F64(f64),
    Text(Box<[u8]>, Charset),
    Enum(Box<str>, Number),
}

impl Constant {
    fn of(value: &Value<'_>) -> Constant {
        match *value {
            Value::Int(i) => Constant::Int(i),
            Value::UInt(u) => Constant::UInt(u),
            Value::F32(x) => Constant::F32(x),
            Value::F64(x) => Constant::F64(x),
            Value::Text { bytes, charset } => Constant::Text(bytes.into(), charset),
            Value::Enum {
                name: Some(name),
                raw,
            } => Constant::Enum(name.into(), raw),
            _ => Constant::Null,
        }
    }

    fn value(&self) -> Value<'_> {
        match self {
            Constant::Null => Value::Null,
            Constant::Int(i) => Value::Int(*i),
            Constant::UInt(u) => Value::UInt(*u),
            Constant::F32(x) => Value::F32(*x),
            Constant::F64(x) => Value::F64(*x),
            Constant::Text(bytes, charset) => Value::Text {
                bytes,
                charset: *charset,
            },
            Constant::Enum(name, raw) => Value::Enum {
                name: Some(name),
                raw: *raw,
            },
        }
    }
}

fn signed(primitive: PrimitiveType) -> bool {
    matches!(
        primitive,
        PrimitiveType::Int8
            | PrimitiveType::Int16
            | PrimitiveType::Int32
            | PrimitiveType::Int64
            | PrimitiveType::Char
    )
}

impl BlockReader {
    /// The reader of `block`, whose fields' columns are the children of the struct `node` from
    /// `skip` on (as `Columns::block` made them).
    pub(crate) fn new(
        columns: &Columns,
        node: usize,
        skip: usize,
        block: &BlockLayout<'_>,
    ) -> BlockReader {
        let children = &columns.children(node)[skip..];
        let mut reader = BlockReader {
            ops: Vec::new(),
            full_len: 0,
            full_since: i64::MIN,
            fields: block.fields.len(),
        };
        for (f, &child) in block.fields.iter().zip(children) {
            reader.compile(columns, f, child);
        }
        reader
    }

    /// Adds the operations of field `f`, whose column is `node`.
    fn compile(&mut self, columns: &Columns, f: &FieldLayout<'_>, node: usize) {
        let size_of = |p: PrimitiveType| p.size() as u8;
        let (kind, len) = match &f.ty {
            FieldType::Scalar { primitive, .. } => {
                let size = size_of(*primitive);
                match columns.convert_shift(node) {
                    Some(shift) => (
                        OpKind::Shift {
                            size,
                            signed: signed(*primitive),
                            null: f.null,
                            shift,
                        },
                        primitive.size(),
                    ),
                    None => (
                        OpKind::Raw {
                            num: Num::of(*primitive),
                            null: f.null,
                        },
                        primitive.size(),
                    ),
                }
            }
            FieldType::Text { len, charset, .. } => (
                OpKind::Text {
                    charset: *charset,
                    null: f.null,
                },
                *len,
            ),
            FieldType::Bytes { len } => (OpKind::Bytes, *len),
            FieldType::Array { primitive, len } => {
                let child = columns.children(node).first().copied().unwrap_or(node);
                (
                    OpKind::Array {
                        child,
                        len: *len,
                        size: size_of(*primitive),
                    },
                    len * primitive.size(),
                )
            }
            FieldType::Enum { primitive, .. } => (
                OpKind::Enum {
                    primitive: *primitive,
                    size: size_of(*primitive),
                    null: f.null,
                },
                primitive.size(),
            ),
            FieldType::Set { primitive, .. } => (
                OpKind::Set {
                    size: size_of(*primitive),
                },
                primitive.size(),
            ),
            FieldType::Constant(value) => (OpKind::Constant(Constant::of(value)), 0),
            FieldType::Composite(members) => {
                if let Some((scale, precision)) = columns.decimal_of(node) {
                    if f.form == Form::Decimal {
                        if let Some(op) = decimal(f, members, node, scale, precision) {
                            self.note(op.end, f.since.max(op.since));
                            for m in members {
                                self.note(m.offset + byte_len(m), m.since);
                            }
                            self.ops.push(op);
                            return;
                        }
                    }
                }
                let at = self.ops.len();
                self.ops.push(Op {
                    node,
                    off: f.offset,
                    end: 0,
                    since: f.since,
                    kind: OpKind::Struct { members: 0 },
                });
                self.note(0, f.since);
                let children = columns.children(node).to_vec();
                for (m, child) in members.iter().zip(children) {
                    self.compile(columns, m, child);
                }
                let n = self.ops.len() - at - 1;
                self.ops[at].kind = OpKind::Struct { members: n };
                return;
            }
        };
        let end = if len == 0 { 0 } else { f.offset + len };
        self.note(end, f.since);
        self.ops.push(Op {
            node,
            off: f.offset,
            end,
            since: f.since,
            kind,
        });
    }

    fn note(&mut self, end: usize, since: i64) {
        self.full_len = self.full_len.max(end);
        self.full_since = self.full_since.max(since);
    }

    /// Appends the fields of the block `bytes` (at the `acting` version) to their columns.
    #[inline]
    pub(crate) fn read(&self, columns: &mut Columns, bytes: &[u8], acting: i64, big: bool) {
        let whole = bytes.len() >= self.full_len && acting >= self.full_since;
        match (whole, big) {
            (true, false) => self.run::<false, false>(columns, bytes, acting),
            (true, true) => self.run::<false, true>(columns, bytes, acting),
            (false, false) => self.run::<true, false>(columns, bytes, acting),
            (false, true) => self.run::<true, true>(columns, bytes, acting),
        }
    }

    /// Appends `count` entries of `len` bytes each, back to back in `bytes`, to the struct
    /// `entry` (the group's entries, each this reader's block).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read_entries(
        &self,
        columns: &mut Columns,
        entry: usize,
        bytes: &[u8],
        count: usize,
        len: usize,
        acting: i64,
        big: bool,
    ) {
        {
            let n = &mut columns.nodes[entry];
            n.nulls.append_n_non_nulls(count);
            n.len += count;
        }
        if len >= self.full_len && acting >= self.full_since {
            // Every entry holds every field: column by column, each operation once over all
            // the entries.
            if big {
                self.columns::<true>(columns, bytes, count, len);
            } else {
                self.columns::<false>(columns, bytes, count, len);
            }
            return;
        }
        for i in 0..count {
            let block = &bytes[i * len..(i + 1) * len];
            if big {
                self.run::<true, true>(columns, block, acting);
            } else {
                self.run::<true, false>(columns, block, acting);
            }
        }
    }

    /// Appends `count` entries of `len` bytes each (each at least `full_len` long, at a
    /// version of at least `full_since`), one operation at a time over all of them: what
    /// [`BlockReader::run`] appends entry by entry, in the same columns.
    fn columns<const BIG: bool>(
        &self,
        columns: &mut Columns,
        bytes: &[u8],
        count: usize,
        len: usize,
    ) {
        let at = |i: usize, off: usize| i * len + off;
        for op in &self.ops {
            match &op.kind {
                OpKind::Raw { num, null } => {
                    macro_rules! num {
                        ($size:literal, $variant:ident, $zero:expr, $x:ident => $value:expr) => {{
                            let n = &mut columns.nodes[op.node];
                            if let Kind::Prim {
                                values: Values::$variant(v),
                                ..
                            } = &mut n.kind
                            {
                                v.reserve(count);
                                if matches!(null, Null::None) {
                                    for i in 0..count {
                                        let $x = read::<BIG>(bytes, at(i, op.off), $size);
                                        v.push($value);
                                    }
                                    n.nulls.append_n_non_nulls(count);
                                } else {
                                    for i in 0..count {
                                        let $x = read::<BIG>(bytes, at(i, op.off), $size);
                                        if is_null(*null, $x, $size) {
                                            v.push($zero);
                                            n.nulls.append_null();
                                        } else {
                                            v.push($value);
                                            n.nulls.append_non_null();
                                        }
                                    }
                                }
                                n.len += count;
                            }
                        }};
                    }
                    match num {
                        Num::I8 => num!(1, I8, 0, x => x as u8 as i8),
                        Num::I16 => num!(2, I16, 0, x => x as u16 as i16),
                        Num::I32 => num!(4, I32, 0, x => x as u32 as i32),
                        Num::I64 => num!(8, I64, 0, x => x as i64),
                        Num::U8 => num!(1, U8, 0, x => x as u8),
                        Num::U16 => num!(2, U16, 0, x => x as u16),
                        Num::U32 => num!(4, U32, 0, x => x as u32),
                        Num::U64 => num!(8, U64, 0, x => x),
                        Num::F32 => num!(4, F32, 0.0, x => f32::from_bits(x as u32)),
                        Num::F64 => num!(8, F64, 0.0, x => f64::from_bits(x)),
                    }
                }
                OpKind::Decimal {
                    mantissa:
                        Member::Read {
                            off,
                            size,
                            signed,
                            null,
                            ..
                        },
                    same: true,
                    limit,
                    ..
                } => {
                    let n = &mut columns.nodes[op.node];
                    let mut unrepresentable = 0;
                    if let Kind::Prim {
                        values: Values::I128(v),
                        ..
                    } = &mut n.kind
                    {
                        v.reserve(count);
                        for i in 0..count {
                            let raw = read::<BIG>(bytes, at(i, *off), *size);
                            let m = number(raw, *size, *signed);
                            if is_null(*null, raw, *size) {
                                v.push(0);
                                n.nulls.append_null();
                            } else if m.abs() < *limit {
                                v.push(m);
                                n.nulls.append_non_null();
                            } else {
                                v.push(0);
                                n.nulls.append_null();
                                unrepresentable += 1;
                            }
                        }
                        n.len += count;
                    }
                    columns.unrepresentable += unrepresentable;
                }
                OpKind::Enum {
                    primitive,
                    size,
                    null,
                } => {
                    let n = &mut columns.nodes[op.node];
                    if let Kind::Dict(d) = &mut n.kind {
                        for i in 0..count {
                            let raw = read::<BIG>(bytes, at(i, op.off), *size);
                            if is_null(*null, raw, *size) {
                                d.push_key(0);
                                n.nulls.append_null();
                            } else {
                                let key = d.key_of_wire(raw, *primitive);
                                d.push_key(key);
                                n.nulls.append_non_null();
                            }
                        }
                        n.len += count;
                    }
                }
                OpKind::Struct { .. } => {
                    let n = &mut columns.nodes[op.node];
                    n.nulls.append_n_non_nulls(count);
                    n.len += count;
                }
                _ => {
                    // The rest, one entry at a time.
                    for i in 0..count {
                        let block = &bytes[i * len..(i + 1) * len];
                        self.one::<false, BIG>(op, columns, block, 0);
                    }
                }
            }
        }
    }

    fn run<const CHECKED: bool, const BIG: bool>(
        &self,
        columns: &mut Columns,
        bytes: &[u8],
        acting: i64,
    ) {
        let mut i = 0;
        while i < self.ops.len() {
            let op = &self.ops[i];
            i += 1;
            if CHECKED && (op.since > acting || op.end > bytes.len()) {
                // Absent: newer than the writer, or past its shorter block (a composite as a
                // whole only when it is newer; its members one by one otherwise).
                match op.kind {
                    OpKind::Struct { members } if op.since > acting => {
                        columns.push_null(op.node);
                        i += members;
                        continue;
                    }
                    OpKind::Struct { .. } | OpKind::Decimal { .. } if op.since <= acting => {}
                    _ => {
                        columns.push_null(op.node);
                        continue;
                    }
                }
            }
            self.one::<CHECKED, BIG>(op, columns, bytes, acting);
        }
    }

    /// Appends the field of `op` (present) from the block `bytes`.
    #[inline(always)]
    fn one<const CHECKED: bool, const BIG: bool>(
        &self,
        op: &Op,
        columns: &mut Columns,
        bytes: &[u8],
        acting: i64,
    ) {
        match &op.kind {
            OpKind::Raw { num, null } => {
                macro_rules! num {
                    ($size:literal, $variant:ident, $x:ident => $value:expr) => {{
                        let $x = read::<BIG>(bytes, op.off, $size);
                        if is_null(*null, $x, $size) {
                            columns.push_null(op.node);
                        } else {
                            let n = &mut columns.nodes[op.node];
                            if let Kind::Prim {
                                values: Values::$variant(v),
                                ..
                            } = &mut n.kind
                            {
                                v.push($value);
                            }
                            n.nulls.append_non_null();
                            n.len += 1;
                        }
                    }};
                }
                match num {
                    Num::I8 => num!(1, I8, x => x as u8 as i8),
                    Num::I16 => num!(2, I16, x => x as u16 as i16),
                    Num::I32 => num!(4, I32, x => x as u32 as i32),
                    Num::I64 => num!(8, I64, x => x as i64),
                    Num::U8 => num!(1, U8, x => x as u8),
                    Num::U16 => num!(2, U16, x => x as u16),
                    Num::U32 => num!(4, U32, x => x as u32),
                    Num::U64 => num!(8, U64, x => x),
                    Num::F32 => num!(4, F32, x => f32::from_bits(x as u32)),
                    Num::F64 => num!(8, F64, x => f64::from_bits(x)),
                }
            }
            OpKind::Shift {
                size,
                signed,
                null,
                shift,
            } => {
                let raw = read::<BIG>(bytes, op.off, *size);
                if is_null(*null, raw, *size) {
                    columns.push_null(op.node);
                } else {
                    columns.push_shifted(op.node, number(raw, *size, *signed) + shift);
                }
            }
            OpKind::Decimal {
                mantissa,
                same: true,
                limit,
                ..
            } if !CHECKED => match member::<CHECKED, BIG>(mantissa, bytes, acting) {
                Some(m) => {
                    columns.push_decimal(op.node, (m.abs() < *limit).then_some(m));
                }
                None => columns.push_null(op.node),
            },
            OpKind::Decimal {
                mantissa,
                exponent,
                scale,
                precision,
                ..
            } => {
                let m = member::<CHECKED, BIG>(mantissa, bytes, acting);
                let e = member::<CHECKED, BIG>(exponent, bytes, acting);
                match (m, e) {
                    (Some(m), Some(e)) => {
                        let value = i64::try_from(e)
                            .ok()
                            .and_then(|e| rescale(m, e, *scale, *precision));
                        columns.push_decimal(op.node, value);
                    }
                    _ => columns.push_null(op.node),
                }
            }
            OpKind::Enum {
                primitive,
                size,
                null,
            } => {
                let raw = read::<BIG>(bytes, op.off, *size);
                if is_null(*null, raw, *size) {
                    columns.push_null(op.node);
                } else {
                    columns.push_enum(op.node, raw, *primitive);
                }
            }
            OpKind::Set { size } => {
                let raw = read::<BIG>(bytes, op.off, *size);
                columns.push_set(op.node, raw);
            }
            OpKind::Text { charset, null } => {
                let text = &bytes[op.off..op.end];
                if matches!(null, Null::Bits(b) if text.first().map(|&c| u64::from(c)) == Some(*b))
                {
                    columns.push_null(op.node);
                } else {
                    columns.push(
                        op.node,
                        Value::Text {
                            bytes: text,
                            charset: *charset,
                        },
                    );
                }
            }
            OpKind::Bytes => columns.push(op.node, Value::Bytes(&bytes[op.off..op.end])),
            OpKind::Array { child, len, size } => {
                columns.begin_struct(op.node);
                for k in 0..*len {
                    let raw = read::<BIG>(bytes, op.off + k * usize::from(*size), *size);
                    columns.push_raw(*child, raw);
                }
            }
            OpKind::Constant(c) => columns.push(op.node, c.value()),
            OpKind::Struct { .. } => columns.begin_struct(op.node),
        }
    }
}

/// The decimal operation of composite `f` (members `members`), when its members are integers
/// (or constants) named `mantissa` and `exponent`.
fn decimal(
    f: &FieldLayout<'_>,
    members: &[FieldLayout<'_>],
    node: usize,
    scale: i8,
    precision: u8,
) -> Option<Op> {
    let member = |name: &str| -> Option<Member> {
        let m = members.iter().find(|m| m.info.name() == name)?;
        match &m.ty {
            FieldType::Constant(Value::Int(e)) => Some(Member::Constant {
                value: *e,
                since: m.since,
            }),
            FieldType::Constant(Value::UInt(e)) => Some(Member::Constant {
                value: i64::try_from(*e).ok()?,
                since: m.since,
            }),
            FieldType::Scalar { primitive, .. }
                if !matches!(
                    primitive,
                    PrimitiveType::Float | PrimitiveType::Double | PrimitiveType::Char
                ) =>
            {
                Some(Member::Read {
                    off: m.offset,
                    end: m.offset + primitive.size(),
                    since: m.since,
                    size: primitive.size() as u8,
                    signed: signed(*primitive),
                    null: m.null,
                })
            }
            _ => None,
        }
    };
    let mantissa = member("mantissa")?;
    let exponent = member("exponent")?;
    let end = [mantissa, exponent]
        .iter()
        .map(|m| match m {
            Member::Read { end, .. } => *end,
            Member::Constant { .. } => 0,
        })
        .max()
        .unwrap_or(0);
    let same = matches!(exponent, Member::Constant { value, .. } if value == -i64::from(scale));
    Some(Op {
        node,
        off: f.offset,
        end,
        since: f.since,
        kind: OpKind::Decimal {
            mantissa,
            exponent,
            scale,
            precision,
            same,
            limit: 10i128.pow(u32::from(precision)),
        },
    })
}

/// The bytes a field takes in its block (0 for constants and composites).
fn byte_len(f: &FieldLayout<'_>) -> usize {
    match &f.ty {
        FieldType::Scalar { primitive, .. }
        | FieldType::Enum { primitive, .. }
        | FieldType::Set { primitive, .. } => primitive.size(),
        FieldType::Text { len, .. } | FieldType::Bytes { len } => *len,
        FieldType::Array { primitive, len } => len * primitive.size(),
        FieldType::Composite(_) | FieldType::Constant(_) => 0,
    }
}

/// A decimal member's value; `None` when null or absent.
#[inline(always)]
fn member<const CHECKED: bool, const BIG: bool>(
    m: &Member,
    bytes: &[u8],
    acting: i64,
) -> Option<i128> {
    match *m {
        Member::Constant { value, since } => {
            (!CHECKED || since <= acting).then_some(i128::from(value))
        }
        Member::Read {
            off,
            end,
            since,
            size,
            signed,
            null,
        } => {
            if CHECKED && (since > acting || end > bytes.len()) {
                return None;
            }
            let raw = read::<BIG>(bytes, off, size);
            (!is_null(null, raw, size)).then(|| number(raw, size, signed))
        }
    }
}

/// The `size`-byte number at `off` of `bytes`, zero-extended.
#[inline(always)]
fn read<const BIG: bool>(bytes: &[u8], off: usize, size: u8) -> u64 {
    match size {
        1 => u64::from(bytes[off]),
        2 => {
            let a: [u8; 2] = bytes[off..off + 2].try_into().expect("2 bytes");
            u64::from(if BIG {
                u16::from_be_bytes(a)
            } else {
                u16::from_le_bytes(a)
            })
        }
        4 => {
            let a: [u8; 4] = bytes[off..off + 4].try_into().expect("4 bytes");
            u64::from(if BIG {
                u32::from_be_bytes(a)
            } else {
                u32::from_le_bytes(a)
            })
        }
        _ => {
            let a: [u8; 8] = bytes[off..off + 8].try_into().expect("8 bytes");
            if BIG {
                u64::from_be_bytes(a)
            } else {
                u64::from_le_bytes(a)
            }
        }
    }
}

/// Whether `raw` (of `size` bytes) is the null value.
#[inline(always)]
fn is_null(null: Null, raw: u64, size: u8) -> bool {
    match null {
        Null::None => false,
        Null::Bits(b) => raw == b,
        Null::NaN => match size {
            4 => f32::from_bits(raw as u32).is_nan(),
            _ => f64::from_bits(raw).is_nan(),
        },
    }
}

/// `raw` (of `size` bytes) as a number, sign-extended when `signed`.
#[inline(always)]
fn number(raw: u64, size: u8, signed: bool) -> i128 {
    if !signed {
        return i128::from(raw);
    }
    i128::from(match size {
        1 => i64::from(raw as u8 as i8),
        2 => i64::from(raw as u16 as i16),
        4 => i64::from(raw as u32 as i32),
        _ => raw as i64,
    })
}

impl Columns {
    /// The children of the struct `node`.
    pub(crate) fn children(&self, node: usize) -> &[usize] {
        match &self.nodes[node].kind {
            Kind::Struct { children } => children,
            Kind::FixedList { child, .. } => std::slice::from_ref(child),
            _ => &[],
        }
    }

    /// Appends the raw bits of a number to the numbers `node` (its type the field's).
    #[inline(always)]
    pub(crate) fn push_raw(&mut self, node: usize, raw: u64) {
        let n = &mut self.nodes[node];
        if let Kind::Prim { values, .. } = &mut n.kind {
            match values {
                Values::I8(v) => v.push(raw as u8 as i8),
                Values::I16(v) => v.push(raw as u16 as i16),
                Values::I32(v) => v.push(raw as u32 as i32),
                Values::I64(v) => v.push(raw as i64),
                Values::U8(v) => v.push(raw as u8),
                Values::U16(v) => v.push(raw as u16),
                Values::U32(v) => v.push(raw as u32),
                Values::U64(v) => v.push(raw),
                Values::F32(v) => v.push(f32::from_bits(raw as u32)),
                Values::F64(v) => v.push(f64::from_bits(raw)),
                Values::I128(v) => v.push(i128::from(raw)),
            }
        }
        n.nulls.append_non_null();
        n.len += 1;
    }

    /// Appends a moved integer (a timestamp or date) to `node`; one out of its range is null.
    pub(crate) fn push_shifted(&mut self, node: usize, value: i128) {
        let n = &mut self.nodes[node];
        if let Kind::Prim { values, .. } = &mut n.kind {
            if values.push_int(value) {
                n.nulls.append_non_null();
                n.len += 1;
                return;
            }
        }
        self.unrepresentable += 1;
        self.push_null(node);
    }

    /// Appends a decimal's value at its scale, or null (counted when it was not null on the
    /// wire but has no value at the column's scale).
    pub(crate) fn push_decimal(&mut self, node: usize, value: Option<i128>) {
        let n = &mut self.nodes[node];
        match (value, &mut n.kind) {
            (
                Some(v),
                Kind::Prim {
                    values: Values::I128(values),
                    ..
                },
            ) => {
                values.push(v);
                n.nulls.append_non_null();
                n.len += 1;
            }
            _ => {
                self.unrepresentable += 1;
                self.push_null(node);
            }
        }
    }

    /// Appends an enum's raw value (of type `primitive`) to the dictionary column `node`.
    #[inline(always)]
    pub(crate) fn push_enum(&mut self, node: usize, raw: u64, primitive: PrimitiveType) {
        let n = &mut self.nodes[node];
        if let Kind::Dict(d) = &mut n.kind {
            let key = d.key_of_wire(raw, primitive);
            d.push_key(key);
        }
        n.nulls.append_non_null();
        n.len += 1;
    }

    /// The shift of a timestamp or date column, if `node` is one.
    pub(crate) fn convert_shift(&self, node: usize) -> Option<i128> {
        match &self.nodes[node].kind {
            Kind::Prim {
                convert: crate::columns::Convert::Shift(s),
                ..
            } => Some(*s),
            _ => None,
        }
    }

    /// The scale and precision of a decimal column, if `node` is one.
    pub(crate) fn decimal_of(&self, node: usize) -> Option<(i8, u8)> {
        match &self.nodes[node].kind {
            Kind::Prim {
                decimal: Some(d), ..
            } => Some((d.scale, d.precision)),
            _ => None,
        }
    }
}

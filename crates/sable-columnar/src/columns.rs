//! The column builders of one table: a tree of nodes kept in an arena (a message's fields,
//! composites as structs, groups as lists of structs), each appending the values the decoder
//! reports and turned into Arrow arrays batch by batch (docs/columnar.md gives the mapping).

use std::sync::Arc;

use arrow_array::{make_array, ArrayRef};
use arrow_buffer::{Buffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, Fields, TimeUnit};
use sable_ir::PrimitiveType;
use sable_otf::decode::{Charset, Number, Value};
use sable_otf::layout::{BlockLayout, FieldLayout, FieldType, Form, TailLayout};

/// The largest decimal precision of Arrow's `Decimal128`.
const MAX_PRECISION: u8 = 38;
/// The scale of decimals whose exponent varies from message to message.
pub(crate) const VARIABLE_SCALE: i8 = 18;

/// Numbers of one Arrow primitive type.
#[derive(Debug)]
pub(crate) enum Values {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    I128(Vec<i128>),
}

impl Values {
    fn of(data_type: &DataType) -> Values {
        match data_type {
            DataType::Int8 => Values::I8(Vec::new()),
            DataType::Int16 => Values::I16(Vec::new()),
            DataType::Int32 | DataType::Date32 => Values::I32(Vec::new()),
            DataType::UInt8 => Values::U8(Vec::new()),
            DataType::UInt16 => Values::U16(Vec::new()),
            DataType::UInt32 => Values::U32(Vec::new()),
            DataType::UInt64 => Values::U64(Vec::new()),
            DataType::Float32 => Values::F32(Vec::new()),
            DataType::Float64 => Values::F64(Vec::new()),
            DataType::Decimal128(..) => Values::I128(Vec::new()),
            _ => Values::I64(Vec::new()),
        }
    }

    fn buffer(&mut self) -> Buffer {
        fn take<T: arrow_buffer::ArrowNativeType>(v: &mut Vec<T>) -> Buffer {
            let cap = v.capacity();
            Buffer::from_vec(std::mem::replace(v, Vec::with_capacity(cap)))
        }
        match self {
            Values::I8(v) => take(v),
            Values::I16(v) => take(v),
            Values::I32(v) => take(v),
            Values::I64(v) => take(v),
            Values::U8(v) => take(v),
            Values::U16(v) => take(v),
            Values::U32(v) => take(v),
            Values::U64(v) => take(v),
            Values::F32(v) => take(v),
            Values::F64(v) => take(v),
            Values::I128(v) => take(v),
        }
    }

    /// Keeps the first `len` numbers.
    fn truncate(&mut self, len: usize) {
        match self {
            Values::I8(v) => v.truncate(len),
            Values::I16(v) => v.truncate(len),
            Values::I32(v) => v.truncate(len),
            Values::I64(v) => v.truncate(len),
            Values::U8(v) => v.truncate(len),
            Values::U16(v) => v.truncate(len),
            Values::U32(v) => v.truncate(len),
            Values::U64(v) => v.truncate(len),
            Values::F32(v) => v.truncate(len),
            Values::F64(v) => v.truncate(len),
            Values::I128(v) => v.truncate(len),
        }
    }

    /// Appends a zero (under a null).
    fn push_zero(&mut self) {
        match self {
            Values::I8(v) => v.push(0),
            Values::I16(v) => v.push(0),
            Values::I32(v) => v.push(0),
            Values::I64(v) => v.push(0),
            Values::U8(v) => v.push(0),
            Values::U16(v) => v.push(0),
            Values::U32(v) => v.push(0),
            Values::U64(v) => v.push(0),
            Values::F32(v) => v.push(0.0),
            Values::F64(v) => v.push(0.0),
            Values::I128(v) => v.push(0),
        }
    }

    /// Appends an integer exactly; `false` (nothing appended) when it does not fit.
    pub(crate) fn push_int(&mut self, n: i128) -> bool {
        macro_rules! fit {
            ($v:expr) => {
                match n.try_into() {
                    Ok(x) => {
                        $v.push(x);
                        true
                    }
                    Err(_) => false,
                }
            };
        }
        match self {
            Values::I8(v) => fit!(v),
            Values::I16(v) => fit!(v),
            Values::I32(v) => fit!(v),
            Values::I64(v) => fit!(v),
            Values::U8(v) => fit!(v),
            Values::U16(v) => fit!(v),
            Values::U32(v) => fit!(v),
            Values::U64(v) => fit!(v),
            Values::I128(v) => {
                v.push(n);
                true
            }
            Values::F32(v) => {
                v.push(n as f32);
                true
            }
            Values::F64(v) => {
                v.push(n as f64);
                true
            }
        }
    }
}

/// How a number reported by the decoder becomes the column's value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Convert {
    /// As it is.
    Exact,
    /// A timestamp: plus the epoch's offset in the column's unit.
    Shift(i128),
}

/// A decimal composite's column: `mantissa × 10^exponent` at a fixed scale.
#[derive(Debug)]
pub(crate) struct Decimal {
    pub(crate) scale: i8,
    pub(crate) precision: u8,
    /// Whether every mantissa has a value at this scale and precision (else the column is
    /// nullable: a value that has none is null).
    all: bool,
    /// The mantissa and exponent of the composite being read.
    mantissa: Option<i128>,
    exponent: Option<i64>,
    /// Whether a member was null or absent.
    null: bool,
}

/// What a node holds.
#[derive(Debug)]
pub(crate) enum Kind {
    /// Numbers (integers, floats, timestamps, dates, decimals).
    Prim {
        values: Values,
        convert: Convert,
        /// The decimal composite this column reads, if it is one.
        decimal: Option<Decimal>,
    },
    /// UTF-8 text: `trim` cuts at the first NUL (char arrays, not var data).
    Text {
        offsets: Vec<i32>,
        data: Vec<u8>,
        trim: bool,
    },
    /// Bytes of any length (var data).
    Binary { offsets: Vec<i32>, data: Vec<u8> },
    /// Bytes of a fixed length (int8 and uint8 arrays).
    FixedBinary { len: usize, data: Vec<u8> },
    /// A fixed array of numbers: `child` is a `Prim` node.
    FixedList { len: usize, child: usize },
    /// Strings from a dictionary (enums, and the capture's flows).
    Dict(Dict),
    /// A set: the names of the bits set, from `names`.
    Set {
        names: SetNames,
        offsets: Vec<i32>,
        item_offsets: Vec<i32>,
        data: Vec<u8>,
    },
    /// A composite, a group's entry, or the row itself.
    Struct { children: Vec<usize> },
    /// A group: `entry` is a `Struct` node.
    List { entry: usize, offsets: Vec<i32> },
}

/// A dictionary-encoded string column whose dictionary only grows (so that Arrow IPC files see
/// the same dictionary, or a delta of it, batch after batch).
#[derive(Debug)]
pub(crate) struct Dict {
    /// Known raw values and their keys, by raw value (enums).
    by_raw: Vec<(u64, i32)>,
    /// The keys of raw values below 256 (-1 for none yet), looked up first.
    dense: Vec<i32>,
    /// The dictionary's strings.
    strings: Vec<String>,
    keys: Vec<i32>,
    /// The dictionary as last built, reused while it has not grown.
    built: Option<(usize, ArrayRef)>,
    /// The enum's raw-value mask (its primitive type's size).
    mask: u64,
    /// Whether a value was entered since [`Columns::commit`] (to be undone if the message
    /// that entered it fails).
    grew: bool,
    /// How many strings the dictionary had at the last commit.
    committed: usize,
}

impl Dict {
    pub(crate) fn new(values: &[(u64, &str)], mask: u64) -> Dict {
        let mut by_raw: Vec<(u64, i32)> = values
            .iter()
            .enumerate()
            .map(|(i, (raw, _))| (*raw & mask, i as i32))
            .collect();
        by_raw.sort_unstable();
        by_raw.dedup_by_key(|e| e.0);
        let mut dense = vec![-1; 256];
        for &(raw, key) in &by_raw {
            if let Some(d) = dense.get_mut(raw as usize) {
                *d = key;
            }
        }
        Dict {
            by_raw,
            dense,
            strings: values.iter().map(|(_, n)| (*n).to_owned()).collect(),
            keys: Vec::new(),
            built: None,
            mask,
            grew: false,
            committed: values.len(),
        }
    }

    /// The key of raw value `raw`, named `name` when it has a name; a value with no name is
    /// entered as its number.
    fn key_of_raw(&mut self, raw: u64, name: Option<&str>, number: Number) -> i32 {
        let raw = raw & self.mask;
        match self.by_raw.binary_search_by_key(&raw, |e| e.0) {
            Ok(i) => self.by_raw[i].1,
            Err(i) => {
                let key = self.strings.len() as i32;
                self.grew = true;
                if let Some(d) = self.dense.get_mut(raw as usize) {
                    *d = key;
                }
                self.strings.push(match name {
                    Some(n) => n.to_owned(),
                    None => match number {
                        Number::Int(i) => i.to_string(),
                        Number::UInt(u) => u.to_string(),
                    },
                });
                self.by_raw.insert(i, (raw, key));
                key
            }
        }
    }

    /// The key of an enum's value as read from the wire (`raw`, of type `primitive`): the
    /// key of its name, or of its number when it has none (entered as
    /// [`Dict::key_of_raw`] enters it).
    #[inline(always)]
    pub(crate) fn key_of_wire(&mut self, raw: u64, primitive: PrimitiveType) -> i32 {
        let raw = raw & self.mask;
        if let Some(&key) = self.dense.get(raw as usize) {
            if key >= 0 {
                return key;
            }
        }
        let number = match primitive {
            PrimitiveType::Int8 => Number::Int(i64::from(raw as u8 as i8)),
            PrimitiveType::Int16 => Number::Int(i64::from(raw as u16 as i16)),
            PrimitiveType::Int32 => Number::Int(i64::from(raw as u32 as i32)),
            PrimitiveType::Int64 | PrimitiveType::Char => Number::Int(raw as i64),
            _ => Number::UInt(raw),
        };
        self.key_of_raw(raw, None, number)
    }

    /// The key of `text`, entered if new (the flows of a capture: few, looked up once per
    /// packet by the caller).
    pub(crate) fn key_of_text(&mut self, text: &str) -> i32 {
        match self.strings.iter().position(|s| s == text) {
            Some(i) => i as i32,
            None => {
                self.strings.push(text.to_owned());
                self.strings.len() as i32 - 1
            }
        }
    }

    /// Forgets the values entered since the last commit.
    fn undo(&mut self) {
        let keep = self.committed;
        self.strings.truncate(keep);
        self.by_raw.retain(|&(_, key)| (key as usize) < keep);
        for d in self.dense.iter_mut() {
            if *d >= 0 && *d as usize >= keep {
                *d = -1;
            }
        }
        self.grew = false;
    }

    pub(crate) fn push_key(&mut self, key: i32) {
        self.keys.push(key);
    }

    fn dictionary(&mut self) -> ArrayRef {
        if let Some((n, array)) = &self.built {
            if *n == self.strings.len() {
                return array.clone();
            }
        }
        let mut offsets = Vec::with_capacity(self.strings.len() + 1);
        let mut data = Vec::new();
        offsets.push(0i32);
        for s in &self.strings {
            data.extend_from_slice(s.as_bytes());
            offsets.push(data.len() as i32);
        }
        let array = strings(offsets, data, None);
        self.built = Some((self.strings.len(), array.clone()));
        array
    }
}

/// One column (or struct, or list) of a table.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) field: Field,
    pub(crate) kind: Kind,
    pub(crate) nulls: NullBufferBuilder,
    /// Values appended since the last batch.
    pub(crate) len: usize,
}

/// A table's columns: the arena of nodes, node 0 the row (its children the table's columns).
#[derive(Debug)]
pub(crate) struct Columns {
    pub(crate) nodes: Vec<Node>,
    /// Values that had no Arrow form (a timestamp or decimal out of range), written as null.
    pub(crate) unrepresentable: u64,
    /// The enum columns (by node), whose dictionaries a failed message may have to undo.
    dicts: Vec<usize>,
}

/// Whether a field present from `since` may be absent from a message: written by an older
/// writer than its version, or, in a schema of version above 0, beyond the shorter block of an
/// older writer (docs/json.md, "Versions").
fn may_be_absent(since: i64, schema_version: i64) -> bool {
    since > 0 || schema_version > 0
}

/// The decimal digits a mantissa of `primitive` is given: every value of the type, but 18 for
/// `int64` (the most a 64-bit decimal holds: Parquet writes decimals of up to 18 digits as
/// `INT64`, and query engines hold them in 64 bits), so that a mantissa of 19 digits, beyond
/// ±999,999,999,999,999,999, has no value at that precision and is null (counted).
fn digits(primitive: PrimitiveType) -> u8 {
    match primitive {
        PrimitiveType::Int8 | PrimitiveType::UInt8 => 3,
        PrimitiveType::Int16 | PrimitiveType::UInt16 => 5,
        PrimitiveType::Int32 | PrimitiveType::UInt32 => 10,
        PrimitiveType::Int64 => 18,
        _ => 20,
    }
}

fn number_type(primitive: PrimitiveType) -> DataType {
    match primitive {
        PrimitiveType::Int8 => DataType::Int8,
        PrimitiveType::Int16 => DataType::Int16,
        PrimitiveType::Int32 => DataType::Int32,
        PrimitiveType::Int64 => DataType::Int64,
        PrimitiveType::UInt8 => DataType::UInt8,
        PrimitiveType::UInt16 => DataType::UInt16,
        PrimitiveType::UInt32 => DataType::UInt32,
        PrimitiveType::UInt64 => DataType::UInt64,
        PrimitiveType::Float => DataType::Float32,
        PrimitiveType::Double => DataType::Float64,
        // A `char` reported as a number (never, in practice: chars are text).
        PrimitiveType::Char => DataType::UInt8,
    }
}

fn mask_of(primitive: PrimitiveType) -> u64 {
    match primitive.size() {
        8 => u64::MAX,
        n => (1u64 << (8 * n)) - 1,
    }
}

pub(crate) fn dict_type() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
}

pub(crate) fn timestamp_ns() -> DataType {
    DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
}

impl Columns {
    pub(crate) fn new() -> Columns {
        Columns {
            nodes: vec![Node {
                field: Field::new("row", DataType::Null, false),
                kind: Kind::Struct {
                    children: Vec::new(),
                },
                nulls: NullBufferBuilder::new(0),
                len: 0,
            }],
            unrepresentable: 0,
            dicts: Vec::new(),
        }
    }

    /// Adds a node; returns its index.
    pub(crate) fn add(&mut self, field: Field, kind: Kind) -> usize {
        if matches!(kind, Kind::Dict(_)) {
            self.dicts.push(self.nodes.len());
        }
        self.nodes.push(Node {
            field,
            kind,
            nulls: NullBufferBuilder::new(0),
            len: 0,
        });
        self.nodes.len() - 1
    }

    /// Adds `child` to the struct `parent`.
    pub(crate) fn adopt(&mut self, parent: usize, child: usize) {
        if let Kind::Struct { children } = &mut self.nodes[parent].kind {
            children.push(child);
        }
    }

    /// Adds the columns of a block (a message's root block or a group's entry) to `parent`.
    pub(crate) fn block(&mut self, parent: usize, block: &BlockLayout<'_>, version: i64) {
        for f in &block.fields {
            let n = self.field(f, version);
            self.adopt(parent, n);
        }
        for t in &block.tail {
            let n = match t {
                TailLayout::Group { info, since, block } => {
                    let entry = self.add(
                        Field::new("item", DataType::Null, false),
                        Kind::Struct {
                            children: Vec::new(),
                        },
                    );
                    self.block(entry, block, version);
                    let entry_field = Field::new_struct("item", self.fields_of(entry), false);
                    self.nodes[entry].field = entry_field.clone();
                    let field =
                        Field::new_list(info.name(), entry_field, may_be_absent(*since, version));
                    self.add(
                        field,
                        Kind::List {
                            entry,
                            offsets: vec![0],
                        },
                    )
                }
                TailLayout::Data {
                    info,
                    since,
                    charset,
                } => {
                    let nullable = may_be_absent(*since, version);
                    match charset {
                        Some(_) => self.add(
                            Field::new(info.name(), DataType::Utf8, nullable),
                            Kind::Text {
                                offsets: vec![0],
                                data: Vec::new(),
                                trim: false,
                            },
                        ),
                        None => self.add(
                            Field::new(info.name(), DataType::Binary, nullable),
                            Kind::Binary {
                                offsets: vec![0],
                                data: Vec::new(),
                            },
                        ),
                    }
                }
            };
            self.adopt(parent, n);
        }
    }

    /// The Arrow fields of a struct node's children.
    fn fields_of(&self, node: usize) -> Fields {
        match &self.nodes[node].kind {
            Kind::Struct { children } => children
                .iter()
                .map(|c| self.nodes[*c].field.clone())
                .collect(),
            _ => Fields::empty(),
        }
    }

    /// The table's Arrow fields: the row's children.
    pub(crate) fn fields(&self) -> Fields {
        self.fields_of(0)
    }

    /// Adds the node of a field or composite member; returns its index.
    fn field(&mut self, f: &FieldLayout<'_>, version: i64) -> usize {
        let absent = may_be_absent(f.since, version);
        let name = f.info.name();
        let prim = |data_type: DataType, convert: Convert| Kind::Prim {
            values: Values::of(&data_type),
            convert,
            decimal: None,
        };
        match &f.ty {
            FieldType::Scalar {
                primitive,
                nullable,
            } => {
                let nullable = *nullable || absent;
                let integer = !matches!(
                    primitive,
                    PrimitiveType::Float | PrimitiveType::Double | PrimitiveType::Char
                );
                let (data_type, convert) = match f.form {
                    Form::Timestamp { digits, epoch_days } if integer => {
                        let unit = match digits {
                            0 => TimeUnit::Second,
                            3 => TimeUnit::Millisecond,
                            6 => TimeUnit::Microsecond,
                            _ => TimeUnit::Nanosecond,
                        };
                        let shift = i128::from(epoch_days) * 86_400 * 10i128.pow(u32::from(digits));
                        (
                            DataType::Timestamp(unit, Some("UTC".into())),
                            Convert::Shift(shift),
                        )
                    }
                    Form::Date { epoch_days } if integer => {
                        (DataType::Date32, Convert::Shift(i128::from(epoch_days)))
                    }
                    _ => (number_type(*primitive), Convert::Exact),
                };
                // A timestamp or date beyond Arrow's range is null, whatever the field's presence.
                let nullable = nullable || matches!(convert, Convert::Shift(_));
                let field = Field::new(name, data_type.clone(), nullable);
                self.add(field, prim(data_type, convert))
            }
            FieldType::Text { nullable, .. } => self.add(
                Field::new(name, DataType::Utf8, *nullable || absent),
                Kind::Text {
                    offsets: vec![0],
                    data: Vec::new(),
                    trim: true,
                },
            ),
            FieldType::Bytes { len } => self.add(
                Field::new(name, DataType::FixedSizeBinary(*len as i32), absent),
                Kind::FixedBinary {
                    len: *len,
                    data: Vec::new(),
                },
            ),
            FieldType::Array { primitive, len } => {
                let data_type = number_type(*primitive);
                let item = Field::new("item", data_type.clone(), false);
                let child = self.add(item.clone(), prim(data_type, Convert::Exact));
                self.add(
                    Field::new(
                        name,
                        DataType::FixedSizeList(Arc::new(item), *len as i32),
                        absent,
                    ),
                    Kind::FixedList { len: *len, child },
                )
            }
            FieldType::Enum {
                primitive,
                values,
                nullable,
            } => self.add(
                Field::new(name, dict_type(), *nullable || absent),
                Kind::Dict(Dict::new(values, mask_of(*primitive))),
            ),
            FieldType::Set { choices, .. } => self.add(
                Field::new_list(name, Field::new("item", DataType::Utf8, false), absent),
                Kind::Set {
                    names: SetNames::new(choices.iter().map(|c| (c.bit(), c.name().into()))),
                    offsets: vec![0],
                    item_offsets: vec![0],
                    data: Vec::new(),
                },
            ),
            FieldType::Composite(members) => {
                if f.form == Form::Decimal {
                    if let Some((data_type, decimal)) = decimal_of(members) {
                        let nullable = absent
                            || !decimal.all
                            || members.iter().any(|m| {
                                matches!(m.ty, FieldType::Scalar { nullable: true, .. })
                                    || may_be_absent(m.since, version)
                            });
                        return self.add(
                            Field::new(name, data_type.clone(), nullable),
                            Kind::Prim {
                                values: Values::of(&data_type),
                                convert: Convert::Exact,
                                decimal: Some(decimal),
                            },
                        );
                    }
                }
                let node = self.add(
                    Field::new(name, DataType::Null, absent),
                    Kind::Struct {
                        children: Vec::new(),
                    },
                );
                for m in members {
                    let c = self.field(m, version);
                    self.adopt(node, c);
                }
                let fields = self.fields_of(node);
                self.nodes[node].field = Field::new_struct(name, fields, absent);
                node
            }
            FieldType::Constant(value) => {
                let (data_type, kind) = match value {
                    Value::Int(_) => (DataType::Int64, prim(DataType::Int64, Convert::Exact)),
                    Value::UInt(_) => (DataType::UInt64, prim(DataType::UInt64, Convert::Exact)),
                    Value::F32(_) => (DataType::Float32, prim(DataType::Float32, Convert::Exact)),
                    Value::F64(_) => (DataType::Float64, prim(DataType::Float64, Convert::Exact)),
                    Value::Enum { name: Some(n), raw } => {
                        let raw = match raw {
                            Number::Int(i) => *i as u64,
                            Number::UInt(u) => *u,
                        };
                        (dict_type(), Kind::Dict(Dict::new(&[(raw, n)], u64::MAX)))
                    }
                    _ => (
                        DataType::Utf8,
                        Kind::Text {
                            offsets: vec![0],
                            data: Vec::new(),
                            trim: true,
                        },
                    ),
                };
                let nullable = absent || matches!(value, Value::Null);
                self.add(Field::new(name, data_type, nullable), kind)
            }
        }
    }

    /// Appends `value` to the column `node`.
    pub(crate) fn push(&mut self, node: usize, value: Value<'_>) {
        if matches!(value, Value::Null | Value::Absent)
            || matches!(
                self.nodes[node].kind,
                Kind::Struct { .. } | Kind::List { .. }
            )
        {
            // (A struct or list is filled by the visitor's calls, never by one value.)
            return self.push_null(node);
        }
        let n = &mut self.nodes[node];
        let mut valid = true;
        match (&mut n.kind, value) {
            (
                Kind::Prim {
                    values, convert, ..
                },
                v,
            ) => {
                let ok = match (v, *convert) {
                    (Value::Int(i), Convert::Exact) => values.push_int(i128::from(i)),
                    (Value::UInt(u), Convert::Exact) => values.push_int(i128::from(u)),
                    (Value::Int(i), Convert::Shift(s)) => values.push_int(i128::from(i) + s),
                    (Value::UInt(u), Convert::Shift(s)) => values.push_int(i128::from(u) + s),
                    (Value::F32(x), _) => match values {
                        Values::F32(v) => {
                            v.push(x);
                            true
                        }
                        Values::F64(v) => {
                            v.push(f64::from(x));
                            true
                        }
                        _ => false,
                    },
                    (Value::F64(x), _) => match values {
                        Values::F64(v) => {
                            v.push(x);
                            true
                        }
                        _ => false,
                    },
                    _ => false,
                };
                if !ok {
                    values.push_zero();
                    valid = false;
                    self.unrepresentable += 1;
                }
            }
            (
                Kind::Text {
                    offsets,
                    data,
                    trim,
                },
                v,
            ) => {
                match v {
                    Value::Text { bytes, charset } => {
                        let bytes = if *trim {
                            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                            &bytes[..end]
                        } else {
                            bytes
                        };
                        push_text(data, bytes, charset);
                    }
                    Value::Int(i) => data.extend_from_slice(i.to_string().as_bytes()),
                    Value::UInt(u) => data.extend_from_slice(u.to_string().as_bytes()),
                    _ => valid = false,
                }
                offsets.push(data.len() as i32);
            }
            (Kind::Binary { offsets, data }, v) => {
                match v {
                    Value::Bytes(b) | Value::Text { bytes: b, .. } => data.extend_from_slice(b),
                    _ => valid = false,
                }
                offsets.push(data.len() as i32);
            }
            (Kind::FixedBinary { len, data }, v) => {
                let at = data.len();
                match v {
                    Value::Bytes(b) if b.len() == *len => data.extend_from_slice(b),
                    _ => valid = false,
                }
                data.resize(at + *len, 0);
            }
            (Kind::FixedList { len, child }, v) => {
                let (len, child) = (*len, *child);
                n.nulls.append_non_null();
                n.len += 1;
                match v {
                    Value::Array(a) => {
                        for i in 0..len {
                            match a.get(i) {
                                Some(x) => self.push(child, x),
                                None => self.push_null(child),
                            }
                        }
                    }
                    _ => {
                        for _ in 0..len {
                            self.push_null(child);
                        }
                    }
                }
                return;
            }
            (Kind::Dict(d), Value::Enum { name, raw }) => {
                let number = raw;
                let raw = match raw {
                    Number::Int(i) => i as u64,
                    Number::UInt(u) => u,
                };
                let key = d.key_of_raw(raw, name, number);
                d.keys.push(key);
            }
            (Kind::Dict(d), _) => {
                d.keys.push(0);
                valid = false;
            }
            (
                Kind::Set {
                    names,
                    offsets,
                    item_offsets,
                    data,
                },
                v,
            ) => {
                if let Value::Set { bits, .. } = v {
                    names.append(bits, item_offsets, data);
                } else {
                    valid = false;
                }
                offsets.push(item_offsets.len() as i32 - 1);
            }
            (Kind::Struct { .. } | Kind::List { .. }, _) => {}
        }
        let n = &mut self.nodes[node];
        n.nulls.append(valid);
        n.len += 1;
    }

    /// Appends a set's bits to the set column `node`.
    pub(crate) fn push_set(&mut self, node: usize, bits: u64) {
        let n = &mut self.nodes[node];
        if let Kind::Set {
            names,
            offsets,
            item_offsets,
            data,
        } = &mut n.kind
        {
            names.append(bits, item_offsets, data);
            offsets.push(item_offsets.len() as i32 - 1);
        }
        n.nulls.append_non_null();
        n.len += 1;
    }

    /// Appends a null to `node` (and a slot to each child of a struct).
    pub(crate) fn push_null(&mut self, node: usize) {
        let n = &mut self.nodes[node];
        n.nulls.append_null();
        n.len += 1;
        match &mut n.kind {
            Kind::Prim { values, .. } => values.push_zero(),
            Kind::Text { offsets, .. } | Kind::Binary { offsets, .. } => {
                offsets.push(*offsets.last().unwrap_or(&0))
            }
            Kind::FixedBinary { len, data } => data.resize(data.len() + *len, 0),
            Kind::FixedList { len, child } => {
                let (len, child) = (*len, *child);
                for _ in 0..len {
                    self.push_null(child);
                }
            }
            Kind::Dict(d) => d.keys.push(0),
            Kind::Set { offsets, .. } => offsets.push(*offsets.last().unwrap_or(&0)),
            Kind::Struct { children } => {
                for c in children.clone() {
                    self.push_null(c);
                }
            }
            Kind::List { offsets, .. } => offsets.push(*offsets.last().unwrap_or(&0)),
        }
    }

    /// Keeps the first `len` values of `node` (and what they hold): undoes what a message that
    /// failed half way appended.
    pub(crate) fn truncate(&mut self, node: usize, len: usize) {
        let n = &mut self.nodes[node];
        if n.len > len {
            n.len = len;
            n.nulls.truncate(len);
        }
        // (A group's entries, a struct's children, may hold more than their parent says: the
        // parent's value is appended when the group or struct ends.)
        let last = |offsets: &Vec<i32>| offsets.last().map_or(0, |&o| o as usize);
        let mut child = None;
        match &mut n.kind {
            Kind::Prim {
                values, decimal, ..
            } => {
                values.truncate(len);
                if let Some(d) = decimal {
                    (d.mantissa, d.exponent, d.null) = (None, None, false);
                }
            }
            Kind::Text { offsets, data, .. } | Kind::Binary { offsets, data } => {
                offsets.truncate(len + 1);
                data.truncate(last(offsets));
            }
            Kind::FixedBinary { len: width, data } => data.truncate(len * *width),
            Kind::FixedList {
                len: width,
                child: c,
            } => child = Some((*c, len * *width)),
            Kind::Dict(d) => d.keys.truncate(len),
            Kind::Set {
                offsets,
                item_offsets,
                data,
                ..
            } => {
                offsets.truncate(len + 1);
                item_offsets.truncate(last(offsets) + 1);
                data.truncate(last(item_offsets));
            }
            Kind::Struct { children } => {
                for c in children.clone() {
                    self.truncate(c, len);
                }
            }
            Kind::List { entry, offsets } => {
                offsets.truncate(len + 1);
                child = Some((*entry, last(offsets)));
            }
        }
        if let Some((c, n)) = child {
            self.truncate(c, n);
        }
    }

    /// A message was read whole: the values it entered into dictionaries stay.
    #[inline]
    pub(crate) fn commit(&mut self) {
        for &node in &self.dicts {
            if let Kind::Dict(d) = &mut self.nodes[node].kind {
                if d.grew {
                    d.grew = false;
                    d.committed = d.strings.len();
                }
            }
        }
    }

    /// A message failed: the values it entered into dictionaries go.
    pub(crate) fn undo_dicts(&mut self) {
        for &node in &self.dicts {
            if let Kind::Dict(d) = &mut self.nodes[node].kind {
                if d.grew {
                    d.undo();
                }
            }
        }
    }

    /// A struct (composite or group entry) starts: it is not null.
    pub(crate) fn begin_struct(&mut self, node: usize) {
        let n = &mut self.nodes[node];
        n.nulls.append_non_null();
        n.len += 1;
    }

    /// A group ends: its entries so far make one list.
    pub(crate) fn end_list(&mut self, node: usize) {
        let entry_len = match &self.nodes[node].kind {
            Kind::List { entry, .. } => self.nodes[*entry].len,
            _ => return,
        };
        let n = &mut self.nodes[node];
        if let Kind::List { offsets, .. } = &mut n.kind {
            offsets.push(entry_len as i32);
        }
        n.nulls.append_non_null();
        n.len += 1;
    }

    /// Whether `node` is a decimal composite's column.
    pub(crate) fn is_decimal(&self, node: usize) -> bool {
        matches!(
            self.nodes[node].kind,
            Kind::Prim {
                decimal: Some(_),
                ..
            }
        )
    }

    /// A member of the decimal composite being read.
    pub(crate) fn decimal_member(&mut self, node: usize, name: &str, value: Value<'_>) {
        if let Kind::Prim {
            decimal: Some(d), ..
        } = &mut self.nodes[node].kind
        {
            let n = match value {
                Value::Int(i) => Some(i128::from(i)),
                Value::UInt(u) => Some(i128::from(u)),
                _ => None,
            };
            match (name, n) {
                (_, None) => d.null = true,
                ("mantissa", Some(m)) => d.mantissa = Some(m),
                (_, Some(e)) => d.exponent = i64::try_from(e).ok(),
            }
        }
    }

    /// The decimal composite being read ends: its value is appended.
    pub(crate) fn end_decimal(&mut self, node: usize) {
        let n = &mut self.nodes[node];
        let Kind::Prim {
            values,
            decimal: Some(d),
            ..
        } = &mut n.kind
        else {
            return;
        };
        let value = match (d.null, d.mantissa, d.exponent) {
            (false, Some(m), Some(e)) => rescale(m, e, d.scale, d.precision),
            _ => None,
        };
        let unrepresentable = !d.null && value.is_none();
        (d.mantissa, d.exponent, d.null) = (None, None, false);
        match value {
            Some(v) => {
                values.push_int(v);
                n.nulls.append_non_null();
                n.len += 1;
            }
            None => {
                self.unrepresentable += u64::from(unrepresentable);
                self.push_null(node);
            }
        }
    }

    /// Appends a key to the dictionary column `node` (the capture's flows).
    pub(crate) fn dict(&mut self, node: usize) -> Option<&mut Dict> {
        match &mut self.nodes[node].kind {
            Kind::Dict(d) => Some(d),
            _ => None,
        }
    }

    /// Marks the value just pushed to a dictionary column by [`Columns::dict`] as present.
    pub(crate) fn pushed(&mut self, node: usize) {
        let n = &mut self.nodes[node];
        n.nulls.append_non_null();
        n.len += 1;
    }

    /// The arrays of the row's columns since the last batch; the builders start afresh.
    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        let children = match &self.nodes[0].kind {
            Kind::Struct { children } => children.clone(),
            _ => Vec::new(),
        };
        self.nodes[0].len = 0;
        children.into_iter().map(|c| self.array(c)).collect()
    }

    fn array(&mut self, node: usize) -> ArrayRef {
        let data_type = self.nodes[node].field.data_type().clone();
        let n = &mut self.nodes[node];
        let len = std::mem::take(&mut n.len);
        let nulls = n.nulls.finish();
        let nullable = n.field.is_nullable();
        // A column Arrow holds as non-nullable keeps no validity (what is null in it is masked
        // by a null parent).
        let nulls = if nullable { nulls } else { None };
        let data = match &mut n.kind {
            Kind::Prim { values, .. } => ArrayData::builder(data_type)
                .len(len)
                .add_buffer(values.buffer())
                .nulls(nulls),
            Kind::Text { offsets, data, .. } => {
                let (offsets, data) = take_offsets(offsets, data);
                return strings(offsets, data, nulls);
            }
            Kind::Binary { offsets, data } => {
                let (offsets, data) = take_offsets(offsets, data);
                ArrayData::builder(data_type)
                    .len(len)
                    .add_buffer(Buffer::from_vec(offsets))
                    .add_buffer(Buffer::from_vec(data))
                    .nulls(nulls)
            }
            Kind::FixedBinary { data, .. } => ArrayData::builder(data_type)
                .len(len)
                .add_buffer(Buffer::from_vec(std::mem::replace(
                    data,
                    Vec::with_capacity(data.capacity()),
                )))
                .nulls(nulls),
            Kind::FixedList { child, .. } => {
                let child = *child;
                let child = self.array(child);
                ArrayData::builder(data_type)
                    .len(len)
                    .add_child_data(child.to_data())
                    .nulls(nulls)
            }
            Kind::Dict(d) => {
                let capacity = d.keys.capacity();
                let keys = std::mem::replace(&mut d.keys, Vec::with_capacity(capacity));
                let dictionary = d.dictionary();
                ArrayData::builder(data_type)
                    .len(len)
                    .add_buffer(Buffer::from_vec(keys))
                    .add_child_data(dictionary.to_data())
                    .nulls(nulls)
            }
            Kind::Set {
                offsets,
                item_offsets,
                data,
                ..
            } => {
                let (offsets, _) = take_offsets(offsets, &mut Vec::<u8>::new());
                let (item_offsets, data) = take_offsets(item_offsets, data);
                let items = strings(item_offsets, data, None);
                ArrayData::builder(data_type)
                    .len(len)
                    .add_buffer(Buffer::from_vec(offsets))
                    .add_child_data(items.to_data())
                    .nulls(nulls)
            }
            Kind::Struct { children } => {
                let children = children.clone();
                let arrays: Vec<ArrayData> =
                    children.iter().map(|c| self.array(*c).to_data()).collect();
                ArrayData::builder(data_type)
                    .len(len)
                    .child_data(arrays)
                    .nulls(nulls)
            }
            Kind::List { entry, offsets } => {
                let entry = *entry;
                let (offsets, _) = take_offsets(offsets, &mut Vec::<u8>::new());
                let entries = self.array(entry);
                ArrayData::builder(data_type)
                    .len(len)
                    .add_buffer(Buffer::from_vec(offsets))
                    .add_child_data(entries.to_data())
                    .nulls(nulls)
            }
        };
        // The builders keep every invariant Arrow checks; a failure here is a bug, and
        // validation costs little beside decoding.
        make_array(data.build().expect("a valid Arrow array"))
    }
}

/// A set's choices (each one's bit and name), and the items of the values below 256 as they
/// come (most sets are of a `uint8`, and a feed repeats few of their values): appending a
/// known value copies its items instead of testing each choice's bit.
#[derive(Debug)]
pub(crate) struct SetNames {
    choices: Vec<(u32, Box<str>)>,
    /// By value.
    memo: Vec<Option<SetItems>>,
}

/// A set value's items: their ends (from the first item's start) and their UTF-8 bytes.
#[derive(Debug)]
struct SetItems {
    ends: Box<[i32]>,
    bytes: Box<[u8]>,
}

impl SetNames {
    fn new(choices: impl Iterator<Item = (u32, Box<str>)>) -> SetNames {
        SetNames {
            choices: choices.collect(),
            memo: Vec::new(),
        }
    }

    /// Appends the items of value `bits`.
    #[inline]
    fn append(&mut self, bits: u64, item_offsets: &mut Vec<i32>, data: &mut Vec<u8>) {
        let Ok(small) = u8::try_from(bits) else {
            return set_items(&self.choices, bits, item_offsets, data);
        };
        if self.memo.is_empty() {
            self.memo.resize_with(256, || None);
        }
        let items = self.memo[usize::from(small)].get_or_insert_with(|| {
            let (mut ends, mut bytes) = (Vec::new(), Vec::new());
            set_items(&self.choices, bits, &mut ends, &mut bytes);
            SetItems {
                ends: ends.into(),
                bytes: bytes.into(),
            }
        });
        let start = data.len() as i32;
        data.extend_from_slice(&items.bytes);
        item_offsets.extend(items.ends.iter().map(|e| start + e));
    }
}

/// The names of the bits set in `bits` (in choice order; a bit with no choice as its number,
/// at the end) appended as a set's items.
fn set_items(
    names: &[(u32, Box<str>)],
    bits: u64,
    item_offsets: &mut Vec<i32>,
    data: &mut Vec<u8>,
) {
    let mut known = 0u64;
    for (bit, name) in names.iter() {
        if *bit < 64 {
            known |= 1 << bit;
            if bits >> bit & 1 == 1 {
                data.extend_from_slice(name.as_bytes());
                item_offsets.push(data.len() as i32);
            }
        }
    }
    let mut rest = bits & !known;
    while rest != 0 {
        let bit = rest.trailing_zeros();
        data.extend_from_slice(bit.to_string().as_bytes());
        item_offsets.push(data.len() as i32);
        rest &= rest - 1;
    }
}

/// The offsets and data so far, the builders left holding the start of the next batch.
fn take_offsets<T>(offsets: &mut Vec<i32>, data: &mut Vec<T>) -> (Vec<i32>, Vec<T>) {
    let mut fresh = Vec::with_capacity(offsets.capacity());
    fresh.push(0);
    let o = std::mem::replace(offsets, fresh);
    let d = std::mem::replace(data, Vec::with_capacity(data.capacity()));
    (o, d)
}

/// A `Utf8` array.
fn strings(offsets: Vec<i32>, data: Vec<u8>, nulls: Option<NullBuffer>) -> ArrayRef {
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    // The data is UTF-8 by construction (`push_text`).
    Arc::new(
        arrow_array::StringArray::try_new(offsets, Buffer::from_vec(data), nulls)
            .expect("UTF-8 text"),
    )
}

/// Appends `bytes` in `charset` as UTF-8: Latin-1 maps each byte to U+0000..U+00FF; UTF-8 that
/// is not valid has each bad sequence replaced by U+FFFD.
fn push_text(out: &mut Vec<u8>, bytes: &[u8], charset: Charset) {
    match charset {
        Charset::Utf8 => match std::str::from_utf8(bytes) {
            Ok(s) => out.extend_from_slice(s.as_bytes()),
            Err(_) => out.extend_from_slice(String::from_utf8_lossy(bytes).as_bytes()),
        },
        Charset::Latin1 => {
            if bytes.is_ascii() {
                out.extend_from_slice(bytes);
            } else {
                for &b in bytes {
                    let mut buf = [0u8; 2];
                    out.extend_from_slice(char::from(b).encode_utf8(&mut buf).as_bytes());
                }
            }
        }
    }
}

/// The Arrow type and reading of a decimal composite: its exponent constant, a fixed scale from
/// it; otherwise [`VARIABLE_SCALE`].
fn decimal_of(members: &[FieldLayout<'_>]) -> Option<(DataType, Decimal)> {
    let mantissa = members.iter().find(|m| m.info.name() == "mantissa")?;
    let exponent = members.iter().find(|m| m.info.name() == "exponent")?;
    let mantissa_digits = match mantissa.ty {
        FieldType::Scalar { primitive, .. } => digits(primitive),
        _ => 20,
    };
    let constant = match exponent.ty {
        FieldType::Constant(Value::Int(e)) => Some(e),
        FieldType::Constant(Value::UInt(e)) => i64::try_from(e).ok(),
        _ => None,
    };
    let (precision, scale) = match constant {
        Some(e) if e <= 0 && -e <= i64::from(MAX_PRECISION) => {
            (mantissa_digits.max((-e) as u8), (-e) as i8)
        }
        Some(e) if e > 0 && i64::from(mantissa_digits) + e <= i64::from(MAX_PRECISION) => {
            (mantissa_digits + e as u8, 0)
        }
        _ => (MAX_PRECISION, VARIABLE_SCALE),
    };
    let precision = precision.min(MAX_PRECISION);
    // Whether every mantissa of its type has a value at this precision (not an `int64` one:
    // 18 digits).
    let largest: i128 = match mantissa.ty {
        FieldType::Scalar { primitive, .. } => match primitive {
            PrimitiveType::Int8 => 128,
            PrimitiveType::UInt8 => 255,
            PrimitiveType::Int16 => 1 << 15,
            PrimitiveType::UInt16 => (1 << 16) - 1,
            PrimitiveType::Int32 => 1 << 31,
            PrimitiveType::UInt32 => (1 << 32) - 1,
            PrimitiveType::Int64 => 1 << 63,
            _ => (1 << 64) - 1,
        },
        _ => (1 << 64) - 1,
    };
    let all = match constant {
        Some(e) if e <= 0 => rescale(largest, e, scale, precision).is_some(),
        Some(e) => 10i128
            .checked_pow(e as u32)
            .and_then(|f| largest.checked_mul(f))
            .is_some_and(|v| v < 10i128.pow(u32::from(precision))),
        None => false,
    };
    Some((
        DataType::Decimal128(precision, scale),
        Decimal {
            scale,
            precision,
            all,
            mantissa: None,
            exponent: None,
            null: false,
        },
    ))
}

/// `mantissa × 10^exponent` as an integer at `scale`, when exact and within `precision` digits.
pub(crate) fn rescale(mantissa: i128, exponent: i64, scale: i8, precision: u8) -> Option<i128> {
    let shift = exponent.checked_add(i64::from(scale))?;
    let value = if shift >= 0 {
        let factor = 10i128.checked_pow(u32::try_from(shift).ok()?)?;
        mantissa.checked_mul(factor)?
    } else {
        let factor = 10i128.checked_pow(u32::try_from(-shift).ok()?)?;
        if mantissa % factor != 0 {
            return None;
        }
        mantissa / factor
    };
    let limit = 10i128.pow(u32::from(precision));
    (value.abs() < limit).then_some(value)
}

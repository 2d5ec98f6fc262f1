//! The column builders of one table: a tree of nodes kept in an arena (a message's fields,
//! composites as structs, groups as lists of structs), each appending the values the decoder
//! reports and turned into Arrow arrays batch by batch (docs/columnar.md gives the mapping).
//!
//! `schema` builds the tree from a message's layout, `values` holds numbers and decimals,
//! `text` the dictionaries, sets and strings.

mod schema;
mod text;
mod values;

use arrow_array::{make_array, ArrayRef};
use arrow_buffer::{Buffer, NullBufferBuilder};
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, TimeUnit};
use sable_otf::decode::{Number, Value};

use text::{push_text, strings, take_offsets};
pub(crate) use text::{Dict, SetNames};
pub(crate) use values::{rescale, Convert, Decimal, Values};

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
                d.commit();
            }
        }
    }

    /// A message failed: the values it entered into dictionaries go.
    pub(crate) fn undo_dicts(&mut self) {
        for &node in &self.dicts {
            if let Kind::Dict(d) = &mut self.nodes[node].kind {
                d.undo();
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

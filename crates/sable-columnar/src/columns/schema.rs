//! The columns of a message's layout: its fields, composites, groups and var data.

use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, TimeUnit};
use sable_ir::PrimitiveType;
use sable_otf::decode::{Number, Value};
use sable_otf::layout::{BlockLayout, FieldLayout, FieldType, Form, TailLayout};

use super::text::{Dict, SetNames};
use super::values::{rescale, Convert, Decimal, Values, MAX_PRECISION, VARIABLE_SCALE};
use super::{dict_type, Columns, Kind};

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
impl Columns {
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

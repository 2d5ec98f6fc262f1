//! Helpers of the columnar tests: schemas, vectors, and Arrow values read back as JSON so they
//! compare with the canonical JSON of the conformance vectors (docs/columnar.md's mapping).

#![allow(dead_code)]

use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field};
use sable_columnar::{Columnar, Extras, Options, RowMeta};
use sable_testkit::repo_root;
use serde_json::{json, Map, Value};

pub fn ir(schema: &str) -> sable_ir::Ir {
    let path = repo_root().join(schema);
    sable_schema::compile_file(&path)
        .ir
        .unwrap_or_else(|| panic!("{schema} does not compile"))
}

pub fn ir_of_xml(xml: &str) -> sable_ir::Ir {
    let compiled = sable_schema::compile_str(xml, Path::new("test.xml"));
    compiled.ir.unwrap_or_else(|| {
        panic!(
            "the test schema does not compile: {:?}",
            compiled.diagnostics
        )
    })
}

pub fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A conformance vector: the schema to decode with, the bytes, and the JSON expected.
pub struct Vector {
    pub name: String,
    pub schema: String,
    pub bytes: Vec<u8>,
    pub json: Value,
}

/// Every conformance vector with bytes (a cross-version one as its reader decodes it).
pub fn vectors() -> Vec<Vector> {
    let mut all = Vec::new();
    let dir = repo_root().join("conformance/vectors");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("vectors")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    for file in files {
        for line in std::fs::read_to_string(&file).expect("read").lines() {
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(line).expect("JSON");
            let hex = v["hex"].as_str().unwrap_or_default();
            if hex.is_empty() {
                continue;
            }
            let (schema, json) = match v.get("decodeSchema") {
                Some(s) => (s.as_str().unwrap().to_owned(), v["decodeJson"].clone()),
                None => (v["schema"].as_str().unwrap().to_owned(), v["json"].clone()),
            };
            all.push(Vector {
                name: v["name"].as_str().unwrap().to_owned(),
                schema,
                bytes: unhex(hex),
                json,
            });
        }
    }
    all
}

/// Decodes `messages` with `ir` into batches, by table name.
pub fn decode_all(ir: &sable_ir::Ir, messages: &[&[u8]]) -> Vec<(String, RecordBatch)> {
    let mut columnar = Columnar::new(ir, Extras::default(), Options::default()).expect("tables");
    let tables = columnar.tables();
    let mut out = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let meta = RowMeta {
            offset: i as u64,
            ..RowMeta::default()
        };
        columnar.push(m, &meta).expect("decodes");
        while let Some((t, b)) = columnar.take_full() {
            out.push((tables[t].name.clone(), b));
        }
    }
    for (t, b) in columnar.finish() {
        out.push((tables[t].name.clone(), b));
    }
    out
}

/// An exact decimal `m × 10^e` as text: no exponent, no trailing zeros after the point.
pub fn decimal_text(m: i128, e: i64) -> String {
    let negative = m < 0;
    let digits = m.unsigned_abs().to_string();
    let mut text = if e >= 0 {
        if digits == "0" {
            "0".to_owned()
        } else {
            format!("{digits}{}", "0".repeat(e as usize))
        }
    } else {
        let point = (-e) as usize;
        let padded = if digits.len() <= point {
            format!("{}{digits}", "0".repeat(point - digits.len() + 1))
        } else {
            digits
        };
        let (int, frac) = padded.split_at(padded.len() - point);
        let frac = frac.trim_end_matches('0');
        if frac.is_empty() {
            int.to_owned()
        } else {
            format!("{int}.{frac}")
        }
    };
    if negative && text != "0" {
        text.insert(0, '-');
    }
    text
}

fn float_text(x: f64, single: bool) -> Value {
    if single {
        Value::String(format!("{:?}", x as f32))
    } else {
        Value::String(format!("{x:?}"))
    }
}

/// Row `row` of `array` as JSON: numbers as numbers, floats and decimals as exact text,
/// dictionaries as their string, bytes as hex, lists as arrays, structs as objects.
pub fn actual(array: &ArrayRef, row: usize) -> Value {
    if array.is_null(row) {
        return Value::Null;
    }
    macro_rules! prim {
        ($t:ty) => {
            json!(array.as_primitive::<$t>().value(row))
        };
    }
    match array.data_type() {
        DataType::Int8 => prim!(Int8Type),
        DataType::Int16 => prim!(Int16Type),
        DataType::Int32 => prim!(Int32Type),
        DataType::Int64 => prim!(Int64Type),
        DataType::UInt8 => prim!(UInt8Type),
        DataType::UInt16 => prim!(UInt16Type),
        DataType::UInt32 => prim!(UInt32Type),
        DataType::UInt64 => prim!(UInt64Type),
        DataType::Date32 => prim!(Date32Type),
        DataType::Timestamp(unit, _) => {
            use arrow_schema::TimeUnit::*;
            match unit {
                Second => prim!(TimestampSecondType),
                Millisecond => prim!(TimestampMillisecondType),
                Microsecond => prim!(TimestampMicrosecondType),
                Nanosecond => prim!(TimestampNanosecondType),
            }
        }
        DataType::Float32 => float_text(
            f64::from(array.as_primitive::<Float32Type>().value(row)),
            true,
        ),
        DataType::Float64 => float_text(array.as_primitive::<Float64Type>().value(row), false),
        DataType::Decimal128(_, scale) => Value::String(decimal_text(
            array.as_primitive::<Decimal128Type>().value(row),
            -i64::from(*scale),
        )),
        DataType::Utf8 => Value::String(array.as_string::<i32>().value(row).to_owned()),
        DataType::Binary => Value::String(hex(array.as_binary::<i32>().value(row))),
        DataType::FixedSizeBinary(_) => Value::String(hex(array.as_fixed_size_binary().value(row))),
        DataType::Dictionary(_, _) => {
            let d = array.as_dictionary::<Int32Type>();
            let key = d.keys().value(row) as usize;
            actual(d.values(), key)
        }
        DataType::List(_) => {
            let l = array.as_list::<i32>();
            let items = l.value(row);
            Value::Array((0..items.len()).map(|i| actual(&items, i)).collect())
        }
        DataType::FixedSizeList(_, _) => {
            let l = array.as_fixed_size_list();
            let items = l.value(row);
            Value::Array((0..items.len()).map(|i| actual(&items, i)).collect())
        }
        DataType::Struct(fields) => {
            let s = array.as_struct();
            let mut object = Map::new();
            for (f, c) in fields.iter().zip(s.columns()) {
                object.insert(f.name().clone(), actual(c, row));
            }
            Value::Object(object)
        }
        other => panic!("no JSON form for {other}"),
    }
}

/// The canonical JSON value `value` of a field of Arrow type `field`, as [`actual`] shows it:
/// what docs/columnar.md's mapping makes of it.
pub fn expected(value: &Value, field: &Field) -> Value {
    if value.is_null() {
        return Value::Null;
    }
    let single = matches!(field.data_type(), DataType::Float32);
    match field.data_type() {
        DataType::Float32 | DataType::Float64 => match value {
            Value::String(s) => {
                let x = match s.as_str() {
                    "NaN" => f64::NAN,
                    "Infinity" => f64::INFINITY,
                    "-Infinity" => f64::NEG_INFINITY,
                    _ => panic!("{}: float {s}", field.name()),
                };
                float_text(x, single)
            }
            Value::Number(n) => {
                if single {
                    let x: f32 = n.to_string().parse().expect("float");
                    float_text(f64::from(x), true)
                } else {
                    float_text(n.as_f64().expect("float"), false)
                }
            }
            _ => panic!("{}: not a float: {value}", field.name()),
        },
        DataType::Decimal128(..) => {
            let m = &value["mantissa"];
            let e = &value["exponent"];
            if m.is_null() || e.is_null() {
                return Value::Null;
            }
            let m = m
                .as_i64()
                .map(i128::from)
                .or(m.as_u64().map(i128::from))
                .expect("mantissa");
            Value::String(decimal_text(m, e.as_i64().expect("exponent")))
        }
        DataType::Dictionary(..) => match value {
            Value::String(s) => Value::String(s.clone()),
            Value::Object(o) => Value::String(o["unknown"].to_string()),
            _ => panic!("{}: not an enum: {value}", field.name()),
        },
        DataType::Utf8 => match value {
            Value::String(s) => Value::String(s.clone()),
            Value::Object(o) => {
                let bytes = unhex(o["hex"].as_str().expect("hex"));
                let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                Value::String(String::from_utf8_lossy(&bytes[..end]).into_owned())
            }
            Value::Number(n) => Value::String(n.to_string()),
            _ => panic!("{}: not text: {value}", field.name()),
        },
        DataType::List(item) | DataType::FixedSizeList(item, _) => Value::Array(
            value
                .as_array()
                .unwrap_or_else(|| panic!("{}: not an array: {value}", field.name()))
                .iter()
                .map(|v| match (item.data_type(), v) {
                    // A set's bit without a name: its number, as text.
                    (DataType::Utf8, Value::Number(n)) => Value::String(n.to_string()),
                    _ => expected(v, item),
                })
                .collect(),
        ),
        DataType::Struct(fields) => {
            let object = value
                .as_object()
                .unwrap_or_else(|| panic!("{}: not an object: {value}", field.name()));
            let mut out = Map::new();
            for f in fields {
                let v = object
                    .get(f.name())
                    .unwrap_or_else(|| panic!("{}: no member {}", field.name(), f.name()));
                out.insert(f.name().clone(), expected(v, f));
            }
            assert_eq!(
                object.len(),
                fields.len(),
                "{}: members {:?} but columns {:?}",
                field.name(),
                object.keys().collect::<Vec<_>>(),
                fields.iter().map(|f| f.name()).collect::<Vec<_>>()
            );
            Value::Object(out)
        }
        _ => value.clone(),
    }
}

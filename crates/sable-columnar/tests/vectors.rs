//! Every conformance vector's message as a row of its table: each column's type and value
//! against the vector's canonical JSON (docs/columnar.md's mapping), and the tables through
//! Arrow IPC and Parquet files and back.

mod common;

use std::sync::Arc;

use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use common::*;
use sable_columnar::files::{DirWriter, Format};
use sable_columnar::{Columnar, Extras, Options, RowMeta};
use serde_json::Value;

/// The differences between `batch`'s row `row` and the canonical JSON `json` of its message.
fn compare(json: &Value, batch: &RecordBatch, row: usize) -> Vec<String> {
    let mut wrong = Vec::new();
    let fields = json["fields"].as_object().expect("fields");
    let schema = batch.schema();
    for (i, f) in schema.fields().iter().enumerate() {
        if f.name().starts_with('_') {
            continue;
        }
        let Some(value) = fields.get(f.name()) else {
            wrong.push(format!("column {} is not in the JSON", f.name()));
            continue;
        };
        let want = expected(value, f);
        let got = actual(batch.column(i), row);
        if want != got {
            wrong.push(format!(
                "{} ({}): expected {want}, got {got}",
                f.name(),
                f.data_type()
            ));
        }
        if value.is_null() && !f.is_nullable() {
            wrong.push(format!(
                "{} is null but its column is not nullable",
                f.name()
            ));
        }
    }
    for name in fields.keys() {
        if schema.field_with_name(name).is_err() {
            wrong.push(format!("field {name} has no column"));
        }
    }
    wrong
}

#[test]
fn every_vector_decodes_to_its_json_column_by_column() {
    let vectors = vectors();
    assert!(vectors.len() > 50, "only {} vectors", vectors.len());
    let mut failures = Vec::new();
    for v in &vectors {
        let ir = ir(&v.schema);
        let batches = decode_all(&ir, &[&v.bytes]);
        assert_eq!(batches.len(), 1, "{}: one table with one row", v.name);
        let (name, batch) = &batches[0];
        assert_eq!(name, v.json["message"].as_str().unwrap(), "{}", v.name);
        assert_eq!(batch.num_rows(), 1);
        for problem in compare(&v.json, batch, 0) {
            failures.push(format!("{}: {problem}", v.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn all_of_a_schemas_vectors_fill_one_table_per_template_row_by_row() {
    // The vectors of one schema together: each table holds its messages in order.
    let vectors = vectors();
    let mut by_schema: Vec<(&str, Vec<&Vector>)> = Vec::new();
    for v in &vectors {
        match by_schema.iter_mut().find(|(s, _)| *s == v.schema) {
            Some((_, vs)) => vs.push(v),
            None => by_schema.push((&v.schema, vec![v])),
        }
    }
    for (schema, vs) in by_schema {
        let ir = ir(schema);
        let messages: Vec<&[u8]> = vs.iter().map(|v| v.bytes.as_slice()).collect();
        let batches = decode_all(&ir, &messages);
        for (name, batch) in &batches {
            let of_table: Vec<&&Vector> = vs
                .iter()
                .filter(|v| v.json["message"].as_str() == Some(name.as_str()))
                .collect();
            assert_eq!(batch.num_rows(), of_table.len(), "{schema} {name}");
            let offsets = batch
                .column_by_name("_offset")
                .expect("_offset")
                .as_any()
                .downcast_ref::<arrow_array::UInt64Array>()
                .expect("u64")
                .values()
                .to_vec();
            for (row, v) in of_table.iter().enumerate() {
                let problems = compare(&v.json, batch, row);
                assert!(problems.is_empty(), "{}: {}", v.name, problems.join("\n"));
                let at = vs.iter().position(|w| std::ptr::eq(*w, **v)).unwrap() as u64;
                assert_eq!(offsets[row], at, "{}: _offset", v.name);
            }
        }
    }
}

#[test]
fn car_columns_have_the_types_of_the_mapping() {
    let v = vectors()
        .into_iter()
        .find(|v| v.schema.ends_with("/example-schema.xml"))
        .expect("a Car vector");
    let batches = decode_all(&ir(&v.schema), &[&v.bytes]);
    let schema = batches[0].1.schema();
    let ty = |name: &str| schema.field_with_name(name).unwrap().data_type().clone();
    let nullable = |name: &str| schema.field_with_name(name).unwrap().is_nullable();
    assert_eq!(ty("_offset"), DataType::UInt64);
    assert_eq!(ty("serialNumber"), DataType::UInt64);
    assert_eq!(ty("modelYear"), DataType::UInt16);
    assert!(!nullable("serialNumber"), "required, version 0");
    assert_eq!(
        ty("available"),
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
    );
    assert_eq!(ty("vehicleCode"), DataType::Utf8);
    assert!(
        matches!(ty("someNumbers"), DataType::FixedSizeList(item, 5) if *item.data_type() == DataType::UInt32)
    );
    assert!(matches!(ty("extras"), DataType::List(item) if *item.data_type() == DataType::Utf8));
    assert!(matches!(ty("engine"), DataType::Struct(_)));
    match ty("fuelFigures") {
        DataType::List(item) => match item.data_type() {
            DataType::Struct(fields) => {
                let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
                assert_eq!(names, ["speed", "mpg", "usageDescription"]);
                assert_eq!(*fields[1].data_type(), DataType::Float32);
            }
            other => panic!("fuelFigures entries: {other}"),
        },
        other => panic!("fuelFigures: {other}"),
    }
    match ty("performanceFigures") {
        DataType::List(item) => match item.data_type() {
            DataType::Struct(fields) => assert!(
                matches!(fields[1].data_type(), DataType::List(inner) if matches!(inner.data_type(), DataType::Struct(_))),
                "nested group: {}",
                fields[1].data_type()
            ),
            other => panic!("{other}"),
        },
        other => panic!("{other}"),
    }
    assert_eq!(ty("manufacturer"), DataType::Utf8);
}

#[test]
fn decimals_timestamps_sets_and_groups_of_the_market_data_vectors() {
    let v = vectors()
        .into_iter()
        .find(|v| v.name == "marketdata-two-entries")
        .expect("vector");
    let batches = decode_all(&ir(&v.schema), &[&v.bytes]);
    let batch = &batches[0].1;
    let DataType::List(item) = batch
        .schema()
        .field_with_name("Entries")
        .unwrap()
        .data_type()
        .clone()
    else {
        panic!("Entries is a list")
    };
    let DataType::Struct(fields) = item.data_type() else {
        panic!("of structs")
    };
    let ty = |name: &str| {
        fields
            .iter()
            .find(|f| f.name() == name)
            .unwrap_or_else(|| panic!("{name}"))
            .data_type()
            .clone()
    };
    assert!(
        matches!(ty("MdEntryPx"), DataType::Decimal128(_, _)),
        "{}",
        ty("MdEntryPx")
    );
    assert_eq!(
        ty("MdEntryTime"),
        DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
    );
    let row = actual(batch.column_by_name("Entries").unwrap(), 0);
    assert_eq!(row[0]["MdEntryPx"], "500000000000000");
    assert_eq!(row[0]["MdEntryTime"], 1_500_000_000_000_000_000u64);
    assert_eq!(row[0]["QuoteCondition"], serde_json::json!(["Implied"]));
    assert_eq!(
        row[1]["TradeCondition"],
        serde_json::json!(["OpeningTrade"])
    );
}

/// A schema of every construct the mapping has a rule for, versioned so that nulls come from
/// absent fields too.
const SCHEMA: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="t" id="7" version="1" byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="groupSizeEncoding">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="numInGroup" primitiveType="uint16"/>
    </composite>
    <composite name="varStringEncoding">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
    <composite name="varDataEncoding">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0"/>
    </composite>
    <composite name="PRICE9">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-9</type>
    </composite>
    <composite name="PRICENULL9">
      <type name="mantissa" primitiveType="int64" presence="optional"/>
      <type name="exponent" primitiveType="int8" presence="constant">-9</type>
    </composite>
    <composite name="Dec">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8"/>
    </composite>
    <type name="Nanos" primitiveType="uint64" semanticType="UTCTimestamp"/>
    <type name="Day" primitiveType="uint16" semanticType="LocalMktDate"/>
    <type name="OptInt" primitiveType="int32" presence="optional"/>
    <enum name="Side" encodingType="uint8"><validValue name="Buy">1</validValue><validValue name="Sell">2</validValue></enum>
    <set name="Flags" encodingType="uint8"><choice name="A">0</choice><choice name="B">2</choice></set>
  </types>
  <sbe:message name="M" id="1">
    <field name="price" id="1" type="PRICE9"/>
    <field name="optPrice" id="2" type="PRICENULL9"/>
    <field name="dec" id="3" type="Dec"/>
    <field name="time" id="4" type="Nanos"/>
    <field name="day" id="6" type="Day"/>
    <field name="opt" id="7" type="OptInt"/>
    <field name="side" id="8" type="Side"/>
    <field name="flags" id="9" type="Flags"/>
    <field name="late" id="10" type="uint32" sinceVersion="1"/>
    <group name="outer" id="20" dimensionType="groupSizeEncoding">
      <field name="a" id="21" type="uint8"/>
      <group name="inner" id="22" dimensionType="groupSizeEncoding">
        <field name="b" id="23" type="int16"/>
        <data name="note" id="24" type="varStringEncoding"/>
      </group>
    </group>
    <data name="text" id="30" type="varStringEncoding"/>
    <data name="blob" id="31" type="varDataEncoding"/>
  </sbe:message>
</sbe:messageSchema>"#;

fn encode(ir: &sable_ir::Ir, json: &str) -> Vec<u8> {
    let encoder = sable_otf::encode::Encoder::new(ir).expect("encoder");
    let mut out = Vec::new();
    encoder.encode_json(json, &mut out).expect("encodes");
    out
}

const FULL: &str = r#"{"message":"M","fields":{"price":{"mantissa":12952500000000,"exponent":-9},"optPrice":{"mantissa":-5,"exponent":-9},"dec":{"mantissa":125,"exponent":-2},"time":1700000000123456789,"day":19675,"opt":-7,"side":"Sell","flags":["A","B"],"late":9,"outer":[{"a":1,"inner":[{"b":-2,"note":"x"},{"b":3,"note":""}]},{"a":2,"inner":[]}],"text":"héllo","blob":"00ff"}}"#;
const NULLS: &str = r#"{"message":"M","fields":{"price":{"mantissa":0,"exponent":-9},"optPrice":{"mantissa":null,"exponent":-9},"dec":{"mantissa":1,"exponent":3},"time":0,"day":0,"opt":null,"side":null,"flags":[],"late":0,"outer":[],"text":"","blob":""}}"#;

#[test]
fn nulls_nested_groups_decimals_and_timestamps_of_a_schema_of_every_construct() {
    let ir = ir_of_xml(SCHEMA);
    let full = encode(&ir, FULL);
    let nulls = encode(&ir, NULLS);
    // The same message from a writer at version 0: `late` is absent.
    let mut old = full.clone();
    old[6] = 0;
    let batches = decode_all(&ir, &[&full, &nulls, &old]);
    let batch = &batches[0].1;
    let schema = batch.schema();
    let ty = |name: &str| schema.field_with_name(name).unwrap().data_type().clone();
    assert_eq!(ty("price"), DataType::Decimal128(18, 9));
    assert_eq!(ty("dec"), DataType::Decimal128(38, 18));
    assert_eq!(
        ty("time"),
        DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
    );
    assert_eq!(ty("day"), DataType::Date32);
    assert_eq!(ty("blob"), DataType::Binary);
    assert_eq!(ty("text"), DataType::Utf8);
    let row = |r: usize| -> serde_json::Map<String, Value> {
        schema
            .fields()
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name().clone(), actual(batch.column(i), r)))
            .collect()
    };
    let r = row(0);
    assert_eq!(r["price"], "12952.5");
    assert_eq!(r["optPrice"], "-0.000000005");
    assert_eq!(r["dec"], "1.25");
    assert_eq!(r["time"], 1_700_000_000_123_456_789u64);
    assert_eq!(r["day"], 19675);
    assert_eq!(r["side"], "Sell");
    assert_eq!(r["flags"], serde_json::json!(["A", "B"]));
    assert_eq!(r["late"], 9);
    assert_eq!(
        r["outer"],
        serde_json::json!([{"a":1,"inner":[{"b":-2,"note":"x"},{"b":3,"note":""}]},{"a":2,"inner":[]}])
    );
    assert_eq!(r["text"], "héllo");
    assert_eq!(r["blob"], "00ff");
    let r = row(1);
    assert_eq!(r["optPrice"], Value::Null);
    assert_eq!(r["dec"], "1000");
    assert_eq!(r["opt"], Value::Null);
    assert_eq!(r["side"], Value::Null);
    assert_eq!(r["flags"], serde_json::json!([]));
    assert_eq!(r["outer"], serde_json::json!([]));
    let r = row(2);
    assert_eq!(r["late"], Value::Null, "absent at version 0");
    assert_eq!(r["price"], "12952.5");
    // A set's value seen before (its items copied from the first time).
    assert_eq!(r["flags"], serde_json::json!(["A", "B"]));
    for name in ["optPrice", "opt", "side", "late"] {
        assert!(
            schema.field_with_name(name).unwrap().is_nullable(),
            "{name}"
        );
    }
}

#[test]
fn a_message_that_fails_to_decode_adds_no_row() {
    let ir = ir_of_xml(SCHEMA);
    let full = encode(&ir, FULL);
    let mut columnar = Columnar::new(&ir, Extras::default(), Options::default()).unwrap();
    let error = columnar
        .push(&full[..full.len() - 1], &RowMeta::default())
        .expect_err("truncated");
    assert_eq!(error.kind().name(), "truncated");
    assert_eq!(error.field(), "fields.blob");
    columnar.push(&full, &RowMeta::default()).unwrap();
    let batches = columnar.finish();
    assert_eq!(batches.len(), 1);
    assert_eq!(batches[0].1.num_rows(), 1);
}

#[test]
fn batches_are_cut_by_rows_and_the_files_read_back_equal() {
    let ir = ir_of_xml(SCHEMA);
    let messages = [encode(&ir, FULL), encode(&ir, NULLS)];
    let options = Options {
        batch_rows: 7,
        batch_bytes: 1 << 20,
        ..Options::default()
    };
    for format in [Format::Arrow, Format::Parquet] {
        let dir = sable_testkit::ScratchDir::new("columnar-files");
        let mut columnar = Columnar::new(&ir, Extras::default(), options).unwrap();
        let tables = columnar.tables();
        let mut writer = DirWriter::new(dir.path(), format).unwrap();
        let mut batches = Vec::new();
        for i in 0..50u64 {
            let meta = RowMeta {
                offset: i,
                ..RowMeta::default()
            };
            columnar.push(&messages[i as usize % 2], &meta).unwrap();
            while let Some((t, b)) = columnar.take_full() {
                assert_eq!(b.num_rows(), 7);
                writer.write(t, &tables[t], &b).unwrap();
                batches.push(b);
            }
        }
        for (t, b) in columnar.finish() {
            writer.write(t, &tables[t], &b).unwrap();
            batches.push(b);
        }
        let files = writer.finish().unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(
            files[0].file_name().unwrap().to_str().unwrap(),
            format!("M.{}", format.extension())
        );
        let schema = tables[0].schema.clone();
        let written = arrow_select_concat(&schema, &batches);
        let file = std::fs::File::open(&files[0]).unwrap();
        let read: Vec<RecordBatch> = match format {
            Format::Arrow => arrow_ipc::reader::FileReader::try_new(file, None)
                .unwrap()
                .map(|b| b.unwrap())
                .collect(),
            Format::Parquet => {
                parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
                    .unwrap()
                    .build()
                    .unwrap()
                    .map(|b| b.unwrap())
                    .collect()
            }
        };
        let read_back = arrow_select_concat(&read[0].schema(), &read);
        assert_eq!(read_back.num_rows(), 50, "{format:?}");
        assert_eq!(
            read_back.schema().fields(),
            written.schema().fields(),
            "{format:?}"
        );
        for r in 0..50 {
            for c in 0..written.num_columns() {
                assert_eq!(
                    actual(read_back.column(c), r),
                    actual(written.column(c), r),
                    "{format:?} row {r} column {}",
                    schema.field(c).name()
                );
            }
        }
    }
}

/// The batches as one (row by row, through JSON: the test needs no `concat` kernel).
fn arrow_select_concat(schema: &arrow_schema::SchemaRef, batches: &[RecordBatch]) -> RecordBatch {
    let mut columns = Vec::new();
    for c in 0..schema.fields().len() {
        let arrays: Vec<&dyn Array> = batches.iter().map(|b| b.column(c).as_ref()).collect();
        columns.push(concat(&arrays));
    }
    RecordBatch::try_new(schema.clone(), columns).unwrap()
}

fn concat(arrays: &[&dyn Array]) -> Arc<dyn Array> {
    let data: Vec<_> = arrays.iter().map(|a| a.to_data()).collect();
    let refs: Vec<&arrow_data::ArrayData> = data.iter().collect();
    let mut mutable = arrow_data::transform::MutableArrayData::new(refs, true, 0);
    for (i, a) in arrays.iter().enumerate() {
        mutable.try_extend(i, 0, a.len()).unwrap();
    }
    arrow_array::make_array(mutable.freeze())
}

//! Readable forms (docs/json.md): decimals of mantissa and exponent (constant or not),
//! timestamps, dates; in the text form instead of the raw value, in JSON beside it when asked,
//! and the canonical JSON unchanged otherwise.

mod support;

use sable_otf::json::JsonPrinter;
use sable_otf::text::TextPrinter;
use support::W;

const SCHEMA: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="r" id="5" version="0" byteOrder="littleEndian">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
        <composite name="PRICENULL9">
            <type name="mantissa" primitiveType="int64" presence="optional" nullValue="9223372036854775807"/>
            <type name="exponent" primitiveType="int8" presence="constant">-9</type>
        </composite>
        <composite name="FLOAT">
            <type name="mantissa" primitiveType="int64"/>
            <type name="exponent" primitiveType="int8"/>
        </composite>
        <type name="uInt64" primitiveType="uint64"/>
        <type name="LocalMktDate" primitiveType="uint16" semanticType="LocalMktDate"/>
    </types>
    <sbe:message name="Trade" id="1">
        <field name="TransactTime" id="60" type="uInt64" semanticType="UTCTimestamp"/>
        <field name="price" id="2" type="PRICENULL9"/>
        <field name="qty" id="3" type="FLOAT"/>
        <field name="sent" id="4" type="uInt64" timeUnit="millisecond"/>
        <field name="day" id="5" type="LocalMktDate"/>
    </sbe:message>
</sbe:messageSchema>"#;

fn trade(price: i64) -> Vec<u8> {
    let mut w = W::le();
    w.header(35, 1, 5, 0)
        .u64(1_700_000_000_123_456_789)
        .i64(price)
        .i64(-125)
        .i8(-2)
        .u64(1_700_000_000_123)
        .u16(20_000);
    w.buf
}

fn ir() -> sable_ir::Ir {
    sable_schema::compile_str(SCHEMA, std::path::Path::new("r.xml"))
        .ir
        .unwrap()
}

fn json(printer: &JsonPrinter, buf: &[u8]) -> String {
    let mut out = Vec::new();
    assert_eq!(printer.print(buf, &mut out), Ok(buf.len()));
    String::from_utf8(out).unwrap()
}

const CANONICAL: &str = r#"{"message":"Trade","header":{"blockLength":35,"templateId":1,"schemaId":5,"version":0},"fields":{"TransactTime":1700000000123456789,"price":{"mantissa":12952500000000,"exponent":-9},"qty":{"mantissa":-125,"exponent":-2},"sent":1700000000123,"day":20000}}"#;

#[test]
fn canonical_json_is_unchanged_and_readable_json_adds_the_forms_beside() {
    let ir = ir();
    let buf = trade(12_952_500_000_000);
    assert_eq!(json(&JsonPrinter::new(&ir).unwrap(), &buf), CANONICAL);
    let readable = JsonPrinter::new(&ir).unwrap().readable(true);
    assert_eq!(
        json(&readable, &buf),
        r#"{"message":"Trade","header":{"blockLength":35,"templateId":1,"schemaId":5,"version":0},"fields":{"TransactTime":1700000000123456789,"TransactTime.readable":"2023-11-14T22:13:20.123456789Z","price":{"mantissa":12952500000000,"exponent":-9},"price.readable":"12952.5","qty":{"mantissa":-125,"exponent":-2},"qty.readable":"-1.25","sent":1700000000123,"sent.readable":"2023-11-14T22:13:20.123Z","day":20000,"day.readable":"2024-10-04"}}"#
    );
    let null_price = json(&readable, &trade(i64::MAX));
    assert!(
        null_price.contains(r#""price":{"mantissa":null,"exponent":-9},"price.readable":null,"#),
        "{null_price}"
    );
}

#[test]
fn the_text_form_shows_readable_values() {
    let mut out = Vec::new();
    TextPrinter::new(&ir())
        .unwrap()
        .print(&trade(12_952_500_000_000), &mut out)
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.ends_with(
            "TransactTime: 2023-11-14T22:13:20.123456789Z\nprice: 12952.5\nqty: -1.25\nsent: 2023-11-14T22:13:20.123Z\nday: 2024-10-04\n"
        ),
        "{text}"
    );
    let mut out = Vec::new();
    TextPrinter::new(&ir())
        .unwrap()
        .print(&trade(i64::MAX), &mut out)
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("\nprice: null\n"), "{text}");
}

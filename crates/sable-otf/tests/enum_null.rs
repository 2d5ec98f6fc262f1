//! An enum holding its null value is `null`, required or not (docs/json.md): iLink 3's enums on
//! an optional encoding type (`uInt8NULL`, nullValue 255), which the IR cannot tell from a
//! required one. The same through the compiled code, the interpreter, the generic path and the
//! text printer, and `null` encodes back to the null value.

mod support;

use sable_otf::decode::Decoder;
use sable_otf::encode::Encoder;
use sable_otf::json::{Jit, JsonPrinter, JsonVisitor};
use sable_otf::text::TextPrinter;
use support::{ir, W};

/// `optional_enum_nullify.xml`'s message: `optionalEnum` (an optional field), then
/// `requiredEnumFromOptionalType` (a required field of an enum whose encodingType is optional,
/// nullValue 255), then `optionalComposite.optionalCounter` (uint16, nullValue 0).
fn message(first: u8, second: u8) -> Vec<u8> {
    let mut w = W::le();
    w.header(4, 1, 1100, 0).u8(first).u8(second).u16(7);
    w.buf
}

const NULLS: &str = r#"{"message":"optionalEnumNullify","header":{"blockLength":4,"templateId":1,"schemaId":1100,"version":0},"fields":{"optionalEnum":null,"requiredEnumFromOptionalType":null,"optionalComposite":{"optionalCounter":7}}}"#;

fn json_of(p: &JsonPrinter, buf: &[u8]) -> String {
    let mut out = Vec::new();
    assert_eq!(p.print(buf, &mut out), Ok(buf.len()));
    String::from_utf8(out).unwrap()
}

#[test]
fn an_enum_of_an_optional_encoding_type_holding_its_null_value_is_null() {
    let ir = ir("optional_enum_nullify.xml");
    let buf = message(255, 255);
    for jit in [Jit::Eager, Jit::Never] {
        let p = JsonPrinter::with_jit(&ir, jit).unwrap();
        assert_eq!(json_of(&p, &buf), NULLS, "{jit:?}");
    }
    let mut generic = Vec::new();
    Decoder::new(&ir)
        .unwrap()
        .decode(&buf, &mut JsonVisitor::new(&mut generic))
        .unwrap();
    assert_eq!(String::from_utf8(generic).unwrap(), NULLS);

    let mut text = Vec::new();
    TextPrinter::new(&ir)
        .unwrap()
        .print(&buf, &mut text)
        .unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains("\nrequiredEnumFromOptionalType: null\n"),
        "{text}"
    );

    // Named values and values of no name are as before.
    let p = JsonPrinter::with_jit(&ir, Jit::Eager).unwrap();
    let json = json_of(&p, &message(1, 3));
    assert!(
        json.contains(r#""optionalEnum":"One","requiredEnumFromOptionalType":"Alpha""#),
        "{json}"
    );
    let json = json_of(&p, &message(9, 254));
    assert!(
        json.contains(
            r#""optionalEnum":{"unknown":9},"requiredEnumFromOptionalType":{"unknown":254}"#
        ),
        "{json}"
    );
}

#[test]
fn null_encodes_back_to_an_enums_null_value() {
    let ir = ir("optional_enum_nullify.xml");
    let mut out = Vec::new();
    Encoder::new(&ir)
        .unwrap()
        .encode_json(NULLS, &mut out)
        .unwrap();
    assert_eq!(out, message(255, 255));
}

const WIDE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="wide" id="7" version="0" byteOrder="littleEndian">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
        <type name="u16Null" primitiveType="uint16" presence="optional" nullValue="65535"/>
        <enum name="Wide" encodingType="u16Null">
            <validValue name="Low">1</validValue>
            <validValue name="High">1000</validValue>
        </enum>
        <enum name="Side" encodingType="char">
            <validValue name="Buy">1</validValue>
        </enum>
    </types>
    <sbe:message name="M" id="1">
        <field name="wide" id="1" type="Wide"/>
        <field name="side" id="2" type="Side"/>
    </sbe:message>
</sbe:messageSchema>"#;

#[test]
fn char_and_two_byte_enums_holding_their_null_value_are_null() {
    // A uint16 enum (the compiled code's switch for enums of more than one byte) and a char
    // enum (null value 0), both on required fields.
    let ir = sable_schema::compile_str(WIDE, std::path::Path::new("wide.xml"))
        .ir
        .unwrap();
    let mut w = W::le();
    w.header(3, 1, 7, 0).u16(u16::MAX).u8(0);
    let want = r#"{"message":"M","header":{"blockLength":3,"templateId":1,"schemaId":7,"version":0},"fields":{"wide":null,"side":null}}"#;
    for jit in [Jit::Eager, Jit::Never] {
        let p = JsonPrinter::with_jit(&ir, jit).unwrap();
        assert_eq!(json_of(&p, &w.buf), want, "{jit:?}");
    }
    #[cfg(feature = "jit")]
    assert_eq!(
        JsonPrinter::with_jit(&ir, Jit::Eager)
            .unwrap()
            .compiled_messages(),
        (1, 1)
    );
    let mut out = Vec::new();
    Encoder::new(&ir)
        .unwrap()
        .encode_json(want, &mut out)
        .unwrap();
    assert_eq!(out, w.buf);
}

//! The JSON encoder: exact bytes against an independent byte writer, the spec's worked examples,
//! big-endian, and every error kind with its JSON path.

mod support;

use std::path::Path;

use sable_ir::Ir;
use sable_otf::encode::{EncodeError, EncodeErrorKind, Encoder};
use serde_json::{json, Value};
use support::{compile, shared};

fn schema(name: &str) -> Ir {
    compile(&shared().join("schemas/valid").join(name))
}

fn compile_text(text: &str) -> Ir {
    let compiled = sable_schema::compile_str(text, Path::new("inline.xml"));
    compiled
        .ir
        .unwrap_or_else(|| panic!("{:?}", compiled.diagnostics))
}

fn encode(encoder: &Encoder, v: &Value) -> Result<Vec<u8>, EncodeError> {
    let mut out = vec![0xee]; // something before: the encoder appends
    let n = encoder.encode_value(v, &mut out)?;
    assert_eq!(n, out.len() - 1);
    assert_eq!(out[0], 0xee);
    // The text form gives the same.
    let mut again = Vec::new();
    encoder.encode_json(&v.to_string(), &mut again).unwrap();
    assert_eq!(again, out[1..]);
    Ok(out.split_off(1))
}

fn hex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> = text.bytes().filter(|b| b.is_ascii_hexdigit()).collect();
    digits
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
        .collect()
}

/// An independent byte writer for the expectations.
struct W {
    big: bool,
    b: Vec<u8>,
}

impl W {
    fn new(big: bool) -> W {
        W { big, b: Vec::new() }
    }
    fn raw(&mut self, le: &[u8]) -> &mut W {
        if self.big {
            self.b.extend(le.iter().rev());
        } else {
            self.b.extend_from_slice(le);
        }
        self
    }
    fn u8(&mut self, v: u8) -> &mut W {
        self.b.push(v);
        self
    }
    fn i8(&mut self, v: i8) -> &mut W {
        self.b.push(v as u8);
        self
    }
    fn u16(&mut self, v: u16) -> &mut W {
        self.raw(&v.to_le_bytes())
    }
    fn u32(&mut self, v: u32) -> &mut W {
        self.raw(&v.to_le_bytes())
    }
    fn u64(&mut self, v: u64) -> &mut W {
        self.raw(&v.to_le_bytes())
    }
    fn i64(&mut self, v: i64) -> &mut W {
        self.raw(&v.to_le_bytes())
    }
    fn f32(&mut self, v: f32) -> &mut W {
        self.raw(&v.to_le_bytes())
    }
    fn f64(&mut self, v: f64) -> &mut W {
        self.raw(&v.to_le_bytes())
    }
    fn chars(&mut self, s: &str, len: usize) -> &mut W {
        let mut bytes = s.as_bytes().to_vec();
        bytes.resize(len, 0);
        self.b.extend(bytes);
        self
    }
    fn data32(&mut self, s: &str) -> &mut W {
        self.u32(s.len() as u32);
        self.b.extend_from_slice(s.as_bytes());
        self
    }
}

fn car_json() -> Value {
    json!({
        "message": "Car",
        "header": {"blockLength": 49, "templateId": 1, "schemaId": 1, "version": 0},
        "fields": {
            "serialNumber": 1234,
            "modelYear": 2013,
            "available": "T",
            "code": "A",
            "someNumbers": [0, 1, 2, 3, 4],
            "vehicleCode": "abcdef",
            "extras": ["sportsPack", "cruiseControl"],
            "discountedModel": "C",
            "engine": {
                "capacity": 2000, "numCylinders": 4, "maxRpm": 9000, "manufacturerCode": "123",
                "fuel": "Petrol", "efficiency": 35, "boosterEnabled": "T",
                "booster": {"BoostType": "NITROUS", "horsePower": 200}
            },
            "fuelFigures": [
                {"speed": 30, "mpg": 35.9, "usageDescription": "Urban Cycle"},
                {"speed": 55, "mpg": 49.0, "usageDescription": "Combined Cycle"},
                {"speed": 75, "mpg": 40.0, "usageDescription": "Highway Cycle"}
            ],
            "performanceFigures": [
                {"octaneRating": 95, "acceleration": [
                    {"mph": 30, "seconds": 4.0}, {"mph": 60, "seconds": 7.5}, {"mph": 100, "seconds": 12.2}
                ]},
                {"octaneRating": 99, "acceleration": []}
            ],
            "manufacturer": "Honda",
            "model": "Civic VTi",
            "activationCode": "abcdef"
        }
    })
}

fn car_bytes(big: bool) -> Vec<u8> {
    let mut w = W::new(big);
    w.u16(49).u16(1).u16(1).u16(0);
    w.u64(1234).u16(2013).u8(1).u8(b'A');
    for n in 0..5 {
        w.u32(n);
    }
    w.chars("abcdef", 6).u8(0b110);
    // engine: capacity, numCylinders, manufacturerCode, efficiency, boosterEnabled, booster
    w.u16(2000)
        .u8(4)
        .chars("123", 3)
        .i8(35)
        .u8(1)
        .u8(b'N')
        .u8(200);
    w.u16(6).u16(3);
    w.u16(30).f32(35.9).data32("Urban Cycle");
    w.u16(55).f32(49.0).data32("Combined Cycle");
    w.u16(75).f32(40.0).data32("Highway Cycle");
    w.u16(1).u16(2);
    w.u8(95).u16(6).u16(3);
    w.u16(30).f32(4.0).u16(60).f32(7.5).u16(100).f32(12.2);
    w.u8(99).u16(6).u16(0);
    w.data32("Honda").data32("Civic VTi").data32("abcdef");
    w.b
}

#[test]
fn car_exact_bytes() {
    let encoder = Encoder::new(&schema("example-schema.xml")).unwrap();
    assert_eq!(encode(&encoder, &car_json()).unwrap(), car_bytes(false));
}

#[test]
fn car_big_endian() {
    let encoder = Encoder::new(&schema("example-bigendian-test-schema.xml")).unwrap();
    assert_eq!(encode(&encoder, &car_json()).unwrap(), car_bytes(true));
}

#[test]
fn header_and_constants_may_be_omitted() {
    let encoder = Encoder::new(&schema("example-schema.xml")).unwrap();
    let mut v = car_json();
    let o = v.as_object_mut().unwrap();
    o.remove("header");
    o.insert("offset".into(), json!(17)); // unknown top-level keys are ignored
    let fields = o["fields"].as_object_mut().unwrap();
    fields.remove("discountedModel");
    let engine = fields["engine"].as_object_mut().unwrap();
    engine.remove("maxRpm");
    engine.remove("fuel");
    assert_eq!(encode(&encoder, &v).unwrap(), car_bytes(false));
}

#[test]
fn canonical_example_of_json_md() {
    // The object shown in docs/json.md.
    let text = r#"{"message":"Car","header":{"blockLength":49,"templateId":1,"schemaId":1,"version":0},"fields":{"serialNumber":1234,"modelYear":2013,"available":"T","code":"A","someNumbers":[0,1,2,3,4],"vehicleCode":"abcdef","extras":["sportsPack","cruiseControl"],"discountedModel":"C","engine":{"capacity":2000,"numCylinders":4,"maxRpm":9000,"manufacturerCode":"123","fuel":"Petrol","efficiency":35,"boosterEnabled":"T","booster":{"BoostType":"NITROUS","horsePower":200}},"fuelFigures":[{"speed":30,"mpg":35.9,"usageDescription":"Urban Cycle"}],"performanceFigures":[],"manufacturer":"Honda","model":"Civic VTi","activationCode":"abcdef"}}"#;
    let encoder = Encoder::new(&schema("example-schema.xml")).unwrap();
    let mut out = Vec::new();
    let n = encoder.encode_json(text, &mut out).unwrap();
    let mut w = W::new(false);
    w.u16(49).u16(1).u16(1).u16(0);
    w.u64(1234).u16(2013).u8(1).u8(b'A');
    for n in 0..5 {
        w.u32(n);
    }
    w.chars("abcdef", 6).u8(0b110);
    w.u16(2000)
        .u8(4)
        .chars("123", 3)
        .i8(35)
        .u8(1)
        .u8(b'N')
        .u8(200);
    w.u16(6).u16(1).u16(30).f32(35.9).data32("Urban Cycle");
    w.u16(1).u16(0);
    w.data32("Honda").data32("Civic VTi").data32("abcdef");
    assert_eq!(n, w.b.len());
    assert_eq!(out, w.b);
}

fn examples() -> Encoder {
    Encoder::new(&compile(&shared().join("spec/v1.0/Examples.xml"))).unwrap()
}

/// The spec's hex dump (07Examples.md) less its 6-byte SOFH.
fn spec_dump(dump: &str) -> Vec<u8> {
    let bytes: Vec<u8> = dump
        .lines()
        .flat_map(|line| hex(line.split(':').next().unwrap()))
        .collect();
    bytes[6..].to_vec()
}

#[test]
fn spec_example_new_order_single() {
    let v = json!({"message":"NewOrderSingle","fields":{
        "ClOrdId":"ORD00001","Account":"ACCT01","Symbol":"GEM4","Side":"Buy",
        "TransactTime":1524861082122000000u64,"OrderQty":{"mantissa":7,"exponent":0},
        "OrdType":"Limit","Price":{"mantissa":99610,"exponent":-3},
        "StopPx":{"mantissa":null,"exponent":-3}}});
    let expected = spec_dump(
        "00 00 00 44 eb 50 36 00 63 00 5b 00 00 00 4f 52 :
44 30 30 30 30 31 41 43 43 54 30 31 00 00 47 45 :
4d 34 00 00 00 00 31 80 16 b3 3b 13 65 29 15 07 :
00 00 00 32 1a 85 01 00 00 00 00 00 00 00 00 00 :
00 00 00 80",
    );
    assert_eq!(encode(&examples(), &v).unwrap(), expected);
    // The optional mantissa may be left out: it is null.
    let mut v = v;
    v["fields"]["StopPx"] = json!({});
    assert_eq!(encode(&examples(), &v).unwrap(), expected);
}

#[test]
fn spec_example_execution_report() {
    let v = json!({"message":"ExecutionReport","header":{"blockLength":42,"templateId":98,"schemaId":91,"version":0},"fields":{
        "OrderID":"O0000001","ExecID":"EXEC0000","ExecType":"Trade","OrdStatus":"PartialFilled",
        "Symbol":"GEM4","MaturityMonthYear":{"year":2014,"month":6,"day":255,"week":255},
        "Side":"Buy","LeavesQty":{"mantissa":1,"exponent":0},"CumQty":{"mantissa":6,"exponent":0},
        "TradeDate":15989,"FillsGrp":[
            {"FillPx":{"mantissa":99610,"exponent":-3},"FillQty":{"mantissa":2,"exponent":0}},
            {"FillPx":{"mantissa":99620,"exponent":-3},"FillQty":{"mantissa":4,"exponent":0}}]}});
    let expected = spec_dump(
        "00 00 00 54 eb 50 2a 00 62 00 5b 00 00 00 4f 30 :
30 30 30 30 30 31 45 58 45 43 30 30 30 30 46 31 :
47 45 4d 34 00 00 00 00 de 07 06 ff ff 31 01 00 :
00 00 06 00 00 00 75 3e 0c 00 02 00 1a 85 01 00 :
00 00 00 00 02 00 00 00 24 85 01 00 00 00 00 00 :
04 00 00 00",
    );
    assert_eq!(encode(&examples(), &v).unwrap(), expected);
}

#[test]
fn spec_example_business_message_reject() {
    let text = "Not authorized to trade that instrument";
    let hex_text: String = text.bytes().map(|b| format!("{b:02x}")).collect();
    let v = json!({"message":"BusinessMessageReject","fields":{
        "BusinesRejectRefId":"ORD00001","BusinessRejectReason":"NotAuthorized","Text":hex_text}});
    let expected = spec_dump(
        "00 00 00 40 eb 50 09 00 61 00 5b 00 00 00 4f 52 :
44 30 30 30 30 31 06 27 00 4e 6f 74 20 61 75 74 :
68 6f 72 69 7a 65 64 20 74 6f 20 74 72 61 64 65 :
20 74 68 61 74 20 69 6e 73 74 72 75 6d 65 6e 74 :",
    );
    assert_eq!(encode(&examples(), &v).unwrap(), expected);
}

const LIMITS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="limits" id="7" version="2" byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="smallGroup">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="numInGroup" primitiveType="uint8" maxValue="2"/>
    </composite>
    <composite name="shortData">
      <type name="length" primitiveType="uint8"/>
      <type name="varData" primitiveType="uint8" length="0"/>
    </composite>
    <composite name="latin1Data">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="char" length="0" characterEncoding="ISO-8859-1"/>
    </composite>
    <type name="bytes4" primitiveType="uint8" length="4"/>
    <type name="optU16" primitiveType="uint16" presence="optional"/>
    <type name="optChar" primitiveType="char" presence="optional"/>
    <type name="shorts" primitiveType="int16" length="3"/>
    <enum name="Color" encodingType="uint8">
      <validValue name="Red">1</validValue>
      <validValue name="Blue">2</validValue>
    </enum>
    <set name="Flags" encodingType="uint16">
      <choice name="a">0</choice>
      <choice name="b">9</choice>
    </set>
  </types>
  <sbe:message name="M" id="3">
    <field name="raw" id="1" type="bytes4"/>
    <field name="opt" id="2" type="optU16"/>
    <field name="px" id="3" type="double"/>
    <field name="f" id="4" type="float"/>
    <field name="big" id="5" type="int64"/>
    <field name="ubig" id="6" type="uint64"/>
    <field name="color" id="7" type="Color" presence="optional"/>
    <field name="flags" id="8" type="Flags"/>
    <field name="shorts" id="9" type="shorts"/>
    <field name="c" id="10" type="optChar"/>
    <field name="later" id="11" type="uint32" sinceVersion="1"/>
    <group name="g" id="12" dimensionType="smallGroup">
      <field name="x" id="13" type="uint16"/>
    </group>
    <group name="newer" id="14" dimensionType="smallGroup" sinceVersion="2">
      <field name="y" id="15" type="uint8"/>
    </group>
    <data name="d" id="16" type="shortData"/>
    <data name="t" id="17" type="latin1Data"/>
    <data name="newerData" id="18" type="shortData" sinceVersion="2"/>
  </sbe:message>
</sbe:messageSchema>
"#;

fn limits() -> Encoder {
    Encoder::new(&compile_text(LIMITS)).unwrap()
}

fn limits_json() -> Value {
    json!({"message":"M","fields":{
        "raw":"00ff7f80","opt":7,"px":1.5,"f":-0.25,"big":-9007199254740993i64,
        "ubig":18446744073709551614u64,"color":"Blue","flags":["a","b",3],"shorts":[-1,2,-32767],
        "c":"z","later":9,"g":[{"x":1},{"x":65534}],"newer":[{"y":5}],"d":"0102","t":"café",
        "newerData":"ab"}})
}

fn limits_bytes(edit: impl FnOnce(&mut W)) -> Vec<u8> {
    let mut w = W::new(false);
    w.u16(48).u16(3).u16(7).u16(2);
    edit(&mut w);
    w.b
}

#[test]
fn limits_exact_bytes() {
    let got = encode(&limits(), &limits_json()).unwrap();
    let expected = limits_bytes(|w| {
        w.u8(0).u8(0xff).u8(0x7f).u8(0x80);
        w.u16(7)
            .f64(1.5)
            .f32(-0.25)
            .i64(-9007199254740993)
            .u64(u64::MAX - 1);
        w.u8(2).u16(1 | 1 << 9 | 1 << 3);
        w.raw(&(-1i16).to_le_bytes())
            .u16(2)
            .raw(&(-32767i16).to_le_bytes());
        w.u8(b'z').u32(9);
        w.u16(2).u8(2).u16(1).u16(65534);
        w.u16(1).u8(1).u8(5);
        w.u8(2).u8(1).u8(2);
        w.u16(4).b.extend_from_slice(b"caf\xe9");
        w.u8(1).u8(0xab);
    });
    assert_eq!(got, expected);
}

#[test]
fn nulls_and_omitted_nullable_fields() {
    let all_null = json!({"message":"M","fields":{
        "raw":"00000000","opt":null,"px":"NaN","f":"-Infinity","big":0,"ubig":0,"color":null,
        "flags":[],"shorts":[0,0,0],"c":null,"later":null,"g":[],"newer":null,"d":"","t":"",
        "newerData":null}});
    let expected = limits_bytes(|w| {
        w.u32(0)
            .u16(0xffff)
            .f64(f64::NAN)
            .f32(f32::NEG_INFINITY)
            .i64(0)
            .u64(0);
        w.u8(0xff).u16(0).u16(0).u16(0).u16(0).u8(0).u32(u32::MAX);
        w.u16(2).u8(0).u16(1).u8(0).u8(0).u16(0).u8(0);
    });
    assert_eq!(encode(&limits(), &all_null).unwrap(), expected);
    // Optional fields and newer elements may be left out altogether.
    let mut omitted = all_null.clone();
    let fields = omitted["fields"].as_object_mut().unwrap();
    for key in ["opt", "color", "c", "later", "newer", "newerData"] {
        fields.remove(key);
    }
    assert_eq!(encode(&limits(), &omitted).unwrap(), expected);
    // Infinity and the null value as a number are accepted too.
    let mut v = all_null;
    v["fields"]["px"] = json!("Infinity");
    v["fields"]["opt"] = json!(65535);
    let got = encode(&limits(), &v).unwrap();
    assert_eq!(&got[12..14], &[0xff, 0xff]);
    assert_eq!(&got[14..22], &f64::INFINITY.to_le_bytes());
}

#[test]
fn integers_are_exact_to_64_bits() {
    let encoder = Encoder::new(&schema("example-schema.xml")).unwrap();
    for n in [0u64, 1 << 53, (1 << 53) + 1, u64::MAX - 1, u64::MAX] {
        let mut v = car_json();
        v["fields"]["serialNumber"] = json!(n);
        let bytes = encode(&encoder, &v).unwrap();
        assert_eq!(&bytes[8..16], &n.to_le_bytes(), "{n}");
    }
    // Also from text, where a float detour would lose the last digits.
    let text = car_json().to_string().replace(
        "\"serialNumber\":1234",
        "\"serialNumber\":18446744073709551613",
    );
    let mut out = Vec::new();
    encoder.encode_json(&text, &mut out).unwrap();
    assert_eq!(&out[8..16], &18446744073709551613u64.to_le_bytes());
    for n in [i64::MIN + 1, -(1 << 53) - 1, i64::MAX] {
        let mut v = limits_json();
        v["fields"]["big"] = json!(n);
        let bytes = encode(&limits(), &v).unwrap();
        assert_eq!(&bytes[26..34], &n.to_le_bytes(), "{n}");
    }
}

#[test]
fn floats_round_to_nearest() {
    for x in [0.1f64, 1e300, -0.0, 5e-324, 123456.789] {
        let mut v = limits_json();
        v["fields"]["px"] = json!(x);
        v["fields"]["f"] = json!(x);
        let result = encode(&limits(), &v);
        if x == 1e300 {
            // Out of range for float.
            let e = result.unwrap_err();
            assert_eq!(e.path, "fields.f");
            assert!(matches!(e.kind, EncodeErrorKind::OutOfRange { .. }), "{e}");
            continue;
        }
        let bytes = result.unwrap();
        assert_eq!(&bytes[14..22], &x.to_le_bytes());
        assert_eq!(&bytes[22..26], &(x as f32).to_le_bytes());
    }
}

/// Encodes `v` and expects an error at `path` matching `check`.
fn expect_error(
    encoder: &Encoder,
    v: &Value,
    path: &str,
    check: impl Fn(&EncodeErrorKind) -> bool,
) {
    let mut out = vec![1, 2, 3];
    let e = encoder
        .encode_value(v, &mut out)
        .expect_err(&format!("expected an error at {path}"));
    assert_eq!(e.path, path, "{e}");
    assert!(check(&e.kind), "unexpected kind: {e}");
    assert_eq!(out, [1, 2, 3], "output left as it was");
    assert!(!e.to_string().is_empty());
}

/// `v` with the value at a JSON pointer set (or removed for `None`).
fn edited(mut v: Value, pointer: &str, value: Option<Value>) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let target = v.pointer_mut(parent).unwrap();
    match (target, value) {
        (Value::Object(m), Some(x)) => {
            m.insert(key.to_owned(), x);
        }
        (Value::Object(m), None) => {
            m.remove(key);
        }
        (Value::Array(a), Some(x)) => a[key.parse::<usize>().unwrap()] = x,
        _ => unreachable!(),
    }
    v
}

/// The Car JSON with the value at a JSON pointer set (or removed for `None`).
fn car_with(pointer: &str, value: Option<Value>) -> Value {
    edited(car_json(), pointer, value)
}

#[test]
fn errors_name_the_path_and_the_problem() {
    use EncodeErrorKind as K;
    let car = Encoder::new(&schema("example-schema.xml")).unwrap();
    let e = &car;

    expect_error(
        e,
        &car_with("/fields/modelYear", None),
        "fields.modelYear",
        |k| *k == K::MissingField,
    );
    expect_error(
        e,
        &car_with("/fields/fuelFigures/1/speed", None),
        "fields.fuelFigures[1].speed",
        |k| *k == K::MissingField,
    );
    expect_error(
        e,
        &car_with("/fields/fuelFigures", None),
        "fields.fuelFigures",
        |k| *k == K::MissingField,
    );
    expect_error(e, &car_with("/fields/model", None), "fields.model", |k| {
        *k == K::MissingField
    });
    expect_error(
        e,
        &car_with("/fields/engine/capacity", None),
        "fields.engine.capacity",
        |k| *k == K::MissingField,
    );
    expect_error(
        e,
        &car_with("/fields/bogus", Some(json!(1))),
        "fields.bogus",
        |k| *k == K::UnknownField,
    );
    expect_error(
        e,
        &car_with("/fields/engine/booster/turbo", Some(json!(1))),
        "fields.engine.booster.turbo",
        |k| *k == K::UnknownField,
    );
    expect_error(
        e,
        &car_with(
            "/fields/performanceFigures/0/acceleration/1/kph",
            Some(json!(1)),
        ),
        "fields.performanceFigures[0].acceleration[1].kph",
        |k| *k == K::UnknownField,
    );
    expect_error(
        e,
        &car_with("/header/flags", Some(json!(1))),
        "header.flags",
        |k| *k == K::UnknownField,
    );
    expect_error(
        e,
        &car_with("/fields/modelYear", Some(json!("2013"))),
        "fields.modelYear",
        |k| {
            matches!(
                k,
                K::WrongType {
                    found: "a string",
                    ..
                }
            )
        },
    );
    expect_error(
        e,
        &car_with("/fields/fuelFigures", Some(json!({}))),
        "fields.fuelFigures",
        |k| {
            matches!(
                k,
                K::WrongType {
                    found: "an object",
                    ..
                }
            )
        },
    );
    expect_error(
        e,
        &car_with("/fields/fuelFigures/0/mpg", Some(json!(true))),
        "fields.fuelFigures[0].mpg",
        |k| {
            matches!(
                k,
                K::WrongType {
                    found: "a boolean",
                    ..
                }
            )
        },
    );
    expect_error(
        e,
        &car_with("/fields/modelYear", Some(json!(2013.5))),
        "fields.modelYear",
        |k| matches!(k, K::NotAnInteger(_)),
    );
    expect_error(
        e,
        &car_with("/fields/modelYear", Some(Value::Null)),
        "fields.modelYear",
        |k| *k == K::NullNotAllowed,
    );
    expect_error(
        e,
        &car_with("/fields/fuelFigures/1/speed", Some(json!(70000))),
        "fields.fuelFigures[1].speed",
        |k| matches!(k, K::OutOfRange { type_name, max, .. } if type_name == "uint16" && max == "65534"),
    );
    expect_error(
        e,
        &car_with("/fields/modelYear", Some(json!(-1))),
        "fields.modelYear",
        |k| matches!(k, K::OutOfRange { min, .. } if min == "0"),
    );
    expect_error(
        e,
        &car_with("/fields/serialNumber", Some(json!(18446744073709551616.0))),
        "fields.serialNumber",
        |k| matches!(k, K::OutOfRange { .. }),
    );
    // Schema minValue / maxValue.
    expect_error(
        e,
        &car_with("/fields/performanceFigures/1/octaneRating", Some(json!(89))),
        "fields.performanceFigures[1].octaneRating",
        |k| matches!(k, K::OutOfRange { min, max, .. } if min == "90" && max == "110"),
    );
    expect_error(
        e,
        &car_with("/fields/engine/efficiency", Some(json!(101))),
        "fields.engine.efficiency",
        |k| matches!(k, K::OutOfRange { max, .. } if max == "100"),
    );
    expect_error(
        e,
        &car_with("/fields/someNumbers/3", Some(json!(-4))),
        "fields.someNumbers[3]",
        |k| matches!(k, K::OutOfRange { .. }),
    );
    expect_error(
        e,
        &car_with("/fields/someNumbers", Some(json!([1, 2]))),
        "fields.someNumbers",
        |k| {
            *k == K::WrongArrayLength {
                expected: 5,
                found: 2,
            }
        },
    );
    expect_error(
        e,
        &car_with("/fields/available", Some(json!("X"))),
        "fields.available",
        |k| matches!(k, K::UnknownEnumValue { name, enum_name } if name == "X" && enum_name == "BooleanType"),
    );
    expect_error(
        e,
        &car_with("/fields/engine/booster/BoostType", Some(json!("ELECTRIC"))),
        "fields.engine.booster.BoostType",
        |k| matches!(k, K::UnknownEnumValue { enum_name, .. } if enum_name == "BoostType"),
    );
    expect_error(
        e,
        &car_with("/fields/available", Some(json!({"unknown": 256}))),
        "fields.available.unknown",
        |k| matches!(k, K::OutOfRange { .. }),
    );
    expect_error(
        e,
        &car_with("/fields/available", Some(json!({"other": 1}))),
        "fields.available",
        |k| matches!(k, K::WrongType { .. }),
    );
    expect_error(
        e,
        &car_with("/fields/extras/1", Some(json!("moonRoof"))),
        "fields.extras[1]",
        |k| matches!(k, K::UnknownChoice { set_name, .. } if set_name == "OptionalExtras"),
    );
    expect_error(
        e,
        &car_with("/fields/extras/0", Some(json!(8))),
        "fields.extras[0]",
        |k| matches!(k, K::UnknownChoice { choice, .. } if choice == "bit 8"),
    );
    expect_error(
        e,
        &car_with("/fields/vehicleCode", Some(json!("abcdefg"))),
        "fields.vehicleCode",
        |k| matches!(k, K::StringTooLong { length: 7, type_name } if type_name == "char[6]"),
    );
    expect_error(
        e,
        &car_with("/fields/code", Some(json!("AB"))),
        "fields.code",
        |k| matches!(k, K::UnknownEnumValue { .. }),
    );
    expect_error(
        e,
        &car_with("/fields/vehicleCode", Some(json!("abcd€"))),
        "fields.vehicleCode",
        |k| {
            matches!(
                k,
                K::UnencodableCharacter {
                    character: '€', ..
                }
            )
        },
    );
    expect_error(
        e,
        &car_with("/fields/manufacturer", Some(json!({"hex": "4g"}))),
        "fields.manufacturer.hex",
        |k| matches!(k, K::BadHex(_)),
    );
    expect_error(
        e,
        &car_with("/fields/vehicleCode", Some(json!({"hex": "414"}))),
        "fields.vehicleCode.hex",
        |k| matches!(k, K::BadHex(_)),
    );
    expect_error(
        e,
        &car_with("/header/version", Some(json!(1))),
        "header.version",
        |k| matches!(k, K::HeaderMismatch { expected, found } if expected == "0" && found == "1"),
    );
    expect_error(
        e,
        &car_with("/header/templateId", Some(json!(2))),
        "header.templateId",
        |k| matches!(k, K::HeaderMismatch { .. }),
    );
    expect_error(
        e,
        &car_with("/header/blockLength", Some(json!(50))),
        "header.blockLength",
        |k| matches!(k, K::HeaderMismatch { .. }),
    );
    expect_error(
        e,
        &car_with("/header/schemaId", Some(json!("1"))),
        "header.schemaId",
        |k| matches!(k, K::HeaderMismatch { .. }),
    );
    expect_error(e, &car_with("/header", Some(json!([]))), "header", |k| {
        matches!(k, K::WrongType { .. })
    });
    expect_error(
        e,
        &car_with("/fields/engine/maxRpm", Some(json!(9001))),
        "fields.engine.maxRpm",
        |k| matches!(k, K::ConstantMismatch { expected, found } if expected == "9000" && found == "9001"),
    );
    expect_error(
        e,
        &car_with("/fields/engine/fuel", Some(json!("Diesel"))),
        "fields.engine.fuel",
        |k| matches!(k, K::ConstantMismatch { .. }),
    );
    expect_error(
        e,
        &car_with("/fields/engine/fuel", Some(json!("Petrol!"))),
        "fields.engine.fuel",
        |k| matches!(k, K::ConstantMismatch { .. }),
    );
    expect_error(
        e,
        &car_with("/fields/discountedModel", Some(json!("A"))),
        "fields.discountedModel",
        |k| matches!(k, K::ConstantMismatch { .. }),
    );
    expect_error(
        e,
        &car_with("/message", Some(json!("Bus"))),
        "message",
        |k| *k == K::UnknownMessage("Bus".into()),
    );
    expect_error(e, &car_with("/message", None), "message", |k| {
        *k == K::MissingField
    });
    expect_error(e, &car_with("/message", Some(json!(1))), "message", |k| {
        matches!(k, K::WrongType { .. })
    });
    expect_error(e, &car_with("/fields", None), "fields", |k| {
        *k == K::MissingField
    });
    expect_error(e, &json!([1]), "", |k| matches!(k, K::WrongType { .. }));

    let mut out = Vec::new();
    let err = car.encode_json("{\"message\":", &mut out).unwrap_err();
    assert!(matches!(err.kind, K::InvalidJson(_)), "{err}");
    assert!(out.is_empty());
}

#[test]
fn errors_of_groups_var_data_and_others() {
    use EncodeErrorKind as K;
    let e = &limits();
    let with = |pointer: &str, x: Value| edited(limits_json(), pointer, Some(x));
    expect_error(
        e,
        &with("/fields/g", json!([{"x":1},{"x":2},{"x":3}])),
        "fields.g",
        |k| matches!(k, K::GroupCountOutOfRange { count: 3, max, .. } if max == "2"),
    );
    expect_error(
        e,
        &with("/fields/d", json!("ab".repeat(255))),
        "fields.d",
        |k| matches!(k, K::VarDataTooLong { length: 255, max } if max == "254"),
    );
    expect_error(e, &with("/fields/d", json!("abc")), "fields.d", |k| {
        matches!(k, K::BadHex(_))
    });
    expect_error(e, &with("/fields/d", json!(12)), "fields.d", |k| {
        matches!(k, K::WrongType { .. })
    });
    expect_error(e, &with("/fields/g", Value::Null), "fields.g", |k| {
        *k == K::NullNotAllowed
    });
    expect_error(e, &with("/fields/d", Value::Null), "fields.d", |k| {
        *k == K::NullNotAllowed
    });
    expect_error(
        e,
        &with("/fields/raw", json!("00ff7f")),
        "fields.raw",
        |k| matches!(k, K::BadHex(_)),
    );
    expect_error(
        e,
        &with("/fields/raw", json!("00ff7fxx")),
        "fields.raw",
        |k| matches!(k, K::BadHex(_)),
    );
    expect_error(
        e,
        &with("/fields/raw", json!([0, 1, 2, 3])),
        "fields.raw",
        |k| matches!(k, K::WrongType { .. }),
    );
    expect_error(e, &with("/fields/t", json!("€")), "fields.t", |k| {
        matches!(
            k,
            K::UnencodableCharacter {
                character: '€', ..
            }
        )
    });
    expect_error(e, &with("/fields/c", json!("ab")), "fields.c", |k| {
        matches!(k, K::StringTooLong { length: 2, .. })
    });
    expect_error(
        e,
        &with("/fields/shorts/2", json!(-32769)),
        "fields.shorts[2]",
        |k| matches!(k, K::OutOfRange { min, .. } if min == "-32767"),
    );
    expect_error(e, &with("/fields/px", json!("nan")), "fields.px", |k| {
        matches!(k, K::WrongType { .. })
    });
    expect_error(e, &with("/fields/flags", json!("a")), "fields.flags", |k| {
        matches!(k, K::WrongType { .. })
    });
    expect_error(
        e,
        &with("/fields/flags/0", json!(16)),
        "fields.flags[0]",
        |k| matches!(k, K::UnknownChoice { .. }),
    );
    expect_error(
        e,
        &with("/fields/newer/0/z", json!(1)),
        "fields.newer[0].z",
        |k| *k == K::UnknownField,
    );
    expect_error(e, &with("/fields/g/1", json!(3)), "fields.g[1]", |k| {
        matches!(k, K::WrongType { .. })
    });
}

#[test]
fn range_checks_can_be_relaxed() {
    let strict = Encoder::new(&schema("example-schema.xml")).unwrap();
    let lax = strict.clone().with_range_checks(false);
    let v = car_with("/fields/performanceFigures/0/octaneRating", Some(json!(20)));
    assert!(strict.encode_value(&v, &mut Vec::new()).is_err());
    let mut out = Vec::new();
    lax.encode_value(&v, &mut out).unwrap();
    // Still bounded by what the type can hold.
    let v = car_with(
        "/fields/performanceFigures/0/octaneRating",
        Some(json!(256)),
    );
    expect_error(&lax, &v, "fields.performanceFigures[0].octaneRating", |k| {
        matches!(k, EncodeErrorKind::OutOfRange { .. })
    });
}

#[test]
fn every_shared_schema_plans() {
    let paths = sable_testkit::valid_schemas();
    let mut planned = 0;
    for path in paths {
        Encoder::new(&compile(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        planned += 1;
    }
    assert!(planned > 30, "{planned}");
}

#[test]
fn never_panics_on_mangled_input() {
    let encoder = Encoder::new(&schema("example-schema.xml")).unwrap();
    let text = car_json().to_string();
    let bytes = text.as_bytes();
    // Every truncation, and a deterministic spread of byte substitutions.
    for cut in 0..bytes.len() {
        let s = String::from_utf8_lossy(&bytes[..cut]);
        let _ = encoder.encode_json(&s, &mut Vec::new());
    }
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let replacements = b"0123456789-.eE\"{}[],:nulltrufasNI ";
    for _ in 0..20_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut m = bytes.to_vec();
        let at = (seed % m.len() as u64) as usize;
        m[at] = replacements[((seed >> 32) % replacements.len() as u64) as usize];
        let s = String::from_utf8_lossy(&m);
        let _ = encoder.encode_json(&s, &mut Vec::new());
    }
}

#[test]
fn single_byte_encodings_take_every_byte_and_floats_round_first() {
    let encoder = Encoder::new(&schema("example-schema.xml")).unwrap();
    // US-ASCII char arrays map bytes to U+0000..U+00FF, as the printer does.
    let v = car_with("/fields/vehicleCode", Some(json!("abcdé\u{ff}")));
    let bytes = encode(&encoder, &v).unwrap();
    assert_eq!(&bytes[8 + 32..8 + 38], b"abcd\xe9\xff");
    // The shortest text of f32::MAX reads as a double just above it: it is float's maximum.
    let v = car_with("/fields/fuelFigures/0/mpg", Some(json!(3.4028235e38)));
    let bytes = encode(&encoder, &v).unwrap();
    assert_eq!(
        &bytes[8 + 49 + 4 + 2..8 + 49 + 4 + 6],
        &f32::MAX.to_le_bytes()
    );
    let v = car_with("/fields/fuelFigures/0/mpg", Some(json!(-3.4028235e38)));
    assert!(encode(&encoder, &v).is_ok());
    let v = car_with("/fields/fuelFigures/0/mpg", Some(json!(3.5e38)));
    expect_error(&encoder, &v, "fields.fuelFigures[0].mpg", |k| {
        matches!(k, EncodeErrorKind::OutOfRange { .. })
    });
}

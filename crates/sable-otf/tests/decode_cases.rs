//! The decoder on versions, byte orders, malformed messages and the spec's worked examples.

mod support;

use sable_otf::decode::{DecodeError, DecodeErrorKind, Decoder};
use sable_otf::json::JsonPrinter;
use sable_otf::text::TextPrinter;
use support::{car, ir, W};

fn print(schema: &str, buf: &[u8]) -> (String, Result<usize, DecodeError>) {
    let p = JsonPrinter::new(&ir(schema)).unwrap();
    let mut out = Vec::new();
    let r = p.print(buf, &mut out);
    (String::from_utf8(out).unwrap(), r)
}

#[test]
fn v1_message_read_with_v2_schema_has_new_fields_null() {
    let mut w = W::le();
    w.header(8, 50001, 1, 1).u32(1).u32(2).u16(2).bytes(b"hi");
    let (json, r) = print("versioned-message-v2.xml", &w.buf);
    assert_eq!(r, Ok(w.buf.len()));
    assert_eq!(
        json,
        r#"{"message":"VersionedMessageV2","header":{"blockLength":8,"templateId":50001,"schemaId":1,"version":1},"fields":{"FieldA1":1,"FieldB1":2,"FieldC2":null,"FieldD2":null,"FieldE2":null,"String1":"hi"}}"#
    );
}

#[test]
fn v2_message_read_with_v1_schema_skips_the_longer_block() {
    let mut w = W::le();
    w.header(20, 50001, 1, 2)
        .u32(1)
        .u32(2)
        .u32(3)
        .u32(4)
        .u32(5)
        .u16(2)
        .bytes(b"hi");
    let (json, r) = print("versioned-message-v1.xml", &w.buf);
    assert_eq!(r, Ok(w.buf.len()));
    assert_eq!(
        json,
        r#"{"message":"VersionedMessageV1","header":{"blockLength":20,"templateId":50001,"schemaId":1,"version":2},"fields":{"FieldA1":1,"FieldB1":2,"String1":"hi"}}"#
    );
}

#[test]
fn block_too_short_at_the_schema_version_is_an_error() {
    let mut w = W::le();
    w.header(4, 50001, 1, 2).u32(1).u16(2).bytes(b"hi");
    let (json, r) = print("versioned-message-v2.xml", &w.buf);
    let e = r.unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::BlockLengthTooShort);
    assert_eq!(e.offset(), 0);
    assert!(
        json.starts_with(r#"{"error":{"offset":0,"field":"header.blockLength","kind":"blockLengthTooShort","message":"block length 4"#),
        "{json}"
    );
}

#[test]
fn since_version_fields_groups_and_data_are_absent_at_older_versions() {
    // example-extension-schema.xml: Car at version 1, with fields added at version 1.
    let ir = ir("example-extension-schema.xml");
    let d = Decoder::new(&ir).unwrap();
    // The version 0 Car bytes are the example-schema Car's, with the extension schema's id.
    let mut buf = car();
    let schema_id = u16::try_from(ir.id).unwrap();
    buf[4..6].copy_from_slice(&schema_id.to_le_bytes());
    let p = JsonPrinter::from_decoder(d);
    let mut out = Vec::new();
    let r = p.print(&buf, &mut out);
    let json = String::from_utf8(out).unwrap();
    assert_eq!(r, Ok(buf.len()), "{json}");
    assert!(json.contains(r#""serialNumber":1234"#), "{json}");
    assert!(json.contains(r#""cupHolderCount":null"#), "{json}");
}

#[test]
fn big_endian_car() {
    let mut w = W::be();
    w.header(49, 1, 1, 0);
    w.u64(1234).u16(2013).u8(1).u8(b'A');
    for i in 0..5 {
        w.u32(i);
    }
    w.bytes(b"abcdef").u8(0b10);
    w.u16(2000)
        .u8(4)
        .bytes(b"123")
        .i8(35)
        .u8(0)
        .u8(b'T')
        .u8(150);
    w.u16(6)
        .u16(1)
        .u16(30)
        .f32(35.9)
        .u32(3)
        .bytes(b"\x01\x02\xff");
    w.u16(1).u16(0);
    w.u32(5).bytes(b"Honda").u32(0).u32(1).bytes(b"x");
    let schema = "example-bigendian-test-schema.xml";
    let (json, r) = print(schema, &w.buf);
    assert_eq!(r, Ok(w.buf.len()), "{json}");
    assert!(json.starts_with(r#"{"message":"Car","header":{"blockLength":49,"templateId":1,"schemaId":1,"version":0},"fields":{"serialNumber":1234,"modelYear":2013,"available":"T","code":"A","someNumbers":[0,1,2,3,4],"vehicleCode":"abcdef","extras":["sportsPack"]"#), "{json}");
    assert!(json.contains(r#""fuelFigures":[{"speed":30,"mpg":35.9,"usageDescription":{"hex":"0102ff"}}],"performanceFigures":[],"manufacturer":"Honda","model":"","activationCode":"x"}}"#), "{json}");
    assert_eq!(
        Decoder::new(&ir(schema)).unwrap().message_length(&w.buf),
        Ok(w.buf.len())
    );
}

#[test]
fn truncation_at_every_offset_is_an_error_with_an_offset() {
    let buf = car();
    let d = Decoder::new(&ir("example-schema.xml")).unwrap();
    let p = JsonPrinter::new(&ir("example-schema.xml")).unwrap();
    let mut out = Vec::new();
    for n in 0..buf.len() {
        let e = d.decode(&buf[..n], &mut ()).unwrap_err();
        assert!(e.offset() <= n, "cut at {n}: {e}");
        assert_eq!(e.kind(), DecodeErrorKind::Truncated, "cut at {n}: {e}");
        assert_eq!(d.message_length(&buf[..n]), Err(e.clone()));
        out.clear();
        assert_eq!(p.print(&buf[..n], &mut out), Err(e));
        let json = String::from_utf8(out.clone()).unwrap();
        assert!(json.ends_with("\"}}"), "cut at {n}: {json}");
        assert_eq!(
            json.matches(['{', '[']).count(),
            json.matches(['}', ']']).count(),
            "{json}"
        );
    }
}

#[test]
fn lying_group_count_is_truncated_at_the_first_entry_that_does_not_fit() {
    let mut buf = car();
    // fuelFigures' numInGroup, just after the 8-byte header and the 49-byte block.
    let at = 8 + 49 + 2;
    buf[at..at + 2].copy_from_slice(&60000u16.to_le_bytes());
    let (json, r) = print("example-schema.xml", &buf);
    let e = r.unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Truncated);
    // Its three entries decode whole (the rest of the message read as more entries).
    assert!(e.field().starts_with("fields.fuelFigures["), "{e}");
    assert!(!e.field().starts_with("fields.fuelFigures[0]"), "{e}");
    assert!(!e.field().starts_with("fields.fuelFigures[1]"), "{e}");
    assert!(!e.field().starts_with("fields.fuelFigures[2]"), "{e}");
    assert!(
        json.contains(r#""usageDescription":"Highway Cycle"}"#),
        "{json}"
    );
}

/// A group whose entries take no bytes, counted in a uint32.
const EMPTY_ENTRIES: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="empty" id="1" version="0">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
        <composite name="wideGroupSize">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="numInGroup" primitiveType="uint32" maxValue="1073741824"/>
        </composite>
    </types>
    <sbe:message name="M" id="1">
        <group name="g" id="2" dimensionType="wideGroupSize"/>
    </sbe:message>
</sbe:messageSchema>
"#;

#[test]
fn a_truncated_message_says_how_many_bytes_it_takes_at_least() {
    let decoder = Decoder::new(&ir("example-schema.xml")).unwrap();
    let buf = car();
    assert_eq!(decoder.message_length(&buf), Ok(buf.len()));
    // Header alone: 8 bytes; cut in the header, the header is what it takes.
    assert_eq!(
        decoder.message_length(&buf[..5]).unwrap_err().needs(),
        Some(8)
    );
    // Header and root block: 8 + 49.
    assert_eq!(
        decoder.message_length(&buf[..20]).unwrap_err().needs(),
        Some(57)
    );
    // Cut where fuelFigures[1] starts (82): it and fuelFigures[2] take at least their 6-byte
    // blocks and 4-byte usageDescription lengths each.
    let e = decoder.message_length(&buf[..82]).unwrap_err();
    assert_eq!((e.offset(), e.needs()), (82, Some(102)));
    // A lying count (fuelFigures claims 60,000 entries at byte 59): found out from the count,
    // without the bytes.
    let mut lying = buf.clone();
    lying[59..61].copy_from_slice(&60_000u16.to_le_bytes());
    let e = decoder.message_length(&lying).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Truncated);
    assert!(e.needs().unwrap() >= 61 + 60_000 * 10 - 10, "{e:?}");
    // Other kinds say nothing of a size.
    let mut unknown = buf.clone();
    unknown[2] = 99;
    assert_eq!(decoder.message_length(&unknown).unwrap_err().needs(), None);
}

#[test]
fn an_entry_that_does_not_fit_is_not_printed() {
    // The Car cut where fuelFigures[1] starts: 8-byte header, 49-byte block, the group's 4-byte
    // dimensions, entry 0 (6 bytes) and its usageDescription (4 + 11 bytes).
    let buf = car();
    let (json, r) = print("example-schema.xml", &buf[..82]);
    let e = r.unwrap_err();
    assert_eq!((e.offset(), e.field()), (82, "fields.fuelFigures[1]"));
    assert!(
        json.contains(r#""usageDescription":"Urban Cycle"}]},"error":{"offset":82,"#),
        "{json}"
    );
    // The same inside a nested group: performanceFigures[0].acceleration[2] starts at 150.
    let (json, r) = print("example-schema.xml", &buf[..151]);
    assert_eq!(r.unwrap_err().offset(), 150);
    assert!(
        json.contains(r#"{"mph":60,"seconds":7.5}]}]},"error""#),
        "{json}"
    );
}

#[test]
fn group_count_of_empty_entries_is_bounded() {
    // Entries of no bytes never run out, so their count is bounded (65535) instead.
    let compiled = sable_schema::compile_str(EMPTY_ENTRIES, std::path::Path::new("empty.xml"));
    let ir = compiled
        .ir
        .unwrap_or_else(|| panic!("{:?}", compiled.diagnostics));
    let d = Decoder::new(&ir).unwrap();
    let mut w = W::le();
    w.header(0, 1, 1, 0).u16(0).u32(65535);
    assert_eq!(d.decode(&w.buf, &mut ()), Ok(w.buf.len()));
    let mut w = W::le();
    w.header(0, 1, 1, 0).u16(0).u32(65536);
    let e = d.decode(&w.buf, &mut ()).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset(), e.field()),
        (DecodeErrorKind::GroupCountTooLarge, 10, "fields.g")
    );
}

#[test]
fn lying_var_data_length() {
    let mut buf = car();
    let n = buf.len();
    // activationCode's length: the last 4 + 6 bytes.
    let at = n - 10;
    buf[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let (json, r) = print("example-schema.xml", &buf);
    let e = r.unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Truncated);
    assert_eq!(e.offset(), at);
    assert_eq!(e.field(), "fields.activationCode");
    assert!(json.contains(r#""model":"Civic VTi"}"#), "{json}");
    assert!(
        json.ends_with(&format!(
            r#""error":{{"offset":{at},"field":"fields.activationCode","kind":"truncated","message":"truncated message: var data 'activationCode' at offset {at} says 4294967295 bytes, 6 left"}}}}"#
        )),
        "{json}"
    );
}

#[test]
fn unknown_template_and_schema_mismatch() {
    let mut buf = car();
    buf[2] = 77;
    let (json, r) = print("example-schema.xml", &buf);
    assert_eq!(r.unwrap_err().kind(), DecodeErrorKind::UnknownTemplateId);
    assert_eq!(
        json,
        r#"{"error":{"offset":2,"field":"header.templateId","kind":"unknownTemplate","message":"unknown template id 77"}}"#
    );
    let mut buf = car();
    buf[4] = 9;
    let (_, r) = print("example-schema.xml", &buf);
    let e = r.unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (DecodeErrorKind::SchemaIdMismatch, 4)
    );
}

#[test]
fn unknown_enum_values_and_set_bits_and_nul_padding() {
    let mut buf = car();
    buf[8 + 10] = 7; // available: no such BooleanType
    buf[8 + 32..8 + 38].copy_from_slice(b"ab\0\0\0\0"); // vehicleCode
    buf[8 + 38] = 0b1000_0010; // extras: sportsPack and bit 7
    let (json, r) = print("example-schema.xml", &buf);
    assert!(r.is_ok(), "{json}");
    assert!(
        json.contains(r#""available":{"unknown":7},"code":"A","someNumbers":[0,1,2,3,4],"vehicleCode":"ab","extras":["sportsPack",7]"#),
        "{json}"
    );
}

#[test]
fn text_form() {
    let p = TextPrinter::new(&ir("example-schema.xml")).unwrap();
    let mut out = Vec::new();
    let buf = car();
    assert_eq!(p.print(&buf, &mut out), Ok(buf.len()));
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("message: Car\nheader:\n  blockLength: 49\n  templateId: 1\n  schemaId: 1\n  version: 0\nserialNumber: 1234\n"), "{text}");
    assert!(text.contains("engine:\n  capacity: 2000\n"), "{text}");
    assert!(text.contains("  booster:\n    BoostType: \"NITROUS\"\n    horsePower: 200\nfuelFigures[0]:\n  speed: 30\n  mpg: 35.9\n  usageDescription: \"Urban Cycle\"\nfuelFigures[1]:\n"), "{text}");
    assert!(text.contains("performanceFigures[1]:\n  octaneRating: 99\n  acceleration[0]:\n    mph: 30\n    seconds: 4.0\n"), "{text}");
    assert!(text.ends_with("activationCode: \"abcdef\"\n"), "{text}");
}

fn hex(dump: &str) -> Vec<u8> {
    dump.lines()
        .flat_map(|l| l.split(':').next().unwrap().split_whitespace())
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

/// The spec's example schema.
fn spec() -> String {
    support::shared()
        .join("spec/v1.0/Examples.xml")
        .display()
        .to_string()
}

/// The spec's worked examples (07Examples.md): the hex dumps, after their 6-byte SOFH.
#[test]
fn spec_examples() {
    let order = hex("00 00 00 44 eb 50 36 00 63 00 5b 00 00 00 4f 52 :
        44 30 30 30 30 31 41 43 43 54 30 31 00 00 47 45 :
        4d 34 00 00 00 00 31 80 16 b3 3b 13 65 29 15 07 :
        00 00 00 32 1a 85 01 00 00 00 00 00 00 00 00 00 :
        00 00 00 80");
    let (json, r) = print(&spec(), &order[6..]);
    assert_eq!(r, Ok(order.len() - 6), "{json}");
    for want in [
        r#""message":"NewOrderSingle""#,
        r#""blockLength":54,"templateId":99,"schemaId":91,"version":0"#,
        r#""ClOrdId":"ORD00001","Account":"ACCT01","Symbol":"GEM4","Side":"Buy""#,
        r#""OrderQty":{"mantissa":7,"exponent":0},"OrdType":"Limit","Price":{"mantissa":99610,"exponent":-3},"StopPx":{"mantissa":null,"exponent":-3}"#,
    ] {
        assert!(json.contains(want), "{want} not in {json}");
    }

    let exec = hex("00 00 00 54 eb 50 2a 00 62 00 5b 00 00 00 4f 30 :
        30 30 30 30 30 31 45 58 45 43 30 30 30 30 46 31 :
        47 45 4d 34 00 00 00 00 de 07 06 ff ff 31 01 00 :
        00 00 06 00 00 00 75 3e 0c 00 02 00 1a 85 01 00 :
        00 00 00 00 02 00 00 00 24 85 01 00 00 00 00 00 :
        04 00 00 00");
    let (json, r) = print(&spec(), &exec[6..]);
    assert_eq!(r, Ok(exec.len() - 6), "{json}");
    for want in [
        r#""OrderID":"O0000001","ExecID":"EXEC0000""#,
        r#""Symbol":"GEM4""#,
        r#""year":2014,"month":6"#,
        r#""LeavesQty":{"mantissa":1"#,
        r#""CumQty":{"mantissa":6"#,
        r#""TradeDate":15989"#,
        r#""FillPx":{"mantissa":99610,"exponent":-3},"FillQty":{"mantissa":2"#,
        r#""FillPx":{"mantissa":99620,"exponent":-3},"FillQty":{"mantissa":4"#,
    ] {
        assert!(json.contains(want), "{want} not in {json}");
    }

    let reject = hex("00 00 00 40 eb 50 09 00 61 00 5b 00 00 00 4f 52 :
        44 30 30 30 30 31 06 27 00 4e 6f 74 20 61 75 74 :
        68 6f 72 69 7a 65 64 20 74 6f 20 74 72 61 64 65 :
        20 74 68 61 74 20 69 6e 73 74 72 75 6d 65 6e 74");
    let (json, r) = print(&spec(), &reject[6..]);
    assert_eq!(r, Ok(reject.len() - 6), "{json}");
    assert!(
        json.contains(r#""BusinessRejectReason":"NotAuthorized""#),
        "{json}"
    );
    // DATA declares no characterEncoding: hex.
    let text: String = b"Not authorized to trade that instrument"
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(json.contains(&format!(r#""Text":"{text}""#)), "{json}");
}

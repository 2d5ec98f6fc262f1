//! `sable decode` and `sable encode` on values: an enum holding its null value.

use assert_cmd::Command;

fn sable() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sable"))
}

fn shared_schema(name: &str) -> std::path::PathBuf {
    sable_testkit::shared_dir().join("schemas/valid").join(name)
}

/// `optional_enum_nullify.xml`'s message with both enums at 255 (`requiredEnumFromOptionalType`
/// is a required field of an enum on an optional encoding type, as iLink 3's LiquidityFlag).
const NULL_ENUMS: &str = r#"{"message":"optionalEnumNullify","header":{"blockLength":4,"templateId":1,"schemaId":1100,"version":0},"fields":{"optionalEnum":null,"requiredEnumFromOptionalType":null,"optionalComposite":{"optionalCounter":null}}}"#;

#[test]
fn an_enum_of_an_optional_encoding_type_round_trips_as_null() {
    let schema = shared_schema("optional_enum_nullify.xml");
    let bytes = sable()
        .args(["encode", "--schema"])
        .arg(&schema)
        .write_stdin(format!("{NULL_ENUMS}\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(bytes, [4, 0, 1, 0, 0x4c, 4, 0, 0, 255, 255, 0, 0]);
    let json = sable()
        .args(["decode", "--schema"])
        .arg(&schema)
        .write_stdin(bytes.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json = String::from_utf8(json).unwrap();
    assert_eq!(json, format!("{{\"offset\":0,{}\n", &NULL_ENUMS[1..]));
    let text = sable()
        .args(["decode", "--format", "text", "--schema"])
        .arg(&schema)
        .write_stdin(bytes)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains("\nrequiredEnumFromOptionalType: null\n"),
        "{text}"
    );
}

#[test]
fn readable_adds_decimal_and_timestamp_forms_beside_the_raw_values() {
    // bench-fix-message-samples.xml's MarketDataIncrementalRefresh: each entry's MdEntryTime is
    // a timestamp (timeUnit nanosecond), its MdEntryPx a Decimal64 (constant exponent 7).
    let schema = shared_schema("bench-fix-message-samples.xml");
    let vectors = sable_testkit::repo_root().join("conformance/vectors/marketdata.jsonl");
    let line = std::fs::read_to_string(vectors)
        .unwrap()
        .lines()
        .find(|l| l.contains("\"marketdata-two-entries\""))
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["json"].to_string())
        .unwrap();
    let bytes = sable()
        .args(["encode", "--schema"])
        .arg(&schema)
        .write_stdin(format!("{line}\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let decode = |args: &[&str]| {
        let out = sable()
            .args(["decode", "--schema"])
            .arg(&schema)
            .args(args)
            .write_stdin(bytes.clone())
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let canonical = decode(&[]);
    assert!(!canonical.contains(".readable"), "{canonical}");
    let readable = decode(&["--readable"]);
    assert!(
        readable.contains(r#""MdEntryTime.readable":"2017-07-14T02:40:00.000000000Z""#),
        "{readable}"
    );
    assert!(
        readable.contains(r#""MdEntryPx.readable":"500000000000000""#),
        "{readable}"
    );
    let text = decode(&["--format", "text"]);
    assert!(
        text.contains("\n  MdEntryTime: 2017-07-14T02:40:00.000000000Z\n"),
        "{text}"
    );
    assert!(text.contains("\n  MdEntryPx: 500000000000000\n"), "{text}");
    assert!(!text.contains("mantissa"), "{text}");
}

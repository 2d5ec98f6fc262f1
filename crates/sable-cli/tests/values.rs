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

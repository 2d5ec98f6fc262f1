//! What the tests of `sable decode` and `sable encode` share: the Car schema and its vectors.
#![allow(dead_code)]

use std::path::PathBuf;

use assert_cmd::Command;

pub fn sable() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sable"))
}

pub fn car_schema() -> PathBuf {
    sable_testkit::shared_dir().join("schemas/valid/example-schema.xml")
}

/// The canonical JSON of the Car vectors written with this schema's version and block length.
pub fn car_lines() -> Vec<String> {
    let path = sable_testkit::repo_root().join("conformance/vectors/car.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|line| {
            let vector: serde_json::Value = serde_json::from_str(line).expect("vector JSON");
            vector["json"].to_string()
        })
        .filter(|json| json.contains(r#""blockLength":49"#))
        .collect()
}

pub fn input(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

pub fn encode(framing: &str, lines: &[String]) -> Vec<u8> {
    let out = sable()
        .args(["encode", "--schema"])
        .arg(car_schema())
        .args(["--framing", framing])
        .write_stdin(input(lines))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(!out.is_empty());
    out
}

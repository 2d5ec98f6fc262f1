//! `sable generate`: Java codecs written per class under the package's directory, the options,
//! and the exit statuses (0 written, 1 schema errors, 2 usage and languages not implemented).
//! That the Java compiles is tested in sable-codegen (tests/javac.rs) and java/conformance.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use sable_testkit::{shared_dir, ScratchDir};

fn sable() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sable"))
}

fn valid(name: &str) -> PathBuf {
    shared_dir().join("schemas/valid").join(name)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn java_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn java_codecs_go_in_the_schema_package_one_file_per_class() {
    let out = ScratchDir::new("generate-java");
    sable()
        .args(["generate", "--lang", "java", "--output"])
        .arg(out.path())
        .arg(valid("example-schema.xml"))
        .assert()
        .success()
        .stdout("")
        .stderr("");
    let dir = out.join("baseline");
    let files = java_files(&dir);
    for class in [
        "CarEncoder",
        "CarDecoder",
        "MessageHeaderEncoder",
        "MessageHeaderDecoder",
        "EngineEncoder",
        "EngineDecoder",
        "BoosterEncoder",
        "OptionalExtrasEncoder",
        "OptionalExtrasDecoder",
        "BooleanType",
        "Model",
        "BoostType",
        "MetaAttribute",
        "SbeSupport",
    ] {
        assert!(
            files.contains(&format!("{class}.java")),
            "no {class}.java in {files:?}"
        );
    }
    let encoder = read(&dir.join("CarEncoder.java"));
    assert!(encoder.contains("package baseline;"));
    assert!(encoder.contains("public final class CarEncoder"));
    assert!(encoder.contains("public static final int BLOCK_LENGTH = 49;"));
    assert!(
        encoder.contains("public CarEncoder wrap(final MemorySegment segment, final long offset)")
    );
    assert!(encoder.contains("public CarEncoder serialNumber(final long value)"));
    assert!(encoder.contains("public FuelFiguresEncoder fuelFiguresCount(final int count)"));
    let decoder = read(&dir.join("CarDecoder.java"));
    assert!(decoder.contains(
        "public CarDecoder wrap(final MemorySegment segment, final long offset, final int actingBlockLength, final int actingVersion)"
    ));
    assert!(decoder.contains("public String manufacturer()"));
    let model = read(&dir.join("Model.java"));
    assert!(model.contains("NULL_VAL"));
    assert!(!model.contains("SBE_UNKNOWN"));
}

#[test]
fn java_options_choose_the_buffer_the_unknown_enum_value_and_the_package() {
    let out = ScratchDir::new("generate-java-options");
    sable()
        .args([
            "generate",
            "--lang",
            "java",
            "--java-buffer",
            "agrona",
            "--java-unknown-enum",
            "--package",
            "com.example.cars",
            "--output",
        ])
        .arg(out.path())
        .arg(valid("example-schema.xml"))
        .assert()
        .success();
    let dir = out.join("com/example/cars");
    let encoder = read(&dir.join("CarEncoder.java"));
    assert!(encoder.contains("package com.example.cars;"));
    assert!(encoder.contains("import org.agrona.MutableDirectBuffer;"));
    assert!(encoder
        .contains("public CarEncoder wrap(final MutableDirectBuffer buffer, final int offset)"));
    assert!(!encoder.contains("MemorySegment"));
    assert!(read(&dir.join("Model.java")).contains("SBE_UNKNOWN"));
}

#[test]
fn agrona_unsafe_types_the_flyweights_on_unsafe_buffer() {
    let out = ScratchDir::new("generate-java-unsafe");
    sable()
        .args([
            "generate",
            "--lang",
            "java",
            "--java-buffer",
            "agrona-unsafe",
        ])
        .args(["--package", "cars", "--output"])
        .arg(out.path())
        .arg(valid("example-schema.xml"))
        .assert()
        .success();
    let encoder = read(&out.join("cars/CarEncoder.java"));
    assert!(encoder.contains("import org.agrona.concurrent.UnsafeBuffer;"));
    assert!(encoder.contains("public CarEncoder wrap(final UnsafeBuffer buffer, final int offset)"));
    assert!(encoder.contains("putManufacturer(final DirectBuffer src,"));
    let decoder = read(&out.join("cars/CarDecoder.java"));
    assert!(decoder.contains("private UnsafeBuffer buffer;"));
}

#[test]
fn package_names_are_made_valid_java() {
    let out = ScratchDir::new("generate-java-package");
    // basic-schema.xml's package is "SBE tests".
    sable()
        .args(["generate", "--lang", "java", "--output"])
        .arg(out.path())
        .arg(valid("basic-schema.xml"))
        .assert()
        .success();
    let dir = out.join("SBE_tests");
    assert!(!java_files(&dir).is_empty());
    assert!(read(&dir.join("MessageHeaderEncoder.java")).contains("package SBE_tests;"));
}

#[test]
fn a_schema_with_errors_writes_nothing_and_exits_1() {
    let out = ScratchDir::new("generate-java-errors");
    let target = out.join("generated");
    sable()
        .args(["generate", "--lang", "java", "--output"])
        .arg(&target)
        .arg(shared_dir().join("schemas/invalid/error-handler-dup-message-schema.xml"))
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("error:"));
    assert!(!target.exists(), "generate wrote something");
}

#[test]
fn other_languages_and_bad_options_are_usage_errors() {
    let out = ScratchDir::new("generate-usage");
    let schema = valid("example-schema.xml");
    sable()
        .args(["generate", "--lang", "cobol", "--output"])
        .arg(out.path())
        .arg(&schema)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "not implemented yet for --lang cobol",
        ));
    sable()
        .args([
            "generate",
            "--lang",
            "java",
            "--java-buffer",
            "unsafe",
            "--output",
        ])
        .arg(out.path())
        .arg(&schema)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--java-buffer"));
    assert!(
        java_files(out.path()).is_empty(),
        "generate wrote something"
    );
}

/// Issue 13: a `.sbeir` file with one token's `componentTokenCount` changed (Car's `maxRpm`)
/// read as valid, so `check` said 0 errors and `generate` panicked in the codegen model. Now it
/// is refused on reading, the same for every command.
#[test]
fn a_sbeir_file_with_a_wrong_component_token_count_is_refused_by_check_and_generate() {
    let out = ScratchDir::new("generate-bad-sbeir");
    let file = out.join("car.sbeir");
    sable()
        .args(["ir", "examples/car.xml", "-o"])
        .arg(&file)
        .current_dir(sable_testkit::repo_root())
        .assert()
        .success();
    let mut bytes = std::fs::read(&file).expect("car.sbeir");
    // The token's block (28 bytes) is followed by its name: length 6, "maxRpm".
    let name = bytes
        .windows(8)
        .position(|w| w == b"\x06\x00maxRpm")
        .expect("the maxRpm token");
    let token = name - 28;
    bytes[token + 16] = 2; // componentTokenCount, 1 before
    std::fs::write(&file, &bytes).expect("write");
    let error = format!(
        "at byte {token}: componentTokenCount of ENCODING 'maxRpm' is 2, but a token that begins \
         or ends nothing counts 1"
    );
    sable().arg("check").arg(&file).assert().code(1).stderr(
        predicate::str::contains(error.clone()).and(predicate::str::contains("panicked").not()),
    );
    for lang in ["java", "cpp", "rust"] {
        sable()
            .args(["generate", "--lang", lang, "--output"])
            .arg(out.join(lang))
            .arg(&file)
            .assert()
            .code(1)
            .stderr(
                predicate::str::contains(error.clone())
                    .and(predicate::str::contains("panicked").not()),
            );
    }
}

#[test]
fn an_output_that_is_a_file_is_not_a_directory() {
    let out = ScratchDir::new("generate-output-file");
    let file = out.join("taken");
    std::fs::write(&file, "x").expect("write");
    for lang in ["java", "rust", "cpp"] {
        sable()
            .args(["generate", "--lang", lang, "--output"])
            .arg(&file)
            .arg(valid("example-schema.xml"))
            .assert()
            .code(1)
            .stdout("")
            .stderr(format!(
                "sable: {}: not a directory (--output names the directory to write the \
                 generated files into)\n",
                file.display()
            ));
    }
    assert_eq!(read(&file), "x");
}

/// A schema with no `package` attribute, one message, and `fields` in it.
fn unnamed_schema(fields: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" id="1" version="0">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
  </types>
  <sbe:message name="Quote" id="1">{fields}</sbe:message>
</sbe:messageSchema>
"#
    )
}

#[test]
fn a_schema_without_a_package_is_named_after_its_file() {
    let out = ScratchDir::new("generate-unnamed");
    let schema = out.join("car.xml");
    std::fs::write(
        &schema,
        unnamed_schema(r#"<field name="bidPx" id="1" type="int64"/>"#),
    )
    .unwrap();
    for lang in ["rust", "cpp", "java"] {
        sable()
            .args(["generate", "--lang", lang, "--output"])
            .arg(out.join(lang))
            .arg(&schema)
            .assert()
            .success()
            .stdout("");
    }
    assert!(read(&out.join("rust/car.rs")).contains("pub struct QuoteDecoder"));
    assert!(read(&out.join("cpp/car.hpp")).contains("namespace car {"));
    assert!(read(&out.join("java/car/QuoteDecoder.java")).starts_with("/* Generated"));
    assert!(read(&out.join("java/car/QuoteDecoder.java")).contains("\npackage car;\n"));
    for hidden in ["rust/_x.rs", "cpp/.hpp", "java/QuoteDecoder.java"] {
        assert!(!out.join(hidden).exists(), "{hidden} written");
    }
}

#[test]
fn names_that_collide_in_generated_code_fail_check() {
    let out = ScratchDir::new("check-collision");
    let schema = out.join("quote.xml");
    let fields = r#"
    <field name="bidPx" id="1" type="int64"/>
    <field name="bid_px" id="2" type="int64"/>"#;
    std::fs::write(&schema, unnamed_schema(fields)).unwrap();
    sable()
        .arg("check")
        .arg(&schema)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            r#"quote.xml:13:12: error: <field name="bid_px">: fields "bidPx" and "bid_px" both become bid_px in Rust and Python"#,
        ));
    sable()
        .args(["generate", "--lang", "rust", "--output"])
        .arg(out.join("rust"))
        .arg(&schema)
        .assert()
        .code(1);
    assert!(
        !out.join("rust").exists(),
        "generate wrote code that does not compile"
    );
}

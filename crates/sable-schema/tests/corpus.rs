//! The shared schema corpus: every valid schema compiles; every invalid one gets the diagnostics
//! that `../shared/schemas/README.md` lists for it.

use std::path::PathBuf;

use sable_schema::{compile_file, Severity};

fn shared_schemas() -> PathBuf {
    sable_testkit::shared_dir().join("schemas")
}

#[test]
fn every_valid_schema_compiles_to_ir() {
    let files = sable_testkit::valid_schemas();
    assert!(
        files.len() >= 40,
        "corpus looks incomplete: {} files",
        files.len()
    );
    for file in files {
        let compiled = compile_file(&file);
        let errors: Vec<String> = compiled
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(ToString::to_string)
            .collect();
        assert!(
            errors.is_empty(),
            "{}:\n{}",
            file.display(),
            errors.join("\n")
        );
        let ir = compiled
            .ir
            .unwrap_or_else(|| panic!("no IR for {}", file.display()));
        assert!(!ir.header_tokens.is_empty(), "{}", file.display());
    }
}

#[test]
fn xinclude_brings_in_types_from_a_relative_path() {
    let file = shared_schemas().join("valid/sub/basic-schema.xml");
    let compiled = compile_file(&file);
    let ir = compiled.ir.expect("IR");
    // The header composite lives in the included sub2/common.xml.
    assert_eq!(ir.header_tokens[0].name, "messageHeader");
    assert!(!ir.messages.is_empty());
}

#[test]
fn npe_small_header_warns_about_header_types() {
    let compiled = compile_file(&shared_schemas().join("valid/npe-small-header.xml"));
    let warnings = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning && d.message.contains("should be uint16"))
        .count();
    assert_eq!(warnings, 3, "{:#?}", compiled.diagnostics);
    assert!(compiled.ir.is_some());
}

/// (file, severity, [(message fragment, how many)]) as the corpus README lists them. A schema may
/// get more diagnostics than listed (e.g. a missing message header), never fewer.
/// Message fragments and how many diagnostics must contain each.
type Counts = &'static [(&'static str, usize)];

const EXPECTED: &[(&str, Severity, Counts)] = &[
    (
        "error-handler-types-schema.xml",
        Severity::Error,
        &[
            ("uses the null value 255", 1),
            ("presence \"constant\" but no value", 1),
        ],
    ),
    (
        "error-handler-types-dup-schema.xml",
        Severity::Warning,
        &[("is already defined", 1)],
    ),
    (
        "error-handler-dup-message-schema.xml",
        Severity::Error,
        &[("template id 1 is already used", 1)],
    ),
    (
        "error-handler-message-schema.xml",
        Severity::Error,
        &[
            ("differs from its type's", 1),
            ("unknown type \"XXXX\"", 1),
            ("the message header composite has no", 4),
            ("unknown dimensionType", 1),
            ("used as a group dimension composite but has no", 2),
            ("used as a var-data composite but has no", 2),
            ("must be a composite with length and varData", 1),
            ("is already used in this message", 2),
            ("a field comes after a group or data", 1),
            ("overlaps the field before it", 1),
            ("is too small for the group's fields", 1),
        ],
    ),
    (
        "error-handler-group-dimensions-schema.xml",
        Severity::Error,
        &[("must be a composite", 1)],
    ),
    (
        "error-handler-invalid-composite-offsets-schema.xml",
        Severity::Error,
        &[("overlaps the member before it", 2)],
    ),
    (
        "error-handler-invalid-composite.xml",
        Severity::Error,
        &[
            ("<group> is not allowed inside <composite>", 1),
            ("<data> is not allowed inside <composite>", 1),
        ],
    ),
    (
        "error-handler-invalid-name.xml",
        Severity::Warning,
        &[("is not a valid identifier", 4)],
    ),
    (
        "error-handler-since-version.xml",
        Severity::Error,
        &[("is greater than the schema's version", 5)],
    ),
    (
        "error-handler-enum-violates-min-max-value-range.xml",
        Severity::Error,
        &[
            ("outside the encoding's range 1 to 5", 2),
            ("uses the null value", 2),
        ],
    ),
    ("cyclic-refs-schema.xml", Severity::Error, &[("cycle", 1)]),
];

#[test]
fn every_invalid_schema_gets_its_diagnostics() {
    let dir = shared_schemas().join("invalid");
    for file in &sable_testkit::invalid_schemas() {
        let name = file.file_name().unwrap().to_str().unwrap();
        assert!(
            EXPECTED.iter().any(|(f, ..)| *f == name),
            "{name} is in the corpus but has no expectation here"
        );
    }
    for (name, severity, expectations) in EXPECTED {
        let compiled = compile_file(&dir.join(name));
        let all: Vec<String> = compiled
            .diagnostics
            .iter()
            .map(ToString::to_string)
            .collect();
        for (fragment, count) in *expectations {
            let found = compiled
                .diagnostics
                .iter()
                .filter(|d| d.severity == *severity && d.message.contains(fragment))
                .count();
            assert_eq!(found, *count, "{name}: {fragment:?}\n{}", all.join("\n"));
        }
        for d in &compiled.diagnostics {
            assert!(
                d.line > 0 && d.column > 0,
                "{name}: unlocated diagnostic {d}"
            );
            assert!(d.file.ends_with(name), "{name}: {d}");
        }
        if *severity == Severity::Error {
            assert!(compiled.ir.is_none(), "{name} must be rejected");
        }
    }
}

/// `check_str_with` (what `sable check` runs) skips only the lowering: it gives exactly the
/// diagnostics `compile_str_with` gives, for every schema of the corpus, valid or not.
#[test]
fn checking_without_lowering_gives_the_same_diagnostics() {
    let options = sable_schema::Options::default();
    let schemas = sable_testkit::valid_schemas();
    let invalid = sable_testkit::invalid_schemas();
    assert!(!schemas.is_empty() && !invalid.is_empty());
    for file in schemas.iter().chain(&invalid) {
        let text = std::fs::read_to_string(file).unwrap();
        let compiled = sable_schema::compile_str_with(&text, file, &options);
        let checked = sable_schema::check_str_with(&text, file, &options);
        assert_eq!(checked, compiled.diagnostics, "{}", file.display());
    }
}

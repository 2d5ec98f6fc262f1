//! Sable's schema compiler against the reference implementation's (`sbe-all` 1.32.1), for every
//! valid schema of the shared corpus:
//!
//! 1. Sable's IR is the reference's, token for token and field for field (both printed in the
//!    dump form, messages matched by template id).
//! 2. The reference's `.sbeir` read by Sable gives the tokens of Sable's own parse, less what
//!    the format cannot carry (the schema description; `deprecated`, which the reference's
//!    encoder never writes and both decoders read as 0).
//! 3. Sable's `.sbeir` read by the reference's IrDecoder gives the same token lists as the
//!    reference's own `.sbeir`, compared field by field in the Java oracle (`IrDump compare`).
//!
//! Needs the reference: run `scripts/fetch-reference.sh` first (the test fails, saying so, when
//! it has not been run).

use std::path::Path;

use sable_ir::{sbeir, Ir};
use sable_schema::compile_file;
use sable_testkit::{compare_dumps, for_every_valid_schema, messages_by_id, schema_label, Oracle};

#[test]
fn every_shared_schema_compiles_as_the_reference_compiles_it() {
    let oracle = Oracle::new();
    for_every_valid_schema("schema-interop", |schema, dir| check(&oracle, schema, dir));
}

fn check(oracle: &Oracle, schema: &Path, dir: &Path) -> Result<(), String> {
    let stem = schema_label(schema).replace(['/', '\\'], "_");
    let reference_file = dir.join(format!("{stem}.reference.sbeir"));
    let sable_file = dir.join(format!("{stem}.sable.sbeir"));

    let compiled = compile_file(schema);
    let ir = compiled.ir.ok_or_else(|| {
        let diagnostics: Vec<String> = compiled
            .diagnostics
            .iter()
            .map(ToString::to_string)
            .collect();
        format!("Sable rejects it:\n{}", diagnostics.join("\n"))
    })?;
    let reference_dump = oracle
        .xml(schema, Some(&reference_file))
        .map_err(|e| e.to_string())?;

    // 1. The same IR from the same XML.
    compare_dumps(
        "reference",
        &messages_by_id(&reference_dump),
        "Sable",
        &messages_by_id(&sable_ir::dump(&ir)),
    )
    .map_err(|d| format!("Sable's IR differs from the reference's: {d}"))?;

    // 2. The reference's .sbeir, read by Sable, is Sable's own parse.
    let reference_bytes = std::fs::read(&reference_file)
        .map_err(|e| format!("reading {}: {e}", reference_file.display()))?;
    let from_reference = sbeir::read(&reference_bytes)
        .map_err(|e| format!("Sable cannot read the reference's .sbeir: {e}"))?;
    compare_dumps(
        "Sable's parse",
        &messages_by_id(&sable_ir::dump(&as_sbeir_carries(&ir))),
        "the reference's .sbeir read by Sable",
        &messages_by_id(&sable_ir::dump(&from_reference)),
    )
    .map_err(|d| format!("the reference's .sbeir reads differently from Sable's parse: {d}"))?;

    // 3. Sable's .sbeir, read by the reference, is the reference's own.
    std::fs::write(&sable_file, sbeir::write(&ir))
        .map_err(|e| format!("writing {}: {e}", sable_file.display()))?;
    oracle
        .compare(&reference_file, &sable_file)
        .map_err(|e| format!("the reference reads Sable's .sbeir differently from its own: {e}"))?;
    Ok(())
}

/// The IR less what a `.sbeir` file does not carry.
fn as_sbeir_carries(ir: &Ir) -> Ir {
    let mut ir = ir.clone();
    ir.description = None;
    for token in ir
        .header_tokens
        .iter_mut()
        .chain(ir.messages.iter_mut().flatten())
    {
        token.deprecated = 0;
    }
    ir
}

/// A `<field>` of a var-data composite is a fixed-size composite of the declared lengths, with a
/// warning saying so, and the IR is the reference's (which schemas of its own depend on).
#[test]
fn a_field_of_a_var_data_composite_compiles_as_the_reference_compiles_it() {
    let schema =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/var-data-composite-as-field.xml");
    let compiled = compile_file(&schema);
    let warnings: Vec<(u32, &str)> = compiled
        .diagnostics
        .iter()
        .map(|d| {
            assert_eq!(d.severity, sable_schema::Severity::Warning, "{d}");
            assert!(d.message.contains("fixed-size composite of"), "{d}");
            (d.line, d.element.as_str())
        })
        .collect();
    assert_eq!(
        warnings,
        [
            (32, "<field name=\"t\">"),
            (33, "<field name=\"u\">"),
            (35, "<field name=\"gs\">")
        ]
    );
    let ir = compiled.ir.expect("IR despite the warnings");
    let reference = Oracle::new()
        .xml(&schema, None)
        .expect("the reference's IR");
    compare_dumps(
        "reference",
        &messages_by_id(&reference),
        "Sable",
        &messages_by_id(&sable_ir::dump(&ir)),
    )
    .unwrap_or_else(|d| panic!("Sable's IR differs from the reference's: {d}"));
}

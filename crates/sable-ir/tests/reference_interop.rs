//! `.sbeir` interop with the reference implementation, for every valid schema of the shared
//! corpus: the reference compiles the schema and writes its `.sbeir`; Sable reads that file and
//! must see what the reference's own decoder sees; Sable writes the IR back and the reference's
//! decoder must see the same again in Sable's file, whose bytes must be the reference's but for
//! the `deprecated` fields (stale bytes in the reference's, zeros in Sable's).
//!
//! Needs the reference: run `scripts/fetch-reference.sh` first (the test fails, saying so,
//! when it has not been run).

mod common;

use std::path::Path;

use common::{layout, DEPRECATED};
use sable_ir::sbeir;
use sable_testkit::{compare_dumps, for_every_valid_schema, schema_label, Oracle, ScratchDir};

#[test]
fn every_shared_schema_round_trips_through_the_reference_and_sable() {
    let oracle = Oracle::new();
    for_every_valid_schema("sbeir-interop", |schema, dir| {
        check_schema(&oracle, schema, dir)
    });
}

/// A hand-built IR using every token kind, every primitive type's values, character arrays,
/// non-ASCII text and a description longer than the reference's 4096-byte token buffer: the
/// reference's decoder must read Sable's file as Sable does.
#[test]
fn the_reference_reads_what_sable_writes_from_a_hand_built_ir() {
    let oracle = Oracle::new();
    let mut ir = common::rich_ir();
    ir.messages[1][0].description = Some("long ".repeat(1200));
    let scratch = ScratchDir::new("sbeir-rich");
    let file = scratch.join("rich.sable.sbeir");
    let bytes = sbeir::write(&ir);
    std::fs::write(&file, &bytes).unwrap_or_else(|e| panic!("writing {}: {e}", file.display()));
    let back = sbeir::read(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let dumps = oracle
        .sbeir(&[&file])
        .unwrap_or_else(|e| panic!("the reference cannot read Sable's file: {e}"));
    if let Err(d) = compare_dumps(
        "reference reading Sable's file",
        &dumps[0],
        "Sable reading it",
        &sable_ir::dump(&as_the_reference_reads(&back)),
    ) {
        panic!("{d}");
    }
}

fn check_schema(oracle: &Oracle, schema: &Path, dir: &Path) -> Result<(), String> {
    let stem = schema_label(schema).replace(['/', '\\'], "_");
    let reference_file = dir.join(format!("{stem}.reference.sbeir"));
    let sable_file = dir.join(format!("{stem}.sable.sbeir"));

    oracle
        .xml(schema, Some(&reference_file))
        .map_err(|e| e.to_string())?;
    let reference_bytes = std::fs::read(&reference_file)
        .map_err(|e| format!("reading {}: {e}", reference_file.display()))?;
    let ir = sbeir::read(&reference_bytes)
        .map_err(|e| format!("Sable cannot read the reference's .sbeir: {e}"))?;
    let sable_dump = sable_ir::dump(&as_the_reference_reads(&ir));
    let sable_bytes = sbeir::write(&ir);
    std::fs::write(&sable_file, &sable_bytes)
        .map_err(|e| format!("writing {}: {e}", sable_file.display()))?;

    let dumps = oracle
        .sbeir(&[&reference_file, &sable_file])
        .map_err(|e| e.to_string())?;
    compare_dumps(
        "reference reading its file",
        &dumps[0],
        "Sable reading that file",
        &sable_dump,
    )
    .map_err(|d| format!("Sable reads the reference's .sbeir differently: {d}"))?;
    compare_dumps(
        "reference reading its file",
        &dumps[0],
        "reference reading Sable's",
        &dumps[1],
    )
    .map_err(|d| format!("the reference reads Sable's .sbeir differently: {d}"))?;

    same_bytes_but_deprecated(&reference_bytes, &sable_bytes)?;
    let again =
        sbeir::read(&sable_bytes).map_err(|e| format!("Sable cannot read its own .sbeir: {e}"))?;
    if again != ir {
        return Err("Sable reads its own .sbeir differently from the reference's".into());
    }
    truncations_fail(&reference_bytes, &ir)
}

/// The IR as the reference's decoder reports it: Sable reads the schema's byte order from the
/// header's encodings, the reference from the header composite's token, which is always
/// little-endian.
fn as_the_reference_reads(ir: &sable_ir::Ir) -> sable_ir::Ir {
    let mut ir = ir.clone();
    ir.byte_order = ir.header_tokens[0].encoding.byte_order;
    ir
}

/// Sable's file must be the reference's byte for byte, except that the reference leaves stale
/// bytes in each token's `deprecated` field where Sable writes the value it read: 0.
fn same_bytes_but_deprecated(reference: &[u8], sable: &[u8]) -> Result<(), String> {
    let mut expected = reference.to_vec();
    for token in layout(reference).tokens {
        expected[token.start + DEPRECATED..token.start + DEPRECATED + 4].fill(0);
    }
    if expected == sable {
        return Ok(());
    }
    let at = expected
        .iter()
        .zip(sable)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(sable.len()));
    Err(format!(
        "Sable's .sbeir ({} bytes) differs from the reference's ({} bytes, deprecated fields \
         zeroed) from byte {at}",
        sable.len(),
        expected.len()
    ))
}

/// Cut short anywhere, the reference's file reads as an error, except where the cut falls
/// exactly after the header or a message: that is a valid file with fewer messages.
fn truncations_fail(bytes: &[u8], ir: &sable_ir::Ir) -> Result<(), String> {
    let mut prefix = ir.clone();
    prefix.messages.clear();
    let mut valid_cuts = vec![sbeir::write(&prefix).len()];
    for message in &ir.messages {
        prefix.messages.push(message.clone());
        valid_cuts.push(sbeir::write(&prefix).len());
    }
    // Every offset would be quadratic on the larger files: every offset in the first and last
    // kilobyte, every token boundary and its neighbours, and a stride through the rest.
    let mut cuts: Vec<usize> = (0..bytes.len().min(1024)).collect();
    cuts.extend(bytes.len().saturating_sub(1024)..bytes.len());
    for token in layout(bytes).tokens {
        cuts.extend([token.start.saturating_sub(1), token.start, token.start + 1]);
    }
    cuts.extend((0..bytes.len()).step_by(97));
    cuts.sort_unstable();
    cuts.dedup();
    for cut in cuts.into_iter().filter(|c| *c < bytes.len()) {
        match sbeir::read(&bytes[..cut]) {
            Err(_) if !valid_cuts.contains(&cut) => {}
            Ok(ir) if valid_cuts.contains(&cut) => {
                let messages = valid_cuts.iter().position(|c| *c == cut).unwrap_or(0);
                if ir.messages.len() != messages {
                    return Err(format!("cut at {cut}: {} messages", ir.messages.len()));
                }
            }
            Ok(_) => {
                return Err(format!(
                    "cut at byte {cut} of {} reads as valid",
                    bytes.len()
                ))
            }
            Err(e) => return Err(format!("cut after a whole message at {cut}: {e}")),
        }
    }
    Ok(())
}

//! IR the generators cannot trust: every schema's IR passes `sable_ir::validate`, and a `.sbeir`
//! file mutated anywhere either fails to read or generates Java (both buffers), C++, Rust, C# and Python
//! without a panic.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use sable_codegen::{cpp, csharp, java, python, rust, typescript};
use sable_ir::{sbeir, Ir};
use sable_testkit::{repo_root, valid_schemas};

/// Every generator over `ir`, as `sable generate` runs them.
fn generate_all(ir: &Ir) {
    for buffer in [
        java::Buffer::Segment,
        java::Buffer::Agrona,
        java::Buffer::AgronaUnsafe,
    ] {
        let options = java::Options {
            buffer,
            ..java::Options::default()
        };
        java::generate(ir, &options);
    }
    cpp::generate(ir, &cpp::Options::default());
    rust::generate(ir);
    csharp::generate(ir, &csharp::Options::default());
    python::generate(ir, &python::Options::default());
    typescript::generate(ir, &typescript::Options::default());
}

/// The schemas of the shared corpus that must compile, and the repository's own.
fn schemas() -> Vec<PathBuf> {
    let root = repo_root();
    let mut all = valid_schemas();
    for dir in [
        "examples",
        "conformance/schemas",
        "crates/sable-cli/tests/fixtures",
    ] {
        let mut xml: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "xml"))
            .collect();
        xml.sort();
        all.extend(xml);
    }
    all
}

fn compile(schema: &Path) -> Option<Ir> {
    sable_schema::compile_file(schema).ir
}

#[test]
fn the_ir_of_every_schema_that_compiles_is_valid() {
    let mut checked = 0;
    for schema in schemas() {
        // A few of the repository's schemas are meant not to compile; the shared valid ones
        // all do (their own tests say so).
        let Some(ir) = compile(&schema) else { continue };
        if let Err(e) = sable_ir::validate(&ir) {
            panic!("{}: {e}", schema.display());
        }
        let back =
            sbeir::read(&sbeir::write(&ir)).unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
        assert_eq!(
            sable_ir::dump(&back),
            sable_ir::dump(&sbeir::read(&sbeir::write(&back)).expect("again"))
        );
        checked += 1;
    }
    assert!(checked >= 45, "only {checked} schemas compiled");
}

/// Reads `bytes` and, if they read, runs every generator; the description of a panic, if any.
fn panics(bytes: &[u8]) -> Option<String> {
    let ir = sbeir::read(bytes).ok()?;
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| generate_all(&ir)));
    outcome.err().map(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default()
    })
}

fn car_sbeir() -> Vec<u8> {
    let ir = compile(&repo_root().join("examples/car.xml")).expect("car.xml compiles");
    sbeir::write(&ir)
}

/// Runs every mutation, then fails listing those that made a generator panic.
fn assert_no_panics(mutations: impl Iterator<Item = (String, Vec<u8>)>) {
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    let mut read = 0;
    for (what, bytes) in mutations {
        if sbeir::read(&bytes).is_ok() {
            read += 1;
        }
        if let Some(why) = panics(&bytes) {
            failures.push(format!("{what}: {why}"));
        }
    }
    panic::set_hook(hook);
    assert!(
        failures.is_empty(),
        "{} mutations panicked ({read} read), e.g.:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// xorshift64: a deterministic sample, so that a failure reproduces.
fn sampler(mut state: u64) -> impl FnMut(usize) -> usize {
    move |below| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    }
}

/// How many mutations each test tries: generating takes milliseconds, and most mutations that
/// read at all change a name or a description, so a sample finds what every byte would.
const SAMPLE: usize = 1500;

#[test]
fn bytes_of_the_car_sbeir_mutated_never_panic_a_generator() {
    let bytes = car_sbeir();
    let mut next = sampler(0x9e37_79b9_7f4a_7c15);
    let values = [0x00u8, 0x01, 0x02, 0x7f, 0x80, 0xff];
    let mutations = (0..SAMPLE).map(|_| {
        let (at, value) = (next(bytes.len()), values[next(values.len())]);
        let mut mutated = bytes.clone();
        mutated[at] = value;
        (format!("byte {at} = {value:#04x}"), mutated)
    });
    assert_no_panics(mutations);
}

#[test]
fn int32s_of_the_car_sbeir_set_to_odd_values_never_panic_a_generator() {
    // Offsets, lengths, ids, versions and counts are int32s in each token's block; a value
    // written at any position lands on each of them in turn.
    let bytes = car_sbeir();
    let mut next = sampler(0x2545_f491_4f6c_dd1d);
    let values = [0, 1, -1, 2, 3, 255, 65535, 65536, i32::MAX, i32::MIN];
    let mutations = (0..SAMPLE).map(|_| {
        let (at, value) = (next(bytes.len() - 3), values[next(values.len())]);
        let mut mutated = bytes.clone();
        mutated[at..at + 4].copy_from_slice(&value.to_le_bytes());
        (format!("int32 at {at} = {value}"), mutated)
    });
    assert_no_panics(mutations);
}

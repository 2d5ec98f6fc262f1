//! Schema compilation speed: `compile_file` (read, parse, validate, lower to IR) of the largest
//! schema in the shared corpus, and writing that IR as `.sbeir`.
//!
//! Run with `cargo bench -p sable-cli --bench compile` (or `make bench`).

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// The largest `.xml` file under `../shared/schemas/valid` (searched recursively).
fn largest_valid_schema() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/schemas/valid");
    let mut best: Option<(u64, PathBuf)> = None;
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "xml")
                && best.as_ref().is_none_or(|(size, _)| meta.len() > *size)
            {
                best = Some((meta.len(), path));
            }
        }
    }
    best.unwrap_or_else(|| panic!("no .xml schema under {}", root.display()))
        .1
}

fn compile(c: &mut Criterion) {
    let path = largest_valid_schema();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let first = sable_schema::compile_file(&path);
    let ir = first
        .ir
        .unwrap_or_else(|| panic!("{} does not compile", path.display()));

    let mut group = c.benchmark_group("schema");
    group.throughput(Throughput::Bytes(size));
    group.bench_function(format!("compile_file/{name}"), |b| {
        b.iter(|| {
            let compiled = sable_schema::compile_file(std::hint::black_box(&path));
            assert!(compiled.ir.is_some());
            compiled
        })
    });
    group.bench_function(format!("sbeir_write/{name}"), |b| {
        b.iter(|| sable_ir::sbeir::write(std::hint::black_box(&ir)))
    });
    group.finish();
}

criterion_group!(benches, compile);
criterion_main!(benches);

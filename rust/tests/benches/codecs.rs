//! Car and MarketData encode and decode: Sable's generated codecs and the reference's
//! (sbe-all 1.32.1 Rust), side by side in one run, with the messages of the reference's own
//! Rust benchmarks. Run by scripts/bench-rust.sh.
//!
//! `decode` folds every value read into a rotate-xor checksum, one serial chain that bounds both
//! sides' time; `decode-opaque` hands every value to `black_box` instead (as to code the
//! compiler cannot see), the same on both sides, so that the decoders' own work shows. (The
//! opaque decodes are instantiated here, not in sable_rust_tests, where a second caller of the
//! reference's accessors would change LLVM's inlining of its `decode`; each in a function of its
//! own, not inlined, as the rotate-xor ones are, and as in examples/car_decode_loop.rs.)

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use sable_rust_tests::{car, md, Opaque};

#[inline(never)]
fn car_sable_opaque(buf: &[u8]) -> (usize, u64) {
    car::sable_decode_with::<Opaque>(buf).unwrap()
}

#[inline(never)]
fn car_reference_opaque(buf: &[u8]) -> (usize, u64) {
    car::reference::decode_with::<Opaque>(buf).unwrap()
}

#[inline(never)]
fn md_sable_opaque(buf: &[u8]) -> (usize, u64) {
    md::sable_decode_with::<Opaque>(buf).unwrap()
}

#[inline(never)]
fn md_reference_opaque(buf: &[u8]) -> (usize, u64) {
    md::reference::decode_with::<Opaque>(buf).unwrap()
}

fn car_benches(c: &mut Criterion) {
    let mut buf = vec![0u8; 1024];
    let mut g = c.benchmark_group("car");
    g.bench_function("encode/sable", |b| {
        b.iter(|| car::sable_encode(black_box(&mut buf)).unwrap())
    });
    g.bench_function("encode/reference", |b| {
        b.iter(|| car::reference::encode(black_box(&mut buf)).unwrap())
    });
    let n = car::sable_encode(&mut buf).unwrap();
    assert_eq!(car::reference::decode(&buf).unwrap().0, n);
    g.bench_function("decode/sable", |b| {
        b.iter(|| car::sable_decode(black_box(&buf)).unwrap())
    });
    g.bench_function("decode/reference", |b| {
        b.iter(|| car::reference::decode(black_box(&buf)).unwrap())
    });
    g.bench_function("decode-opaque/sable", |b| {
        b.iter(|| car_sable_opaque(black_box(&buf)))
    });
    g.bench_function("decode-opaque/reference", |b| {
        b.iter(|| car_reference_opaque(black_box(&buf)))
    });
    g.finish();
}

fn md_benches(c: &mut Criterion) {
    let mut buf = vec![0u8; 1024];
    let mut g = c.benchmark_group("md");
    g.bench_function("encode/sable", |b| {
        b.iter(|| md::sable_encode(black_box(&mut buf)).unwrap())
    });
    g.bench_function("encode/reference", |b| {
        b.iter(|| md::reference::encode(black_box(&mut buf)).unwrap())
    });
    let n = md::sable_encode(&mut buf).unwrap();
    assert_eq!(md::reference::decode(&buf).unwrap().0, n);
    g.bench_function("decode/sable", |b| {
        b.iter(|| md::sable_decode(black_box(&buf)).unwrap())
    });
    g.bench_function("decode/reference", |b| {
        b.iter(|| md::reference::decode(black_box(&buf)).unwrap())
    });
    g.bench_function("decode-opaque/sable", |b| {
        b.iter(|| md_sable_opaque(black_box(&buf)))
    });
    g.bench_function("decode-opaque/reference", |b| {
        b.iter(|| md_reference_opaque(black_box(&buf)))
    });
    g.finish();
}

criterion_group!(benches, car_benches, md_benches);
criterion_main!(benches);

//! Decoding to canonical JSON: a buffer of N messages, one JSON object each (a reused output
//! buffer). Throughput is in messages.
//!
//! `cargo bench -p sable-otf --bench decode_json`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sable_ir::Ir;
use sable_otf::decode::Decoder;
use sable_otf::json::{Jit, JsonPrinter};

const N: usize = 1000;

fn ir(name: &str) -> Ir {
    let path = sable_testkit::shared_dir().join("schemas/valid").join(name);
    sable_schema::compile_file(&path)
        .ir
        .unwrap_or_else(|| panic!("{name} does not compile"))
}

fn u16s(b: &mut Vec<u8>, v: u16) {
    b.extend_from_slice(&v.to_le_bytes());
}
fn u32s(b: &mut Vec<u8>, v: u32) {
    b.extend_from_slice(&v.to_le_bytes());
}
fn var(b: &mut Vec<u8>, v: &[u8]) {
    u32s(b, v.len() as u32);
    b.extend_from_slice(v);
}

/// A Car as the reference implementation's benchmark fills it.
fn car() -> Vec<u8> {
    let mut b = Vec::new();
    for v in [49u16, 1, 1, 0] {
        u16s(&mut b, v);
    }
    b.extend_from_slice(&1234u64.to_le_bytes());
    u16s(&mut b, 2013);
    b.extend_from_slice(&[1, b'A']);
    for i in 0..5 {
        u32s(&mut b, i);
    }
    b.extend_from_slice(b"abcdef");
    b.push(0b101); // sunRoof, cruiseControl
    u16s(&mut b, 2000);
    b.push(4);
    b.extend_from_slice(b"123");
    b.extend_from_slice(&[35, 1, b'N', 200]);
    u16s(&mut b, 6);
    u16s(&mut b, 3);
    for (speed, mpg, text) in [
        (30u16, 35.9f32, "Urban Cycle"),
        (55, 49.0, "Combined Cycle"),
        (75, 40.0, "Highway Cycle"),
    ] {
        u16s(&mut b, speed);
        u32s(&mut b, mpg.to_bits());
        var(&mut b, text.as_bytes());
    }
    u16s(&mut b, 1);
    u16s(&mut b, 2);
    for octane in [95u8, 99] {
        b.push(octane);
        u16s(&mut b, 6);
        u16s(&mut b, 3);
        for (mph, s) in [(30u16, 4.0f32), (60, 7.5), (100, 12.2)] {
            u16s(&mut b, mph);
            u32s(&mut b, s.to_bits());
        }
    }
    var(&mut b, b"Honda");
    var(&mut b, b"Civic VTi");
    var(&mut b, b"abcdef");
    b
}

/// A MarketDataIncrementalRefreshTrades with 2 entries.
fn market_data() -> Vec<u8> {
    let mut b = Vec::new();
    for v in [11u16, 2, 1, 1] {
        u16s(&mut b, v);
    }
    b.extend_from_slice(&1_234_567_890_123u64.to_le_bytes());
    u16s(&mut b, 500);
    b.push(b'1');
    u16s(&mut b, 33);
    u16s(&mut b, 2);
    for i in 0..2u64 {
        b.extend_from_slice(&(1234 + i).to_le_bytes()); // TradeId
        b.extend_from_slice(&56_789u64.to_le_bytes()); // SecurityId
        b.extend_from_slice(&50i64.to_le_bytes()); // MdEntryPx.mantissa
        u32s(&mut b, 10); // MdEntrySize.mantissa
        u16s(&mut b, 1); // NumberOfOrders
        b.push(1); // MdUpdateAction CHANGE
        b.push(1); // RptSeq
        b.push(b'1'); // AggressorSide BUY
    }
    b
}

fn bench(c: &mut Criterion, name: &str, schema: &str, one: Vec<u8>) {
    let ir = ir(schema);
    let printer = JsonPrinter::with_jit(&ir, Jit::Eager).unwrap();
    let decoder = Decoder::new(&ir).unwrap();
    let buf: Vec<u8> = one.iter().copied().cycle().take(one.len() * N).collect();
    let mut out = Vec::with_capacity(4096);
    assert_eq!(printer.print(&one, &mut out), Ok(one.len()));
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("decode_json", |b| {
        b.iter(|| {
            let mut pos = 0;
            while pos < buf.len() {
                out.clear();
                pos += printer.print(&buf[pos..], &mut out).unwrap();
                black_box(&out);
            }
        })
    });
    g.bench_function("message_length", |b| {
        b.iter(|| {
            let mut pos = 0;
            while pos < buf.len() {
                pos += decoder.message_length(black_box(&buf[pos..])).unwrap();
            }
        })
    });
    g.bench_function("decode_noop", |b| {
        b.iter(|| {
            let mut pos = 0;
            while pos < buf.len() {
                pos += decoder.decode(black_box(&buf[pos..]), &mut ()).unwrap();
            }
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench(c, "car", "example-schema.xml", car());
    bench(
        c,
        "market_data",
        "bench-fix-message-samples.xml",
        market_data(),
    );
}

criterion_group!(decode_json, benches);
criterion_main!(decode_json);

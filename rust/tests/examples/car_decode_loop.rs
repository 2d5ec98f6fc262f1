//! Decodes a benchmark message in a loop, for profiling: the Car with Sable's codecs (`sable`,
//! the default), the reference's (`reference`) or only Sable's `decode` and `encoded_length`
//! (`walk`: the header and block checks, then the walk of the groups and var data); the
//! MarketData message with Sable's (`md`) or the reference's (`md-reference`); or encodes one
//! with Sable's codecs (`encode`, `md-encode`: the length is the checksum). The decodes fold the
//! values into the rotate-xor checksum; with `-opaque` appended (`sable-opaque`,
//! `reference-opaque`, `md-opaque`, `md-reference-opaque`) each value goes to `black_box`
//! instead (`sable_rust_tests::Fold`).
//! `perf record target/release/examples/car_decode_loop [mode]`. A second argument sets the
//! number of decodes (50 million by default), for slower tools
//! (`valgrind --tool=callgrind ... sable 100000`, whose instruction count a decode tracks its
//! time by on the benchmark machine).

use sable_rust_tests::{car, md, Fold, Opaque};

// The `-opaque` decodes, instantiated here (not in sable_rust_tests, where a second caller of
// the reference's accessors would change LLVM's inlining of its `decode`; for the same reason
// only one fold besides the rotate-xor: to profile `Add`, put it in place of `Opaque`), one
// function each for the profiles.
#[inline(never)]
fn car_sable<F: Fold>(b: &[u8]) -> (usize, u64) {
    car::sable_decode_with::<F>(b).unwrap()
}

#[inline(never)]
fn car_reference<F: Fold>(b: &[u8]) -> (usize, u64) {
    car::reference::decode_with::<F>(b).unwrap()
}

#[inline(never)]
fn md_sable<F: Fold>(b: &[u8]) -> (usize, u64) {
    md::sable_decode_with::<F>(b).unwrap()
}

#[inline(never)]
fn md_reference<F: Fold>(b: &[u8]) -> (usize, u64) {
    md::reference::decode_with::<F>(b).unwrap()
}

#[inline(never)]
fn car_encode(b: &mut [u8]) -> usize {
    car::sable_encode(std::hint::black_box(b)).unwrap()
}

#[inline(never)]
fn md_encode(b: &mut [u8]) -> usize {
    md::sable_encode(std::hint::black_box(b)).unwrap()
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let n: u64 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50_000_000);
    let mut buf = vec![0u8; 1024];
    if mode.starts_with("md") {
        md::sable_encode(&mut buf).unwrap();
    } else {
        car::sable_encode(&mut buf).unwrap();
    }
    let mut sum = 0u64;
    for _ in 0..n {
        if mode.ends_with("encode") {
            let n = if mode == "md-encode" {
                md_encode(&mut buf)
            } else {
                car_encode(&mut buf)
            };
            sum = sum.wrapping_add(n as u64);
            continue;
        }
        let b = std::hint::black_box(&buf[..]);
        let (n, s) = match mode.as_str() {
            "walk" => {
                let car = sable_rust_codecs::bench_car::CarDecoder::decode(b).unwrap();
                (
                    car.encoded_length().unwrap(),
                    u64::from(car.acting_version()),
                )
            }
            "reference" => car::reference::decode(b).unwrap(),
            "md" => md::sable_decode(b).unwrap(),
            "md-reference" => md::reference::decode(b).unwrap(),
            "sable-opaque" => car_sable::<Opaque>(b),
            "reference-opaque" => car_reference::<Opaque>(b),
            "md-opaque" => md_sable::<Opaque>(b),
            "md-reference-opaque" => md_reference::<Opaque>(b),
            _ => car::sable_decode(b).unwrap(),
        };
        sum = sum.wrapping_add(s ^ n as u64);
    }
    println!("{sum}");
}

//! Decodes the benchmark Car in a loop, with Sable's codecs or the reference's (`reference` as
//! the first argument), for profiling: `perf record target/release/examples/car_decode_loop`.

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let reference = mode == "reference";
    let mut buf = vec![0u8; 1024];
    sable_rust_tests::car::sable_encode(&mut buf).unwrap();
    let mut sum = 0u64;
    for _ in 0..50_000_000 {
        let b = std::hint::black_box(&buf[..]);
        let (n, s) = if mode == "walk" {
            let car = sable_rust_codecs::bench_car::CarDecoder::decode(b).unwrap();
            (car.encoded_length(), u64::from(car.acting_version()))
        } else if reference {
            sable_rust_tests::car::reference::decode(b).unwrap()
        } else {
            sable_rust_tests::car::sable_decode(b).unwrap()
        };
        sum = sum.wrapping_add(s ^ n as u64);
    }
    println!("{sum}");
}

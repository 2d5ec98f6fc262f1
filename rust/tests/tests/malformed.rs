//! Decoding never panics on untrusted input: every truncation of every conformance-style
//! message, and every single-byte corruption of them, either decodes (and prints) or returns a
//! `DecodeError` with an offset inside the input: from `decode_any` (which checks the whole
//! message), or from `decode` (header and block) and then the reads of its groups and var data.

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
    m.serial_number(1)
        .model_year(2)
        .vehicle_code(b"abc")
        .unwrap();
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
            .and_then(|m| read_example(&m).map(|()| m.to_string()))
            .map_err(|e| (e.offset, e))
    });
    assert!(ok > 0 && err > n, "{ok} decoded, {err} errors");
    // A newer reader (the extension schema) of the same bytes.
    let (ok, err) = check(&bytes, |b| {
        example_extension_schema::CarDecoder::decode(b)
            .and_then(|m| m.encoded_length().map(|_| m.to_string()))
            .map_err(|e| (e.offset, e))
    });
    assert!(ok > 0 && err > n, "{ok} decoded, {err} errors");
    // Display of a message whose groups or var data do not fit: its error, as JSON.
    let m = example_schema::CarDecoder::decode(&bytes[..n - 1]).unwrap();
    let e = m.encoded_length().unwrap_err();
    assert_eq!(m.to_string(), e.json().to_string());
}

/// Reads every group entry and var data of the example Car in schema order (each read checked),
/// then the whole message's length.
fn read_example(m: &example_schema::CarDecoder<'_>) -> Result<(), example_schema::DecodeError> {
    for f in m.fuel_figures()? {
        let f = f?;
        let _ = (f.speed(), f.mpg(), f.usage_description_str());
    }
    for p in m.performance_figures()? {
        let p = p?;
        for a in p.acceleration() {
            let a = a?;
            let _ = (a.mph(), a.seconds());
        }
    }
    m.manufacturer()?;
    m.model()?;
    m.activation_code()?;
    m.encoded_length().map(|_| ())
}

#[test]
fn errors_say_what_and_where() {
    let mut buf = vec![0u8; 1024];
    let n = car::sable_encode(&mut buf).unwrap();
    // `decode` checks the header and block; the truncated var data is found by its read, by
    // `encoded_length` and by `decode_any`, each with the same error.
    let m = bench_car::CarDecoder::decode(&buf[..n - 1]).unwrap();
    let e = m.model().unwrap_err();
    assert_eq!(
        m.manufacturer().map(<[u8]>::len),
        Ok(car::MANUFACTURER.len())
    );
    assert_eq!(m.encoded_length(), Err(e));
    assert_eq!(bench_car::decode_any(&buf[..n - 1]).unwrap_err(), e);
    // The var data item is its length (4 bytes) and its bytes: the error is at the length.
    assert_eq!(e.offset, n - 9);
    assert_eq!(e.field.to_string(), "fields.model");
    assert_eq!(e.kind.name(), "truncated");
    assert!(matches!(
        e.kind,
        bench_car::DecodeErrorKind::Truncated {
            needed: 9,
            available: 8
        }
    ));
    assert_eq!(
        e.to_string(),
        format!(
            "fields.model at byte {}: needs 9 bytes, the buffer has 8 left",
            n - 9
        )
    );
    let e = bench_car::CarDecoder::decode(&buf[..4]).unwrap_err();
    assert_eq!(e.offset, 0);
    assert_eq!(e.field.to_string(), "header");
    // Header 8, block 41, fuelFigures 4 + 3 * 6, performanceFigures' header 4 (at 71), its first
    // entry's block 1 and acceleration header 4 (at 76), then 3 * 6 bytes of entries at 80.
    let m = bench_car::CarDecoder::decode(&buf[..60]).unwrap();
    // The first entry that does not fit: the second, at 59.
    let e = m.fuel_figures().unwrap_err();
    assert_eq!(e.offset, 59);
    assert_eq!(e.field.to_string(), "fields.fuelFigures[1]");
    assert!(matches!(
        e.kind,
        bench_car::DecodeErrorKind::Truncated {
            needed: 6,
            available: 1
        }
    ));
    assert_eq!(m.performance_figures().unwrap_err(), e);
    // An entry with a group that does not fit: the iterator's item, and the last.
    let m = bench_car::CarDecoder::decode(&buf[..90]).unwrap();
    assert_eq!(m.fuel_figures().unwrap().len(), 3);
    let mut perf = m.performance_figures().unwrap();
    let e = perf.next().unwrap().unwrap_err();
    // The acceleration entries at 80, 86, 92: the second does not fit.
    assert_eq!(e.offset, 86);
    assert_eq!(
        e.field.to_string(),
        "fields.performanceFigures[0].acceleration[1]"
    );
    assert!(perf.next().is_none());
    assert_eq!(m.manufacturer().unwrap_err(), e);
    buf[2] = 99;
    let e = bench_car::CarDecoder::decode(&buf[..n]).unwrap_err();
    assert_eq!(e.kind, bench_car::DecodeErrorKind::UnknownTemplate(99));
    assert_eq!(
        (e.offset, e.field.to_string()),
        (2, "header.templateId".into())
    );
}

#[test]
fn encoders_report_a_full_buffer() {
    let mut small = [0u8; 20];
    let e = bench_car::CarEncoder::new(&mut small).unwrap_err();
    assert!(matches!(
        e.kind,
        bench_car::EncodeErrorKind::BufferTooShort {
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
        assert_eq!(e.field.to_string(), "fields.fuelFigures[1]");
        assert!(matches!(
            e.kind,
            bench_car::EncodeErrorKind::BufferTooShort {
                needed: 6,
                available: 5
            }
        ));
        assert_eq!(g.count(), 1);
    }
    let e = m.manufacturer(&[0u8; 100]).unwrap_err();
    assert_eq!(e.offset, 59);
}

//! The codec contract's errors (docs/codecs.md): each encoder error kind, with its field path,
//! and nothing written by a call that fails; each decoder error kind with the contract's offset
//! (from the message's first byte), field path and order of checks.

use sable_rust_codecs::basic_variable_length_schema as vl;
use sable_rust_codecs::{bench_car, example_schema as ex, group_with_data_schema as gd};

/// An example-schema Car with two performance figures of three accelerations each: its bytes.
fn example_car() -> Vec<u8> {
    let mut buf = vec![0u8; 1024];
    let mut m = ex::CarEncoder::new(&mut buf).unwrap();
    m.serial_number(1).vehicle_code(b"abc").unwrap();
    m.fuel_figures().unwrap();
    {
        let mut g = m.performance_figures().unwrap();
        for octane in [95, 99] {
            let mut e = g.next_entry().unwrap();
            e.octane_rating(octane).unwrap();
            let mut a = e.acceleration().unwrap();
            for mph in [30, 60, 100] {
                a.next_entry().unwrap().mph(mph).seconds(4.0);
            }
        }
    }
    m.manufacturer(b"Honda").unwrap();
    m.model(b"Civic").unwrap();
    m.activation_code(b"abcdef").unwrap();
    let n = m.encoded_length();
    buf.truncate(n);
    buf
}

#[test]
fn text_longer_than_its_char_array_is_an_error_not_cut() {
    let mut buf = [0u8; 256];
    let mut m = bench_car::CarEncoder::new(&mut buf).unwrap();
    m.vehicle_code(b"xyz").unwrap();
    let e = m.vehicle_code(b"abcdefg").unwrap_err();
    assert_eq!(e.kind.name(), "textTooLong");
    assert_eq!(
        e.kind,
        bench_car::EncodeErrorKind::TextTooLong { length: 7, max: 6 }
    );
    assert_eq!(e.field.to_string(), "fields.vehicleCode");
    // Nothing written: the earlier value stays.
    let d = bench_car::CarDecoder::decode(m.as_bytes()).unwrap();
    assert_eq!(d.vehicle_code(), b"xyz");
    // The text accessor stops at the first NUL; the raw one has all the bytes.
    assert_eq!(d.vehicle_code_raw(), b"xyz\0\0\0");
    assert_eq!(d.vehicle_code_str(), Ok("xyz"));
    // Exactly the array's length is fine, and has no NUL.
    m.vehicle_code(b"abcdef").unwrap();
    let d = bench_car::CarDecoder::decode(m.as_bytes()).unwrap();
    assert_eq!(d.vehicle_code(), b"abcdef");
}

#[test]
fn a_composite_members_text_error_names_the_member() {
    let mut buf = [0u8; 256];
    let mut m = bench_car::CarEncoder::new(&mut buf).unwrap();
    let e = m.engine().manufacturer_code(b"abcd").unwrap_err();
    assert_eq!(e.field.to_string(), "fields.engine.manufacturerCode");
    assert_eq!(e.kind.name(), "textTooLong");
}

#[test]
fn an_array_index_out_of_range_is_an_error() {
    let mut buf = [0u8; 256];
    let mut m = bench_car::CarEncoder::new(&mut buf).unwrap();
    m.some_numbers_at(4, 9).unwrap();
    let e = m.some_numbers_at(5, 1).unwrap_err();
    assert_eq!(
        e.kind,
        bench_car::EncodeErrorKind::IndexOutOfRange {
            index: 5,
            length: 5
        }
    );
    assert_eq!(e.kind.name(), "indexOutOfRange");
    assert_eq!(e.field.to_string(), "fields.someNumbers");
    let d = bench_car::CarDecoder::decode(m.as_bytes()).unwrap();
    assert_eq!(d.some_numbers(), [0, 0, 0, 0, 9]);
}

#[test]
fn a_value_outside_the_declared_range_is_an_error_with_its_path() {
    let mut buf = [0u8; 256];
    let mut m = ex::CarEncoder::new(&mut buf).unwrap();
    // Percentage: minValue 0, maxValue 100, in the engine composite.
    m.engine().efficiency(100).unwrap();
    let e = m.engine().efficiency(101).unwrap_err();
    assert_eq!(e.kind, ex::EncodeErrorKind::ValueOutOfRange);
    assert_eq!(e.kind.name(), "valueOutOfRange");
    assert_eq!(e.field.to_string(), "fields.engine.efficiency");
    m.fuel_figures().unwrap();
    let mut g = m.performance_figures().unwrap();
    g.next_entry().unwrap().octane_rating(90).unwrap();
    // Ron: 90..=110; the second entry's error has its index.
    let e = g.next_entry().unwrap().octane_rating(89).unwrap_err();
    assert_eq!(
        e.field.to_string(),
        "fields.performanceFigures[1].octaneRating"
    );
    assert_eq!(e.kind.name(), "valueOutOfRange");
}

#[test]
fn a_group_count_above_its_maximum_is_an_error() {
    let mut buf = vec![0u8; 64 * 1024];
    let mut m = gd::TestMessage1Encoder::new(&mut buf).unwrap();
    let mut g = m.entries().unwrap();
    // numInGroup uint8: at most 254 entries (255 is its null value).
    for _ in 0..254 {
        g.next_entry().unwrap().var_data_field(b"x").unwrap();
    }
    let e = g.next_entry().unwrap_err();
    assert_eq!(e.kind, gd::EncodeErrorKind::CountTooLarge(254));
    assert_eq!(e.kind.name(), "countTooLarge");
    assert_eq!(e.field.to_string(), "fields.Entries");
    assert_eq!(g.count(), 254);
}

#[test]
fn var_data_longer_than_its_length_allows_is_an_error() {
    let mut buf = vec![0u8; 1024];
    let mut m = vl::TestMessage1Encoder::new(&mut buf).unwrap();
    let e = m.encrypted_new_password(&[7u8; 255]).unwrap_err();
    assert_eq!(
        e.kind,
        vl::EncodeErrorKind::LengthTooLarge {
            length: 255,
            max: 254
        }
    );
    assert_eq!(e.kind.name(), "lengthTooLarge");
    assert_eq!(e.field.to_string(), "fields.encryptedNewPassword");
    let before = m.encoded_length();
    m.encrypted_new_password(&[7u8; 254]).unwrap();
    assert_eq!(m.encoded_length(), before + 1 + 254);
}

#[test]
fn a_buffer_too_short_is_an_error_with_the_entry_path() {
    let mut buf = vec![0u8; 60];
    let mut m = bench_car::CarEncoder::new(&mut buf).unwrap();
    let mut g = m.fuel_figures().unwrap();
    g.next_entry().unwrap();
    let e = g.next_entry().unwrap_err();
    assert_eq!(e.kind.name(), "bufferTooShort");
    assert_eq!(e.field.to_string(), "fields.fuelFigures[1]");
}

#[test]
fn truncations_report_the_first_item_that_does_not_fit() {
    let car = example_car();
    let n = car.len();
    // activationCode: a uint32 length and 6 bytes at the end; cut anywhere inside it.
    let start = n - 10;
    for cut in start..n {
        let e = ex::decode_any(&car[..cut]).unwrap_err();
        assert_eq!(
            (e.offset, e.field.to_string(), e.kind.name()),
            (start, "fields.activationCode".to_owned(), "truncated"),
            "cut at {cut}"
        );
    }
    // performanceFigures starts after the root block and the empty fuelFigures: its header,
    // then each entry (octane 1 byte, acceleration header 4, three entries of 6).
    let header = ex::HEADER_SIZE;
    let block = usize::from(ex::CarDecoder::BLOCK_LENGTH);
    let perf = header + block + 4;
    let entry = 1 + 4 + 3 * 6;
    let accel = perf + 4 + 1 + 4;
    for (cut, offset, field) in [
        (header - 1, 0, "header".to_owned()),
        (header + 1, header, "fields".to_owned()),
        (perf + 3, perf, "fields.performanceFigures".to_owned()),
        (
            perf + 4,
            perf + 4,
            "fields.performanceFigures[0]".to_owned(),
        ),
        (
            accel - 1,
            accel - 4,
            "fields.performanceFigures[0].acceleration".to_owned(),
        ),
        (
            accel + 12 + 5,
            accel + 12,
            "fields.performanceFigures[0].acceleration[2]".to_owned(),
        ),
        (
            perf + 4 + entry + 2,
            perf + 4 + entry + 1,
            "fields.performanceFigures[1].acceleration".to_owned(),
        ),
    ] {
        let e = ex::decode_any(&car[..cut]).unwrap_err();
        assert_eq!(
            (e.offset, e.field.to_string(), e.kind.name()),
            (offset, field, "truncated"),
            "cut at {cut}"
        );
    }
}

#[test]
fn header_checks_come_in_the_contracts_order() {
    let mut car = example_car();
    // schemaId (offset 4) is checked before templateId (offset 2).
    car[2] = 99;
    car[4] = 77;
    let e = ex::decode_any(&car).unwrap_err();
    assert_eq!(
        (e.offset, e.field.to_string(), e.kind.name()),
        (4, "header.schemaId".into(), "schemaIdMismatch")
    );
    let e = ex::CarDecoder::decode(&car).unwrap_err();
    assert_eq!(e.kind.name(), "schemaIdMismatch");
    car[4] = 1;
    let e = ex::decode_any(&car).unwrap_err();
    assert_eq!(
        (e.offset, e.field.to_string(), e.kind.name()),
        (2, "header.templateId".into(), "unknownTemplate")
    );
    car[2] = 1;
    // A block length shorter than the fields, at the schema's version, before the block's
    // own truncation.
    car[0] = 10;
    car[1] = 0;
    let e = ex::decode_any(&car[..12]).unwrap_err();
    assert_eq!(
        (e.offset, e.field.to_string(), e.kind.name()),
        (0, "header.blockLength".into(), "blockLengthTooShort")
    );
}

#[test]
fn a_groups_block_length_too_short_names_the_group() {
    let mut car = example_car();
    let perf = ex::HEADER_SIZE + usize::from(ex::CarDecoder::BLOCK_LENGTH) + 4;
    // performanceFigures' entries hold octaneRating (1 byte): a block length of 0 is too short.
    car[perf] = 0;
    car[perf + 1] = 0;
    let e = ex::decode_any(&car).unwrap_err();
    assert_eq!(
        (e.offset, e.field.to_string(), e.kind.name()),
        (
            perf,
            "fields.performanceFigures".into(),
            "blockLengthTooShort"
        )
    );
}

#[test]
fn every_group_yields_results_whatever_its_entries_hold() {
    let car = example_car();
    let m = ex::CarDecoder::decode(&car).unwrap();
    // fuelFigures' entries hold var data, acceleration's only fixed fields: the same item type.
    let fuel: Option<Result<ex::car::FuelFiguresDecoder<'_>, ex::DecodeError>> =
        m.fuel_figures().unwrap().next();
    assert!(fuel.is_none());
    for p in m.performance_figures().unwrap() {
        let p = p.unwrap();
        let accel: Vec<Result<ex::car::AccelerationDecoder<'_>, ex::DecodeError>> =
            p.acceleration().collect();
        assert_eq!(accel.len(), 3);
    }
}

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

/// Writes a Car with Sable's codecs of the example schema (version 0).
fn sable_base_car(buf: &mut [u8]) -> usize {
    let mut m = sbase::CarEncoder::new(buf).unwrap();
    m.serial_number(1234)
        .model_year(2013)
        .available(sbase::BooleanType::T)
        .code(sbase::Model::A)
        .some_numbers(&[1, 2, 3, 4, 5])
        .vehicle_code(b"abcdef")
        .unwrap()
        .extras(sbase::OptionalExtras::CRUISE_CONTROL);
    m.engine()
        .capacity(2000)
        .num_cylinders(4)
        .manufacturer_code(b"123")
        .unwrap();
    {
        let mut g = m.fuel_figures().unwrap();
        let mut e = g.next_entry().unwrap();
        e.speed(30).mpg(35.9);
        e.usage_description(b"Urban Cycle").unwrap();
    }
    {
        let mut g = m.performance_figures().unwrap();
        let mut e = g.next_entry().unwrap();
        e.octane_rating(95).unwrap();
        let mut a = e.acceleration().unwrap();
        a.next_entry().unwrap().mph(30).seconds(4.0);
    }
    m.manufacturer(b"Honda")
        .unwrap()
        .model(b"Civic VTi")
        .unwrap()
        .activation_code(b"abcdef")
        .unwrap();
    m.encoded_length()
}

/// Writes the same Car with the reference's codecs of the example schema.
fn reference_base_car(buf: &mut [u8]) -> usize {
    use baseline::boolean_type::BooleanType;
    use baseline::car_codec::encoder::{
        AccelerationEncoder, CarEncoder, FuelFiguresEncoder, PerformanceFiguresEncoder,
    };
    use baseline::message_header_codec::ENCODED_LENGTH;
    use baseline::model::Model;
    use baseline::optional_extras::OptionalExtras;
    use baseline::WriteBuf;
    let mut car = CarEncoder::default().wrap(WriteBuf::new(buf), ENCODED_LENGTH);
    car = car.header(0).parent().unwrap();
    car.serial_number(1234);
    car.model_year(2013);
    car.available(BooleanType::T);
    car.code(Model::A);
    car.some_numbers(&[1, 2, 3, 4, 5]);
    car.vehicle_code(b"abcdef");
    let mut extras = OptionalExtras::default();
    extras.set_cruise_control(true);
    car.extras(extras);
    let mut engine = car.engine_encoder();
    engine.capacity(2000);
    engine.num_cylinders(4);
    engine.manufacturer_code(b"123");
    car = engine.parent().unwrap();
    let mut fuel = car.fuel_figures_encoder(1, FuelFiguresEncoder::default());
    fuel.advance().unwrap();
    fuel.speed(30);
    fuel.mpg(35.9);
    fuel.usage_description("Urban Cycle");
    car = fuel.parent().unwrap();
    let mut perf = car.performance_figures_encoder(1, PerformanceFiguresEncoder::default());
    perf.advance().unwrap();
    perf.octane_rating(95);
    let mut accel = perf.acceleration_encoder(1, AccelerationEncoder::default());
    accel.advance().unwrap();
    accel.mph(30);
    accel.seconds(4.0);
    perf = accel.parent().unwrap();
    car = perf.parent().unwrap();
    car.manufacturer("Honda");
    car.model("Civic VTi");
    car.activation_code("abcdef");
    ENCODED_LENGTH + car.encoded_length()
}

#[test]
fn example_car_same_bytes_both_ways() {
    let mut a = vec![0u8; 1024];
    let mut b = vec![0u8; 1024];
    let n = sable_base_car(&mut a);
    let m = reference_base_car(&mut b);
    // Sable zeroes the engine's padding and unset fields are left as the buffer held them on
    // both sides (zero here), so the bytes agree.
    assert_eq!(a[..n], b[..m]);
    let car = sbase::CarDecoder::decode(&b[..m]).unwrap();
    assert_eq!(car.serial_number(), 1234);
    assert_eq!(car.manufacturer_str(), Ok("Honda"));
    assert_eq!(car.encoded_length(), Ok(m));
}

#[test]
fn reference_v0_car_read_by_sable_extension_decoder() {
    let mut b = vec![0u8; 1024];
    let m = reference_base_car(&mut b);
    let car = sext::CarDecoder::decode(&b[..m]).unwrap();
    assert_eq!(car.acting_version(), 0);
    assert_eq!(car.serial_number(), 1234);
    assert_eq!(car.cup_holder_count(), None);
    // mpg is newer (version 2) than the writer: its null value.
    let fuel: Vec<_> = car
        .fuel_figures()
        .unwrap()
        .map(|f| f.unwrap())
        .map(|f| (f.speed(), f.mpg().is_nan()))
        .collect();
    assert_eq!(fuel, vec![(30, true)]);
    assert_eq!(car.model_str(), Ok("Civic VTi"));
    assert_eq!(car.encoded_length(), Ok(m));
    let json = car.to_string();
    assert!(
        json.contains("\"uuid\":null,\"cupHolderCount\":null"),
        "{json}"
    );
}

#[test]
fn sable_extension_car_read_by_reference_v0_and_extension_decoders() {
    let mut a = vec![0u8; 1024];
    let mut m = sext::CarEncoder::new(&mut a).unwrap();
    m.serial_number(77)
        .model_year(2020)
        .uuid(&[7, 8])
        .cup_holder_count(Some(3))
        .vehicle_code(b"zz")
        .unwrap();
    {
        let mut g = m.fuel_figures().unwrap();
        let mut e = g.next_entry().unwrap();
        e.speed(55).mpg(49.0);
        e.usage_description(b"Combined").unwrap();
    }
    m.performance_figures().unwrap();
    m.manufacturer(b"Ford")
        .unwrap()
        .model(b"T")
        .unwrap()
        .activation_code(b"")
        .unwrap();
    let n = m.encoded_length();

    // The reference's decoder of the extension schema.
    {
        use extension::car_codec::decoder::CarDecoder;
        use extension::message_header_codec::{MessageHeaderDecoder, ENCODED_LENGTH};
        use extension::ReadBuf;
        let header = MessageHeaderDecoder::default().wrap(ReadBuf::new(&a[..n]), 0);
        let mut car = CarDecoder::default().header(header);
        assert_eq!(car.serial_number(), 77);
        assert_eq!(car.uuid(), [7, 8]);
        assert_eq!(car.cup_holder_count(), Some(3));
        let mut fuel = car.fuel_figures_decoder();
        assert_eq!(fuel.advance().unwrap(), Some(0));
        assert_eq!(fuel.speed(), 55);
        assert_eq!(fuel.mpg(), 49.0);
        let coord = fuel.usage_description_decoder();
        assert_eq!(fuel.usage_description_slice(coord), b"Combined");
        car = fuel.parent().unwrap();
        let perf = car.performance_figures_decoder();
        car = {
            let mut p = perf;
            p.parent().unwrap()
        };
        let coord = car.manufacturer_decoder();
        assert_eq!(car.manufacturer_slice(coord), b"Ford");
        let coord = car.model_decoder();
        assert_eq!(car.model_slice(coord), b"T");
        let coord = car.activation_code_decoder();
        assert_eq!(car.activation_code_slice(coord), b"");
        assert_eq!(ENCODED_LENGTH + car.encoded_length(), n);
    }
    // The reference's decoder of the older example schema: longer blocks skipped.
    {
        use baseline::car_codec::decoder::CarDecoder;
        use baseline::message_header_codec::MessageHeaderDecoder;
        use baseline::ReadBuf;
        let header = MessageHeaderDecoder::default().wrap(ReadBuf::new(&a[..n]), 0);
        let mut car = CarDecoder::default().header(header);
        assert_eq!(car.serial_number(), 77);
        assert_eq!(car.model_year(), 2020);
        let mut fuel = car.fuel_figures_decoder();
        assert_eq!(fuel.advance().unwrap(), Some(0));
        assert_eq!(fuel.speed(), 55);
        let coord = fuel.usage_description_decoder();
        assert_eq!(fuel.usage_description_slice(coord), b"Combined");
        car = fuel.parent().unwrap();
        let mut perf = car.performance_figures_decoder();
        assert_eq!(perf.advance().unwrap(), None);
        car = perf.parent().unwrap();
        let coord = car.manufacturer_decoder();
        assert_eq!(car.manufacturer_slice(coord), b"Ford");
    }
    // And Sable's own decoder of the example schema (version 0) reads it too.
    let old = sbase::CarDecoder::decode(&a[..n]).unwrap();
    assert_eq!(old.serial_number(), 77);
    assert_eq!(old.manufacturer(), Ok(&b"Ford"[..]));
    assert_eq!(
        old.fuel_figures()
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .usage_description(),
        b"Combined"
    );
}

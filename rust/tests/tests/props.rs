//! Property tests: random valid Car messages (the example schema) and MarketData messages
//! encoded with Sable's codecs decode back to the same values, with Sable's decoders and the
//! reference's; and the reference's encoding of the same Car gives the same bytes.

use proptest::prelude::*;
use sable_rust_codecs::bench_fix_message_samples as fix;
use sable_rust_codecs::example_schema as ex;

#[derive(Debug, Clone, PartialEq)]
struct Car {
    serial_number: u64,
    model_year: u16,
    available: u8,
    code: u8,
    some_numbers: [u32; 5],
    vehicle_code: [u8; 6],
    extras: u8,
    capacity: u16,
    num_cylinders: u8,
    manufacturer_code: [u8; 3],
    efficiency: i8,
    boost_type: u8,
    horse_power: u8,
    fuel: Vec<(u16, f32, Vec<u8>)>,
    perf: Vec<(u8, Vec<(u16, f32)>)>,
    manufacturer: Vec<u8>,
    model: Vec<u8>,
    activation_code: Vec<u8>,
}

fn text() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(0x20u8..0x7f, 0..40)
}

fn car() -> impl Strategy<Value = Car> {
    (
        (
            any::<u64>(),
            any::<u16>(),
            0u8..2,
            prop::sample::select(vec![b'A', b'B', b'C']),
            any::<[u32; 5]>(),
            prop::array::uniform6(0x20u8..0x7f),
            0u8..8,
        ),
        (
            any::<u16>(),
            any::<u8>(),
            prop::array::uniform3(0x20u8..0x7f),
            0i8..=100, // Percentage's declared range: the encoder rejects the others
            prop::sample::select(vec![b'T', b'S', b'N', b'K']),
            any::<u8>(),
        ),
        proptest::collection::vec((any::<u16>(), any::<f32>(), text()), 0..4),
        proptest::collection::vec(
            (
                90u8..=110, // Ron's declared range
                proptest::collection::vec((any::<u16>(), any::<f32>()), 0..4),
            ),
            0..3,
        ),
        (text(), text(), text()),
    )
        .prop_map(
            |(a, e, fuel, perf, (manufacturer, model, activation_code))| Car {
                serial_number: a.0,
                model_year: a.1,
                available: a.2,
                code: a.3,
                some_numbers: a.4,
                vehicle_code: a.5,
                extras: a.6,
                capacity: e.0,
                num_cylinders: e.1,
                manufacturer_code: e.2,
                efficiency: e.3,
                boost_type: e.4,
                horse_power: e.5,
                fuel,
                perf,
                manufacturer,
                model,
                activation_code,
            },
        )
}

fn sable_encode(c: &Car, buf: &mut [u8]) -> usize {
    let mut m = ex::CarEncoder::new(buf).unwrap();
    m.serial_number(c.serial_number)
        .model_year(c.model_year)
        .available(ex::BooleanType::from_raw(c.available))
        .code(ex::Model::from_raw(c.code))
        .some_numbers(&c.some_numbers)
        .vehicle_code(&c.vehicle_code)
        .unwrap()
        .extras(ex::OptionalExtras::from_bits(c.extras));
    {
        let mut e = m.engine();
        e.capacity(c.capacity)
            .num_cylinders(c.num_cylinders)
            .manufacturer_code(&c.manufacturer_code)
            .unwrap()
            .efficiency(c.efficiency)
            .unwrap()
            .booster_enabled(ex::BooleanType::T);
        e.booster()
            .boost_type(ex::BoostType::from_raw(c.boost_type))
            .horse_power(c.horse_power);
    }
    let mut g = m.fuel_figures().unwrap();
    for (speed, mpg, desc) in &c.fuel {
        let mut e = g.next_entry().unwrap();
        e.speed(*speed).mpg(*mpg);
        e.usage_description(desc).unwrap();
    }
    let mut g = m.performance_figures().unwrap();
    for (octane, accel) in &c.perf {
        let mut e = g.next_entry().unwrap();
        e.octane_rating(*octane).unwrap();
        let mut a = e.acceleration().unwrap();
        for (mph, seconds) in accel {
            a.next_entry().unwrap().mph(*mph).seconds(*seconds);
        }
    }
    m.manufacturer(&c.manufacturer)
        .unwrap()
        .model(&c.model)
        .unwrap()
        .activation_code(&c.activation_code)
        .unwrap();
    m.encoded_length()
}

fn sable_decode(buf: &[u8]) -> Car {
    let m = ex::CarDecoder::decode(buf).unwrap();
    assert_eq!(m.encoded_length(), Ok(buf.len()));
    let e = m.engine();
    assert_eq!(e.booster_enabled(), ex::BooleanType::T);
    Car {
        serial_number: m.serial_number(),
        model_year: m.model_year(),
        available: m.available().raw(),
        code: m.code().raw(),
        some_numbers: m.some_numbers(),
        vehicle_code: *m.vehicle_code_raw(),
        extras: m.extras().bits(),
        capacity: e.capacity(),
        num_cylinders: e.num_cylinders(),
        manufacturer_code: *e.manufacturer_code_raw(),
        efficiency: e.efficiency(),
        boost_type: e.booster().boost_type().raw(),
        horse_power: e.booster().horse_power(),
        fuel: m
            .fuel_figures()
            .unwrap()
            .map(|f| {
                let f = f.unwrap();
                (f.speed(), f.mpg(), f.usage_description().to_vec())
            })
            .collect(),
        perf: m
            .performance_figures()
            .unwrap()
            .map(|p| {
                let p = p.unwrap();
                (
                    p.octane_rating(),
                    p.acceleration()
                        .map(|a| a.map(|a| (a.mph(), a.seconds())).unwrap())
                        .collect(),
                )
            })
            .collect(),
        manufacturer: m.manufacturer().unwrap().to_vec(),
        model: m.model().unwrap().to_vec(),
        activation_code: m.activation_code().unwrap().to_vec(),
    }
}

/// Compares with floats by bits (NaN payloads included).
fn same(a: &Car, b: &Car) -> bool {
    let bits = |c: &Car| {
        (
            c.fuel
                .iter()
                .map(|f| (f.0, f.1.to_bits(), f.2.clone()))
                .collect::<Vec<_>>(),
            c.perf
                .iter()
                .map(|p| {
                    (
                        p.0,
                        p.1.iter().map(|a| (a.0, a.1.to_bits())).collect::<Vec<_>>(),
                    )
                })
                .collect::<Vec<_>>(),
        )
    };
    let strip = |c: &Car| Car {
        fuel: Vec::new(),
        perf: Vec::new(),
        ..c.clone()
    };
    strip(a) == strip(b) && bits(a) == bits(b)
}

fn reference_decode(buf: &[u8]) -> Car {
    use baseline::car_codec::decoder::CarDecoder;
    use baseline::message_header_codec::{MessageHeaderDecoder, ENCODED_LENGTH};
    use baseline::ReadBuf;
    let header = MessageHeaderDecoder::default().wrap(ReadBuf::new(buf), 0);
    let mut car = CarDecoder::default().header(header);
    let mut c = Car {
        serial_number: car.serial_number(),
        model_year: car.model_year(),
        available: car.available() as u8,
        code: car.code() as u8,
        some_numbers: car.some_numbers(),
        vehicle_code: car.vehicle_code(),
        extras: car.extras().0,
        capacity: 0,
        num_cylinders: 0,
        manufacturer_code: [0; 3],
        efficiency: 0,
        boost_type: 0,
        horse_power: 0,
        fuel: Vec::new(),
        perf: Vec::new(),
        manufacturer: Vec::new(),
        model: Vec::new(),
        activation_code: Vec::new(),
    };
    let mut engine = car.engine_decoder();
    c.capacity = engine.capacity();
    c.num_cylinders = engine.num_cylinders();
    c.manufacturer_code = engine.manufacturer_code();
    c.efficiency = engine.efficiency();
    let mut booster = engine.booster_decoder();
    c.boost_type = booster.boost_type() as u8;
    c.horse_power = booster.horse_power();
    engine = booster.parent().unwrap();
    car = engine.parent().unwrap();
    let mut fuel = car.fuel_figures_decoder();
    while let Ok(Some(_)) = fuel.advance() {
        let speed = fuel.speed();
        let mpg = fuel.mpg();
        let coord = fuel.usage_description_decoder();
        c.fuel
            .push((speed, mpg, fuel.usage_description_slice(coord).to_vec()));
    }
    car = fuel.parent().unwrap();
    let mut perf = car.performance_figures_decoder();
    while let Ok(Some(_)) = perf.advance() {
        let octane = perf.octane_rating();
        let mut accel = perf.acceleration_decoder();
        let mut list = Vec::new();
        while let Ok(Some(_)) = accel.advance() {
            list.push((accel.mph(), accel.seconds()));
        }
        perf = accel.parent().unwrap();
        c.perf.push((octane, list));
    }
    car = perf.parent().unwrap();
    let coord = car.manufacturer_decoder();
    c.manufacturer = car.manufacturer_slice(coord).to_vec();
    let coord = car.model_decoder();
    c.model = car.model_slice(coord).to_vec();
    let coord = car.activation_code_decoder();
    c.activation_code = car.activation_code_slice(coord).to_vec();
    assert_eq!(ENCODED_LENGTH + car.encoded_length(), buf.len());
    c
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn car_round_trips_through_sable_and_the_reference(c in car()) {
        let mut buf = vec![0u8; 4096];
        let n = sable_encode(&c, &mut buf);
        let back = sable_decode(&buf[..n]);
        prop_assert!(same(&c, &back), "{c:?}\n{back:?}");
        let theirs = reference_decode(&buf[..n]);
        prop_assert!(same(&c, &theirs), "{c:?}\n{theirs:?}");
    }

    #[test]
    fn car_display_is_json_that_the_decoder_prints_the_same_twice(c in car()) {
        let mut buf = vec![0u8; 4096];
        let n = sable_encode(&c, &mut buf);
        let m = ex::CarDecoder::decode(&buf[..n]).unwrap();
        let text = m.to_string();
        prop_assert!(text.starts_with("{\"message\":\"Car\",\"header\":{\"blockLength\":"), "{}", text);
        prop_assert_eq!(text, ex::decode_any(&buf[..n]).unwrap().to_string());
    }

    #[test]
    fn market_data_round_trips(entries in proptest::collection::vec(
        (any::<u64>(), any::<u64>(), any::<i64>(), any::<i32>(), any::<u16>(), any::<u8>(), any::<bool>()), 0..20),
        transact_time in any::<u64>()) {
        let mut buf = vec![0u8; 4096];
        let mut m = fix::MarketDataIncrementalRefreshTradesEncoder::new(&mut buf).unwrap();
        m.transact_time(transact_time).event_time_delta(7).match_event_indicator(fix::MatchEventIndicator::EndEvent);
        let mut g = m.md_inc_grp().unwrap();
        for &(trade, security, px, qty, orders, seq, buy) in &entries {
            let mut e = g.next_entry().unwrap();
            e.trade_id(trade).security_id(security);
            e.md_entry_px().mantissa(px);
            e.md_entry_size().mantissa(qty);
            e.number_of_orders(orders).md_update_action(fix::MDUpdateAction::Change).rpt_seq(seq)
                .aggressor_side(if buy { fix::Side::Buy } else { fix::Side::Sell });
        }
        let n = m.encoded_length();
        let d = fix::MarketDataIncrementalRefreshTradesDecoder::decode(&buf[..n]).unwrap();
        prop_assert_eq!(d.transact_time(), transact_time);
        prop_assert_eq!(d.md_inc_grp().unwrap().len(), entries.len());
        for (e, &(trade, security, px, qty, orders, seq, buy)) in d.md_inc_grp().unwrap().zip(&entries) {
            let e = e.unwrap();
            prop_assert_eq!(e.trade_id(), trade);
            prop_assert_eq!(e.security_id(), security);
            prop_assert_eq!(e.md_entry_px().mantissa(), px);
            prop_assert_eq!(e.md_entry_px().exponent(), 7);
            prop_assert_eq!(e.md_entry_size().mantissa(), qty);
            prop_assert_eq!(e.number_of_orders(), orders);
            prop_assert_eq!(e.md_update_action(), fix::MDUpdateAction::Change);
            prop_assert_eq!(e.rpt_seq(), seq);
            prop_assert_eq!(e.aggressor_side(), if buy { fix::Side::Buy } else { fix::Side::Sell });
            prop_assert_eq!(e.md_entry_type(), fix::MDEntryType::Trade);
        }
    }
}

//! The benchmark messages (the reference implementation's Rust benchmarks' Car and
//! MarketDataIncrementalRefreshTrades) written and read by Sable's generated codecs and by the
//! reference's (`sbe-all` 1.32.1, `-Dsbe.target.language=Rust`), with the same work on both
//! sides: the benchmarks (benches/codecs.rs) time them, the interop tests (tests/interop.rs)
//! check that both write the same bytes and read each other's.
//!
//! The reference's `encoded_length()` leaves the header out: its side adds it, so that both
//! return the whole message's length.
//!
//! Decoding reads every field and folds it into a checksum, on both sides, so that no read can
//! be optimised away and the two sides can be compared. The fold is a type parameter
//! ([`Fold`]): `decode` and `sable_decode` use [`RotXor`] (the benchmark's `decode` groups);
//! `*_with::<Opaque>` hands each value to `black_box` instead (the `decode-opaque` groups), and
//! `*_with::<Add>` adds them up (for profiling). The rotate-xor checksum is one serial chain of
//! dependent instructions through every value (47 a Car), the same on both sides, and
//! differences in the decoders' own work show less in it; the other
//! two consumers leave the decoders' work in the open. Only the rotate-xor decodes are
//! instantiated in this crate: a second instantiation here makes LLVM stop inlining some of the
//! reference's accessors into its `decode` (Car 388 -> 445 instructions); the benchmark and
//! `examples/car_decode_loop.rs` instantiate the others.

/// How a decode consumes each value it reads (the same on both sides).
pub trait Fold {
    /// Folds `v` into the checksum `sum`.
    fn mix(sum: u64, v: u64) -> u64;
}

/// The checksum `sum.rotate_left(5) ^ v`: a serial dependency chain.
pub struct RotXor;

impl Fold for RotXor {
    #[inline(always)]
    fn mix(sum: u64, v: u64) -> u64 {
        sum.rotate_left(5) ^ v
    }
}

/// Each value through `std::hint::black_box`, as to code the compiler cannot see; the sum is
/// left as is.
pub struct Opaque;

impl Fold for Opaque {
    #[inline(always)]
    fn mix(sum: u64, v: u64) -> u64 {
        std::hint::black_box(v);
        sum
    }
}

/// The wrapping sum of the values (no serial chain: additions reassociate).
pub struct Add;

impl Fold for Add {
    #[inline(always)]
    fn mix(sum: u64, v: u64) -> u64 {
        sum.wrapping_add(v)
    }
}

/// The benchmark Car (../shared/schemas/valid/bench-car.xml).
pub mod car {
    use super::{Fold, RotXor};
    use sable_rust_codecs::bench_car as sable;

    pub const MANUFACTURER: &[u8] = b"MANUFACTURER";
    pub const MODEL: &[u8] = b"MODEL";
    const FUEL: [(u16, f32); 3] = [(30, 35.9), (55, 49.0), (75, 40.0)];
    const PERF: [(u8, [(u16, f32); 3]); 2] = [
        (95, [(30, 4.0), (60, 7.5), (100, 12.2)]),
        (99, [(30, 3.8), (60, 7.1), (100, 11.8)]),
    ];

    /// Writes the Car with Sable's codecs; returns its length.
    pub fn sable_encode(buf: &mut [u8]) -> Result<usize, sable::EncodeError> {
        let mut car = sable::CarEncoder::new(buf)?;
        car.code(sable::Model::A)
            .model_year(2005)
            .serial_number(12345)
            .available(sable::BooleanType::T)
            .vehicle_code(b"abcdef")?
            .some_numbers(&[0, 1, 2, 3, 4])
            .extras(sable::OptionalExtras::SPORTS_PACK | sable::OptionalExtras::SUN_ROOF);
        car.engine()
            .capacity(4200)
            .num_cylinders(8)
            .manufacturer_code(b"abc")?;
        let mut fuel = car.fuel_figures()?;
        for (speed, mpg) in FUEL {
            fuel.next_entry()?.speed(speed).mpg(mpg);
        }
        let mut perf = car.performance_figures()?;
        for (octane, accel) in PERF {
            let mut p = perf.next_entry()?;
            p.octane_rating(octane);
            let mut a = p.acceleration()?;
            for (mph, seconds) in accel {
                a.next_entry()?.mph(mph).seconds(seconds);
            }
        }
        car.manufacturer(MANUFACTURER)?.model(MODEL)?;
        Ok(car.encoded_length())
    }

    /// Reads the Car with Sable's codecs: (length, checksum).
    pub fn sable_decode(buf: &[u8]) -> Result<(usize, u64), sable::DecodeError> {
        sable_decode_with::<RotXor>(buf)
    }

    /// Reads the Car with Sable's codecs, each value consumed by `F`: (length, checksum).
    #[inline(always)]
    pub fn sable_decode_with<F: Fold>(buf: &[u8]) -> Result<(usize, u64), sable::DecodeError> {
        let car = sable::CarDecoder::decode(buf)?;
        let mut s = 0;
        s = F::mix(s, u64::from(car.serial_number()));
        s = F::mix(s, u64::from(car.model_year()));
        s = F::mix(s, u64::from(car.available().raw()));
        s = F::mix(s, u64::from(car.code().raw()));
        for n in car.some_numbers() {
            s = F::mix(s, n as u64);
        }
        for b in car.vehicle_code_raw() {
            s = F::mix(s, u64::from(*b));
        }
        let extras = car.extras();
        s = F::mix(
            s,
            u64::from(extras.contains(sable::OptionalExtras::CRUISE_CONTROL)),
        );
        s = F::mix(
            s,
            u64::from(extras.contains(sable::OptionalExtras::SPORTS_PACK)),
        );
        s = F::mix(
            s,
            u64::from(extras.contains(sable::OptionalExtras::SUN_ROOF)),
        );
        let engine = car.engine();
        s = F::mix(s, u64::from(engine.capacity()));
        s = F::mix(s, u64::from(engine.num_cylinders()));
        s = F::mix(s, u64::from(engine.max_rpm()));
        for b in engine.manufacturer_code_raw() {
            s = F::mix(s, u64::from(*b));
        }
        s = F::mix(s, engine.fuel().len() as u64);
        for f in car.fuel_figures()? {
            let f = f?;
            s = F::mix(s, u64::from(f.speed()));
            s = F::mix(s, u64::from(f.mpg().to_bits()));
        }
        for p in car.performance_figures()? {
            let p = p?;
            s = F::mix(s, u64::from(p.octane_rating()));
            for a in p.acceleration() {
                let a = a?;
                s = F::mix(s, u64::from(a.mph()));
                s = F::mix(s, u64::from(a.seconds().to_bits()));
            }
        }
        s = F::mix(s, car.manufacturer()?.len() as u64);
        s = F::mix(s, car.model()?.len() as u64);
        Ok((car.encoded_length()?, s))
    }

    /// The reference's codecs.
    pub mod reference {
        use super::super::{Fold, RotXor};
        use uk_co_real_logic_sbe_benchmarks::boolean_type::BooleanType;
        use uk_co_real_logic_sbe_benchmarks::car_codec::decoder::CarDecoder;
        use uk_co_real_logic_sbe_benchmarks::car_codec::encoder::{
            AccelerationEncoder, CarEncoder, FuelFiguresEncoder, PerformanceFiguresEncoder,
        };
        use uk_co_real_logic_sbe_benchmarks::message_header_codec::{
            MessageHeaderDecoder, ENCODED_LENGTH,
        };
        use uk_co_real_logic_sbe_benchmarks::model::Model;
        use uk_co_real_logic_sbe_benchmarks::optional_extras::OptionalExtras;
        use uk_co_real_logic_sbe_benchmarks::{ReadBuf, SbeResult, WriteBuf};

        /// Writes the Car with the reference's codecs (as its benchmark does); returns its
        /// length.
        pub fn encode(buffer: &mut [u8]) -> SbeResult<usize> {
            let mut car = CarEncoder::default();
            let mut fuel_figures = FuelFiguresEncoder::default();
            let mut performance_figures = PerformanceFiguresEncoder::default();
            let mut acceleration = AccelerationEncoder::default();
            let mut extras = OptionalExtras::default();

            car = car.wrap(WriteBuf::new(buffer), ENCODED_LENGTH);
            car = car.header(0).parent()?;
            car.code(Model::A);
            car.model_year(2005);
            car.serial_number(12345);
            car.available(BooleanType::T);
            car.vehicle_code(b"abcdef");
            car.some_numbers(&[0, 1, 2, 3, 4]);
            extras.set_sports_pack(true);
            extras.set_sun_roof(true);
            car.extras(extras);
            let mut engine = car.engine_encoder();
            engine.capacity(4200);
            engine.num_cylinders(8);
            engine.manufacturer_code(b"abc");
            car = engine.parent()?;
            fuel_figures = car.fuel_figures_encoder(3, fuel_figures);
            for (speed, mpg) in super::FUEL {
                fuel_figures.advance()?;
                fuel_figures.speed(speed);
                fuel_figures.mpg(mpg);
            }
            car = fuel_figures.parent()?;
            performance_figures = car.performance_figures_encoder(2, performance_figures);
            for (octane, accel) in super::PERF {
                performance_figures.advance()?;
                performance_figures.octane_rating(octane);
                acceleration = performance_figures.acceleration_encoder(3, acceleration);
                for (mph, seconds) in accel {
                    acceleration.advance()?;
                    acceleration.mph(mph);
                    acceleration.seconds(seconds);
                }
                performance_figures = acceleration.parent()?;
            }
            car = performance_figures.parent()?;
            car.manufacturer(super::MANUFACTURER);
            car.model(super::MODEL);
            Ok(ENCODED_LENGTH + car.encoded_length())
        }

        /// Reads the Car with the reference's codecs: (length, checksum).
        pub fn decode(buf: &[u8]) -> SbeResult<(usize, u64)> {
            decode_with::<RotXor>(buf)
        }

        /// Reads the Car with the reference's codecs, each value consumed by `F`: (length,
        /// checksum).
        #[inline(always)]
        pub fn decode_with<F: Fold>(buf: &[u8]) -> SbeResult<(usize, u64)> {
            let header = MessageHeaderDecoder::default().wrap(ReadBuf::new(buf), 0);
            let mut car = CarDecoder::default().header(header);
            let mut s = 0;
            s = F::mix(s, u64::from(car.serial_number()));
            s = F::mix(s, u64::from(car.model_year()));
            s = F::mix(s, car.available() as u64);
            s = F::mix(s, car.code() as u64);
            for n in car.some_numbers() {
                s = F::mix(s, n as u64);
            }
            for b in car.vehicle_code() {
                s = F::mix(s, u64::from(b));
            }
            let extras = car.extras();
            s = F::mix(s, u64::from(extras.get_cruise_control()));
            s = F::mix(s, u64::from(extras.get_sports_pack()));
            s = F::mix(s, u64::from(extras.get_sun_roof()));
            let mut engine = car.engine_decoder();
            s = F::mix(s, u64::from(engine.capacity()));
            s = F::mix(s, u64::from(engine.num_cylinders()));
            s = F::mix(s, u64::from(engine.max_rpm()));
            for b in engine.manufacturer_code() {
                s = F::mix(s, u64::from(b));
            }
            s = F::mix(s, engine.fuel().len() as u64);
            car = engine.parent()?;
            let mut fuel_figures = car.fuel_figures_decoder();
            while let Ok(Some(_)) = fuel_figures.advance() {
                s = F::mix(s, u64::from(fuel_figures.speed()));
                s = F::mix(s, u64::from(fuel_figures.mpg().to_bits()));
            }
            car = fuel_figures.parent()?;
            let mut performance_figures = car.performance_figures_decoder();
            while let Ok(Some(_)) = performance_figures.advance() {
                s = F::mix(s, u64::from(performance_figures.octane_rating()));
                let mut acceleration = performance_figures.acceleration_decoder();
                while let Ok(Some(_)) = acceleration.advance() {
                    s = F::mix(s, u64::from(acceleration.mph()));
                    s = F::mix(s, u64::from(acceleration.seconds().to_bits()));
                }
                performance_figures = acceleration.parent()?;
            }
            car = performance_figures.parent()?;
            let coord = car.manufacturer_decoder();
            s = F::mix(s, car.manufacturer_slice(coord).len() as u64);
            let coord = car.model_decoder();
            s = F::mix(s, car.model_slice(coord).len() as u64);
            Ok((ENCODED_LENGTH + car.encoded_length(), s))
        }
    }
}

/// The benchmark MarketDataIncrementalRefreshTrades with two entries
/// (../shared/schemas/valid/bench-fix-message-samples.xml).
pub mod md {
    use super::{Fold, RotXor};
    use sable_rust_codecs::bench_fix_message_samples as sable;

    const SIDES: [u8; 2] = [b'1', b'2'];

    /// Writes the message with Sable's codecs; returns its length.
    pub fn sable_encode(buf: &mut [u8]) -> Result<usize, sable::EncodeError> {
        let mut md = sable::MarketDataIncrementalRefreshTradesEncoder::new(buf)?;
        md.transact_time(1234)
            .event_time_delta(987)
            .match_event_indicator(sable::MatchEventIndicator::EndEvent);
        let mut grp = md.md_inc_grp()?;
        for side in [sable::Side::Buy, sable::Side::Sell] {
            let mut e = grp.next_entry()?;
            e.trade_id(1234).security_id(56789);
            e.md_entry_px().mantissa(50);
            e.md_entry_size().mantissa(10);
            e.number_of_orders(1)
                .md_update_action(sable::MDUpdateAction::New)
                .rpt_seq(1)
                .aggressor_side(side);
        }
        Ok(md.encoded_length())
    }

    /// Reads the message with Sable's codecs: (length, checksum).
    pub fn sable_decode(buf: &[u8]) -> Result<(usize, u64), sable::DecodeError> {
        sable_decode_with::<RotXor>(buf)
    }

    /// Reads the message with Sable's codecs, each value consumed by `F`: (length, checksum).
    #[inline(always)]
    pub fn sable_decode_with<F: Fold>(buf: &[u8]) -> Result<(usize, u64), sable::DecodeError> {
        let md = sable::MarketDataIncrementalRefreshTradesDecoder::decode(buf)?;
        let mut s = 0;
        s = F::mix(s, md.transact_time());
        s = F::mix(s, u64::from(md.event_time_delta()));
        s = F::mix(s, u64::from(md.match_event_indicator().raw()));
        for e in md.md_inc_grp()? {
            let e = e?;
            s = F::mix(s, e.trade_id());
            s = F::mix(s, e.security_id());
            s = F::mix(s, e.md_entry_px().mantissa() as u64);
            s = F::mix(s, e.md_entry_size().mantissa() as u64);
            s = F::mix(s, u64::from(e.number_of_orders()));
            s = F::mix(s, u64::from(e.md_update_action().raw()));
            s = F::mix(s, u64::from(e.rpt_seq()));
            s = F::mix(s, u64::from(e.aggressor_side().raw()));
            s = F::mix(s, u64::from(e.md_entry_type().raw()));
        }
        Ok((md.encoded_length()?, s))
    }

    /// The reference's codecs.
    pub mod reference {
        use super::super::{Fold, RotXor};
        use uk_co_real_logic_sbe_benchmarks_fix::market_data_incremental_refresh_trades_codec::decoder::MarketDataIncrementalRefreshTradesDecoder;
        use uk_co_real_logic_sbe_benchmarks_fix::market_data_incremental_refresh_trades_codec::encoder::{
            MarketDataIncrementalRefreshTradesEncoder, MdIncGrpEncoder,
        };
        use uk_co_real_logic_sbe_benchmarks_fix::match_event_indicator::MatchEventIndicator;
        use uk_co_real_logic_sbe_benchmarks_fix::md_update_action::MDUpdateAction;
        use uk_co_real_logic_sbe_benchmarks_fix::message_header_codec::{
            MessageHeaderDecoder, ENCODED_LENGTH,
        };
        use uk_co_real_logic_sbe_benchmarks_fix::side::Side;
        use uk_co_real_logic_sbe_benchmarks_fix::{ReadBuf, SbeResult, WriteBuf};

        /// Writes the message with the reference's codecs (as its benchmark does).
        pub fn encode(buffer: &mut [u8]) -> SbeResult<usize> {
            let mut market_data = MarketDataIncrementalRefreshTradesEncoder::default();
            let mut md_inc_grp = MdIncGrpEncoder::default();
            market_data = market_data.wrap(WriteBuf::new(buffer), ENCODED_LENGTH);
            market_data = market_data.header(0).parent()?;
            market_data.transact_time(1234);
            market_data.event_time_delta(987);
            market_data.match_event_indicator(MatchEventIndicator::END_EVENT);
            md_inc_grp = market_data.md_inc_grp_encoder(2, md_inc_grp);
            for side in super::SIDES {
                md_inc_grp.advance()?;
                md_inc_grp.trade_id(1234);
                md_inc_grp.security_id(56789);
                let mut md_entry_px = md_inc_grp.md_entry_px_encoder();
                md_entry_px.mantissa(50);
                md_inc_grp = md_entry_px.parent()?;
                let mut md_entry_size = md_inc_grp.md_entry_size_encoder();
                md_entry_size.mantissa(10);
                md_inc_grp = md_entry_size.parent()?;
                md_inc_grp.number_of_orders(1);
                md_inc_grp.md_update_action(MDUpdateAction::NEW);
                md_inc_grp.rpt_seq(1);
                md_inc_grp.aggressor_side(Side::from(side));
            }
            market_data = md_inc_grp.parent()?;
            Ok(ENCODED_LENGTH + market_data.encoded_length())
        }

        /// Reads the message with the reference's codecs: (length, checksum).
        pub fn decode(buf: &[u8]) -> SbeResult<(usize, u64)> {
            decode_with::<RotXor>(buf)
        }

        /// Reads the message with the reference's codecs, each value consumed by `F`: (length,
        /// checksum).
        #[inline(always)]
        pub fn decode_with<F: Fold>(buf: &[u8]) -> SbeResult<(usize, u64)> {
            let header = MessageHeaderDecoder::default().wrap(ReadBuf::new(buf), 0);
            let mut market_data =
                MarketDataIncrementalRefreshTradesDecoder::default().header(header);
            let mut s = 0;
            s = F::mix(s, market_data.transact_time());
            s = F::mix(s, u64::from(market_data.event_time_delta()));
            s = F::mix(s, market_data.match_event_indicator() as u64);
            let mut md_inc_grp = market_data.md_inc_grp_decoder();
            while let Ok(Some(_)) = md_inc_grp.advance() {
                s = F::mix(s, md_inc_grp.trade_id());
                s = F::mix(s, md_inc_grp.security_id());
                let mut px = md_inc_grp.md_entry_px_decoder();
                s = F::mix(s, px.mantissa() as u64);
                md_inc_grp = px.parent()?;
                let mut size = md_inc_grp.md_entry_size_decoder();
                s = F::mix(s, size.mantissa() as u64);
                md_inc_grp = size.parent()?;
                s = F::mix(s, u64::from(md_inc_grp.number_of_orders()));
                s = F::mix(s, md_inc_grp.md_update_action() as u64);
                s = F::mix(s, u64::from(md_inc_grp.rpt_seq()));
                s = F::mix(s, md_inc_grp.aggressor_side() as u64);
                s = F::mix(s, md_inc_grp.md_entry_type() as u64);
            }
            market_data = md_inc_grp.parent()?;
            Ok((ENCODED_LENGTH + market_data.encoded_length(), s))
        }
    }
}

// libprotobuf (Debian): the same Car and MarketData values, a reused message object, serialized
// to and parsed from the buffer; decode reads every field.
#include "bench_values.hpp"
#include "car.pb.h"

namespace {

namespace pb = sable_bench::pb;

pb::Car &car_message() {
  static pb::Car m;
  return m;
}
pb::MarketData &md_message() {
  static pb::MarketData m;
  return m;
}

std::size_t encode_car(std::uint8_t *buf, std::size_t cap) {
  using namespace bench::car;
  pb::Car &c = car_message();
  c.Clear();
  c.set_serial_number(kSerialNumber);
  c.set_model_year(kModelYear);
  c.set_available(true);
  c.set_code('A');
  for (std::int32_t n : kSomeNumbers) {
    c.add_some_numbers(n);
  }
  c.set_vehicle_code(kVehicleCode.data(), kVehicleCode.size());
  c.set_sun_roof(false);
  c.set_sports_pack(true);
  c.set_cruise_control(true);
  pb::Engine *e = c.mutable_engine();
  e->set_capacity(2000);
  e->set_num_cylinders(4);
  e->set_max_rpm(9000);
  e->set_manufacturer_code(kManufacturerCode.data(), kManufacturerCode.size());
  e->set_fuel("Petrol");
  for (const Fuel &f : kFuel) {
    pb::FuelFigure *ff = c.add_fuel_figures();
    ff->set_speed(f.speed);
    ff->set_mpg(f.mpg);
  }
  for (int p = 0; p < 2; ++p) {
    pb::PerformanceFigure *pf = c.add_performance_figures();
    pf->set_octane_rating(kOctane[p]);
    for (const Accel &a : kAccel[p]) {
      pb::Acceleration *ac = pf->add_acceleration();
      ac->set_mph(a.mph);
      ac->set_seconds(a.seconds);
    }
  }
  c.set_manufacturer(kManufacturer.data(), kManufacturer.size());
  c.set_model(kModel.data(), kModel.size());
  const std::size_t n = c.ByteSizeLong();
  return c.SerializeToArray(buf, static_cast<int>(cap)) ? n : 0;
}

std::uint64_t decode_car(const std::uint8_t *buf, std::size_t len) {
  pb::Car &c = car_message();
  if (!c.ParseFromArray(buf, static_cast<int>(len))) {
    return 0;
  }
  std::uint64_t sum = c.serial_number();
  sum += c.model_year();
  sum += c.available();
  sum += c.code();
  for (std::int32_t n : c.some_numbers()) {
    sum += static_cast<std::uint64_t>(n);
  }
  sum += c.vehicle_code().size();
  sum += c.sun_roof() + c.sports_pack() + c.cruise_control();
  const pb::Engine &e = c.engine();
  sum += e.capacity() + e.num_cylinders() + e.max_rpm();
  sum += e.manufacturer_code().size() + e.fuel().size();
  for (const pb::FuelFigure &f : c.fuel_figures()) {
    sum += f.speed();
    sum += static_cast<std::uint64_t>(f.mpg());
  }
  for (const pb::PerformanceFigure &p : c.performance_figures()) {
    sum += p.octane_rating();
    for (const pb::Acceleration &a : p.acceleration()) {
      sum += a.mph();
      sum += static_cast<std::uint64_t>(a.seconds());
    }
  }
  sum += c.manufacturer().size() + c.model().size();
  return sum;
}

std::size_t encode_md(std::uint8_t *buf, std::size_t cap) {
  using namespace bench::md;
  pb::MarketData &m = md_message();
  m.Clear();
  m.set_transact_time(kTransactTime);
  m.set_event_time_delta(kEventTimeDelta);
  m.set_match_event_indicator('2');
  for (int i = 0; i < 2; ++i) {
    pb::MdEntry *e = m.add_entries();
    e->set_trade_id(kTradeId);
    e->set_security_id(kSecurityId);
    e->set_px_mantissa(kPxMantissa);
    e->set_size_mantissa(kSizeMantissa);
    e->set_number_of_orders(kNumberOfOrders);
    e->set_update_action(0);
    e->set_rpt_seq(kRptSeq);
  }
  const std::size_t n = m.ByteSizeLong();
  return m.SerializeToArray(buf, static_cast<int>(cap)) ? n : 0;
}

std::uint64_t decode_md(const std::uint8_t *buf, std::size_t len) {
  pb::MarketData &m = md_message();
  if (!m.ParseFromArray(buf, static_cast<int>(len))) {
    return 0;
  }
  std::uint64_t sum = m.transact_time() + m.event_time_delta() + m.match_event_indicator();
  for (const pb::MdEntry &e : m.entries()) {
    sum += e.trade_id() + e.security_id();
    sum += static_cast<std::uint64_t>(e.px_mantissa());
    sum += static_cast<std::uint64_t>(e.size_mantissa());
    sum += e.number_of_orders() + e.update_action() + e.rpt_seq() + e.aggressor_side();
  }
  return sum;
}

} // namespace

bench::Codec protobuf_codec{"protobuf", encode_car, decode_car, encode_md, decode_md, false};

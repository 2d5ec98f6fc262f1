// FlatBuffers (Debian): the same Car and MarketData values built with a reused builder and copied
// to the buffer; decode reads every field of the buffer in place (no verifier, as its own
// benchmarks read).
#include "bench_values.hpp"
#include "car_generated.h"

#include <cstring>

namespace {

namespace fb = sable_bench::fb;

flatbuffers::FlatBufferBuilder &builder() {
  static flatbuffers::FlatBufferBuilder b(1024);
  return b;
}

std::size_t finish(std::uint8_t *buf, std::size_t cap) {
  flatbuffers::FlatBufferBuilder &b = builder();
  const std::size_t n = b.GetSize();
  if (n > cap) {
    return 0;
  }
  std::memcpy(buf, b.GetBufferPointer(), n);
  return n;
}

std::size_t encode_car(std::uint8_t *buf, std::size_t cap) {
  using namespace bench::car;
  flatbuffers::FlatBufferBuilder &b = builder();
  b.Clear();
  auto some = b.CreateVector(kSomeNumbers, 5);
  auto vehicle = b.CreateString(kVehicleCode.data(), kVehicleCode.size());
  auto mcode = b.CreateString(kManufacturerCode.data(), kManufacturerCode.size());
  auto fuel_name = b.CreateString("Petrol");
  auto engine = fb::CreateEngine(b, 2000, 4, 9000, mcode, fuel_name);
  fb::FuelFigure fuel[3];
  for (int i = 0; i < 3; ++i) {
    fuel[i] = fb::FuelFigure(kFuel[i].speed, kFuel[i].mpg);
  }
  auto fuels = b.CreateVectorOfStructs(fuel, 3);
  flatbuffers::Offset<fb::PerformanceFigure> perf[2];
  for (int p = 0; p < 2; ++p) {
    fb::Acceleration acc[3];
    for (int i = 0; i < 3; ++i) {
      acc[i] = fb::Acceleration(kAccel[p][i].mph, kAccel[p][i].seconds);
    }
    perf[p] = fb::CreatePerformanceFigure(b, kOctane[p], b.CreateVectorOfStructs(acc, 3));
  }
  auto perfs = b.CreateVector(perf, 2);
  auto manufacturer = b.CreateString(kManufacturer.data(), kManufacturer.size());
  auto model = b.CreateString(kModel.data(), kModel.size());
  auto car = fb::CreateCar(b, kSerialNumber, kModelYear, true, 'A', some, vehicle, 0x6, engine,
                           fuels, perfs, manufacturer, model);
  b.Finish(car);
  return finish(buf, cap);
}

std::uint64_t decode_car(const std::uint8_t *buf, std::size_t) {
  const fb::Car *c = flatbuffers::GetRoot<fb::Car>(buf);
  std::uint64_t sum = c->serial_number();
  sum += c->model_year();
  sum += c->available();
  sum += static_cast<std::uint64_t>(c->code());
  for (std::int32_t n : *c->some_numbers()) {
    sum += static_cast<std::uint64_t>(n);
  }
  sum += c->vehicle_code()->size();
  sum += c->extras();
  const fb::Engine *e = c->engine();
  sum += e->capacity() + e->num_cylinders() + e->max_rpm();
  sum += e->manufacturer_code()->size() + e->fuel()->size();
  for (const fb::FuelFigure *f : *c->fuel_figures()) {
    sum += f->speed();
    sum += static_cast<std::uint64_t>(f->mpg());
  }
  for (const fb::PerformanceFigure *p : *c->performance_figures()) {
    sum += p->octane_rating();
    for (const fb::Acceleration *a : *p->acceleration()) {
      sum += a->mph();
      sum += static_cast<std::uint64_t>(a->seconds());
    }
  }
  sum += c->manufacturer()->size() + c->model()->size();
  return sum;
}

std::size_t encode_md(std::uint8_t *buf, std::size_t cap) {
  using namespace bench::md;
  flatbuffers::FlatBufferBuilder &b = builder();
  b.Clear();
  fb::MdEntry entries[2];
  for (auto &e : entries) {
    e = fb::MdEntry(kTradeId, kSecurityId, kPxMantissa, kSizeMantissa, kNumberOfOrders, 0, kRptSeq,
                    0);
  }
  auto v = b.CreateVectorOfStructs(entries, 2);
  b.Finish(fb::CreateMarketData(b, kTransactTime, kEventTimeDelta, '2', v));
  return finish(buf, cap);
}

std::uint64_t decode_md(const std::uint8_t *buf, std::size_t) {
  const fb::MarketData *m = flatbuffers::GetRoot<fb::MarketData>(buf);
  std::uint64_t sum = m->transact_time() + m->event_time_delta();
  sum += static_cast<std::uint64_t>(m->match_event_indicator());
  for (const fb::MdEntry *e : *m->entries()) {
    sum += e->trade_id() + e->security_id();
    sum += static_cast<std::uint64_t>(e->px_mantissa());
    sum += static_cast<std::uint64_t>(e->size_mantissa());
    sum += e->number_of_orders() + e->update_action() + e->rpt_seq();
    sum += static_cast<std::uint64_t>(e->aggressor_side());
  }
  return sum;
}

} // namespace

bench::Codec flatbuffers_codec{"flatbuffers", encode_car, decode_car, encode_md, decode_md, false};

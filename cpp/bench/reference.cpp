// The reference implementation's generated C++ codecs (sbe-all 1.32.1, -Dsbe.target.language=Cpp),
// built with SBE_NO_BOUNDS_CHECK as its own benchmarks build them; the calls follow its
// benchmarks' (SbeCarCodecBench, SbeMarketDataCodecBench), reading every field.
#define SBE_NO_BOUNDS_CHECK
#include "uk_co_real_logic_sbe_benchmarks/Car.h"
#include "uk_co_real_logic_sbe_benchmarks/MessageHeader.h"
#include "uk_co_real_logic_sbe_benchmarks_fix/MarketDataIncrementalRefreshTrades.h"
#include "uk_co_real_logic_sbe_benchmarks_fix/MessageHeader.h"

#include "bench_values.hpp"

namespace {

namespace rc = uk::co::real_logic::sbe::benchmarks;
namespace rm = uk::co::real_logic::sbe::benchmarks::fix;

std::size_t encode_car(std::uint8_t *ubuf, std::size_t cap) {
  using namespace bench::car;
  char *buf = reinterpret_cast<char *>(ubuf);
  rc::Car car;
  car.wrapAndApplyHeader(buf, 0, cap)
      .serialNumber(kSerialNumber)
      .modelYear(kModelYear)
      .available(rc::BooleanType::T)
      .code(rc::Model::A)
      .putSomeNumbers(reinterpret_cast<const char *>(kSomeNumbers))
      .putVehicleCode(kVehicleCode.data());
  car.extras().clear().cruiseControl(true).sportsPack(true).sunRoof(false);
  car.engine().capacity(2000).numCylinders(4).putManufacturerCode(kManufacturerCode.data());
  rc::Car::FuelFigures &fuel = car.fuelFiguresCount(3);
  for (const Fuel &f : kFuel) {
    fuel.next().speed(f.speed).mpg(f.mpg);
  }
  rc::Car::PerformanceFigures &perf = car.performanceFiguresCount(2);
  for (int p = 0; p < 2; ++p) {
    perf.next().octaneRating(kOctane[p]);
    rc::Car::PerformanceFigures::Acceleration &acc = perf.accelerationCount(3);
    for (const Accel &a : kAccel[p]) {
      acc.next().mph(a.mph).seconds(a.seconds);
    }
  }
  car.putManufacturer(kManufacturer.data(), static_cast<std::uint32_t>(kManufacturer.size()));
  car.putModel(kModel.data(), static_cast<std::uint32_t>(kModel.size()));
  return rc::MessageHeader::encodedLength() + car.encodedLength();
}

std::uint64_t decode_car(const std::uint8_t *ubuf, std::size_t len) {
  char *buf = const_cast<char *>(reinterpret_cast<const char *>(ubuf));
  rc::MessageHeader hdr(buf, 0, len, 0);
  rc::Car car;
  car.wrapForDecode(buf, rc::MessageHeader::encodedLength(), hdr.blockLength(), hdr.version(),
                    len);
  std::uint64_t sum = car.serialNumber();
  sum += car.modelYear();
  sum += static_cast<std::uint64_t>(car.available());
  sum += static_cast<std::uint64_t>(car.code());
  for (std::uint64_t i = 0; i < 5; ++i) {
    sum += static_cast<std::uint64_t>(car.someNumbers(i));
  }
  sum += static_cast<std::uint64_t>(car.vehicleCode()[0]);
  rc::OptionalExtras &extras = car.extras();
  sum += extras.cruiseControl() + extras.sportsPack() + extras.sunRoof();
  rc::Engine &engine = car.engine();
  sum += engine.capacity();
  sum += engine.numCylinders();
  sum += engine.maxRpm();
  sum += static_cast<std::uint64_t>(engine.manufacturerCode()[0]);
  sum += static_cast<std::uint64_t>(engine.fuel()[0]);
  rc::Car::FuelFigures &fuel = car.fuelFigures();
  while (fuel.hasNext()) {
    fuel.next();
    sum += fuel.speed();
    sum += static_cast<std::uint64_t>(fuel.mpg());
  }
  rc::Car::PerformanceFigures &perf = car.performanceFigures();
  while (perf.hasNext()) {
    perf.next();
    sum += perf.octaneRating();
    rc::Car::PerformanceFigures::Acceleration &acc = perf.acceleration();
    while (acc.hasNext()) {
      acc.next();
      sum += acc.mph();
      sum += static_cast<std::uint64_t>(acc.seconds());
    }
  }
  sum += car.getManufacturerAsStringView().size();
  sum += car.getModelAsStringView().size();
  return sum + rc::MessageHeader::encodedLength() + car.encodedLength();
}

std::size_t encode_md(std::uint8_t *ubuf, std::size_t cap) {
  using namespace bench::md;
  char *buf = reinterpret_cast<char *>(ubuf);
  rm::MarketDataIncrementalRefreshTrades md;
  md.wrapAndApplyHeader(buf, 0, cap)
      .transactTime(kTransactTime)
      .eventTimeDelta(kEventTimeDelta)
      .matchEventIndicator(rm::MatchEventIndicator::END_EVENT);
  rm::MarketDataIncrementalRefreshTrades::MdIncGrp &g = md.mdIncGrpCount(2);
  for (int i = 0; i < 2; ++i) {
    g.next().tradeId(kTradeId).securityId(kSecurityId);
    g.mdEntryPx().mantissa(kPxMantissa);
    g.mdEntrySize().mantissa(kSizeMantissa);
    g.numberOfOrders(kNumberOfOrders).mdUpdateAction(rm::MDUpdateAction::NEW).rptSeq(kRptSeq);
  }
  return rm::MessageHeader::encodedLength() + md.encodedLength();
}

std::uint64_t decode_md(const std::uint8_t *ubuf, std::size_t len) {
  char *buf = const_cast<char *>(reinterpret_cast<const char *>(ubuf));
  rm::MessageHeader hdr(buf, 0, len, 0);
  rm::MarketDataIncrementalRefreshTrades md;
  md.wrapForDecode(buf, rm::MessageHeader::encodedLength(), hdr.blockLength(), hdr.version(), len);
  std::uint64_t sum = md.transactTime();
  sum += md.eventTimeDelta();
  sum += static_cast<std::uint64_t>(md.matchEventIndicator());
  rm::MarketDataIncrementalRefreshTrades::MdIncGrp &g = md.mdIncGrp();
  while (g.hasNext()) {
    g.next();
    sum += g.tradeId();
    sum += g.securityId();
    sum += static_cast<std::uint64_t>(g.mdEntryPx().mantissa());
    sum += static_cast<std::uint64_t>(g.mdEntrySize().mantissa());
    sum += g.numberOfOrders();
    sum += static_cast<std::uint64_t>(g.mdUpdateAction());
    sum += g.rptSeq();
    sum += static_cast<std::uint64_t>(g.aggressorSide());
    sum += static_cast<std::uint64_t>(g.mdEntryType());
  }
  return sum + rm::MessageHeader::encodedLength() + md.encodedLength();
}

} // namespace

bench::Codec reference_codec{"reference", encode_car, decode_car, encode_md, decode_md, true};

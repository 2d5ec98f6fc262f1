// Interop with the reference implementation's generated C++ codecs (sbe-all 1.32.1,
// -Dsbe.target.language=Cpp), both ways: each side encodes the same message, the bytes must be
// identical, and each side decodes the other's bytes to the same values. Schemas: the example
// Car, the extension Car (across versions: v0 written, v2 read, and back), the benchmark Car and
// MarketDataIncrementalRefreshTrades.
#include "interop_bcar.hpp"
#include "interop_car.hpp"
#include "interop_ext.hpp"
#include "interop_md.hpp"

#include "baseline/Car.h"
#include "baseline/MessageHeader.h"
#include "extension/Car.h"
#include "extension/MessageHeader.h"
#include "uk_co_real_logic_sbe_benchmarks/Car.h"
#include "uk_co_real_logic_sbe_benchmarks/MessageHeader.h"
#include "uk_co_real_logic_sbe_benchmarks_fix/MarketDataIncrementalRefreshTrades.h"
#include "uk_co_real_logic_sbe_benchmarks_fix/MessageHeader.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <string_view>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<std::uint8_t>;
constexpr std::size_t kCap = 1024;

// Sable, the example Car (and, through a template, the extension Car: same fields at v0).
template <class Car, class Ns> Bytes sable_car(bool extension) {
  std::array<std::uint8_t, kCap> buf{};
  typename Car::Encoder e(buf.data(), buf.size());
  e.serialNumber(1234).modelYear(2013).available(Ns::BooleanType::T).code(Ns::Model::A);
  for (std::size_t i = 0; i < Car::Decoder::someNumbers_length; ++i) {
    e.someNumbers(i, static_cast<std::uint32_t>(i * 10));
  }
  e.vehicleCode("abcdef").extras(typename Ns::OptionalExtras().sunRoof(true).cruiseControl(true));
  e.engine().capacity(2000).numCylinders(4).manufacturerCode("123").efficiency(35).boosterEnabled(
      Ns::BooleanType::T);
  e.engine().booster().BoostType(Ns::BoostType::NITROUS).horsePower(200);
  if constexpr (Ns::kExtension) {
    if (extension) {
      e.uuid(0, 7).uuid(1, 8).cupHolderCount(5);
    }
  }
  auto fuel = e.fuelFigures(2);
  fuel.next().speed(30).mpg(35.9f).usageDescription("Urban Cycle");
  fuel.next().speed(55).mpg(49.0f).usageDescription("Combined Cycle");
  auto perf = e.performanceFigures(1);
  auto acc = perf.next().octaneRating(95).acceleration(2);
  acc.next().mph(30).seconds(4.0f);
  acc.next().mph(60).seconds(7.5f);
  e.manufacturer("Honda").model("Civic VTi").activationCode("abcdef");
  EXPECT_TRUE(e.ok());
  return Bytes(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(e.encoded_length()));
}

struct CarNs {
  using BooleanType = interop::car::BooleanType;
  using Model = interop::car::Model;
  using OptionalExtras = interop::car::OptionalExtras;
  using BoostType = interop::car::BoostType;
  static constexpr bool kExtension = false;
};
struct ExtNs {
  using BooleanType = interop::ext::BooleanType;
  using Model = interop::ext::Model;
  using OptionalExtras = interop::ext::OptionalExtras;
  using BoostType = interop::ext::BoostType;
  static constexpr bool kExtension = true;
};

// The reference, the same messages.
template <class Car, class Header, class Boolean, class Model, class Boost>
Bytes reference_car(bool extension) {
  std::array<char, kCap> buf{};
  Car car;
  car.wrapAndApplyHeader(buf.data(), 0, buf.size())
      .serialNumber(1234)
      .modelYear(2013)
      .available(Boolean::T)
      .code(Model::A);
  for (std::uint64_t i = 0; i < Car::someNumbersLength(); ++i) {
    car.someNumbers(i, static_cast<std::uint32_t>(i * 10));
  }
  car.putVehicleCode("abcdef");
  car.extras().clear().sunRoof(true).cruiseControl(true);
  car.engine().capacity(2000).numCylinders(4).putManufacturerCode("123").efficiency(35)
      .boosterEnabled(Boolean::T);
  car.engine().booster().boostType(Boost::NITROUS).horsePower(200);
  if constexpr (std::is_same_v<Car, extension::Car>) {
    if (extension) {
      car.uuid(0, 7).uuid(1, 8).cupHolderCount(5);
    }
  }
  auto &fuel = car.fuelFiguresCount(2);
  fuel.next().speed(30).mpg(35.9f).putUsageDescription(std::string_view("Urban Cycle"));
  fuel.next().speed(55).mpg(49.0f).putUsageDescription(std::string_view("Combined Cycle"));
  auto &perf = car.performanceFiguresCount(1);
  auto &acc = perf.next().octaneRating(95).accelerationCount(2);
  acc.next().mph(30).seconds(4.0f);
  acc.next().mph(60).seconds(7.5f);
  car.putManufacturer(std::string_view("Honda")).putModel(std::string_view("Civic VTi")).putActivationCode(std::string_view("abcdef"));
  const std::size_t n = Header::encodedLength() + car.encodedLength();
  return Bytes(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
}

// Sable reads a Car and checks every value.
template <class Decoder> void sable_reads_car(const Bytes &b) {
  Decoder d(b.data(), b.size());
  ASSERT_TRUE(d.ok()) << sable::message(d.error());
  EXPECT_EQ(d.serialNumber(), 1234u);
  EXPECT_EQ(d.modelYear(), 2013);
  EXPECT_EQ(static_cast<char>(d.code()), 'A');
  for (std::size_t i = 0; i < Decoder::someNumbers_length; ++i) {
    EXPECT_EQ(d.someNumbers(i), i * 10);
  }
  EXPECT_EQ(d.vehicleCode(), "abcdef");
  EXPECT_TRUE(d.extras().sunRoof() && d.extras().cruiseControl() && !d.extras().sportsPack());
  EXPECT_EQ(d.engine().capacity(), 2000);
  EXPECT_EQ(d.engine().manufacturerCode(), "123");
  EXPECT_EQ(d.engine().booster().horsePower(), 200);
  std::vector<std::string> usage;
  for (const auto &f : d.fuelFigures()) {
    usage.emplace_back(f.usageDescription());
  }
  EXPECT_EQ(usage, (std::vector<std::string>{"Urban Cycle", "Combined Cycle"}));
  float seconds = 0;
  for (const auto &p : d.performanceFigures()) {
    EXPECT_EQ(p.octaneRating(), 95);
    for (const auto &a : p.acceleration()) {
      seconds += a.seconds();
    }
  }
  EXPECT_EQ(seconds, 11.5f);
  EXPECT_EQ(d.manufacturer(), "Honda");
  EXPECT_EQ(d.model(), "Civic VTi");
  EXPECT_EQ(d.activationCode(), "abcdef");
  EXPECT_TRUE(d.ok());
}

// The reference reads a Car and checks every value.
template <class Car, class Header> void reference_reads_car(Bytes b) {
  char *buf = reinterpret_cast<char *>(b.data());
  Header h(buf, 0, b.size(), 0);
  Car car;
  car.wrapForDecode(buf, Header::encodedLength(), h.blockLength(), h.version(), b.size());
  EXPECT_EQ(car.serialNumber(), 1234u);
  EXPECT_EQ(car.modelYear(), 2013);
  for (std::uint64_t i = 0; i < Car::someNumbersLength(); ++i) {
    EXPECT_EQ(car.someNumbers(i), i * 10);
  }
  EXPECT_EQ(car.getVehicleCodeAsString(), "abcdef");
  EXPECT_TRUE(car.extras().sunRoof() && car.extras().cruiseControl());
  EXPECT_EQ(car.engine().capacity(), 2000);
  EXPECT_EQ(car.engine().booster().horsePower(), 200);
  auto &fuel = car.fuelFigures();
  std::vector<std::string> usage;
  while (fuel.hasNext()) {
    fuel.next();
    usage.push_back(fuel.getUsageDescriptionAsString());
  }
  EXPECT_EQ(usage, (std::vector<std::string>{"Urban Cycle", "Combined Cycle"}));
  auto &perf = car.performanceFigures();
  float seconds = 0;
  while (perf.hasNext()) {
    perf.next();
    EXPECT_EQ(perf.octaneRating(), 95);
    auto &acc = perf.acceleration();
    while (acc.hasNext()) {
      acc.next();
      seconds += acc.seconds();
    }
  }
  EXPECT_EQ(seconds, 11.5f);
  EXPECT_EQ(car.getManufacturerAsString(), "Honda");
  EXPECT_EQ(car.getModelAsString(), "Civic VTi");
  EXPECT_EQ(car.getActivationCodeAsString(), "abcdef");
}

TEST(Interop, ExampleCarBothWays) {
  const Bytes s = sable_car<interop::car::Car, CarNs>(false);
  const Bytes r = reference_car<baseline::Car, baseline::MessageHeader, baseline::BooleanType,
                                baseline::Model, baseline::BoostType>(false);
  EXPECT_EQ(s, r);
  sable_reads_car<interop::car::Car::Decoder>(r);
  reference_reads_car<baseline::Car, baseline::MessageHeader>(s);
}

TEST(Interop, ExtensionCarAcrossVersions) {
  const Bytes s2 = sable_car<interop::ext::Car, ExtNs>(true);
  const Bytes r2 = reference_car<extension::Car, extension::MessageHeader, extension::BooleanType,
                                 extension::Model, extension::BoostType>(true);
  EXPECT_EQ(s2, r2);
  // Each side reads the other's version 2 message.
  sable_reads_car<interop::ext::Car::Decoder>(r2);
  reference_reads_car<extension::Car, extension::MessageHeader>(s2);
  interop::ext::Car::Decoder d2(r2.data(), r2.size());
  EXPECT_EQ(d2.cupHolderCount(), 5);
  EXPECT_EQ(d2.uuid(1), 8);
  // The same bytes said to be written at version 0: the fields added since read as absent (null)
  // on both sides, everything else as before.
  Bytes v0 = s2;
  v0[6] = 0;
  v0[7] = 0;
  sable_reads_car<interop::ext::Car::Decoder>(v0);
  reference_reads_car<extension::Car, extension::MessageHeader>(v0);
  interop::ext::Car::Decoder d0(v0.data(), v0.size());
  EXPECT_EQ(d0.acting_version(), 0);
  EXPECT_FALSE(d0.cupHolderCount_present());
  EXPECT_EQ(d0.cupHolderCount(), interop::ext::Car::Decoder::cupHolderCount_null_value());
  for (const auto &f : d0.fuelFigures()) {
    EXPECT_FALSE(f.mpg_present());
    EXPECT_TRUE(std::isnan(f.mpg()));
    (void)f.usageDescription();
  }
  extension::MessageHeader h0(reinterpret_cast<char *>(v0.data()), 0, v0.size(), 0);
  extension::Car r0;
  r0.wrapForDecode(reinterpret_cast<char *>(v0.data()), extension::MessageHeader::encodedLength(),
                   h0.blockLength(), h0.version(), v0.size());
  EXPECT_EQ(r0.cupHolderCount(), extension::Car::cupHolderCountNullValue());
}
TEST(Interop, BenchCarAndMarketData) {
  namespace rc = uk::co::real_logic::sbe::benchmarks;
  namespace rm = uk::co::real_logic::sbe::benchmarks::fix;
  // Car of bench-car.xml
  std::array<std::uint8_t, kCap> sbuf{};
  interop::bcar::Car::Encoder e(sbuf.data(), sbuf.size());
  e.serialNumber(1).modelYear(2).vehicleCode("vvvvvv").someNumbers(0, 9).someNumbers(4, -9);
  e.engine().capacity(3).numCylinders(4).manufacturerCode("mmm");
  e.fuelFigures(1).next().speed(5).mpg(6.5f);
  e.performanceFigures(1).next().octaneRating(7).acceleration(1).next().mph(8).seconds(9.5f);
  e.manufacturer("MANUFACTURER").model("MODEL");
  ASSERT_TRUE(e.ok());
  std::array<char, kCap> rbuf{};
  rc::Car car;
  car.wrapAndApplyHeader(rbuf.data(), 0, rbuf.size()).serialNumber(1).modelYear(2).putVehicleCode(
      "vvvvvv");
  car.someNumbers(0, 9).someNumbers(4, -9);
  car.engine().capacity(3).numCylinders(4).putManufacturerCode("mmm");
  car.fuelFiguresCount(1).next().speed(5).mpg(6.5f);
  car.performanceFiguresCount(1).next().octaneRating(7).accelerationCount(1).next().mph(8).seconds(
      9.5f);
  car.putManufacturer(std::string_view("MANUFACTURER")).putModel(std::string_view("MODEL"));
  const std::size_t rn = rc::MessageHeader::encodedLength() + car.encodedLength();
  ASSERT_EQ(e.encoded_length(), rn);
  EXPECT_EQ(0, std::memcmp(sbuf.data(), rbuf.data(), rn));
  interop::bcar::Car::Decoder d(rbuf.data(), rn);
  EXPECT_EQ(d.someNumbers(4), -9);
  for (const auto &f : d.fuelFigures()) { // groups are read in schema order
    EXPECT_EQ(f.mpg(), 6.5f);
  }
  for (const auto &p : d.performanceFigures()) {
    for (const auto &a : p.acceleration()) {
      EXPECT_EQ(a.seconds(), 9.5f);
    }
  }
  EXPECT_EQ(d.manufacturer(), "MANUFACTURER");
  EXPECT_EQ(d.model(), "MODEL");
  EXPECT_EQ(d.encoded_length(), rn);

  // MarketDataIncrementalRefreshTrades
  std::array<std::uint8_t, kCap> smd{};
  interop::md::MarketDataIncrementalRefreshTrades::Encoder me(smd.data(), smd.size());
  me.TransactTime(1234).EventTimeDelta(987).MatchEventIndicator(
      interop::md::MatchEventIndicator::END_EVENT);
  auto g = me.MdIncGrp(2);
  for (int i = 0; i < 2; ++i) {
    g.next().TradeId(1234).SecurityId(56789).NumberOfOrders(1).RptSeq(static_cast<std::uint8_t>(i));
    g.MdEntryPx().mantissa(50);
    g.MdEntrySize().mantissa(10);
    g.MdUpdateAction(interop::md::MDUpdateAction::NEW).AggressorSide(interop::md::Side::BUY);
  }
  ASSERT_TRUE(me.ok());
  std::array<char, kCap> rmd{};
  rm::MarketDataIncrementalRefreshTrades md;
  md.wrapAndApplyHeader(rmd.data(), 0, rmd.size()).transactTime(1234).eventTimeDelta(987)
      .matchEventIndicator(rm::MatchEventIndicator::END_EVENT);
  auto &rg = md.mdIncGrpCount(2);
  for (int i = 0; i < 2; ++i) {
    rg.next().tradeId(1234).securityId(56789).numberOfOrders(1).rptSeq(static_cast<std::uint8_t>(i));
    rg.mdEntryPx().mantissa(50);
    rg.mdEntrySize().mantissa(10);
    rg.mdUpdateAction(rm::MDUpdateAction::NEW).aggressorSide(rm::Side::BUY);
  }
  const std::size_t mn = rm::MessageHeader::encodedLength() + md.encodedLength();
  ASSERT_EQ(me.encoded_length(), mn);
  EXPECT_EQ(0, std::memcmp(smd.data(), rmd.data(), mn));
  interop::md::MarketDataIncrementalRefreshTrades::Decoder md2(rmd.data(), mn);
  int seq = 0;
  for (const auto &entry : md2.MdIncGrp()) {
    EXPECT_EQ(entry.RptSeq(), seq++);
    EXPECT_EQ(entry.MdEntryPx().exponent(), 7);
    EXPECT_EQ(entry.MdEntryPx().mantissa(), 50);
    EXPECT_EQ(entry.AggressorSide(), interop::md::Side::BUY);
    EXPECT_EQ(entry.MdEntryType(), interop::md::MDEntryType::TRADE);
  }
  EXPECT_EQ(seq, 2);
  EXPECT_EQ(md2.encoded_length(), mn);
}

} // namespace

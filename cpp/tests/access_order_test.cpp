// The access-order checks (SABLE_ENABLE_ACCESS_ORDER_CHECKS, docs/cpp.md) on the example Car:
// groups and var data read or written out of schema order, an entry left before its groups and
// var data, entries of a group left unvisited, a message not written to its end: each is
// errc::access_order, error_field() naming what was expected; reading and writing in order is
// not.
#define SABLE_ENABLE_ACCESS_ORDER_CHECKS
#include "composite_paths.hpp"
#include "example_car.hpp"

#include <gtest/gtest.h>

#include <array>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

using example::car::Car;

// Writes the Car in schema order: two fuel figures, two performance figures of two
// accelerations each, the three var data.
void write_car(Car::Encoder &e) {
  e.serialNumber(1234).modelYear(2013).vehicleCode("abcdef");
  auto fuel = e.fuelFigures(2);
  fuel.next().speed(30).mpg(35.9f).usageDescription("Urban Cycle");
  fuel.next().speed(55).mpg(49.0f).usageDescription("Combined Cycle");
  auto perf = e.performanceFigures(2);
  for (int p = 0; p < 2; ++p) {
    auto acc = perf.next().octaneRating(95).acceleration(2);
    acc.next().mph(30).seconds(4.0f);
    acc.next().mph(60).seconds(7.5f);
  }
  e.manufacturer("Honda").model("Civic VTi").activationCode("abcdef");
}

std::vector<std::uint8_t> car_bytes() {
  std::vector<std::uint8_t> buf(512);
  Car::Encoder e(buf.data(), buf.size());
  write_car(e);
  EXPECT_TRUE(e.ok()) << e.error_field();
  buf.resize(e.encoded_length());
  return buf;
}

// Reads past a group's entries (each entry's sbe_skip() reads past its groups and var data).
template <class G> void skip(G g) {
  while (g.next()) {
    g.sbe_skip();
  }
}

TEST(AccessOrder, SchemaOrderPasses) {
  const std::vector<std::uint8_t> bytes = car_bytes();
  Car::Decoder d(bytes.data(), bytes.size());
  std::size_t n = 0;
  for (const auto &f : d.fuelFigures()) {
    n += f.usageDescription().size();
  }
  for (const auto &p : d.performanceFigures()) {
    for (const auto &a : p.acceleration()) {
      n += a.mph();
    }
  }
  n += d.manufacturer().size() + d.model().size() + d.activationCode().size();
  EXPECT_TRUE(d.ok()) << d.error_field();
  EXPECT_EQ(n, 11u + 14u + 2u * 90u + 5u + 9u + 6u);
  EXPECT_EQ(d.encoded_length(), bytes.size());
  std::ostringstream os;
  os << d;
  EXPECT_EQ(os.str().find("error"), std::string::npos) << os.str();
}

TEST(AccessOrder, GroupsOfFixedEntriesMayBeTakenWholeOrEntryByEntry) {
  const std::vector<std::uint8_t> bytes = car_bytes();
  Car::Decoder d(bytes.data(), bytes.size());
  for (auto fuel = d.fuelFigures(); fuel.next();) {
    (void)fuel.usageDescription();
  }
  auto perf = d.performanceFigures();
  perf.next();
  auto acc = perf.acceleration();
  EXPECT_EQ(std::distance(acc.begin(), acc.end()), 2); // the random-access iterator takes both
  perf.next();
  auto acc2 = perf.acceleration();
  while (acc2.next()) {
  }
  (void)d.manufacturer();
  (void)d.model();
  (void)d.activationCode();
  EXPECT_TRUE(d.ok()) << d.error_field();
}

TEST(AccessOrder, ReadingVarDataBeforeAGroupIsReported) {
  const std::vector<std::uint8_t> bytes = car_bytes();
  Car::Decoder d(bytes.data(), bytes.size());
  EXPECT_TRUE(d.manufacturer().empty()); // nothing is read once out of order
  EXPECT_EQ(d.error(), sable::errc::access_order);
  EXPECT_EQ(d.error_field(), "fields.fuelFigures");
  EXPECT_STREQ(sable::kind(d.error()), "accessOrder");
}

TEST(AccessOrder, SkippingVarDataOrReadingItTwiceIsReported) {
  const std::vector<std::uint8_t> bytes = car_bytes();
  {
    Car::Decoder d(bytes.data(), bytes.size());
    skip(d.fuelFigures());
    skip(d.performanceFigures());
    (void)d.model(); // before manufacturer
    EXPECT_EQ(d.error(), sable::errc::access_order);
    EXPECT_EQ(d.error_field(), "fields.manufacturer");
  }
  {
    Car::Decoder d(bytes.data(), bytes.size());
    skip(d.fuelFigures());
    skip(d.performanceFigures());
    EXPECT_EQ(d.manufacturer(), "Honda");
    (void)d.manufacturer(); // again
    EXPECT_EQ(d.error(), sable::errc::access_order);
    EXPECT_EQ(d.error_field(), "fields.model");
  }
}

TEST(AccessOrder, MovingToTheNextEntryBeforeTheEntryIsReadIsReported) {
  const std::vector<std::uint8_t> bytes = car_bytes();
  {
    Car::Decoder d(bytes.data(), bytes.size());
    auto fuel = d.fuelFigures();
    EXPECT_TRUE(fuel.next());
    EXPECT_FALSE(fuel.next()); // usageDescription of entry 0 not read
    EXPECT_EQ(d.error(), sable::errc::access_order);
    EXPECT_EQ(d.error_field(), "fields.fuelFigures[0].usageDescription");
  }
  {
    Car::Decoder d(bytes.data(), bytes.size());
    skip(d.fuelFigures());
    auto perf = d.performanceFigures();
    perf.next();
    perf.next(); // acceleration of entry 0 not read
    EXPECT_EQ(d.error(), sable::errc::access_order);
    EXPECT_EQ(d.error_field(), "fields.performanceFigures[0].acceleration");
  }
  {
    Car::Decoder d(bytes.data(), bytes.size());
    skip(d.fuelFigures());
    auto perf = d.performanceFigures();
    perf.next();
    auto acc = perf.acceleration();
    acc.next(); // one of two
    perf.next();
    EXPECT_EQ(d.error(), sable::errc::access_order);
    EXPECT_EQ(d.error_field(), "fields.performanceFigures[0].acceleration[1]");
  }
}

TEST(AccessOrder, LeavingEntriesUnvisitedIsReported) {
  const std::vector<std::uint8_t> bytes = car_bytes();
  Car::Decoder d(bytes.data(), bytes.size());
  auto fuel = d.fuelFigures();
  fuel.next();
  (void)fuel.usageDescription();
  (void)d.performanceFigures(); // entry 1 of fuelFigures not read
  EXPECT_EQ(d.error(), sable::errc::access_order);
  EXPECT_EQ(d.error_field(), "fields.fuelFigures[1]");
}

TEST(AccessOrder, WritingOutOfOrderIsReported) {
  std::array<std::uint8_t, 512> buf{};
  {
    Car::Encoder e(buf.data(), buf.size());
    e.manufacturer("Honda"); // before the groups
    EXPECT_EQ(e.error(), sable::errc::access_order);
    EXPECT_EQ(e.error_field(), "fields.fuelFigures");
  }
  {
    Car::Encoder e(buf.data(), buf.size());
    (void)e.fuelFigures(0);
    (void)e.performanceFigures(0);
    e.model("Civic"); // before manufacturer
    EXPECT_EQ(e.error(), sable::errc::access_order);
    EXPECT_EQ(e.error_field(), "fields.manufacturer");
  }
  {
    Car::Encoder e(buf.data(), buf.size());
    auto fuel = e.fuelFigures(2);
    fuel.next().speed(30);
    fuel.next(); // entry 0's usageDescription not written
    EXPECT_EQ(e.error(), sable::errc::access_order);
    EXPECT_EQ(e.error_field(), "fields.fuelFigures[0].usageDescription");
  }
  {
    Car::Encoder e(buf.data(), buf.size());
    auto fuel = e.fuelFigures(2);
    fuel.next().speed(30).usageDescription("Urban Cycle");
    (void)e.performanceFigures(0); // entry 1 not written
    EXPECT_EQ(e.error(), sable::errc::access_order);
    EXPECT_EQ(e.error_field(), "fields.fuelFigures[1]");
  }
  {
    Car::Encoder e(buf.data(), buf.size());
    (void)e.fuelFigures(0);
    auto perf = e.performanceFigures(2);
    perf.next().acceleration(2).next().mph(30);
    perf.next(); // acceleration entry 1 not written
    EXPECT_EQ(e.error(), sable::errc::access_order);
    EXPECT_EQ(e.error_field(), "fields.performanceFigures[0].acceleration[1]");
  }
}

TEST(AccessOrder, AMessageNotWrittenToItsEndIsReported) {
  std::array<std::uint8_t, 512> buf{};
  {
    // The last group (Order ends with legs, fills nested in it): entry 1 of 2 never begun.
    using composite::paths::Order;
    Order::Encoder e(buf.data(), buf.size());
    auto legs = e.legs(2);
    legs.next().leg().id(1);
    (void)legs.fills(0);
    EXPECT_EQ(e.error(), sable::errc::access_order);
    EXPECT_FALSE(e.ok());
    EXPECT_EQ(e.error_field(), "fields.legs[1]");
    // Asked before the end, it says what is still missing; written to the end, the message is ok.
    legs.next().leg().id(2);
    auto fills = legs.fills(2);
    fills.next().fill().id(3);
    EXPECT_EQ(e.error_field(), "fields.legs[1].fills[1]");
    fills.next().fill().id(4);
    EXPECT_TRUE(e.ok()) << e.error_field();
    EXPECT_EQ(e.error_field(), "");
  }
  {
    // The last entry's nested group left unwritten.
    using composite::paths::Order;
    Order::Encoder e(buf.data(), buf.size());
    e.legs(1).next().leg().id(1);
    EXPECT_EQ(e.error(), sable::errc::access_order);
    EXPECT_EQ(e.error_field(), "fields.legs[0].fills");
  }
  {
    // The Car's last group: entry 1 of performanceFigures, and the var data after it.
    Car::Encoder e(buf.data(), buf.size());
    (void)e.fuelFigures(0);
    auto perf = e.performanceFigures(2);
    (void)perf.next().octaneRating(95).acceleration(0);
    EXPECT_EQ(e.error(), sable::errc::access_order);
    EXPECT_EQ(e.error_field(), "fields.performanceFigures[1]");
  }
  {
    // The trailing var data.
    Car::Encoder e(buf.data(), buf.size());
    (void)e.fuelFigures(0);
    (void)e.performanceFigures(0);
    e.manufacturer("Honda").model("Civic VTi");
    EXPECT_EQ(e.error(), sable::errc::access_order);
    EXPECT_EQ(e.error_field(), "fields.activationCode");
    e.activationCode("abcdef");
    EXPECT_TRUE(e.ok()) << e.error_field();
  }
  {
    // An error met before the end is the one reported.
    Car::Encoder e(buf.data(), buf.size());
    e.vehicleCode("abcdefg");
    EXPECT_EQ(e.error(), sable::errc::text_too_long);
    EXPECT_EQ(e.error_field(), "fields.vehicleCode");
  }
  {
    // A decoder may stop reading anywhere: nothing is left "unread" at the end.
    const std::vector<std::uint8_t> bytes = car_bytes();
    Car::Decoder d(bytes.data(), bytes.size());
    auto fuel = d.fuelFigures();
    fuel.next();
    EXPECT_TRUE(d.ok()) << d.error_field();
  }
}

TEST(AccessOrder, TheFirstErrorIsKept) {
  std::array<std::uint8_t, 512> buf{};
  Car::Encoder e(buf.data(), buf.size());
  e.vehicleCode("abcdefg"); // text too long
  e.manufacturer("Honda");  // then out of order
  EXPECT_EQ(e.error(), sable::errc::text_too_long);
  EXPECT_EQ(e.error_field(), "fields.vehicleCode");
}

} // namespace

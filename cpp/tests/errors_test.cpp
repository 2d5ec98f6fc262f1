// The codec contract's errors (docs/codecs.md) on the example Car: what a decoder reports for
// malformed input (offset from the message's start, field path, kind) and what an encoder reports
// for values it must not write (never truncating, dropping or wrapping them), and the text
// accessors of char arrays.
#include "composite_paths.hpp"
#include "example_car.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

using example::car::BooleanType;
using example::car::Car;
using example::car::Model;

// The Car the tests use: every group and var data, nested groups included.
std::vector<std::uint8_t> car_bytes() {
  std::vector<std::uint8_t> buf(512);
  Car::Encoder e(buf.data(), buf.size());
  e.serialNumber(1234).modelYear(2013).available(BooleanType::T).code(Model::A).vehicleCode(
      "abcdef");
  e.engine().capacity(2000).numCylinders(4).manufacturerCode("123").efficiency(35);
  auto fuel = e.fuelFigures(2);
  fuel.next().speed(30).mpg(35.9f).usageDescription("Urban Cycle");
  fuel.next().speed(55).mpg(49.0f).usageDescription("Combined Cycle");
  auto perf = e.performanceFigures(1);
  auto acc = perf.next().octaneRating(95).acceleration(2);
  acc.next().mph(30).seconds(4.0f);
  acc.next().mph(60).seconds(7.5f);
  e.manufacturer("Honda").model("Civic VTi").activationCode("abcdef");
  EXPECT_TRUE(e.ok()) << e.error_field();
  buf.resize(e.encoded_length());
  return buf;
}

// An item of docs/codecs.md's reading order: where it starts, its length and its path.
struct Item {
  std::size_t offset;
  std::size_t length;
  std::string field;
};

// The Car's items, laid out from the schema's sizes and the values car_bytes() writes
// (independently of the decoder).
std::vector<Item> car_items() {
  using Fuel = Car::Decoder::FuelFigures;
  using Perf = Car::Decoder::PerformanceFigures;
  using Acc = Car::Decoder::PerformanceFiguresEntry::Acceleration;
  std::vector<Item> items;
  std::size_t at = 0;
  auto add = [&](std::size_t length, const std::string &field) {
    items.push_back({at, length, field});
    at += length;
  };
  auto var = [&](const std::string &text, const std::string &field) {
    add(4 + text.size(), field); // a uint32 length, then the bytes
  };
  add(Car::sbe_header_length, "header");
  add(Car::sbe_block_length, "fields");
  add(Fuel::sbe_header_length, "fields.fuelFigures");
  add(Fuel::sbe_block_length, "fields.fuelFigures[0]");
  var("Urban Cycle", "fields.fuelFigures[0].usageDescription");
  add(Fuel::sbe_block_length, "fields.fuelFigures[1]");
  var("Combined Cycle", "fields.fuelFigures[1].usageDescription");
  add(Perf::sbe_header_length, "fields.performanceFigures");
  add(Perf::sbe_block_length, "fields.performanceFigures[0]");
  add(Acc::sbe_header_length, "fields.performanceFigures[0].acceleration");
  add(Acc::sbe_block_length, "fields.performanceFigures[0].acceleration[0]");
  add(Acc::sbe_block_length, "fields.performanceFigures[0].acceleration[1]");
  var("Honda", "fields.manufacturer");
  var("Civic VTi", "fields.model");
  var("abcdef", "fields.activationCode");
  return items;
}

std::string printed(const Car::Decoder &d) {
  std::ostringstream os;
  os << d;
  return os.str();
}

std::string error_json(std::size_t offset, const std::string &field, const char *kind) {
  return "{\"error\":{\"offset\":" + std::to_string(offset) + ",\"field\":\"" + field +
         "\",\"kind\":\"" + kind + "\",";
}

// Decodes bytes (in a buffer of exactly their size) reading everything, as a user would.
void read_all(Car::Decoder &d) {
  for (const auto &f : d.fuelFigures()) {
    (void)f.usageDescription();
  }
  for (const auto &p : d.performanceFigures()) {
    for (const auto &a : p.acceleration()) {
      (void)a.seconds();
    }
  }
  (void)d.manufacturer();
  (void)d.model();
  (void)d.activationCode();
}

TEST(DecodeErrors, EveryTruncationReportsTheItemItCuts) {
  const std::vector<std::uint8_t> bytes = car_bytes();
  const std::vector<Item> items = car_items();
  ASSERT_EQ(items.back().offset + items.back().length, bytes.size());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    std::size_t k = 0;
    while (items[k].offset + items[k].length <= n) {
      ++k;
    }
    const Item &want = items[k];
    Car::Decoder d(cut.data(), cut.size());
    read_all(d);
    ASSERT_EQ(d.error(), sable::errc::truncated) << "cut at " << n;
    EXPECT_EQ(d.error_offset(), want.offset) << "cut at " << n;
    EXPECT_EQ(d.error_field(), want.field) << "cut at " << n;
    EXPECT_EQ(printed(d).rfind(error_json(want.offset, want.field, "truncated"), 0), 0u)
        << "cut at " << n << ": " << printed(d);
  }
}

TEST(DecodeErrors, OffsetsAreFromTheMessageStartWhereverItLies) {
  const std::vector<std::uint8_t> bytes = car_bytes();
  // A frame header of 7 bytes before the message, cut 3 bytes short.
  std::vector<std::uint8_t> framed(7 + bytes.size() - 3, 0xEE);
  std::copy(bytes.begin(), bytes.end() - 3, framed.begin() + 7);
  Car::Decoder d;
  ASSERT_EQ(d.wrap_body(framed.data(), framed.size(), 7 + Car::sbe_header_length,
                        Car::sbe_block_length, Car::sbe_schema_version),
            sable::errc::ok);
  read_all(d);
  EXPECT_EQ(d.error(), sable::errc::truncated);
  // wrap_body's message starts at its block: the header's 8 bytes are not counted.
  EXPECT_EQ(d.error_offset(), car_items().back().offset - Car::sbe_header_length);
  EXPECT_EQ(d.error_field(), "fields.activationCode");
}

TEST(DecodeErrors, HeaderChecksComeInTheContractsOrder) {
  std::vector<std::uint8_t> bytes = car_bytes();
  bytes[4] = 99; // schema id
  bytes[2] = 99; // template id
  Car::Decoder d(bytes.data(), bytes.size());
  EXPECT_EQ(d.error(), sable::errc::schema_id_mismatch);
  EXPECT_EQ(d.error_offset(), 4u);
  EXPECT_EQ(d.error_field(), "header.schemaId");
  EXPECT_EQ(printed(d).rfind(error_json(4, "header.schemaId", "schemaIdMismatch"), 0), 0u);
  bytes[4] = 1;
  d.wrap(bytes.data(), bytes.size());
  EXPECT_EQ(d.error(), sable::errc::unknown_template);
  EXPECT_EQ(d.error_offset(), 2u);
  EXPECT_EQ(d.error_field(), "header.templateId");
  bytes[2] = 1;
  bytes[0] = 10; // a block shorter than the schema's, at the schema's version
  d.wrap(bytes.data(), 20); // and cut inside it: the block length is checked first
  EXPECT_EQ(d.error(), sable::errc::block_length_too_short);
  EXPECT_EQ(d.error_offset(), 0u);
  EXPECT_EQ(d.error_field(), "header.blockLength");
  bytes[0] = static_cast<std::uint8_t>(Car::sbe_block_length);
  d.wrap(bytes.data(), 20);
  EXPECT_EQ(d.error(), sable::errc::truncated);
  EXPECT_EQ(d.error_offset(), 8u);
  EXPECT_EQ(d.error_field(), "fields");
}

TEST(DecodeErrors, AGroupBlockShorterThanItsFields) {
  std::vector<std::uint8_t> bytes = car_bytes();
  const std::vector<Item> items = car_items();
  const Item &dim = items[2]; // fuelFigures' dimension: blockLength at its first byte
  ASSERT_EQ(dim.field, "fields.fuelFigures");
  bytes[dim.offset] = 2;
  Car::Decoder d(bytes.data(), bytes.size());
  read_all(d);
  EXPECT_EQ(d.error(), sable::errc::block_length_too_short);
  EXPECT_EQ(d.error_offset(), dim.offset);
  EXPECT_EQ(d.error_field(), "fields.fuelFigures");
}

TEST(DecodeErrors, ALyingCountFailsAtTheFirstEntryThatDoesNotFit) {
  std::vector<std::uint8_t> bytes = car_bytes();
  const std::vector<Item> items = car_items();
  const Item &dim = items[9]; // the acceleration group of performanceFigures[0]
  ASSERT_EQ(dim.field, "fields.performanceFigures[0].acceleration");
  bytes[dim.offset + 2] = 200; // numInGroup: 200 entries
  const std::size_t entry = Car::Decoder::PerformanceFiguresEntry::Acceleration::sbe_block_length;
  const std::size_t first = dim.offset + dim.length;
  const std::size_t fit = (bytes.size() - first) / entry;
  const std::string field =
      "fields.performanceFigures[0].acceleration[" + std::to_string(fit) + "]";
  // Read entry by entry (next()) and by the iterator: the same report.
  for (int by_iterator = 0; by_iterator < 2; ++by_iterator) {
    Car::Decoder e(bytes.data(), bytes.size());
    for (const auto &f : e.fuelFigures()) {
      (void)f.usageDescription();
    }
    auto perf = e.performanceFigures();
    ASSERT_TRUE(perf.next());
    auto acc = perf.acceleration();
    std::size_t seen = 0;
    if (by_iterator != 0) {
      for (const auto &a : acc) {
        (void)a.mph();
        ++seen;
      }
    } else {
      while (acc.next()) {
        ++seen;
      }
    }
    EXPECT_EQ(seen, fit);
    EXPECT_EQ(e.error(), sable::errc::truncated);
    EXPECT_EQ(e.error_offset(), first + fit * entry);
    EXPECT_EQ(e.error_field(), field);
    EXPECT_EQ(printed(e).rfind(error_json(first + fit * entry, field, "truncated"), 0), 0u)
        << printed(e);
  }
}

TEST(DecodeErrors, ALyingVarDataLengthFailsAtItsLength) {
  std::vector<std::uint8_t> bytes = car_bytes();
  const std::vector<Item> items = car_items();
  const Item &code = items.back();
  bytes[code.offset + 1] = 1; // 6 + 256 bytes
  Car::Decoder d(bytes.data(), bytes.size());
  read_all(d);
  EXPECT_EQ(d.error(), sable::errc::truncated);
  EXPECT_EQ(d.error_offset(), code.offset);
  EXPECT_EQ(d.error_field(), "fields.activationCode");
  EXPECT_TRUE(d.activationCode().empty());
}

TEST(EncodeErrors, TextLongerThanItsArrayIsAnErrorAndNotWritten) {
  std::array<std::uint8_t, 512> buf{};
  Car::Encoder e(buf.data(), buf.size());
  e.vehicleCode("abc");
  e.vehicleCode("abcdefg"); // 7 characters for 6
  EXPECT_EQ(e.error(), sable::errc::text_too_long);
  EXPECT_EQ(e.error_field(), "fields.vehicleCode");
  Car::Decoder d(buf.data(), buf.size());
  EXPECT_EQ(d.vehicleCode(), "abc"); // the earlier value, not a cut of the longer one
}

TEST(EncodeErrors, AnIndexOutOfRangeIsAnError) {
  std::array<std::uint8_t, 512> buf{};
  Car::Encoder e(buf.data(), buf.size());
  e.someNumbers(4, 7);
  EXPECT_TRUE(e.ok());
  e.someNumbers(5, 7);
  EXPECT_EQ(e.error(), sable::errc::index_out_of_range);
  EXPECT_EQ(e.error_field(), "fields.someNumbers");
  Car::Encoder f(buf.data(), buf.size());
  f.vehicleCode(6, 'x');
  EXPECT_EQ(f.error(), sable::errc::index_out_of_range);
  EXPECT_EQ(f.error_field(), "fields.vehicleCode");
}

TEST(EncodeErrors, ValuesOutsideTheDeclaredRangeAreErrors) {
  std::array<std::uint8_t, 512> buf{};
  {
    Car::Encoder e(buf.data(), buf.size());
    auto perf = e.performanceFigures(2);
    perf.next().octaneRating(110);
    EXPECT_TRUE(e.ok());
    perf.next().octaneRating(89); // Ron: 90..110
    EXPECT_EQ(e.error(), sable::errc::value_out_of_range);
    EXPECT_EQ(e.error_field(), "fields.performanceFigures[1].octaneRating");
  }
  {
    Car::Encoder e(buf.data(), buf.size());
    e.engine().efficiency(101); // a composite member: Percentage 0..100
    EXPECT_EQ(e.error(), sable::errc::value_out_of_range);
    EXPECT_EQ(e.error_field(), "fields.engine.efficiency"); // as `sable encode` names it
  }
  {
    std::uint8_t engine[example::car::Engine::encoded_length] = {};
    example::car::Engine::Encoder alone(engine);
    alone.efficiency(-1);
    EXPECT_EQ(alone.error(), sable::errc::value_out_of_range);
  }
}

TEST(EncodeErrors, ACompositeMemberIsNamedByItsFullPath) {
  std::array<std::uint8_t, 512> buf{};
  Car::Encoder e(buf.data(), buf.size());
  e.engine().capacity(2000).manufacturerCode("1234"); // char[3]
  EXPECT_EQ(e.error(), sable::errc::text_too_long);
  EXPECT_EQ(e.error_field(), "fields.engine.manufacturerCode");
  Car::Encoder f(buf.data(), buf.size());
  f.engine().manufacturerCode(3, '1');
  EXPECT_EQ(f.error(), sable::errc::index_out_of_range);
  EXPECT_EQ(f.error_field(), "fields.engine.manufacturerCode");
}

TEST(EncodeErrors, NestedCompositeMembersInNestedEntriesAreNamedByTheirFullPath) {
  using composite::paths::Order;
  std::array<std::uint8_t, 256> buf{};
  {
    Order::Encoder e(buf.data(), buf.size());
    e.outer().id(1).inner().code("abc"); // char[2]
    EXPECT_EQ(e.error(), sable::errc::text_too_long);
    EXPECT_EQ(e.error_field(), "fields.outer.inner.code"); // as `sable encode` names it
  }
  {
    Order::Encoder e(buf.data(), buf.size());
    e.outer().inner().code("ab").level(1);
    auto legs = e.legs(2);
    legs.next().leg().inner().code("ab").level(1);
    (void)legs.fills(0);
    legs.next().leg().inner().level(9);
    auto fills = legs.fills(2);
    fills.next().fill().inner().level(1);
    EXPECT_TRUE(e.ok());
    fills.next().fill().id(7).inner().level(10); // 1..9
    EXPECT_EQ(e.error(), sable::errc::value_out_of_range);
    EXPECT_EQ(e.error_field(), "fields.legs[1].fills[1].fill.inner.level");
  }
}

TEST(EncodeErrors, CountsAndLengthsAboveTheirMaximum) {
  std::array<std::uint8_t, 512> buf{};
  {
    Car::Encoder e(buf.data(), buf.size());
    (void)e.fuelFigures(Car::Encoder::FuelFigures::sbe_max_count + 1);
    EXPECT_EQ(e.error(), sable::errc::count_too_large);
    EXPECT_EQ(e.error_field(), "fields.fuelFigures");
  }
  {
    Car::Encoder e(buf.data(), buf.size());
    (void)e.fuelFigures(0);
    auto perf = e.performanceFigures(2);
    perf.next().octaneRating(95).acceleration(0);
    (void)perf.next().octaneRating(95).acceleration(70000);
    EXPECT_EQ(e.error(), sable::errc::count_too_large);
    EXPECT_EQ(e.error_field(), "fields.performanceFigures[1].acceleration");
  }
  {
    Car::Encoder e(buf.data(), buf.size());
    auto fuel = e.fuelFigures(2);
    fuel.next().usageDescription("Urban Cycle");
    // Longer than the length's maxValue (1073741824): refused before any byte is read.
    fuel.next().usageDescription(buf.data(), std::size_t{1073741825});
    EXPECT_EQ(e.error(), sable::errc::length_too_large);
    EXPECT_EQ(e.error_field(), "fields.fuelFigures[1].usageDescription");
  }
  {
    Car::Encoder e(buf.data(), buf.size());
    auto fuel = e.fuelFigures(1);
    fuel.next();
    fuel.next(); // one more entry than announced
    EXPECT_EQ(e.error(), sable::errc::index_out_of_range);
    EXPECT_EQ(e.error_field(), "fields.fuelFigures[1]");
  }
}

TEST(EncodeErrors, ABufferTooShortNamesWhatDidNotFit) {
  std::array<std::uint8_t, 512> buf{};
  {
    Car::Encoder e(buf.data(), 4);
    EXPECT_EQ(e.error(), sable::errc::buffer_too_short);
    EXPECT_EQ(e.error_field(), "header");
  }
  {
    Car::Encoder e(buf.data(), 20);
    EXPECT_EQ(e.error(), sable::errc::buffer_too_short);
    EXPECT_EQ(e.error_field(), "fields");
  }
  {
    const std::size_t room = Car::sbe_header_length + Car::sbe_block_length + 4 + 6 + 4 + 2;
    Car::Encoder e(buf.data(), room);
    auto fuel = e.fuelFigures(1);
    fuel.next().speed(1).usageDescription("abc");
    EXPECT_EQ(e.error(), sable::errc::buffer_too_short);
    EXPECT_EQ(e.error_field(), "fields.fuelFigures[0].usageDescription");
  }
}

TEST(EncodeErrors, TheFirstErrorIsKept) {
  std::array<std::uint8_t, 512> buf{};
  Car::Encoder e(buf.data(), buf.size());
  e.someNumbers(9, 1).vehicleCode("too long for six");
  EXPECT_EQ(e.error(), sable::errc::index_out_of_range);
  EXPECT_EQ(e.error_field(), "fields.someNumbers");
  EXPECT_STREQ(sable::kind(e.error()), "indexOutOfRange");
}

TEST(Text, CharArraysStopAtTheFirstNulAndTheirBytesAreWhole) {
  std::array<std::uint8_t, 512> buf{};
  Car::Encoder e(buf.data(), buf.size());
  e.vehicleCode("ab");
  e.engine().manufacturerCode("1");
  ASSERT_TRUE(e.ok());
  Car::Decoder d(buf.data(), buf.size());
  EXPECT_EQ(d.vehicleCode(), "ab");
  EXPECT_EQ(d.vehicleCode_bytes().size(), 6u);
  EXPECT_EQ(d.vehicleCode_bytes().as_chars(), std::string_view("ab\0\0\0\0", 6));
  EXPECT_EQ(d.engine().manufacturerCode(), "1");
  EXPECT_EQ(d.engine().manufacturerCode_bytes().size(), 3u);
  e.vehicleCode("abcdef"); // all six: no NUL at all
  EXPECT_EQ(d.vehicleCode(), "abcdef");
}

} // namespace

// The API of the generated codecs on the example Car schema: fluent encoding, decoding from
// const memory, groups by range-for, var data views, enums, sets, versions and errors.
#include "example_car.hpp"
#include "example_extension.hpp"

#include <gtest/gtest.h>

#include <array>
#include <sstream>
#include <string>
#include <vector>

namespace {

using example::car::BooleanType;
using example::car::Car;
using example::car::Model;
using example::car::OptionalExtras;

std::size_t encode_car(std::uint8_t *buf, std::size_t cap, sable::errc *err) {
  Car::Encoder e(buf, cap);
  e.serialNumber(1234)
      .modelYear(2013)
      .available(BooleanType::T)
      .code(Model::A)
      .vehicleCode("abcdef")
      .extras(OptionalExtras().sunRoof(true).cruiseControl(true));
  for (std::size_t i = 0; i < Car::Decoder::someNumbers_length; ++i) {
    e.someNumbers(i, static_cast<std::uint32_t>(i));
  }
  e.engine().capacity(2000).numCylinders(4).manufacturerCode("123").efficiency(35).boosterEnabled(
      BooleanType::T);
  e.engine().booster().BoostType(example::car::BoostType::NITROUS).horsePower(200);
  auto fuel = e.fuelFigures(2);
  fuel.next().speed(30).mpg(35.9f).usageDescription("Urban Cycle");
  fuel.next().speed(55).mpg(49.0f).usageDescription("Combined Cycle");
  auto perf = e.performanceFigures(1);
  perf.next().octaneRating(95);
  auto acc = perf.acceleration(2);
  acc.next().mph(30).seconds(4.0f);
  acc.next().mph(60).seconds(7.5f);
  e.manufacturer("Honda").model("Civic VTi").activationCode("abcdef");
  *err = e.error();
  return e.encoded_length();
}

TEST(Api, EncodesAndDecodesTheCar) {
  std::array<std::uint8_t, 512> buf{};
  sable::errc err;
  const std::size_t n = encode_car(buf.data(), buf.size(), &err);
  ASSERT_EQ(err, sable::errc::ok);

  const std::uint8_t *cbuf = buf.data();
  Car::Decoder d(cbuf, n);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.serialNumber(), 1234u);
  EXPECT_EQ(d.modelYear(), 2013);
  EXPECT_EQ(d.available(), BooleanType::T);
  EXPECT_EQ(d.code(), Model::A);
  EXPECT_EQ(d.vehicleCode(), "abcdef");
  EXPECT_EQ(d.someNumbers(4), 4u);
  EXPECT_EQ(d.someNumbers(5), Car::Decoder::someNumbers_null_value()); // out of range: null
  EXPECT_TRUE(d.extras().sunRoof());
  EXPECT_FALSE(d.extras().sportsPack());
  EXPECT_EQ(d.engine().capacity(), 2000);
  EXPECT_EQ(d.engine().booster().horsePower(), 200);
  EXPECT_EQ(Car::Decoder::discountedModel(), Model::C);
  std::vector<std::string> usage;
  for (const auto &f : d.fuelFigures()) {
    usage.emplace_back(f.usageDescription());
  }
  EXPECT_EQ(usage, (std::vector<std::string>{"Urban Cycle", "Combined Cycle"}));
  int accelerations = 0;
  for (const auto &p : d.performanceFigures()) {
    EXPECT_EQ(p.octaneRating(), 95);
    for (const auto &a : p.acceleration()) {
      EXPECT_GT(a.seconds(), 0.0f);
      ++accelerations;
    }
  }
  EXPECT_EQ(accelerations, 2);
  EXPECT_EQ(d.manufacturer(), "Honda");
  EXPECT_EQ(d.model(), "Civic VTi");
  EXPECT_EQ(d.activationCode(), "abcdef");
  EXPECT_TRUE(d.ok());
  EXPECT_EQ(d.encoded_length(), n);
  EXPECT_EQ(d.position(), n);

  std::ostringstream os;
  os << d;
  EXPECT_EQ(os.str().rfind("{\"message\":\"Car\",\"header\":{\"blockLength\":", 0), 0u);
  EXPECT_NE(os.str().find("\"extras\":[\"sunRoof\",\"cruiseControl\"]"), std::string::npos);
  EXPECT_NE(os.str().find("\"mpg\":35.9"), std::string::npos);
}

TEST(Api, EncoderReportsAShortBufferWithoutWritingPastIt) {
  for (std::size_t cap = 0; cap < 200; ++cap) {
    std::vector<std::uint8_t> buf(cap + 16, 0xAB);
    sable::errc err;
    const std::size_t n = encode_car(buf.data(), cap, &err);
    EXPECT_LE(n, cap);
    for (std::size_t i = cap; i < buf.size(); ++i) {
      ASSERT_EQ(buf[i], 0xAB) << "byte " << i << " written with capacity " << cap;
    }
    if (cap < 150) {
      EXPECT_EQ(err, sable::errc::buffer_too_short) << cap;
    }
  }
}

TEST(Api, EncoderRejectsTooManyEntries) {
  std::array<std::uint8_t, 512> buf{};
  Car::Encoder e(buf.data(), buf.size());
  auto fuel = e.fuelFigures(1);
  fuel.next().speed(1);
  fuel.next().speed(2); // one more than announced: written nowhere
  EXPECT_EQ(e.error(), sable::errc::index_out_of_range);
}

TEST(Api, DecoderRejectsOtherTemplatesAndSchemas) {
  std::array<std::uint8_t, 512> buf{};
  sable::errc err;
  const std::size_t n = encode_car(buf.data(), buf.size(), &err);
  buf[2] = 9; // template id
  Car::Decoder d(buf.data(), n);
  EXPECT_EQ(d.error(), sable::errc::unknown_template);
  EXPECT_EQ(d.serialNumber(), Car::Decoder::serialNumber_null_value());
  EXPECT_TRUE(d.manufacturer().empty());
  buf[2] = 1;
  buf[4] = 77; // schema id
  d.wrap(buf.data(), n);
  EXPECT_EQ(d.error(), sable::errc::schema_id_mismatch);
  std::ostringstream os;
  os << d;
  EXPECT_EQ(os.str().rfind("{\"error\":", 0), 0u);
}

TEST(Api, OlderMessagesReadNewerFieldsAsAbsent) {
  // Written with the base Car schema (version 0), read with the extension (version 2).
  std::array<std::uint8_t, 512> buf{};
  sable::errc err;
  const std::size_t n = encode_car(buf.data(), buf.size(), &err);
  ASSERT_EQ(err, sable::errc::ok);
  example::extension::Car::Decoder d(buf.data(), n);
  ASSERT_TRUE(d.ok()) << sable::message(d.error());
  EXPECT_EQ(d.acting_version(), 0);
  EXPECT_FALSE(d.cupHolderCount_present());
  EXPECT_EQ(d.cupHolderCount(), example::extension::Car::Decoder::cupHolderCount_null_value());
  EXPECT_EQ(d.serialNumber(), 1234u);
  std::ostringstream os;
  os << d;
  EXPECT_NE(os.str().find("\"cupHolderCount\":null"), std::string::npos) << os.str();
}

TEST(Api, CompositesAndSetsBeyondAnOlderWritersBlockReadAsNull) {
  namespace ext = example::extension;
  std::array<std::uint8_t, 512> buf{};
  ext::Car::Encoder e(buf.data(), buf.size());
  e.serialNumber(1234).modelYear(2013).extras(ext::OptionalExtras().sportsPack(true));
  e.engine().capacity(2000).numCylinders(4).manufacturerCode("123").efficiency(35).boosterEnabled(
      ext::BooleanType::T);
  e.engine().booster().BoostType(ext::BoostType::NITROUS).horsePower(200);
  ASSERT_TRUE(e.ok()) << sable::message(e.error());
  const std::size_t body = ext::Car::sbe_header_length;
  // A version 0 writer whose block ends before the engine: extras on the wire, engine not.
  ext::Car::Decoder d;
  ASSERT_EQ(d.wrap_body(buf.data(), buf.size(), body, ext::Car::engine_offset, 0), sable::errc::ok);
  EXPECT_EQ(d.serialNumber(), 1234u);
  EXPECT_TRUE(d.extras().sportsPack());
  const auto engine = d.engine();
  EXPECT_EQ(engine.capacity(), ext::Engine::Decoder::capacity_null_value());
  EXPECT_EQ(engine.numCylinders(), ext::Engine::Decoder::numCylinders_null_value());
  EXPECT_EQ(engine.manufacturerCode(), "");
  EXPECT_EQ(engine.efficiency(), ext::Engine::Decoder::efficiency_null_value());
  EXPECT_EQ(engine.boosterEnabled(), ext::BooleanType_null_value);
  EXPECT_EQ(engine.booster().BoostType(), ext::BoostType_null_value);
  EXPECT_EQ(engine.booster().horsePower(), ext::Booster::Decoder::horsePower_null_value());
  // A block ending before extras too: no choice set.
  ASSERT_EQ(d.wrap_body(buf.data(), buf.size(), body, ext::Car::extras_offset, 0), sable::errc::ok);
  EXPECT_EQ(d.extras().raw(), 0);
  EXPECT_EQ(d.modelYear(), 2013);
  // The whole block: everything as written.
  ASSERT_EQ(d.wrap_body(buf.data(), buf.size(), body, ext::Car::sbe_block_length,
                        ext::Car::sbe_schema_version),
            sable::errc::ok);
  EXPECT_EQ(d.engine().capacity(), 2000);
  EXPECT_EQ(d.engine().booster().BoostType(), ext::BoostType::NITROUS);
  EXPECT_TRUE(d.extras().sportsPack());
}

TEST(Api, MetadataIsConstexpr) {
  static_assert(Car::sbe_template_id == 1);
  static_assert(Car::sbe_schema_id == 1);
  static_assert(Car::sbe_name == "Car");
  static_assert(Car::serialNumber_id == 1);
  static_assert(Car::Decoder::someNumbers_length == 5);
  static_assert(example::car::messageHeader::encoded_length == 8);
  static_assert(OptionalExtras().sunRoof(true).raw() == 1);
  EXPECT_STREQ(example::car::sbe_name(Model::B), "B");
  EXPECT_EQ(example::car::sbe_name(static_cast<Model>('Z')), nullptr);
}

} // namespace

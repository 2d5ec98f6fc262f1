// The codecs with every bounds check off (SABLE_NO_BOUNDS_CHECK): same bytes, same values, on a
// well-formed message. A translation unit (and executable) of its own: the macro changes inline
// functions of sable/sbe.hpp.
#define SABLE_NO_BOUNDS_CHECK
#include "unchecked_car.hpp"

#include <gtest/gtest.h>

#include <array>
#include <sstream>

namespace {

using unchecked::car::Car;

TEST(Unchecked, RoundTripsTheCar) {
  std::array<std::uint8_t, 256> buf{};
  Car::Encoder e(buf.data(), buf.size());
  e.serialNumber(7).modelYear(2020).vehicleCode("xyzxyz");
  for (std::size_t i = 0; i < 5; ++i) {
    e.someNumbers(i, 0);
  }
  e.fuelFigures(1).next().speed(10).mpg(1.5f).usageDescription("u");
  e.performanceFigures(0);
  e.manufacturer("m").model("n").activationCode("");
  ASSERT_TRUE(e.ok());
  Car::Decoder d(buf.data(), e.encoded_length());
  EXPECT_EQ(d.serialNumber(), 7u);
  EXPECT_EQ(d.vehicleCode(), "xyzxyz");
  for (const auto &f : d.fuelFigures()) {
    EXPECT_EQ(f.speed(), 10);
    EXPECT_EQ(f.usageDescription(), "u");
  }
  for (const auto &p : d.performanceFigures()) {
    (void)p;
    ADD_FAILURE() << "no performance figures were written";
  }
  EXPECT_EQ(d.manufacturer(), "m");
  EXPECT_EQ(d.model(), "n");
  EXPECT_EQ(d.activationCode(), "");
  EXPECT_EQ(d.encoded_length(), e.encoded_length());
}

} // namespace

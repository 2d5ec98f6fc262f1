// The messages every codec in the benchmark encodes and decodes: the values of the reference
// implementation's C++ benchmarks (Car of bench-car.xml with manufacturer "MANUFACTURER" and
// model "MODEL"; MarketDataIncrementalRefreshTrades of bench-fix-message-samples.xml with two
// entries).
#ifndef SABLE_BENCH_VALUES_HPP
#define SABLE_BENCH_VALUES_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bench {

inline constexpr std::size_t kBufferSize = 1024;

namespace car {
inline constexpr std::uint32_t kSerialNumber = 1234;
inline constexpr std::uint16_t kModelYear = 2013;
inline constexpr std::int32_t kSomeNumbers[5] = {1, 2, 3, 4, 5};
inline constexpr std::string_view kVehicleCode = "abcdef";
inline constexpr std::string_view kManufacturerCode = "123";
inline constexpr std::string_view kManufacturer = "MANUFACTURER";
inline constexpr std::string_view kModel = "MODEL";
struct Fuel {
  std::uint16_t speed;
  float mpg;
};
inline constexpr Fuel kFuel[3] = {{30, 35.9f}, {55, 49.0f}, {75, 40.0f}};
struct Accel {
  std::uint16_t mph;
  float seconds;
};
inline constexpr std::uint8_t kOctane[2] = {95, 99};
inline constexpr Accel kAccel[2][3] = {{{30, 4.0f}, {60, 7.5f}, {100, 12.2f}},
                                       {{30, 3.8f}, {60, 7.1f}, {100, 11.8f}}};
} // namespace car

namespace md {
inline constexpr std::uint64_t kTransactTime = 1234;
inline constexpr std::uint16_t kEventTimeDelta = 987;
inline constexpr std::uint64_t kTradeId = 1234;
inline constexpr std::uint64_t kSecurityId = 56789;
inline constexpr std::int64_t kPxMantissa = 50;
inline constexpr std::int32_t kSizeMantissa = 10;
inline constexpr std::uint16_t kNumberOfOrders = 1;
inline constexpr std::uint8_t kRptSeq = 1;
} // namespace md

// Each codec's functions: encode into buf (returns the length), decode buf (returns a checksum of
// every field read, so that nothing is optimised away).
struct Codec {
  const char *name;
  std::size_t (*encode_car)(std::uint8_t *buf, std::size_t cap);
  std::uint64_t (*decode_car)(const std::uint8_t *buf, std::size_t len);
  std::size_t (*encode_md)(std::uint8_t *buf, std::size_t cap);
  std::uint64_t (*decode_md)(const std::uint8_t *buf, std::size_t len);
  bool sbe; // writes SBE bytes (compared with the reference's)
};

} // namespace bench

#endif

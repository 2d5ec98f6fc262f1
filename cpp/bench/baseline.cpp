// The hand-written baseline: the same fields copied into and out of packed structs laid out as
// the SBE messages are (little-endian host), with memcpy, and no checks at all.
#include "bench_values.hpp"

#include <cstring>

namespace {

#pragma pack(push, 1)
struct Header {
  std::uint16_t blockLength, templateId, schemaId, version;
};
struct Dim {
  std::uint16_t blockLength, numInGroup;
};
struct CarBlock {
  std::uint32_t serialNumber;
  std::uint16_t modelYear;
  std::uint8_t available;
  char code;
  std::int32_t someNumbers[5];
  char vehicleCode[6];
  std::uint8_t extras;
  std::uint16_t capacity;
  std::uint8_t numCylinders;
  char manufacturerCode[3];
};
struct FuelEntry {
  std::uint16_t speed;
  float mpg;
};
struct PerfEntry {
  std::uint8_t octaneRating;
};
struct AccelEntry {
  std::uint16_t mph;
  float seconds;
};
struct MdBlock {
  std::uint64_t transactTime;
  std::uint16_t eventTimeDelta;
  std::uint8_t matchEventIndicator;
};
struct MdEntry {
  std::uint64_t tradeId, securityId;
  std::int64_t pxMantissa;
  std::int32_t sizeMantissa;
  std::uint16_t numberOfOrders;
  std::uint8_t mdUpdateAction, rptSeq;
  char aggressorSide;
};
#pragma pack(pop)
static_assert(sizeof(CarBlock) == 45 && sizeof(MdBlock) == 11 && sizeof(MdEntry) == 33);

template <class T> inline void put(std::uint8_t *&p, const T &v) {
  std::memcpy(p, &v, sizeof v);
  p += sizeof v;
}
template <class T> inline T get(const std::uint8_t *&p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

std::size_t encode_car(std::uint8_t *buf, std::size_t) {
  using namespace bench::car;
  std::uint8_t *p = buf;
  put(p, Header{45, 1, 1, 1});
  CarBlock b;
  b.serialNumber = kSerialNumber;
  b.modelYear = kModelYear;
  b.available = 1;
  b.code = 'A';
  std::memcpy(b.someNumbers, kSomeNumbers, sizeof b.someNumbers);
  std::memcpy(b.vehicleCode, kVehicleCode.data(), 6);
  b.extras = 0x6;
  b.capacity = 2000;
  b.numCylinders = 4;
  std::memcpy(b.manufacturerCode, kManufacturerCode.data(), 3);
  put(p, b);
  put(p, Dim{6, 3});
  for (const Fuel &f : kFuel) {
    put(p, FuelEntry{f.speed, f.mpg});
  }
  put(p, Dim{1, 2});
  for (int i = 0; i < 2; ++i) {
    put(p, PerfEntry{kOctane[i]});
    put(p, Dim{6, 3});
    for (const Accel &a : kAccel[i]) {
      put(p, AccelEntry{a.mph, a.seconds});
    }
  }
  for (std::string_view s : {kManufacturer, kModel}) {
    put(p, static_cast<std::uint32_t>(s.size()));
    std::memcpy(p, s.data(), s.size());
    p += s.size();
  }
  return static_cast<std::size_t>(p - buf);
}

std::uint64_t decode_car(const std::uint8_t *buf, std::size_t) {
  const std::uint8_t *p = buf;
  const Header h = get<Header>(p);
  const CarBlock b = get<CarBlock>(p);
  std::uint64_t sum = b.serialNumber;
  sum += b.modelYear;
  sum += b.available;
  sum += static_cast<std::uint64_t>(b.code);
  for (std::int32_t n : b.someNumbers) {
    sum += static_cast<std::uint64_t>(n);
  }
  sum += static_cast<std::uint64_t>(b.vehicleCode[0]);
  sum += ((b.extras >> 2) & 1u) + ((b.extras >> 1) & 1u) + (b.extras & 1u);
  sum += b.capacity;
  sum += b.numCylinders;
  sum += 9000;
  sum += static_cast<std::uint64_t>(b.manufacturerCode[0]);
  sum += 'P';
  p = buf + sizeof(Header) + h.blockLength;
  Dim d = get<Dim>(p);
  for (std::uint16_t i = 0; i < d.numInGroup; ++i) {
    const FuelEntry f = get<FuelEntry>(p);
    sum += f.speed;
    sum += static_cast<std::uint64_t>(f.mpg);
  }
  d = get<Dim>(p);
  for (std::uint16_t i = 0; i < d.numInGroup; ++i) {
    sum += get<PerfEntry>(p).octaneRating;
    const Dim ad = get<Dim>(p);
    for (std::uint16_t j = 0; j < ad.numInGroup; ++j) {
      const AccelEntry a = get<AccelEntry>(p);
      sum += a.mph;
      sum += static_cast<std::uint64_t>(a.seconds);
    }
  }
  for (int i = 0; i < 2; ++i) {
    const std::uint32_t n = get<std::uint32_t>(p);
    sum += n;
    p += n;
  }
  return sum + static_cast<std::uint64_t>(p - buf);
}

std::size_t encode_md(std::uint8_t *buf, std::size_t) {
  using namespace bench::md;
  std::uint8_t *p = buf;
  put(p, Header{11, 2, 1, 1});
  put(p, MdBlock{kTransactTime, kEventTimeDelta, '2'});
  put(p, Dim{33, 2});
  for (int i = 0; i < 2; ++i) {
    put(p, MdEntry{kTradeId, kSecurityId, kPxMantissa, kSizeMantissa, kNumberOfOrders, 0, kRptSeq,
                   0});
  }
  return static_cast<std::size_t>(p - buf);
}

std::uint64_t decode_md(const std::uint8_t *buf, std::size_t) {
  const std::uint8_t *p = buf;
  get<Header>(p);
  const MdBlock b = get<MdBlock>(p);
  std::uint64_t sum = b.transactTime;
  sum += b.eventTimeDelta;
  sum += b.matchEventIndicator;
  const Dim d = get<Dim>(p);
  for (std::uint16_t i = 0; i < d.numInGroup; ++i) {
    const MdEntry e = get<MdEntry>(p);
    sum += e.tradeId;
    sum += e.securityId;
    sum += static_cast<std::uint64_t>(e.pxMantissa);
    sum += static_cast<std::uint64_t>(e.sizeMantissa);
    sum += e.numberOfOrders;
    sum += e.mdUpdateAction;
    sum += e.rptSeq;
    sum += static_cast<std::uint64_t>(e.aggressorSide);
    sum += '2';
  }
  return sum + static_cast<std::uint64_t>(p - buf);
}

} // namespace

bench::Codec baseline_codec{"baseline", encode_car, decode_car, encode_md, decode_md, true};

// The hand-written baseline: the same fields copied into and out of packed structs laid over the
// buffer as the SBE messages are laid out (little-endian host), and no checks at all.
#include "bench_values.hpp"

#include <cstring>

namespace {

#pragma pack(push, 1)
struct __attribute__((may_alias)) Header {
  std::uint16_t blockLength, templateId, schemaId, version;
};
struct __attribute__((may_alias)) Dim {
  std::uint16_t blockLength, numInGroup;
};
struct __attribute__((may_alias)) CarBlock {
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
struct __attribute__((may_alias)) FuelEntry {
  std::uint16_t speed;
  float mpg;
};
struct __attribute__((may_alias)) PerfEntry {
  std::uint8_t octaneRating;
};
struct __attribute__((may_alias)) AccelEntry {
  std::uint16_t mph;
  float seconds;
};
struct __attribute__((may_alias)) MdBlock {
  std::uint64_t transactTime;
  std::uint16_t eventTimeDelta;
  std::uint8_t matchEventIndicator;
};
struct __attribute__((may_alias)) MdEntry {
  std::uint64_t tradeId, securityId;
  std::int64_t pxMantissa;
  std::int32_t sizeMantissa;
  std::uint16_t numberOfOrders;
  std::uint8_t mdUpdateAction, rptSeq;
  char aggressorSide;
};
struct __attribute__((may_alias)) Length {
  std::uint32_t n;
};
#pragma pack(pop)
static_assert(sizeof(CarBlock) == 41 && sizeof(MdBlock) == 11 && sizeof(MdEntry) == 33);

// The struct of type T at p, and p moved past it.
template <class T> inline T *at(std::uint8_t *&p) {
  T *v = reinterpret_cast<T *>(p);
  p += sizeof(T);
  return v;
}
template <class T> inline const T *at(const std::uint8_t *&p) {
  const T *v = reinterpret_cast<const T *>(p);
  p += sizeof(T);
  return v;
}

std::size_t encode_car(std::uint8_t *buf, std::size_t) {
  using namespace bench::car;
  std::uint8_t *p = buf;
  Header *h = at<Header>(p);
  h->blockLength = 41;
  h->templateId = 1;
  h->schemaId = 1;
  h->version = 1;
  CarBlock *b = at<CarBlock>(p);
  b->serialNumber = kSerialNumber;
  b->modelYear = kModelYear;
  b->available = 1;
  b->code = 'A';
  for (int i = 0; i < 5; ++i) {
    b->someNumbers[i] = kSomeNumbers[i];
  }
  std::memcpy(b->vehicleCode, kVehicleCode.data(), 6);
  b->extras = 0x6;
  b->capacity = 2000;
  b->numCylinders = 4;
  std::memcpy(b->manufacturerCode, kManufacturerCode.data(), 3);
  Dim *d = at<Dim>(p);
  d->blockLength = 6;
  d->numInGroup = 3;
  for (const Fuel &f : kFuel) {
    FuelEntry *e = at<FuelEntry>(p);
    e->speed = f.speed;
    e->mpg = f.mpg;
  }
  d = at<Dim>(p);
  d->blockLength = 1;
  d->numInGroup = 2;
  for (int i = 0; i < 2; ++i) {
    at<PerfEntry>(p)->octaneRating = kOctane[i];
    d = at<Dim>(p);
    d->blockLength = 6;
    d->numInGroup = 3;
    for (const Accel &a : kAccel[i]) {
      AccelEntry *e = at<AccelEntry>(p);
      e->mph = a.mph;
      e->seconds = a.seconds;
    }
  }
  at<Length>(p)->n = static_cast<std::uint32_t>(kManufacturer.size());
  std::memcpy(p, kManufacturer.data(), kManufacturer.size());
  p += kManufacturer.size();
  at<Length>(p)->n = static_cast<std::uint32_t>(kModel.size());
  std::memcpy(p, kModel.data(), kModel.size());
  p += kModel.size();
  return static_cast<std::size_t>(p - buf);
}

std::uint64_t decode_car(const std::uint8_t *buf, std::size_t) {
  const std::uint8_t *p = buf;
  const Header *h = at<Header>(p);
  const CarBlock *b = at<CarBlock>(p);
  std::uint64_t sum = b->serialNumber;
  sum += b->modelYear;
  sum += b->available;
  sum += static_cast<std::uint64_t>(b->code);
  for (int i = 0; i < 5; ++i) {
    sum += static_cast<std::uint64_t>(b->someNumbers[i]);
  }
  sum += static_cast<std::uint64_t>(b->vehicleCode[0]);
  sum += ((b->extras >> 2) & 1u) + ((b->extras >> 1) & 1u) + (b->extras & 1u);
  sum += b->capacity;
  sum += b->numCylinders;
  sum += 9000;
  sum += static_cast<std::uint64_t>(b->manufacturerCode[0]);
  sum += 'P';
  p = buf + sizeof(Header) + h->blockLength;
  const Dim *d = at<Dim>(p);
  for (std::uint16_t i = 0, n = d->numInGroup; i < n; ++i) {
    const FuelEntry *f = at<FuelEntry>(p);
    sum += f->speed;
    sum += static_cast<std::uint64_t>(f->mpg);
  }
  d = at<Dim>(p);
  for (std::uint16_t i = 0, n = d->numInGroup; i < n; ++i) {
    sum += at<PerfEntry>(p)->octaneRating;
    const Dim *ad = at<Dim>(p);
    for (std::uint16_t j = 0, m = ad->numInGroup; j < m; ++j) {
      const AccelEntry *a = at<AccelEntry>(p);
      sum += a->mph;
      sum += static_cast<std::uint64_t>(a->seconds);
    }
  }
  for (int i = 0; i < 2; ++i) {
    const std::uint32_t n = at<Length>(p)->n;
    sum += n;
    p += n;
  }
  return sum + static_cast<std::uint64_t>(p - buf);
}

std::size_t encode_md(std::uint8_t *buf, std::size_t) {
  using namespace bench::md;
  std::uint8_t *p = buf;
  Header *h = at<Header>(p);
  h->blockLength = 11;
  h->templateId = 2;
  h->schemaId = 1;
  h->version = 1;
  MdBlock *b = at<MdBlock>(p);
  b->transactTime = kTransactTime;
  b->eventTimeDelta = kEventTimeDelta;
  b->matchEventIndicator = '2';
  Dim *d = at<Dim>(p);
  d->blockLength = 33;
  d->numInGroup = 2;
  for (int i = 0; i < 2; ++i) {
    MdEntry *e = at<MdEntry>(p);
    e->tradeId = kTradeId;
    e->securityId = kSecurityId;
    e->pxMantissa = kPxMantissa;
    e->sizeMantissa = kSizeMantissa;
    e->numberOfOrders = kNumberOfOrders;
    e->mdUpdateAction = 0;
    e->rptSeq = kRptSeq;
  }
  return static_cast<std::size_t>(p - buf);
}

std::uint64_t decode_md(const std::uint8_t *buf, std::size_t) {
  const std::uint8_t *p = buf;
  at<Header>(p);
  const MdBlock *b = at<MdBlock>(p);
  std::uint64_t sum = b->transactTime;
  sum += b->eventTimeDelta;
  sum += b->matchEventIndicator;
  const Dim *d = at<Dim>(p);
  for (std::uint16_t i = 0, n = d->numInGroup; i < n; ++i) {
    const MdEntry *e = at<MdEntry>(p);
    sum += e->tradeId;
    sum += e->securityId;
    sum += static_cast<std::uint64_t>(e->pxMantissa);
    sum += static_cast<std::uint64_t>(e->sizeMantissa);
    sum += e->numberOfOrders;
    sum += e->mdUpdateAction;
    sum += e->rptSeq;
    sum += static_cast<std::uint64_t>(e->aggressorSide);
    sum += '2';
  }
  return sum + static_cast<std::uint64_t>(p - buf);
}

} // namespace

bench::Codec baseline_codec{"baseline", encode_car, decode_car, encode_md, decode_md, true};

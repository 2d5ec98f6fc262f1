// Runs one codec's operation a fixed number of times, for instruction counts under callgrind
// (scripts/count-cpp.sh): a deterministic measure of the benchmark's code, which the shared
// machine's timings are not. Usage: codec_count CODEC OP N (CODEC: baseline, sable_nocheck,
// sable; OP: car/encode, car/decode, md/encode, md/decode).
#include "bench_values.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

extern bench::Codec sable_checked_codec;
extern bench::Codec sable_unchecked_codec;
extern bench::Codec baseline_codec;

namespace {

alignas(64) std::uint8_t buf[bench::kBufferSize];

// The measured loop (callgrind collects only inside it: --toggle-collect=sable_count_loop).
extern "C" __attribute__((noinline)) std::uint64_t sable_count_loop(const bench::Codec &c,
                                                                    const char *op, long n,
                                                                    std::size_t len) {
  std::uint64_t sum = 0;
  const bool car = std::strncmp(op, "car/", 4) == 0;
  const bool encode = std::strcmp(op + (car ? 4 : 3), "encode") == 0;
  for (long i = 0; i < n; ++i) {
    if (encode) {
      sum += car ? c.encode_car(buf, sizeof buf) : c.encode_md(buf, sizeof buf);
    } else {
      sum += car ? c.decode_car(buf, len) : c.decode_md(buf, len);
    }
    asm volatile("" ::: "memory");
  }
  return sum;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: codec_count CODEC OP N\n");
    return 2;
  }
  bench::Codec *codecs[] = {&baseline_codec, &sable_unchecked_codec, &sable_checked_codec};
  const bench::Codec *c = nullptr;
  for (const bench::Codec *k : codecs) {
    if (std::strcmp(k->name, argv[1]) == 0) {
      c = k;
    }
  }
  if (c == nullptr) {
    std::fprintf(stderr, "codec_count: no codec %s\n", argv[1]);
    return 2;
  }
  const bool car = std::strncmp(argv[2], "car/", 4) == 0;
  const std::size_t len = car ? c->encode_car(buf, sizeof buf) : c->encode_md(buf, sizeof buf);
  const std::uint64_t sum = sable_count_loop(*c, argv[2], std::atol(argv[3]), len);
  std::printf("%llu\n", static_cast<unsigned long long>(sum));
  return sum != 0 ? 0 : 1;
}

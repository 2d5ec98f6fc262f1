// Car and MarketData encode and decode with every codec, in one Google Benchmark run. Before
// timing, every SBE codec's bytes are checked against the reference implementation's, and every
// codec's decoder against its own encoder's output.
#include "bench_values.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern bench::Codec sable_checked_codec;
extern bench::Codec sable_unchecked_codec;
extern bench::Codec reference_codec;
extern bench::Codec baseline_codec;
extern bench::Codec protobuf_codec;
extern bench::Codec flatbuffers_codec;

namespace {

using Encode = std::size_t (*)(std::uint8_t *, std::size_t);
using Decode = std::uint64_t (*)(const std::uint8_t *, std::size_t);

struct alignas(64) Buffer {
  std::uint8_t bytes[bench::kBufferSize];
};

void run_encode(benchmark::State &state, Encode encode) {
  Buffer buf{};
  std::size_t n = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(buf.bytes);
    n = encode(buf.bytes, sizeof buf.bytes);
    benchmark::DoNotOptimize(n);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void run_decode(benchmark::State &state, Encode encode, Decode decode) {
  Buffer buf{};
  const std::size_t n = encode(buf.bytes, sizeof buf.bytes);
  for (auto _ : state) {
    benchmark::DoNotOptimize(buf.bytes);
    std::uint64_t sum = decode(buf.bytes, n);
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

std::vector<std::uint8_t> bytes_of(Encode encode) {
  Buffer buf{};
  const std::size_t n = encode(buf.bytes, sizeof buf.bytes);
  return std::vector<std::uint8_t>(buf.bytes, buf.bytes + n);
}

void check(bool ok, const char *what, const char *codec) {
  if (!ok) {
    std::fprintf(stderr, "bench: %s: %s\n", codec, what);
    std::exit(1);
  }
}

} // namespace

int main(int argc, char **argv) {
  bench::Codec *codecs[] = {&baseline_codec,  &sable_unchecked_codec, &sable_checked_codec,
                            &reference_codec, &protobuf_codec,        &flatbuffers_codec};
  const auto ref_car = bytes_of(reference_codec.encode_car);
  const auto ref_md = bytes_of(reference_codec.encode_md);
  for (bench::Codec *c : codecs) {
    const auto car = bytes_of(c->encode_car);
    const auto md = bytes_of(c->encode_md);
    check(!car.empty() && !md.empty(), "encoding failed", c->name);
    if (c->sbe) {
      check(car == ref_car, "Car bytes differ from the reference's", c->name);
      check(md == ref_md, "MarketData bytes differ from the reference's", c->name);
    }
    check(c->decode_car(car.data(), car.size()) != 0, "Car decoding failed", c->name);
    check(c->decode_md(md.data(), md.size()) != 0, "MarketData decoding failed", c->name);
    std::fprintf(stderr, "bench: %-14s Car %3zu bytes, MarketData %3zu bytes%s\n", c->name,
                 car.size(), md.size(), c->sbe ? " (same bytes as the reference)" : "");
  }
  for (bench::Codec *c : codecs) {
    std::string n = c->name;
    benchmark::RegisterBenchmark((n + "/car/encode").c_str(), run_encode, c->encode_car);
    benchmark::RegisterBenchmark((n + "/car/decode").c_str(), run_decode, c->encode_car,
                                 c->decode_car);
    benchmark::RegisterBenchmark((n + "/md/encode").c_str(), run_encode, c->encode_md);
    benchmark::RegisterBenchmark((n + "/md/decode").c_str(), run_decode, c->encode_md,
                                 c->decode_md);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

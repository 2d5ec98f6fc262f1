#define SABLE_NO_BOUNDS_CHECK
#include "sable_bench_unchecked_car.hpp"
#include "sable_bench_unchecked_md.hpp"
#define SABLE_BENCH_NS sable_bench::unchecked
#define SABLE_BENCH_NAME "sable_nocheck"
#define SABLE_BENCH_CODEC sable_unchecked_codec
#include "sable_codec.inc"

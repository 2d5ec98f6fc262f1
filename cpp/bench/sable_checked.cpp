#include "sable_bench_checked_car.hpp"
#include "sable_bench_checked_md.hpp"
#define SABLE_BENCH_NS sable_bench::checked
#define SABLE_BENCH_NAME "sable"
#define SABLE_BENCH_CODEC sable_checked_codec
#include "sable_codec.inc"

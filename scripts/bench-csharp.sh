#!/usr/bin/env bash
# Benchmark of Sable's generated C# codecs (csharp/bench/Bench.cs): Car and MarketData (the
# reference's benchmark messages, bench-car.xml and bench-fix-message-samples.xml), encode and
# decode, against a hand-written baseline reading and writing the same fields with
# BinaryPrimitives over the same buffer, on both runtimes one after the other: .NET Core 3.1's
# CoreCLR (RyuJIT, tiered compilation as by default) and mono 6.8 (scripts/lib/csharp.sh). Prints,
# for each runtime, ns/op and the ratio Sable/baseline (docs/benchmarks.md, "C# codecs").
#
# Usage: scripts/bench-csharp.sh [seconds per measurement, default 3]. Run it under
# `flock /tmp/bench.lock`. The programs stay in $CARGO_TARGET_DIR/bench-csharp/bench-RUNTIME.dll
# (for `--count NAME N`, Bench.cs; scripts/count-csharp.sh). CSHARP_BENCH_PREPARE_ONLY=1 builds
# them and runs nothing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
. scripts/lib/csharp.sh
csharp_install_mono
CARGO_TARGET_DIR="$target" cargo build --quiet --release -p sable-cli
work="$target/bench-csharp"
rm -rf "$work"
mkdir -p "$work"
"$target/release/sable" generate --quiet --lang csharp --package sable.bench.car --output "$work" ../shared/schemas/valid/bench-car.xml
"$target/release/sable" generate --quiet --lang csharp --package sable.bench.md --output "$work" ../shared/schemas/valid/bench-fix-message-samples.xml
for runtime in coreclr mono; do
    csharp_compile "$runtime" "$work/bench-$runtime.dll" -optimize+ "$work"/*.cs csharp/bench/Bench.cs
done
[ -z "${CSHARP_BENCH_PREPARE_ONLY:-}" ] || exit 0
for runtime in coreclr mono; do
    case "$runtime" in
        coreclr) echo "== CoreCLR (.NET Core $(basename "$(csharp_framework)"), RyuJIT; COMPlus_TieredCompilation=${COMPlus_TieredCompilation:-default})" ;;
        mono) echo "== mono $(mono --version | sed -n 's/.*version \([0-9.]*\).*/\1/p;q')" ;;
    esac
    csharp_run "$runtime" "$work/bench-$runtime.dll" "$@"
done

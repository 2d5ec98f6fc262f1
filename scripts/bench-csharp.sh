#!/usr/bin/env bash
# Benchmark of Sable's generated C# codecs (csharp/bench/Bench.cs): Car and MarketData (the
# reference's benchmark messages, bench-car.xml and bench-fix-message-samples.xml), encode and
# decode, against a hand-written baseline reading and writing the same fields with
# BinaryPrimitives over the same buffer, in one mono run. Prints ns/op and the ratio
# Sable/baseline (docs/benchmarks.md, "C# codecs").
#
# Usage: scripts/bench-csharp.sh [seconds per measurement, default 3]. Needs mono-mcs
# (scripts/csharp-tests.sh installs it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
CARGO_TARGET_DIR="$target" cargo build --quiet --release -p sable-cli
work="$target/bench-csharp"
rm -rf "$work"
mkdir -p "$work"
"$target/release/sable" generate --quiet --lang csharp --package sable.bench.car --output "$work" ../shared/schemas/valid/bench-car.xml
"$target/release/sable" generate --quiet --lang csharp --package sable.bench.md --output "$work" ../shared/schemas/valid/bench-fix-message-samples.xml
mcs -langversion:7.2 -warnaserror -nologo -optimize+ -r:System.Numerics -out:"$work/bench.exe" "$work"/*.cs csharp/bench/Bench.cs
mono "$work/bench.exe" "$@"

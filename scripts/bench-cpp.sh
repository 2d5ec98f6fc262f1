#!/usr/bin/env bash
# The C++ codec benchmark: Car and MarketData encode and decode, in one Google Benchmark run, with
# Sable's generated codecs (bounds checks on, and off with SABLE_NO_BOUNDS_CHECK), the reference
# implementation's generated C++ codecs (SBE_NO_BOUNDS_CHECK), protobuf, FlatBuffers and a
# hand-written packed-struct baseline; then a table of ns/op with Sable's ratios to the baseline
# and the reference. Needs scripts/setup-cpp.sh's packages and the reference jar (fetched by
# scripts/fetch-reference.sh when missing). Extra arguments go to the benchmark (e.g.
# --benchmark_filter=car).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
jar="${SABLE_REFERENCE_JAR:-$root/.cache/reference/sbe-all-1.32.1.jar}"
[ -f "$jar" ] || jar="$HOME/.m2/repository/uk/co/real-logic/sbe-all/1.32.1/sbe-all-1.32.1.jar"
[ -f "$jar" ] || { bash scripts/fetch-reference.sh; jar="$root/.cache/reference/sbe-all-1.32.1.jar"; }

cargo build -q --release -p sable-cli
dir="$CARGO_TARGET_DIR/cpp/build-bench"
mkdir -p "$CARGO_TARGET_DIR/cpp" # the configure log goes next to the build directory
cmake -S cpp -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="${CXX:-g++}" \
    -DSABLE_EXECUTABLE="$CARGO_TARGET_DIR/release/sable" -DSABLE_BENCH=ON \
    -DSABLE_REFERENCE_JAR="$jar" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log" >&2; exit 1; }
cmake --build "$dir" -j "${JOBS:-2}" --target codec_bench >"$dir.build.log" 2>&1 ||
    { tail -50 "$dir.build.log" >&2; exit 1; }
"$dir/bench/codec_bench" --benchmark_repetitions="${REPETITIONS:-3}" \
    --benchmark_report_aggregates_only=true --benchmark_min_time="${MIN_TIME:-0.5}" \
    --benchmark_format=json --benchmark_out="$dir/results.json" \
    --benchmark_out_format=json "$@" >/dev/null
python3 - "$dir/results.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["benchmarks"]
ns = {}
for r in runs:
    if r.get("aggregate_name") == "median":
        ns[r["run_name"]] = r["cpu_time"] * {"ns": 1, "us": 1e3, "ms": 1e6}[r["time_unit"]]
codecs = ["baseline", "sable_nocheck", "sable", "reference", "protobuf", "flatbuffers"]
ops = ["car/encode", "car/decode", "md/encode", "md/decode"]
print("median CPU ns/op (%s)" % ", ".join(ops))
print("| codec | " + " | ".join(ops) + " |")
print("| --- |" + " --- |" * len(ops))
for c in codecs:
    print("| %s | " % c + " | ".join("%.1f" % ns.get(c + "/" + o, float("nan")) for o in ops) + " |")
print()
print("| ratio | " + " | ".join(ops) + " |")
print("| --- |" + " --- |" * len(ops))
for c, base in [("sable_nocheck", "baseline"), ("sable", "baseline"), ("sable_nocheck", "reference"), ("sable", "reference")]:
    print("| %s / %s | " % (c, base) + " | ".join("%.2f" % (ns[c + "/" + o] / ns[base + "/" + o]) for o in ops) + " |")
PY

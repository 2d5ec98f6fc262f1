#!/usr/bin/env bash
# The Python codecs' benchmark (docs/benchmarks.md, "Python codecs"): Car and MarketData encode
# and decode, reading every field, with Sable's generated Python, hand-written struct calls,
# protobuf's Python package and the `sbe` package from PyPI (python/bench/bench.py), in one run.
#
# Usage: scripts/bench-python.sh [SECONDS_PER_CASE]   (default 2)
#        scripts/bench-python.sh --count [--cycles] [CASE...]  instructions (or a cycle estimate)
#                                                     per message, by callgrind
#                                                     (python/bench/count.py; needs valgrind)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
venv="$(bash scripts/python-env.sh)"
cargo build --quiet --release -p sable-cli
out="$CARGO_TARGET_DIR/bench-python"
rm -rf "$out" && mkdir -p "$out"
car="$root/../shared/schemas/valid/bench-car.xml"
fix="$root/../shared/schemas/valid/bench-fix-message-samples.xml"
"$CARGO_TARGET_DIR/release/sable" generate --quiet --lang python --package bench_car --output "$out" "$car"
"$CARGO_TARGET_DIR/release/sable" generate --quiet --lang python --package bench_fix --output "$out" "$fix"
if [ "${1:-}" = --count ]; then
    shift
    exec "$venv/bin/python" -B python/bench/count.py "$out" "$car" "$fix" "$@"
fi
"$venv/bin/python" -B python/bench/bench.py "$out" "$car" "$fix" "$@"

#!/usr/bin/env bash
# Instructions per operation of the TypeScript benchmark's cases (typescript/bench/bench.ts, built
# by scripts/bench-typescript.sh), under valgrind's callgrind: deterministic, so comparable across
# commits on a busy machine where timings are not. Each case runs warmed up in
# `node --single-threaded` (no concurrent compiler or collector threads: the same code each run)
# twice, N1 and N2 times; the difference of the two totals over N2 - N1 is its instructions per
# operation. Needs valgrind; about a minute per case.
#
#   scripts/count-typescript.sh ["MESSAGE CASE" ...]   (default: the Sable and baseline cases)
#   N1=10000 N2=210000 (a run's total varies by a few million instructions from run to run, so the
#   difference needs some 200,000 operations to be within about 20 an operation); SKIP_BUILD=1
#   reuses target/bench-typescript.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
command -v valgrind >/dev/null || { echo "count-typescript: valgrind is not installed" >&2; exit 1; }
work="$CARGO_TARGET_DIR/bench-typescript"
[ -n "${SKIP_BUILD:-}" ] || BUILD_ONLY=1 bash scripts/bench-typescript.sh >&2
n1="${N1:-10000}"
n2="${N2:-210000}"
if [ $# -eq 0 ]; then
    set -- "MarketData encode Sable" "MarketData encode DataView baseline" \
        "MarketData decode Sable" "MarketData decode DataView baseline" \
        "Car encode Sable" "Car encode DataView baseline" "Car decode Sable" "Car decode DataView baseline"
fi
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --cache-sim=no --branch-sim=no \
        node --single-threaded "$work/out/bench.js" --count "$1" "$2" 2>&1 |
        grep -oE 'refs: +[0-9,]+' | tr -dc 0-9
}
echo "| case | instructions per op |"
echo "| --- | ---: |"
for c in "$@"; do
    a="$(count "$c" "$n1")"
    b="$(count "$c" "$n2")"
    echo "| $c | $(( (b - a) / (n2 - n1) )) |"
done

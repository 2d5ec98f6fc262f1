#!/usr/bin/env bash
# Instruction counts of the Go codecs' benchmark (scripts/bench-go.sh's Car and MarketData encode
# and decode, Sable and the hand-written encoding/binary baseline), under valgrind's callgrind:
# deterministic, so comparable across commits on a busy machine where timings are not
# (docs/benchmarks.md, "Go codecs"). Each count is the whole test binary's instructions at
# N1 and at N2 iterations of one sub-benchmark (-test.benchtime=Nx), differenced, over N1-N2:
# the harness's own start-up cancels out. (callgrind's --toggle-collect loses Go's goroutine
# stack switches, so it cannot isolate the benchmark's closure.) Prints instructions per
# operation. Needs valgrind; prepares the module with scripts/bench-go.sh.
#
#   scripts/count-go.sh [REGEX]     only the sub-benchmarks matching REGEX (e.g. 'sable'), all
#                                   eight by default; N1=100000 N2=20000 by default
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$PATH:/usr/local/go/bin"
command -v valgrind >/dev/null || { echo "count-go: no valgrind (apt-get install valgrind)" >&2; exit 1; }
n1="${N1:-100000}"
n2="${N2:-20000}"
filter="${1:-.}"
GO_BENCH_PREPARE_ONLY=1 bash scripts/bench-go.sh >/dev/null
u="${CARGO_TARGET_DIR:-$root/target}/go-tests/unit"
(cd "$u" && go test -c -o bench.test ./bench)
count() { # benchmark, iterations -> total instructions
    local out="$u/cg.$2.out"
    GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$u/bench.test" -test.run '^$' -test.bench "^$1\$" -test.benchtime "${2}x" >/dev/null 2>"$u/cg.log"
    sed -n 's/^summary: //p; s/^totals: //p' "$out" | head -1 | awk '{print $1}'
}
printf '| instructions per op | sable | binary |\n| --- | ---: | ---: |\n'
for b in CarEncode CarDecode MarketDataEncode MarketDataDecode; do
    row="| $b |"
    for codec in sable binary; do
        if [[ "$codec" =~ $filter ]]; then
            a=$(count "Benchmark$b/$codec" "$n1")
            z=$(count "Benchmark$b/$codec" "$n2")
            row="$row $(awk -v a="$a" -v z="$z" -v d="$((n1 - n2))" 'BEGIN { printf "%.0f", (a - z) / d }') |"
        else
            row="$row |"
        fi
    done
    echo "$row"
done

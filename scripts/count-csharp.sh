#!/usr/bin/env bash
# Instruction counts of the C# codecs' benchmark (scripts/bench-csharp.sh's Car and MarketData
# encode and decode, Sable and the BinaryPrimitives baseline) under valgrind's callgrind, on each
# runtime: deterministic, so comparable across commits on a busy machine where timings are not
# (docs/benchmarks.md, "C# codecs"). Each count runs `bench-RUNTIME.dll --count NAME N` (Bench.cs:
# one benchmark N times, untimed) at N1 and N2 iterations, differenced, over N1-N2: start-up and
# the JIT's work cancel out. CoreCLR runs with tiered compilation off (COMPlus_TieredCompilation=0;
# 3.1 reads COMPlus_ variables, not DOTNET_ ones): every method compiled once, fully optimized, as
# tier 1 would (tiering's timer would make the counts vary); and under --smc-check=all-non-file
# (code written at run time). Needs valgrind.
#
#   scripts/count-csharp.sh [RUNTIME-REGEX [NAME-REGEX]]   e.g. `coreclr decode`; all by default;
#                                                         N1=22000 N2=2000 by default
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. scripts/lib/csharp.sh
command -v valgrind >/dev/null || { echo "count-csharp: no valgrind (apt-get install valgrind)" >&2; exit 1; }
n1="${N1:-22000}"
n2="${N2:-2000}"
runtimes="${1:-.}"
names="${2:-.}"
CSHARP_BENCH_PREPARE_ONLY=1 bash scripts/bench-csharp.sh
work="${CARGO_TARGET_DIR:-$root/target}/bench-csharp"
count() { # runtime, benchmark, iterations -> total instructions
    local out="$work/cg.$1.$3.out"
    COMPlus_TieredCompilation=0 valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file="$out" \
        "$(csharp_runner "$1")" "$work/bench-$1.dll" --count "$2" "$3" >/dev/null 2>"$work/cg.log"
    sed -n 's/^summary: //p; s/^totals: //p' "$out" | head -1 | awk '{print $1}'
}
printf '| instructions per op | runtime | sable | baseline | ratio |\n| --- | --- | ---: | ---: | ---: |\n'
per_op() { # runtime, benchmark -> instructions per operation
    local a z
    a=$(count "$1" "$2" "$n1")
    z=$(count "$1" "$2" "$n2")
    awk -v a="$a" -v z="$z" -v d="$((n1 - n2))" 'BEGIN { printf "%.0f", (a - z) / d }'
}
declare -A baseline=() # a fluent row shares its baseline with the statements' row: counted once
for runtime in coreclr mono; do
    [[ "$runtime" =~ $runtimes ]] || continue
    for b in car/encode car/encode/fluent car/decode md/encode md/encode/fluent md/decode; do
        [[ "$b" =~ $names ]] || continue
        base="${b%/fluent}/baseline"
        [ -n "${baseline[$runtime:$base]:-}" ] || baseline[$runtime:$base]="$(per_op "$runtime" "$base")"
        row=("$(per_op "$runtime" "$b")" "${baseline[$runtime:$base]}")
        echo "| $b | $runtime | ${row[0]} | ${row[1]} | $(awk -v s="${row[0]}" -v b="${row[1]}" 'BEGIN { printf "%.2f", s / b }') |"
    done
done

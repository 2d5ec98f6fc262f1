#!/usr/bin/env bash
# Instructions per operation of the Java benchmarks' codecs (java/benchmarks, built by
# scripts/bench-java.sh), under valgrind's callgrind: deterministic enough to compare code
# versions on a busy machine where JMH's timings are not. Each case runs in a JDK 25 with
# compilation in the foreground (-Xbatch, two compiler threads: the same compiled code each run)
# twice, N1 and N2 times (dev.sable.bench.Count); the difference of the two totals over N2 - N1 is
# its instructions per operation (run to run, about +-1). The JVM options are the benchmarks'
# (Agrona's bounds checks off). Needs valgrind; about a minute per case.
#
#   scripts/count-java.sh [CODEC/MESSAGE/OP ...]   CODEC: heap offheap agrona reference protobuf,
#                                                 MESSAGE: car marketdata, OP: encode decode
#                                                 (default: heap, agrona and reference, all four)
#   N1=200000 N2=1200000; SKIP_BUILD=1 reuses java/benchmarks/target/benchmarks.jar.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
command -v valgrind >/dev/null || { echo "count-java: valgrind is not installed" >&2; exit 1; }
[ -n "${SKIP_BUILD:-}" ] || BUILD_ONLY=1 bash scripts/bench-java.sh >&2
jar="java/benchmarks/target/benchmarks.jar"
[ -s "$jar" ] || { echo "count-java: no $jar (run without SKIP_BUILD)" >&2; exit 1; }
java_home="$(scripts/jdk.sh 25)"
n1="${N1:-200000}"
n2="${N2:-1200000}"
if [ $# -eq 0 ]; then
    for message in marketdata car; do
        for op in encode decode; do
            for codec in reference agrona heap; do
                set -- "$@" "$codec/$message/$op"
            done
        done
    done
fi
count() {
    # --smc-check: the JIT writes code where valgrind must see it change.
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --cache-sim=no --branch-sim=no \
        --smc-check=all-non-file \
        "$java_home/bin/java" -Xbatch -XX:CICompilerCount=2 -Dagrona.disable.bounds.checks=true \
        --sun-misc-unsafe-memory-access=allow -cp "$jar" dev.sable.bench.Count "$1" "$2" 2>&1 >/dev/null |
        grep -oE 'refs: +[0-9,]+' | tr -dc 0-9
}
echo "| case | instructions per op |"
echo "| --- | ---: |"
for c in "$@"; do
    a="$(count "$c" "$n1")"
    b="$(count "$c" "$n2")"
    [ -n "$a" ] && [ -n "$b" ] || { echo "count-java: $c did not run (try: java -cp $jar dev.sable.bench.Count $c 10)" >&2; exit 1; }
    echo "| $c | $(( (b - a) / (n2 - n1) )) |"
done

#!/usr/bin/env bash
# JMH benchmarks of Sable's generated Java codecs against the reference implementation's (sbe-all
# 1.32.1) and protobuf-java: Car and MarketDataIncrementalRefreshTrades, encode and decode, the
# messages of the reference's own benchmarks (java/benchmarks, docs/benchmarks.md). One JMH
# run covers Sable over heap memory (MemorySegment.ofArray) and off-heap memory (an Arena), Sable's
# Agrona flavour typed on UnsafeBuffer (--java-buffer agrona-unsafe) with Agrona's bounds checks
# off and on, the reference over UnsafeBuffer with bounds checks off (as its benchmarks run) and
# protobuf-java; then a table of ns/op and ratios is printed.
#
#   scripts/bench-java.sh                         the full configuration (see java/benchmarks)
#   scripts/bench-java.sh -f 1 -wi 3 -i 5         any JMH options instead (a short run)
#   scripts/bench-java.sh -prof gc 'Car.*sable'   profilers, benchmark filters
#   BUILD_ONLY=1 scripts/bench-java.sh            build the jar only (scripts/count-java.sh)
#
# Generates the codecs (scripts/java-interop.sh --generate-only), builds the shaded jar
# java/benchmarks/target/benchmarks.jar with Maven, runs it with a JDK 25 (scripts/jdk.sh), keeps
# JMH's results in java/benchmarks/target/jmh-result.csv. Environment as scripts/java-interop.sh.
set -euo pipefail

die() {
    echo "bench-java: $*" >&2
    exit 1
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/setup.sh
JAVA_HOME="$(scripts/jdk.sh 25)" || die "a JDK 25 is needed"
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
# Maven's own libraries call sun.misc.Unsafe; JDK 25 would warn about it on every run.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"

bash scripts/java-interop.sh --generate-only
# A fresh compile (not `mvn clean`, which would remove the sources just generated): no class of a
# removed source, no stale JMH benchmark list.
rm -rf java/benchmarks/target/classes java/benchmarks/target/generated-sources/annotations \
    java/benchmarks/target/generated-sources/protobuf
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! mvn -q -B -ntp -f java/benchmarks/pom.xml package >"$log" 2>&1; then
    cat "$log" >&2
    die "building the benchmarks failed"
fi
jar="java/benchmarks/target/benchmarks.jar"
[ -s "$jar" ] || die "Maven did not build $jar"
[ -z "${BUILD_ONLY:-}" ] || exit 0

result="java/benchmarks/target/jmh-result.csv"
rm -f "$result"
echo "bench-java: java -jar $jar $* -rf csv -rff $result" >&2
java -jar "$jar" "$@" -rf csv -rff "$result"
[ -s "$result" ] || die "JMH wrote no results (a filter that matched nothing?)"

# The table: one row per message and operation, ns/op of each codec, then each Sable flavour's
# time over the reference's (below 1: Sable is faster), then throughput over protobuf-java's
# (the reference's own ratio last, for comparison).
echo
awk -F, '
    NR == 1 { next }
    {
        name = $1; gsub(/"/, "", name)
        n = split(name, parts, ".")
        class = parts[n - 1]; method = parts[n]
        sub(/Bench$/, "", class)
        op = method ~ /Encode$/ ? "encode" : "decode"
        impl = method; sub(/(Encode|Decode)$/, "", impl)
        score[class " " op, impl] = $5
        rows[class " " op] = 1
    }
    function cell(v) { return v == "" ? sprintf("%9s", "-") : sprintf("%9.1f", v) }
    function ratio(a, b) { return (a == "" || b == "" || b == 0) ? sprintf("%8s", "-") : sprintf("%8.2f", a / b) }
    END {
        split("sableHeap,sableOffHeap,sableAgrona,sableAgronaChecked,reference,protobuf", impls, ",")
        split("heap,off-heap,agrona,agr+chk,ref,protobuf", short, ",")
        printf "%-18s %59s | %35s | %44s\n", "", "ns/op", "time over the reference", "throughput over protobuf"
        printf "%-18s", ""
        for (j = 1; j <= 6; j++) printf " %9s", short[j]
        printf " |"
        for (j = 1; j <= 4; j++) printf " %8s", short[j]
        printf " |"
        for (j = 1; j <= 5; j++) printf " %8s", short[j]
        printf "\n"
        split("Car encode,Car decode,MarketData encode,MarketData decode", order, ",")
        for (i = 1; i <= 4; i++) {
            r = order[i]
            if (!(r in rows)) continue
            printf "%-18s", r
            for (j = 1; j <= 6; j++) printf " %s", cell(score[r, impls[j]])
            printf " |"
            for (j = 1; j <= 4; j++) printf " %s", ratio(score[r, impls[j]], score[r, "reference"])
            printf " |"
            for (j = 1; j <= 5; j++) printf " %s", ratio(score[r, "protobuf"], score[r, impls[j]])
            printf "\n"
        }
        for (i = 1; i <= 4; i++) {
            r = order[i]; v = score[r, "sableOffHeapSplit"]; o = score[r, "sableOffHeap"]; ref = score[r, "reference"]
            if (v == "" || o == "" || ref == "") continue
            printf "%s, off-heap split into three methods: %.1f ns/op, %.2f of the unsplit, %.2f of the reference\n", \
                r, v, v / o, v / ref
        }
        print ""
        print "heap, off-heap: Sable over MemorySegments; agrona, agr+chk: Sable'"'"'s Agrona flavour typed on"
        print "UnsafeBuffer (--java-buffer agrona-unsafe, as the reference'"'"'s benchmark codecs), Agrona'"'"'s bounds"
        print "checks off and on; ref: the reference (checks off)."
        print "Targets: time over the reference at most 1.05 (agrona) and 1.25 (heap); throughput over"
        print "protobuf-java at least the reference'"'"'s own (the last column)."
    }' "$result"

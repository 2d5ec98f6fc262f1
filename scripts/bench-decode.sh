#!/usr/bin/env bash
# Decode-to-JSON throughput, Sable against the reference's JsonPrinter, on the same files in
# the same run: 100,000 Car messages (conformance vector "car": the reference benchmarks' Car)
# and 100,000 MarketData messages ("marketdata-two-entries": MarketDataIncrementalRefresh with 2
# entries; the reference's JsonPrinter fails with an IndexOutOfBoundsException on
# MarketDataIncrementalRefreshTrades, whose constant enum field it reads past the buffer's end).
# One thread each; prints messages/s, MB/s and the ratio.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SECONDS_PER_RUN="${SECONDS_PER_RUN:-5}"
COUNT="${COUNT:-100000}"
bash scripts/setup.sh
bash scripts/fetch-reference.sh
# With the feature `jit` (the messages compiled to machine code, as `sable decode` prints them);
# JIT=0 measures the interpreter alone.
if [ "${JIT:-1}" = 0 ]; then
    cargo build -q --release -p sable-otf --example json_throughput
else
    cargo build -q --release -p sable-otf --example json_throughput --features jit
fi
cp="$(pwd)/.cache/reference/sbe-all-1.32.1.jar:$(pwd)/.cache/reference/classes"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

run() {
    local label="$1" schema="$2" vectors="$3" name="$4"
    local file="$dir/$name.bin"
    java -cp "$cp" JsonPrinterBench "$schema" --vector "$vectors" "$name" --count "$COUNT" --write "$file" >/dev/null
    local reference sable
    reference="$(java -cp "$cp" JsonPrinterBench "$schema" "$file" --warmup 3 --time "$SECONDS_PER_RUN")"
    sable="$("${CARGO_TARGET_DIR:-target}/release/examples/json_throughput" "$schema" "$file" "$SECONDS_PER_RUN")"
    echo "$label"
    echo "  $reference"
    echo "  $sable"
    awk -v r="$reference" -v s="$sable" 'BEGIN {
        match(r, /[0-9]+ messages\/s/); rr = substr(r, RSTART, RLENGTH) + 0
        match(s, /[0-9]+ messages\/s/); ss = substr(s, RSTART, RLENGTH) + 0
        printf "  sable / reference = %.1fx\n", ss / rr }'
}

run "Car (example-schema.xml)" ../shared/schemas/valid/example-schema.xml conformance/vectors/car.jsonl car
run "MarketData (bench-fix-message-samples.xml)" ../shared/schemas/valid/bench-fix-message-samples.xml \
    conformance/vectors/marketdata.jsonl marketdata-two-entries

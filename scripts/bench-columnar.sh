#!/usr/bin/env bash
# The columnar output's benchmark (docs/benchmarks.md, "Columnar output"), in one run, on one
# synthetic CME MDP 3.0 capture of MESSAGES messages (default 1,000,000; examples/mdp3.xml's
# book, order book, trade summary and security status messages in UDP packets with MDP 3.0's
# packet header, written by `cargo run --example mdp3_capture` of sable-columnar, the same
# bytes every time, into target/bench-columnar/):
#
# - `sable decode --pcap --framing mdp3 --format parquet` (and `--format arrow`) on one core
#   (`taskset -c 0`; it runs one thread), best of RUNS, wall and CPU time;
# - the `sable` Python package on the Rust engine: `sable.read_tables` of the capture, then
#   `table.to_pandas()` of each table;
# - the `sbe` package from PyPI (pinned in scripts/pyengine-env.sh): each message decoded to a
#   dict, then `pandas.DataFrame` per template, on the first SBE_MESSAGES messages (default
#   20,000; it is slow), scaled per message (python/bench/columnar.py).
#
# Prints messages/s and MB/s (10^6 bytes of capture per second) per path, by wall time and by
# CPU time (the figure to compare when other work shares the machine), and the load average.
#
# Usage: scripts/bench-columnar.sh [MESSAGES]   (env: RUNS=3, SBE_MESSAGES=20000)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
messages="${1:-1000000}"
runs="${RUNS:-3}"
sbe_messages="${SBE_MESSAGES:-20000}"
schema="$root/examples/mdp3.xml"
out="$CARGO_TARGET_DIR/bench-columnar"
mkdir -p "$out"

venv="$(bash scripts/pyengine-env.sh)"
cargo build --quiet --release -p sable-cli
cargo build --quiet --release -p sable-columnar --example mdp3_capture
bash scripts/pyengine-wheel.sh >/dev/null
sable="$CARGO_TARGET_DIR/release/sable"

capture="$out/mdp3-$messages.pcap"
generator="$CARGO_TARGET_DIR/release/examples/mdp3_capture"
if [ ! -s "$capture" ] || [ "$generator" -nt "$capture" ] || [ "$schema" -nt "$capture" ]; then
    "$CARGO_TARGET_DIR/release/examples/mdp3_capture" "$schema" "$capture" "$messages"
fi
bytes="$(stat -c %s "$capture")"
echo "capture: $capture, $messages messages, $bytes bytes"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# One `sable decode` to FORMAT, RUNS times on core 0: the best wall time and the best CPU time.
decode() {
    local format="$1" best_wall="" best_cpu="" line wall cpu
    for _ in $(seq "$runs"); do
        rm -rf "$out/$format"
        line="$( { /usr/bin/time -f '%e %U %S' taskset -c 0 "$sable" decode --schema "$schema" \
            --pcap --framing mdp3 --format "$format" --output "$out/$format" "$capture" \
            2>&1 >/dev/null; } | tail -1)"
        wall="$(echo "$line" | awk '{print $1}')"
        cpu="$(echo "$line" | awk '{printf "%.3f", $2 + $3}')"
        if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall="$wall"; fi
        if [ -z "$best_cpu" ] || awk "BEGIN{exit !($cpu < $best_cpu)}"; then best_cpu="$cpu"; fi
    done
    awk -v f="$format" -v n="$messages" -v b="$bytes" -v w="$best_wall" -v c="$best_cpu" 'BEGIN {
        printf "sable decode --format %s: %d messages, %.2f s wall, %.2f s CPU: %.0f msg/s, %.1f MB/s (%.0f msg/s, %.1f MB/s of CPU)\n",
            f, n, w, c, n / w, b / w / 1e6, n / c, b / c / 1e6 }'
    echo "  files: $(du -sb "$out/$format" | cut -f1) bytes in $(ls "$out/$format" | wc -l) files"
}
decode parquet
decode arrow
taskset -c 0 "$venv/bin/python" -B python/bench/columnar.py "$schema" "$capture" \
    --sbe-messages "$sbe_messages" --repeat "$runs"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

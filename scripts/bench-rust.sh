#!/usr/bin/env bash
# Criterion benchmark of Sable's generated Rust codecs against the reference's generated Rust
# codecs (sbe-all 1.32.1, -Dsbe.target.language=Rust), side by side in one run: Car and
# MarketData (the messages of the reference's own Rust benchmarks), encode and decode
# (rust/tests/benches/codecs.rs; decode-opaque: each value read handed to black_box instead of
# folded into the rotate-xor checksum). Generates what it needs with scripts/rust-codecs.sh, then
# prints each pair's median times and the ratio Sable / reference.
#
# Usage: scripts/bench-rust.sh [criterion arguments, e.g. --measurement-time 10]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/setup.sh
bash scripts/fetch-reference.sh
bash scripts/rust-codecs.sh --generate-only
target="${CARGO_TARGET_DIR:-$root/target}"
log="$target/bench-rust.log"
mkdir -p "$target"
(cd rust && CARGO_TARGET_DIR="$target/rust-codecs" cargo bench --bench codecs -- "$@") | tee "$log"

# "car/encode/sable   time:   [1.2 ns 1.3 ns 1.4 ns]": the middle value, in ns.
awk '
function ns(v, u) { return u == "ps" ? v / 1000 : u == "ns" ? v : u == "µs" || u == "us" ? v * 1000 : u == "ms" ? v * 1e6 : v * 1e9 }
/time:/ {
    name = $1; if (name == "time:") name = last
    for (i = 1; i <= NF; i++) if ($i == "time:") { t = ns($(i + 3) + 0, $(i + 4)) }
    split(name, p, "/"); key = p[1] "/" p[2]; who[key, p[3]] = t; keys[key] = 1
}
{ if ($1 != "time:") last = $1 }
END {
    printf "\n%-18s %12s %12s %8s\n", "benchmark", "sable (ns)", "ref (ns)", "ratio"
    n = split("car/encode car/decode car/decode-opaque md/encode md/decode md/decode-opaque", order, " ")
    for (i = 1; i <= n; i++) { k = order[i]; if (k in keys) printf "%-18s %12.1f %12.1f %8.2f\n", k, who[k, "sable"], who[k, "reference"], who[k, "sable"] / who[k, "reference"] }
}' "$log"

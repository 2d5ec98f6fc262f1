#!/usr/bin/env bash
# Everything `make test` runs: set-up, the reference jar, every test, clippy and rustfmt, then
# one closing line totalling the tests run ("tests: N passed, M failed").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/fetch-reference.sh

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
cargo test --workspace --release 2>&1 | tee "$log" || status=$?
cargo clippy --workspace --all-targets -- -D warnings
cargo fmt --all --check

# Sum cargo's per-binary "test result:" lines into one.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i) ~ /^passed;?$/) p += $(i-1); if ($(i) ~ /^failed;?$/) f += $(i-1) } }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
exit "$status"

#!/usr/bin/env bash
# The `sable` Python package on the Rust engine (crates/sable-python, docs/python.md "The
# engine package"): builds its abi3 wheel (scripts/pyengine-wheel.sh), installs it into the
# pinned environment (scripts/pyengine-env.sh), then runs pytest crates/sable-python/tests: the
# API, errors with byte offsets, tables against the CLI's Parquet, and the Dask local-cluster
# recipe (docs/python.md, "Decoding at scale"). Ends with one line:
# "pyengine: N passed, M failed".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

venv="$(bash scripts/pyengine-env.sh)" || { echo "pyengine: 0 passed, 1 failed"; exit 1; }
py="$venv/bin/python"
bash scripts/pyengine-wheel.sh >/dev/null || { echo "FAIL: the wheel"; echo "pyengine: 0 passed, 1 failed"; exit 1; }
nice -n 19 cargo build --quiet --release -p sable-cli || { echo "pyengine: 0 passed, 1 failed"; exit 1; }

report="$CARGO_TARGET_DIR/pyengine-pytest.txt"
SABLE="$CARGO_TARGET_DIR/release/sable" nice -n 19 "$py" -m pytest -q -p no:cacheprovider crates/sable-python/tests >"$report" 2>&1
status=$?
tail -n 30 "$report"
line="$(grep -E '^[0-9]+ (passed|failed)|^=+ .*(passed|failed)' "$report" | tail -1)"
passed="$(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0)"
failed="$(echo "$line" | grep -oE '[0-9]+ (failed|error)' | grep -oE '[0-9]+' | paste -sd+ | bc 2>/dev/null || echo 0)"
passed="${passed:-0}"
failed="${failed:-0}"
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || { failed=$((failed + 1)); echo "FAIL: pytest exited $status"; }
echo "pyengine: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

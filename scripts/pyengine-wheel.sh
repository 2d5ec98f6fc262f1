#!/usr/bin/env bash
# Builds the `sable` package's abi3 wheel (crates/sable-python, one wheel for CPython 3.9 and
# later) with the pinned maturin (scripts/pyengine-env.sh) into target/wheels, and installs it
# into that environment. Prints the wheel's path. Idempotent: cargo rebuilds only what changed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
venv="$(bash scripts/pyengine-env.sh)"
out="$CARGO_TARGET_DIR/wheels"
rm -f "$out"/sable-*.whl
nice -n 19 "$venv/bin/maturin" build --quiet --release --manifest-path crates/sable-python/Cargo.toml \
    --interpreter "$venv/bin/python" --out "$out" >&2
wheel="$(ls "$out"/sable-*.whl)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel" >&2
echo "$wheel"

#!/usr/bin/env bash
# The Python codec driver (protocol: scripts/codec-driver.sh): generates SCHEMA's Python codecs
# with the workspace's `sable` as the package driver_codecs, beside python/driver/driver.py,
# caches both under $CARGO_TARGET_DIR/codec-driver/python/<hash of the generated code, the
# driver and the interpreter's version>, and runs the driver with python3 ($PYTHON).
#
#   scripts/drivers/python.sh SCHEMA
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -eq 1 ] || { echo "usage: scripts/drivers/python.sh SCHEMA" >&2; exit 2; }
schema="$1"
python="${PYTHON:-python3}"
sable="$(driver_sable)"
mkdir -p "$target/codec-driver/python"
work="$(mktemp -d "$target/codec-driver/python/build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# Unformatted (RUFF pointing nowhere): the driver needs no formatter, and the key stays stable.
RUFF=/nonexistent "$sable" generate --quiet --lang python --package driver_codecs --output "$work" "$schema" >&2
key="$("$python" --version 2>&1 | driver_key "$work" "$root/python/driver/driver.py")"
dir="$target/codec-driver/python/$key"
if [ ! -f "$dir/driver.py" ]; then
    cp "$root/python/driver/driver.py" "$work/driver.py"
    mv -T "$work" "$dir" 2>/dev/null || rm -rf "$work"
fi
rm -rf "$work"
trap - EXIT
exec "$python" -B "$dir/driver.py"

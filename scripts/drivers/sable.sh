#!/usr/bin/env bash
# The codec driver (scripts/codec-driver.sh) of the `sable` language: Sable's own IR-driven
# decoder and canonical JSON printer (sable_otf), which reads the schema at run time, so there
# are no generated codecs to build: the program is crates/sable-conformance/examples/driver.rs,
# built once per source change by cargo (a second run finds it fresh and starts at once).
#
#   scripts/drivers/sable.sh SCHEMA
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[ $# -eq 1 ] || { echo "usage: scripts/drivers/sable.sh SCHEMA" >&2; exit 2; }
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
(cd "$root" && cargo build --release -q -p sable-conformance --example driver) >&2
exec "$CARGO_TARGET_DIR/release/examples/driver" "$1"

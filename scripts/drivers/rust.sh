#!/usr/bin/env bash
# The Rust codec driver (protocol: scripts/codec-driver.sh): generates the Rust codecs of SCHEMA
# with the workspace's `sable`, compiles rust/driver/main.rs against them with rustc, caches
# the program under $CARGO_TARGET_DIR/codec-driver/rust/<hash of the generated code, the driver
# source and the compiler>, and runs it on standard input.
#
#   scripts/drivers/rust.sh SCHEMA
#
# RUSTC picks the compiler (default rustc). Build output goes to standard error.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -eq 1 ] || { echo "usage: scripts/drivers/rust.sh SCHEMA" >&2; exit 2; }
schema="$1"
sable="$(driver_sable)"
mkdir -p "$target/codec-driver/rust"
work="$(mktemp -d "$target/codec-driver/rust/build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# The generated code (not the schema: its XIncludes may lie anywhere) is what the key hashes.
"$sable" generate --quiet --lang rust --package codecs --output "$work" "$schema" >&2
key="$("${RUSTC:-rustc}" --version | driver_key "$work" "$root/rust/driver/main.rs")"
dir="$target/codec-driver/rust/$key"
if [ ! -x "$dir/driver" ]; then
    cp "$root/rust/driver/main.rs" "$work/main.rs"
    "${RUSTC:-rustc}" --edition 2021 -C opt-level=2 --crate-name codec_driver -o "$work/driver" "$work/main.rs" >&2
    # Another run may have built it meanwhile: keep whichever landed first.
    mv -T "$work" "$dir" 2>/dev/null || rm -rf "$work"
fi
rm -rf "$work"
trap - EXIT
exec "$dir/driver"

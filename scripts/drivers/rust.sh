#!/usr/bin/env bash
# The Rust codec driver (protocol: scripts/codec-driver.sh): generates the Rust codecs of SCHEMA
# with the workspace's `sable`, compiles rust/driver/main.rs against them with rustc, caches
# the program under $CARGO_TARGET_DIR/codec-driver/rust/<hash of the schema, the generator and
# the driver source>, and runs it on standard input.
#
#   scripts/drivers/rust.sh SCHEMA
#
# RUSTC picks the compiler (default rustc). Build output goes to standard error.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
schema="$1"
target="${CARGO_TARGET_DIR:-$root/target}"
(cd "$root" && CARGO_TARGET_DIR="$target" cargo build -q --release -p sable-cli) >&2
sable="$target/release/sable"
# The schema's includes (XInclude) live next to it: its folder's XML files are hashed with it.
key="$( (sha256sum "$schema" "$sable" "$root/rust/driver/main.rs"; \
         find "$(dirname "$schema")" -maxdepth 1 -name '*.xml' -type f | LC_ALL=C sort | xargs -r sha256sum; \
         echo "${RUSTC:-rustc}") | sha256sum | cut -c1-20)"
dir="$target/codec-driver/rust/$key"
if [ ! -x "$dir/driver" ]; then
    mkdir -p "$target/codec-driver/rust"
    work="$(mktemp -d "$target/codec-driver/rust/build.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    "$sable" generate --quiet --lang rust --package codecs --output "$work" "$schema" >&2
    cp "$root/rust/driver/main.rs" "$work/main.rs"
    "${RUSTC:-rustc}" --edition 2021 -C opt-level=2 --crate-name codec_driver -o "$work/driver" "$work/main.rs" >&2
    # Another run may have built it meanwhile: keep whichever landed first.
    mv -T "$work" "$dir" 2>/dev/null || rm -rf "$work"
    trap - EXIT
fi
exec "$dir/driver"

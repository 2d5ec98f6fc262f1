#!/usr/bin/env bash
# The Go codec driver (protocol: scripts/codec-driver.sh): generates the Go codecs of SCHEMA with
# the workspace's `sable` as package codecs, builds go/driver/main.go against them with `go
# build`, caches the program under $CARGO_TARGET_DIR/codec-driver/go/<hash of the generated
# code, the driver source and the Go version>, and runs it on standard input.
#
#   scripts/drivers/go.sh SCHEMA
#
# GO picks the toolchain (default: go on PATH, else /usr/local/go/bin/go). Build output goes to
# standard error.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -eq 1 ] || { echo "usage: scripts/drivers/go.sh SCHEMA" >&2; exit 2; }
schema="$1"
go="${GO:-$(command -v go || echo /usr/local/go/bin/go)}"
sable="$(driver_sable)"
mkdir -p "$target/codec-driver/go"
work="$(mktemp -d "$target/codec-driver/go/build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# The generated code (not the schema: its XIncludes may lie anywhere) is what the key hashes.
"$sable" generate --quiet --lang go --package codecs --output "$work/codecs" "$schema" >&2
key="$("$go" version | driver_key "$work" "$root/go/driver/main.go")"
dir="$target/codec-driver/go/$key"
if [ ! -x "$dir/driver" ]; then
    cp "$root/go/driver/main.go" "$work/main.go"
    printf 'module sabledriver\n\ngo 1.22\n' >"$work/go.mod"
    (cd "$work" && GOFLAGS=-mod=mod "$go" build -o driver .) >&2
    # Another run may have built it meanwhile: keep whichever landed first.
    mv -T "$work" "$dir" 2>/dev/null || rm -rf "$work"
fi
rm -rf "$work"
trap - EXIT
exec "$dir/driver"

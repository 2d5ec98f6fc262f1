#!/usr/bin/env bash
# scripts/codec-driver.sh's C++ driver (see its header for the protocol):
#   scripts/drivers/cpp.sh SCHEMA
# generates the C++ codecs for SCHEMA with the workspace's `sable` (namespace sable_driver),
# builds cpp/driver/driver.cpp against them (g++, or $CXX) and runs it on standard input. The
# build is cached under $CARGO_TARGET_DIR/codec-driver/cpp/<hash of the generated headers, the
# driver's source and the compiler>: a second run with the same schema and generator starts at
# once. Build output goes to standard error.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -eq 1 ] || { echo "usage: scripts/drivers/cpp.sh SCHEMA" >&2; exit 2; }
schema="$1"
cxx="${CXX:-g++}"

sable="$(driver_sable)"
work="$(mktemp -d)"
"$sable" generate --quiet --lang cpp --package sable_driver \
    -o "$work" "$schema" >&2 || { rm -rf "$work"; exit 1; }
key="$("$cxx" --version | driver_key "$work" "$root/cpp/driver/driver.cpp")"
dir="$target/codec-driver/cpp/$key"
if [ ! -x "$dir/driver" ]; then
    mkdir -p "$dir"
    rm -rf "$dir/include"
    mv "$work" "$dir/include"
    "$cxx" -std=c++17 -O1 -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror \
        -I "$dir/include" "$root/cpp/driver/driver.cpp" -o "$dir/driver.tmp" >&2
    mv "$dir/driver.tmp" "$dir/driver"
else
    rm -rf "$work"
fi
exec "$dir/driver"

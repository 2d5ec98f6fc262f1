#!/usr/bin/env bash
# The C# codec driver (protocol: scripts/codec-driver.sh): generates the C# codecs of SCHEMA with
# the workspace's `sable` into the namespace Sable.Driver.Codecs, compiles them with
# csharp/driver/Driver.cs using mono's mcs (C# 7.2, warnings as errors), caches the program under
# $CARGO_TARGET_DIR/codec-driver/csharp/<hash of the generated code, the driver and the
# compiler>, and runs it with mono. Needs mono-mcs (scripts/csharp-tests.sh installs it).
#
#   scripts/drivers/csharp.sh SCHEMA
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -eq 1 ] || { echo "usage: scripts/drivers/csharp.sh SCHEMA" >&2; exit 2; }
command -v mcs >/dev/null && command -v mono >/dev/null ||
    { echo "csharp driver: mono's mcs and mono are needed (apt-get install mono-mcs)" >&2; exit 2; }
schema="$1"
sable="$(driver_sable)"
mkdir -p "$target/codec-driver/csharp"
work="$(mktemp -d "$target/codec-driver/csharp/build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$sable" generate --quiet --lang csharp --package sable.driver.codecs --output "$work" "$schema" >&2
key="$(mcs --version | driver_key "$work" "$root/csharp/driver/Driver.cs")"
dir="$target/codec-driver/csharp/$key"
if [ ! -f "$dir/driver.exe" ]; then
    mcs -langversion:7.2 -warnaserror -nologo -optimize+ -r:System.Numerics -out:"$work/driver.exe" \
        "$work"/*.cs "$root/csharp/driver/Driver.cs" >&2
    mv -T "$work" "$dir" 2>/dev/null || rm -rf "$work"
fi
rm -rf "$work"
trap - EXIT
exec mono "$dir/driver.exe"

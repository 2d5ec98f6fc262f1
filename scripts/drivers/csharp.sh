#!/usr/bin/env bash
# The C# codec driver (protocol: scripts/codec-driver.sh): generates the C# codecs of SCHEMA with
# the workspace's `sable` into the namespace Sable.Driver.Codecs, compiles them with
# csharp/driver/Driver.cs (mcs, C# 7.2, warnings as errors) for the runtime SABLE_CSHARP_RUNTIME
# names: `coreclr` (the default: .NET Core 3.1 from PyPI, scripts/dotnet-env.sh) or `mono`
# (scripts/lib/csharp.sh); caches the program under $CARGO_TARGET_DIR/codec-driver/csharp/<hash of
# the generated code, the driver, the runtime and the compiler>, and runs it on that runtime.
# Needs mono-mcs (scripts/csharp-tests.sh installs it).
#
#   [SABLE_CSHARP_RUNTIME=mono] scripts/drivers/csharp.sh SCHEMA
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$root/scripts/lib/csharp.sh"
[ $# -eq 1 ] || { echo "usage: scripts/drivers/csharp.sh SCHEMA" >&2; exit 2; }
command -v mcs >/dev/null && command -v mono >/dev/null ||
    { echo "csharp driver: mono's mcs and mono are needed (apt-get install mono-mcs)" >&2; exit 2; }
runtime="${SABLE_CSHARP_RUNTIME:-coreclr}"
case "$runtime" in
    mono | coreclr) ;;
    *) echo "csharp driver: SABLE_CSHARP_RUNTIME is '$runtime'; it must be mono or coreclr" >&2; exit 2 ;;
esac
schema="$1"
sable="$(driver_sable)"
mkdir -p "$target/codec-driver/csharp"
work="$(mktemp -d "$target/codec-driver/csharp/build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$sable" generate --quiet --lang csharp --package sable.driver.codecs --output "$work" "$schema" >&2
key="$({ echo "$runtime"; mcs --version; } | driver_key "$work" "$root/csharp/driver/Driver.cs")"
dir="$target/codec-driver/csharp/$key"
if [ ! -f "$dir/driver.dll" ]; then
    csharp_compile "$runtime" "$work/driver.dll" -optimize+ "$work"/*.cs "$root/csharp/driver/Driver.cs" >&2
    mv -T "$work" "$dir" 2>/dev/null || rm -rf "$work"
fi
rm -rf "$work"
trap - EXIT
csharp_run "$runtime" "$dir/driver.dll"

#!/usr/bin/env bash
# CoreCLR for the C# codecs' tests and benchmark: Microsoft's .NET Core 3.1 runtime (the `dotnet`
# host, CoreCLR, RyuJIT and the framework's assemblies) as PyPI's `dotnetcore2` wheel ships it,
# downloaded with pip (pinned, hash-checked) and unpacked into .cache/dotnet once; a second run
# only checks the stamp. No SDK: programs are compiled with mono's mcs against the framework's
# assemblies (scripts/lib/csharp.sh). Prints the directory holding the `dotnet` host.
#
#   home="$(bash scripts/dotnet-env.sh)"; "$home/dotnet" app.dll
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version=3.1.23
wheel="dotnetcore2-$version-py3-none-manylinux1_x86_64.whl"
sha256=5f076ddc39da0c685e7de20ecb91ee81185928918ec86fbeb3bffc55dd867ab5
dir="$root/.cache/dotnet/$version"
home="$dir/dotnetcore2/bin"
stamp="$dir/.installed"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sha256" ]; then
    [ "$(uname -m)" = x86_64 ] || { echo "dotnet-env: the dotnetcore2 wheel is for x86_64 Linux only" >&2; exit 1; }
    rm -rf "$dir"
    mkdir -p "$dir/wheel"
    # pip downloads and checks the pinned hash (a download only: nothing is installed into python3).
    if ! python3 -m pip --version >/dev/null 2>&1 && command -v apt-get >/dev/null; then
        (apt-get install -y -qq python3-pip || { apt-get update -qq && apt-get install -y -qq python3-pip; }) >&2
    fi
    echo "dotnetcore2==$version --hash=sha256:$sha256" >"$dir/requirements.txt"
    nice -n 19 python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
        --require-hashes -r "$dir/requirements.txt" -d "$dir/wheel" >&2
    python3 -m zipfile -e "$dir/wheel/$wheel" "$dir" >&2
    rm -rf "$dir/wheel"
    # Zip files keep no modes: the host and the runtime's helpers must be executable.
    chmod +x "$home/dotnet" "$home/shared/Microsoft.NETCore.App/$version/createdump"
    runtimes="$("$home/dotnet" --list-runtimes)"
    grep -q "^Microsoft.NETCore.App $version " <<<"$runtimes" ||
        { echo "dotnet-env: the unpacked host does not list Microsoft.NETCore.App $version: $runtimes" >&2; exit 1; }
    echo "$sha256" >"$stamp"
fi
echo "$home"

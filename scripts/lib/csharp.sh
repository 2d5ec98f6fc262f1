# Sourced by the C# scripts (csharp-tests.sh, bench-csharp.sh, drivers/csharp.sh): how to compile
# and run a C# program on each of the two runtimes these machines have (docs/csharp.md,
# "Tests"):
#
#   mono     Debian's mono 6.8 (mcs and mono; installed by csharp_install_mono);
#   coreclr  .NET Core 3.1's runtime from PyPI (scripts/dotnet-env.sh), the programs compiled by
#            the same mcs against that runtime's own assemblies (-nostdlib), not mono's.
#
# Both compile C# 7.2 with warnings as errors.

# csharp_install_mono: installs mono-mcs from Debian's packages when mcs or mono is missing.
csharp_install_mono() {
    if ! command -v mcs >/dev/null || ! command -v mono >/dev/null; then
        echo "csharp: installing mono-mcs (Debian's mono 6.8)" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q >/dev/null
        apt-get install -y -q mono-mcs >/dev/null
    fi
}

# csharp_dotnet: the directory of CoreCLR's `dotnet` host (installed when missing).
csharp_dotnet() {
    bash "$(dirname "${BASH_SOURCE[0]}")/../dotnet-env.sh"
}

# csharp_framework: the directory of CoreCLR's framework assemblies, named by its version.
csharp_framework() {
    local home
    home="$(csharp_dotnet)" || return
    echo "$home"/shared/Microsoft.NETCore.App/*
}

# csharp_compile RUNTIME OUT [MCS-ARGUMENT...]: compiles with mcs for RUNTIME; OUT is the program
# or library (-target:library among the arguments). For coreclr, a program gets its
# OUT.runtimeconfig.json beside it (the framework to run on; invariant globalization, as the
# wheel has no ICU).
csharp_compile() {
    local runtime="$1" out="$2"
    shift 2
    local flags=(-langversion:7.2 -warnaserror -nologo)
    case "$runtime" in
        mono) flags+=(-r:System.Numerics) ;;
        coreclr)
            local fx assembly
            fx="$(csharp_framework)" || return
            # CS1701/1702 (assembly versions unified) are off, as the .NET SDK's default NoWarn
            # has them: mcs reports them for the framework's own assemblies, not for any code.
            flags+=(-nostdlib -nowarn:1701,1702)
            for assembly in System.Private.CoreLib System.Runtime System.Runtime.Extensions \
                System.Runtime.Numerics System.Runtime.InteropServices System.Memory System.Console \
                System.IO.FileSystem; do
                flags+=("-r:$fx/$assembly.dll")
            done
            ;;
        *) echo "csharp: unknown runtime '$runtime' (mono or coreclr)" >&2; return 2 ;;
    esac
    nice -n 19 mcs "${flags[@]}" -out:"$out" "$@" || return
    if [ "$runtime" = coreclr ] && [[ " $* " != *" -target:library "* ]]; then
        local version
        version="$(basename "$fx")"
        cat >"${out%.*}.runtimeconfig.json" <<EOF
{"runtimeOptions":{"tfm":"netcoreapp${version%.*}","framework":{"name":"Microsoft.NETCore.App","version":"$version"},"configProperties":{"System.Globalization.Invariant":true}}}
EOF
    fi
}

# csharp_runner RUNTIME: the command that runs a program csharp_compile made (mono, or the
# path of CoreCLR's `dotnet` host).
csharp_runner() {
    case "$1" in
        mono) echo mono ;;
        coreclr)
            local home
            home="$(csharp_dotnet)" || return
            echo "$home/dotnet"
            ;;
        *) echo "csharp: unknown runtime '$1' (mono or coreclr)" >&2; return 2 ;;
    esac
}

# csharp_run RUNTIME PROGRAM [ARGUMENT...]: runs a program csharp_compile made.
csharp_run() {
    local runner
    runner="$(csharp_runner "$1")" || return
    shift
    "$runner" "$@"
}

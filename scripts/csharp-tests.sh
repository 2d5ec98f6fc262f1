#!/usr/bin/env bash
# Tests of Sable's generated C# codecs (docs/csharp.md), on both runtimes these machines have
# (scripts/lib/csharp.sh): Debian's mono 6.8 and .NET Core 3.1's CoreCLR (from PyPI), each
# installed here when missing; the programs are compiled by mono's mcs (C# 7.2, warnings as
# errors) against each runtime's own assemblies. For each runtime:
#
#   1. every valid shared schema (../shared/schemas/valid), the conformance schemas and the spec's
#      Examples.xml: generated, then compiled with -warnaserror (one check each);
#   2. csharp/tests/CarTests.cs over the Car schema's codecs: the conformance vector encoded byte
#      for byte over byte[], Memory<byte> and unmanaged memory, the decoder API, decoding in any
#      order, the contract's errors, 500 random round trips, and no allocation in 100000 encodes
#      and decodes (GC.GetAllocatedBytesForCurrentThread);
#   3. the codec driver (scripts/drivers/csharp.sh) over every conformance vector
#      (SABLE_CSHARP_RUNTIME=RUNTIME conformance/run.py csharp).
#
# Ends with "csharp: N passed, M failed" (everything summed); exit status 1 when any failed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
. scripts/lib/csharp.sh
csharp_install_mono
csharp_dotnet >/dev/null || { echo "csharp: 0 passed, 1 failed (CoreCLR could not be installed)"; exit 1; }

CARGO_TARGET_DIR="$target" nice -n 19 cargo build --quiet --release -p sable-cli
sable="$target/release/sable"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# add_counts LOG PREFIX: adds the counts of LOG's line "PREFIX: N passed, M failed" (one failure
# when the line is missing) and sets `counts` to "N of N+M".
add_counts() {
    local line p f
    line="$(grep -E "^$2: [0-9]+ passed, [0-9]+ failed$" "$1" || echo "$2: 0 passed, 1 failed")"
    p="$(echo "$line" | awk '{print $(NF-3)}')"
    f="$(echo "$line" | awk '{print $(NF-1)}')"
    passed=$((passed + p))
    failed=$((failed + f))
    counts="$p of $((p + f))"
}

schemas=()
while IFS= read -r f; do schemas+=("$f"); done < <(
    find ../shared/schemas/valid -name '*.xml' ! -path '*/sub2/*' | LC_ALL=C sort
    ls conformance/schemas/*.xml
    echo ../shared/spec/v1.0/Examples.xml
)
# The generated code, once per schema (the same for both runtimes).
for schema in "${schemas[@]}"; do
    out="$work/generated/$(echo "$schema" | tr '/.' '__')"
    mkdir -p "$out"
    "$sable" generate --quiet --lang csharp --output "$out" "$schema" 2>"$out.log" || true
done
"$sable" generate --quiet --lang csharp --package sable.tests.car --output "$work/car" ../shared/schemas/valid/example-schema.xml

for runtime in mono coreclr; do
    # 1. Every valid schema compiles warning-free.
    compiled=0
    for schema in "${schemas[@]}"; do
        out="$work/generated/$(echo "$schema" | tr '/.' '__')"
        if ls "$out"/*.cs >/dev/null 2>&1 &&
            csharp_compile "$runtime" "$out/$runtime.dll" -target:library "$out"/*.cs >"$out/$runtime.log" 2>&1; then
            compiled=$((compiled + 1))
        else
            echo "FAIL compile ($runtime) $schema"
            head -20 "$out.log" "$out/$runtime.log" 2>/dev/null
        fi
    done
    passed=$((passed + compiled))
    failed=$((failed + ${#schemas[@]} - compiled))

    # 2. The unit tests over the Car schema.
    set +e
    csharp_compile "$runtime" "$work/car/tests-$runtime.dll" -unsafe -optimize+ "$work/car"/*.cs csharp/tests/CarTests.cs &&
        csharp_run "$runtime" "$work/car/tests-$runtime.dll" conformance/vectors/car.jsonl >"$work/unit-$runtime.log"
    set -e
    grep -v '^csharp unit:' "$work/unit-$runtime.log" || true
    add_counts "$work/unit-$runtime.log" 'csharp unit'
    unit="$counts"

    # 3. Every conformance vector through the codec driver.
    set +e
    SABLE="$sable" SABLE_CSHARP_RUNTIME="$runtime" CARGO_TARGET_DIR="$target" nice -n 19 \
        python3 conformance/run.py csharp >"$work/conformance-$runtime.log"
    set -e
    grep -v '^conformance csharp:' "$work/conformance-$runtime.log" | head -40 || true
    add_counts "$work/conformance-$runtime.log" 'conformance csharp'
    conformance="$counts"

    echo "csharp on $runtime: compiled $compiled of ${#schemas[@]} schemas with -warnaserror; unit tests $unit; conformance vectors $conformance"
done

echo "csharp: $passed passed, $failed failed"
[ "$failed" = 0 ]

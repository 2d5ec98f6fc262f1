#!/usr/bin/env bash
# Tests of Sable's generated C# codecs (docs/csharp.md), with Debian's mono (mcs -langversion:7.2,
# the only C# compiler these machines reach; installed here when missing):
#
#   1. every valid shared schema (../shared/schemas/valid), the conformance schemas and the spec's
#      Examples.xml: generated, then compiled with -warnaserror (one check each);
#   2. csharp/tests/CarTests.cs over the Car schema's codecs: the conformance vector encoded byte
#      for byte over byte[], Memory<byte> and unmanaged memory, the decoder API, decoding in any
#      order, the contract's errors, 500 random round trips, and no allocation in 100000 encodes
#      and decodes (GC.GetAllocatedBytesForCurrentThread);
#   3. the codec driver (scripts/drivers/csharp.sh) over every conformance vector
#      (conformance/run.py csharp).
#
# Ends with "csharp: N passed, M failed" (the three parts summed); exit status 1 when any failed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"

if ! command -v mcs >/dev/null || ! command -v mono >/dev/null; then
    echo "csharp: installing mono-mcs (Debian's mono 6.8)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q mono-mcs >/dev/null
fi
mcs_flags=(-langversion:7.2 -warnaserror -nologo -r:System.Numerics)

CARGO_TARGET_DIR="$target" nice -n 19 cargo build --quiet --release -p sable-cli
sable="$target/release/sable"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# 1. Every valid schema compiles warning-free.
schemas=()
while IFS= read -r f; do schemas+=("$f"); done < <(
    find ../shared/schemas/valid -name '*.xml' ! -path '*/sub2/*' | LC_ALL=C sort
    ls conformance/schemas/*.xml
    echo ../shared/spec/v1.0/Examples.xml
)
for schema in "${schemas[@]}"; do
    out="$work/compile/$(echo "$schema" | tr '/.' '__')"
    mkdir -p "$out"
    if "$sable" generate --quiet --lang csharp --output "$out" "$schema" &&
        nice -n 19 mcs "${mcs_flags[@]}" -target:library -out:"$out/codecs.dll" "$out"/*.cs >"$out/mcs.log" 2>&1; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL compile $schema"
        cat "$out/mcs.log" 2>/dev/null | head -20
    fi
done
echo "compiled $passed of ${#schemas[@]} schemas with -warnaserror"

# 2. The unit tests over the Car schema.
"$sable" generate --quiet --lang csharp --package sable.tests.car --output "$work/car" ../shared/schemas/valid/example-schema.xml
nice -n 19 mcs "${mcs_flags[@]}" -unsafe -optimize+ -out:"$work/car/tests.exe" "$work/car"/*.cs csharp/tests/CarTests.cs
set +e
nice -n 19 mono "$work/car/tests.exe" conformance/vectors/car.jsonl | tee "$work/unit.log"
set -e
line="$(grep -E '^csharp unit: [0-9]+ passed, [0-9]+ failed$' "$work/unit.log" || echo "csharp unit: 0 passed, 1 failed")"
passed=$((passed + $(echo "$line" | awk '{print $3}')))
failed=$((failed + $(echo "$line" | awk '{print $5}')))

# 3. Every conformance vector through the codec driver.
set +e
CARGO_TARGET_DIR="$target" nice -n 19 python3 conformance/run.py csharp | tee "$work/conformance.log"
set -e
line="$(grep -E '^conformance csharp: [0-9]+ passed, [0-9]+ failed$' "$work/conformance.log" || echo "conformance csharp: 0 passed, 1 failed")"
passed=$((passed + $(echo "$line" | awk '{print $3}')))
failed=$((failed + $(echo "$line" | awk '{print $5}')))

echo "csharp: $passed passed, $failed failed"
[ "$failed" = 0 ]

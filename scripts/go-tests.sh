#!/usr/bin/env bash
# Tests of Sable's generated Go codecs (docs/go.md), in a Go module built under
# $CARGO_TARGET_DIR/go-tests (generated there, never committed):
#
#   1. the toolchain: Go (go on PATH, else /usr/local/go/bin), and staticcheck installed once,
#      pinned, into .cache/go/bin;
#   2. every valid shared schema generates a package that builds, is gofmt-clean and is silent
#      under go vet and staticcheck (one test per schema);
#   3. go test over go/tests/*.go: the Car vector encoded byte for byte and decoded to its JSON,
#      any access order, errors, testing.AllocsPerRun 0 on encode, decode and AppendJSON, and
#      interop both ways with the reference's generated Go (sbe-all 1.32.1,
#      -Dsbe.target.language=golang) on the example (Car), extension and MarketData schemas;
#   4. native Go fuzzing of the decoders of the Car and of conformance/schemas/structure.xml,
#      GO_FUZZTIME each (default 150000x: a count of inputs, not a duration; go1.26's fuzz
#      coordinator can report a spurious "context deadline exceeded" failure when a duration
#      runs out under load, golang/go#75804, fixed in go1.27);
#   5. the codec driver (scripts/drivers/go.sh) over every conformance vector.
#
# Ends with one line "go: N passed, M failed". Needs Java 17+ and the reference jar
# (scripts/fetch-reference.sh) for the interop tests.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || { echo "go-tests: no go on PATH (install Go 1.22 or later)" >&2; echo "go: 0 passed, 1 failed"; exit 1; }
STATICCHECK_VERSION=v0.8.2 # staticcheck 2026.1
bin="$root/.cache/go/bin"
if [ ! -x "$bin/staticcheck" ] || ! "$bin/staticcheck" -version 2>/dev/null | grep -q "${STATICCHECK_VERSION#v}"; then
    GOBIN="$bin" go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION" || { echo "go: 0 passed, 1 failed"; exit 1; }
fi
cargo build --quiet --release -p sable-cli || { echo "go: 0 passed, 1 failed"; exit 1; }
sable="$target/release/sable"
jar="$root/.cache/reference/sbe-all-1.32.1.jar"
work="$target/go-tests"
rm -rf "$work"
mkdir -p "$work/corpus" "$work/unit"
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

# 2. The corpus.
[ -n "${GO_TESTS_PREPARE_ONLY:-}" ] || {
printf 'module corpus\n\ngo 1.22\n' >"$work/corpus/go.mod"
packages=()
while IFS= read -r schema; do
    grep -q 'messageSchema' "$schema" || continue # an XIncluded fragment
    name="p$(echo "${schema#../shared/schemas/valid/}" | sed 's/\.xml$//; s/[^A-Za-z0-9]//g' | tr 'A-Z' 'a-z')"
    if "$sable" generate --quiet --lang go --package "$name" --output "$work/corpus/$name" "$schema"; then
        packages+=("$name:$schema")
    else
        fail "generate $schema"
    fi
done < <(find ../shared/schemas/valid -name '*.xml' | LC_ALL=C sort)
(cd "$work/corpus" && go vet ./... >vet.log 2>&1; gofmt -l . >gofmt.log; "$bin/staticcheck" ./... >staticcheck.log 2>&1)
for entry in "${packages[@]}"; do
    name="${entry%%:*}"
    if grep -q "$name/" "$work/corpus/vet.log" "$work/corpus/gofmt.log" "$work/corpus/staticcheck.log"; then
        fail "${entry#*:}: $(grep -h "$name/" "$work/corpus/vet.log" "$work/corpus/gofmt.log" "$work/corpus/staticcheck.log" | head -3)"
    else
        pass
    fi
done
}

# 3. The unit and interop tests.
u="$work/unit"
printf 'module sabletest\n\ngo 1.22\n' >"$u/go.mod"
gen() { "$sable" generate --quiet --lang go --package "$1" --output "$u/$1" "$2"; }
gen car ../shared/schemas/valid/example-schema.xml
gen structure conformance/schemas/structure.xml
gen extension ../shared/schemas/valid/example-extension-schema.xml
gen benchcar ../shared/schemas/valid/bench-car.xml
gen marketdata ../shared/schemas/valid/bench-fix-message-samples.xml
# The reference's Go, each schema's package under ref/<schema>/.
# (Not bench-car.xml: the reference's Go generator rejects its ISO-8859-1 var data, "Unsupported
# encoding"; the example schema's Car is the same message in UTF-8.)
for s in example-schema example-extension-schema bench-fix-message-samples; do
    java -Dsbe.target.language=golang -Dsbe.output.dir="$u/ref/$s" -Dsbe.validation.stop.on.error=true \
        -jar "$jar" "../shared/schemas/valid/$s.xml" >"$u/ref-$s.log" 2>&1 || fail "reference Go of $s: $(tail -3 "$u/ref-$s.log")"
done
cp go/tests/*.go "$u/"
[ -z "${GO_TESTS_PREPARE_ONLY:-}" ] || exit 0
(cd "$u" && SABLE_ROOT="$root" go test -count=1 -v . >test.log 2>&1)
# Top-level tests only (a fuzz test's seeds are its subtests).
grep -E '^--- FAIL' "$u/test.log" | sed 's/^/FAIL /'
grep -qE '^(FAIL|ok)\s' "$u/test.log" || { fail "go test: $(tail -20 "$u/test.log")"; }
passed=$((passed + $(grep -cE '^--- PASS' "$u/test.log")))
failed=$((failed + $(grep -cE '^--- FAIL' "$u/test.log")))

# 4. Fuzzing, bounded.
for f in FuzzCar FuzzStructure; do
    if (cd "$u" && SABLE_ROOT="$root" go test -run='^$' -fuzz="^$f\$" -fuzztime="${GO_FUZZTIME:-150000x}" . >"fuzz-$f.log" 2>&1); then
        pass
    else
        fail "$f: $(tail -15 "$u/fuzz-$f.log")"
    fi
done

# 5. The conformance vectors through the driver.
line="$(SABLE="$sable" python3 conformance/run.py go | tee "$work/conformance.log" | tail -1)"
grep -v '^conformance go:' "$work/conformance.log" | head -20
if [[ "$line" =~ ^conformance\ go:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1]))
    failed=$((failed + BASH_REMATCH[2]))
else
    fail "conformance: $line"
fi
echo "go: $passed passed, $failed failed"
[ "$failed" = 0 ]

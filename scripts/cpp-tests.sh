#!/usr/bin/env bash
# The C++ codec tests: builds `sable`, writes the conformance tests (cpp_conformance example),
# then configures, builds and runs the CMake project in cpp/ twice: with g++ (API, conformance and
# compile checks of every valid shared schema), and with clang under AddressSanitizer and UBSan
# (the same tests plus a bounded libFuzzer run over the conformance schemas' decoders). Both
# include the interop tests against the reference's generated C++ (its jar: scripts/fetch-reference.sh).
# Then every conformance vector, valid and malformed, through the C++ codec driver
# (conformance/run.py cpp).
# Prints a last line "cpp tests: N passed, M failed". Needs scripts/setup-cpp.sh's packages.
#   FUZZ_SECONDS (default 30): the fuzz run's length.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
jobs="${JOBS:-2}"
fuzz_seconds="${FUZZ_SECONDS:-30}"
jar="${SABLE_REFERENCE_JAR:-$root/.cache/reference/sbe-all-1.32.1.jar}"
[ -f "$jar" ] || jar="$HOME/.m2/repository/uk/co/real-logic/sbe-all/1.32.1/sbe-all-1.32.1.jar"
[ -f "$jar" ] || { echo "cpp-tests: no reference jar: run scripts/fetch-reference.sh" >&2; exit 1; }

cargo build -q --release -p sable-cli
sable="$CARGO_TARGET_DIR/release/sable"
out="$CARGO_TARGET_DIR/cpp"
mkdir -p "$out"
rm -rf "$out/conformance"
cargo run -q --release -p sable-codegen --example cpp_conformance -- "$out/conformance"

passed=0
failed=0
run_build() { # NAME CXX EXTRA-CMAKE-ARGS...
    local name="$1" cxx="$2"
    shift 2
    local dir="$out/build-$name"
    echo "== cpp: $name ($cxx)" >&2
    if cmake -S cpp -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_COMPILER="$cxx" -DSABLE_EXECUTABLE="$sable" \
        -DSABLE_CONFORMANCE_DIR="$out/conformance" -DSABLE_REFERENCE_JAR="$jar" -DSABLE_FUZZ_SECONDS="$fuzz_seconds" "$@" >"$dir.configure.log" 2>&1 &&
        cmake --build "$dir" -j "$jobs" >"$dir.build.log" 2>&1; then
        :
    else
        cat "$dir.configure.log" "$dir.build.log" 2>/dev/null | tail -60 >&2
        echo "cpp: $name: build FAILED" >&2
        failed=$((failed + 1))
        return
    fi
    rm -rf "$dir/fuzz-corpus"
    mkdir -p "$dir/fuzz-corpus"
    cp "$out/conformance/seeds/"* "$dir/fuzz-corpus/"
    local log="$dir.ctest.log"
    ( cd "$dir" && FUZZ_SECONDS="$fuzz_seconds" ctest --output-on-failure -j "$jobs" ) >"$log" 2>&1 || true
    cat "$log" >&2
    # ctest's summary: "100% tests passed, 0 tests failed out of 7"
    local total fails
    total=$(grep -Eo 'tests failed out of [0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
    fails=$(grep -Eo '[0-9]+ tests failed' "$log" | grep -Eo '^[0-9]+' || echo 0)
    if [ "$total" = 0 ]; then
        failed=$((failed + 1))
    fi
    passed=$((passed + total - fails))
    failed=$((failed + fails))
}

run_build gcc g++
run_build clang-asan clang++ -DSABLE_SANITIZE=ON -DSABLE_FUZZ=ON

# The generated headers are clang-format formatted.
fmt_dir="$out/format-check"
rm -rf "$fmt_dir"
"$sable" generate --lang cpp -o "$fmt_dir" ../shared/schemas/valid/example-schema.xml
if clang-format --style='{BasedOnStyle: LLVM, ColumnLimit: 100}' --dry-run -Werror \
    "$fmt_dir"/*.hpp "$fmt_dir"/sable/sbe.hpp; then
    passed=$((passed + 1))
else
    echo "cpp: generated headers not clang-format clean" >&2
    failed=$((failed + 1))
fi

# Every conformance vector (valid and malformed) through the C++ codec driver
# (scripts/codec-driver.sh cpp SCHEMA: the generated schema-level entry point).
if python3 conformance/run.py cpp >"$out/conformance-driver.log" 2>&1; then
    passed=$((passed + 1))
else
    grep -v '^\[' "$out/conformance-driver.log" | tail -40 >&2
    failed=$((failed + 1))
fi
tail -1 "$out/conformance-driver.log" >&2

echo "cpp tests: $passed passed, $failed failed"
[ "$failed" = 0 ]

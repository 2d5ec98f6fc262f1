#!/usr/bin/env bash
# Everything `make test` runs: set-up, the reference jar, then every suite (the Rust workspace's
# tests, clippy and rustfmt; the conformance vectors through Sable's codec driver; the generated Java, Rust, C++, C#, Go, Python and TypeScript codecs' tests; the `sable` Python package on the engine), and one closing
# line totalling the tests run ("tests: N passed, M failed"). A failing suite does not stop the
# others; the exit status is 1 when any failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/setup-cpp.sh
bash scripts/fetch-reference.sh

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
status=0
failed_suites=()

# suite NAME COMMAND...: runs COMMAND, its output shown and kept in $logs/NAME.log.
suite() {
    local name="$1"
    shift
    echo "== $name: $*"
    local rc start="$SECONDS"
    set +e
    "$@" 2>&1 | tee "$logs/$name.log"
    rc="${PIPESTATUS[0]}"
    set -e
    # Each suite's time, for the CI budget (README, "Tests").
    echo "== $name: $((SECONDS - start)) s"
    if [ "$rc" != 0 ]; then
        status=1
        failed_suites+=("$name")
        echo "== $name failed (exit $rc)"
    fi
}

suite cargo-test cargo test --workspace --profile ci --no-fail-fast
suite clippy cargo clippy --workspace --all-targets -- -D warnings
suite rustfmt cargo fmt --all --check
suite conformance-sable python3 conformance/run.py sable
suite java-conformance bash scripts/java-conformance.sh
suite java-interop bash scripts/java-interop.sh
suite rust-codecs bash scripts/rust-codecs.sh
suite cpp bash scripts/cpp-tests.sh
suite csharp bash scripts/csharp-tests.sh
suite go bash scripts/go-tests.sh
suite python bash scripts/python-tests.sh
suite typescript bash scripts/typescript-tests.sh
suite pyengine bash scripts/pyengine-tests.sh

# cargo's per-binary "test result:" lines, and each other suite's closing "NAME: N passed, M
# failed" line, summed into one.
{
    cat "$logs/cargo-test.log"
    for log in "$logs"/*.log; do
        # (Maven leaves colour resets without a newline before the count line: drop them.)
        [ "$log" = "$logs/cargo-test.log" ] ||
            sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^[a-z][a-z -]*: [0-9]+ passed, [0-9]+ failed$' || true
    done
} | awk '
    /^test result:/ { for (i = 1; i <= NF; i++) { if ($(i) ~ /^passed;?$/) p += $(i-1); if ($(i) ~ /^failed;?$/) f += $(i-1) } next }
    / passed, [0-9]+ failed$/ { n = split($0, w, " "); p += w[n-3]; f += w[n-1] }
    END { printf "tests: %d passed, %d failed\n", p, f }'
if [ "$status" != 0 ]; then
    echo "failed suites: ${failed_suites[*]}"
fi
exit "$status"

#!/usr/bin/env bash
# The generated Python codecs' tests (docs/python.md): installs the pinned tools into a virtual
# environment (scripts/python-env.sh), then
#   - every valid shared schema, and python/tests/schemas': generates its package (formatted by
#     ruff), which must import and pass `ruff check`, `ruff format --check` and `mypy --strict`,
#     all for Python 3.9;
#   - pytest python/tests: round trips, errors, versions, buffers, encoders (python/tests);
#   - every conformance vector through the Python driver (conformance/run.py python).
# Ends with one line: "python: N passed, M failed".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
passed=0
failed=0
count() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }

venv="$(bash scripts/python-env.sh)" || { echo "python: 0 passed, 1 failed"; exit 1; }
py="$venv/bin/python"
nice -n 19 cargo build --quiet --release -p sable-cli || { echo "python: 0 passed, 1 failed"; exit 1; }
sable="$CARGO_TARGET_DIR/release/sable"

# Every valid shared schema (a file whose root is a messageSchema; sub/sub2/common.xml is an
# XInclude part), one package each, named after the file.
out="$CARGO_TARGET_DIR/python-schemas"
rm -rf "$out" && mkdir -p "$out"
schemas=0
while IFS= read -r schema; do
    grep -q "messageSchema" "$schema" || continue
    package="s_$(basename "$schema" .xml | tr -c 'a-zA-Z0-9\n' '_')"
    RUFF="$venv/bin/ruff" "$sable" generate --quiet --lang python --package "$package" --output "$out" "$schema"
    count $? "generate $schema"
    (cd "$out" && nice -n 19 "$py" -c "import $package")
    count $? "import $package ($schema)"
    schemas=$((schemas + 1))
done < <(find ../shared/schemas/valid python/tests/schemas -name '*.xml' | LC_ALL=C sort)
(cd "$out" && "$venv/bin/ruff" check --quiet --target-version py39 --output-format concise .)
count $? "ruff check of the $schemas schemas' packages"
(cd "$out" && "$venv/bin/ruff" format --quiet --target-version py39 --check .)
count $? "ruff format --check of the $schemas schemas' packages"
(cd "$out" && nice -n 19 "$venv/bin/mypy" --strict --python-version 3.9 --no-error-summary --cache-dir "$CARGO_TARGET_DIR/mypy-cache" s_*)
count $? "mypy --strict of the $schemas schemas' packages"

# The pytest suites (they generate the packages they test).
report="$CARGO_TARGET_DIR/python-pytest.txt"
SABLE="$sable" RUFF="$venv/bin/ruff" nice -n 19 "$py" -m pytest -q -p no:cacheprovider python/tests >"$report" 2>&1
status=$?
tail -n 30 "$report"
line="$(grep -E '^[0-9]+ (passed|failed)|^=+ .*(passed|failed)' "$report" | tail -1)"
p="$(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0)"
f="$(echo "$line" | grep -oE '[0-9]+ (failed|error)' | grep -oE '[0-9]+' | paste -sd+ | bc 2>/dev/null || echo 0)"
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-0}))
[ "$status" -eq 0 ] || [ "${f:-0}" -gt 0 ] || { failed=$((failed + 1)); echo "FAIL: pytest exited $status"; }

# Every conformance vector through the driver.
conformance="$(nice -n 19 python3 conformance/run.py python 2>&1)"
echo "$conformance" | grep -v '^conformance python:' | tail -n 40
line="$(echo "$conformance" | grep '^conformance python:')"
echo "$line"
passed=$((passed + $(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0)))
failed=$((failed + $(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+' || echo 1)))

echo "python: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

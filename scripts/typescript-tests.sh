#!/usr/bin/env bash
# The generated TypeScript codecs' tests (docs/typescript.md): installs the pinned tools from npm
# (scripts/typescript-env.sh: typescript, @types/node, protobufjs), then
#   - every valid schema (../shared/schemas/valid, conformance/schemas, examples): generates its
#     module, and all of them type-check with tsc under typescript/tsconfig.base.json (strict,
#     noUncheckedIndexedAccess, exactOptionalPropertyTypes, noUnused*, ...) with lib es2022 only:
#     no DOM and no Node types, so the codecs use no API of either;
#   - the support module sable.ts compiled on its own, with declarations;
#   - node --test typescript/tests: round trips, errors, byte orders, versions, buffers;
#   - every conformance vector through the TypeScript driver (conformance/run.py typescript).
# Ends with one line: "typescript: N passed, M failed".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
passed=0
failed=0
count() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }

npm_dir="$(bash scripts/typescript-env.sh)" || { echo "typescript: 0 passed, 1 failed"; exit 1; }
tsc="$npm_dir/node_modules/.bin/tsc"
nice -n 19 cargo build --quiet --release -p sable-cli || { echo "typescript: 0 passed, 1 failed"; exit 1; }
sable="$CARGO_TARGET_DIR/release/sable"

# Every valid schema, one directory each (a file whose root is a messageSchema; sub/sub2/common.xml
# is an XInclude part), all type-checked by one tsc run.
out="$CARGO_TARGET_DIR/typescript-schemas"
rm -rf "$out" && mkdir -p "$out"
files=()
schemas=0
while IFS= read -r schema; do
    grep -q "messageSchema" "$schema" || continue
    name="s-$(basename "$(dirname "$schema")")-$(basename "$schema" .xml | tr -c 'a-zA-Z0-9\n' '-')"
    "$sable" generate --quiet --lang typescript --package codecs --output "$out/$name" "$schema"
    count $? "generate $schema"
    files+=("\"$name/codecs.ts\"")
    schemas=$((schemas + 1))
done < <({ find ../shared/schemas/valid -name '*.xml'; find conformance/schemas examples -name '*.xml'; } | LC_ALL=C sort)
cp typescript/tsconfig.base.json "$out/"
echo '{"type":"module"}' >"$out/package.json"
{
    echo '{ "extends": "./tsconfig.base.json", "compilerOptions": { "noEmit": true },'
    echo "  \"files\": [$(IFS=,; echo "${files[*]}")] }"
} >"$out/tsconfig.json"
(cd "$out" && nice -n 19 "$tsc" -p .)
count $? "tsc --strict (typescript/tsconfig.base.json) of the $schemas schemas' modules"

# The support module on its own, with declarations (what users without TypeScript get).
support="$CARGO_TARGET_DIR/typescript-support"
rm -rf "$support" && mkdir -p "$support"
cp crates/sable-codegen/src/typescript/sable.ts "$support/"
(cd "$support" && nice -n 19 "$tsc" --strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes \
    --noImplicitOverride --noUnusedLocals --noUnusedParameters --target es2020 --module es2020 \
    --lib es2020 --types '' --declaration --outDir out sable.ts && [ -f out/sable.d.ts ])
count $? "sable.ts on its own (ES2020, declarations)"

# The node --test suites, compiled beside the modules they test.
work="$CARGO_TARGET_DIR/typescript-tests"
rm -rf "$work" && mkdir -p "$work/src/gen"
gen() { "$sable" generate --quiet --lang typescript --package "$1" --output "$work/src/gen" "$2" || count 1 "generate $2"; }
gen car ../shared/schemas/valid/example-schema.xml
gen bigendian ../shared/schemas/valid/example-bigendian-test-schema.xml
gen structure conformance/schemas/structure.xml
gen evolution-v0 conformance/schemas/evolution-v0.xml
gen evolution-v1 conformance/schemas/evolution-v1.xml
cp typescript/tests/*.test.ts "$work/src/"
cp typescript/tsconfig.base.json "$work/"
cat >"$work/tsconfig.json" <<JSON
{
  "extends": "./tsconfig.base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "out", "types": ["node"], "typeRoots": ["$npm_dir/node_modules/@types"], "lib": ["es2022", "dom"] },
  "include": ["src"]
}
JSON
echo '{"type":"module"}' >"$work/package.json"
if (cd "$work" && nice -n 19 "$tsc" -p .); then
    report="$work/node-test.txt"
    (cd "$work" && SABLE_ROOT="$root" nice -n 19 node --test --test-reporter=tap out/) >"$report" 2>&1
    status=$?
    grep -E '^not ok|^# (pass|fail)' "$report"
    grep -B2 -A25 '^not ok' "$report" | head -80
    p="$(grep -E '^# pass ' "$report" | grep -oE '[0-9]+' || echo 0)"
    f="$(grep -E '^# fail ' "$report" | grep -oE '[0-9]+' || echo 0)"
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    [ "$status" -eq 0 ] || [ "${f:-0}" -gt 0 ] || { failed=$((failed + 1)); echo "FAIL: node --test exited $status"; }
else
    count 1 "tsc of typescript/tests"
fi

# Every conformance vector through the driver.
conformance="$(nice -n 19 python3 conformance/run.py typescript 2>&1)"
echo "$conformance" | grep -v '^conformance typescript:' | tail -n 40
line="$(echo "$conformance" | grep '^conformance typescript:')"
echo "$line"
passed=$((passed + $(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0)))
failed=$((failed + $(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+' || echo 1)))

echo "typescript: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

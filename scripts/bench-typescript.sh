#!/usr/bin/env bash
# The TypeScript codecs' benchmark (docs/benchmarks.md, "TypeScript codecs"): MarketData and Car
# encode and decode on Node, Sable's generated codecs against a hand-written DataView baseline and
# protobufjs (typescript/bench/bench.ts), in one run, under the machine-wide benchmark lock (taken
# here: do not wrap this script in another flock of /tmp/bench.lock, which would wait for ever).
#
# Usage: scripts/bench-typescript.sh [MS_PER_CASE [FILTER [ROUNDS]]]   (default 1000, all cases, 5)
#   BUILD_ONLY=1: build target/bench-typescript and stop (scripts/count-typescript.sh uses it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
npm_dir="$(bash scripts/typescript-env.sh)"
cargo build --quiet --release -p sable-cli
sable="$CARGO_TARGET_DIR/release/sable"
work="$CARGO_TARGET_DIR/bench-typescript"
rm -rf "$work" && mkdir -p "$work/src/gen"
"$sable" generate --quiet --lang typescript --package bench-car --output "$work/src/gen" ../shared/schemas/valid/bench-car.xml
"$sable" generate --quiet --lang typescript --package bench-fix --output "$work/src/gen" ../shared/schemas/valid/bench-fix-message-samples.xml
cp typescript/bench/*.ts "$work/src/"
cp typescript/tsconfig.base.json "$work/"
cat >"$work/tsconfig.json" <<JSON
{
  "extends": "./tsconfig.base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "out", "types": ["node"], "typeRoots": ["$npm_dir/node_modules/@types"], "noPropertyAccessFromIndexSignature": false },
  "include": ["src"]
}
JSON
echo '{"type":"module"}' >"$work/package.json"
ln -sfn "$npm_dir/node_modules" "$work/node_modules"
(cd "$work" && "$npm_dir/node_modules/.bin/tsc" -p .)
[ -z "${BUILD_ONLY:-}" ] || exit 0
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
flock /tmp/bench.lock node "$work/out/bench.js" "$@"

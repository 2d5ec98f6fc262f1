#!/usr/bin/env bash
# The TypeScript codec driver (protocol: scripts/codec-driver.sh): generates SCHEMA's TypeScript
# codecs with the workspace's `sable` as the module codecs.ts, beside typescript/driver/driver.ts,
# compiles both with the pinned tsc (scripts/typescript-env.sh) under the strict options of
# typescript/tsconfig.base.json, caches the JavaScript under
# $CARGO_TARGET_DIR/codec-driver/typescript/<hash of the generated code, the driver, its
# tsconfig and the node and tsc versions>, and runs it with node ($NODE).
#
#   scripts/drivers/typescript.sh SCHEMA
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -eq 1 ] || { echo "usage: scripts/drivers/typescript.sh SCHEMA" >&2; exit 2; }
schema="$1"
node="${NODE:-node}"
npm_dir="$(bash "$root/scripts/typescript-env.sh")"
tsc="$npm_dir/node_modules/.bin/tsc"
sable="$(driver_sable)"
mkdir -p "$target/codec-driver/typescript"
work="$(mktemp -d "$target/codec-driver/typescript/build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$sable" generate --quiet --lang typescript --package codecs --output "$work/src" "$schema" >&2
key="$({ "$node" --version; "$tsc" --version; } | driver_key "$work" "$root/typescript/driver/driver.ts" "$root/typescript/tsconfig.base.json")"
dir="$target/codec-driver/typescript/$key"
if [ ! -f "$dir/out/driver.js" ]; then
    cp "$root/typescript/driver/driver.ts" "$work/src/driver.ts"
    cp "$root/typescript/tsconfig.base.json" "$work/tsconfig.base.json"
    cat >"$work/tsconfig.json" <<JSON
{
  "extends": "./tsconfig.base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "out", "types": ["node"], "typeRoots": ["$npm_dir/node_modules/@types"] },
  "files": ["src/driver.ts"]
}
JSON
    echo '{"type":"module"}' >"$work/package.json"
    (cd "$work" && "$tsc" -p .) >&2
    # Another run may have built it meanwhile: keep whichever landed first.
    mv -T "$work" "$dir" 2>/dev/null || rm -rf "$work"
fi
rm -rf "$work"
trap - EXIT
exec "$node" "$dir/out/driver.js"

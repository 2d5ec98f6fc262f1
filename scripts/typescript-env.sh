#!/usr/bin/env bash
# The Node tool chain the TypeScript codecs' tests and benchmark use: the pinned packages of
# typescript/package.json and package-lock.json (typescript, protobufjs), installed from npm with
# `npm ci` into .cache/typescript-npm (once; a second run only compares the lock file). Prints
# the directory holding node_modules. Needs node (18 or later) and npm.
#
#   dir="$(bash scripts/typescript-env.sh)"; "$dir/node_modules/.bin/tsc" ...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/.cache/typescript-npm"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    if command -v apt-get >/dev/null; then
        (apt-get install -y -qq nodejs npm || { apt-get update -qq && apt-get install -y -qq nodejs npm; }) >&2
    fi
fi
command -v node >/dev/null || { echo "typescript-env: node is not installed (apt-get install nodejs npm)" >&2; exit 1; }
stamp="$dir/.installed"
want="$(cat "$root/typescript/package.json" "$root/typescript/package-lock.json" | sha256sum | cut -c1-24)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    mkdir -p "$dir"
    cp "$root/typescript/package.json" "$root/typescript/package-lock.json" "$dir/"
    (cd "$dir" && nice -n 19 npm ci --no-audit --no-fund --loglevel=error) >&2
    echo "$want" >"$stamp"
fi
echo "$dir"

#!/usr/bin/env bash
# Start-up of `sable decode` on a large exchange schema: an empty input decoded with a
# synthetic 100-message schema shaped as CME MDP 3.0's and iLink 3's
# (scripts/exchange-schema.py; the real ones are not redistributable), from the XML and from its
# .sbeir. Nothing is compiled to machine code before a message is printed (docs/jit.md), so this
# is schema loading and the decoder's plans alone; the target is under 50 ms. Timed with
# hyperfine (installed from Debian's packages when missing), 3 warm-up runs each, no shell in
# between; run it under `flock /tmp/bench.lock` on a shared machine.
set -euo pipefail

MESSAGES="${MESSAGES:-100}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if ! command -v hyperfine >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "bench-start: installing hyperfine (Debian package)" >&2
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hyperfine >/dev/null
fi

cargo build --release -p sable-cli
sable="${CARGO_TARGET_DIR:-target}/release/sable"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 scripts/exchange-schema.py "$MESSAGES" >"$dir/exchange.xml"
"$sable" ir "$dir/exchange.xml" -o "$dir/exchange.sbeir"
: >"$dir/empty.bin"
q() { printf '%q' "$1"; }

echo "bench-start: $MESSAGES messages, $(stat -c %s "$dir/exchange.xml") bytes of XML" >&2
hyperfine --shell=none --warmup 3 --export-json "$dir/results.json" \
    --command-name xml "$(q "$sable") decode --schema $(q "$dir/exchange.xml") $(q "$dir/empty.bin")" \
    --command-name sbeir "$(q "$sable") decode --schema $(q "$dir/exchange.sbeir") $(q "$dir/empty.bin")"

python3 - "$dir/results.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    verdict = "under" if r["mean"] < 0.050 else "OVER"
    print(f"{r['command']}: {r['mean'] * 1e3:.1f} ms ± {r['stddev'] * 1e3:.1f} ms ({verdict} the 50 ms target)")
PY

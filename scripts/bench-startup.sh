#!/usr/bin/env bash
# End to end, process start included: `sable ir LARGEST.xml -o FILE.sbeir` against the reference
# implementation's jar writing the IR of the same schema, where LARGEST.xml is the largest schema
# under ../shared/schemas/valid. Timed with hyperfine (installed from Debian's packages when
# missing), 3 warm-up runs each, no shell in between; prints hyperfine's table and the ratio of
# the mean times.
set -euo pipefail

VERSION=1.32.1

die() {
    echo "bench-startup: $*" >&2
    exit 1
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if ! command -v hyperfine >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "bench-startup: installing hyperfine (Debian package)" >&2
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hyperfine >/dev/null
fi
command -v python3 >/dev/null 2>&1 || die "python3 is needed to read hyperfine's results"

cargo build --release -p sable-cli
sable="${CARGO_TARGET_DIR:-target}/release/sable"
jar=".cache/reference/sbe-all-${VERSION}.jar"
[ -s "$jar" ] || bash scripts/fetch-reference.sh
[ -s "$jar" ] || die "$jar is missing after scripts/fetch-reference.sh"

schemas="$root/../shared/schemas/valid"
[ -d "$schemas" ] || die "$schemas not found (shared/ sits beside the repository)"
largest="$(find "$schemas" -name '*.xml' -printf '%s\t%p\n' | sort -n | tail -n 1 | cut -f 2-)"
[ -n "$largest" ] || die "no schema under $schemas"

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/refout"
q() { printf '%q' "$1"; }

echo "bench-startup: $largest ($(stat -c %s "$largest") bytes)" >&2
hyperfine --shell=none --warmup 3 --export-json "$out/results.json" \
    --command-name sable \
    "$(q "$sable") ir $(q "$largest") -o $(q "$out/x.sbeir")" \
    --command-name reference \
    "java -Dsbe.generate.ir=true -Dsbe.generate.stubs=false -Dsbe.output.dir=$(q "$out/refout") -Dsbe.xinclude.aware=true -jar $(q "$jar") $(q "$largest")"

python3 - "$out/results.json" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
sable, ref = results["sable"], results["reference"]
print(
    f"sable: {sable['mean'] * 1e3:.2f} ms ± {sable['stddev'] * 1e3:.2f} ms, "
    f"reference: {ref['mean'] * 1e3:.1f} ms ± {ref['stddev'] * 1e3:.1f} ms; "
    f"reference / sable = {ref['mean'] / sable['mean']:.1f}x"
)
PY

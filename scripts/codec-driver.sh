#!/usr/bin/env bash
# The codec driver: one small program per language, built from that language's generated codecs
# for one schema, that decodes messages through the codecs' schema-level entry point
# (docs/codecs.md). The conformance runner (conformance/run.py) tests every language through it.
#
#   scripts/codec-driver.sh LANG SCHEMA
#
# builds the program (cached: a second run with the same schema and generator starts at once),
# then reads standard input, one message per line as hex (upper or lower case; whitespace around
# it is ignored), and writes one line per message to standard output. A line holding only `-` is
# the empty message (0 bytes, which decodes to a `truncated` header); empty lines are skipped.
# Each message's line out is:
#   - the message's canonical JSON (docs/json.md), exactly as the conformance vectors hold it;
#   - or, when it does not decode, {"error":{"offset":N,"field":"...","kind":"...","message":"..."}}
#     with the contract's offset, field path and error kind (docs/codecs.md, "Errors").
# Output is flushed after each line. Build output and diagnostics go to standard error only. A
# line that is neither hex nor `-` is a usage error: the driver says so on standard error and
# exits 2.
#
# Each language provides scripts/drivers/LANG.sh SCHEMA, which does all of the above
# (scripts/drivers/lib.sh holds what the drivers of generated codecs share).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -ne 2 ]; then
    echo "usage: scripts/codec-driver.sh LANG SCHEMA (LANG: $(cd "$root/scripts/drivers" && ls -- *.sh 2>/dev/null | grep -vx 'lib\.sh' | sed 's/\.sh$//' | tr '\n' ' '))" >&2
    exit 2
fi
lang="$1"
schema="$2"
driver="$root/scripts/drivers/$lang.sh"
[ "$lang" != lib ] && [ -f "$driver" ] || { echo "codec-driver: no driver for language '$lang' (each is scripts/drivers/LANG.sh)" >&2; exit 2; }
[ -f "$schema" ] || { echo "codec-driver: no schema at $schema" >&2; exit 2; }
exec bash "$driver" "$(cd "$(dirname "$schema")" && pwd)/$(basename "$schema")"

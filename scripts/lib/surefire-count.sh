#!/usr/bin/env bash
# surefire-count.sh NAME REPORT-DIR...: sums the JUnit results in Surefire's TEST-*.xml reports
# and prints "NAME: N passed, M failed" (skipped tests are not counted as passed). Exits 1 when a
# directory has no report or any test failed.
set -euo pipefail
name="$1"
shift
tests=0 failed=0 status=0
for dir in "$@"; do
    if ! ls "$dir"/TEST-*.xml >/dev/null 2>&1; then
        echo "$name: no test reports in $dir" >&2
        status=1
        continue
    fi
    for report in "$dir"/TEST-*.xml; do
        line="$(grep -m 1 -o '<testsuite [^>]*>' "$report")"
        count() { sed -n "s/.* $1=\"\([0-9]*\)\".*/\1/p" <<<"$line"; }
        t="$(count tests)" f="$(count failures)" e="$(count errors)" s="$(count skipped)"
        tests=$((tests + t - ${s:-0}))
        failed=$((failed + ${f:-0} + ${e:-0}))
    done
done
echo "$name: $((tests - failed)) passed, $failed failed"
[ "$status" = 0 ] && [ "$failed" = 0 ]

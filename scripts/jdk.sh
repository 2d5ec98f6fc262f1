#!/usr/bin/env bash
# Prints the home of an installed JDK whose major version is at least $1 (default 25), found by
# the version in its `release` file (never a hard-coded path): JAVA_HOME first, then the JDKs
# under /usr/lib/jvm and /opt. Exits 1, saying so, when there is none.
set -euo pipefail
want="${1:-25}"

major_of() {
    local v
    v="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null)"
    echo "${v:-0}"
}

best="" best_major=0
for home in ${JAVA_HOME:-} /usr/lib/jvm/* /opt/*; do
    [ -x "$home/bin/javac" ] && [ -f "$home/release" ] || continue
    m="$(major_of "$home")"
    if [ "$m" -ge "$want" ] && { [ -z "$best" ] || [ "$m" -lt "$best_major" ]; }; then
        best="$home" best_major="$m"
    fi
done
if [ -z "$best" ]; then
    echo "jdk.sh: no JDK $want or later found (looked at JAVA_HOME, /usr/lib/jvm, /opt)" >&2
    exit 1
fi
echo "$best"

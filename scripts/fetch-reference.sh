#!/usr/bin/env bash
# Fetches the reference SBE implementation (uk.co.real-logic:sbe-all) and compiles the interop
# Java programs in interop/ against it: the IR oracle (IrDump.java) for the interop tests, the
# conformance checker (ConformanceCheck.java) and the JSON printer benchmark (JsonPrinterBench.java).
#
#   .cache/reference/sbe-all-1.32.1.jar   the reference jar, from the local Maven repository
#   .cache/reference/classes/             IrDump.class, ConformanceCheck.class, ...; each rebuilt
#                                         only when its source (or the jar) is newer
#
# Idempotent and quiet on success. Needs `mvn` and a JDK 17 or later (`java`, `javac`) on PATH.
set -euo pipefail

VERSION=1.32.1
ARTIFACT="uk.co.real-logic:sbe-all:${VERSION}"

die() {
    echo "fetch-reference: $*" >&2
    exit 1
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/.cache/reference"
jar="$dest/sbe-all-${VERSION}.jar"
classes="$dest/classes"
sources=(IrDump ConformanceCheck JsonPrinterBench)

for tool in mvn java javac; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found on PATH (install Maven and a JDK 17)"
done

# The major version from `java -version`'s version line ("17.0.15"; "1.8.0_392" for Java 8),
# skipping lines such as "Picked up JAVA_TOOL_OPTIONS".
java_text="$(java -version 2>&1 || true)"
java_line="$(printf '%s\n' "$java_text" | sed -n '/version "/{p;q;}')"
java_major="$(printf '%s\n' "$java_line" | sed -n 's/^[^"]*"\([0-9][0-9]*\).*$/\1/p')"
if [ "$java_major" = 1 ]; then
    java_major="$(printf '%s\n' "$java_line" | sed -n 's/^[^"]*"1\.\([0-9][0-9]*\).*$/\1/p')"
fi
[ "${java_major:-0}" -ge 17 ] 2>/dev/null ||
    die "need a JDK 17 or later, but 'java -version' says: ${java_line:-$java_text}"
javac_text="$(javac -version 2>&1 || true)"
javac_line="$(printf '%s\n' "$javac_text" | sed -n '/^javac /{p;q;}')"
javac_major="$(printf '%s\n' "$javac_line" | sed -n 's/^javac \([0-9][0-9]*\).*$/\1/p')"
[ "${javac_major:-0}" -ge 17 ] 2>/dev/null ||
    die "need javac 17 or later, but 'javac -version' says: ${javac_line:-$javac_text}"

for name in "${sources[@]}"; do
    [ -f "$root/interop/$name.java" ] || die "missing $root/interop/$name.java"
done
mkdir -p "$dest" "$classes"

if [ ! -s "$jar" ]; then
    log="$(mktemp)"
    if ! mvn -q dependency:get -Dartifact="$ARTIFACT" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        die "'mvn dependency:get -Dartifact=$ARTIFACT' failed"
    fi
    rm -f "$log"
    # Where dependency:get put it: the local repository (MAVEN_REPO_LOCAL if you moved it).
    repo="${MAVEN_REPO_LOCAL:-$HOME/.m2/repository}"
    cached="$repo/uk/co/real-logic/sbe-all/${VERSION}/sbe-all-${VERSION}.jar"
    [ -s "$cached" ] || die "Maven reported success but $cached does not exist (set MAVEN_REPO_LOCAL to your local repository)"
    cp "$cached" "$jar.tmp"
    mv "$jar.tmp" "$jar"
fi

for name in "${sources[@]}"; do
    source="$root/interop/$name.java"
    class="$classes/$name.class"
    if [ ! -f "$class" ] || [ "$source" -nt "$class" ] || [ "$jar" -nt "$class" ]; then
        rm -f "$classes/$name.class" "$classes/$name\$"*.class
        if ! out="$(javac --release 17 -nowarn -d "$classes" -cp "$jar" "$source" 2>&1)"; then
            echo "$out" >&2
            die "compiling $source failed"
        fi
    fi
done

#!/usr/bin/env bash
# Java interop and allocation tests of Sable's generated Java codecs against the reference
# implementation's (sbe-all 1.32.1): builds `sable`, generates both libraries' codecs for the
# schemas below into java/interop/target/generated-sources/{sable,reference} (and, for the JMH
# benchmarks, java/benchmarks/target/generated-sources/...), then runs the JUnit tests of
# java/interop with Maven. Idempotent (generated sources are rewritten from scratch each time,
# never committed); on a fresh machine Maven downloads everything it needs from Maven Central.
#
#   scripts/java-interop.sh                  generate, then run the tests
#   scripts/java-interop.sh --generate-only  generate the interop and benchmark sources only
#                                            (scripts/bench-java.sh uses this)
#
# Environment: CARGO_TARGET_DIR (where cargo builds `sable`, default target/), SABLE (a `sable`
# binary to use instead of building one), MAVEN_REPO_LOCAL (the local Maven repository, when not
# ~/.m2/repository). Needs cargo, mvn and a JDK 25 (scripts/jdk.sh finds it).
set -euo pipefail

REFERENCE_VERSION=1.32.1

die() {
    echo "java-interop: $*" >&2
    exit 1
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
shared="$root/../shared/schemas/valid"
[ -d "$shared" ] || die "the schema corpus $shared is missing (../shared beside the repository)"

generate_only=0
case "${1:-}" in
    --generate-only) generate_only=1 ;;
    "") ;;
    *) die "unknown argument '$1' (usage: scripts/java-interop.sh [--generate-only])" ;;
esac

JAVA_HOME="$(scripts/jdk.sh 25)" || die "a JDK 25 is needed (scripts/setup.sh installs the tools)"
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
command -v mvn >/dev/null 2>&1 || die "mvn not found (scripts/setup.sh installs Maven)"
# Maven's own libraries call sun.misc.Unsafe; JDK 25 would warn about it on every run.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"

# The reference jar, from Maven Central through Maven (scripts/fetch-reference.sh).
bash scripts/fetch-reference.sh
reference_jar="$root/.cache/reference/sbe-all-${REFERENCE_VERSION}.jar"
[ -s "$reference_jar" ] || die "scripts/fetch-reference.sh did not leave $reference_jar"

# Sable, built in release mode.
if [ -z "${SABLE:-}" ]; then
    cargo build --quiet --release -p sable-cli
    SABLE="${CARGO_TARGET_DIR:-$root/target}/release/sable"
fi
[ -x "$SABLE" ] || die "no sable binary at $SABLE"

# reference_codecs OUT PACKAGE SCHEMA [extra -D options]: the reference's Java codecs for SCHEMA
# in package PACKAGE (sbe.target.namespace overrides the schema's package).
reference_codecs() {
    local out="$1" package="$2" schema="$3"
    shift 3
    local log
    if ! log="$(java -Dsbe.target.language=Java -Dsbe.target.namespace="$package" \
        -Dsbe.output.dir="$out" -Dsbe.validation.stop.on.error=true "$@" \
        -jar "$reference_jar" "$schema" 2>&1)"; then
        echo "$log" >&2
        die "the reference generator failed on $schema"
    fi
}

# sable_codecs OUT PACKAGE SCHEMA [options]: Sable's Java codecs (the MemorySegment flavour, unless
# the options say --java-buffer agrona or agrona-unsafe) for SCHEMA in package PACKAGE.
sable_codecs() {
    local out="$1" package="$2" schema="$3"
    shift 3
    "$SABLE" generate --lang java "$@" --package "$package" --output "$out" "$schema" ||
        die "sable generate failed on $schema"
}

fresh() { # fresh DIR...: empty directories
    rm -rf "$@"
    mkdir -p "$@"
}

# The interop tests: reference codecs over Agrona's DirectBuffer interfaces (the default).
interop="java/interop/target/generated-sources"
fresh "$interop/reference" "$interop/sable"
for pair in baseline:example-schema.xml extension:example-extension-schema.xml \
    benchcar:bench-car.xml benchfix:bench-fix-message-samples.xml; do
    name="${pair%%:*}" schema="$shared/${pair#*:}"
    reference_codecs "$interop/reference" "reference.$name" "$schema"
    sable_codecs "$interop/sable" "sable.$name" "$schema"
done

# The benchmarks: reference codecs typed on UnsafeBuffer, as the reference's own benchmarks build
# them; Sable's in both flavours, the Agrona one (packages sableagrona.*) typed on UnsafeBuffer
# alike (--java-buffer agrona-unsafe), so that both run the same code paths of Agrona.
bench="java/benchmarks/target/generated-sources"
fresh "$bench/reference" "$bench/sable"
for pair in benchcar:bench-car.xml benchfix:bench-fix-message-samples.xml; do
    name="${pair%%:*}" schema="$shared/${pair#*:}"
    reference_codecs "$bench/reference" "reference.$name" "$schema" \
        -Dsbe.java.encoding.buffer.type=org.agrona.concurrent.UnsafeBuffer \
        -Dsbe.java.decoding.buffer.type=org.agrona.concurrent.UnsafeBuffer
    sable_codecs "$bench/sable" "sable.$name" "$schema"
    sable_codecs "$bench/sable" "sableagrona.$name" "$schema" --java-buffer agrona-unsafe
done

[ "$generate_only" = 1 ] && exit 0

# The tests (JUnit 5 through Surefire): Surefire's lines, then one line totalling them.
reports="java/interop/target/surefire-reports"
rm -rf "$reports" java/interop/target/test-classes
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
mvn -B -ntp -f java/interop/pom.xml test >"$log" 2>&1 || status=$?
if [ "$status" != 0 ] && ! ls "$reports"/TEST-*.xml >/dev/null 2>&1; then
    cat "$log" >&2
    die "the Maven build failed before the tests ran"
fi
grep -E 'Tests run:|FAIL|\[ERROR\]' "$log" || true
bash scripts/lib/surefire-count.sh java-interop "$reports" && [ "$status" = 0 ]

#!/usr/bin/env bash
# Java conformance tests of Sable's generated codecs: builds `sable` and the test emitter
# (crates/sable-codegen/examples/java_conformance.rs), writes a JUnit test per conformance vector
# (conformance/vectors/*.jsonl) for each buffer flavour (MemorySegment and Agrona), generates
# the codecs of every schema they use (each in its own package, sable.conformance.<schema> and
# sable.conformance.agrona.<schema>) into java/conformance/target/generated-test-sources/sable,
# then runs java/conformance with Maven (the codecs compiled with -Xlint:all -Werror).
# Then runs every conformance vector (valid and malformed) through the Java codec driver
# (scripts/drivers/java.sh, via conformance/run.py), once per buffer flavour.
# Idempotent: the generated sources are rewritten from scratch each time, never committed.
#
#   scripts/java-conformance.sh                  generate, then run the tests
#   scripts/java-conformance.sh --generate-only  generate only
#
# Environment: CARGO_TARGET_DIR (where cargo builds, default target/), SABLE (a `sable` binary
# to use instead of building one). Needs cargo, mvn and a JDK 25 (scripts/jdk.sh finds it).
set -euo pipefail

die() {
    echo "java-conformance: $*" >&2
    exit 1
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
[ -d "$root/../shared/schemas/valid" ] || die "the schema corpus ../shared is missing (beside the repository)"

generate_only=0
case "${1:-}" in
    --generate-only) generate_only=1 ;;
    "") ;;
    *) die "unknown argument '$1' (usage: scripts/java-conformance.sh [--generate-only])" ;;
esac

if [ -z "${SABLE:-}" ]; then
    cargo build --quiet --release -p sable-cli
    SABLE="${CARGO_TARGET_DIR:-$root/target}/release/sable"
fi
[ -x "$SABLE" ] || die "no sable binary at $SABLE"

out="$root/java/conformance/target/generated-test-sources/sable"
rm -rf "$out"
mkdir -p "$out/codecs"
cargo run --quiet --release -p sable-codegen --example java_conformance -- "$out"
while IFS=$'\t' read -r package buffer schema; do
    "$SABLE" generate --lang java --java-buffer "$buffer" --package "$package" \
        --output "$out/codecs" "$schema" || die "sable generate failed on $schema"
done <"$out/schemas.tsv"
# The hand-written API tests (java/conformance/src/test) also use enums generated with
# --java-unknown-enum.
"$SABLE" generate --lang java --java-unknown-enum --package sable.conformance.unknown.enums_sets \
    --output "$out/codecs" conformance/schemas/enums-sets.xml || die "sable generate failed on enums-sets.xml"

[ "$generate_only" = 1 ] && exit 0

JAVA_HOME="$(scripts/jdk.sh 25)" || die "a JDK 25 is needed (scripts/setup.sh installs the tools)"
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
command -v mvn >/dev/null 2>&1 || die "mvn not found (scripts/setup.sh installs Maven)"
# Maven's own libraries call sun.misc.Unsafe; JDK 25 would warn about it on every run.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
reports=(java/conformance/target/surefire-reports java/conformance/target/surefire-reports-access-order)
rm -rf "${reports[@]}"
status=0
mvn -B -q -f java/pom.xml -pl conformance test || status=$?
bash scripts/lib/surefire-count.sh java-conformance "${reports[@]}" || status=1
# The driver's vectors, through the schema-level entry point of each flavour (the Agrona one
# needs the reference's jar, which bundles Agrona, when Maven's repository has no Agrona).
export SABLE
for flavour in segment agrona; do
    SABLE_JAVA_BUFFER="$flavour" python3 conformance/run.py java | sed "s/^conformance java:/conformance java ($flavour):/" ||
        status=1
done
[ "$status" = 0 ]

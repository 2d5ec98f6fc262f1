#!/usr/bin/env bash
# The Java codec driver (protocol: scripts/codec-driver.sh). Generates SCHEMA's Java codecs with
# the workspace's `sable` into the package sable.driver.codecs, compiles them with the driver
# (java/driver: Driver.java, and Message.java of the buffer flavour) using javac directly, caches
# the classes under $CARGO_TARGET_DIR/codec-driver/java/<hash of the generated sources, the
# driver's sources and the flavour>, and runs the driver.
#
#   scripts/drivers/java.sh SCHEMA
#
# Environment: SABLE_JAVA_BUFFER (segment, the default, or agrona), CARGO_TARGET_DIR, SABLE (a
# `sable` binary to use instead of building one). Needs a JDK 25 (scripts/jdk.sh); the Agrona
# flavour an Agrona jar (the local Maven repository's, or the reference's sbe-all jar, which
# bundles it: scripts/fetch-reference.sh).
set -euo pipefail
die() {
    echo "java driver: $*" >&2
    exit 2
}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -eq 1 ] || die "usage: scripts/drivers/java.sh SCHEMA"
schema="$1"
flavour="${SABLE_JAVA_BUFFER:-segment}"
case "$flavour" in segment | agrona) ;; *) die "SABLE_JAVA_BUFFER must be segment or agrona, not '$flavour'" ;; esac
SABLE="$(driver_sable)"
JAVA_HOME="$(bash "$root/scripts/jdk.sh" 25)" || die "a JDK 25 is needed (scripts/setup.sh installs one)"

classpath=""
if [ "$flavour" = agrona ]; then
    agrona="$(find "$HOME/.m2/repository/org/agrona/agrona" -name 'agrona-*.jar' ! -name '*sources*' 2>/dev/null | sort | tail -1 || true)"
    [ -n "$agrona" ] || agrona="$root/.cache/reference/sbe-all-1.32.1.jar"
    [ -f "$agrona" ] || die "no Agrona jar (scripts/fetch-reference.sh fetches the reference's, which bundles it)"
    classpath="$agrona"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$SABLE" generate --lang java --java-buffer "$flavour" --package sable.driver.codecs \
    --output "$work/src" "$schema" >&2 || die "sable generate failed on $schema"
driver_sources=("$root/java/driver/Driver.java" "$root/java/driver/$flavour/Message.java")
key="$(echo "$flavour" | driver_key "$work/src" "${driver_sources[@]}")"
cache="$target/codec-driver/java/$key"
if [ ! -f "$cache/built" ]; then
    rm -rf "$cache"
    mkdir -p "$cache/classes"
    # shellcheck disable=SC2046
    "$JAVA_HOME/bin/javac" -nowarn -encoding UTF-8 --release 25 ${classpath:+-cp "$classpath"} -d "$cache/classes" \
        $(find "$work/src" -name '*.java') "${driver_sources[@]}" >&2 || die "javac failed on the codecs of $schema"
    touch "$cache/built"
fi
rm -rf "$work"
trap - EXIT
jvm_options=()
# Agrona reads and writes through sun.misc.Unsafe, which JDK 25 warns about.
[ "$flavour" = agrona ] && jvm_options+=(--sun-misc-unsafe-memory-access=allow)
exec "$JAVA_HOME/bin/java" "${jvm_options[@]}" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
    -cp "$cache/classes${classpath:+:$classpath}" sable.driver.Driver

#!/usr/bin/env bash
# Installs what `make test` needs on a fresh Debian machine of this project's kind: Rust's clippy
# and rustfmt (through rustup), a JDK 17 or later and Maven (for the reference implementation the
# interop tests compare against). Idempotent, and quick when everything is already there.
set -euo pipefail

die() {
    echo "setup: $*" >&2
    exit 1
}

sudo=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "not root and no sudo: cannot install Debian packages"
    sudo="sudo"
fi

apt_updated=0
apt_install() {
    echo "setup: installing $* (Debian packages)" >&2
    if [ "$apt_updated" = 0 ]; then
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        apt_updated=1
    fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Rust: the toolchain itself comes with the machine (rustup); add the components the tests use.
command -v cargo >/dev/null 2>&1 || die "cargo not found: install Rust with rustup (https://rustup.rs)"
if command -v rustup >/dev/null 2>&1; then
    installed="$(rustup component list --installed)"
    for component in clippy rustfmt; do
        if ! grep -q "^${component}-" <<<"$installed"; then
            echo "setup: rustup component add $component" >&2
            rustup component add "$component"
        fi
    done
fi
cargo clippy --version >/dev/null 2>&1 || die "cargo clippy is not available"
cargo fmt --version >/dev/null 2>&1 || die "cargo fmt is not available"

# A JDK 17 or later (java and javac) and Maven, for scripts/fetch-reference.sh and the interop
# tests.
major() { # the major version in `$1 -version`'s output: 17 for "17.0.15", 1 for "1.8.0_392"
    "$1" -version 2>&1 | grep -m 1 -Eo '(version "|^javac )[0-9]+' | grep -Eo '[0-9]+$' || true
}
has_jdk17() {
    command -v java >/dev/null 2>&1 && command -v javac >/dev/null 2>&1 &&
        [ "$(major java)" -ge 17 ] 2>/dev/null && [ "$(major javac)" -ge 17 ] 2>/dev/null
}
has_jdk17 || apt_install openjdk-17-jdk-headless
has_jdk17 || die "java and javac on PATH are not 17 or later: put a JDK 17 or later first on PATH"
command -v mvn >/dev/null 2>&1 || apt_install maven
command -v mvn >/dev/null 2>&1 || die "mvn not found after installing maven"

# A JDK 25 or later for Sable's generated Java codecs (the FFM API) and their tests. Machines of
# this project's kind come with a Temurin 25 beside the system JDK; Debian 12 packages none.
jdk25="$(bash scripts/jdk.sh 25)" ||
    die "a JDK 25 or later is needed for the Java codec tests: install one under /usr/lib/jvm or set JAVA_HOME"
echo "setup: JDK 25 at $jdk25" >&2

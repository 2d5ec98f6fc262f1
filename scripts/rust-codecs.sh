#!/usr/bin/env bash
# Tests of Sable's generated Rust codecs, in the rust/ workspace (a workspace of its own: its
# sources are generated here, and the reference's codecs need Java to generate):
#
#   1. rust/codecs/src: the module of every valid shared schema, conformance schema and the spec's
#      Examples.xml, and rust/tests/tests/conformance.rs (a test per conformance vector and
#      direction), by sable-codegen's rust_conformance example;
#   2. rust/reference/<schema>/: the reference's generated Rust crates (sbe-all 1.32.1,
#      -Dsbe.target.language=Rust) of the example, extension, Car and MarketData schemas;
#   3. cargo test in rust/ (conformance, interop with the reference both ways, property tests,
#      decoding of truncated and corrupted messages), unless --no-test;
#   4. cargo clippy --all-targets -D warnings over the workspace (the generated modules of every
#      schema in one crate) and rustfmt --check on the generated modules;
#   5. the generated modules checked with the MSRV toolchain (sable-build's rust-version);
#   6. the codec driver (scripts/drivers/rust.sh) over every conformance vector
#      (conformance/run.py rust), and over truncations of a few messages at every byte with the
#      contract's errors (rust/driver/truncations.py).
#
# Usage: scripts/rust-codecs.sh [--generate-only]. Needs Java 17+ and the reference jar
# (scripts/fetch-reference.sh). CARGO_TARGET_DIR is honoured (the rust/ workspace builds in
# $CARGO_TARGET_DIR/rust-codecs).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

target="${CARGO_TARGET_DIR:-$root/target}"
jar="$root/.cache/reference/sbe-all-1.32.1.jar"
[ -f "$jar" ] || jar="$HOME/.m2/repository/uk/co/real-logic/sbe-all/1.32.1/sbe-all-1.32.1.jar"
[ -f "$jar" ] || { echo "rust-codecs: no reference jar (run scripts/fetch-reference.sh)" >&2; exit 1; }

CARGO_TARGET_DIR="$target" cargo run -q --release -p sable-codegen --example rust_conformance -- rust/codecs rust/tests

for schema in example-schema example-extension-schema bench-car bench-fix-message-samples; do
    out="rust/reference/$schema"
    src="$root/../shared/schemas/valid/$schema.xml"
    if [ ! -d "$out" ] || [ "$src" -nt "$out" ] || [ "$jar" -nt "$out" ]; then
        rm -rf "$out"
        java -Dsbe.target.language=Rust -Dsbe.output.dir="$out" -Dsbe.xinclude.aware=true \
            -jar "$jar" "$src" >/dev/null
    fi
done

[ "${1:-}" = "--generate-only" ] && exit 0

cd rust
export CARGO_TARGET_DIR="$target/rust-codecs"
status=0
cargo test --workspace 2>&1 | tee "$CARGO_TARGET_DIR.log" || status=$?
cargo clippy --workspace --all-targets -q -- -D warnings || status=$?
rustfmt --edition 2021 --check codecs/src/*.rs tests/src/*.rs tests/tests/interop.rs tests/tests/props.rs tests/tests/malformed.rs tests/tests/errors.rs tests/benches/*.rs tests/examples/*.rs || status=$?
# The generated code's MSRV (sable-build's rust-version, docs/rust.md): every schema's module
# checked (metadata only) with that toolchain, installed once (minimal profile).
msrv="$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$root/crates/sable-build/Cargo.toml")"
rustup toolchain install "$msrv" --profile minimal >/dev/null 2>&1 || true
rustup run "$msrv" rustc --edition 2021 --crate-type lib --emit=metadata \
    -o "$CARGO_TARGET_DIR/msrv.rmeta" codecs/src/lib.rs && echo "rust codecs: generated code builds with Rust $msrv" || status=$?
# The driver (scripts/drivers/rust.sh) over every conformance vector, then over truncations of
# a few messages at every byte (rust/driver/truncations.py works out the contract's errors).
cd "$root"
CARGO_TARGET_DIR="$target" python3 conformance/run.py rust || status=$?
python3 rust/driver/truncations.py "$target/rust-codecs/truncations.jsonl"
CARGO_TARGET_DIR="$target" python3 conformance/run.py rust "$target/rust-codecs/truncations.jsonl" || status=$?
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i) ~ /^passed;?$/) p += $(i-1); if ($(i) ~ /^failed;?$/) f += $(i-1) } }
     END { printf "rust codecs: %d passed, %d failed\n", p, f }' "$CARGO_TARGET_DIR.log"
exit "$status"

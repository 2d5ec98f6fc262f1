# Sourced by the codec drivers of generated codecs (java.sh, cpp.sh, rust.sh): what each needs
# the same way. Sets `root` (the repository) and `target` (CARGO_TARGET_DIR or target/).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"

# driver_sable: the `sable` that generates the codecs: $SABLE when set, else the workspace's,
# built (release) under $target first. Build output goes to standard error.
driver_sable() {
    if [ -n "${SABLE:-}" ]; then
        echo "$SABLE"
        return
    fi
    (cd "$root" && CARGO_TARGET_DIR="$target" cargo build --quiet --release -p sable-cli) >&2
    echo "$target/release/sable"
}

# driver_key DIR FILE...: the cache key of a driver build: a hash of every file under DIR (the
# generated code, in name order), of the FILEs (the driver's sources) and of standard input
# (whatever else the build depends on, e.g. the compiler's version).
driver_key() {
    local dir="$1"
    shift
    { (cd "$dir" && find . -type f | LC_ALL=C sort | xargs -r cat); cat "$@" -; } |
        sha256sum | cut -c1-24
}

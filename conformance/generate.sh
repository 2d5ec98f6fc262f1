#!/usr/bin/env bash
# Fills in (or refreshes, or checks) the "hex" of the conformance vectors from their "json".
#
#   conformance/generate.sh [--encoder reference-ir|sable] [--check] [FILE.jsonl...]
#
#   --encoder reference-ir   (the default) the IR-driven encoder of interop/ConformanceCheck.java:
#                            independent of Sable, it walks the reference implementation's IR
#   --encoder sable          Sable's encoder: `sable encode --schema SCHEMA` (the workspace's
#                            sable-cli, built into target/conformance)
#   --check                  write nothing; list each vector whose committed hex differs from the
#                            encoder's, and exit 1 if any does
#
# FILEs default to every conformance/vectors/*.jsonl. Vectors with a "hexSource" key (the spec's
# worked examples, whose bytes come from the spec) are never touched. Each line's "hex" must be
# its last key (the files are written that way), so the rest of the line is kept byte for byte.
# Needs scripts/fetch-reference.sh to have been run (Java and the reference jar).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
encoder=reference-ir
check=0
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --encoder) encoder="$2"; shift 2 ;;
        --check) check=1; shift ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        -*) echo "generate: unknown option $1" >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
[ ${#files[@]} -gt 0 ] || files=(conformance/vectors/*.jsonl)

scripts/fetch-reference.sh
cp=".cache/reference/sbe-all-1.32.1.jar:.cache/reference/classes"
java_run() { java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$cp" ConformanceCheck "$@"; }

sable=""
if [ "$encoder" = sable ]; then
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target/conformance}"
    cargo build -q -p sable-cli
    sable="$CARGO_TARGET_DIR/debug/sable"
elif [ "$encoder" != reference-ir ]; then
    echo "generate: --encoder must be reference-ir or sable" >&2
    exit 2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
for file in "${files[@]}"; do
    # NAME<TAB>HEX (or NAME<TAB>ERROR: ...) for every vector of the file.
    if [ "$encoder" = reference-ir ]; then
        java_run encode "$file" >"$tmp/hex" || true
    else
        : >"$tmp/hex"
        java_run list "$file" | while IFS=$'\t' read -r name schema json; do
            if bytes="$(printf '%s\n' "$json" | "$sable" encode --schema "$schema" 2>"$tmp/err" | od -An -v -tx1 | tr -d ' \n')" \
                && [ -n "$bytes" ]; then
                printf '%s\t%s\n' "$name" "$bytes"
            else
                printf '%s\tERROR: %s\n' "$name" "$(tr '\n' ' ' <"$tmp/err")"
            fi >>"$tmp/hex"
        done
    fi
    : >"$tmp/out"
    n=0
    while IFS= read -r line || [ -n "$line" ]; do
        if [ -z "$line" ]; then
            printf '\n' >>"$tmp/out"
            continue
        fi
        n=$((n + 1))
        IFS=$'\t' read -r name hex < <(sed -n "${n}p" "$tmp/hex")
        case "$line" in
            *'"hexSource":'*)
                printf '%s\n' "$line" >>"$tmp/out"
                continue ;;
        esac
        case "$hex" in
            ERROR:*|"")
                echo "generate: $file: $name: ${hex:-no output from the encoder}" >&2
                status=1
                printf '%s\n' "$line" >>"$tmp/out"
                continue ;;
        esac
        new="$(printf '%s\n' "$line" | sed -E 's/"hex":"[0-9a-f]*"\}$/"hex":"'"$hex"'"}/')"
        if [ "$new" = "$line" ] && ! printf '%s' "$line" | grep -q '"hex":"'"$hex"'"}$'; then
            echo "generate: $file: $name: \"hex\" is not the line's last key" >&2
            status=1
        elif [ "$new" != "$line" ] && [ $check = 1 ]; then
            echo "generate: $file: $name: the committed hex differs from the $encoder encoder's" >&2
            echo "    committed: $(printf '%s' "$line" | sed -E 's/.*"hex":"([0-9a-f]*)"\}$/\1/')" >&2
            echo "    $encoder: $hex" >&2
            status=1
        fi
        printf '%s\n' "$new" >>"$tmp/out"
    done <"$file"
    if [ $check = 0 ] && ! cmp -s "$tmp/out" "$file"; then
        cp "$tmp/out" "$file"
        echo "generate: updated $file"
    fi
done
exit $status

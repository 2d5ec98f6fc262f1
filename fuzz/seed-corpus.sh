#!/usr/bin/env bash
# Seeds the parse_schema fuzz corpus (fuzz/corpus/parse_schema, not committed) with every XML file
# under ../shared/schemas and examples/, and, when target/release/sable is built, with the .sbeir
# file of each schema that compiles. Files are named by their SHA-1, so running it again adds
# nothing new.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
schemas="$root/../shared/schemas"
corpus="$here/corpus/parse_schema"
sable="$root/target/release/sable"

[ -d "$schemas" ] || {
    echo "seed-corpus: $schemas not found (shared/ sits beside the repository)" >&2
    exit 1
}
mkdir -p "$corpus"

add() {
    cp "$1" "$corpus/$(sha1sum <"$1" | cut -d' ' -f1)"
}

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
xml=0
sbeir=0
while IFS= read -r -d '' file; do
    add "$file"
    xml=$((xml + 1))
    if [ -x "$sable" ] && "$sable" ir "$file" -o "$tmp/seed.sbeir" >/dev/null 2>&1; then
        add "$tmp/seed.sbeir"
        sbeir=$((sbeir + 1))
    fi
done < <(find "$schemas" "$root/examples" -name '*.xml' -print0 | sort -z)

echo "seed-corpus: $xml XML and $sbeir .sbeir seeds; $(find "$corpus" -type f | wc -l) files in $corpus" >&2

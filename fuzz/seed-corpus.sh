#!/usr/bin/env bash
# Seeds the fuzz corpora (fuzz/corpus/, not committed). parse_schema: every XML file
# under ../shared/schemas and examples/, and, when target/release/sable is built, with the .sbeir
# file of each schema that compiles; sbeir_generate: those .sbeir files. Files are named by their SHA-1, so running it again adds
# nothing new.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
schemas="$root/../shared/schemas"
corpus="$here/corpus/parse_schema"
sbeir_corpus="$here/corpus/sbeir_generate"
sable="${CARGO_TARGET_DIR:-$root/target}/release/sable"

[ -d "$schemas" ] || {
    echo "seed-corpus: $schemas not found (shared/ sits beside the repository)" >&2
    exit 1
}
mkdir -p "$corpus" "$sbeir_corpus"

add() {
    cp "$1" "${2:-$corpus}/$(sha1sum <"$1" | cut -d' ' -f1)"
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
        add "$tmp/seed.sbeir" "$sbeir_corpus"
        sbeir=$((sbeir + 1))
    fi
done < <(find "$schemas" "$root/examples" -name '*.xml' -print0 | sort -z)

echo "seed-corpus: $xml XML and $sbeir .sbeir seeds; $(find "$corpus" -type f | wc -l) files in $corpus" >&2

# The decode target: each conformance vector of one of its schemas, as the schema's index (the
# first byte, see fuzz_targets/decode.rs) followed by the vector's bytes.
decode_corpus="$here/corpus/decode"
mkdir -p "$decode_corpus"
python3 - "$root/conformance/vectors" "$decode_corpus" <<'PY'
import hashlib, json, os, sys
vectors, out = sys.argv[1], sys.argv[2]
schemas = ["example-schema.xml", "example-bigendian-test-schema.xml", "example-extension-schema.xml",
           "versioned-message-v2.xml", "bench-fix-message-samples.xml"]
count = 0
for name in sorted(os.listdir(vectors)):
    for line in open(os.path.join(vectors, name)):
        v = json.loads(line)
        schema = os.path.basename(v.get("decodeSchema", v["schema"]))
        if schema in schemas and v["hex"]:
            data = bytes([schemas.index(schema)]) + bytes.fromhex(v["hex"])
            with open(os.path.join(out, hashlib.sha1(data).hexdigest()), "wb") as f:
                f.write(data)
            count += 1
print(f"seed-corpus: {count} decode seeds from the conformance vectors", file=sys.stderr)
PY

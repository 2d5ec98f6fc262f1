#!/usr/bin/env python3
"""Truncated messages for the codec drivers, with the codec contract's expected errors.

    rust/driver/truncations.py OUT.jsonl

Cuts a few conformance vectors (the example schema's Car with groups, nested groups and var
data; MarketData's group of fixed entries) at every byte, and writes one malformed vector per
cut in conformance/malformed's format. The expected error is worked out here, independently of
every codec: the message is split into the contract's items in reading order (docs/codecs.md:
header, root block, each group's dimension header, each entry's block, nested groups and var
data, the message's var data), with the counts and lengths read from the whole message; a cut
at byte k is a `truncated` error at the first item that does not end by k. Run through a driver
with `conformance/run.py LANG OUT.jsonl`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

# A body: (its groups, its var data), each group (name, dimension size, body), each var data
# (name, length size). Dimensions hold a uint16 blockLength at 0 and the count at 2 (uint16).
CAR_BODY = (
    [
        ("fuelFigures", 4, ([], [("usageDescription", 4)])),
        ("performanceFigures", 4, ([("acceleration", 4, ([], []))], [])),
    ],
    [("manufacturer", 4), ("model", 4), ("activationCode", 4)],
)
MD_BODY = ([("Entries", 4, ([], []))], [])

MESSAGES = [
    ("car.jsonl", "car", CAR_BODY),
    ("marketdata.jsonl", "marketdata-two-entries", MD_BODY),
]


def u16(b: bytes, at: int) -> int:
    return int.from_bytes(b[at : at + 2], "little")


def items(msg: bytes) -> list[tuple[int, int, str]]:
    """The contract's items of a whole message: (start, end, field path), in reading order."""
    found = [(0, 8, "header")]
    block = u16(msg, 0)
    found.append((8, 8 + block, "fields"))
    end = body(msg, 8 + block, "fields", MESSAGES_BODY[0], found)
    assert end == len(msg), (end, len(msg))
    return found


def body(msg: bytes, p: int, path: str, shape, found: list) -> int:
    groups, var_data = shape
    for name, dim, entry_shape in groups:
        gpath = f"{path}.{name}"
        found.append((p, p + dim, gpath))
        block, count = u16(msg, p), u16(msg, p + 2)
        p += dim
        for i in range(count):
            epath = f"{gpath}[{i}]"
            found.append((p, p + block, epath))
            p = body(msg, p + block, epath, entry_shape, found)
    for name, size in var_data:
        n = int.from_bytes(msg[p : p + size], "little")
        found.append((p, p + size + n, f"{path}.{name}"))
        p += size + n
    return p


MESSAGES_BODY: list = []


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    lines = []
    for file, name, shape in MESSAGES:
        for line in (ROOT / "conformance/vectors" / file).read_text(encoding="utf-8").splitlines():
            vector = json.loads(line)
            if vector["name"] != name:
                continue
            msg = bytes.fromhex(vector["hex"])
            MESSAGES_BODY[:] = [shape]
            all_items = items(msg)
            for cut in range(len(msg)):  # from the empty message (sent as "-") on
                start, _, field = next(i for i in all_items if i[1] > cut)
                error = {"offset": start, "field": field, "kind": "truncated"}
                lines.append(
                    json.dumps(
                        {
                            "name": f"{name}-cut-{cut}",
                            "schema": vector["schema"],
                            "error": error,
                            "hex": msg[:cut].hex(),
                        },
                        separators=(",", ":"),
                    )
                )
    Path(argv[0]).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"truncations: {len(lines)} vectors in {argv[0]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

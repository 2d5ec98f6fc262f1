#!/usr/bin/env python3
"""Runs the conformance vectors through one language's codec driver (scripts/codec-driver.sh).

    conformance/run.py LANG [FILE.jsonl ...]

FILEs default to every conformance/vectors/*.jsonl (valid messages: the driver must print the
vector's canonical JSON, as text) and conformance/malformed/*.jsonl (the driver must report the
vector's error: the same offset, field path and kind). The driver is started once per schema and
fed every message of that schema, one hex line each (`-` for an empty message). Prints each
failure, then one line "conformance LANG: N passed, M failed"; exits 1 when any vector failed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECODER = json.JSONDecoder()


@dataclass
class Vector:
    where: str  # file:line, for reports
    name: str
    schema: str  # the schema to decode with, relative to the repository root
    hex: str
    json_text: str | None  # the expected canonical JSON, as text (valid vectors)
    error: dict[str, object] | None  # the expected offset, field and kind (malformed vectors)


def raw_members(line: str) -> dict[str, str]:
    """The top-level members of a JSON object, each value as its exact text in the line."""
    members: dict[str, str] = {}
    pos = line.index("{") + 1
    while True:
        while line[pos] in " \t,":
            pos += 1
        if line[pos] == "}":
            return members
        key, pos = DECODER.raw_decode(line, pos)
        while line[pos] in " \t:":
            pos += 1
        start = pos
        _, pos = DECODER.raw_decode(line, pos)
        members[key] = line[start:pos]


def read_vectors(path: Path) -> list[Vector]:
    vectors = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        raw = raw_members(line)
        value = json.loads(line)
        where = f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{number}"
        if "error" in value:
            vectors.append(
                Vector(where, value["name"], value["schema"], value["hex"], None, value["error"])
            )
        elif value.get("hex"):
            schema = value.get("decodeSchema", value["schema"])
            expected = raw["decodeJson"] if "decodeSchema" in value else raw["json"]
            vectors.append(Vector(where, value["name"], schema, value["hex"], expected, None))
    return vectors


def run_driver(lang: str, schema: str, vectors: list[Vector]) -> list[str]:
    """The driver's output lines for the vectors' messages, in order."""
    # The protocol's line for a message: its hex, or "-" for the empty message.
    stdin = "".join((v.hex or "-") + "\n" for v in vectors)
    result = subprocess.run(
        [str(ROOT / "scripts/codec-driver.sh"), lang, str(ROOT / schema)],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=1800,
        check=False,
    )
    sys.stderr.write(result.stderr)
    if result.returncode != 0:
        raise RuntimeError(f"the {lang} driver for {schema} exited with status {result.returncode}")
    return result.stdout.splitlines()


def check(vector: Vector, output: str) -> str | None:
    """Why the driver's output for `vector` is wrong, or None when it is right."""
    if vector.json_text is not None:
        if output == vector.json_text:
            return None
        return f"expected {vector.json_text}\n      got {output}"
    try:
        got = json.loads(output).get("error")
    except (ValueError, AttributeError):
        got = None
    assert vector.error is not None
    wanted = {key: vector.error[key] for key in ("offset", "field", "kind")}
    if isinstance(got, dict) and {key: got.get(key) for key in wanted} == wanted:
        return None
    return f"expected the error {json.dumps(wanted)}\n      got {output}"


def main(argv: list[str]) -> int:
    if len(argv) < 1 or argv[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    lang = argv[0]
    files = [Path(f).resolve() for f in argv[1:]] or sorted(
        [*ROOT.glob("conformance/vectors/*.jsonl"), *ROOT.glob("conformance/malformed/*.jsonl")]
    )
    by_schema: dict[str, list[Vector]] = {}
    passed = failed = 0
    for path in files:
        for vector in read_vectors(path):
            by_schema.setdefault(vector.schema, []).append(vector)
    for schema, vectors in by_schema.items():
        try:
            outputs = run_driver(lang, schema, vectors)
        except (RuntimeError, subprocess.TimeoutExpired) as problem:
            print(f"FAIL {schema}: {problem}")
            failed += len(vectors)
            continue
        if len(outputs) != len(vectors):
            print(f"FAIL {schema}: {len(vectors)} messages in, {len(outputs)} lines out")
            failed += len(vectors)
            continue
        for vector, output in zip(vectors, outputs):
            problem = check(vector, output)
            if problem is None:
                passed += 1
            else:
                failed += 1
                print(f"FAIL {vector.where} {vector.name}: {problem}")
    print(f"conformance {lang}: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

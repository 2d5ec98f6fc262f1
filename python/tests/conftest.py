"""Generates the packages the tests import (with $SABLE, else target/release/sable) into a
temporary folder on sys.path: `car` (examples/car.xml), `structure`
(conformance/schemas/structure.xml), `bigendian` (the shared big-endian schema) and `names`
(python/tests/schemas/names.xml: schema names the generated code also uses)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = {
    "car": ROOT / "examples/car.xml",
    "structure": ROOT / "conformance/schemas/structure.xml",
    "bigendian": ROOT / "../shared/schemas/valid/example-bigendian-test-schema.xml",
    "names": ROOT / "python/tests/schemas/names.xml",
}


def sable() -> str:
    target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
    return os.environ.get("SABLE", f"{target}/release/sable")


@pytest.fixture(scope="session", autouse=True)
def packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("packages")
    for package, schema in SCHEMAS.items():
        subprocess.run(
            [
                sable(),
                "generate",
                "--quiet",
                "--lang",
                "python",
                "--package",
                package,
                "--output",
                str(out),
                str(schema),
            ],
            check=True,
        )
    sys.path.insert(0, str(out))
    return out


def vector(file: str, name: str) -> dict[str, object]:
    """A conformance vector by name: its json and hex (reference-checked bytes)."""
    for line in (
        (ROOT / "conformance/vectors" / file).read_text(encoding="utf-8").splitlines()
    ):
        v = json.loads(line)
        if v["name"] == name:
            return v
    raise KeyError(name)


def vector_json_text(file: str, name: str) -> str:
    """The vector's canonical JSON, as the exact text of the line."""
    for line in (
        (ROOT / "conformance/vectors" / file).read_text(encoding="utf-8").splitlines()
    ):
        if f'"name":"{name}"' in line:
            start = line.index('"json":') + len('"json":')
            _value, end = json.JSONDecoder().raw_decode(line, start)
            return line[start:end]
    raise KeyError(name)

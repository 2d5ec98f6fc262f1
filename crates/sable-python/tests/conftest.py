"""Shared fixtures of the engine package's tests: the repository, the `sable` binary (to compare
with the CLI), the conformance vectors, and captures written here (pcap, Ethernet, IPv4, UDP)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared"
CAR = SHARED / "schemas/valid/example-schema.xml"


def sable_bin() -> str:
    return os.environ.get("SABLE", str(ROOT / "target/release/sable"))


def run_sable(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run([sable_bin(), *args], input=stdin, capture_output=True, check=False)


def vectors() -> List[Dict[str, Any]]:
    out = []
    for path in sorted((ROOT / "conformance/vectors").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                v = json.loads(line)
                if v.get("hex"):
                    out.append(v)
    return out


def schema_path(relative: str) -> Path:
    return (ROOT / relative).resolve()


def car_lines() -> List[str]:
    """The Car vectors written with this schema's version and block length."""
    lines = []
    for v in vectors():
        text = json.dumps(v["json"], separators=(",", ":"), ensure_ascii=False)
        if v["schema"].endswith("/example-schema.xml") and '"blockLength":49' in text:
            lines.append(text)
    assert lines, "no Car vectors"
    return lines


def encode(framing: str, lines: List[str], schema: Path = CAR) -> bytes:
    done = run_sable("encode", "--schema", str(schema), "--framing", framing, stdin="".join(l + "\n" for l in lines).encode())
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout
    return done.stdout


def _checksum(header: bytes) -> int:
    total = sum(struct.unpack(f"!{len(header) // 2}H", header))
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def udp_frame(payload: bytes, src_port: int = 5000, dst_port: int = 14310) -> bytes:
    """An Ethernet frame of an IPv4 UDP datagram 10.0.0.1 -> 239.1.1.1."""
    udp = struct.pack("!HHHH", src_port, dst_port, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0, bytes([10, 0, 0, 1]), bytes([239, 1, 1, 1]))
    ip = ip[:10] + struct.pack("!H", _checksum(ip)) + ip[12:]
    return b"\x01\x00\x5e\x01\x01\x01" + b"\x02\x00\x00\x00\x00\x01" + b"\x08\x00" + ip + udp


def pcap(packets: List[bytes], start_ns: int = 0, step_ns: int = 1_000_000) -> bytes:
    """A classic pcap file (nanosecond timestamps, Ethernet) of the frames."""
    out = bytearray(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 262144, 1))
    for i, frame in enumerate(packets):
        ts = start_ns + i * step_ns
        out += struct.pack("<IIII", ts // 1_000_000_000, ts % 1_000_000_000, len(frame), len(frame))
        out += frame
    return bytes(out)


def mdp3_packet(sequence: int, sending_ns: int, body: bytes) -> bytes:
    return struct.pack("<IQ", sequence, sending_ns) + body


@pytest.fixture(scope="session")
def car():  # type: ignore[no-untyped-def]
    import sable

    return sable.Schema.load(CAR)

"""`sable.iter_batches`: files and captures decoded as they are read, batch by batch, in bounded
memory; the same rows as `read_tables`, and the same errors and problems."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest
import sable

from conftest import CAR, car_lines, encode, mdp3_packet, pcap, udp_frame


def test_batches_join_into_the_tables_of_read_tables(tmp_path: Path, car: sable.Schema) -> None:
    body = encode("mdp3", car_lines())[12:]
    frames = [udp_frame(mdp3_packet(i + 1, 1000 * i, body)) for i in range(40)]
    path = tmp_path / "md.pcap"
    path.write_bytes(pcap(frames))
    tables = sable.read_tables(car, path, framing="mdp3", pcap=True)
    by_name: dict = {}
    for name, batch in sable.iter_batches(car, path, framing="mdp3", pcap=True):
        assert isinstance(batch, pa.RecordBatch)
        by_name.setdefault(name, []).append(batch)
    assert list(by_name) == list(tables)
    joined = pa.Table.from_batches(by_name["Car"])
    assert joined.equals(tables["Car"])
    assert joined.num_rows == 40 * len(car_lines())
    # Framed files too, and bytes in memory through decode_tables.
    for framing in ["raw", "u16le", "sofh"]:
        data = encode(framing, car_lines() * 3)
        file = tmp_path / f"cars.{framing}"
        file.write_bytes(data)
        batches = [b for _, b in sable.iter_batches(car, file, framing=framing)]
        table = pa.Table.from_batches(batches)
        assert table.equals(sable.read_tables(car, file, framing=framing)["Car"]), framing
        assert table.equals(sable.decode_tables(car, data, framing=framing)["Car"]), framing
        assert table.num_rows == 3 * len(car_lines())


def test_a_bad_message_raises_when_reached_or_is_skipped(tmp_path: Path, car: sable.Schema) -> None:
    good = encode("u32le", car_lines()[:1])
    cut = good[4:-3]
    path = tmp_path / "bad.bin"
    path.write_bytes(good * 3 + struct.pack("<I", len(cut)) + cut + good)
    with pytest.raises(sable.DecodeError) as e:
        list(sable.iter_batches(car, path, framing="u32le"))
    assert e.value.kind == "truncated"
    assert str(e.value).startswith(f"at byte {3 * len(good) + 4}, message byte {e.value.offset} (")
    batches = sable.iter_batches(car, path, framing="u32le", errors="skip")
    rows = sum(b.num_rows for _, b in batches)
    assert rows == 4
    assert len(batches.problems) == 1 and "truncated" in batches.problems[0]
    with pytest.raises(ValueError):
        sable.iter_batches(car, path, errors="ignore")
    with pytest.raises(OSError):
        sable.iter_batches(car, tmp_path / "missing.bin")


def test_a_raw_file_cut_short_ends_with_the_cut_messages_error(tmp_path: Path, car: sable.Schema) -> None:
    data = encode("raw", car_lines())
    path = tmp_path / "cut.bin"
    path.write_bytes(data[:-5])
    batches = sable.iter_batches(car, path, errors="skip")
    assert sum(b.num_rows for _, b in batches) == len(car_lines()) - 1
    assert len(batches.problems) == 1 and "truncated" in batches.problems[0]


CHILD = """
import resource, sys
import pyarrow, sable
schema = sable.Schema.load(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
rows = batches = 0
for name, batch in sable.iter_batches(schema, sys.argv[2], framing="mdp3", pcap=True):
    rows += batch.num_rows
    batches += 1
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(rows, batches, (after - before) * 1024)
"""


def test_a_capture_far_larger_than_the_memory_it_takes_streams(tmp_path: Path) -> None:
    """A 256 MB capture read in pieces: the process's peak memory grows by far less than the
    capture (a batch's worth), where reading it whole would take all of it and more."""
    body = encode("mdp3", car_lines())[12:]
    frame = udp_frame(mdp3_packet(1, 0, body))
    record = struct.pack("<IIII", 0, 0, len(frame), len(frame))
    header = struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 262144, 1)
    packets = (256 << 20) // (len(record) + len(frame))
    path = tmp_path / "large.pcap"
    with open(path, "wb") as f:
        f.write(header)
        chunk = (record + frame) * 1000
        for _ in range(packets // 1000):
            f.write(chunk)
    size = path.stat().st_size
    assert size > 250 << 20
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(CAR), str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    rows, batches, grew = (int(x) for x in done.stdout.split())
    assert rows == (packets // 1000) * 1000 * len(car_lines())
    assert batches > 20
    assert grew < size // 5, f"peak memory grew by {grew} bytes reading a {size}-byte capture"

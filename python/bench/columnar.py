"""The Python side of scripts/bench-columnar.sh (docs/benchmarks.md, "Columnar output"): an MDP
3.0 capture to pandas DataFrames, one per message template, two ways, in one run:

- `sable` (the engine package, crates/sable-python): `sable.read_tables` decodes the capture
  into pyarrow tables on the Rust engine (framing, packet headers and all), then
  `table.to_pandas()` for each (pandas' default conversion, and Arrow-backed); and
  `sable.read_frames`, the package's own DataFrames (NumPy numbers and times, categorical
  enums, Arrow-backed decimals and groups); the whole capture.
- the `sbe` package from PyPI (0.4.3, a runtime interpreter of the schema): each message
  decoded to a dict (`schema.decode(bytes).value`), the packet's sequence number and sending
  time added, then `pandas.DataFrame(rows)` for each template; on the first `--sbe-messages`
  messages (it is slow), framed beforehand outside the timing (its framing is not counted,
  which favours it).

Both DataFrames have one row per message, groups as lists of entries. The two are checked to
read the same messages (rows per template, entries and sizes summed) on the subset. Prints one
line per path: messages, seconds (wall and CPU of this process), messages/s and MB/s of
capture (the subset's share of the capture for the `sbe` package).

Usage: python columnar.py SCHEMA CAPTURE [--sbe-messages N] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import struct
import time
from typing import Any, Dict, List, Tuple

import pandas as pd
import sable


def frames(capture: bytes, limit: int) -> Tuple[List[Tuple[int, int, bytes]], int]:
    """The first `limit` MDP 3.0 messages of a classic pcap of Ethernet/IPv4/UDP frames, each
    with its packet's sequence number and sending time; and the capture bytes they span."""
    magic = struct.unpack_from("<I", capture, 0)[0]
    assert magic in (0xA1B2C3D4, 0xA1B23C4D), "a little-endian classic pcap"
    out: List[Tuple[int, int, bytes]] = []
    pos = 24
    while pos < len(capture) and len(out) < limit:
        incl = struct.unpack_from("<I", capture, pos + 8)[0]
        frame = capture[pos + 16 : pos + 16 + incl]
        pos += 16 + incl
        ihl = (frame[14] & 0x0F) * 4
        payload = frame[14 + ihl + 8 :]
        sequence, sending = struct.unpack_from("<IQ", payload, 0)
        at = 12
        while at < len(payload) and len(out) < limit:
            size = struct.unpack_from("<H", payload, at)[0]
            out.append((sequence, sending, bytes(payload[at + 2 : at + size])))
            at += size
    return out, pos


def sable_tables(schema_path: str, capture_path: str) -> Dict[str, Any]:
    schema = sable.Schema.load(schema_path)
    return sable.read_tables(schema, capture_path, framing="mdp3", pcap=True)


def sable_frames(schema_path: str, capture_path: str) -> Dict[str, pd.DataFrame]:
    """pandas' default conversion: NumPy columns, decimals as `decimal.Decimal`, timestamps as
    datetime64, groups as arrays of dicts."""
    tables = sable_tables(schema_path, capture_path)
    return {name: t.to_pandas() for name, t in tables.items()}


def sable_arrow_frames(schema_path: str, capture_path: str) -> Dict[str, pd.DataFrame]:
    """Arrow-backed columns (`pd.ArrowDtype`): the tables' buffers as they are, exact decimals
    and nested groups included."""
    tables = sable_tables(schema_path, capture_path)
    return {name: t.to_pandas(types_mapper=pd.ArrowDtype) for name, t in tables.items()}


def sable_read_frames(schema_path: str, capture_path: str) -> Dict[str, pd.DataFrame]:
    """The package's DataFrames (`sable.to_frame`'s dtypes)."""
    schema = sable.Schema.load(schema_path)
    return sable.read_frames(schema, capture_path, framing="mdp3", pcap=True)


def sbe_frames(schema: Any, messages: List[Tuple[int, int, bytes]]) -> Dict[str, pd.DataFrame]:
    rows: Dict[str, List[Dict[str, Any]]] = {}
    for sequence, sending, data in messages:
        decoded = schema.decode(data)
        row = {"_sequenceNumber": sequence, "_sendingTime": sending}
        row.update(decoded.value)
        rows.setdefault(decoded.message_name, []).append(row)
    return {name: pd.DataFrame(r) for name, r in rows.items()}


def summary(frames_by_name: Dict[str, pd.DataFrame], limit: int) -> Dict[str, Tuple[int, int, int]]:
    """Per template, over the first `limit` messages in capture order: rows, NoMDEntries
    entries, and their MDEntrySize (or MDDisplayQty) summed."""
    out = {}
    for name, df in frames_by_name.items():
        if "_offset" in df.columns:
            df = df.sort_values(["_packetOffset", "_offset"], kind="stable")
        df = df.head(limit)
        entries = size = 0
        if "NoMDEntries" in df.columns:
            for group in df["NoMDEntries"]:
                for e in group:
                    entries += 1
                    v = e.get("MDEntrySize", e.get("MDDisplayQty"))
                    size += int(v) if v is not None and v == v else 0
        out[name] = (len(df), entries, size)
    return out


def timed(f):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    result = f()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("schema")
    parser.add_argument("capture")
    parser.add_argument("--sbe-messages", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import sbe

    with open(args.capture, "rb") as f:
        capture = f.read()
    size = len(capture)
    every, _ = frames(capture, 1 << 62)
    total = len(every)
    subset, subset_end = frames(capture, args.sbe_messages)
    del every
    with open(args.schema, encoding="utf-8") as f:
        sbe_schema = sbe.Schema.parse(f)

    def best_of(f):  # type: ignore[no-untyped-def]
        """The last result, the least wall time and the least CPU time of `args.repeat` runs."""
        walls, cpus = [], []
        for _ in range(args.repeat):
            result = None  # (the previous run's result freed first)
            result, wall, cpu = timed(f)
            walls.append(wall)
            cpus.append(cpu)
        return result, min(walls), min(cpus)

    rates = {}
    for label, f in (
        ("sable read_tables (pyarrow tables)", lambda: sable_tables(args.schema, args.capture)),
        ("sable read_tables + to_pandas()", lambda: sable_frames(args.schema, args.capture)),
        (
            "sable read_tables + to_pandas(types_mapper=pd.ArrowDtype)",
            lambda: sable_arrow_frames(args.schema, args.capture),
        ),
        ("sable read_frames", lambda: sable_read_frames(args.schema, args.capture)),
    ):
        result, wall, cpu = best_of(f)
        rows = sum(len(t) for t in result.values())
        assert rows == total, f"sable read {rows} messages of {total}"
        rates[label] = (total / wall, total / cpu)
        print(
            f"{label}: {total} messages, {wall:.3f} s wall, {cpu:.3f} s CPU: "
            f"{total / wall:,.0f} msg/s, {size / wall / 1e6:.1f} MB/s "
            f"({total / cpu:,.0f} msg/s, {size / cpu / 1e6:.1f} MB/s of CPU)"
        )
        if "to_pandas()" in label:
            sable_result = result
        if "read_frames" in label:
            frames_result = result
        del result
    sbe_result, swall, scpu = best_of(lambda: sbe_frames(sbe_schema, subset))
    n = len(subset)
    print(
        f"sbe package decode + DataFrame: {n} messages (the first; {subset_end} bytes of capture), "
        f"{swall:.3f} s wall, {scpu:.3f} s CPU: {n / swall:,.0f} msg/s, "
        f"{subset_end / swall / 1e6:.2f} MB/s ({n / scpu:,.0f} msg/s, "
        f"{subset_end / scpu / 1e6:.2f} MB/s of CPU)"
    )
    for label, (by_wall, by_cpu) in rates.items():
        print(
            f"ratio {label} / sbe package: {by_wall / (n / swall):.1f} (wall), "
            f"{by_cpu / (n / scpu):.1f} (CPU)"
        )
    # The same messages read both ways, on the subset: each template's first rows (sable's
    # tables hold the whole capture).
    counts = {name: len(df) for name, df in sbe_result.items()}
    mine = {k: summary({k: sable_result[k]}, counts[k])[k] for k in counts}
    theirs = summary(sbe_result, 1 << 62)
    assert mine == theirs, f"the two read different messages: {mine} != {theirs}"
    mine = {k: summary({k: frames_result[k]}, counts[k])[k] for k in counts}
    assert mine == theirs, f"read_frames read different messages: {mine} != {theirs}"
    print(f"checked: the subset's rows, entries and sizes agree ({theirs})")


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()

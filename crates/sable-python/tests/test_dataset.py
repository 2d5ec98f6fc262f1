"""The scale-out recipe: a dask.distributed LocalCluster of two worker processes decodes several
synthetic captures into a Parquet dataset partitioned by message; DuckDB's reading of it equals a
single-process decode of the same captures, row for row."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
from dask import distributed

import sable
from conftest import CAR, car_lines, encode, mdp3_packet, pcap, udp_frame


def plain(value: object) -> object:
    """Tuples as lists, all the way down."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def captures(tmp_path: Path, n: int) -> list:  # type: ignore[type-arg]
    body = encode("mdp3", car_lines())[12:]
    paths = []
    for c in range(n):
        frames = [udp_frame(mdp3_packet(c * 100 + i + 1, 1000 * i, body)) for i in range(20 + c)]
        path = tmp_path / f"capture-{c}.pcap"
        path.write_bytes(pcap(frames, start_ns=c * 10**12))
        paths.append(path)
    return paths


def test_a_two_worker_cluster_writes_the_dataset_a_single_process_decode_gives(tmp_path: Path) -> None:
    from sable.dataset import decode_to_dataset

    paths = captures(tmp_path, 4)
    out = tmp_path / "dataset"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            assert len(client.scheduler_info()["workers"]) == 2
            counts = decode_to_dataset(client, CAR, paths, out, framing="mdp3", pcap=True)
    per_capture = [(20 + c) * len(car_lines()) for c in range(4)]
    assert counts == {"Car": sum(per_capture)}

    # One process, the same captures.
    schema = sable.Schema.load(CAR)
    parts = []
    for path in paths:
        table = sable.read_tables(schema, path, framing="mdp3", pcap=True)["Car"]
        parts.append(table.append_column("_file", pa.array([path.name] * table.num_rows, pa.string())))
    single = pa.concat_tables(parts)

    order = "ORDER BY _file, _packetOffset, _offset"
    dataset = duckdb.sql(
        f"SELECT * EXCLUDE (message) FROM read_parquet('{out}/message=*/*.parquet', hive_partitioning=true) {order}"
    ).fetchall()
    expected = duckdb.sql(f"SELECT * FROM single {order}").fetchall()
    assert len(dataset) == sum(per_capture)
    # (A fixed-size list is DuckDB's ARRAY in memory, a tuple in Python, and a LIST once in
    # Parquet: the same values.)
    assert plain(dataset) == plain(expected)
    by_message = duckdb.sql(
        f"SELECT message, count(*) FROM read_parquet('{out}/message=*/*.parquet', hive_partitioning=true) GROUP BY message"
    ).fetchall()
    assert by_message == [("Car", sum(per_capture))]

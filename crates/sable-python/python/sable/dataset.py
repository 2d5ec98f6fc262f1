"""Decoding many files at scale on Dask: each worker decodes whole files with the engine into a
Parquet dataset partitioned by message (`OUT/message=NAME/FILE.parquet`), for DuckDB, Spark,
Polars or pyarrow.dataset to query (docs/python.md, "Decoding at scale").

    from dask.distributed import Client, LocalCluster
    from sable.dataset import decode_to_dataset

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        counts = decode_to_dataset(client, "mdp3.xml", captures, "day/", framing="mdp3", pcap=True)
    duckdb.sql("SELECT count(*) FROM read_parquet('day/message=*/*.parquet', hive_partitioning=true)")
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

import sable


def decode_file(
    schema: str,
    path: str,
    out: str,
    framing: str = "raw",
    pcap: bool = False,
    port: Optional[int] = None,
) -> Dict[str, int]:
    """Decodes one file into `out/message=NAME/STEM.parquet` (one file per message template
    found, each with a `_file` column naming its input); returns the rows per message. Runs
    on a worker: it loads the schema itself (a path travels better than a compiled schema).
    The file is decoded as it is read and each batch written as it comes
    (`sable.iter_batches`), so a worker's memory stays bounded however large the file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    compiled = sable.Schema.load(schema)
    stem = Path(path).name
    counts: Dict[str, int] = {}
    writers: Dict[str, Any] = {}
    try:
        for name, batch in sable.iter_batches(compiled, path, framing=framing, pcap=pcap, port=port):
            batch = batch.append_column("_file", pa.array([stem] * batch.num_rows, pa.string()))
            if name not in writers:
                directory = Path(out) / f"message={name}"
                directory.mkdir(parents=True, exist_ok=True)
                writers[name] = pq.ParquetWriter(directory / f"{stem}.parquet", batch.schema, compression="snappy")
            writers[name].write_batch(batch)
            counts[name] = counts.get(name, 0) + batch.num_rows
    finally:
        for w in writers.values():
            w.close()
    return counts


def decode_to_dataset(
    client: Any,
    schema: "str | os.PathLike[str]",
    paths: Iterable["str | os.PathLike[str]"],
    out: "str | os.PathLike[str]",
    framing: str = "raw",
    pcap: bool = False,
    port: Optional[int] = None,
) -> Dict[str, int]:
    """Decodes `paths` in parallel on a `dask.distributed.Client`, one task per file, into a
    Parquet dataset at `out` partitioned by message; returns the rows per message."""
    tasks: List[Any] = [
        client.submit(
            decode_file,
            os.fspath(schema),
            os.fspath(p),
            os.fspath(out),
            framing,
            pcap,
            port,
            pure=False,
        )
        for p in paths
    ]
    totals: Dict[str, int] = {}
    for counts in client.gather(tasks):
        for name, n in counts.items():
            totals[name] = totals.get(name, 0) + n
    return totals

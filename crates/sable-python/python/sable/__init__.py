"""SBE (Simple Binary Encoding) messages by the schema alone, on Sable's Rust engine.

    import sable
    schema = sable.Schema.load("car.xml")          # SBE XML or .sbeir
    message = schema.decode(data)                  # canonical JSON's values (docs/json.md)
    data = schema.encode(message)
    for m in schema.iter_messages("day.pcap", framing="mdp3", pcap=True):
        ...
    tables = sable.read_tables(schema, "day.pcap", framing="mdp3", pcap=True)
    tables["MDIncrementalRefreshBook46"].to_pandas()
    frames = sable.read_frames(schema, "day.pcap", framing="mdp3", pcap=True)
    frames["MDIncrementalRefreshBook46"]           # a pandas DataFrame (sable.to_frame's dtypes)
    for name, batch in sable.iter_batches(schema, "day.pcap", framing="mdp3", pcap=True):
        ...                                        # memory bounded however large the file

See docs/python.md ("The engine package") and docs/columnar.md (the tables' columns).
"""

from __future__ import annotations

import os
from typing import Dict, Iterable, List, Optional, Tuple, Union

from ._engine import ArrowStream, BatchReader, MessageIterator, Schema
from ._errors import DecodeError, EncodeError, SchemaError
from .frames import to_frame

__all__ = [
    "ArrowStream",
    "Batches",
    "DecodeError",
    "EncodeError",
    "MessageIterator",
    "Schema",
    "SchemaError",
    "decode_tables",
    "iter_batches",
    "read_frames",
    "read_tables",
    "read_tables_and_problems",
    "to_frame",
]

Path = Union[str, "os.PathLike[str]"]


def _tables(streams: Tuple[List[ArrowStream], List[str]]):  # type: ignore[no-untyped-def]
    import pyarrow as pa

    found, problems = streams
    tables = {s.name: pa.RecordBatchReader.from_stream(s).read_all() for s in found}
    return tables, problems


def read_tables(
    schema: Schema,
    path: Path,
    *,
    framing: str = "raw",
    pcap: bool = False,
    port: Optional[int] = None,
    templates: Optional[Iterable[int]] = None,
    errors: str = "raise",
) -> "Dict[str, pyarrow.Table]":  # type: ignore[name-defined] # noqa: F821
    """Decodes the messages of a file (or, with `pcap`, a pcap or pcapng capture) into one
    pyarrow Table per message template that occurs in it, keyed by the message's name. The file
    is read in pieces (memory holds the tables, not the file); `iter_batches` gives the same
    rows batch by batch without holding the tables either.

    `framing` is one of `sable decode --framing`'s (`raw`, `sofh`, `mdp3`, `u16le`,
    `u32be+inclusive`...); `port` keeps a capture's flows to or from that port; `templates`
    keeps those template ids alone. Columns are as docs/columnar.md maps them (`_offset` and,
    from captures and MDP 3.0 packets, `_timestamp`, `_packetOffset`, `_flow`,
    `_sequenceNumber`, `_sendingTime`, then the fields). With `errors="raise"` the first
    message that does not decode (or framing problem) raises DecodeError; with `"skip"` it is
    left out (`read_tables_and_problems` says which). The Arrow buffers are Sable's, handed
    over without a copy; `table.to_pandas()` and `polars.from_arrow(table)` go on from there.
    """
    return read_tables_and_problems(
        schema,
        path,
        framing=framing,
        pcap=pcap,
        port=port,
        templates=templates,
        errors=errors,
    )[0]


def read_frames(
    schema: Schema,
    path: Path,
    *,
    framing: str = "raw",
    pcap: bool = False,
    port: Optional[int] = None,
    templates: Optional[Iterable[int]] = None,
    errors: str = "raise",
) -> "Dict[str, pandas.DataFrame]":  # type: ignore[name-defined] # noqa: F821
    """`read_tables` (same arguments and errors) as one pandas DataFrame per message template
    that occurs, each made by `to_frame`: NumPy columns for numbers without nulls and for
    timestamps, `category` for enums, Arrow-backed columns (`pandas.ArrowDtype`, exact and
    without a Python object per value) for decimals, numbers with nulls, text, sets,
    composites and groups."""
    tables = read_tables(
        schema,
        path,
        framing=framing,
        pcap=pcap,
        port=port,
        templates=templates,
        errors=errors,
    )
    return {name: to_frame(table) for name, table in tables.items()}


def read_tables_and_problems(
    schema: Schema,
    path: Path,
    *,
    framing: str = "raw",
    pcap: bool = False,
    port: Optional[int] = None,
    templates: Optional[Iterable[int]] = None,
    errors: str = "raise",
) -> "Tuple[Dict[str, pyarrow.Table], List[str]]":  # type: ignore[name-defined] # noqa: F821
    """`read_tables`, and the problems met (messages left out with `errors="skip"`), each in
    the words of `sable decode`."""
    if errors not in ("raise", "skip"):
        raise ValueError(f'errors must be "raise" or "skip", not {errors!r}')
    return _tables(
        schema.read_streams(
            os.fspath(path),
            framing=framing,
            pcap=pcap,
            port=port,
            templates=None if templates is None else list(templates),
            strict=errors == "raise",
        )
    )


def decode_tables(
    schema: Schema,
    data: bytes,
    *,
    framing: str = "raw",
    pcap: bool = False,
    port: Optional[int] = None,
    templates: Optional[Iterable[int]] = None,
    errors: str = "raise",
) -> "Dict[str, pyarrow.Table]":  # type: ignore[name-defined] # noqa: F821
    """`read_tables` of bytes in memory (a file's or a capture's)."""
    if errors not in ("raise", "skip"):
        raise ValueError(f'errors must be "raise" or "skip", not {errors!r}')
    return _tables(
        schema.buffer_streams(
            data,
            framing=framing,
            pcap=pcap,
            port=port,
            templates=None if templates is None else list(templates),
            strict=errors == "raise",
        )
    )[0]


class Batches:
    """The record batches of a file or capture as `iter_batches` reads it: `(name, batch)`
    pairs, `batch` a pyarrow.RecordBatch of the message named `name`'s table."""

    def __init__(self, reader: BatchReader) -> None:
        self._reader = reader

    def __iter__(self) -> "Batches":
        return self

    def __next__(self) -> "Tuple[str, pyarrow.RecordBatch]":  # type: ignore[name-defined] # noqa: F821
        import pyarrow as pa

        name, stream = next(self._reader)
        return name, pa.RecordBatchReader.from_stream(stream).read_next_batch()

    @property
    def problems(self) -> List[str]:
        """The problems met so far (with `errors="skip"`), in the words of `sable decode`."""
        return self._reader.problems


def iter_batches(
    schema: Schema,
    path: Path,
    *,
    framing: str = "raw",
    pcap: bool = False,
    port: Optional[int] = None,
    templates: Optional[Iterable[int]] = None,
    errors: str = "raise",
) -> Batches:
    """Decodes a file or capture as `read_tables` does, but as it reads it, in pieces of 64 KiB:
    yields `(name, batch)` as each table's batch fills up (16,384 rows, or 4 MiB of messages),
    then the rest of each table, so that memory stays bounded however large the file (as with
    `sable decode --format parquet`). The batches of one table share its schema (and
    `pyarrow.Table.from_batches` joins them). With `errors="raise"` the first message that does
    not decode raises DecodeError when the reading reaches it (after the batches before it);
    with `"skip"` it is left out and listed in the iterator's `problems`."""
    if errors not in ("raise", "skip"):
        raise ValueError(f'errors must be "raise" or "skip", not {errors!r}')
    return Batches(
        schema.read_batches(
            os.fspath(path),
            framing=framing,
            pcap=pcap,
            port=port,
            templates=None if templates is None else list(templates),
            strict=errors == "raise",
        )
    )

"""`sable.read_frames` and `sable.to_frame`: DataFrames with NumPy columns for numbers without
nulls and timestamps, categoricals for enums, Arrow-backed columns for the rest; the values
those of `read_tables`' tables."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import sable

from conftest import car_lines, encode, mdp3_packet, pcap, udp_frame


def test_to_frame_picks_each_columns_dtype() -> None:
    entry = pa.struct([("price", pa.decimal128(18, 9)), ("size", pa.int32())])
    table = pa.table(
        {
            "id": pa.array([1, 2, 3], pa.uint64()),
            "qty": pa.array([5, None, 7], pa.int32()),
            "ratio": pa.array([0.5, 1.5, 2.5], pa.float64()),
            "time": pa.array([0, None, 2_000_000_000], pa.timestamp("ns", tz="UTC")),
            "side": pa.array(["Buy", "Sell", None]).dictionary_encode(),
            "price": pa.array([Decimal("1.5"), None, Decimal("-2.25")], pa.decimal128(18, 9)),
            "name": pa.array(["a", "b", None], pa.string()),
            "flags": pa.array([["x"], [], ["x", "y"]], pa.list_(pa.string())),
            "entries": pa.array([[{"price": Decimal("1"), "size": 2}], [], None], pa.list_(entry)),
        }
    )
    frame = sable.to_frame(table)
    assert list(frame.columns) == table.column_names
    assert frame["id"].dtype == np.dtype("uint64")
    assert frame["ratio"].dtype == np.dtype("float64")
    assert str(frame["time"].dtype) == "datetime64[ns, UTC]"
    assert frame["time"].isna().tolist() == [False, True, False]
    assert isinstance(frame["side"].dtype, pd.CategoricalDtype)
    assert frame["side"].tolist()[:2] == ["Buy", "Sell"] and pd.isna(frame["side"][2])
    for name in ["qty", "price", "name", "flags", "entries"]:
        assert isinstance(frame[name].dtype, pd.ArrowDtype), name
        # Arrow-backed: the very values of the table, nulls included.
        assert frame[name].array.__arrow_array__().equals(table[name]), name
    assert frame["qty"].isna().tolist() == [False, True, False]
    assert frame["price"][2] == Decimal("-2.25")
    assert frame["id"].tolist() == [1, 2, 3]


def test_read_frames_gives_read_tables_values(tmp_path: Path, car: sable.Schema) -> None:
    body = encode("mdp3", car_lines())[12:]
    frames = [udp_frame(mdp3_packet(i + 1, 1000 * i, body)) for i in range(20)]
    path = tmp_path / "md.pcap"
    path.write_bytes(pcap(frames))
    tables = sable.read_tables(car, path, framing="mdp3", pcap=True)
    got = sable.read_frames(car, path, framing="mdp3", pcap=True)
    assert list(got) == list(tables)
    for name, table in tables.items():
        frame = got[name]
        assert len(frame) == table.num_rows
        assert list(frame.columns) == table.column_names
        # The same values column by column, whichever dtype each took.
        back = pa.Table.from_pandas(frame, preserve_index=False)
        for column in table.column_names:
            want = table[column].combine_chunks()
            have = back[column].combine_chunks()
            if pa.types.is_dictionary(want.type):
                want = want.cast(pa.string())
                have = have.cast(pa.string())
            assert have.cast(want.type).equals(want), column
    assert sable.read_frames(car, path, framing="mdp3", pcap=True, templates=[999]) == {}

"""pandas DataFrames of Sable's Arrow tables, in the dtypes a pandas user works with: NumPy
where the values are plain numbers and times, pandas categoricals for enums, and Arrow-backed
columns (`pandas.ArrowDtype`, no copy, no Python object per value) for what NumPy has no exact
form of: decimals, integers and floats with nulls, text, dates, sets, composites and groups.
docs/python.md ("The engine package") and docs/columnar.md ("Reading them from Python")."""

from __future__ import annotations

from typing import Any, Dict


def to_frame(table: Any) -> Any:
    """The DataFrame of one of `read_tables`' pyarrow Tables, column by column:

    - integers and floats without nulls in this table: NumPy (`int64`, `uint64`, `float64`...);
    - timestamps: NumPy `datetime64[ns, UTC]` (or the column's unit), `NaT` for null;
    - enums (dictionary columns): `category` (null is a missing value);
    - the rest, Arrow-backed (`pandas.ArrowDtype`): decimals (exact), integers and floats with
      nulls (exact, `<NA>`), text, bytes, dates, sets (lists of names), composites (structs)
      and groups (lists of structs).

    So an integer column's dtype depends on whether it held a null; for the same dtypes in
    every file, `table.to_pandas(types_mapper=pandas.ArrowDtype)` keeps every column in Arrow.
    """
    import pandas as pd
    import pyarrow.types as pat

    columns: Dict[str, Any] = {}
    for field, column in zip(table.schema, table.columns):
        t = field.type
        numeric = pat.is_integer(t) or pat.is_floating(t)
        if (numeric and column.null_count == 0) or pat.is_timestamp(t) or pat.is_dictionary(t):
            columns[field.name] = column.to_pandas()
        else:
            columns[field.name] = pd.Series(pd.arrays.ArrowExtensionArray(column), copy=False)
    return pd.DataFrame(columns, copy=False)

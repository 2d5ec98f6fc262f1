#!/usr/bin/env bash
# The Python tool chain of the engine package (crates/sable-python, docs/python.md "The engine
# package"): a virtual environment under .cache/pyengine-venv with pinned packages from PyPI
# (installed once; a second run only checks): maturin to build the wheel, pyarrow and pandas
# for its tables, dask[distributed] and DuckDB (with pytz, for its timestamps) for the scale-out
# recipe, pytest, and the `sbe`
# package the benchmark compares with. Prints the environment's directory. Needs python3 (3.10
# or later) with venv.
#
#   venv="$(bash scripts/pyengine-env.sh)"; "$venv/bin/python" ...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.cache/pyengine-venv"
requirements="maturin==1.16.0 pyarrow==26.0.1 pandas==3.1.1 numpy==2.4.6 dask==2026.8.0 distributed==2026.8.0 duckdb==2.0.0 pytz==2026.6 pytest==9.2.0 sbe==0.4.3"
stamp="$venv/.installed"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$requirements" ]; then
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv" >&2 || {
            echo "pyengine-env: python3 -m venv failed (apt-get install python3-venv)" >&2
            exit 1
        }
    fi
    # shellcheck disable=SC2086
    nice -n 19 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $requirements >&2
    echo "$requirements" >"$stamp"
fi
echo "$venv"

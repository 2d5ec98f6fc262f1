#!/usr/bin/env bash
# The Python tool chain the Python codecs' tests and benchmark use: a virtual environment under
# .cache/python-venv with pinned packages from PyPI (installed once; a second run only checks).
# Prints the environment's directory. Needs python3 (3.9 or later) with venv.
#
#   venv="$(bash scripts/python-env.sh)"; "$venv/bin/python" ...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.cache/python-venv"
# The pins: the test tools (mypy 1.20, the last to check code for Python 3.9), and the
# benchmark's peers (the `sbe` package, protobuf).
requirements="mypy==1.20.2 ruff==0.17.5 pytest==9.2.0 hypothesis==6.170.15 protobuf==7.36.2 sbe==0.4.3"
stamp="$venv/.installed"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$requirements" ]; then
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv" >&2 || {
            echo "python-env: python3 -m venv failed (apt-get install python3-venv)" >&2
            exit 1
        }
    fi
    # shellcheck disable=SC2086
    nice -n 19 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $requirements >&2
    echo "$requirements" >"$stamp"
fi
echo "$venv"

"""Instructions per message of bench.py's cases, counted by callgrind (deterministic, where timings
on a shared machine are not): each case runs in its own `valgrind --tool=callgrind` process, N
calls to warm up, then N calls inside one `functools.reduce` call, the only code callgrind
collects (`--collect-atstart=no --toggle-collect=functools_reduce`); its total over N is the
count. `scripts/bench-python.sh --count [CASE...]` generates the packages and runs this.

    count.py PACKAGES_DIR CAR_XML FIX_XML [--n N] [--cycles] [CASE...]

`--cycles` also simulates the caches and branch predictor (`--cache-sim=yes --branch-sim=yes`)
and reports KCachegrind's cycle estimate, Ir + 10 x (L1 misses + mispredicted branches) +
100 x last-level misses: instructions alone understate the time of code that makes more
calls and attribute look-ups (more indirect branches the predictor misses, more code), and
the estimate's ratios come closer to timed ones.

CASE is `WHO:MESSAGE/OP` (`sable:car/encode`), or `WHO` for all of its cases; the default is
sable, sable-fields, struct and struct-blocks. WHO: sable (the setters), sable-fields (encoding
with `fields(...)`), struct, struct-blocks (decoding), protobuf.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
OPS = ("car/encode", "car/decode", "md/encode", "md/decode")


def cases(bench: object) -> dict[str, tuple[Callable[..., object], tuple[object, ...]]]:
    """Every case: the function bench.py times and its arguments."""
    b = bench
    buf = bytearray(512)
    car_raw = bytes(b.CAR_BUF[: b.CAR_LEN])  # type: ignore[attr-defined]
    md_raw = bytes(b.MD_BUF[: b.MD_LEN])  # type: ignore[attr-defined]
    car_pb = b.car_pb_encode()  # type: ignore[attr-defined]
    md_pb = b.md_pb_encode()  # type: ignore[attr-defined]
    g = b.__dict__
    return {
        "sable:car/encode": (g["car_sable_encode"], (buf,)),
        "sable:car/decode": (g["car_sable_decode"], (car_raw,)),
        "sable:md/encode": (g["md_sable_encode"], (buf,)),
        "sable:md/decode": (g["md_sable_decode"], (md_raw,)),
        "sable-fields:car/encode": (g["car_fields_encode"], (buf,)),
        "sable-fields:md/encode": (g["md_fields_encode"], (buf,)),
        "struct:car/encode": (g["car_struct_encode"], (buf,)),
        "struct:car/decode": (g["car_struct_decode"], (car_raw,)),
        "struct:md/encode": (g["md_struct_encode"], (buf,)),
        "struct:md/decode": (g["md_struct_decode"], (md_raw,)),
        "struct-blocks:car/decode": (g["car_blocks_decode"], (car_raw,)),
        "struct-blocks:md/decode": (g["md_blocks_decode"], (md_raw,)),
        "protobuf:car/encode": (g["car_pb_encode"], ()),
        "protobuf:car/decode": (g["car_pb_decode"], (car_pb,)),
        "protobuf:md/encode": (g["md_pb_encode"], ()),
        "protobuf:md/decode": (g["md_pb_decode"], (md_pb,)),
    }


def child(packages: str, car_xml: str, fix_xml: str, case: str, n: int) -> None:
    """Runs one case under callgrind: N calls to warm up, N counted."""
    sys.argv = [os.path.join(HERE, "bench.py"), packages, car_xml, fix_xml]
    sys.path.insert(0, HERE)
    import bench

    bench.check()
    fn, args = cases(bench)[case]
    for _ in range(n):
        fn(*args)

    def run(_a: object, _b: object) -> None:
        for _ in range(n):
            fn(*args)

    functools.reduce(run, (0, 0))  # one call of `run`: the code callgrind collects


def count(
    packages: str, car_xml: str, fix_xml: str, case: str, n: int, cycles: bool = False
) -> float:
    """Instructions per call of `case` (`cycles`: the cycle estimate)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--collect-atstart=no",
                "--toggle-collect=functools_reduce",
                f"--callgrind-out-file={out}",
                *(["--cache-sim=yes", "--branch-sim=yes"] if cycles else []),
                sys.executable,
                "-B",
                os.path.abspath(__file__),
                "--child",
                packages,
                car_xml,
                fix_xml,
                case,
                str(n),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        with open(out, encoding="utf-8") as f:
            text = f.read()
    events = re.search(r"^events: (.+)$", text, re.MULTILINE)
    m = re.search(r"^(?:summary|totals): ([\d ]+)$", text, re.MULTILINE)
    if m is None or events is None:
        raise SystemExit(f"count.py: no totals in callgrind's output for {case}")
    e = dict(zip(events.group(1).split(), map(int, m.group(1).split())))
    if not cycles:
        return e["Ir"] / n
    l1 = e["I1mr"] + e["D1mr"] + e["D1mw"]
    ll = e["ILmr"] + e["DLmr"] + e["DLmw"]
    return (e["Ir"] + 10 * (l1 + e["Bcm"] + e["Bim"]) + 100 * ll) / n


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "--child":
        child(args[1], args[2], args[3], args[4], int(args[5]))
        return
    if len(args) < 3:
        raise SystemExit(__doc__)
    packages, car_xml, fix_xml = args[:3]
    rest = args[3:]
    n = 300
    if rest[:1] == ["--n"]:
        n = int(rest[1])
        rest = rest[2:]
    cycles = rest[:1] == ["--cycles"]
    rest = rest[1:] if cycles else rest
    unit = "cycles/op (est.)" if cycles else "Ir/op"
    known = [
        f"{who}:{op}"
        for who in ("sable", "sable-fields", "struct", "struct-blocks", "protobuf")
        for op in OPS
        if (who != "struct-blocks" or op.endswith("decode"))
        and (who != "sable-fields" or op.endswith("encode"))
    ]
    wanted = rest or ["sable", "sable-fields", "struct", "struct-blocks"]
    chosen = [c for w in wanted for c in known if c == w or c.split(":")[0] == w]
    if not chosen:
        raise SystemExit(f"count.py: no such case: {' '.join(wanted)}")
    counts: dict[str, float] = {}
    for case in chosen:
        counts[case] = count(packages, car_xml, fix_xml, case, n, cycles)
        print(f"{case:26} {counts[case]:12,.0f} {unit}", flush=True)
    if any(c.startswith("sable:") for c in chosen) and any(
        c.startswith("struct:") for c in chosen
    ):
        print()
        u = "cycles" if cycles else "Ir/op"
        print(
            f"| case | Sable ({u}) | struct ({u}) | Sable / struct "
            f"| Sable, fields() ({u}) | fields() / struct |"
        )
        print("| --- | --- | --- | --- | --- | --- |")
        for op in OPS:
            s, t = counts.get(f"sable:{op}"), counts.get(f"struct:{op}")
            f = counts.get(f"sable-fields:{op}")
            if s is not None and t is not None:
                more = f"| {f:,.0f} | {f / t:.2f} |" if f is not None else "| | |"
                print(f"| {op} | {s:,.0f} | {t:,.0f} | {s / t:.2f} {more}")


if __name__ == "__main__":
    main()

"""Car and MarketData encode and decode in Python, reading every field (the messages and values
of the reference's benchmarks, as rust/tests/src/lib.rs has them): Sable's generated codecs, a
hand-written baseline of precompiled `struct` calls (field by field, and whole blocks at once),
protobuf's Python package (its default backend) with the same messages, and the `sbe` package
from PyPI (a runtime schema interpreter). scripts/bench-python.sh generates the packages
`bench_car` and `bench_fix` and runs this; prints µs/op and ratios. Char arrays are read as
bytes and var data as text, by Sable and the baseline alike.

    bench.py PACKAGES_DIR CAR_XML FIX_XML [SECONDS_PER_CASE]
"""

from __future__ import annotations

import re
import struct
import sys
import tempfile
import time
import traceback
from collections.abc import Callable

sys.path.insert(0, sys.argv[1])

import bench_car as car
import bench_fix as fix
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.internal import api_implementation

FUEL = [(30, 35.9), (55, 49.0), (75, 40.0)]
PERF = [
    (95, [(30, 4.0), (60, 7.5), (100, 12.2)]),
    (99, [(30, 3.8), (60, 7.1), (100, 11.8)]),
]
SIDES = [fix.Side.BUY, fix.Side.SELL]
# The messages' other values, given to Sable and the baseline alike (module constants, as the
# entries' values above: the benchmark times the codecs, not the caller's look-ups of
# `car.Model.A`, about 1,000 instructions each); text as `str`, which both sides encode.
MODEL = car.Model.A
AVAILABLE = car.BooleanType.T
EXTRAS = car.OptionalExtras.SPORTS_PACK | car.OptionalExtras.SUN_ROOF
VEHICLE_CODE = "abcdef"
MANUFACTURER_CODE = "abc"
MANUFACTURER = "MANUFACTURER"
MODEL_NAME = "MODEL"
END_EVENT = fix.MatchEventIndicator.END_EVENT
NEW = fix.MdUpdateAction.NEW

# --- Sable ---

# Flyweights, as SBE codecs are used: one encoder and one decoder per message type, moved to
# each message by `wrap` (the decoders are made below, from the messages encoded here).
CAR_ENC = car.CarEncoder(bytearray(512))
MD_ENC = fix.MarketDataIncrementalRefreshTradesEncoder(bytearray(512))


def car_sable_encode(buf: bytearray) -> int:
    e = CAR_ENC.wrap(buf)
    e.code(MODEL).model_year(2005).serial_number(12345).available(AVAILABLE)
    e.vehicle_code(VEHICLE_CODE).some_numbers((0, 1, 2, 3, 4))
    e.extras(EXTRAS)
    e.engine().capacity(4200).num_cylinders(8).manufacturer_code(MANUFACTURER_CODE)
    fuel = e.fuel_figures(len(FUEL))
    for speed, mpg in FUEL:
        fuel.next_entry().speed(speed).mpg(mpg)
    perf = e.performance_figures(len(PERF))
    for octane, accel in PERF:
        a = perf.next_entry().octane_rating(octane).acceleration(len(accel))
        for mph, seconds in accel:
            a.next_entry().mph(mph).seconds(seconds)
    e.manufacturer(MANUFACTURER).model(MODEL_NAME)
    return e.encoded_length()


def car_sable_decode(buf: bytes) -> int:
    d = CAR_DEC.wrap(buf)
    _ = (
        d.serial_number,
        d.model_year,
        d.available,
        d.code,
        d.some_numbers,
        d.vehicle_code_bytes,
    )
    x = d.extras
    _ = (x.cruise_control, x.sports_pack, x.sun_roof)
    e = d.engine
    _ = (e.capacity, e.num_cylinders, e.max_rpm, e.manufacturer_code_bytes, e.fuel)
    for f in d.fuel_figures:
        _ = (f.speed, f.mpg)
    for p in d.performance_figures:
        _ = p.octane_rating
        for a in p.acceleration:
            _ = (a.mph, a.seconds)
    _ = (d.manufacturer, d.model)
    return d.encoded_length()


def md_sable_encode(buf: bytearray) -> int:
    e = MD_ENC.wrap(buf)
    e.transact_time(1234).event_time_delta(987).match_event_indicator(END_EVENT)
    g = e.md_inc_grp(len(SIDES))
    for side in SIDES:
        g.next_entry().trade_id(1234).security_id(56789)
        g.md_entry_px().mantissa(50)
        g.md_entry_size().mantissa(10)
        g.number_of_orders(1).md_update_action(NEW).rpt_seq(1).aggressor_side(side)
    return e.encoded_length()


def car_fields_encode(buf: bytearray) -> int:
    """The same, each block written by one call: `fields(...)`, and `add(...)` for entries."""
    e = CAR_ENC.wrap(buf)
    e.fields(
        serial_number=12345,
        model_year=2005,
        available=AVAILABLE,
        code=MODEL,
        some_numbers=(0, 1, 2, 3, 4),
        vehicle_code=VEHICLE_CODE,
        extras=EXTRAS,
        engine_capacity=4200,
        engine_num_cylinders=8,
        engine_manufacturer_code=MANUFACTURER_CODE,
    )
    fuel = e.fuel_figures(len(FUEL))
    for speed, mpg in FUEL:
        fuel.add(speed, mpg)
    perf = e.performance_figures(len(PERF))
    for octane, accel in PERF:
        a = perf.add(octane).acceleration(len(accel))
        for mph, seconds in accel:
            a.add(mph, seconds)
    e.manufacturer(MANUFACTURER).model(MODEL_NAME)
    return e.encoded_length()


def md_fields_encode(buf: bytearray) -> int:
    """The same, each block written by one call: `fields(...)`, and `add(...)` for entries."""
    e = MD_ENC.wrap(buf)
    e.fields(
        transact_time=1234,
        event_time_delta=987,
        match_event_indicator=END_EVENT,
    )
    g = e.md_inc_grp(len(SIDES))
    for side in SIDES:
        g.add(
            trade_id=1234,
            security_id=56789,
            md_entry_px_mantissa=50,
            md_entry_size_mantissa=10,
            number_of_orders=1,
            md_update_action=NEW,
            rpt_seq=1,
            aggressor_side=side,
        )
    return e.encoded_length()


def md_sable_decode(buf: bytes) -> int:
    d = MD_DEC.wrap(buf)
    _ = (d.transact_time, d.event_time_delta, d.match_event_indicator)
    for g in d.md_inc_grp:
        _ = (
            g.trade_id,
            g.security_id,
            g.md_entry_px.mantissa,
            g.md_entry_size.mantissa,
        )
        _ = (
            g.number_of_orders,
            g.md_update_action,
            g.rpt_seq,
            g.aggressor_side,
            g.md_entry_type,
        )
    return d.encoded_length()


# --- hand-written struct calls ---

U8 = struct.Struct("<B")
U16 = struct.Struct("<H")
U32 = struct.Struct("<I")
I32 = struct.Struct("<i")
U64 = struct.Struct("<Q")
I64 = struct.Struct("<q")
F32 = struct.Struct("<f")
I32X5 = struct.Struct("<5i")
S6 = struct.Struct("<6s")
S3 = struct.Struct("<3s")
HEADER = struct.Struct("<4H")
DIM = struct.Struct("<2H")
CAR_BLOCK = struct.Struct("<IHBB5i6sBHB3s")
FUEL_BLOCK = struct.Struct("<Hf")
MD_BLOCK = struct.Struct("<QHB")
MD_ENTRY = struct.Struct("<QQqiHBBB")


def car_struct_encode(buf: bytearray) -> int:
    HEADER.pack_into(buf, 0, 41, 1, car.SCHEMA_ID, car.SCHEMA_VERSION)
    U32.pack_into(buf, 8, 12345)
    U16.pack_into(buf, 12, 2005)
    U8.pack_into(buf, 14, AVAILABLE)
    U8.pack_into(buf, 15, MODEL)
    I32X5.pack_into(buf, 16, 0, 1, 2, 3, 4)
    S6.pack_into(buf, 36, VEHICLE_CODE.encode("latin-1"))
    U8.pack_into(buf, 42, EXTRAS)
    U16.pack_into(buf, 43, 4200)
    U8.pack_into(buf, 45, 8)
    S3.pack_into(buf, 46, MANUFACTURER_CODE.encode("latin-1"))
    p = 49
    DIM.pack_into(buf, p, 6, len(FUEL))
    p += 4
    for speed, mpg in FUEL:
        U16.pack_into(buf, p, speed)
        F32.pack_into(buf, p + 2, mpg)
        p += 6
    DIM.pack_into(buf, p, 1, len(PERF))
    p += 4
    for octane, accel in PERF:
        U8.pack_into(buf, p, octane)
        DIM.pack_into(buf, p + 1, 6, len(accel))
        p += 5
        for mph, seconds in accel:
            U16.pack_into(buf, p, mph)
            F32.pack_into(buf, p + 2, seconds)
            p += 6
    for text in (MANUFACTURER, MODEL_NAME):
        raw = text.encode("latin-1")
        U32.pack_into(buf, p, len(raw))
        buf[p + 4 : p + 4 + len(raw)] = raw
        p += 4 + len(raw)
    return p


def car_struct_decode(buf: bytes) -> int:
    block_length = HEADER.unpack_from(buf, 0)[0]
    p = 8
    _ = (
        U32.unpack_from(buf, p)[0],
        U16.unpack_from(buf, p + 4)[0],
        U8.unpack_from(buf, p + 6)[0],
    )
    _ = (
        U8.unpack_from(buf, p + 7)[0],
        I32X5.unpack_from(buf, p + 8),
        S6.unpack_from(buf, p + 28)[0],
    )
    extras = U8.unpack_from(buf, p + 34)[0]
    _ = (extras & 4 != 0, extras & 2 != 0, extras & 1 != 0)
    _ = (
        U16.unpack_from(buf, p + 35)[0],
        U8.unpack_from(buf, p + 37)[0],
        S3.unpack_from(buf, p + 38)[0],
    )
    p += block_length
    bl, n = DIM.unpack_from(buf, p)
    p += 4
    for _i in range(n):
        _ = (U16.unpack_from(buf, p)[0], F32.unpack_from(buf, p + 2)[0])
        p += bl
    bl, n = DIM.unpack_from(buf, p)
    p += 4
    for _i in range(n):
        _ = U8.unpack_from(buf, p)[0]
        p += bl
        abl, an = DIM.unpack_from(buf, p)
        p += 4
        for _j in range(an):
            _ = (U16.unpack_from(buf, p)[0], F32.unpack_from(buf, p + 2)[0])
            p += abl
    for _i in range(2):
        n = U32.unpack_from(buf, p)[0]
        _ = str(buf[p + 4 : p + 4 + n], "latin-1")
        p += 4 + n
    return p


def car_blocks_decode(buf: bytes) -> int:
    """The same, each block read whole by one struct call."""
    block_length = HEADER.unpack_from(buf, 0)[0]
    _ = CAR_BLOCK.unpack_from(buf, 8)
    p = 8 + block_length
    bl, n = DIM.unpack_from(buf, p)
    p += 4
    for _i in range(n):
        _ = FUEL_BLOCK.unpack_from(buf, p)
        p += bl
    bl, n = DIM.unpack_from(buf, p)
    p += 4
    for _i in range(n):
        _ = U8.unpack_from(buf, p)[0]
        p += bl
        abl, an = DIM.unpack_from(buf, p)
        p += 4
        for _j in range(an):
            _ = FUEL_BLOCK.unpack_from(buf, p)
            p += abl
    for _i in range(2):
        n = U32.unpack_from(buf, p)[0]
        _ = str(buf[p + 4 : p + 4 + n], "latin-1")
        p += 4 + n
    return p


def md_struct_encode(buf: bytearray) -> int:
    HEADER.pack_into(buf, 0, 11, 2, fix.SCHEMA_ID, fix.SCHEMA_VERSION)
    U64.pack_into(buf, 8, 1234)
    U16.pack_into(buf, 16, 987)
    U8.pack_into(buf, 18, END_EVENT)
    p = 19
    DIM.pack_into(buf, p, 33, len(SIDES))
    p += 4
    for side in SIDES:
        U64.pack_into(buf, p, 1234)
        U64.pack_into(buf, p + 8, 56789)
        I64.pack_into(buf, p + 16, 50)
        I32.pack_into(buf, p + 24, 10)
        U16.pack_into(buf, p + 28, 1)
        U8.pack_into(buf, p + 30, NEW)
        U8.pack_into(buf, p + 31, 1)
        U8.pack_into(buf, p + 32, side)
        p += 33
    return p


def md_struct_decode(buf: bytes) -> int:
    block_length = HEADER.unpack_from(buf, 0)[0]
    _ = (
        U64.unpack_from(buf, 8)[0],
        U16.unpack_from(buf, 16)[0],
        U8.unpack_from(buf, 18)[0],
    )
    p = 8 + block_length
    bl, n = DIM.unpack_from(buf, p)
    p += 4
    for _i in range(n):
        _ = (
            U64.unpack_from(buf, p)[0],
            U64.unpack_from(buf, p + 8)[0],
            I64.unpack_from(buf, p + 16)[0],
        )
        _ = (
            I32.unpack_from(buf, p + 24)[0],
            U16.unpack_from(buf, p + 28)[0],
            U8.unpack_from(buf, p + 30)[0],
        )
        _ = (U8.unpack_from(buf, p + 31)[0], U8.unpack_from(buf, p + 32)[0], 2)
        p += bl
    return p


def md_blocks_decode(buf: bytes) -> int:
    block_length = HEADER.unpack_from(buf, 0)[0]
    _ = MD_BLOCK.unpack_from(buf, 8)
    p = 8 + block_length
    bl, n = DIM.unpack_from(buf, p)
    p += 4
    for _i in range(n):
        _ = MD_ENTRY.unpack_from(buf, p)
        p += bl
    return p


# --- protobuf: the same messages ---

PROTO = {
    "Engine": [
        ("capacity", 13),
        ("numCylinders", 13),
        ("maxRpm", 13),
        ("manufacturerCode", 9),
        ("fuel", 9),
    ],
    "FuelFigure": [("speed", 13), ("mpg", 2)],
    "Acceleration": [("mph", 13), ("seconds", 2)],
    "PerformanceFigure": [("octaneRating", 13), ("acceleration", "Acceleration*")],
    "Car": [
        ("serialNumber", 13),
        ("modelYear", 13),
        ("available", 8),
        ("code", 13),
        ("someNumbers", "int32*"),
        ("vehicleCode", 9),
        ("sunRoof", 8),
        ("sportsPack", 8),
        ("cruiseControl", 8),
        ("engine", "Engine"),
        ("fuelFigures", "FuelFigure*"),
        ("performanceFigures", "PerformanceFigure*"),
        ("manufacturer", 9),
        ("model", 9),
    ],
    "MdIncGrp": [
        ("tradeId", 4),
        ("securityId", 4),
        ("mdEntryPx", 3),
        ("mdEntrySize", 5),
        ("numberOfOrders", 13),
        ("mdUpdateAction", 13),
        ("rptSeq", 13),
        ("aggressorSide", 13),
        ("mdEntryType", 13),
    ],
    "MarketData": [
        ("transactTime", 4),
        ("eventTimeDelta", 13),
        ("matchEventIndicator", 13),
        ("mdIncGrp", "MdIncGrp*"),
    ],
}


def proto_classes() -> dict[str, type]:
    f = descriptor_pb2.FileDescriptorProto(
        name="bench.proto", package="bench", syntax="proto3"
    )
    for name, fields in PROTO.items():
        m = f.message_type.add(name=name)
        for number, (field, kind) in enumerate(fields, 1):
            d = m.field.add(name=field, number=number, label=1)
            if isinstance(kind, str):
                repeated = kind.endswith("*")
                kind = kind.rstrip("*")
                d.label = 3 if repeated else 1
                if kind == "int32":
                    d.type = 5
                else:
                    d.type = 11
                    d.type_name = f".bench.{kind}"
            else:
                d.type = kind
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    return {
        n: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"bench.{n}"))
        for n in PROTO
    }


PB = proto_classes()


def car_pb_encode() -> bytes:
    c = PB["Car"](
        serialNumber=12345,
        modelYear=2005,
        available=True,
        code=65,
        vehicleCode="abcdef",
    )
    c.someNumbers.extend((0, 1, 2, 3, 4))
    c.sunRoof = True
    c.sportsPack = True
    e = c.engine
    e.capacity = 4200
    e.numCylinders = 8
    e.maxRpm = 9000
    e.manufacturerCode = "abc"
    e.fuel = "Petrol"
    for speed, mpg in FUEL:
        c.fuelFigures.add(speed=speed, mpg=mpg)
    for octane, accel in PERF:
        p = c.performanceFigures.add(octaneRating=octane)
        for mph, seconds in accel:
            p.acceleration.add(mph=mph, seconds=seconds)
    c.manufacturer = "MANUFACTURER"
    c.model = "MODEL"
    return c.SerializeToString()


def car_pb_decode(raw: bytes) -> int:
    c = PB["Car"].FromString(raw)
    _ = (
        c.serialNumber,
        c.modelYear,
        c.available,
        c.code,
        list(c.someNumbers),
        c.vehicleCode,
    )
    _ = (c.cruiseControl, c.sportsPack, c.sunRoof)
    e = c.engine
    _ = (e.capacity, e.numCylinders, e.maxRpm, e.manufacturerCode, e.fuel)
    for f in c.fuelFigures:
        _ = (f.speed, f.mpg)
    for p in c.performanceFigures:
        _ = p.octaneRating
        for a in p.acceleration:
            _ = (a.mph, a.seconds)
    _ = (c.manufacturer, c.model)
    return len(raw)


def md_pb_encode() -> bytes:
    m = PB["MarketData"](transactTime=1234, eventTimeDelta=987, matchEventIndicator=50)
    for side in (49, 50):
        m.mdIncGrp.add(
            tradeId=1234,
            securityId=56789,
            mdEntryPx=50,
            mdEntrySize=10,
            numberOfOrders=1,
            mdUpdateAction=0,
            rptSeq=1,
            aggressorSide=side,
            mdEntryType=50,
        )
    return m.SerializeToString()


def md_pb_decode(raw: bytes) -> int:
    m = PB["MarketData"].FromString(raw)
    _ = (m.transactTime, m.eventTimeDelta, m.matchEventIndicator)
    for g in m.mdIncGrp:
        _ = (g.tradeId, g.securityId, g.mdEntryPx, g.mdEntrySize, g.numberOfOrders)
        _ = (g.mdUpdateAction, g.rptSeq, g.aggressorSide, g.mdEntryType)
    return len(raw)


# --- the `sbe` package (a runtime interpreter of the schema) ---


def sbe_schema(xml: str) -> str:
    """The schema as the sbe package (0.4.3) can read it, the same messages on the wire:
    - no `characterEncoding="US-ASCII"` (its parser knows no such encoding; the messages
      measured hold no text of that encoding);
    - no constant fields (it reads a constant field whose type is a plain enum, MarketData's
      `MdEntryType`, as one byte on the wire, overrunning the entry's block: AssertionError);
    - fields typed with a primitive name (`type="uint16"`) typed by a named `<type>` of that
      primitive instead (it looks for `presence` on the primitive: AttributeError);
    - each message's `blockLength` stated (its encoder needs it: TypeError on None).
    Car still fails: its group reader counts an entry's nested group (performanceFigures'
    acceleration) into the entry's block (AssertionError in `_unpack_format`)."""
    text = re.sub(r'\s*characterEncoding="US-ASCII"', "", xml)
    text = re.sub(r'\s*<field [^>]*presence="constant"[^>]*/>', "", text)
    prims = [
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "int8",
        "int16",
        "int32",
        "int64",
        "char",
    ]
    text = re.sub(
        r'(<field [^>]*type=")(' + "|".join(prims) + r')"', r'\1Prim_\2"', text
    )
    declared = "".join(f'<type name="Prim_{p}" primitiveType="{p}"/>' for p in prims)
    text = text.replace("<types>", "<types>" + declared, 1)
    for name, length in (("Car", car.CarEncoder.BLOCK_LENGTH),) + (
        (
            "MarketDataIncrementalRefreshTrades",
            fix.MarketDataIncrementalRefreshTradesEncoder.BLOCK_LENGTH,
        ),
    ):
        text = re.sub(
            rf'(<sbe:message name="{name}"(?![^>]*blockLength)[^>]*?)(/?>)',
            rf'\1 blockLength="{length}"\2',
            text,
        )
    return text


def sbe_cases(car_xml: str, fix_xml: str) -> dict[str, Callable[[], object] | str]:
    """The sbe package's cases (on `sbe_schema`'s equivalent schemas), or why one cannot run."""
    import sbe

    cases: dict[str, Callable[[], object] | str] = {}
    car_raw = bytes(CAR_BUF[:CAR_LEN])
    md_raw = bytes(MD_BUF[:MD_LEN])
    for key, xml, raw, template in (
        ("car", car_xml, car_raw, 1),
        ("md", fix_xml, md_raw, 2),
    ):
        with open(xml, encoding="utf-8") as source:
            text = sbe_schema(source.read())
        with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
            f.write(text)
        try:
            with open(f.name, encoding="utf-8") as parsed:
                schema = sbe.Schema.parse(parsed)
            value = schema.decode(raw).value
            message = schema.messages[template]
            assert schema.encode(message, value) == raw, "sbe writes other bytes"
            cases[f"{key}/decode"] = lambda s=schema, r=raw: walk(s.decode(r).value)
            cases[f"{key}/encode"] = lambda s=schema, m=message, v=value: s.encode(m, v)
        except Exception as e:  # noqa: BLE001  (its failure is the result to report)
            where = traceback.extract_tb(e.__traceback__)[-1]
            why = (
                f"n/a: the sbe package fails on this message ({type(e).__name__} {e} "
                f"in {where.name}, line {where.lineno})"
            )
            cases[f"{key}/decode"] = why
            cases[f"{key}/encode"] = why
    return cases


def walk(value: object) -> int:
    """Reads every value of a decoded dict (the sbe package decodes them all up front)."""
    n = 0
    if isinstance(value, dict):
        for v in value.values():
            n += walk(v)
    elif isinstance(value, list):
        for v in value:
            n += walk(v)
    else:
        n += 1
    return n


# --- the run ---

CAR_BUF = bytearray(512)
CAR_LEN = car_sable_encode(CAR_BUF)
MD_BUF = bytearray(512)
MD_LEN = md_sable_encode(MD_BUF)
CAR_DEC = car.CarDecoder.decode(bytes(CAR_BUF[:CAR_LEN]))
MD_DEC = fix.MarketDataIncrementalRefreshTradesDecoder.decode(bytes(MD_BUF[:MD_LEN]))


def check() -> None:
    """Every implementation writes and reads the same message."""
    b = bytearray(512)
    assert car_struct_encode(b) == CAR_LEN and b[:CAR_LEN] == CAR_BUF[:CAR_LEN]
    b = bytearray(512)
    assert md_struct_encode(b) == MD_LEN and b[:MD_LEN] == MD_BUF[:MD_LEN]
    b = bytearray(512)
    assert car_fields_encode(b) == CAR_LEN and b[:CAR_LEN] == CAR_BUF[:CAR_LEN]
    b = bytearray(512)
    assert md_fields_encode(b) == MD_LEN and b[:MD_LEN] == MD_BUF[:MD_LEN]
    car_raw, md_raw = bytes(CAR_BUF[:CAR_LEN]), bytes(MD_BUF[:MD_LEN])
    assert (
        car_sable_decode(car_raw)
        == car_struct_decode(car_raw)
        == car_blocks_decode(car_raw)
        == CAR_LEN
    )
    assert (
        md_sable_decode(md_raw)
        == md_struct_decode(md_raw)
        == md_blocks_decode(md_raw)
        == MD_LEN
    )
    assert car_pb_decode(car_pb_encode()) > 0 and md_pb_decode(md_pb_encode()) > 0


CHUNK = 0.02  # seconds: one timed run of a case


def calls_per_chunk(fn: Callable[[], object]) -> int:
    """How many calls of `fn` take about CHUNK seconds."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        spent = time.perf_counter() - start
        if spent > CHUNK / 4:
            return max(1, int(n * CHUNK / spent))
        n *= 4


def time_cases(
    fns: dict[tuple[str, str], Callable[[], object]], seconds: float
) -> dict[tuple[str, str], float]:
    """µs per call of each case: the best of many runs of about CHUNK seconds, taken in
    rounds that run every case once (so that a busy moment of a shared machine slows every
    case alike, not the ones that happened to run then), `seconds` per case in all."""
    sizes = {key: calls_per_chunk(fn) for key, fn in fns.items()}
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(max(5, round(seconds / CHUNK))):
        for key, fn in fns.items():
            n = sizes[key]
            start = time.perf_counter()
            for _ in range(n):
                fn()
            best[key] = min(best[key], (time.perf_counter() - start) / n)
    return {key: t * 1e6 for key, t in best.items()}


def main() -> None:
    car_xml, fix_xml = sys.argv[2], sys.argv[3]
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 2.0
    check()
    car_raw, md_raw = bytes(CAR_BUF[:CAR_LEN]), bytes(MD_BUF[:MD_LEN])
    car_pb, md_pb = car_pb_encode(), md_pb_encode()
    buf = bytearray(512)
    cases: dict[str, dict[str, Callable[[], object] | str]] = {
        "sable": {
            "car/encode": lambda: car_sable_encode(buf),
            "car/decode": lambda: car_sable_decode(car_raw),
            "md/encode": lambda: md_sable_encode(buf),
            "md/decode": lambda: md_sable_decode(md_raw),
        },
        "sable-fields": {
            "car/encode": lambda: car_fields_encode(buf),
            "md/encode": lambda: md_fields_encode(buf),
        },
        "struct": {
            "car/encode": lambda: car_struct_encode(buf),
            "car/decode": lambda: car_struct_decode(car_raw),
            "md/encode": lambda: md_struct_encode(buf),
            "md/decode": lambda: md_struct_decode(md_raw),
        },
        "struct-blocks": {
            "car/decode": lambda: car_blocks_decode(car_raw),
            "md/decode": lambda: md_blocks_decode(md_raw),
        },
        "protobuf": {
            "car/encode": car_pb_encode,
            "car/decode": lambda: car_pb_decode(car_pb),
            "md/encode": md_pb_encode,
            "md/decode": lambda: md_pb_decode(md_pb),
        },
        "sbe-package": sbe_cases(car_xml, fix_xml),
    }
    print(
        f"Python {sys.version.split()[0]}, protobuf backend {api_implementation.Type()}, {seconds} s a case"
    )
    print(
        f"Car {CAR_LEN} bytes (protobuf {len(car_pb)}), MarketData {MD_LEN} bytes (protobuf {len(md_pb)})"
    )
    timed: dict[tuple[str, str], Callable[[], object]] = {}
    for who, by_case in cases.items():
        for case, fn in by_case.items():
            if isinstance(fn, str):
                print(f"{case:12} {who:14} {fn}")
            else:
                timed[who, case] = fn
    results = time_cases(timed, seconds)
    for (who, case), us in results.items():
        print(f"{case:12} {who:14} {us:9.2f} µs/op")
    print()
    print(
        "| case | Sable µs | struct µs | Sable / struct | protobuf µs | Sable / protobuf | sbe package µs | sbe package / Sable |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = [
        (sable, case)
        for case in ("car/encode", "car/decode", "md/encode", "md/decode")
        for sable in ("sable", "sable-fields")
        if (sable, case) in results
    ]
    for sable, case in rows:
        s = results[(sable, case)]
        label = case if sable == "sable" else f"{case} (fields/add)"
        row = [label, f"{s:.2f}"]
        for who, inverse in (
            ("struct", False),
            ("protobuf", False),
            ("sbe-package", True),
        ):
            t = results.get((who, case))
            if t is None:
                row += ["n/a", "n/a"]
            else:
                row += [f"{t:.2f}", f"{(t / s) if inverse else (s / t):.2f}"]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()

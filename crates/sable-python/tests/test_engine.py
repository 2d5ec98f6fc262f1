"""The `sable` package's API: schemas, decode and encode of every conformance vector, errors with
byte offsets, messages of files and captures as the CLI prints them, and tables as the CLI's
Parquet holds them, handed over without copies."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sable
from conftest import CAR, car_lines, encode, mdp3_packet, pcap, run_sable, schema_path, udp_frame, vectors

CANONICAL = {"separators": (",", ":"), "ensure_ascii": False}


def test_a_schema_loads_from_xml_text_and_sbeir(tmp_path: Path) -> None:
    schema = sable.Schema.load(CAR)
    assert schema.id == 1
    assert (1, "Car") in schema.messages
    assert sable.Schema.from_xml(CAR.read_text()).messages == schema.messages
    ir = tmp_path / "car.sbeir"
    done = run_sable("ir", "-o", str(ir), str(CAR))
    assert done.returncode == 0, done.stderr.decode()
    assert sable.Schema.load(ir).messages == schema.messages
    assert sable.Schema.from_sbeir(ir.read_bytes()).messages == schema.messages


def test_a_schema_with_errors_or_a_file_of_neither_kind_is_refused(tmp_path: Path) -> None:
    with pytest.raises(sable.SchemaError) as e:
        sable.Schema.from_xml("<sbe:messageSchema xmlns:sbe='http://fixprotocol.io/2016/sbe'/>")
    assert e.value.errors
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01\x02")
    with pytest.raises(sable.SchemaError, match="neither SBE XML nor a valid .sbeir"):
        sable.Schema.load(junk)
    with pytest.raises(OSError):
        sable.Schema.load(tmp_path / "missing.xml")


def test_every_vector_decodes_to_its_json_and_encodes_to_its_bytes() -> None:
    schemas = {}
    checked = 0
    for v in vectors():
        path = v.get("decodeSchema", v["schema"])
        want = v.get("decodeJson", v["json"])
        if path not in schemas:
            schemas[path] = sable.Schema.load(schema_path(path))
        data = bytes.fromhex(v["hex"])
        if "decodeSchema" in v and schemas[path].version < sable.Schema.load(schema_path(v["schema"])).version:
            continue  # an older reader may leave bytes unread
        assert schemas[path].decode(data) == want, v["name"]
        if "decodeSchema" not in v:
            assert schemas[path].encode(v["json"]) == data, v["name"]
            assert schemas[path].encode(json.dumps(v["json"], **CANONICAL)) == data, v["name"]
        checked += 1
    assert checked > 50


def test_readable_forms_come_beside_raw_values() -> None:
    v = next(v for v in vectors() if v["name"] == "marketdata-two-entries")
    schema = sable.Schema.load(schema_path(v["schema"]))
    entry = schema.decode(bytes.fromhex(v["hex"]), readable=True)["fields"]["Entries"][0]
    assert entry["MdEntryPx"] == {"mantissa": 50000000, "exponent": 7}
    assert entry["MdEntryPx.readable"] == "500000000000000"
    assert entry["MdEntryTime.readable"] == "2017-07-14T02:40:00.000000000Z"


def test_a_truncated_message_raises_the_clis_error_with_its_byte_offset(car: sable.Schema) -> None:
    data = encode("raw", car_lines()[:1])
    with pytest.raises(sable.DecodeError) as e:
        car.decode(data[:-3])
    assert e.value.kind == "truncated"
    assert e.value.field == "fields.activationCode"
    assert e.value.offset > 0
    assert str(e.value).startswith(f"at byte {e.value.offset} (fields.activationCode, truncated): ")
    # What was decoded up to the problem, as the CLI prints it.
    assert e.value.partial["fields"]["model"] == "Civic VTi"
    assert e.value.partial["error"]["kind"] == "truncated"
    # The same words as `sable decode`.
    done = run_sable("decode", "--schema", str(CAR), stdin=data[:-3])
    assert f"message byte {e.value.offset} (fields.activationCode, truncated): {e.value.message}" in done.stderr.decode()


def test_other_decode_errors_and_trailing_bytes(car: sable.Schema) -> None:
    data = encode("raw", car_lines()[:1])
    wrong_template = data[:2] + struct.pack("<H", 99) + data[4:]
    with pytest.raises(sable.DecodeError) as e:
        car.decode(wrong_template)
    assert (e.value.kind, e.value.field, e.value.offset) == ("unknownTemplate", "header.templateId", 2)
    with pytest.raises(sable.DecodeError) as e:
        car.decode(data + b"\x00\x00")
    assert e.value.kind == "trailingBytes"
    assert e.value.offset == len(data)


def test_encode_errors_name_the_json_path(car: sable.Schema) -> None:
    message = json.loads(car_lines()[0])
    message["fields"]["fuelFigures"][0]["speed"] = "fast"
    with pytest.raises(sable.EncodeError) as e:
        car.encode(message)
    assert e.value.path == "fields.fuelFigures[0].speed"
    message["fields"]["nope"] = 1
    with pytest.raises(sable.EncodeError):
        car.encode(message)
    with pytest.raises(TypeError):
        car.encode(42)  # type: ignore[arg-type]


def cli_lines(*args: str, stdin: bytes = b"") -> list:  # type: ignore[type-arg]
    done = run_sable("decode", *args, stdin=stdin)
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def test_messages_of_a_file_are_the_clis_lines(tmp_path: Path, car: sable.Schema) -> None:
    for framing in ["raw", "u16le", "sofh", "mdp3"]:
        data = encode(framing, car_lines())
        path = tmp_path / f"cars.{framing}"
        path.write_bytes(data)
        got = list(car.iter_messages(path, framing=framing))
        assert got == cli_lines("--schema", str(CAR), "--framing", framing, str(path)), framing
        assert len(got) == len(car_lines())
        assert list(car.iter_buffer(data, framing=framing)) == got


def test_messages_of_a_capture_carry_time_flow_and_mdp3_header(tmp_path: Path, car: sable.Schema) -> None:
    body = encode("mdp3", car_lines())[12:]
    frames = [udp_frame(mdp3_packet(i + 1, 1000 * i, body)) for i in range(3)]
    path = tmp_path / "md.pcap"
    path.write_bytes(pcap(frames))
    got = list(car.iter_messages(path, framing="mdp3", pcap=True))
    assert got == cli_lines("--schema", str(CAR), "--pcap", "--framing", "mdp3", str(path))
    assert got[0]["timestamp"] == "1970-01-01T00:00:00.000000000Z"
    assert got[0]["flow"] == "udp 10.0.0.1:5000 -> 239.1.1.1:14310"
    assert [m["sequenceNumber"] for m in got] == [i // len(car_lines()) + 1 for i in range(len(got))]
    assert list(car.iter_messages(path, framing="mdp3", pcap=True, port=1)) == []


def test_a_bad_message_in_a_file_comes_with_its_error_key(tmp_path: Path, car: sable.Schema) -> None:
    good = encode("u32le", car_lines()[:1])
    cut = good[4:-3]
    data = good + struct.pack("<I", len(cut)) + cut + good
    got = list(car.iter_buffer(data, framing="u32le"))
    assert [("error" in m) for m in got] == [False, True, False]
    assert got[1]["error"]["kind"] == "truncated"
    assert got[1]["offset"] == len(good) + 4


def test_tables_equal_the_clis_parquet_column_for_column(tmp_path: Path, car: sable.Schema) -> None:
    body = encode("mdp3", car_lines())[12:]
    frames = [udp_frame(mdp3_packet(i + 1, 1000 * i, body)) for i in range(5)]
    path = tmp_path / "md.pcap"
    path.write_bytes(pcap(frames))
    out = tmp_path / "out"
    done = run_sable("decode", "--schema", str(CAR), "--pcap", "--framing", "mdp3", "--format", "parquet", "--output", str(out), str(path))
    assert done.returncode == 0, done.stderr.decode()
    tables = sable.read_tables(car, path, framing="mdp3", pcap=True)
    assert list(tables) == ["Car"]
    table = tables["Car"]
    cli = pq.read_table(out / "Car.parquet")
    assert table.num_rows == 5 * len(car_lines())
    assert table.schema.names == cli.schema.names
    assert table.schema.remove_metadata().equals(cli.schema.remove_metadata()), (table.schema, cli.schema)
    assert table.to_pylist() == cli.to_pylist()
    assert table.schema.metadata[b"sable.message"] == b"Car"
    assert sable.decode_tables(car, path.read_bytes(), framing="mdp3", pcap=True)["Car"].to_pylist() == table.to_pylist()


def test_tables_are_typed_and_go_to_pandas(tmp_path: Path, car: sable.Schema) -> None:
    path = tmp_path / "cars.bin"
    path.write_bytes(encode("raw", car_lines()))
    table = sable.read_tables(car, path)["Car"]
    assert table.schema.field("serialNumber").type == pa.uint64()
    assert table.schema.field("available").type == pa.dictionary(pa.int32(), pa.string())
    assert pa.types.is_list(table.schema.field("fuelFigures").type)
    frame = table.to_pandas()
    assert list(frame["serialNumber"]) == [json.loads(l)["fields"]["serialNumber"] for l in car_lines()]
    assert frame["_offset"].iloc[0] == 0


def test_tables_are_handed_over_without_a_copy(tmp_path: Path, car: sable.Schema) -> None:
    path = tmp_path / "cars.bin"
    path.write_bytes(encode("raw", car_lines() * 2000))
    before = pa.total_allocated_bytes()
    table = sable.read_tables(car, path)["Car"]
    # The buffers are Sable's (allocated in Rust), not copied into pyarrow's pool.
    assert table.nbytes > 1_000_000
    assert pa.total_allocated_bytes() - before < 100_000
    assert table.num_rows == 2000 * len(car_lines())


def test_bad_messages_raise_or_are_skipped_and_reported(tmp_path: Path, car: sable.Schema) -> None:
    good = encode("u32le", car_lines()[:1])
    cut = good[4:-3]
    path = tmp_path / "bad.bin"
    path.write_bytes(good + struct.pack("<I", len(cut)) + cut + good)
    with pytest.raises(sable.DecodeError) as e:
        sable.read_tables(car, path, framing="u32le")
    assert e.value.kind == "truncated"
    assert str(e.value).startswith(f"at byte {len(good) + 4}, message byte {e.value.offset} (")
    tables, problems = sable.read_tables_and_problems(car, path, framing="u32le", errors="skip")
    assert tables["Car"].num_rows == 2
    assert len(problems) == 1 and "truncated" in problems[0]
    with pytest.raises(ValueError):
        sable.read_tables(car, path, errors="ignore")


def test_templates_pick_messages(tmp_path: Path) -> None:
    v = [v for v in vectors() if v["schema"].endswith("enums-sets.xml")]
    schema = sable.Schema.load(schema_path(v[0]["schema"]))
    data = b"".join(bytes.fromhex(x["hex"]) for x in v)
    tables = sable.decode_tables(schema, data)
    assert sum(t.num_rows for t in tables.values()) == len(v)
    first = v[0]["json"]["header"]["templateId"]
    picked = sable.decode_tables(schema, data, templates=[first])
    assert list(picked) == [v[0]["json"]["message"]]

"""The Car: encoding gives the conformance vector's (reference-checked) bytes, decoding reads
every field back, in any order, from every kind of buffer, at any offset."""

from __future__ import annotations

import mmap

import pytest
from conftest import vector, vector_json_text


def encode_car(buf: bytearray, offset: int = 0) -> int:
    import car

    enc = car.CarEncoder(buf, offset)
    enc.serial_number(1234).model_year(2013).available(car.BooleanType.T).code(
        car.Model.A
    )
    enc.some_numbers([0, 1, 2, 3, 4]).vehicle_code("abcdef")
    enc.extras(car.OptionalExtras.SPORTS_PACK | car.OptionalExtras.CRUISE_CONTROL)
    engine = enc.engine().capacity(2000).num_cylinders(4).manufacturer_code("123")
    engine.efficiency(35).booster_enabled(car.BooleanType.T)
    engine.booster().boost_type(car.BoostType.NITROUS).horse_power(200)
    fuel = enc.fuel_figures()
    for speed, mpg, usage in [
        (30, 35.9, "Urban Cycle"),
        (55, 49.0, "Combined Cycle"),
        (75, 40.0, "Highway Cycle"),
    ]:
        fuel.next_entry().speed(speed).mpg(mpg).usage_description(usage)
    perf = enc.performance_figures()
    for octane, accel in [
        (95, [(30, 4.0), (60, 7.5), (100, 12.2)]),
        (99, [(30, 3.8), (60, 7.1), (100, 11.8)]),
    ]:
        a = perf.next_entry().octane_rating(octane).acceleration()
        for mph, seconds in accel:
            a.next_entry().mph(mph).seconds(seconds)
    enc.manufacturer("Honda").model("Civic VTi").activation_code("abcdef")
    return enc.encoded_length()


def test_encoding_gives_the_vectors_bytes() -> None:
    expected = bytes.fromhex(str(vector("car.jsonl", "car")["hex"]))
    buf = bytearray(512)
    n = encode_car(buf)
    assert bytes(buf[:n]) == expected


@pytest.mark.parametrize("kind", ["bytes", "bytearray", "memoryview", "mmap"])
@pytest.mark.parametrize("offset", [0, 3])
def test_decoding_every_buffer_at_any_offset(kind: str, offset: int) -> None:
    import car

    raw = bytearray(offset) + bytes.fromhex(str(vector("car.jsonl", "car")["hex"]))
    if kind == "mmap":
        buf: object = mmap.mmap(-1, len(raw))
        buf[:] = raw  # type: ignore[index]
    else:
        buf = {"bytes": bytes, "bytearray": bytearray, "memoryview": memoryview}[kind](
            raw
        )
    d = car.CarDecoder.decode(buf, offset)  # type: ignore[arg-type]
    assert d.to_json() == vector_json_text("car.jsonl", "car")
    assert car.to_json(buf, offset) == d.to_json()  # type: ignore[arg-type]
    assert d.encoded_length() == len(raw) - offset
    assert (d.serial_number, d.model_year, d.available, d.code) == (
        1234,
        2013,
        car.BooleanType.T,
        car.Model.A,
    )
    assert d.some_numbers == (0, 1, 2, 3, 4)
    assert d.vehicle_code == "abcdef" and d.vehicle_code_bytes == b"abcdef"
    assert d.extras.sports_pack and d.extras.cruise_control and not d.extras.sun_roof
    assert d.discounted_model is car.Model.C
    e = d.engine
    assert (e.capacity, e.num_cylinders, e.max_rpm, e.manufacturer_code, e.fuel) == (
        2000,
        4,
        9000,
        "123",
        "Petrol",
    )
    assert (e.booster.boost_type, e.booster.horse_power) == (car.BoostType.NITROUS, 200)
    assert [
        (f.speed, round(f.mpg, 1), f.usage_description) for f in d.fuel_figures
    ] == [
        (30, 35.9, "Urban Cycle"),
        (55, 49.0, "Combined Cycle"),
        (75, 40.0, "Highway Cycle"),
    ]
    perf = [
        (p.octane_rating, [(a.mph, round(a.seconds, 1)) for a in p.acceleration])
        for p in d.performance_figures
    ]
    assert perf == [
        (95, [(30, 4.0), (60, 7.5), (100, 12.2)]),
        (99, [(30, 3.8), (60, 7.1), (100, 11.8)]),
    ]
    assert (d.manufacturer, d.model, d.activation_code) == (
        "Honda",
        "Civic VTi",
        "abcdef",
    )
    assert bytes(d.manufacturer_bytes) == b"Honda"


def test_groups_and_var_data_read_in_any_order() -> None:
    import car

    buf = bytes.fromhex(str(vector("car.jsonl", "car")["hex"]))
    d = car.CarDecoder.decode(buf)
    assert d.activation_code == "abcdef"
    assert d.manufacturer == "Honda"
    assert [p.octane_rating for p in d.performance_figures] == [95, 99]
    assert d.model == "Civic VTi"
    fuel = d.fuel_figures
    first = next(fuel)
    assert first.speed == 30 and first.usage_description == "Urban Cycle"
    # Half-read entries and a half-iterated group do not disturb what comes after.
    assert d.activation_code == "abcdef"
    assert [f.speed for f in d.fuel_figures] == [30, 55, 75]
    assert d.to_json() == vector_json_text("car.jsonl", "car")


def test_a_group_decoder_is_kept_but_never_moved_under_its_loop() -> None:
    import car

    buf = bytes.fromhex(str(vector("car.jsonl", "car")["hex"]))
    d = car.CarDecoder.decode(buf)
    fuel = [(30, "Urban Cycle"), (55, "Combined Cycle"), (75, "Highway Cycle")]
    # The group opened again (and read whole) inside a loop over it: the loop goes on.
    seen = []
    for f in d.fuel_figures:
        assert len(d.fuel_figures) == 3
        assert [g.speed for g in d.fuel_figures] == [30, 55, 75]
        seen.append((f.speed, f.usage_description))
    assert seen == fuel
    # Not being iterated, it is the same object, moved back to the group's start.
    g = d.fuel_figures
    assert d.fuel_figures is g and g.index == -1
    assert [(f.speed, f.usage_description) for f in g] == fuel
    # A loop broken off leaves its decoder aside: the next access gets a fresh one.
    for f in d.fuel_figures:
        break
    assert [f.speed for f in d.fuel_figures] == [30, 55, 75]
    # A nested group: opened, counted and read whole inside the loop over it.
    accel = [(95, [30, 60, 100]), (99, [30, 60, 100])]
    seen_p = []
    for p in d.performance_figures:
        mph = []
        for a in p.acceleration:
            assert len(p.acceleration) == 3
            assert [x.mph for x in p.acceleration] == [30, 60, 100]
            mph.append(a.mph)
        seen_p.append((p.octane_rating, mph))
    assert seen_p == accel
    assert d.manufacturer == "Honda" and d.activation_code == "abcdef"
    # A half-iterated group keeps reading its own message after the decoder moves on.
    it = iter(d.fuel_figures)
    assert next(it).speed == 30
    d.wrap(buf)
    assert [f.speed for f in d.fuel_figures] == [30, 55, 75]
    f = next(it)
    assert (f.speed, f.usage_description) == (55, "Combined Cycle")
    assert d.to_json() == vector_json_text("car.jsonl", "car")


def test_a_group_read_by_loops_and_next_in_turn() -> None:
    import car

    buf = bytes.fromhex(str(vector("car.jsonl", "car")["hex"]))
    d = car.CarDecoder.decode(buf)
    perf = d.performance_figures
    p = next(perf)
    a = p.acceleration
    for x in a:
        break  # a loop broken off at the first entry
    # next() goes on from the entry the loop left, and a new loop from there.
    assert (next(a).mph, a.index) == (60, 1)
    assert [(x.mph, round(x.seconds, 1), x.index) for x in a] == [(100, 12.2, 2)]
    with pytest.raises(StopIteration):
        next(a)
    # A second loop over a decoder starts from the entry the first one reached.
    b = next(perf).acceleration
    first, second = iter(b), iter(b)
    assert next(first).mph == 30
    assert [x.mph for x in second] == [60, 100]
    assert d.manufacturer == "Honda" and d.activation_code == "abcdef"
    assert d.encoded_length() == len(buf)


def test_a_nested_group_encoders_errors_name_its_parents_entry() -> None:
    import car

    buf = bytearray(512)
    enc = car.CarEncoder(buf)
    perf = enc.performance_figures(2)
    perf.add(95).acceleration(1).add(30, 4.0)
    a = perf.add(99).acceleration(2)
    a.add(30, 3.8)
    with pytest.raises(car.EncodeError) as e:
        a.add(-1, 7.1)
    assert (e.value.field, e.value.kind) == (
        "fields.performanceFigures[1].acceleration[1].mph",
        "valueOutOfRange",
    )


def test_every_cut_is_a_truncated_error_never_another_exception() -> None:
    import car

    buf = bytes.fromhex(str(vector("car.jsonl", "car")["hex"]))
    for n in range(len(buf)):
        with pytest.raises(car.DecodeError) as caught:
            car.to_json(buf[:n])
        assert caught.value.kind == "truncated"
        assert 0 <= caught.value.offset <= n
    assert car.to_json(buf) == vector_json_text("car.jsonl", "car")


def test_header_errors() -> None:
    import car

    buf = bytearray.fromhex(str(vector("car.jsonl", "car")["hex"]))
    wrong_schema = bytearray(buf)
    wrong_schema[4] = 9
    with pytest.raises(car.DecodeError) as caught:
        car.decode_any(wrong_schema)
    assert (caught.value.offset, caught.value.field, caught.value.kind) == (
        4,
        "header.schemaId",
        "schemaIdMismatch",
    )
    unknown = bytearray(buf)
    unknown[2] = 7
    with pytest.raises(car.DecodeError) as caught:
        car.decode_any(unknown)
    assert (caught.value.offset, caught.value.field, caught.value.kind) == (
        2,
        "header.templateId",
        "unknownTemplate",
    )
    short = bytearray(buf)
    short[0] = 48
    with pytest.raises(car.DecodeError) as caught:
        car.CarDecoder.decode(short)
    assert (caught.value.offset, caught.value.field, caught.value.kind) == (
        0,
        "header.blockLength",
        "blockLengthTooShort",
    )
    assert '"kind":"blockLengthTooShort"' in caught.value.json()


def test_encoder_errors_carry_path_and_kind_and_write_nothing() -> None:
    import car

    buf = bytearray(512)
    enc = car.CarEncoder(buf)
    with pytest.raises(car.EncodeError) as caught:
        enc.vehicle_code("toolong!")
    assert (caught.value.field, caught.value.kind) == (
        "fields.vehicleCode",
        "textTooLong",
    )
    assert buf[8 + 32 : 8 + 38] == bytes(6)
    with pytest.raises(car.EncodeError) as caught:
        enc.engine().booster().horse_power(256)
    assert (caught.value.field, caught.value.kind) == (
        "fields.engine.booster.horsePower",
        "valueOutOfRange",
    )
    with pytest.raises(car.EncodeError) as caught:
        enc.some_numbers_at(5, 1)
    assert caught.value.kind == "indexOutOfRange"
    with pytest.raises(car.EncodeError) as caught:
        enc.some_numbers([1, 2])
    assert caught.value.kind == "indexOutOfRange"
    fuel = enc.fuel_figures()
    fuel.next_entry()
    with pytest.raises(car.EncodeError) as caught:
        fuel.speed(70000)
    assert (caught.value.field, caught.value.kind) == (
        "fields.fuelFigures[0].speed",
        "valueOutOfRange",
    )
    with pytest.raises(car.EncodeError) as caught:
        car.CarEncoder(bytearray(20))
    assert caught.value.kind == "bufferTooShort"
    small = bytearray(8 + 49 + 4 + 5)
    enc = car.CarEncoder(small)
    enc.fuel_figures()
    enc.performance_figures()
    with pytest.raises(car.EncodeError) as caught:
        enc.manufacturer("Honda")
    assert (caught.value.field, caught.value.kind) == (
        "fields.manufacturer",
        "bufferTooShort",
    )


def test_no_room_for_a_group_or_an_entry_is_buffer_too_short() -> None:
    import car

    fixed = 8 + car.CarEncoder.BLOCK_LENGTH
    # Room for the header, the block and a dimension, not for an entry (6 bytes).
    enc = car.CarEncoder(bytearray(fixed + 4 + 5))
    fuel = enc.fuel_figures()
    for add in (fuel.next_entry, lambda: fuel.add(30, 35.9)):
        with pytest.raises(car.EncodeError) as caught:
            add()
        assert (caught.value.field, caught.value.kind, caught.value.offset) == (
            "fields.fuelFigures[0]",
            "bufferTooShort",
            fixed + 4,
        )
        assert fuel.count == 0 and enc.encoded_length() == fixed + 4
    enc = car.CarEncoder(bytearray(fixed + 3))
    for count in (None, 1):
        with pytest.raises(car.EncodeError) as caught:
            enc.fuel_figures(count)
        assert (caught.value.field, caught.value.kind) == (
            "fields.fuelFigures",
            "bufferTooShort",
        )
        assert enc.encoded_length() == fixed


def test_set_choices_are_read_only_attributes() -> None:
    import car

    extras = car.OptionalExtras(car.OptionalExtras.SUN_ROOF | car.OptionalExtras.CRUISE_CONTROL)
    assert (extras.sun_roof, extras.sports_pack, extras.cruise_control) == (True, False, True)
    assert extras == 5 and repr(extras) == "OptionalExtras(0x5)"
    # The decoders hand out shared instances, one per value: none can be changed.
    with pytest.raises(AttributeError, match="read-only"):
        extras.sun_roof = False  # type: ignore[misc]
    with pytest.raises(AttributeError, match="read-only"):
        del extras.sun_roof  # type: ignore[misc]
    assert extras.sun_roof and car.OptionalExtras(0).sun_roof is False


def test_unknown_enum_values_and_set_bits_are_kept() -> None:
    import car

    buf = bytearray.fromhex(str(vector("car.jsonl", "car")["hex"]))
    buf[8 + 11] = ord("Z")  # code: no such Model
    buf[8 + 38] = 0x86  # extras: sportsPack, cruiseControl and bit 7
    d = car.CarDecoder.decode(buf)
    assert d.code == ord("Z") and not isinstance(d.code, car.Model)
    assert int(d.extras) == 0x86 and d.extras.cruise_control
    assert '"code":{"unknown":90}' in d.to_json()
    assert '"extras":["sportsPack","cruiseControl",7]' in d.to_json()

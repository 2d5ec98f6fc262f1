"""Encoding a block by one call (`fields(...)`, `add(...)`), a group's count given up front, the
composite encoders a group encoder keeps, the composite decoders moved with a group's entries."""

from __future__ import annotations

import pytest
from conftest import vector

FUEL = [
    (30, 35.9, "Urban Cycle"),
    (55, 49.0, "Combined Cycle"),
    (75, 40.0, "Highway Cycle"),
]
PERF = [
    (95, [(30, 4.0), (60, 7.5), (100, 12.2)]),
    (99, [(30, 3.8), (60, 7.1), (100, 11.8)]),
]


def car_fields(enc: object) -> None:
    import car

    assert isinstance(enc, car.CarEncoder)
    enc.fields(
        serial_number=1234,
        model_year=2013,
        available=car.BooleanType.T,
        code=car.Model.A,
        some_numbers=[0, 1, 2, 3, 4],
        vehicle_code="abcdef",
        extras=car.OptionalExtras.SPORTS_PACK | car.OptionalExtras.CRUISE_CONTROL,
        engine_capacity=2000,
        engine_num_cylinders=4,
        engine_manufacturer_code="123",
        engine_efficiency=35,
        engine_booster_enabled=car.BooleanType.T,
        engine_booster_boost_type=car.BoostType.NITROUS,
        engine_booster_horse_power=200,
    )


def test_fields_add_and_counts_give_the_vectors_bytes() -> None:
    import car

    expected = bytes.fromhex(str(vector("car.jsonl", "car")["hex"]))
    buf = bytearray(512)
    enc = car.CarEncoder(buf)
    car_fields(enc)
    fuel = enc.fuel_figures(len(FUEL))
    for speed, mpg, usage in FUEL:
        fuel.add(speed=speed, mpg=mpg).usage_description(usage)
    assert fuel.count == 3
    perf = enc.performance_figures(len(PERF))
    for octane, accel in PERF:
        a = perf.add(octane).acceleration(len(accel))
        for mph, seconds in accel:
            a.add(mph, seconds)
    enc.manufacturer("Honda").model("Civic VTi").activation_code("abcdef")
    assert bytes(buf[: enc.encoded_length()]) == expected
    # The same with next_entry() and fields(...), the counts following the entries.
    buf = bytearray(512)
    enc = car.CarEncoder(buf)
    car_fields(enc)
    fuel = enc.fuel_figures()
    for speed, mpg, usage in FUEL:
        fuel.next_entry().fields(speed, mpg).usage_description(usage)
    perf = enc.performance_figures()
    for octane, accel in PERF:
        a = perf.next_entry().fields(octane_rating=octane).acceleration()
        for mph, seconds in accel:
            a.next_entry().fields(mph=mph, seconds=seconds)
    enc.manufacturer("Honda").model("Civic VTi").activation_code("abcdef")
    assert bytes(buf[: enc.encoded_length()]) == expected


def test_group_counts_given_up_front() -> None:
    import car

    buf = bytearray(512)
    enc = car.CarEncoder(buf)
    fuel = enc.fuel_figures(2)
    assert buf[8 + 49 : 8 + 53] == bytes.fromhex("06000200")  # written at once
    fuel.next_entry().speed(1).mpg(1.0).usage_description("")
    assert fuel.count == 1
    fuel.next_entry().speed(2).mpg(2.0).usage_description("")
    with pytest.raises(car.EncodeError) as caught:
        fuel.next_entry()
    assert (caught.value.field, caught.value.kind) == (
        "fields.fuelFigures[2]",
        "indexOutOfRange",
    )
    with pytest.raises(car.EncodeError) as caught:
        fuel.add(3, 3.0)
    assert caught.value.kind == "indexOutOfRange"
    assert fuel.count == 2
    for count, kind in ((65536, "countTooLarge"), (-1, "valueOutOfRange")):
        limit = enc.encoded_length()
        with pytest.raises(car.EncodeError) as caught:
            enc.performance_figures(count)
        assert (caught.value.field, caught.value.kind) == (
            "fields.performanceFigures",
            kind,
        )
        assert enc.encoded_length() == limit
    # Without a count, the count follows the entries (up to the count type's maximum).
    perf = enc.performance_figures()
    perf.next_entry().octane_rating(95).acceleration()
    perf.next_entry().octane_rating(99).acceleration(0)
    enc.manufacturer("").model("").activation_code("")
    d = car.CarDecoder.decode(buf, 0, enc.encoded_length())
    assert [f.speed for f in d.fuel_figures] == [1, 2]
    assert [p.octane_rating for p in d.performance_figures] == [95, 99]


def test_fields_check_as_the_setters_and_write_nothing_when_refused() -> None:
    import car

    buf = bytearray(512)
    enc = car.CarEncoder(buf)
    good = {
        "serial_number": 1,
        "model_year": 2,
        "available": 1,
        "code": 65,
        "some_numbers": [1, 2, 3, 4, 5],
        "vehicle_code": "abc",
        "extras": 0,
        "engine_capacity": 1,
        "engine_num_cylinders": 2,
        "engine_manufacturer_code": "x",
        "engine_efficiency": 3,
        "engine_booster_enabled": 0,
        "engine_booster_boost_type": 78,
        "engine_booster_horse_power": 4,
    }
    for change, field, kind in (
        ({"vehicle_code": "toolong!"}, "fields.vehicleCode", "textTooLong"),
        ({"some_numbers": [1, 2]}, "fields.someNumbers", "indexOutOfRange"),
        (
            {"engine_booster_horse_power": 256},
            "fields.engine.booster.horsePower",
            "valueOutOfRange",
        ),
        ({"engine_efficiency": 101}, "fields.engine.efficiency", "valueOutOfRange"),
        ({"serial_number": -1}, "fields.serialNumber", "valueOutOfRange"),
        (
            {"some_numbers": [1, 2, 3, 4, 1 << 40]},
            "fields.someNumbers",
            "valueOutOfRange",
        ),
        ({"model_year": "x"}, "fields.modelYear", "valueOutOfRange"),
    ):
        before = bytes(buf)
        with pytest.raises(car.EncodeError) as caught:
            enc.fields(**{**good, **change})  # type: ignore[arg-type]
        assert (caught.value.field, caught.value.kind) == (field, kind)
        assert bytes(buf) == before
    enc.fields(**good)  # type: ignore[arg-type]
    fuel = enc.fuel_figures()
    limit = enc.encoded_length()
    before = bytes(buf)
    with pytest.raises(car.EncodeError) as caught:
        fuel.add(speed=70000, mpg=1.0)
    assert (caught.value.field, caught.value.kind) == (
        "fields.fuelFigures[0].speed",
        "valueOutOfRange",
    )
    assert (fuel.count, enc.encoded_length(), bytes(buf)) == (0, limit, before)
    fuel.add(speed=7, mpg=1.0).usage_description("u")
    assert fuel.count == 1 and buf[limit : limit + 2] == (7).to_bytes(2, "little")


def test_optional_members_and_kept_composite_encoders() -> None:
    import structure

    buf = bytearray(256)
    enc = structure.GroupsEncoder(buf).fields(order_id=3)
    legs = enc.legs(2)
    first = legs.add(leg_id=1, price_mantissa=None).price()
    legs.fills(0)
    legs.note("")
    second = legs.next_entry().leg_id(2).price().mantissa(-5)
    assert first is second  # one encoder for the group's encoder, moved to the entry
    legs.fills(1).add(qty=4, venue=structure.Venue.DARK)
    legs.note("n")
    enc.tags(0)
    enc.text("").blob(b"")
    d = structure.GroupsDecoder.decode(bytes(buf[: enc.encoded_length()]))
    got = []
    prices = []
    for leg in d.legs:
        prices.append(leg.price)
        got.append(
            (leg.leg_id, leg.price.mantissa, [(f.qty, f.venue) for f in leg.fills])
        )
    assert got == [(1, None, []), (2, -5, [(4, structure.Venue.DARK)])]
    # A composite read with an entry's block is one decoder, moved with the entry.
    assert prices[0] is prices[1] and prices[1].mantissa == -5


def test_schema_names_the_generated_code_uses() -> None:
    """Fields named `fields`, `len`, `isinstance`, a group `add`: the accessors get `_`
    where a method has the name, `fields(...)`'s parameters where the body uses it."""
    import names

    buf = bytearray(256)
    enc = names.NamesEncoder(buf).fields(
        fields_=1,
        index_=2,
        len_=3,
        self_=4,
        struct_=5,
        pair_fields_=6,
        pair_add_=7,
        pair_fields=8,
        at=9,
        b0=10,
        isinstance_="ab",
    )
    group = enc.add_(2)
    group.add(fields_=11, len_=12, root=13, index_=14, at=15).add_("x")
    group.next_entry().fields_(21).len(22).root(23).index_(24).at(25).add_("y")
    enc.sequence("z")
    d = names.NamesDecoder.decode(bytes(buf[: enc.encoded_length()]))
    assert (d.fields_, d.index_, d.len, d.self, d.struct) == (1, 2, 3, 4, 5)
    assert (d.pair.fields_, d.pair.add_, d.pair_fields, d.at, d.b0) == (6, 7, 8, 9, 10)
    got = [(e.fields_, e.len, e.root, e.index_, e.at, e.add_) for e in d.add_]
    assert got == [(11, 12, 13, 14, 15, "x"), (21, 22, 23, 24, 25, "y")]
    assert (d.isinstance, d.sequence) == ("ab", "z")

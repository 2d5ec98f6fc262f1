"""Nested groups with var data, composites with optional members, constants; seeded random
round trips; big-endian."""

from __future__ import annotations

import json
import random

from conftest import vector, vector_json_text


def encode_groups(
    buf: bytearray,
    order_id: int,
    legs: list[tuple[int, int | None, list[tuple[int, int]], str]],
    tags: list[int],
    text: str,
    blob: bytes,
) -> int:
    import structure

    enc = structure.GroupsEncoder(buf).order_id(order_id)
    g = enc.legs()
    for leg_id, mantissa, fills, note in legs:
        g.next_entry().leg_id(leg_id).price().mantissa(mantissa)
        f = g.fills()
        for qty, venue in fills:
            f.next_entry().qty(qty).venue(venue)
        g.note(note)
    t = enc.tags()
    for tag in tags:
        t.next_entry().tag(tag)
    enc.text(text).blob(blob)
    return enc.encoded_length()


def test_nested_groups_encode_to_the_vectors_bytes() -> None:
    import structure

    buf = bytearray(1024)
    n = encode_groups(
        buf,
        3,
        [
            (
                1,
                100,
                [
                    (1, structure.Venue.LIT),
                    (2, structure.Venue.DARK),
                    (3, structure.Venue.LIT),
                ],
                "three fills",
            ),
            (2, None, [], ""),
            (3, -5, [(4294967295, 63)], "日本語 ✓"),
        ],
        [1, 2],
        'text with "quotes", \\ and\nnewline\ttab \x01',
        bytes.fromhex("0102fffe"),
    )
    assert bytes(buf[:n]).hex() == vector("structure.jsonl", "groups-nested")["hex"]
    assert structure.to_json(buf[:n]) == vector_json_text(
        "structure.jsonl", "groups-nested"
    )


def test_a_composite_decoder_is_kept_and_moved_with_its_block() -> None:
    import structure

    def raw(name: str) -> bytes:
        return bytes.fromhex(str(vector("structure.jsonl", name)["hex"]))

    d = structure.CompositesDecoder.decode(raw("composites-nested"))
    price = d.last_price
    before = (price.mantissa, price.exponent)
    d.wrap(raw("composites-optional-null"))
    # One decoder, moved: a reference kept from the last message reads this one.
    assert d.last_price is price
    fresh = structure.CompositesDecoder.decode(raw("composites-optional-null"))
    assert (price.mantissa, price.exponent) == (
        fresh.last_price.mantissa,
        fresh.last_price.exponent,
    )
    assert (price.mantissa, price.exponent) != before
    assert d.to_json() == vector_json_text(
        "structure.jsonl", "composites-optional-null"
    )
    # A group entry's: one decoder, moved with the entries.
    g = structure.GroupsDecoder.decode(raw("groups-nested"))
    prices = [(leg.price, leg.price.mantissa) for leg in g.legs]
    assert all(p is prices[0][0] for p, _ in prices)
    assert [m for _, m in prices] == [100, None, -5]


def test_an_encoders_kept_composites_follow_it_to_each_message() -> None:
    import pytest
    import structure

    def once(enc: structure.GroupsEncoder) -> None:
        g = enc.order_id(3).legs(1)
        g.next_entry().leg_id(1).price().mantissa(100)
        g.fills(0)
        g.note("")
        enc.tags(0)
        enc.text("").blob(b"")

    first, second = bytearray(256), bytearray(256)
    enc = structure.GroupsEncoder(first)
    once(enc)
    written = bytes(first)
    # The same encoder, moved to another buffer and 16 bytes in: the leg's price encoder,
    # kept from the first message, writes into the second buffer only.
    enc.wrap(second, 16)
    once(enc)
    assert bytes(first) == written
    assert second[16 : 16 + enc.encoded_length()] == written[: enc.encoded_length()]
    # Its errors count from the second message's start.
    enc.wrap(second, 16)
    leg = enc.order_id(3).legs(1).next_entry()
    with pytest.raises(structure.EncodeError) as caught:
        leg.price().mantissa(1 << 70)
    assert (caught.value.field, caught.value.offset) == ("fields.legs[0].price.mantissa", 8 + 8 + 4 + 4)


def test_random_round_trips() -> None:
    import structure

    rng = random.Random(19)
    for _ in range(300):
        legs = [
            (
                rng.randrange(2**32),
                rng.choice([None, rng.randrange(-(2**63) + 1, 2**63)]),
                [
                    (rng.randrange(2**32), rng.choice([76, 68, rng.randrange(1, 256)]))
                    for _ in range(rng.randrange(4))
                ],
                "".join(rng.choice('ab✓\n"') for _ in range(rng.randrange(6))),
            )
            for _ in range(rng.randrange(4))
        ]
        tags = [rng.randrange(65535) for _ in range(rng.randrange(5))]
        text = "".join(rng.choice("xyz日\\") for _ in range(rng.randrange(8)))
        blob = bytes(rng.randrange(256) for _ in range(rng.randrange(8)))
        order_id = rng.randrange(2**64)
        buf = bytearray(2048)
        n = encode_groups(buf, order_id, legs, tags, text, blob)
        d = structure.GroupsDecoder.decode(bytes(buf[:n]))
        assert d.encoded_length() == n
        assert d.order_id == order_id
        got = [
            (
                leg.leg_id,
                leg.price.mantissa,
                [(f.qty, int(f.venue)) for f in leg.fills],
                leg.note,
            )
            for leg in d.legs
        ]
        assert got == legs
        assert [t.tag for t in d.tags] == tags
        assert (d.text, bytes(d.blob)) == (text, blob)
        printed = json.loads(d.to_json())
        assert printed["fields"]["orderId"] == order_id
        assert printed["fields"]["blob"] == blob.hex()


def test_composites_and_constants() -> None:
    import structure

    buf = bytes.fromhex(str(vector("structure.jsonl", "composites-nested")["hex"]))
    d = structure.CompositesDecoder.decode(buf)
    assert d.protocol == 42 and d.tag == "XYZ" and d.letter == "Q" and d.ratio == 0.5
    assert d.venue is structure.Venue.DARK
    assert d.shape.kind == "RECT" and d.shape.price.exponent == -2
    assert d.to_json() == vector_json_text("structure.jsonl", "composites-nested")


def test_big_endian_round_trip() -> None:
    import bigendian

    buf = bytearray(512)
    enc = bigendian.CarEncoder(buf).serial_number(0x0102030405060708).model_year(2024)
    enc.fuel_figures().next_entry().speed(300).mpg(1.5).usage_description("fast")
    enc.performance_figures()
    enc.manufacturer("Acme").model("Z").activation_code("")
    n = enc.encoded_length()
    # Big-endian on the wire: the header's block length, the serial number.
    assert buf[0:2] == bigendian.CarEncoder.BLOCK_LENGTH.to_bytes(2, "big")
    assert buf[8:16] == bytes.fromhex("0102030405060708")
    d = bigendian.decode_any(bytes(buf[:n]))
    assert isinstance(d, bigendian.CarDecoder)
    assert (d.serial_number, d.model_year) == (0x0102030405060708, 2024)
    assert [(f.speed, f.mpg, f.usage_description) for f in d.fuel_figures] == [
        (300, 1.5, "fast")
    ]
    assert (d.manufacturer, d.model) == ("Acme", "Z")
    assert json.loads(d.to_json())["fields"]["serialNumber"] == 0x0102030405060708

# Writes the corpus of schema pairs under pairs/: one directory per rule or edge case, each an
# old.xml and a new.xml that differ only where the case says. Kept so that a case is easy to
# add; the test reads the files, not this script.
import os

BASE = """<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="pairs" id="{schema_id}" version="{version}" byteOrder="{order}">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="{header_version}"/>
        </composite>
        <composite name="groupSizeEncoding">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="numInGroup" primitiveType="{num_in_group}"/>
        </composite>
        <composite name="varStringEncoding">
            <type name="length" primitiveType="{var_length}" maxValue="60000"/>
            <type name="varData" primitiveType="uint8" length="0" characterEncoding="{charset}"/>
        </composite>
        <enum name="Side" encodingType="{side_encoding}">
{side_values}
        </enum>
        <set name="Flags" encodingType="uint8">
{flag_choices}
        </set>
        <type name="Qty" primitiveType="{qty_type}" presence="{qty_presence}"{qty_null}/>
        <type name="Venue" primitiveType="char" presence="constant">{venue}</type>
        <composite name="{price_name}">
{price_members}
        </composite>{extra_types}
    </types>
    <sbe:message name="{order_name}" id="{order_id}"{order_block_length}>
{order_fields}
    </sbe:message>{extra_messages}
</sbe:messageSchema>
"""

DEFAULTS = dict(
    schema_id="7", version="1", order="littleEndian", header_version="uint16",
    num_in_group="uint16", var_length="uint16", charset="UTF-8",
    side_values='            <validValue name="Buy">1</validValue>\n            <validValue name="Sell">2</validValue>',
    flag_choices='            <choice name="Urgent">0</choice>\n            <choice name="Hidden">1</choice>',
    qty_type="uint32", qty_presence="required", qty_null="", venue="X",
    price_members='            <type name="mantissa" primitiveType="int64"/>\n            <type name="exponent" primitiveType="int8"/>',
    order_name="Order", order_id="1", order_block_length="", extra_types="", extra_messages="",
    side_encoding="uint8", price_name="Price",
)

F = {
    "id": '        <field name="orderId" id="1" type="uint64"/>',
    "qty": '        <field name="qty" id="2" type="Qty"/>',
    "side": '        <field name="side" id="3" type="Side"/>',
    "flags": '        <field name="flags" id="4" type="Flags"/>',
    "price": '        <field name="price" id="5" type="Price"/>',
    "venue": '        <field name="venue" id="6" type="Venue"/>',
    "fills": '        <group name="fills" id="10" dimensionType="groupSizeEncoding">\n            <field name="fillQty" id="11" type="uint32"/>\n        </group>',
    "legs": '        <group name="legs" id="20" dimensionType="groupSizeEncoding">\n            <field name="legId" id="21" type="uint32"/>\n        </group>',
    "text": '        <data name="text" id="30" type="varStringEncoding"/>',
    "note": '        <data name="note" id="31" type="varStringEncoding"/>',
}
ORDER = ["id", "qty", "side", "flags", "price", "venue", "fills", "legs", "text", "note"]


def fields(names, extra=None):
    out = [F[n] for n in names]
    return "\n".join(out)


def schema(**kw):
    v = dict(DEFAULTS)
    v.update(kw)
    if "order_fields" not in kw:
        v["order_fields"] = fields(ORDER)
    return BASE.format(**v)


def add_since(line, since):
    return line.replace('"/>', f'" sinceVersion="{since}"/>', 1) if line.endswith('"/>') else line.replace('dimensionType="groupSizeEncoding">', f'dimensionType="groupSizeEncoding" sinceVersion="{since}">', 1)


NEWFIELD = '        <field name="extra" id="7" type="uint32"{since}/>'
NEWGROUP = '        <group name="extras" id="40" dimensionType="groupSizeEncoding"{since}>\n            <field name="x" id="41" type="uint32"/>\n        </group>'
NEWDATA = '        <data name="memo" id="32" type="varStringEncoding"{since}/>'


def with_after(after, line):
    out = []
    for n in ORDER:
        out.append(F[n])
        if n == after:
            out.append(line)
    if after is None:
        out.insert(0, line)
    return "\n".join(out)


def without(name):
    return fields([n for n in ORDER if n != name])


def swapped(a, b):
    o = list(ORDER)
    i, j = o.index(a), o.index(b)
    o[i], o[j] = o[j], o[i]
    return fields(o)


V2 = dict(version="2")
S2 = ' sinceVersion="2"'
CASES = {
    "identical": {},
    "field-appended": dict(V2, order_fields=with_after("venue", NEWFIELD.format(since=S2))),
    "field-appended-without-since": dict(V2, order_fields=with_after("venue", NEWFIELD.format(since=""))),
    "field-appended-version-not-raised": dict(order_fields=with_after("venue", NEWFIELD.format(since=""))),
    "field-inserted-first": dict(V2, order_fields=with_after(None, NEWFIELD.format(since=S2))),
    "field-removed": dict(V2, order_fields=without("side")),
    "field-removed-last": dict(V2, order_fields=without("price")),
    "constant-field-removed": dict(V2, order_fields=without("venue")),
    "field-reordered": dict(V2, order_fields=swapped("qty", "id")),
    "field-renamed": dict(V2, order_fields=fields(ORDER).replace('name="qty"', 'name="quantity"')),
    "field-id-changed": dict(V2, order_fields=fields(ORDER).replace('id="2" type="Qty"', 'id="99" type="Qty"')),
    "field-type-widened": dict(V2, qty_type="uint64"),
    "field-type-same-size": dict(V2, qty_type="int32"),
    "field-since-raised": dict(V2, order_fields=fields(ORDER).replace('type="Qty"/>', 'type="Qty" sinceVersion="2"/>')),
    "presence-required-to-optional": dict(V2, qty_presence="optional"),
    "presence-optional-to-required": dict(V2, qty_presence="required"),
    "null-value-changed": dict(V2, qty_presence="optional", qty_null=' nullValue="0"'),
    "constant-changed": dict(V2, venue="Y"),
    "enum-value-added": dict(V2, side_values=DEFAULTS["side_values"] + '\n            <validValue name="Short" sinceVersion="2">3</validValue>'),
    "enum-value-removed": dict(V2, side_values='            <validValue name="Buy">1</validValue>'),
    "enum-value-renumbered": dict(V2, side_values='            <validValue name="Buy">1</validValue>\n            <validValue name="Sell">5</validValue>'),
    "enum-value-renamed": dict(V2, side_values='            <validValue name="Bid">1</validValue>\n            <validValue name="Sell">2</validValue>'),
    "set-choice-added": dict(V2, flag_choices=DEFAULTS["flag_choices"] + '\n            <choice name="Iceberg" sinceVersion="2">2</choice>'),
    "set-choice-removed": dict(V2, flag_choices='            <choice name="Urgent">0</choice>'),
    "set-choice-renumbered": dict(V2, flag_choices='            <choice name="Urgent">0</choice>\n            <choice name="Hidden">3</choice>'),
    "composite-member-added": dict(V2, price_members=DEFAULTS["price_members"] + '\n            <type name="scale" primitiveType="int8"/>'),
    "composite-member-removed": dict(V2, price_members='            <type name="mantissa" primitiveType="int64"/>'),
    "composite-member-retyped": dict(V2, price_members='            <type name="mantissa" primitiveType="int32"/>\n            <type name="exponent" primitiveType="int8"/>'),
    "group-added-before-var-data": dict(V2, order_fields=with_after("legs", NEWGROUP.format(since=S2))),
    "group-appended": dict(V2, order_fields=fields([n for n in ORDER if n not in ("text", "note")]) + "\n" + NEWGROUP.format(since=S2)),
    "group-inserted": dict(V2, order_fields=with_after("venue", NEWGROUP.format(since=S2))),
    "group-removed": dict(V2, order_fields=without("fills")),
    "groups-reordered": dict(V2, order_fields=swapped("fills", "legs")),
    "group-field-appended": dict(V2, order_fields=fields(ORDER).replace('<field name="fillQty" id="11" type="uint32"/>', '<field name="fillQty" id="11" type="uint32"/>\n            <field name="fillPx" id="12" type="int64" sinceVersion="2"/>')),
    "group-renamed": dict(V2, order_fields=fields(ORDER).replace('name="legs"', 'name="legList"')),
    "dimension-changed": dict(V2, num_in_group="uint8"),
    "var-data-appended": dict(V2, order_fields=with_after("note", NEWDATA.format(since=S2))),
    "var-data-appended-without-since": dict(V2, order_fields=with_after("note", NEWDATA.format(since=""))),
    "var-data-removed-last": dict(V2, order_fields=without("note")),
    "var-data-reordered": dict(V2, order_fields=swapped("text", "note")),
    "var-data-length-type-changed": dict(V2, var_length="uint32"),
    "charset-ascii-to-utf8": dict(V2, charset="UTF-8"),
    "header-changed": dict(V2, header_version="uint32"),
    "schema-id-changed": dict(V2, schema_id="8"),
    "byte-order-changed": dict(V2, order="bigEndian"),
    "version-lowered": dict(version="0"),
    "template-id-changed": dict(V2, order_id="2"),
    "message-renamed": dict(V2, order_name="NewOrder"),
}
CODE = '\n        <type name="Code" primitiveType="char" length="{n}"/>'
CANCEL = '\n    <sbe:message name="Cancel" id="2">\n        <field name="orderId" id="1" type="uint64"/>\n    </sbe:message>'
CASES.update({
    "message-added": dict(V2, extra_messages=CANCEL),
    "message-removed": dict(V2),
    "field-char-length-changed": dict(V2, extra_types=CODE.format(n=6), order_fields=with_after("venue", '        <field name="code" id="8" type="Code"/>')),
    "field-offset-made-explicit-with-padding": dict(V2, order_fields=fields(ORDER).replace('type="Qty"/>', 'type="Qty" offset="12"/>')),
    "block-length-padded": dict(V2, order_block_length=' blockLength="64"'),
    "field-since-not-above-old-version": dict(V2, order_fields=with_after("venue", NEWFIELD.format(since=' sinceVersion="1"'))),
    "enum-encoding-widened": dict(V2, side_encoding="uint16"),
    "var-data-inserted": dict(V2, order_fields=with_after("legs", NEWDATA.format(since=S2))),
    "field-moved-into-group": dict(V2, order_fields=without("qty").replace('<field name="fillQty" id="11" type="uint32"/>', '<field name="fillQty" id="11" type="uint32"/>\n            <field name="qty" id="2" type="Qty" sinceVersion="2"/>')),
    "type-renamed": dict(V2, price_name="Px", order_fields=fields(ORDER).replace('type="Price"', 'type="Px"')),
    "presence-constant-to-required": dict(V2, order_fields=fields(ORDER).replace('type="Venue"', 'type="VenueCode"'), extra_types='\n        <type name="VenueCode" primitiveType="char"/>'),
    "null-value-made-explicit": dict(V2, qty_presence="optional", qty_null=' nullValue="4294967295"'),
    "set-choice-renamed": dict(V2, flag_choices='            <choice name="Rush">0</choice>\n            <choice name="Hidden">1</choice>'),
    "group-became-var-data": dict(V2, order_fields=without("fills") + '\n        <data name="fills" id="10" type="varStringEncoding"/>'),
})
OLD_OVERRIDES = {
    "presence-optional-to-required": dict(qty_presence="optional"),
    "charset-ascii-to-utf8": dict(charset="US-ASCII"),
    "null-value-changed": dict(qty_presence="optional"),
    "group-appended": dict(order_fields=fields([n for n in ORDER if n not in ("text", "note")])),
    "message-removed": dict(extra_messages=CANCEL),
    "field-char-length-changed": dict(extra_types=CODE.format(n=8), order_fields=with_after("venue", '        <field name="code" id="8" type="Code"/>')),
    "null-value-made-explicit": dict(qty_presence="optional"),
}

here = os.path.dirname(os.path.abspath(__file__))
for name, new in CASES.items():
    d = os.path.join(here, "pairs", name)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "old.xml"), "w").write(schema(**OLD_OVERRIDES.get(name, {})))
    open(os.path.join(d, "new.xml"), "w").write(schema(**new))

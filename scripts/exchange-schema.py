#!/usr/bin/env python3
"""Writes a synthetic exchange schema of N messages (default 100) to standard output, shaped as
CME MDP 3.0's and iLink 3's are: prices as mantissa/exponent composites (constant exponent, and
optional ones with a null mantissa), UTCTimestamp fields, enums (one on an optional encoding
type, nullValue 255), sets, char arrays, and repeating groups. Deterministic (the same N gives
the same schema); used by scripts/bench-start.sh, since the real schemas are not redistributable.

    python3 scripts/exchange-schema.py [N] > schema.xml
"""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
rng = random.Random(15)

TYPES = """
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
        <composite name="groupSize">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="numInGroup" primitiveType="uint8"/>
        </composite>
        <composite name="PRICE9">
            <type name="mantissa" primitiveType="int64"/>
            <type name="exponent" primitiveType="int8" presence="constant">-9</type>
        </composite>
        <composite name="PRICENULL9">
            <type name="mantissa" primitiveType="int64" presence="optional" nullValue="9223372036854775807"/>
            <type name="exponent" primitiveType="int8" presence="constant">-9</type>
        </composite>
        <composite name="Decimal32NULL">
            <type name="mantissa" primitiveType="int32" presence="optional" nullValue="2147483647"/>
            <type name="exponent" primitiveType="int8" presence="constant">-4</type>
        </composite>
        <composite name="FLOAT">
            <type name="mantissa" primitiveType="int64"/>
            <type name="exponent" primitiveType="int8"/>
        </composite>
        <type name="uInt8NULL" primitiveType="uint8" presence="optional" nullValue="255"/>
        <type name="uInt64" primitiveType="uint64"/>
        <type name="uInt64NULL" primitiveType="uint64" presence="optional" nullValue="18446744073709551615"/>
        <type name="Int32" primitiveType="int32"/>
        <type name="uInt32" primitiveType="uint32"/>
        <type name="uInt32NULL" primitiveType="uint32" presence="optional" nullValue="4294967295"/>
        <type name="LocalMktDate" primitiveType="uint16" presence="optional" nullValue="65535" semanticType="LocalMktDate"/>
        <type name="Symbol" primitiveType="char" length="20" characterEncoding="US-ASCII"/>
        <type name="Asset" primitiveType="char" length="6" characterEncoding="US-ASCII"/>
        <enum name="Side" encodingType="uint8">
            <validValue name="Buy">1</validValue>
            <validValue name="Sell">2</validValue>
        </enum>
        <enum name="LiquidityFlag" encodingType="uInt8NULL">
            <validValue name="Added">1</validValue>
            <validValue name="Removed">2</validValue>
        </enum>
        <enum name="MDUpdateAction" encodingType="uint8">
            <validValue name="New">0</validValue>
            <validValue name="Change">1</validValue>
            <validValue name="Delete">2</validValue>
            <validValue name="DeleteThru">3</validValue>
            <validValue name="DeleteFrom">4</validValue>
            <validValue name="Overlay">5</validValue>
        </enum>
        <enum name="MDEntryType" encodingType="char">
            <validValue name="Bid">0</validValue>
            <validValue name="Offer">1</validValue>
            <validValue name="Trade">2</validValue>
            <validValue name="OpenPrice">4</validValue>
            <validValue name="SettlementPrice">6</validValue>
        </enum>
        <set name="MatchEventIndicator" encodingType="uint8">
            <choice name="LastTradeMsg">0</choice>
            <choice name="LastVolumeMsg">1</choice>
            <choice name="LastQuoteMsg">2</choice>
            <choice name="LastStatsMsg">3</choice>
            <choice name="LastImpliedMsg">4</choice>
            <choice name="RecoveryMsg">5</choice>
            <choice name="Reserved">6</choice>
            <choice name="EndOfEvent">7</choice>
        </set>
        <set name="SettlPriceType" encodingType="uint8">
            <choice name="Final">0</choice>
            <choice name="Actual">1</choice>
            <choice name="Rounded">2</choice>
            <choice name="Intraday">3</choice>
        </set>"""

# (type, extra attributes) of a field.
FIELD_TYPES = [
    ("PRICE9", ""),
    ("PRICENULL9", ""),
    ("Decimal32NULL", ""),
    ("FLOAT", ""),
    ("uInt64", ' semanticType="UTCTimestamp"'),
    ("uInt64NULL", ""),
    ("Int32", ""),
    ("uInt32", ""),
    ("uInt32NULL", ""),
    ("LocalMktDate", ""),
    ("Symbol", ""),
    ("Asset", ""),
    ("Side", ""),
    ("LiquidityFlag", ""),
    ("MDUpdateAction", ""),
    ("MDEntryType", ""),
    ("MatchEventIndicator", ""),
    ("SettlPriceType", ""),
]


def fields(count, indent, next_id):
    out = []
    for i in range(count):
        t, extra = rng.choice(FIELD_TYPES)
        out.append(f'{indent}<field name="field{next_id + i}" id="{next_id + i}" type="{t}"{extra}/>')
    return out


print('<?xml version="1.0" encoding="UTF-8"?>')
print('<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="exchange" id="1"'
      ' version="9" semanticVersion="FIX5SP2" byteOrder="littleEndian">')
print(f"    <types>{TYPES}\n    </types>")
for m in range(n):
    print(f'    <sbe:message name="Message{m + 1}" id="{m + 1}">')
    print('        <field name="TransactTime" id="60" type="uInt64" semanticType="UTCTimestamp"/>')
    print("\n".join(fields(rng.randint(6, 16), "        ", 100)))
    for g in range(rng.randint(0, 2)):
        print(f'        <group name="Entries{g}" id="{900 + g}" dimensionType="groupSize">')
        print("\n".join(fields(rng.randint(4, 10), "            ", 200 + 20 * g)))
        print("        </group>")
    print("    </sbe:message>")
print("</sbe:messageSchema>")

//! Lengths that overflow what holds them are errors at their line:column, never clamped: a block
//! longer than its length field (the header's or the group dimension's `blockLength`) can
//! express, a type or composite longer than the IR's i32, a length whose size in bytes overflows.

mod common;

use common::{compile, error, schema, STANDARD_TYPES as HEADER};

/// A schema whose message header's `blockLength` is `block_length_type`.
fn schema_with_header(block_length_type: &str, types: &str, messages: &str) -> String {
    let header = HEADER.replacen(
        r#"<type name="blockLength" primitiveType="uint16"/>"#,
        &format!(r#"<type name="blockLength" primitiveType="{block_length_type}"/>"#),
        1,
    );
    schema(0, types, messages).replace(HEADER, &header)
}

#[test]
fn a_char_array_longer_than_a_uint16_block_is_an_error() {
    let text = schema(
        0,
        r#"<type name="Huge" primitiveType="char" length="2147483647"/>"#,
        r#"<sbe:message name="M" id="1">
        <field name="huge" id="1" type="Huge"/></sbe:message>"#,
    );
    error(
        &text,
        "the block is 2147483647 bytes long with this field, more than the 65535 bytes it can have: the message header's blockLength is uint16",
        "name=\"huge\"",
    );
}

#[test]
fn a_length_whose_size_in_bytes_overflows_is_an_error_at_the_attribute() {
    let text = schema(
        0,
        r#"<type name="Many" primitiveType="int64" length="1000000000"/>"#,
        r#"<sbe:message name="M" id="1"><field name="a" id="1" type="Many"/></sbe:message>"#,
    );
    error(
        &text,
        "length 1000000000 of int64 is 8000000000 bytes, more than the 2147483647 a type can have",
        "length=\"1000000000\"",
    );
}

#[test]
fn a_group_entry_longer_than_its_dimension_can_express_is_an_error() {
    let text = schema(
        0,
        r#"<type name="Wide" primitiveType="char" length="40000"/>"#,
        r#"<sbe:message name="M" id="1"><group name="g" id="1">
        <field name="a" id="2" type="Wide"/>
        <field name="b" id="3" type="Wide"/></group></sbe:message>"#,
    );
    error(
        &text,
        "the block is 80000 bytes long with this field, more than the 65535 bytes it can have: the dimension \"groupSizeEncoding\"'s blockLength is uint16",
        "name=\"b\"",
    );
}

#[test]
fn a_group_block_length_beyond_its_dimension_is_an_error() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <group name="g" id="1" blockLength="70000"><field name="a" id="2" type="uint8"/></group></sbe:message>"#,
    );
    error(
        &text,
        "from 0 to 65535, not \"70000\"",
        "blockLength=\"70000\"",
    );
}

#[test]
fn a_composite_longer_than_the_ir_can_hold_is_an_error() {
    let types = r#"<composite name="Twice">
            <type name="a" primitiveType="char" length="2000000000"/>
            <type name="b" primitiveType="char" length="2000000000"/></composite>"#;
    error(
        &schema(0, types, ""),
        "composite \"Twice\" is 4000000000 bytes long, more than the 2147483647 a type can have",
        "<composite name=\"Twice\"",
    );
}

#[test]
fn a_composite_member_offset_at_the_limit_is_an_error() {
    let types = r#"<composite name="Far">
            <type name="a" primitiveType="uint32" offset="2147483647"/></composite>"#;
    error(
        &schema(0, types, ""),
        "composite \"Far\" is 2147483651 bytes long",
        "<composite name=\"Far\"",
    );
}

#[test]
fn a_field_offset_beyond_the_block_is_an_error() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <field name="far" id="1" type="uint32" offset="2147483647"/></sbe:message>"#,
    );
    error(
        &text,
        "the block is 2147483651 bytes long with this field",
        "name=\"far\"",
    );
}

#[test]
fn a_uint8_header_limits_message_blocks_to_255_bytes() {
    let messages = r#"<sbe:message name="M" id="1">
        <field name="a" id="1" type="Wide"/></sbe:message>"#;
    let types = r#"<type name="Wide" primitiveType="char" length="256"/>"#;
    error(
        &schema_with_header("uint8", types, messages),
        "more than the 255 bytes it can have: the message header's blockLength is uint8",
        "name=\"a\"",
    );
    let declared = r#"<sbe:message name="N" id="2" blockLength="300"/>"#;
    error(
        &schema_with_header("uint8", "", declared),
        "from 0 to 255, not \"300\"",
        "blockLength=\"300\"",
    );
}

#[test]
fn a_uint32_header_allows_blocks_past_65535_bytes_unclamped() {
    let text = schema_with_header(
        "uint32",
        r#"<type name="Wide" primitiveType="char" length="100000"/>"#,
        r#"<sbe:message name="M" id="1" blockLength="100008">
        <field name="a" id="1" type="Wide"/></sbe:message>"#,
    );
    let compiled = compile(&text);
    let ir = compiled
        .ir
        .unwrap_or_else(|| panic!("{:#?}", compiled.diagnostics));
    assert_eq!(ir.messages[0][0].encoded_length, 100_008);
}

#[test]
fn a_uint32_header_still_stops_at_the_irs_int32() {
    let text = schema_with_header(
        "uint32",
        r#"<type name="Huge" primitiveType="char" length="2147483647"/>"#,
        r#"<sbe:message name="M" id="1">
        <field name="a" id="1" type="uint8"/>
        <field name="huge" id="2" type="Huge"/></sbe:message>"#,
    );
    error(
        &text,
        "the message header's blockLength is uint32, and the IR holds lengths as int32",
        "name=\"huge\"",
    );
}

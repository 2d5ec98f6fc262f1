//! A `<field>` of a var-data composite (length + varData): a fixed-size composite of the declared
//! lengths with a warning, as the reference reads it (its IR is compared with the reference's in
//! tests/reference.rs); refused where the reference's reading leaves it variable-length.

mod common;

use common::{error, expect_one, schema};
use sable_schema::Severity;

const FIXED: &str = r#"<composite name="Code">
            <type name="length" primitiveType="uint8"/>
            <type name="varData" primitiveType="char" length="6"/></composite>"#;

#[test]
fn a_field_of_a_var_data_composite_is_fixed_size_with_a_warning() {
    let text = schema(
        0,
        FIXED,
        r#"<sbe:message name="M" id="1">
        <field name="code" id="1" type="Code"/>
        <field name="after" id="2" type="uint8"/></sbe:message>"#,
    );
    let compiled = expect_one(
        &text,
        Severity::Warning,
        "as a <field> it is a fixed-size composite of 7 bytes: varData is always its declared length 6 (char)",
        "name=\"code\"",
    );
    let ir = compiled.ir.expect("a warning leaves the IR");
    let after = ir.messages[0]
        .iter()
        .find(|t| t.name == "after")
        .expect("field after");
    assert_eq!(after.offset, 7);
}

#[test]
fn a_field_of_a_var_data_composite_of_length_0_is_an_error() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <field name="v" id="1" type="varDataEncoding"/></sbe:message>"#,
    );
    error(
        &text,
        "type \"varDataEncoding\" has variable length; use <data> for it",
        "name=\"v\"",
    );
}

#[test]
fn a_var_data_composite_used_by_a_field_and_a_data_is_an_error_at_the_field() {
    let text = schema(
        0,
        FIXED,
        r#"<sbe:message name="M" id="1">
        <field name="code" id="1" type="Code"/>
        <group name="g" id="2"><data name="more" id="3" type="Code"/></group></sbe:message>"#,
    );
    error(
        &text,
        "type \"Code\" is also used by a <data>, which makes its varData variable-length here too",
        "name=\"code\"",
    );
}

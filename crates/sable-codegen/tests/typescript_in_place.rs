//! The TypeScript codecs' in-place composite members (`priceMantissa` beside
//! `price.mantissa`): which are made, and that a schema's own names always win.

use std::path::Path;

use sable_codegen::typescript;

/// The generated module of a one-message schema whose fields are `fields` (XML).
fn module_of(fields: &str) -> String {
    let xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="p" id="1" version="0" byteOrder="littleEndian">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
        <composite name="Decimal">
            <type name="mantissa" primitiveType="int64"/>
            <type name="exponent" primitiveType="int8" presence="constant">-2</type>
        </composite>
        <composite name="Point">
            <type name="x" primitiveType="int16"/>
            <type name="y" primitiveType="int16" sinceVersion="0"/>
            <type name="tags" primitiveType="uint8" length="2"/>
        </composite>
        <composite name="Box">
            <ref name="corner" type="Point"/>
            <type name="side" primitiveType="uint32"/>
        </composite>
    </types>
    <sbe:message name="M" id="1">
{fields}
    </sbe:message>
</sbe:messageSchema>"#
    );
    let compiled = sable_schema::compile_str(&xml, Path::new("in-place.xml"));
    let ir = compiled.ir.expect("the test schema compiles");
    let files = typescript::generate(&ir, &typescript::Options::default());
    files
        .into_iter()
        .find(|f| {
            f.path.extension().is_some_and(|e| e == "ts")
                && !f.text.contains("export class EncodeError")
        })
        .expect("the schema's module")
        .text
}

#[test]
fn primitive_members_get_in_place_accessors_on_both_codecs() {
    let m = module_of(
        r#"        <field name="price" id="1" type="Decimal"/>
        <field name="box" id="2" type="Box"/>"#,
    );
    // The decoder's getters (and the 64-bit member's AsNumber), the encoder's setters.
    assert!(m.contains("  get priceMantissa(): bigint {"), "{m}");
    assert!(m.contains("  priceMantissaAsNumber(): number {"));
    assert!(m.contains("  priceMantissa(value: bigint | number): this {"));
    assert!(m.contains("this._w64(value, \"price.mantissa\", 0, true, true);"));
    assert!(m.contains("  get boxSide(): number {"));
    assert!(m.contains("  boxSide(value: number): this {"));
    // Constants, arrays and nested composites' members are left to the composite.
    assert!(!m.contains("priceExponent"));
    assert!(!m.contains("boxCorner"));
}

#[test]
fn a_schema_name_is_never_shadowed() {
    // `priceMantissa` is a field of its own, and `boxSideAsNumber` is what a 64-bit field
    // `boxSide` would derive: neither composite member is made flat, and the field keeps its name.
    let m = module_of(
        r#"        <field name="price" id="1" type="Decimal"/>
        <field name="priceMantissa" id="2" type="uint8"/>
        <field name="box" id="3" type="Box"/>
        <field name="boxSideAsNumber" id="4" type="uint8"/>"#,
    );
    assert_eq!(
        m.matches("  get priceMantissa(): number {").count(),
        1,
        "{m}"
    );
    assert!(!m.contains("get priceMantissa(): bigint"));
    assert!(!m.contains("priceMantissaAsNumber"));
    assert!(!m.contains("get boxSide()"));
}

//! One test per validation rule: each schema breaks one rule and must get that diagnostic, at the
//! right line, and no IR.

mod common;

use common::{compile, error, expect_one, schema, STANDARD_TYPES as HEADER};
use sable_schema::Severity;

#[test]
fn a_valid_schema_has_no_diagnostics_and_yields_ir() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1"><field name="a" id="1" type="uint32"/></sbe:message>"#,
    );
    let compiled = compile(&text);
    assert!(
        compiled.diagnostics.is_empty(),
        "{:#?}",
        compiled.diagnostics
    );
    let ir = compiled.ir.expect("IR");
    assert_eq!(ir.messages.len(), 1);
    assert_eq!(ir.messages[0][0].encoded_length, 4);
}

#[test]
fn unknown_field_type() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <field name="a" id="1" type="Nope"/></sbe:message>"#,
    );
    error(&text, "unknown type \"Nope\"", "type=\"Nope\"");
}

#[test]
fn duplicate_type_is_a_warning() {
    let text = schema(
        0,
        r#"<type name="T" primitiveType="char"/>
        <type name="T" primitiveType="uint8"/>"#,
        r#"<sbe:message name="M" id="1"><field name="a" id="1" type="T"/></sbe:message>"#,
    );
    let compiled = expect_one(
        &text,
        Severity::Warning,
        "already defined",
        "name=\"T\" primitiveType=\"uint8\"",
    );
    assert!(compiled.ir.is_some(), "a warning alone still yields IR");
}

#[test]
fn duplicate_message_id() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="A" id="7"/>
        <sbe:message name="B" id="7"/>"#,
    );
    error(&text, "template id 7 is already used", "name=\"B\"");
}

#[test]
fn header_missing_a_member() {
    let text = schema(0, "", "").replace(r#"<type name="templateId" primitiveType="uint16"/>"#, "");
    error(
        &text,
        "has no \"templateId\"",
        "<composite name=\"messageHeader\">",
    );
}

#[test]
fn header_type_not_defined() {
    let text = schema(0, "", "").replace("package=\"t\"", "package=\"t\" headerType=\"hdr\"");
    error(&text, "\"hdr\" is not defined", "headerType=");
}

#[test]
fn dimension_type_not_a_composite() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <group name="g" id="1" dimensionType="uint16"></group></sbe:message>"#,
    );
    error(&text, "must be a composite", "dimensionType=");
}

#[test]
fn dimension_type_missing_num_in_group() {
    let types =
        r#"<composite name="dim"><type name="blockLength" primitiveType="uint16"/></composite>"#;
    let text = schema(
        0,
        types,
        r#"<sbe:message name="M" id="1">
        <group name="g" id="1" dimensionType="dim"></group></sbe:message>"#,
    );
    error(&text, "has no \"numInGroup\"", "dimensionType=\"dim\"");
}

#[test]
fn uint32_num_in_group_needs_a_max_value() {
    let types = r#"<composite name="dim"><type name="blockLength" primitiveType="uint16"/>
        <type name="numInGroup" primitiveType="uint32"/></composite>"#;
    let text = schema(
        0,
        types,
        r#"<sbe:message name="M" id="1">
        <group name="g" id="1" dimensionType="dim"></group></sbe:message>"#,
    );
    error(&text, "without a maxValue", "dimensionType=\"dim\"");
    let fixed = text.replace(
        r#"primitiveType="uint32"/>"#,
        r#"primitiveType="uint32" maxValue="65535"/>"#,
    );
    assert!(compile(&fixed).diagnostics.is_empty());
}

#[test]
fn uint32_var_data_length_needs_a_max_value_that_fits() {
    let types = r#"<composite name="vd"><type name="length" primitiveType="uint32" maxValue="4294967294"/>
        <type name="varData" primitiveType="uint8" length="0"/></composite>"#;
    let text = schema(
        0,
        types,
        r#"<sbe:message name="M" id="1">
        <data name="d" id="1" type="vd"/></sbe:message>"#,
    );
    error(
        &text,
        "without a maxValue of at most 2147483647",
        "type=\"vd\"",
    );
}

#[test]
fn var_data_composite_missing_var_data() {
    let types = r#"<composite name="vd"><type name="length" primitiveType="uint16"/></composite>"#;
    let text = schema(
        0,
        types,
        r#"<sbe:message name="M" id="1">
        <data name="d" id="1" type="vd"/></sbe:message>"#,
    );
    error(&text, "has no \"varData\"", "type=\"vd\"");
}

#[test]
fn data_type_not_a_composite() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <data name="d" id="1" type="uint8"/></sbe:message>"#,
    );
    error(
        &text,
        "must be a composite with length and varData",
        "<data name=\"d\"",
    );
}

#[test]
fn composite_member_offsets_overlap() {
    let types = r#"<composite name="C"><type name="a" primitiveType="uint32"/>
        <type name="b" primitiveType="uint8" offset="2"/></composite>"#;
    let text = schema(
        0,
        types,
        r#"<sbe:message name="M" id="1"><field name="c" id="1" type="C"/></sbe:message>"#,
    );
    error(
        &text,
        "offset 2 overlaps the member before it, which ends at 4",
        "offset=\"2\"",
    );
}

#[test]
fn field_offset_goes_backwards() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <field name="a" id="1" type="uint64"/>
        <field name="b" id="2" type="uint8" offset="4"/></sbe:message>"#,
    );
    error(
        &text,
        "offset 4 overlaps the field before it, which ends at 8",
        "offset=\"4\"",
    );
}

#[test]
fn message_block_length_too_small() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1" blockLength="4">
        <field name="a" id="1" type="uint64"/></sbe:message>"#,
    );
    error(
        &text,
        "blockLength 4 is too small for the fields, which need 8",
        "blockLength=\"4\"",
    );
}

#[test]
fn group_block_length_too_small() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <group name="g" id="1" blockLength="3">
        <field name="a" id="2" type="uint64"/></group></sbe:message>"#,
    );
    error(
        &text,
        "blockLength 3 is too small for the group's fields, which need 8",
        "blockLength=\"3\"",
    );
}

#[test]
fn field_after_group() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <group name="g" id="1"><field name="a" id="2" type="uint8"/></group>
        <field name="late" id="3" type="uint8"/></sbe:message>"#,
    );
    error(
        &text,
        "a field comes after a group or data",
        "name=\"late\"",
    );
}

#[test]
fn field_after_data() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <data name="d" id="1" type="varDataEncoding"/>
        <field name="late" id="3" type="uint8"/></sbe:message>"#,
    );
    error(
        &text,
        "a field comes after a group or data",
        "name=\"late\"",
    );
}

#[test]
fn group_after_data() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <data name="d" id="1" type="varDataEncoding"/>
        <group name="late" id="2"><field name="a" id="3" type="uint8"/></group></sbe:message>"#,
    );
    error(&text, "a group comes after data", "name=\"late\"");
}

#[test]
fn group_inside_composite() {
    let types = r#"<composite name="C"><type name="a" primitiveType="uint8"/>
        <group name="g" id="1"/></composite>"#;
    let text = schema(0, types, "");
    error(
        &text,
        "<group> is not allowed inside <composite>",
        "<group name=\"g\"",
    );
}

#[test]
fn data_inside_composite() {
    let types = r#"<composite name="C"><type name="a" primitiveType="uint8"/>
        <data name="d" id="1" type="varDataEncoding"/></composite>"#;
    let text = schema(0, types, "");
    error(
        &text,
        "<data> is not allowed inside <composite>",
        "<data name=\"d\"",
    );
}

#[test]
fn since_version_above_schema_version() {
    let text = schema(
        1,
        "",
        r#"<sbe:message name="M" id="1">
        <field name="a" id="1" type="uint8" sinceVersion="2"/></sbe:message>"#,
    );
    error(
        &text,
        "sinceVersion 2 is greater than the schema's version 1",
        "sinceVersion=\"2\"",
    );
}

#[test]
fn enum_value_outside_encoding_range() {
    let types = r#"<type name="Small" primitiveType="uint8" minValue="1" maxValue="5"/>
        <enum name="E" encodingType="Small">
        <validValue name="ONE">1</validValue>
        <validValue name="SIX">6</validValue></enum>"#;
    let text = schema(0, types, "");
    error(
        &text,
        "validValue SIX is 6, outside the encoding's range 1 to 5",
        "name=\"SIX\"",
    );
}

#[test]
fn enum_value_out_of_primitive_range() {
    let types = r#"<enum name="E" encodingType="uint8">
        <validValue name="BIG">300</validValue></enum>"#;
    error(
        &schema(0, types, ""),
        "out of range for uint8",
        "name=\"BIG\"",
    );
}

#[test]
fn enum_value_equal_to_null_value() {
    let types = r#"<enum name="E" encodingType="uint8" nullValue="9" presence="optional">
        <validValue name="A">1</validValue>
        <validValue name="NULLISH">9</validValue></enum>"#;
    error(
        &schema(0, types, ""),
        "uses the null value 9",
        "name=\"NULLISH\"",
    );
}

#[test]
fn enum_value_equal_to_default_null_value() {
    let types = r#"<enum name="E" encodingType="uint8">
        <validValue name="MAX">255</validValue></enum>"#;
    error(
        &schema(0, types, ""),
        "uses the null value 255",
        "name=\"MAX\"",
    );
}

#[test]
fn set_choice_beyond_encoding_bits() {
    let types = r#"<set name="S" encodingType="uint8">
        <choice name="high">8</choice></set>"#;
    error(
        &schema(0, types, ""),
        "choice high is bit 8, but uint8 has bits 0 to 7",
        "name=\"high\"",
    );
}

#[test]
fn enum_values_must_be_distinct() {
    let types = r#"<enum name="E" encodingType="uint8">
        <validValue name="A">1</validValue>
        <validValue name="A">2</validValue>
        <validValue name="C">1</validValue></enum>"#;
    let text = schema(0, types, "");
    error(&text, "\"E\" already has a validValue named \"A\"", ">2<");
    error(&text, "validValue C has the same value as A", "name=\"C\"");
}

#[test]
fn set_choices_must_be_distinct() {
    let types = r#"<set name="S" encodingType="uint8">
        <choice name="a">0</choice>
        <choice name="b">0</choice></set>"#;
    error(
        &schema(0, types, ""),
        "choice b has the same value as a",
        "name=\"b\"",
    );
}

#[test]
fn constant_without_value() {
    let types = r#"<type name="K" primitiveType="uint8" presence="constant"/>"#;
    error(
        &schema(0, types, ""),
        "presence \"constant\" but no value",
        "name=\"K\"",
    );
}

#[test]
fn null_value_on_a_required_type() {
    let types = r#"<type name="N" primitiveType="uint8" nullValue="1"/>"#;
    error(
        &schema(0, types, ""),
        "nullValue is set, but presence is not optional",
        "name=\"N\"",
    );
}

#[test]
fn cyclic_refs() {
    let types = r#"<composite name="A"><ref name="b" type="B"/></composite>
        <composite name="B"><ref name="a" type="A"/></composite>"#;
    let compiled = compile(&schema(0, types, ""));
    assert!(
        compiled
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error && d.message.contains("cycle")),
        "{:#?}",
        compiled.diagnostics
    );
    assert!(compiled.ir.is_none());
}

#[test]
fn duplicate_field_id_in_a_message() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <field name="a" id="5" type="uint8"/>
        <field name="b" id="5" type="uint8"/></sbe:message>"#,
    );
    error(&text, "id 5 is already used", "name=\"b\"");
}

#[test]
fn semantic_type_differs_from_the_type() {
    let types = r#"<type name="Px" primitiveType="int64" semanticType="Price"/>"#;
    let text = schema(
        0,
        types,
        r#"<sbe:message name="M" id="1">
        <field name="a" id="1" type="Px" semanticType="Qty"/></sbe:message>"#,
    );
    error(
        &text,
        "semanticType \"Qty\" differs",
        "semanticType=\"Qty\"",
    );
}

#[test]
fn value_ref_to_a_missing_enum_value() {
    let types = r#"<enum name="E" encodingType="uint8"><validValue name="A">1</validValue></enum>"#;
    let text = schema(
        0,
        types,
        r#"<sbe:message name="M" id="1">
        <field name="k" id="1" type="E" presence="constant" valueRef="E.B"/></sbe:message>"#,
    );
    error(
        &text,
        "enum \"E\" has no validValue \"B\"",
        "valueRef=\"E.B\"",
    );
}

#[test]
fn unknown_primitive_type() {
    let types = r#"<type name="W" primitiveType="uint128"/>"#;
    error(
        &schema(0, types, ""),
        "unknown primitive type \"uint128\"",
        "uint128",
    );
}

#[test]
fn keyword_and_invalid_names_are_warnings() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <field name="class" id="1" type="uint8"/>
        <field name="two words" id="2" type="uint8"/></sbe:message>
        <sbe:message name="import" id="2"/>"#,
    );
    let compiled = compile(&text);
    let warnings: Vec<_> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .collect();
    assert_eq!(warnings.len(), 3, "{warnings:#?}");
    assert!(
        warnings[2]
            .message
            .contains("\"import\" is a keyword in Java, Go, Python"),
        "{}",
        warnings[2]
    );
    assert!(
        warnings[0].message.contains("keyword in Java"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[1].message.contains("not a valid identifier"),
        "{}",
        warnings[1]
    );
    assert!(compiled.ir.is_some());
}

#[test]
fn malformed_xml_is_located() {
    let compiled = compile("<messageSchema id=\"1\">\n  <types>\n</messageSchema>\n");
    assert_eq!(compiled.diagnostics.len(), 1);
    let d = &compiled.diagnostics[0];
    assert_eq!(d.severity, Severity::Error);
    assert!(d.message.contains("not well-formed XML"), "{d}");
    assert_eq!(d.line, 3, "{d}");
}

#[test]
fn wrong_root_element() {
    let compiled = compile("<schema/>");
    assert!(compiled.diagnostics[0]
        .message
        .contains("not <messageSchema>"));
}

#[test]
fn missing_xinclude_file_is_reported() {
    let text = schema(
        0,
        r#"<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="missing.xml"/>"#,
        "",
    );
    let compiled = compile(&text);
    assert!(
        compiled
            .diagnostics
            .iter()
            .any(|d| d.message.contains("cannot read included file")),
        "{:#?}",
        compiled.diagnostics
    );
}

#[test]
fn every_problem_is_reported_in_one_run() {
    let text = schema(
        0,
        r#"<type name="K" primitiveType="uint8" presence="constant"/>"#,
        r#"<sbe:message name="M" id="1">
        <field name="a" id="1" type="Nope"/>
        <field name="b" id="2" type="uint8" sinceVersion="3"/></sbe:message>
        <sbe:message name="N" id="1"/>"#,
    );
    let compiled = compile(&text);
    let errors = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    assert_eq!(errors, 4, "{:#?}", compiled.diagnostics);
    // Sorted by position.
    let lines: Vec<u32> = compiled.diagnostics.iter().map(|d| d.line).collect();
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    assert_eq!(lines, sorted);
}

#[test]
fn every_namespace_flavour_parses() {
    let body = r#" package="t" id="1">
    <types>HEADER</types>
    <message name="M" id="1"><field name="a" id="1" type="uint8"/></message>
</ROOT>"#
        .replace("HEADER", HEADER);
    for (root, ns) in [
        ("messageSchema", ""),
        (
            "sbe:messageSchema",
            r#" xmlns:sbe="http://fixprotocol.io/2016/sbe""#,
        ),
        (
            "sbe:messageSchema",
            r#" xmlns:sbe="http://fixprotocol.io/sbe/rc4""#,
        ),
        (
            "sbe:messageSchema",
            r#" xmlns:sbe="http://www.fixprotocol.org/ns/simple/1.0_RC3""#,
        ),
        (
            "sbe:messageSchema",
            r#" xmlns:sbe="http://www.fixprotocol.org/ns/simple/RC2""#,
        ),
    ] {
        let text = format!("<{root}{ns}{}", body.replace("ROOT", root));
        let compiled = compile(&text);
        assert!(
            compiled.diagnostics.is_empty(),
            "{ns}: {:#?}",
            compiled.diagnostics
        );
        assert_eq!(compiled.ir.expect("IR").messages.len(), 1, "{ns}");
    }
}

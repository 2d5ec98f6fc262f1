//! Unknown and misplaced elements and attributes of the SBE vocabulary are errors at their
//! line:column, with a suggestion when a known name is close; other namespaces are left alone.

mod common;

use common::{compile, error, expect_one, schema};
use sable_schema::{Diagnostic, Severity};

/// The one error containing `needle`, at the line holding `marker`, with its help.
fn located(text: &str, needle: &str, marker: &str) -> Diagnostic {
    let compiled = expect_one(text, Severity::Error, needle, marker);
    compiled
        .diagnostics
        .into_iter()
        .find(|d| d.message.contains(needle))
        .expect("found above")
}

fn help(d: &Diagnostic) -> &str {
    d.help.as_deref().unwrap_or("")
}

/// 1-based column of `needle` on the line holding it.
fn column_of(text: &str, needle: &str) -> u32 {
    let line = text.lines().find(|l| l.contains(needle)).expect("needle");
    line.find(needle).expect("needle") as u32 + 1
}

#[test]
fn misspelled_field_element_is_an_error_with_a_suggestion() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <feild name="a" id="1" type="uint8"/></sbe:message>"#,
    );
    let d = located(&text, "unknown element <feild>", "<feild");
    assert_eq!(help(&d), "did you mean `field`?");
    assert_eq!(d.column, column_of(&text, "<feild"));
}

#[test]
fn misspelled_message_element_is_an_error_with_a_suggestion() {
    let text = schema(
        0,
        "",
        r#"<mesage name="M" id="1"><field name="a" id="1" type="uint8"/></mesage>"#,
    );
    let d = located(&text, "unknown element <mesage>", "<mesage");
    assert_eq!(help(&d), "did you mean `message`?");
}

#[test]
fn misspelled_type_element_is_an_error_with_a_suggestion() {
    let text = schema(0, r#"<tpye name="T" primitiveType="uint8"/>"#, "");
    let d = located(&text, "unknown element <tpye>", "<tpye");
    assert_eq!(help(&d), "did you mean `type`?");
}

#[test]
fn misspelled_presence_attribute_is_an_error_at_the_attribute() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <field name="a" id="1" type="uint8" presense="optional"/></sbe:message>"#,
    );
    let d = located(
        &text,
        "unknown attribute `presense` on <field>",
        "presense=",
    );
    assert_eq!(help(&d), "did you mean `presence`?");
    assert_eq!(d.column, column_of(&text, "presense="));
    assert_eq!(d.element, "<field name=\"a\">");
}

#[test]
fn misspelled_offset_attribute_is_an_error_with_a_suggestion() {
    let types = r#"<composite name="C">
        <type name="a" primitiveType="uint8" offest="4"/></composite>"#;
    let d = located(
        &schema(0, types, ""),
        "unknown attribute `offest`",
        "offest=",
    );
    assert_eq!(help(&d), "did you mean `offset`?");
}

#[test]
fn types_nested_in_types_is_an_error() {
    let types = r#"<types><type name="Inner" primitiveType="uint8"/></types>"#;
    let d = located(
        &schema(0, types, ""),
        "<types> is not allowed inside <types>",
        "<types><type name=\"Inner\"",
    );
    assert_eq!(help(&d), "<types> holds type, composite, enum, set");
}

#[test]
fn unknown_names_far_from_any_known_one_get_what_is_allowed() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1" colour="red">
        <annotation/></sbe:message>"#,
    );
    let d = located(&text, "unknown attribute `colour`", "colour=");
    assert!(
        help(&d).starts_with("<message> takes name, id, blockLength"),
        "{d}"
    );
    let d = located(&text, "unknown element <annotation>", "<annotation");
    assert_eq!(help(&d), "<message> holds field, group, data");
}

#[test]
fn an_element_that_holds_no_elements_says_so() {
    let text = schema(
        0,
        "",
        r#"<sbe:message name="M" id="1">
        <field name="a" id="1" type="uint8"><field name="b" id="2" type="uint8"/></field></sbe:message>"#,
    );
    let d = located(&text, "<field> is not allowed inside <field>", "name=\"b\"");
    assert_eq!(help(&d), "<field> holds no elements");
}

#[test]
fn unknown_root_attribute_is_an_error() {
    let text = schema(0, "", "").replace("package=\"t\"", "pakage=\"t\"");
    let d = located(
        &text,
        "unknown attribute `pakage` on <messageSchema>",
        "pakage=",
    );
    assert_eq!(help(&d), "did you mean `package`?");
}

#[test]
fn other_namespaces_are_allowed_and_ignored() {
    let text = schema(
        0,
        r#"<type name="T" primitiveType="uint8" xml:lang="en" foo:note="x" xmlns:foo="urn:foo"/>"#,
        r#"<sbe:message name="M" id="1" xmlns:foo="urn:foo" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="m">
        <foo:doc><foo:anything at="all"/><field name="hidden" id="9" type="uint8"/></foo:doc>
        <field name="a" id="1" type="T" foo:presense="optional"/>
        <foo:field name="b" id="2" type="uint8"/></sbe:message>"#,
    );
    let compiled = compile(&text);
    assert!(
        compiled.diagnostics.is_empty(),
        "{:#?}",
        compiled.diagnostics
    );
    let ir = compiled.ir.expect("IR");
    let fields: Vec<&str> = ir.messages[0]
        .iter()
        .filter(|t| t.signal == sable_ir::Signal::BeginField)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(fields, ["a"], "a foreign element is not read as a field");
}

#[test]
fn attributes_of_sbe_2_and_of_the_reference_are_accepted() {
    // Closes the helper's <types> to open a second one with 2.0's attributes.
    let types = r#"</types><types package="p" description="more types">
        <enum name="E" encodingType="uint8" presence="optional" nullValue="9" alignment="1">
            <validValue name="X">1</validValue></enum>
        <type name="V" primitiveType="uint8" variableLength="true"/>"#;
    let messages = r#"<sbe:messages description="all"><sbe:message name="M" id="1" alignment="8">
        <field name="a" id="1" type="E"/></sbe:message></sbe:messages>"#;
    let compiled = compile(&schema(0, types, messages));
    let errors: Vec<_> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn a_group_misplaced_in_a_composite_is_reported_once() {
    let types = r#"<composite name="C"><type name="a" primitiveType="uint8"/>
        <group name="g" id="1"/></composite>"#;
    error(
        &schema(0, types, ""),
        "<group> is not allowed inside <composite>",
        "<group name=\"g\"",
    );
}

//! Schemas built to exhaust the stack, time or memory: chains of refs thousands deep, refs that
//! multiply ("billion laughs"), cycles of enum encodings. Each must either compile or be refused
//! with one diagnostic at the element that crosses the limit, and never crash.

use std::fmt::Write as _;
use std::path::Path;

use sable_schema::{compile_str, Compiled, Diagnostic, Severity};

mod common;

use common::STANDARD_TYPES as HEADER;

fn schema(types: &str, messages: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="t" id="1" version="0">
<types>
{HEADER}
{types}</types>
{messages}</sbe:messageSchema>
"#
    )
}

fn compile(text: &str) -> Compiled {
    compile_str(text, Path::new("hostile.xml"))
}

/// 1-based line and column (in characters) of the first occurrence of `marker`.
fn position_of(text: &str, marker: &str) -> (u32, u32) {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("{marker:?} not in the schema"));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line as u32, column as u32)
}

/// Asserts that the only error is one containing `needle`, at `marker`'s position, and no IR.
fn refused(text: &str, needle: &str, marker: &str) -> Diagnostic {
    let compiled = compile(text);
    let errors: Vec<&Diagnostic> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{:#?}", &errors[..errors.len().min(5)]);
    let d = errors[0];
    assert!(d.message.contains(needle), "{d}");
    assert_eq!((d.line, d.column), position_of(text, marker), "{d}");
    assert!(compiled.ir.is_none());
    d.clone()
}

/// Composites C0 .. C{n-1}, one a line, each holding a ref to the next; the last holds a uint8.
fn chain(n: usize) -> String {
    let mut types = String::new();
    for i in 0..n - 1 {
        let _ = writeln!(
            types,
            r#"<composite name="C{i}"><ref name="next" type="C{}"/></composite>"#,
            i + 1
        );
    }
    let _ = writeln!(
        types,
        r#"<composite name="C{}"><type name="v" primitiveType="uint8"/></composite>"#,
        n - 1
    );
    types
}

const LIMIT: usize = 64;

/// In a chain of `n`, the ref that first nests composites more than 64 deep: the one to the
/// composite that holds 64.
fn first_too_deep(n: usize) -> String {
    format!(r#"<ref name="next" type="C{}"/>"#, n - LIMIT)
}

#[test]
fn a_chain_of_refs_at_the_depth_limit_compiles() {
    let message =
        r#"<sbe:message name="M" id="1"><field name="c" id="1" type="C0"/></sbe:message>"#;
    let compiled = compile(&schema(&chain(LIMIT), message));
    assert!(compiled.ir.is_some(), "{:#?}", compiled.diagnostics);
    let d = refused(
        &schema(&chain(LIMIT + 1), message),
        "composites are nested more than 64 deep here",
        &first_too_deep(LIMIT + 1),
    );
    assert_eq!(
        d.element, "<ref name=\"next\">",
        "reported at the ref that crosses the limit"
    );
}

#[test]
fn a_chain_of_4000_refs_no_message_uses_is_refused_once() {
    refused(
        &schema(&chain(4000), ""),
        "composites are nested more than 64 deep here",
        &first_too_deep(4000),
    );
}

#[test]
fn a_chain_of_100000_refs_is_refused_once() {
    let message =
        r#"<sbe:message name="M" id="1"><field name="c" id="1" type="C0"/></sbe:message>"#;
    refused(
        &schema(&chain(100_000), message),
        "composites are nested more than 64 deep here",
        &first_too_deep(100_000),
    );
}

#[test]
fn a_chain_of_100000_refs_closed_into_a_cycle_is_one_cycle() {
    let types = chain(100_000).replace(
        r#"<composite name="C99999"><type name="v" primitiveType="uint8"/></composite>"#,
        r#"<composite name="C99999"><ref name="next" type="C0"/></composite>"#,
    );
    let d = refused(
        &schema(&types, ""),
        "types refer to each other in a cycle: C0 -> C1 -> C2 -> C3 -> (99993 more) -> C99997 -> C99998 -> C99999 -> C0",
        r#"<composite name="C0">"#,
    );
    assert!(d.message.len() < 200, "{d}");
}

/// L0 holds 10 refs to L1, L1 10 refs to L2, ... L19 holds 10 constants, which take no bytes:
/// 10^20 members if expanded.
fn laughs() -> String {
    let mut types = String::new();
    for level in 0..19 {
        let _ = writeln!(types, r#"<composite name="L{level}">"#);
        for i in 0..10 {
            let _ = writeln!(types, r#"    <ref name="m{i}" type="L{}"/>"#, level + 1);
        }
        types.push_str("</composite>\n");
    }
    types.push_str("<composite name=\"L19\">\n");
    for i in 0..10 {
        let _ = writeln!(
            types,
            r#"    <type name="k{i}" primitiveType="uint8" presence="constant">7</type>"#
        );
    }
    types.push_str("</composite>\n");
    types
}

#[test]
fn refs_that_multiply_are_refused_where_a_composite_crosses_the_limit() {
    // L19 lowers to 12 tokens, L18 to 122, L17 to 1222, L16 to 12222; L15's sixth ref takes it
    // to 73334, past 65536.
    let text = schema(
        &laughs(),
        r#"<sbe:message name="M" id="1"><field name="c" id="1" type="L0"/></sbe:message>"#,
    );
    let l15 = text.find(r#"<composite name="L15">"#).unwrap();
    let sixth = &text[l15..].find(r#"<ref name="m5""#).unwrap();
    let marker = &text[l15 + sixth..];
    let d = refused(
        &text,
        "composite \"L15\" expands to more than 65536 IR tokens here",
        &marker[..marker.find('\n').unwrap()],
    );
    assert_eq!(d.element, "<ref name=\"m5\">");
}

#[test]
fn many_fields_of_a_large_composite_are_refused_where_the_schema_crosses_the_limit() {
    // P lowers to 62 tokens, N to 622, M to 6222, L to 62222: each field of L is 62224 tokens,
    // and the 68th takes the schema past 4194304.
    let mut types = String::new();
    for (name, next) in [("L", "M"), ("M", "N"), ("N", "P")] {
        let _ = write!(types, r#"<composite name="{name}">"#);
        for i in 0..10 {
            let _ = write!(types, r#"<ref name="r{i}" type="{next}"/>"#);
        }
        types.push_str("</composite>\n");
    }
    types.push_str("<composite name=\"P\">");
    for i in 0..60 {
        // Constants: no bytes, so that only the token limit is crossed, not the block's length.
        let _ = write!(
            types,
            r#"<type name="t{i}" primitiveType="uint8" presence="constant">1</type>"#
        );
    }
    types.push_str("</composite>\n");
    let mut message = String::from("<sbe:message name=\"Big\" id=\"1\">\n");
    for i in 1..=1000 {
        let _ = writeln!(message, r#"<field name="f{i}" id="{i}" type="L"/>"#);
    }
    message.push_str("</sbe:message>\n");
    refused(
        &schema(&types, &message),
        "the schema expands to more than 4194304 IR tokens here",
        r#"<field name="f68" "#,
    );
}

#[test]
fn a_chain_of_100000_enum_encodings_is_refused_once() {
    let mut types = String::new();
    for i in 0..99_999 {
        let _ = writeln!(
            types,
            r#"<enum name="E{i}" encodingType="E{}"><validValue name="A">1</validValue></enum>"#,
            i + 1
        );
    }
    types.push_str(
        r#"<enum name="E99999" encodingType="uint8"><validValue name="A">1</validValue></enum>"#,
    );
    refused(
        &schema(&types, ""),
        "encodingType \"E99999\" must be a primitive type or a single-value <type>",
        r#"encodingType="E99999""#,
    );
}

#[test]
fn sets_and_enums_whose_encodings_name_each_other_are_a_cycle() {
    let types = r#"<enum name="E" encodingType="S"><validValue name="A">1</validValue></enum>
<set name="S" encodingType="E"><choice name="a">0</choice></set>
"#;
    refused(
        &schema(types, ""),
        "types refer to each other in a cycle: E -> S -> E",
        r#"<enum name="E""#,
    );
}

#[test]
fn a_set_whose_encoding_is_a_deep_chain_reports_the_chain_once() {
    let types = format!(
        "{}<set name=\"S\" encodingType=\"C0\"><choice name=\"a\">0</choice></set>\n",
        chain(100_000)
    );
    refused(
        &schema(&types, ""),
        "composites are nested more than 64 deep here",
        &first_too_deep(100_000),
    );
}

#[test]
fn header_dimension_and_var_data_composites_go_through_the_same_limits() {
    let header = HEADER.replace(
        r#"<type name="version" primitiveType="uint16"/>"#,
        r#"<type name="version" primitiveType="uint16"/><ref name="deep" type="C0"/>"#,
    );
    let text = schema(&chain(100_000), "").replace(HEADER, &header);
    refused(
        &text,
        "composites are nested more than 64 deep here",
        &first_too_deep(100_000),
    );
    for (attr, element) in [("dimensionType", "group"), ("type", "data")] {
        let message = format!(
            r#"<sbe:message name="M" id="1"><{element} name="x" id="1" {attr}="C0"></{element}></sbe:message>"#
        );
        refused(
            &schema(&chain(100_000), &message),
            "composites are nested more than 64 deep here",
            &first_too_deep(100_000),
        );
    }
}

//! Shared by the schema tests and the load bench: the composites nearly every schema declares,
//! a schema around them, and assertions on diagnostics.
#![allow(dead_code)]

use std::path::Path;

use sable_schema::{compile_str, Compiled, Severity};

/// A message header, `groupSizeEncoding` and `varDataEncoding`, as SBE's examples declare them.
pub const STANDARD_TYPES: &str = r#"
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
        <composite name="groupSizeEncoding">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="numInGroup" primitiveType="uint16"/>
        </composite>
        <composite name="varDataEncoding">
            <type name="length" primitiveType="uint16"/>
            <type name="varData" primitiveType="uint8" length="0"/>
        </composite>"#;

/// A schema with the standard header, group and var-data composites plus `types` and `messages`.
pub fn schema(version: u32, types: &str, messages: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="t" id="1" version="{version}">
    <types>{STANDARD_TYPES}
{types}
    </types>
{messages}
</sbe:messageSchema>
"#
    )
}

pub fn compile(text: &str) -> Compiled {
    compile_str(text, Path::new("test.xml"))
}

/// Asserts exactly one diagnostic of `severity` containing `needle`, on the line holding `marker`.
pub fn expect_one(text: &str, severity: Severity, needle: &str, marker: &str) -> Compiled {
    let compiled = compile(text);
    let matching: Vec<_> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == severity && d.message.contains(needle))
        .collect();
    assert_eq!(
        matching.len(),
        1,
        "expected one {severity:?} containing {needle:?}, got: {:#?}",
        compiled.diagnostics
    );
    let line = text
        .lines()
        .position(|l| l.contains(marker))
        .unwrap_or_else(|| panic!("marker {marker:?} not in schema"))
        + 1;
    assert_eq!(matching[0].line as usize, line, "{}", matching[0]);
    assert!(matching[0].column > 0, "{}", matching[0]);
    assert_eq!(matching[0].file, Path::new("test.xml"));
    if severity == Severity::Error {
        assert!(compiled.ir.is_none(), "no IR for a schema with errors");
    }
    compiled
}

pub fn error(text: &str, needle: &str, marker: &str) {
    expect_one(text, Severity::Error, needle, marker);
}

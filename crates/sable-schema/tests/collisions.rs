//! Schema names that become one identifier in a target language's generated code: each clash is
//! an error at the second name's `name` attribute, naming the languages and the identifier,
//! with a note on where the first name is.

use std::path::Path;

use sable_schema::{compile_str, Severity};

/// A schema with a message header, a group dimension and a var-data composite, then `types`
/// and `messages`; `types` starts on line 14, and `messages` on line 16 when `types` is one line.
fn schema(types: &str, messages: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="t" id="1" version="0">
<types>
<composite name="messageHeader">
<type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
<type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
</composite>
<composite name="groupSizeEncoding">
<type name="blockLength" primitiveType="uint16"/><type name="numInGroup" primitiveType="uint16"/>
</composite>
<composite name="varDataEncoding">
<type name="length" primitiveType="uint16"/><type name="varData" primitiveType="uint8" length="0"/>
</composite>
{types}
</types>
{messages}
</sbe:messageSchema>
"#
    )
}

/// The errors about clashing names, as `line:column: message | help`.
fn clashes(text: &str) -> Vec<String> {
    let compiled = compile_str(text, Path::new("test.xml"));
    let found: Vec<String> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.message.contains(" both "))
        .map(|d| {
            assert_eq!(d.severity, Severity::Error, "{d}");
            format!(
                "{}:{}: {} | {}",
                d.line,
                d.column,
                d.message,
                d.help.as_deref().unwrap_or("")
            )
        })
        .collect();
    if !found.is_empty() {
        assert!(compiled.ir.is_none(), "no IR for a schema with errors");
    }
    found
}

fn message(fields: &str) -> String {
    schema(
        "",
        &format!(r#"<sbe:message name="M" id="1">{fields}</sbe:message>"#),
    )
}

#[test]
fn fields_that_become_one_name_in_rust_and_python() {
    let text = message(
        r#"
<field name="bidPx" id="1" type="int64"/>
  <field name="bid_px" id="2" type="int64"/>"#,
    );
    assert_eq!(
        clashes(&text),
        [
            r#"18:10: fields "bidPx" and "bid_px" both become bid_px in Rust and Python, BidPx in C# and Go, bidPx in TypeScript, bid_px/1 in Erlang | "bidPx" is at test.xml:17:8; rename one of them"#
        ]
    );
}

#[test]
fn a_derived_java_accessor_meets_a_field() {
    // Java's static `bidId()` for field `bid` against field `bidId`'s getter.
    let text = message(
        r#"
<field name="bid" id="1" type="int64"/>
<field name="bidId" id="2" type="int64"/>"#,
    );
    assert_eq!(
        clashes(&text),
        [
            r#"18:8: fields "bid" and "bidId" both generate bidId in Java and TypeScript, BidId in C#, BidID in Go | "bid" is at test.xml:17:8; rename one of them"#
        ]
    );
}

#[test]
fn java_var_data_length_meets_a_field() {
    let text = message(
        r#"
<field name="fooLength" id="1" type="uint16"/>
<data name="foo" id="2" type="varDataEncoding"/>"#,
    );
    assert_eq!(
        clashes(&text),
        [
            r#"18:7: field "fooLength" and var data "foo" both generate fooLength in Java, FooLength in C# and Go, foo_length/1 in Erlang | "fooLength" is at test.xml:17:8; rename one of them"#
        ]
    );
}

#[test]
fn a_cpp_presence_accessor_meets_a_field() {
    let text = message(
        r#"
<field name="a" id="1" type="uint8"/>
<field name="a_present" id="2" type="uint8"/>"#,
    );
    assert_eq!(
        clashes(&text),
        [
            r#"18:8: fields "a" and "a_present" both generate a_present in C++ | "a" is at test.xml:17:8; rename one of them"#
        ]
    );
}

#[test]
fn a_rust_str_accessor_meets_a_field() {
    let text = schema(
        r#"<type name="Sym" primitiveType="char" length="4"/>"#,
        r#"<sbe:message name="M" id="1">
<field name="sym" id="1" type="Sym"/>
<field name="symStr" id="2" type="uint8"/>
</sbe:message>"#,
    );
    assert_eq!(
        clashes(&text),
        [
            r#"18:8: fields "sym" and "symStr" both generate sym_str in Rust | "sym" is at test.xml:17:8; rename one of them"#
        ]
    );
}

#[test]
fn names_that_are_not_identifiers_collide_once_cleaned() {
    let text = message(
        r#"
<field name="a-b" id="1" type="uint8"/>
<field name="a_b" id="2" type="uint8"/>"#,
    );
    assert_eq!(
        clashes(&text),
        [
            r#"18:8: fields "a-b" and "a_b" both become a_b in Java, C++, Rust, Python and C, AB in C# and Go, aB in TypeScript, a_b/1 in Erlang | "a-b" is at test.xml:17:8; rename one of them"#
        ]
    );
}

#[test]
fn group_members_are_a_scope_of_their_own() {
    let text = message(
        r#"
<field name="px" id="1" type="uint8"/>
<group name="legs" id="2" dimensionType="groupSizeEncoding">
<field name="px" id="3" type="uint8"/>
<field name="PX" id="4" type="uint8"/>
</group>"#,
    );
    assert_eq!(
        clashes(&text),
        [
            r#"20:8: fields "px" and "PX" both become px in Rust, Python and TypeScript, Px in C#, px/1 in Erlang | "px" is at test.xml:19:8; rename one of them"#
        ]
    );
}

#[test]
fn enum_values_that_differ_only_in_case() {
    let text = schema(
        r#"<enum name="Side" encodingType="uint8"><validValue name="buy">1</validValue><validValue name="Buy">2</validValue></enum>"#,
        "",
    );
    assert_eq!(
        clashes(&text),
        [
            r#"14:89: values "buy" and "Buy" both become Buy in C#, Go and TypeScript, BUY in Python, buy in Erlang | "buy" is at test.xml:14:52; rename one of them"#
        ]
    );
}

#[test]
fn set_choices_that_differ_only_in_case() {
    let text = schema(
        r#"<set name="Flags" encodingType="uint8"><choice name="a_b">0</choice><choice name="aB">1</choice></set>"#,
        "",
    );
    assert_eq!(
        clashes(&text),
        [
            r#"14:77: choices "a_b" and "aB" both become AB in C# and Go, A_B in Python, aB in TypeScript, a_b in Erlang | "a_b" is at test.xml:14:48; rename one of them"#
        ]
    );
}

#[test]
fn composite_members_that_meet_in_java_and_rust() {
    let text = schema(
        r#"<composite name="Price"><type name="mantissa" primitiveType="int64"/><type name="Mantissa" primitiveType="int8"/></composite>"#,
        "",
    );
    assert_eq!(
        clashes(&text),
        [
            r#"14:76: members "mantissa" and "Mantissa" both become mantissa in Java, Rust, Python and TypeScript, Mantissa in C# and Go, mantissa/1 in Erlang | "mantissa" is at test.xml:14:31; rename one of them"#
        ]
    );
}

#[test]
fn a_type_and_a_message_that_become_one_class() {
    let text = schema(
        r#"<composite name="Price"><type name="mantissa" primitiveType="int64"/></composite>"#,
        r#"<sbe:message name="price" id="1"/>"#,
    );
    assert_eq!(
        clashes(&text),
        [
            r#"16:14: composite "Price" and message "price" both become PriceDecoder in Java, Rust, C# and Go, Price in Python and TypeScript, price in Erlang | "Price" is at test.xml:14:12; rename one of them"#
        ]
    );
}

#[test]
fn distinct_names_and_repeated_ones_are_not_clashes() {
    // A name given twice is the parser's "already used" error, not a clash.
    let text = message(
        r#"
<field name="bid" id="1" type="int64"/>
<field name="ask" id="2" type="int64"/>
<field name="bid" id="3" type="int64"/>"#,
    );
    assert_eq!(clashes(&text), Vec::<String>::new());
}

#[test]
fn no_shared_valid_schema_has_a_clash() {
    let dir = sable_testkit::shared_dir().join("schemas/valid");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "xml") {
            let text = std::fs::read_to_string(&path).unwrap();
            let compiled = compile_str(&text, &path);
            let found: Vec<_> = compiled
                .diagnostics
                .iter()
                .filter(|d| d.message.contains(" both "))
                .collect();
            assert!(found.is_empty(), "{}: {found:#?}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 40, "only {checked} schemas in {}", dir.display());
}

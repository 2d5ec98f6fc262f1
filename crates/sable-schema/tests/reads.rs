//! What compiling a schema may read: XInclude targets must be regular files, and each file and
//! all of them together stay within `Options::max_file_bytes`. And the category of naming
//! warnings, which only code generation cares about.

use std::path::{Path, PathBuf};

use sable_schema::{compile_file_with, compile_str, Category, Compiled, Options, Severity};

const SCHEMA_START: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   xmlns:xi="http://www.w3.org/2001/XInclude" package="t" id="1" version="0">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
    </types>
"#;

/// A scratch directory of its own for each test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("sable-schema-limits")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// A schema whose types come from `includes` (hrefs), written to `dir/schema.xml`.
fn schema_including(dir: &Path, includes: &[&str]) -> PathBuf {
    let mut text = SCHEMA_START.to_owned();
    for href in includes {
        text.push_str(&format!("    <xi:include href=\"{href}\"/>\n"));
    }
    text.push_str("    <sbe:message name=\"M\" id=\"1\"/>\n</sbe:messageSchema>\n");
    let path = dir.join("schema.xml");
    std::fs::write(&path, text).expect("write schema");
    path
}

fn types_file(dir: &Path, name: &str, padding: usize) -> String {
    let text = format!(
        "<types><!-- {} --><type name=\"T{name}\" primitiveType=\"int8\"/></types>\n",
        "x".repeat(padding)
    );
    std::fs::write(dir.join(name), text).expect("write include");
    name.to_owned()
}

/// The one error, at the include (line `line` of schema.xml).
fn only_error(compiled: &Compiled, line: u32) -> String {
    let errors: Vec<_> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{:#?}", compiled.diagnostics);
    assert_eq!(errors[0].line, line, "{}", errors[0]);
    assert!(compiled.ir.is_none());
    errors[0].to_string()
}

const FIRST_INCLUDE_LINE: u32 = 12;

#[cfg(unix)]
#[test]
fn devices_fifos_and_directories_are_refused_as_includes() {
    let dir = scratch("special");
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("run mkfifo");
    assert!(made.success());
    for (href, what) in [
        ("/dev/zero", "a character device"),
        ("fifo", "a FIFO"),
        (".", "a directory"),
    ] {
        let schema = schema_including(&dir, &[href]);
        let message = only_error(
            &compile_file_with(&schema, &Options::default()),
            FIRST_INCLUDE_LINE,
        );
        assert!(
            message.contains(&format!("not a regular file but {what}")),
            "{message}"
        );
    }
}

#[test]
fn an_include_larger_than_the_limit_is_refused() {
    let dir = scratch("large");
    let big = types_file(&dir, "big.xml", 2000);
    let schema = schema_including(&dir, &[&big]);
    let options = Options {
        max_file_bytes: 1024,
    };
    let message = only_error(&compile_file_with(&schema, &options), FIRST_INCLUDE_LINE);
    assert!(
        message.contains("big.xml: larger than the 1 KiB limit"),
        "{message}"
    );
    let roomy = Options {
        max_file_bytes: 1 << 20,
    };
    let compiled = compile_file_with(&schema, &roomy);
    assert!(compiled.ir.is_some(), "{:#?}", compiled.diagnostics);
}

#[test]
fn includes_that_add_up_past_the_limit_are_refused() {
    // Each file is under the limit; the schema and three of them are not.
    let dir = scratch("total");
    let names: Vec<String> = (1..=3)
        .map(|i| types_file(&dir, &format!("t{i}.xml"), 1500))
        .collect();
    let hrefs: Vec<&str> = names.iter().map(String::as_str).collect();
    let schema = schema_including(&dir, &hrefs);
    let options = Options {
        max_file_bytes: 4096,
    };
    let message = only_error(
        &compile_file_with(&schema, &options),
        FIRST_INCLUDE_LINE + 2,
    );
    assert!(
        message.contains("the schema and its includes come to more than the 4 KiB limit"),
        "{message}"
    );
}

#[test]
fn a_root_schema_larger_than_the_limit_is_refused() {
    let dir = scratch("root");
    let schema = schema_including(&dir, &[]);
    let compiled = compile_file_with(
        &schema,
        &Options {
            max_file_bytes: 100,
        },
    );
    assert_eq!(compiled.diagnostics.len(), 1, "{:#?}", compiled.diagnostics);
    assert!(
        compiled.diagnostics[0]
            .message
            .contains("larger than the 100 bytes limit"),
        "{}",
        compiled.diagnostics[0]
    );
}

#[test]
fn naming_warnings_are_about_generated_names_and_others_are_not() {
    let text = format!(
        "{SCHEMA_START}    <sbe:message name=\"M\" id=\"1\">\n        \
         <field name=\"new\" id=\"1\" type=\"int8\"/>\n        \
         <field name=\"a\" id=\"2\" type=\"nosuchtype\"/>\n    \
         </sbe:message>\n</sbe:messageSchema>\n"
    );
    let compiled = compile_str(&text, Path::new("names.xml"));
    let categories: Vec<_> = compiled
        .diagnostics
        .iter()
        .map(|d| (d.severity, d.category))
        .collect();
    assert_eq!(
        categories,
        [
            (Severity::Warning, Category::GeneratedNames),
            (Severity::Error, Category::Schema)
        ],
        "{:#?}",
        compiled.diagnostics
    );
}

/// Elements and attributes of other namespaces are left out wherever they come from: an included
/// file's own, and an included file whose root is one. (Read, each would be an error.)
#[test]
fn other_namespaces_in_included_files_are_left_out() {
    let dir = scratch("namespaces");
    let bad = r#"<type name="Bad" primitiveType="nonsense"/>"#;
    std::fs::write(
        dir.join("types.xml"),
        format!(
            r#"<types xmlns:foo="urn:foo"><foo:note>{bad}</foo:note>
            <type name="Shown" primitiveType="int8" foo:colour="red"/></types>"#
        ),
    )
    .expect("write include");
    std::fs::write(
        dir.join("foreign.xml"),
        format!(r#"<doc xmlns="urn:docs">{bad}</doc>"#),
    )
    .expect("write include");
    let compiled = compile_file_with(
        &schema_including(&dir, &["types.xml", "foreign.xml"]),
        &Options::default(),
    );
    assert!(
        compiled.diagnostics.is_empty(),
        "{:#?}",
        compiled.diagnostics
    );

    // The same element in SBE's namespace is read, and refused.
    std::fs::write(dir.join("sbe.xml"), format!("<types>{bad}</types>")).expect("write include");
    let compiled = compile_file_with(&schema_including(&dir, &["sbe.xml"]), &Options::default());
    assert!(only_error(&compiled, 1).contains("unknown primitive type \"nonsense\""));
}

//! The C++ generator turns every schema description into a Doxygen comment: on the schema,
//! types, enum values, set choices, composite members, messages, fields, groups and var data.

use sable_codegen::cpp;
use sable_testkit::repo_root;

/// Every `description="..."` of the schema's text (whitespace collapsed).
fn descriptions(xml: &str) -> Vec<String> {
    xml.split("description=\"")
        .skip(1)
        .map(|rest| {
            let text = &rest[..rest.find('"').expect("a closing quote")];
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

#[test]
fn every_description_is_a_doxygen_comment() {
    let path = repo_root().join("../shared/schemas/valid/rust-description-test-schema.xml");
    let xml = std::fs::read_to_string(&path).expect("the schema");
    let ir = sable_schema::compile_file(&path).ir.expect("it compiles");
    let files = cpp::generate(&ir, &cpp::Options::default());
    let header = &files[1].text;
    let wanted = descriptions(&xml);
    assert!(
        wanted.len() >= 20,
        "the schema describes every kind of part"
    );
    let missing: Vec<&String> = wanted
        .iter()
        .filter(|d| !header.contains(&format!("/** {d} */")))
        .collect();
    assert!(missing.is_empty(), "no comment for {missing:?}");
}

#[test]
fn a_description_cannot_end_its_comment() {
    let path = repo_root().join("examples/car.xml");
    let xml = std::fs::read_to_string(&path)
        .expect("the schema")
        .replace("Description of a basic Car", "ends */ here");
    let ir = sable_schema::compile_str(&xml, &path)
        .ir
        .expect("it compiles");
    let header = &cpp::generate(&ir, &cpp::Options::default())[1].text;
    assert!(header.contains("/** ends * / here */"));
}

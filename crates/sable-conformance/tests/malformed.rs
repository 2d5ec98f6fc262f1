//! The malformed vectors (`conformance/malformed/*.jsonl`, format in `conformance/README.md`):
//!
//! - `sable_reports_every_malformed_vector`: `sable_otf`'s decoder, its JSON printer and its
//!   message sizing report each vector's error (offset, field path, kind);
//! - `malformed_vectors_are_up_to_date`: the files are what the generator
//!   (`examples/malformed.rs`) writes from the valid vectors today;
//! - `the_walk_reads_every_valid_vector_as_sable_does`: the generator's own walk of a message
//!   (which gives the expected errors) ends where Sable's decoder does, on every valid vector.

use serde_json::Value;
use std::collections::HashMap;

use sable_conformance::malformed::generate;
use sable_conformance::walk::walk;
use sable_otf::decode::Decoder;
use sable_otf::json::JsonPrinter;
use sable_testkit::repo_root;

fn jsonl(dir: &str) -> Vec<(String, Value)> {
    let mut all = Vec::new();
    for file in sable_conformance::jsonl_files(&repo_root().join(dir)) {
        let text = std::fs::read_to_string(&file).expect("a vector file");
        let label = file.file_name().unwrap().to_string_lossy().into_owned();
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let at = format!("{label}:{}", n + 1);
            let v = serde_json::from_str(line).unwrap_or_else(|e| panic!("{at}: {e}"));
            all.push((at, v));
        }
    }
    all
}

fn hex(v: &Value) -> Vec<u8> {
    let h = v["hex"].as_str().expect("hex");
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).expect("hex"))
        .collect()
}

struct Schemas(HashMap<String, sable_ir::Ir>);

impl Schemas {
    fn ir(&mut self, schema: &str) -> &sable_ir::Ir {
        self.0.entry(schema.to_owned()).or_insert_with(|| {
            sable_schema::compile_file(&repo_root().join(schema))
                .ir
                .unwrap_or_else(|| panic!("{schema} does not compile"))
        })
    }
}

#[test]
fn sable_reports_every_malformed_vector() {
    let mut schemas = Schemas(HashMap::new());
    let vectors = jsonl("conformance/malformed");
    assert!(vectors.len() > 300, "{} malformed vectors", vectors.len());
    let mut failures = Vec::new();
    for (at, v) in &vectors {
        let ir = schemas.ir(v["schema"].as_str().expect("schema"));
        let decoder = Decoder::new(ir).expect("a decoder");
        let printer = JsonPrinter::new(ir).expect("a printer");
        let bytes = hex(v);
        let want = &v["error"];
        let got = decoder.decode(&bytes, &mut ());
        let Err(e) = &got else {
            failures.push(format!("{at} {}: decoded: {got:?}", v["name"]));
            continue;
        };
        let seen =
            serde_json::json!({"offset": e.offset(), "field": e.field(), "kind": e.kind().name()});
        if &seen != want {
            failures.push(format!("{at} {}: expected {want}, got {seen}", v["name"]));
        }
        let mut out = Vec::new();
        assert_eq!(printer.print(&bytes, &mut out).as_ref(), Err(e), "{at}");
        assert_eq!(decoder.message_length(&bytes).as_ref(), Err(e), "{at}");
        let json: Value = serde_json::from_slice(&out).unwrap_or_else(|x| panic!("{at}: {x}"));
        assert_eq!(json["error"]["offset"], want["offset"], "{at}: {json}");
        assert_eq!(json["error"]["field"], want["field"], "{at}: {json}");
        assert_eq!(json["error"]["kind"], want["kind"], "{at}: {json}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn malformed_vectors_are_up_to_date() {
    let files = generate(&repo_root()).expect("the generator runs");
    for (path, text) in files {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "{} is not what the generator writes: run `cargo run --release -p sable-conformance --example malformed`",
            path.display()
        );
    }
}

#[test]
fn the_walk_reads_every_valid_vector_as_sable_does() {
    let mut schemas = Schemas(HashMap::new());
    let mut checked = 0;
    for (at, v) in jsonl("conformance/vectors") {
        let Some(schema) = v
            .get("decodeSchema")
            .or(v.get("schema"))
            .and_then(Value::as_str)
        else {
            continue;
        };
        let bytes = hex(&v);
        if bytes.is_empty() {
            continue;
        }
        let ir = schemas.ir(schema);
        let items = walk(ir, &bytes).unwrap_or_else(|f| panic!("{at}: the walk fails: {f:?}"));
        let end = items.iter().map(|i| i.start + i.len).max().unwrap_or(0);
        let sable = Decoder::new(ir).unwrap().message_length(&bytes);
        assert_eq!(sable, Ok(end), "{at} {}", v["name"]);
        checked += 1;
    }
    assert!(checked >= 70, "{checked} valid vectors walked");
}

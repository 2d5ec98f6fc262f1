//! The crate's modules import one way, in the layers its documentation (`lib.rs`, docs/jit.md)
//! gives: each module names only modules of its own layer or below, and none in a cycle.

use std::path::Path;

use sable_testkit::imports::ModuleGraph;

/// The layers, bottom first (as `lib.rs` lists them). A module of the crate in none of them
/// fails the test: place it.
const LAYERS: &[&[&str]] = &[
    // Writers: bytes, numbers and JSON strings; messages shown in errors.
    &["write", "shown", "readable"],
    // The decoder's errors and values; its plan (JSON keys built by the writers); the walk of a
    // plan, reported to a visitor; the decoder, which declares and re-exports them.
    &["decode::error", "decode::value"],
    &["decode::plan"],
    &["decode::walk"],
    &["decode", "layout"],
    // Decoded values written as JSON.
    &["json_value"],
    // The JSON printer's program: data built from the plan, run one operation at a time.
    &[
        "program",
        "program::ops",
        "program::out",
        "program::build",
        "program::value",
    ],
    // The JIT: the program compiled to machine code (its `unsafe` in `jit::runtime` alone).
    &[
        "jit",
        "jit::bounds",
        "jit::compile",
        "jit::enums",
        "jit::gen",
        "jit::message",
        "jit::numbers",
        "jit::runtime",
        "jit::text",
    ],
    // The printers: JSON (the interpreter and the visitor) and text.
    &["json", "json::run", "text"],
    // The encoder (JSON to SBE), beside the printers.
    &[
        "encode",
        "encode::error",
        "encode::plan",
        "encode::tokens",
        "encode::write",
    ],
    // The crate's root, which declares and re-exports.
    &["crate"],
];

fn graph() -> ModuleGraph {
    ModuleGraph::of_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src")).expect("read src")
}

fn layer(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|l| l.contains(&module))
        .unwrap_or_else(|| panic!("module {module} is in no layer of tests/layering.rs"))
}

#[test]
fn imports_form_no_cycle() {
    let g = graph();
    if let Some(cycle) = g.cycle() {
        panic!("{}\nall imports:\n{g}", g.describe(&cycle));
    }
}

#[test]
fn imports_go_down_the_layers() {
    let g = graph();
    let mut wrong = Vec::new();
    for m in g.modules() {
        for (to, line) in g.imports(m) {
            if layer(to) > layer(m) {
                wrong.push(format!("{m} (line {line}) imports {to}, a layer above"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every layer listed is there: a module renamed or removed updates the list.
    for m in LAYERS.iter().flat_map(|l| l.iter()) {
        assert!(g.modules().any(|x| x == *m), "no module {m}: update LAYERS");
    }
}

/// The decoder is usable without the printers: what the program, the JIT and the printers
/// build on never names them.
#[test]
fn decoder_names_no_printer() {
    let g = graph();
    let mut decode: Vec<&str> = g
        .modules()
        .filter(|m| *m == "decode" || m.starts_with("decode::"))
        .flat_map(|m| g.imports(m).map(|(t, _)| t))
        .filter(|t| *t != "decode" && !t.starts_with("decode::"))
        .collect();
    decode.sort_unstable();
    decode.dedup();
    assert_eq!(decode, ["readable", "write"]);
    assert!(g.imports("program").all(|(t, _)| !t.starts_with("jit")));
}

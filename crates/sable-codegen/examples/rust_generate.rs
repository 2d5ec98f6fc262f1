//! Generates the Rust module of each schema given: `rust_generate OUT_DIR SCHEMA...` writes
//! `OUT_DIR/<name>.rs` per schema, formatted by rustfmt, where `<name>` is the schema file's stem
//! in snake case (so that every schema of a corpus gets a module of its own, whatever its
//! package). Used by scripts/rust-codecs.sh; `sable generate --lang rust` is the user's way.

use std::path::PathBuf;

fn main() {
    let mut args = std::env::args_os().skip(1);
    let out = PathBuf::from(args.next().expect("usage: rust_generate OUT_DIR SCHEMA..."));
    std::fs::create_dir_all(&out).expect("creating the output directory");
    for schema in args {
        let schema = PathBuf::from(schema);
        let compiled = sable_schema::compile_file(&schema);
        let ir = compiled
            .ir
            .unwrap_or_else(|| panic!("{} does not compile", schema.display()));
        let (text, unformatted) = sable_codegen::rust::generate_formatted(&ir);
        if let Some(why) = unformatted {
            panic!("{}: {why}", schema.display());
        }
        let stem = schema
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let path = out.join(format!("{}.rs", sable_codegen::rust::snake(&stem)));
        std::fs::write(&path, text).expect("writing the module");
    }
}

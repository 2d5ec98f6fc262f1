//! Writes the C++ conformance tests (GoogleTest): for every conformance vector
//! (conformance/vectors/*.jsonl), a test that decodes the vector's bytes with the generated
//! decoder and compares its canonical JSON (`operator<<`) with the vector's JSON text, checks the
//! decoder's `encoded_length()`, encodes the decoded values again through the typed encoder API
//! (every field, group entry and var data set through its setter) and compares the bytes with
//! the vector's; then decodes every truncation of the bytes (each in a buffer of exactly that
//! size, so that AddressSanitizer sees any read past it) expecting an error, and every one-byte
//! change of them, printing each.
//!
//! ```text
//! cargo run -p sable-codegen --example cpp_conformance -- OUT_DIR
//! ```
//!
//! Writes `OUT_DIR/conformance_test.cpp` and `OUT_DIR/schemas.tsv` (one line per schema the
//! tests use: the C++ namespace its codecs must be generated into, a tab, the schema's absolute
//! path). cpp/CMakeLists.txt generates those headers with `sable_generate`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use sable_codegen::cpp::{ident, namespace};
use sable_codegen::model::{self, Body, Schema, TypeRef};
use sable_codegen::naming;
use sable_codegen::writer::CodeWriter;
use serde_json::value::RawValue;

struct Loaded {
    schema: Schema,
    ns: String,
}

fn main() {
    let out: PathBuf = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            eprintln!("usage: cpp_conformance OUT_DIR");
            std::process::exit(2)
        });
    let root = sable_testkit::repo_root();
    let mut vector_files: Vec<PathBuf> = std::fs::read_dir(root.join("conformance/vectors"))
        .expect("conformance/vectors")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    vector_files.sort();
    std::fs::create_dir_all(&out).expect("creating the output directory");
    let mut schemas: BTreeMap<String, Loaded> = BTreeMap::new();
    let mut tests = CodeWriter::new("  ");
    let mut total = 0;
    let mut all_hex: Vec<String> = Vec::new();
    for file in &vector_files {
        let text = std::fs::read_to_string(file).expect("reading vectors");
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("vectors");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: HashMap<String, Box<RawValue>> =
                serde_json::from_str(line).expect("a vector line");
            let get = |k: &str| -> Option<String> {
                v.get(k)
                    .map(|r| serde_json::from_str::<String>(r.get()).expect("a string"))
            };
            let name = get("name").expect("name");
            let hex = get("hex").expect("hex");
            if hex.is_empty() {
                continue;
            }
            let schema_rel = get("schema").expect("schema");
            let message: String = {
                let json: HashMap<String, Box<RawValue>> =
                    serde_json::from_str(v["json"].get()).expect("json object");
                serde_json::from_str(json["message"].get()).expect("message name")
            };
            let (reader_rel, json_text) = match get("decodeSchema") {
                Some(d) => (d, v["decodeJson"].get().to_owned()),
                None => (schema_rel.clone(), v["json"].get().to_owned()),
            };
            let reader_message: String = {
                let json: HashMap<String, Box<RawValue>> =
                    serde_json::from_str(&json_text).expect("json object");
                serde_json::from_str(json["message"].get()).expect("message name")
            };
            let reader_cls = ident(&reader_message);
            let writer_ns = load(&root, &mut schemas, &schema_rel).ns.clone();
            let writer_version = schemas[&schema_rel].schema.version;
            let reader = load(&root, &mut schemas, &reader_rel);
            let reader_ns = reader.ns.clone();
            let reader_older = reader.schema.version < writer_version;
            let writer = &schemas[&schema_rel];
            let msg = writer
                .schema
                .messages
                .iter()
                .find(|m| m.name == message)
                .unwrap_or_else(|| panic!("{name}: no message {message}"));
            let cls = ident(&msg.name);
            total += 1;
            all_hex.push(hex.clone());
            tests.open(format!(
                "TEST({}, {}) {{",
                naming::identifier(stem),
                naming::identifier(&name)
            ));
            tests.line(format!(
                "const std::vector<std::uint8_t> bytes = from_hex(\"{hex}\");"
            ));
            tests.line(format!(
                "const std::string expected = R\"sable_json({json_text})sable_json\";"
            ));
            tests.line("// decode: canonical JSON and length");
            tests.line(format!(
                "::{reader_ns}::{reader_cls}::Decoder d(bytes.data(), bytes.size());"
            ));
            tests.line("ASSERT_EQ(d.error(), sable::errc::ok) << sable::message(d.error());");
            tests.line("std::ostringstream json;");
            tests.line("json << d;");
            tests.line("EXPECT_EQ(json.str(), expected);");
            if !reader_older {
                tests.line("EXPECT_EQ(d.encoded_length(), bytes.size());");
            }
            tests.line("// encode: every value through the typed encoder");
            tests.line(format!(
                "::{writer_ns}::{cls}::Decoder src(bytes.data(), bytes.size());"
            ));
            tests.line("std::vector<std::uint8_t> out(bytes.size() + 64);");
            tests.line(format!(
                "::{writer_ns}::{cls}::Encoder e(out.data(), out.size());"
            ));
            tests.line(format!("copy_{}(src, e);", fn_suffix(&writer_ns, &cls)));
            tests.line("ASSERT_EQ(e.error(), sable::errc::ok) << sable::message(e.error());");
            tests.line("ASSERT_TRUE(src.ok());");
            tests.line("out.resize(e.encoded_length());");
            tests.line(format!("EXPECT_EQ(to_hex(out), \"{hex}\");"));
            tests.line("// malformed input: truncations and one-byte changes");
            tests.line(format!(
                "check_truncations<::{writer_ns}::{cls}::Decoder>(bytes);"
            ));
            tests.line(format!(
                "check_changes<::{writer_ns}::{cls}::Decoder>(bytes);"
            ));
            tests.close("}");
            tests.blank();
        }
    }
    // The copy functions: decoder to encoder, every value.
    let mut copies = CodeWriter::new("  ");
    let mut tsv = String::new();
    for (rel, loaded) in &schemas {
        let abs = root.join(rel);
        let abs = abs.canonicalize().unwrap_or(abs);
        tsv.push_str(&format!(
            "{}\t{}\n",
            loaded.ns.replace("::", "."),
            abs.display()
        ));
        for m in &loaded.schema.messages {
            let cls = ident(&m.name);
            let ns = &loaded.ns;
            copies.open(format!(
                "[[maybe_unused]] void copy_{}(::{ns}::{cls}::Decoder &d, ::{ns}::{cls}::Encoder &e) {{",
                fn_suffix(ns, &cls)
            ));
            copy_body(&mut copies, &loaded.schema, &m.body, "d", "e", 0);
            copies.close("}");
            copies.blank();
        }
    }
    let mut w = CodeWriter::new("  ");
    w.line("/* Generated by crates/sable-codegen/examples/cpp_conformance.rs. Do not edit. */");
    for loaded in schemas.values() {
        w.line(format!(
            "#include \"{}\"",
            sable_codegen::cpp::header_name(&loaded.ns)
        ));
    }
    w.line("#include \"conformance_support.hpp\"");
    w.blank();
    w.line("namespace {");
    w.blank();
    let mut text = w.finish();
    text.push_str(&copies.finish());
    text.push_str("} // namespace\n\n");
    text.push_str(&tests.finish());
    std::fs::write(out.join("conformance_test.cpp"), text).expect("writing the tests");
    std::fs::write(out.join("schemas.tsv"), tsv).expect("writing schemas.tsv");
    // The libFuzzer target: every message decoder of every schema over the input, printed.
    let mut f = CodeWriter::new("  ");
    f.line("/* Generated by crates/sable-codegen/examples/cpp_conformance.rs. Do not edit. */");
    for loaded in schemas.values() {
        f.line(format!(
            "#include \"{}\"",
            sable_codegen::cpp::header_name(&loaded.ns)
        ));
    }
    f.line("#include <cstddef>");
    f.line("#include <cstdint>");
    f.line("#include <sstream>");
    f.blank();
    f.line("namespace {");
    f.line("template <class D> void decode(const std::uint8_t *data, std::size_t size) {");
    f.line("  D d(data, size);");
    f.line("  std::ostringstream os;");
    f.line("  os << d;");
    f.line("  if (d.encoded_length() > size) { __builtin_trap(); }");
    f.line("}");
    f.line("} // namespace");
    f.blank();
    f.open("extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {");
    for loaded in schemas.values() {
        for m in &loaded.schema.messages {
            f.line(format!(
                "decode<::{}::{}::Decoder>(data, size);",
                loaded.ns,
                ident(&m.name)
            ));
        }
    }
    f.line("return 0;");
    f.close("}");
    std::fs::write(out.join("fuzz_target.cpp"), f.finish()).expect("writing the fuzz target");
    // Seeds for the fuzzer: every vector's bytes.
    let seeds = out.join("seeds");
    std::fs::create_dir_all(&seeds).expect("creating seeds");
    for (i, hex) in all_hex.iter().enumerate() {
        let bytes: Vec<u8> = (0..hex.len() / 2)
            .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).expect("hex"))
            .collect();
        std::fs::write(seeds.join(format!("vector-{i:03}")), bytes).expect("writing a seed");
    }
    eprintln!(
        "cpp_conformance: {total} vectors, {} schemas, in {}",
        schemas.len(),
        out.display()
    );
}

fn fn_suffix(ns: &str, cls: &str) -> String {
    format!("{}_{cls}", ns.replace("::", "_"))
}

fn load<'a>(root: &Path, schemas: &'a mut BTreeMap<String, Loaded>, rel: &str) -> &'a Loaded {
    schemas.entry(rel.to_owned()).or_insert_with(|| {
        let path = root.join(rel);
        let compiled = sable_schema::compile_file(&path);
        let ir = compiled
            .ir
            .unwrap_or_else(|| panic!("{rel} does not compile"));
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("schema");
        Loaded {
            schema: model::build(&ir),
            ns: namespace(&format!(
                "conformance.{}",
                naming::identifier(&stem.to_lowercase())
            )),
        }
    })
}

/// Statements copying every value of a body from decoder `d` to encoder `e`.
fn copy_body(w: &mut CodeWriter, schema: &Schema, body: &Body, d: &str, e: &str, depth: usize) {
    for f in &body.fields {
        if f.is_constant() {
            continue;
        }
        let n = ident(&f.name);
        copy_value(
            w,
            schema,
            &f.type_ref,
            &format!("{d}.{n}()"),
            &format!("{e}.{n}"),
            depth,
        );
    }
    for g in &body.groups {
        let n = ident(&g.name);
        let dg = format!("dg{depth}");
        let eg = format!("eg{depth}");
        w.open("{");
        w.line(format!("auto {dg} = {d}.{n}();"));
        w.line(format!("auto {eg} = {e}.{n}({dg}.count());"));
        w.open(format!("while ({dg}.next()) {{"));
        w.line(format!("{eg}.next();"));
        copy_body(w, schema, &g.body, &dg, &eg, depth + 1);
        w.close("}");
        w.close("}");
    }
    for v in &body.var_data {
        let n = ident(&v.name);
        w.line(format!("{e}.{n}({d}.{n}_bytes());"));
    }
}

/// Copies one value: `get` is a getter call, `set` the setter's name (called with the value).
fn copy_value(
    w: &mut CodeWriter,
    schema: &Schema,
    t: &TypeRef,
    get: &str,
    set: &str,
    depth: usize,
) {
    match t {
        TypeRef::Primitive(p) if p.is_constant() => {}
        TypeRef::Primitive(p)
            if p.is_array() && p.primitive_type != sable_ir::PrimitiveType::Char =>
        {
            let getter = get.trim_end_matches("()");
            w.open(format!("for (std::size_t i = 0; i < {}; ++i) {{", p.length));
            w.line(format!("{set}(i, {getter}(i));"));
            w.close("}");
        }
        TypeRef::Primitive(p) if p.is_array() => {
            // Every byte of the char array, past a NUL too.
            let getter = get.trim_end_matches("()");
            w.line(format!("{set}({getter}_bytes().as_chars());"));
        }
        TypeRef::Primitive(_) | TypeRef::Enum(_) | TypeRef::Set(_) => {
            w.line(format!("{set}({get});"));
        }
        TypeRef::Composite(c) => {
            let comp = schema.composite(c);
            let dc = format!("dc{depth}");
            let ec = format!("ec{depth}");
            w.open("{");
            w.line(format!("const auto {dc} = {get};"));
            w.line(format!("auto {ec} = {set}();"));
            for m in &comp.members {
                let n = ident(&m.name);
                copy_value(
                    w,
                    schema,
                    &m.type_ref,
                    &format!("{dc}.{n}()"),
                    &format!("{ec}.{n}"),
                    depth + 1,
                );
            }
            w.close("}");
        }
    }
}

//! Writes the Rust codecs test crate's sources (rust/codecs and rust/tests, driven by
//! scripts/rust-codecs.sh):
//!
//! - `CODECS_DIR/src/<module>.rs`: the generated module of every valid shared schema (the
//!   `sub/` folders included), of every conformance schema and of the spec's Examples.xml, and
//!   `CODECS_DIR/src/lib.rs` (`#![no_std]`, one `pub mod` per schema);
//! - `TESTS_DIR/tests/conformance.rs`: for every conformance vector, one test that encodes the
//!   vector's values through the generated typed setters and compares the bytes with the
//!   vector's, and one that decodes the bytes (`decode_any`) and compares the canonical JSON
//!   (`Display`) with the vector's JSON as text, and the decoded length with the bytes'.
//!
//! ```text
//! cargo run -p sable-codegen --example rust_conformance -- CODECS_DIR TESTS_DIR
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sable_codegen::model::{self, Body, Composite, Primitive, Schema, TypeRef, VarData};
use sable_codegen::rust::{camel, method, snake};
use sable_ir::{Presence, PrimitiveType};
use serde_json::value::RawValue;
use serde_json::Value;

struct Loaded {
    module: String,
    schema: Schema,
}

fn main() {
    let mut args = std::env::args_os().skip(1);
    let (Some(codecs), Some(tests)) = (args.next(), args.next()) else {
        eprintln!("usage: rust_conformance CODECS_DIR TESTS_DIR");
        std::process::exit(2)
    };
    let codecs = PathBuf::from(codecs);
    let tests = PathBuf::from(tests);
    let root = sable_testkit::repo_root();
    let shared = sable_testkit::shared_dir();
    std::fs::create_dir_all(codecs.join("src")).expect("creating the codecs directory");
    std::fs::create_dir_all(tests.join("tests")).expect("creating the tests directory");

    // Every schema: path (canonical) -> module.
    let mut schemas: BTreeMap<PathBuf, Loaded> = BTreeMap::new();
    let valid_dir = shared.join("schemas/valid");
    let mut paths: Vec<(PathBuf, String)> = sable_testkit::valid_schemas()
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&valid_dir).unwrap_or(&p).with_extension("");
            let name = snake(&rel.to_string_lossy().replace(['/', '\\'], "_"));
            (p, name)
        })
        .collect();
    for p in sable_testkit::schemas_in(&root.join("conformance/schemas")) {
        let stem = p
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        paths.push((p.clone(), format!("conformance_{}", snake(&stem))));
    }
    paths.push((
        shared.join("spec/v1.0/Examples.xml"),
        "spec_examples".to_owned(),
    ));
    let mut lib = String::from(
        "//! Sable's generated Rust codecs for every valid shared schema, the conformance schemas \
         and the spec's examples, one module each (written by scripts/rust-codecs.sh).\n#![no_std]\n\n",
    );
    for (path, module) in paths {
        let compiled = sable_schema::compile_file(&path);
        let ir = compiled
            .ir
            .unwrap_or_else(|| panic!("{} does not compile", path.display()));
        let (text, unformatted) = sable_codegen::rust::generate_formatted(&ir);
        if let Some(why) = unformatted {
            panic!("{}: {why}", path.display());
        }
        std::fs::write(codecs.join(format!("src/{module}.rs")), text).expect("writing a module");
        let _ = writeln!(lib, "pub mod {module};");
        let key = path.canonicalize().unwrap_or(path);
        schemas.insert(
            key,
            Loaded {
                module,
                schema: model::build(&ir),
            },
        );
    }
    let lib = sable_codegen::rust::rustfmt(&lib).unwrap_or(lib);
    std::fs::write(codecs.join("src/lib.rs"), lib).expect("writing lib.rs");

    let mut vector_files: Vec<PathBuf> = std::fs::read_dir(root.join("conformance/vectors"))
        .expect("conformance/vectors")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    vector_files.sort();
    let mut out = String::from(
        "//! Every conformance vector through Sable's generated Rust codecs (written by the \
         rust_conformance example of sable-codegen; do not edit).\n\n#![allow(clippy::all, unused_mut, unused_variables)]\n\nuse sable_rust_codecs as codecs;\n\n",
    );
    let mut count = 0;
    for file in &vector_files {
        let text = std::fs::read_to_string(file).expect("reading vectors");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let raw: HashMap<String, Box<RawValue>> =
                serde_json::from_str(line).expect("a vector line");
            let get = |k: &str| -> Option<Value> {
                raw.get(k)
                    .map(|r| serde_json::from_str(r.get()).expect("json"))
            };
            let name = get("name")
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap();
            let hex = get("hex")
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap();
            if hex.is_empty() {
                continue;
            }
            let bytes = unhex(&hex);
            let schema_path = get("schema")
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap();
            let find = |p: &str| -> &Loaded {
                let full = root.join(p);
                let key = full.canonicalize().unwrap_or(full);
                schemas
                    .get(&key)
                    .unwrap_or_else(|| panic!("no module for {p}"))
            };
            let writer = find(&schema_path);
            let (reader, expected) = match get("decodeSchema") {
                Some(Value::String(ds)) => (find(&ds), raw.get("decodeJson").unwrap().get()),
                _ => (writer, raw.get("json").unwrap().get()),
            };
            let older_reader = reader.schema.version < writer.schema.version;
            let fname = snake(&name);
            let json: Value = get("json").unwrap();
            let bytes_lit = format!("{bytes:?}");
            // Decode.
            let _ = writeln!(
                out,
                "#[test]\nfn decode_{fname}() {{\n    let bytes: &[u8] = &{bytes_lit};\n    let m = codecs::{}::decode_any(bytes).expect(\"decodes\");\n    assert_eq!(m.to_string(), {:?});",
                reader.module, expected
            );
            if older_reader {
                out.push_str(
                    "    assert!(m.encoded_length().expect(\"checked\") <= bytes.len());\n}\n\n",
                );
            } else {
                out.push_str("    assert_eq!(m.encoded_length(), Ok(bytes.len()));\n}\n\n");
            }
            // Encode.
            let enc = Emitter {
                schema: &writer.schema,
                module: &writer.module,
            };
            let msg_name = json["message"].as_str().unwrap();
            let msg = writer
                .schema
                .messages
                .iter()
                .find(|m| m.name == msg_name)
                .unwrap();
            let mut body = String::new();
            enc.body(&mut body, &msg.body, &json["fields"], "m", 1);
            let _ = writeln!(
                out,
                "#[test]\nfn encode_{fname}() {{\n    let expected: &[u8] = &{bytes_lit};\n    let mut buf = vec![0xa5u8; expected.len() + 64];\n    let mut m = codecs::{}::{}Encoder::new(&mut buf).expect(\"room\");\n{body}    let n = m.encoded_length();\n    assert_eq!(&buf[..n], expected);\n}}\n",
                writer.module,
                camel(msg_name)
            );
            count += 2;
        }
    }
    std::fs::write(tests.join("tests/conformance.rs"), out).expect("writing the tests");
    eprintln!("rust_conformance: {count} tests, {} modules", schemas.len());
    let _ = Path::new("");
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

struct Emitter<'s> {
    schema: &'s Schema,
    module: &'s str,
}

fn is_utf8(e: Option<&str>) -> bool {
    e.is_some_and(|e| e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8"))
}

/// The bytes of a JSON text value in a character encoding (`{"hex":...}` as its bytes).
fn text_bytes(v: &Value, encoding: Option<&str>) -> Vec<u8> {
    match v {
        Value::String(s) if is_utf8(encoding) => s.as_bytes().to_vec(),
        Value::String(s) => s.chars().map(|c| c as u32 as u8).collect(),
        Value::Object(o) => unhex(o["hex"].as_str().unwrap()),
        _ => Vec::new(),
    }
}

fn byte_str(b: &[u8]) -> String {
    format!("&{b:?}[..]")
}

fn rtype(p: PrimitiveType) -> &'static str {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => "u8",
        PrimitiveType::Int8 => "i8",
        PrimitiveType::Int16 => "i16",
        PrimitiveType::Int32 => "i32",
        PrimitiveType::Int64 => "i64",
        PrimitiveType::UInt16 => "u16",
        PrimitiveType::UInt32 => "u32",
        PrimitiveType::UInt64 => "u64",
        PrimitiveType::Float => "f32",
        PrimitiveType::Double => "f64",
    }
}

/// A Rust literal of the primitive's type for a JSON number (or float string).
fn num(v: &Value, p: PrimitiveType) -> String {
    match p {
        PrimitiveType::Float => {
            let x: f32 = match v {
                Value::String(s) if s == "NaN" => f32::NAN,
                Value::String(s) if s == "Infinity" => f32::INFINITY,
                Value::String(s) if s == "-Infinity" => f32::NEG_INFINITY,
                other => other.to_string().parse().unwrap(),
            };
            format!("f32::from_bits({:#x})", x.to_bits())
        }
        PrimitiveType::Double => {
            let x: f64 = match v {
                Value::String(s) if s == "NaN" => f64::NAN,
                Value::String(s) if s == "Infinity" => f64::INFINITY,
                Value::String(s) if s == "-Infinity" => f64::NEG_INFINITY,
                other => other.to_string().parse().unwrap(),
            };
            format!("f64::from_bits({:#x})", x.to_bits())
        }
        PrimitiveType::Char => match v {
            Value::String(s) => format!("{}_u8", s.chars().next().map_or(0, |c| c as u32)),
            other => format!("{other}_u8"),
        },
        _ => {
            let t = rtype(p);
            if p == PrimitiveType::Int64 && v.as_i64() == Some(i64::MIN) {
                "i64::MIN".to_owned()
            } else {
                format!("{v}_{t}")
            }
        }
    }
}

impl Emitter<'_> {
    fn path(&self, name: &str) -> String {
        format!("codecs::{}::{}", self.module, camel(name))
    }

    fn body(&self, o: &mut String, body: &Body, fields: &Value, var: &str, depth: usize) {
        let ind = "    ".repeat(depth);
        for f in &body.fields {
            let v = &fields[&f.name];
            self.value(o, &f.type_ref, f.presence, v, var, &f.name, depth);
        }
        for g in &body.groups {
            let v = &fields[&g.name];
            let gm = method(&g.name);
            let gv = format!("g{depth}");
            let ev = format!("e{depth}");
            let _ = writeln!(
                o,
                "{ind}{{\n{ind}    let mut {gv} = {var}.{gm}().expect(\"group\");"
            );
            if let Value::Array(entries) = v {
                for e in entries {
                    let _ = writeln!(o, "{ind}    {{\n{ind}        let mut {ev} = {gv}.next_entry().expect(\"entry\");");
                    self.body(o, &g.body, e, &ev, depth + 2);
                    let _ = writeln!(o, "{ind}    }}");
                }
            }
            let _ = writeln!(o, "{ind}}}");
        }
        for d in &body.var_data {
            let v = &fields[&d.name];
            let bytes = self.var_bytes(d, v);
            let _ = writeln!(
                o,
                "{ind}{var}.{}({}).expect(\"var data\");",
                method(&d.name),
                byte_str(&bytes)
            );
        }
    }

    fn var_bytes(&self, d: &VarData, v: &Value) -> Vec<u8> {
        match v {
            Value::Null => Vec::new(),
            Value::String(s) if !d.is_text() => unhex(s),
            other => text_bytes(other, d.character_encoding.as_deref()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn value(
        &self,
        o: &mut String,
        t: &TypeRef,
        presence: Presence,
        v: &Value,
        var: &str,
        name: &str,
        depth: usize,
    ) {
        let ind = "    ".repeat(depth);
        let m = method(name);
        match t {
            TypeRef::Primitive(p) => {
                if presence == Presence::Constant || p.is_constant() {
                    return;
                }
                let arg = self.prim_arg(p, presence, v);
                // Char arrays and fields with a declared range return a `Result`.
                let fallible = (p.is_array() && p.primitive_type == PrimitiveType::Char)
                    || (p.range_declared && !p.is_array());
                let check = if fallible { ".expect(\"value\")" } else { "" };
                let _ = writeln!(o, "{ind}{var}.{m}({arg}){check};");
            }
            TypeRef::Enum(e) => {
                if presence == Presence::Constant {
                    return;
                }
                let et = self.schema.enum_type(e);
                let raw = |v: &Value| -> String {
                    match v {
                        Value::String(s) => {
                            let vv = et.values.iter().find(|x| &x.name == s).unwrap();
                            let i = vv.value.as_i128().unwrap_or(0);
                            format!(
                                "{}::from_raw({i}_{})",
                                self.path(e),
                                rtype(et.encoding_type)
                            )
                        }
                        Value::Object(ob) => format!(
                            "{}::from_raw({}_{})",
                            self.path(e),
                            ob["unknown"],
                            rtype(et.encoding_type)
                        ),
                        // A required enum holding its null value (printed as null).
                        Value::Null => format!(
                            "{}::from_raw({}_{})",
                            self.path(e),
                            et.null_value.as_i128().unwrap_or(0),
                            rtype(et.encoding_type)
                        ),
                        _ => unreachable!(),
                    }
                };
                let arg = if presence == Presence::Optional {
                    match v {
                        Value::Null => "None".to_owned(),
                        other => format!("Some({})", raw(other)),
                    }
                } else {
                    raw(v)
                };
                let _ = writeln!(o, "{ind}{var}.{m}({arg});");
            }
            TypeRef::Set(s) => {
                let st = self.schema.set_type(s);
                let mut bits: u64 = 0;
                if let Value::Array(items) = v {
                    for it in items {
                        match it {
                            Value::String(n) => {
                                bits |= 1 << st.choices.iter().find(|c| &c.name == n).unwrap().bit
                            }
                            other => bits |= 1 << other.as_u64().unwrap(),
                        }
                    }
                }
                let _ = writeln!(
                    o,
                    "{ind}{var}.{m}({}::from_bits({bits}_{}));",
                    self.path(s),
                    rtype(st.encoding_type)
                );
            }
            TypeRef::Composite(c) => {
                if v.is_null() {
                    return;
                }
                let comp: &Composite = self.schema.composite(c);
                let cv = format!("c{depth}");
                let _ = writeln!(o, "{ind}{{\n{ind}    let mut {cv} = {var}.{m}();");
                for mem in &comp.members {
                    let presence = match &mem.type_ref {
                        TypeRef::Primitive(p) if p.is_constant() => Presence::Constant,
                        TypeRef::Primitive(p) => p.presence,
                        _ => mem.presence,
                    };
                    self.value(
                        o,
                        &mem.type_ref,
                        presence,
                        &v[&mem.name],
                        &cv,
                        &mem.name,
                        depth + 1,
                    );
                }
                let _ = writeln!(o, "{ind}    let _ = &mut {cv};\n{ind}}}");
            }
        }
    }

    fn prim_arg(&self, p: &Primitive, presence: Presence, v: &Value) -> String {
        let enc = p.character_encoding.as_deref();
        if p.is_array() {
            return match p.primitive_type {
                PrimitiveType::Char => byte_str(&text_bytes(v, enc)),
                PrimitiveType::UInt8 => {
                    format!("&{:?}", unhex(v.as_str().unwrap()))
                }
                PrimitiveType::Int8 => {
                    let b: Vec<i8> = unhex(v.as_str().unwrap())
                        .iter()
                        .map(|&x| x as i8)
                        .collect();
                    format!("&{b:?}")
                }
                other => {
                    let items: Vec<String> = v
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| num(x, other))
                        .collect();
                    format!("&[{}]", items.join(", "))
                }
            };
        }
        let optional = presence == Presence::Optional || p.presence == Presence::Optional;
        let single = |v: &Value| -> String {
            if p.primitive_type == PrimitiveType::Char {
                let b = text_bytes(v, enc);
                format!("{}_u8", b.first().copied().unwrap_or(0))
            } else {
                num(v, p.primitive_type)
            }
        };
        if optional {
            match v {
                Value::Null => "None".to_owned(),
                other => format!("Some({})", single(other)),
            }
        } else {
            single(v)
        }
    }
}

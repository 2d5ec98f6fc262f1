//! The conformance vectors (`conformance/vectors/*.jsonl`, format in `conformance/README.md`):
//!
//! - `reference_decodes_every_vector`: the reference implementation's on-the-fly decoder
//!   decodes every vector's hex to its JSON (`interop/ConformanceCheck.java`; needs
//!   `scripts/fetch-reference.sh`);
//! - `sable_encodes_every_vector`: Sable's encoder turns every vector's JSON into exactly its hex;
//! - `sable_decodes_every_vector`: Sable's JSON printer turns every vector's hex into exactly its
//!   JSON, as canonical text (for a cross-version vector, with the reader's schema).

use std::ffi::OsStr;
use std::path::PathBuf;

use serde_json::value::RawValue;
use serde_json::Value;

use sable_testkit::{repo_root, Oracle};

/// One vector: its file and line, and the keys the tests use.
struct Vector {
    at: String,
    name: String,
    schema: String,
    json: String,
    hex: String,
    decode_schema: Option<String>,
    decode_json: Option<String>,
}

fn vector_files() -> Vec<PathBuf> {
    sable_conformance::jsonl_files(&repo_root().join("conformance/vectors"))
}

fn vectors() -> Vec<Vector> {
    let mut all = Vec::new();
    for file in vector_files() {
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
        let label = file.file_name().unwrap().to_string_lossy().into_owned();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{label}:{}", n + 1);
            let raw: std::collections::HashMap<String, Box<RawValue>> = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{at}: not a JSON object: {e}"));
            let string = |key: &str| -> Option<String> {
                raw.get(key).map(|v| {
                    serde_json::from_str::<String>(v.get())
                        .unwrap_or_else(|e| panic!("{at}: {key} is not a string: {e}"))
                })
            };
            let text = |key: &str| raw.get(key).map(|v| v.get().to_owned());
            all.push(Vector {
                name: string("name").unwrap_or_else(|| panic!("{at}: no name")),
                schema: string("schema").unwrap_or_else(|| panic!("{at}: no schema")),
                json: text("json").unwrap_or_else(|| panic!("{at}: no json")),
                hex: string("hex").unwrap_or_default(),
                decode_schema: string("decodeSchema"),
                decode_json: text("decodeJson"),
                at,
            });
        }
    }
    all
}

fn ir(schema: &str) -> Result<sable_ir::Ir, String> {
    let path = repo_root().join(schema);
    sable_schema::compile_file(&path)
        .ir
        .ok_or_else(|| format!("Sable does not compile {schema}"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Vectors Sable is known to fail, by test and vector name, with why: reported, not failed, and a
/// failure when they pass (so that the entry is removed). Each is an issue to fix or a decision
/// to take (see conformance/README.md, "Open questions").
const KNOWN_SABLE_FAILURES: &[(&str, &str, &str)] = &[
    // ("encode" or "decode", "vector name", "why"),
];

/// Runs `check` on every vector with hex and panics listing every failure.
fn for_every_vector(what: &str, test: &str, check: impl Fn(&Vector) -> Result<(), String>) {
    let vectors = vectors();
    let mut failures = Vec::new();
    let mut checked = 0;
    for v in &vectors {
        if v.hex.is_empty() {
            continue;
        }
        checked += 1;
        let known = KNOWN_SABLE_FAILURES
            .iter()
            .find(|(t, name, _)| *t == test && *name == v.name);
        match (check(v), known) {
            (Ok(()), None) => {}
            (Err(why), None) => failures.push(format!("{} {}: {why}", v.at, v.name)),
            (Err(why), Some((_, _, reason))) => {
                eprintln!("KNOWN {} {}: {reason}\n    {why}", v.at, v.name)
            }
            (Ok(()), Some(_)) => failures.push(format!(
                "{} {}: listed in KNOWN_SABLE_FAILURES but passes now: remove the entry",
                v.at, v.name
            )),
        }
    }
    assert!(checked > 0, "no vector has hex");
    assert!(
        failures.is_empty(),
        "{what}: {} of {checked} vectors failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn reference_decodes_every_vector() {
    let oracle = Oracle::new();
    let root = repo_root();
    let files = vector_files();
    let mut args: Vec<&OsStr> = vec![OsStr::new("check"), OsStr::new("--root"), root.as_os_str()];
    args.extend(files.iter().map(|f| f.as_os_str()));
    match oracle.run_class("ConformanceCheck", &args) {
        Ok(report) => {
            let summary = report.lines().last().unwrap_or_default();
            assert!(
                summary.starts_with("conformance: ") && summary.contains(" 0 differ"),
                "unexpected report:\n{report}"
            );
            assert!(
                summary.contains(" 0 pending"),
                "vectors without hex (run conformance/generate.sh):\n{report}"
            );
            eprintln!("{report}");
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn sable_encodes_every_vector() {
    for_every_vector("Sable's encoder", "encode", |v| {
        let ir = ir(&v.schema)?;
        let encoder = sable_otf::encode::Encoder::new(&ir)
            .map_err(|e| format!("Encoder::new: {e}"))?
            .with_range_checks(false);
        let mut out = Vec::new();
        encoder
            .encode_json(&v.json, &mut out)
            .map_err(|e| format!("encode: {e}"))?;
        let got = hex(&out);
        if got == v.hex {
            Ok(())
        } else {
            Err(format!(
                "encode gives\n    {got}\n  the vector has\n    {}",
                v.hex
            ))
        }
    });
}

#[test]
fn sable_decodes_every_vector() {
    for_every_vector("Sable's JSON printer", "decode", |v| {
        let (schema, expected) = match (&v.decode_schema, &v.decode_json) {
            (Some(s), Some(j)) => (s.as_str(), j.as_str()),
            (None, None) => (v.schema.as_str(), v.json.as_str()),
            _ => return Err("decodeSchema and decodeJson go together".to_owned()),
        };
        let ir = ir(schema)?;
        let printer =
            sable_otf::json::JsonPrinter::new(&ir).map_err(|e| format!("JsonPrinter::new: {e}"))?;
        let bytes = unhex(&v.hex);
        let mut out = Vec::new();
        let result = printer.print(&bytes, &mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        let used = result.map_err(|e| format!("decode: {e}\n  printed {text}"))?;
        // A cross-version vector read by an older schema may leave the newer var data unread.
        let older_reader = v.decode_schema.is_some()
            && ir.version < self::ir(&v.schema).map(|w| w.version).unwrap_or(ir.version);
        if used != bytes.len() && !(older_reader && used < bytes.len()) {
            return Err(format!("decode used {used} of {} bytes", bytes.len()));
        }
        if text == expected {
            return Ok(());
        }
        // Say whether it is the values or only their text.
        let same_values = serde_json::from_str::<Value>(&text).ok()
            == serde_json::from_str::<Value>(expected).ok();
        Err(format!(
            "{}:\n    sable:  {text}\n    vector: {expected}",
            if same_values {
                "same values, different text"
            } else {
                "different values"
            }
        ))
    });
}

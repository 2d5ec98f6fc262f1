//! The generated Java decoders print exactly what Sable's own printer (`sable_otf::JsonPrinter`)
//! prints: for every message of every valid shared schema, random messages (random blocks, so
//! random floats, enum values, set bits and characters; groups of 0 to 2 entries, nested; var
//! data of random bytes), at the schema's version and at version 0, are decoded by the Java
//! decoder's `toString()` and by `sable_otf`, and the canonical JSON compared as text.
//!
//! The codecs (MemorySegment flavour, each schema in its own package) are compiled with
//! `javac -Xlint:all -Werror --release 25`, so this also checks that they compile cleanly; the
//! Agrona flavour's compilation is checked by tests/javac.rs.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use sable_codegen::java::{self, class_name, Options};
use sable_codegen::model::{self, Body, Schema, TypeRef};
use sable_ir::{ByteOrder, Ir, PrimitiveType};
use sable_testkit::{repo_root, run_parallel, schema_label, valid_schemas, ScratchDir};

fn jdk() -> PathBuf {
    let out = Command::new("bash")
        .arg(repo_root().join("scripts/jdk.sh"))
        .arg("25")
        .output()
        .expect("running scripts/jdk.sh");
    assert!(
        out.status.success(),
        "no JDK 25 (scripts/setup.sh installs one): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn byte(&mut self) -> u8 {
        // Bias towards small and printable values now and then, so names and text turn up.
        match self.next() % 8 {
            0 => 0,
            1 => b'A' + (self.next() % 26) as u8,
            2 => (self.next() % 4) as u8,
            _ => self.next() as u8,
        }
    }
}

fn put(buf: &mut [u8], at: usize, t: PrimitiveType, order: ByteOrder, value: u64) {
    let size = t.size();
    for i in 0..size {
        let byte = (value >> (8 * i)) as u8;
        let pos = match order {
            ByteOrder::LittleEndian => at + i,
            ByteOrder::BigEndian => at + size - 1 - i,
        };
        buf[pos] = byte;
    }
}

/// Appends a block of `block_length` random bytes, then the body's groups (each with 0 to 2
/// entries, recursively, fewer deeper down) and var data (0 to 6 random bytes) present at
/// `version`.
fn append_body(
    bytes: &mut Vec<u8>,
    schema: &Schema,
    body: &Body,
    block_length: usize,
    version: i32,
    rng: &mut Rng,
    depth: usize,
) {
    for _ in 0..block_length {
        bytes.push(rng.byte());
    }
    for g in &body.groups {
        if g.since_version > version {
            continue;
        }
        let dimension = schema.composite(&g.dimension);
        let at = bytes.len();
        bytes.resize(at + dimension.encoded_length.max(0) as usize, 0);
        let count = if depth >= 2 { 0 } else { rng.next() % 3 };
        if let Some((member, p)) = dimension.primitive("blockLength") {
            put(
                bytes,
                at + member.offset,
                p.primitive_type,
                p.byte_order,
                g.block_length as u64,
            );
        }
        if let Some((member, p)) = dimension.primitive("numInGroup") {
            put(
                bytes,
                at + member.offset,
                p.primitive_type,
                p.byte_order,
                count,
            );
        }
        for _ in 0..count {
            append_body(
                bytes,
                schema,
                &g.body,
                g.block_length,
                version,
                rng,
                depth + 1,
            );
        }
    }
    for v in &body.var_data {
        if v.since_version > version {
            continue;
        }
        let length = rng.next() % 7;
        let at = bytes.len();
        bytes.resize(at + v.length_size(), 0);
        put(
            bytes,
            at,
            v.length.primitive_type,
            v.length.byte_order,
            length,
        );
        for _ in 0..length {
            bytes.push(rng.byte());
        }
    }
}

struct Sample {
    label: String,
    /// The message's length (the bytes end with a little padding).
    consumed: usize,
    decoder: String,
    header: String,
    bytes: Vec<u8>,
    expected: String,
}

struct Case {
    package: String,
    files: Vec<(PathBuf, String)>,
    samples: Vec<Sample>,
}

fn case(path: &Path) -> Case {
    let ir: Ir = sable_schema::compile_file(path)
        .ir
        .unwrap_or_else(|| panic!("{} does not compile", path.display()));
    let schema: Schema = model::build(&ir);
    let package = java::package_name(
        ir.namespace_name
            .as_deref()
            .filter(|n| !n.is_empty())
            .unwrap_or(&ir.package_name),
    );
    let files = java::generate(&ir, &Options::default())
        .into_iter()
        .map(|f| (f.path, f.text))
        .collect();
    let printer = sable_otf::json::JsonPrinter::new(&ir).expect("a printer for the schema");
    let header = schema.header_composite();
    let header_len = header.encoded_length.max(0) as usize;
    let label = schema_label(path);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ label.len() as u64);
    let mut samples = Vec::new();
    for m in &schema.messages {
        let versions = if schema.version > 0 {
            vec![schema.version, schema.version, 0]
        } else {
            vec![schema.version, schema.version]
        };
        for version in versions {
            let mut bytes = vec![0u8; header_len];
            for member in &header.members {
                let TypeRef::Primitive(p) = &member.type_ref else {
                    continue;
                };
                if p.is_constant() {
                    continue;
                }
                let value = match member.name.as_str() {
                    "blockLength" => m.block_length as u64,
                    "templateId" => m.id as u64,
                    "schemaId" => schema.id as u64,
                    "version" => version as u64,
                    _ => 0,
                };
                put(
                    &mut bytes,
                    member.offset,
                    p.primitive_type,
                    p.byte_order,
                    value,
                );
            }
            append_body(
                &mut bytes,
                &schema,
                &m.body,
                m.block_length,
                version,
                &mut rng,
                0,
            );
            let consumed = bytes.len();
            bytes.extend_from_slice(&[0u8; 16]);
            let mut out = Vec::new();
            if let Err(e) = printer.print(&bytes, &mut out) {
                panic!(
                    "{label} {}: sable_otf cannot decode the sample: {e:?}",
                    m.name
                );
            }
            let expected = String::from_utf8(out).expect("UTF-8 JSON");
            samples.push(Sample {
                label: format!("{label} {} version {version}", m.name),
                consumed,
                decoder: format!("{package}.{}Decoder", class_name(&m.name)),
                header: format!("{package}.{}Decoder", class_name(&schema.header)),
                bytes,
                expected: expected.trim_end().to_owned(),
            });
        }
    }
    Case {
        package,
        files,
        samples,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compiles a batch of schemas' codecs with a driver printing every sample, runs it, and
/// compares its lines with the expected JSON.
fn run_batch(java_home: &Path, batch: &[Case]) -> Result<usize, String> {
    let dir = ScratchDir::new("java-json");
    let src = dir.join("src");
    let mut sources = Vec::new();
    for case in batch {
        for (path, text) in &case.files {
            let file = src.join(path);
            std::fs::create_dir_all(file.parent().expect("a package directory"))
                .expect("creating a package directory");
            std::fs::write(&file, text).expect("writing a source");
            sources.push(file);
        }
    }
    let mut driver = String::from(
        "import java.lang.foreign.MemorySegment;\n\
         import java.nio.charset.StandardCharsets;\n\n\
         public final class Driver\n{\n\
         \x20   static MemorySegment segment(final String hex)\n    {\n\
         \x20       return MemorySegment.ofArray(java.util.HexFormat.of().parseHex(hex));\n    }\n\n",
    );
    let mut samples = Vec::new();
    for (i, case) in batch.iter().enumerate() {
        let _ = writeln!(
            driver,
            "    static void schema{i}(final java.io.PrintStream out)\n    {{"
        );
        for s in &case.samples {
            let _ = writeln!(
                driver,
                "        out.println(new {}().wrapAndApplyHeader(segment(\"{}\"), 0, new {}()));",
                s.decoder,
                hex(&s.bytes),
                s.header
            );
            samples.push(s);
        }
        driver.push_str("    }\n\n");
    }
    driver.push_str(
        "    public static void main(final String[] args)\n    {\n\
         \x20       final java.io.PrintStream out = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);\n",
    );
    for i in 0..batch.len() {
        let _ = writeln!(driver, "        schema{i}(out);");
    }
    driver.push_str("        out.flush();\n    }\n}\n");
    let driver_file = src.join("Driver.java");
    std::fs::write(&driver_file, driver).expect("writing the driver");
    sources.push(driver_file);
    let classes = dir.join("classes");
    let out = Command::new(java_home.join("bin/javac"))
        .args([
            "-Xlint:all",
            "-Werror",
            "--release",
            "25",
            "-encoding",
            "UTF-8",
            "-d",
        ])
        .arg(&classes)
        .args(&sources)
        .output()
        .expect("running javac");
    if !out.status.success() || !out.stderr.is_empty() {
        return Err(format!(
            "javac failed on [{}]:\n{}",
            batch
                .iter()
                .map(|c| c.package.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let out = Command::new(java_home.join("bin/java"))
        .arg("-cp")
        .arg(&classes)
        .arg("Driver")
        .output()
        .expect("running java");
    if !out.status.success() {
        return Err(format!(
            "the driver failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != samples.len() {
        return Err(format!(
            "{} lines for {} samples",
            lines.len(),
            samples.len()
        ));
    }
    let mut report = String::new();
    for (s, line) in samples.iter().zip(&lines) {
        if s.expected != *line {
            let _ = writeln!(
                report,
                "{} (bytes {}):\n  sable_otf: {}\n  java     : {}",
                s.label,
                hex(&s.bytes[..s.consumed]),
                s.expected,
                line
            );
        }
    }
    if report.is_empty() {
        Ok(samples.len())
    } else {
        Err(report)
    }
}

#[test]
fn java_decoders_print_what_sable_otf_prints() {
    let java_home = jdk();
    let cases: Vec<Case> = valid_schemas().iter().map(|p| case(p)).collect();
    // Schemas sharing a package go in different batches.
    let mut batches: Vec<Vec<Case>> = Vec::new();
    for c in cases {
        match batches
            .iter_mut()
            .find(|b| b.iter().all(|o| o.package != c.package))
        {
            Some(b) => b.push(c),
            None => batches.push(vec![c]),
        }
    }
    let results = run_parallel(&batches, |b| run_batch(&java_home, b));
    let mut failures = Vec::new();
    let mut compared = 0;
    for r in results {
        match r {
            Ok(n) => compared += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 100, "only {compared} samples compared");
}

//! The generated Java of the Agrona flavour compiles cleanly: for every valid shared schema, in
//! the schema's own package, with `javac -Xlint:all -Werror --release 25` (a JDK 25 found by
//! scripts/jdk.sh), against the Agrona jar in the local Maven repository, or the reference's
//! sbe-all jar, which bundles Agrona. (The MemorySegment flavour is compiled the same way, and
//! run, by tests/java_json.rs.)
//!
//! Schemas are compiled in batches whose packages differ (schemas sharing a package would clash),
//! each batch one javac run, the batches spread over the cores.

use std::path::{Path, PathBuf};
use std::process::Command;

use sable_codegen::java::{self, Buffer, Options};
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

/// A jar holding Agrona's DirectBuffer and MutableDirectBuffer.
fn agrona_jar() -> PathBuf {
    let home = PathBuf::from(std::env::var_os("HOME").unwrap_or_default());
    let m2 = home.join(".m2/repository");
    let agrona_dir = m2.join("org/agrona/agrona");
    if let Ok(versions) = std::fs::read_dir(&agrona_dir) {
        let mut jars: Vec<PathBuf> = versions
            .filter_map(|v| v.ok())
            .flat_map(|v| {
                std::fs::read_dir(v.path())
                    .into_iter()
                    .flatten()
                    .filter_map(|f| f.ok().map(|f| f.path()))
            })
            .filter(|p| {
                p.extension().is_some_and(|e| e == "jar")
                    && !p.to_string_lossy().contains("sources")
            })
            .collect();
        jars.sort();
        if let Some(jar) = jars.pop() {
            return jar;
        }
    }
    for candidate in [
        repo_root().join(".cache/reference/sbe-all-1.32.1.jar"),
        m2.join("uk/co/real-logic/sbe-all/1.32.1/sbe-all-1.32.1.jar"),
    ] {
        if candidate.is_file() {
            return candidate;
        }
    }
    panic!(
        "no Agrona jar: neither {} nor the reference's sbe-all jar (scripts/fetch-reference.sh fetches it)",
        agrona_dir.display()
    );
}

struct Generated {
    label: String,
    package: String,
    files: Vec<(PathBuf, String)>,
}

fn generate(schema: &Path, buffer: Buffer) -> Generated {
    let compiled = sable_schema::compile_file(schema);
    let ir = compiled
        .ir
        .unwrap_or_else(|| panic!("{} does not compile", schema.display()));
    let options = Options {
        buffer,
        ..Options::default()
    };
    let files = java::generate(&ir, &options);
    let package = java::package_name(
        ir.namespace_name
            .as_deref()
            .filter(|n| !n.is_empty())
            .unwrap_or(&ir.package_name),
    );
    Generated {
        label: schema_label(schema),
        package,
        files: files.into_iter().map(|f| (f.path, f.text)).collect(),
    }
}

/// Splits the schemas into batches in which no two share a package.
fn batches(generated: Vec<Generated>) -> Vec<Vec<Generated>> {
    let mut batches: Vec<Vec<Generated>> = Vec::new();
    for g in generated {
        match batches
            .iter_mut()
            .find(|b| b.iter().all(|o| o.package != g.package))
        {
            Some(b) => b.push(g),
            None => batches.push(vec![g]),
        }
    }
    batches
}

fn compile_batch(
    javac: &Path,
    classpath: Option<&Path>,
    batch: &[Generated],
    tag: &str,
) -> Result<(), String> {
    let dir = ScratchDir::new(tag);
    let src = dir.join("src");
    let mut sources = Vec::new();
    for g in batch {
        for (path, text) in &g.files {
            let file = src.join(path);
            std::fs::create_dir_all(file.parent().expect("a package directory"))
                .expect("creating a package directory");
            std::fs::write(&file, text).expect("writing a source");
            sources.push(file);
        }
    }
    let mut cmd = Command::new(javac);
    cmd.args([
        "-Xlint:all",
        "-Werror",
        "--release",
        "25",
        "-encoding",
        "UTF-8",
        "-d",
    ])
    .arg(dir.join("classes"));
    if let Some(cp) = classpath {
        cmd.arg("-cp").arg(cp);
    }
    cmd.args(&sources);
    let out = cmd.output().expect("running javac");
    if out.status.success() && out.stderr.is_empty() {
        Ok(())
    } else {
        let labels: Vec<&str> = batch.iter().map(|g| g.label.as_str()).collect();
        Err(format!(
            "javac failed on [{}]:\n{}{}",
            labels.join(", "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn check_flavour(buffer: Buffer, tag: &str) {
    let javac = jdk().join("bin/javac");
    let classpath = buffer.is_agrona().then(agrona_jar);
    let schemas = valid_schemas();
    let generated: Vec<Generated> = schemas.iter().map(|s| generate(s, buffer)).collect();
    assert_eq!(generated.len(), schemas.len());
    let batches = batches(generated);
    let failures: Vec<String> = run_parallel(&batches, |b| {
        compile_batch(&javac, classpath.as_deref(), b, tag)
    })
    .into_iter()
    .filter_map(Result::err)
    .collect();
    assert!(
        failures.is_empty(),
        "{} of {} batches failed:\n{}",
        failures.len(),
        batches.len(),
        failures.join("\n")
    );
}

#[test]
fn agrona_codecs_of_every_valid_schema_compile_without_warnings() {
    check_flavour(Buffer::Agrona, "javac-agrona");
}

#[test]
fn unsafe_buffer_codecs_of_every_valid_schema_compile_without_warnings() {
    check_flavour(Buffer::AgronaUnsafe, "javac-agrona-unsafe");
}

/// The support classes kept as Java files in the generator (`src/java/runtime`) compile on their
/// own, as they are in the repository (package `sable.runtime`), and in a generated package.
#[test]
fn runtime_sources_compile_on_their_own() {
    let javac = jdk().join("bin/javac");
    for package in [None, Some("com.example.codecs")] {
        let files = java::runtime_sources()
            .map(|(name, source)| {
                let (dir, text) = match package {
                    None => (PathBuf::from("sable/runtime"), source.to_owned()),
                    Some(p) => (
                        p.split('.').collect::<PathBuf>(),
                        java::runtime_in_package(source, p),
                    ),
                };
                (dir.join(format!("{name}.java")), text)
            })
            .collect();
        let batch = [Generated {
            label: format!("runtime in {}", package.unwrap_or("sable.runtime")),
            package: package.unwrap_or("sable.runtime").to_owned(),
            files,
        }];
        if let Err(e) = compile_batch(&javac, None, &batch, "javac-runtime") {
            panic!("{e}");
        }
    }
}

//! Golden files: each generator's output, as it generates it (unformatted), for a few schemas,
//! compared file by file with `tests/golden/<language>/<schema>/`. A change in generated code
//! shows in review as a change of these files.
//!
//! After changing a generator on purpose: `BLESS=1 cargo test -p sable-codegen --test golden`
//! rewrites the files (and removes those no longer generated); commit them with the change.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sable_codegen::{cpp, csharp, go, java, python, rust, typescript, GeneratedFile};
use sable_testkit::repo_root;

/// The schemas, by the name of their golden folder: the Car (every kind of field, groups, var
/// data), nested groups with var data in entries, and a big-endian schema.
const SCHEMAS: [(&str, &str); 3] = [
    ("car", "examples/car.xml"),
    ("structure", "conformance/schemas/structure.xml"),
    (
        "bigendian",
        "../shared/schemas/valid/example-bigendian-test-schema.xml",
    ),
];

/// Every language's output for `ir`: the folder under `tests/golden/` and the files in it.
fn generated(ir: &sable_ir::Ir) -> Vec<(&'static str, Vec<GeneratedFile>)> {
    let java = |buffer| {
        let options = java::Options {
            buffer,
            ..java::Options::default()
        };
        java::generate(ir, &options)
    };
    vec![
        ("java", java(java::Buffer::Segment)),
        ("java-agrona", java(java::Buffer::Agrona)),
        ("cpp", cpp::generate(ir, &cpp::Options::default())),
        ("csharp", csharp::generate(ir, &csharp::Options::default())),
        ("go", go::generate(ir, &go::Options::default())),
        (
            "rust",
            vec![GeneratedFile {
                path: PathBuf::from("lib.rs"),
                text: rust::generate(ir),
            }],
        ),
        ("python", python::generate(ir, &python::Options::default())),
        (
            "typescript",
            typescript::generate(ir, &typescript::Options::default()),
        ),
    ]
}

/// The files under `dir`, by their path relative to it.
fn files_under(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&next) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let relative = path.strip_prefix(dir).expect("under dir").to_path_buf();
                found.insert(relative, text);
            }
        }
    }
    found
}

/// Rewrites `dir` to hold exactly `files`.
fn bless(dir: &Path, files: &[GeneratedFile]) {
    if dir.exists() {
        std::fs::remove_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    for file in files {
        let path = dir.join(&file.path);
        std::fs::create_dir_all(path.parent().expect("a parent folder"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        std::fs::write(&path, &file.text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// What differs between the golden files of `dir` and `files`, one line per file.
fn differences(dir: &Path, files: &[GeneratedFile]) -> Vec<String> {
    let mut golden = files_under(dir);
    let mut problems = Vec::new();
    for file in files {
        match golden.remove(&file.path) {
            None => problems.push(format!("{}: new file", file.path.display())),
            Some(expected) if expected != file.text => {
                let line = expected
                    .lines()
                    .zip(file.text.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or_else(|| expected.lines().count().min(file.text.lines().count()));
                problems.push(format!(
                    "{}: differs from line {}",
                    file.path.display(),
                    line + 1
                ));
            }
            Some(_) => {}
        }
    }
    problems.extend(
        golden
            .keys()
            .map(|path| format!("{}: no longer generated", path.display())),
    );
    problems
}

#[test]
fn every_generator_writes_its_golden_files() {
    let root = repo_root();
    let golden_root = root.join("crates/sable-codegen/tests/golden");
    let blessing = std::env::var_os("BLESS").is_some_and(|v| v != "0");
    let mut problems = Vec::new();
    for (name, schema) in SCHEMAS {
        let compiled = sable_schema::compile_file(&root.join(schema));
        let ir = compiled
            .ir
            .unwrap_or_else(|| panic!("{schema} does not compile"));
        for (language, files) in generated(&ir) {
            let dir = golden_root.join(language).join(name);
            if blessing {
                bless(&dir, &files);
            } else {
                problems.extend(
                    differences(&dir, &files)
                        .into_iter()
                        .map(|p| format!("{language}/{name}/{p}")),
                );
            }
        }
    }
    assert!(
        problems.is_empty(),
        "generated code differs from the golden files (re-bless with \
         `BLESS=1 cargo test -p sable-codegen --test golden` if the change is meant):\n{}",
        problems.join("\n")
    );
}

/// `--java-buffer agrona-unsafe` is the Agrona flavour with the flyweights' own buffer typed
/// `UnsafeBuffer`: line for line the same code, so the Agrona flavour's conformance and golden
/// files cover it. Only declarations change, and parameters for the user's other buffers stay
/// interfaces.
#[test]
fn the_unsafe_buffer_typing_changes_only_the_flyweights_buffer_type() {
    let root = repo_root();
    for (name, schema) in SCHEMAS {
        let ir = sable_schema::compile_file(&root.join(schema))
            .ir
            .unwrap_or_else(|| panic!("{schema} does not compile"));
        let flavour = |buffer| {
            java::generate(
                &ir,
                &java::Options {
                    buffer,
                    ..java::Options::default()
                },
            )
        };
        let (interfaces, concrete) = (
            flavour(java::Buffer::Agrona),
            flavour(java::Buffer::AgronaUnsafe),
        );
        assert_eq!(interfaces.len(), concrete.len(), "{name}");
        let mut retyped = 0;
        for (a, b) in interfaces.iter().zip(&concrete) {
            assert_eq!(a.path, b.path, "{name}");
            // (Imports aside: each flavour imports the types it names.)
            let code = |text: &str| -> Vec<String> {
                text.lines()
                    .filter(|l| !l.starts_with("import org.agrona"))
                    .map(str::to_owned)
                    .collect()
            };
            let (a_lines, b_lines) = (code(&a.text), code(&b.text));
            assert_eq!(a_lines.len(), b_lines.len(), "{name}");
            for (x, y) in a_lines.iter().zip(&b_lines) {
                if x == y {
                    continue;
                }
                retyped += 1;
                let back = y.replace(
                    "UnsafeBuffer",
                    if x.contains("MutableDirectBuffer") {
                        "MutableDirectBuffer"
                    } else {
                        "DirectBuffer"
                    },
                );
                assert_eq!(*x, back, "{name} {}", a.path.display());
                assert!(!x.contains("src") && !x.contains("dst"), "{x}");
            }
        }
        assert!(retyped > 0, "{name}: nothing retyped");
    }
}

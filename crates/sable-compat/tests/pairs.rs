//! The corpus of schema pairs: each directory under `tests/pairs` holds an old and a new schema
//! (`old.xml` and `new.xml`, or a `files` naming them relative to the workspace root) and the
//! findings expected of them (`expected.txt`: one line per finding, its rule, element and
//! verdicts backward, forward and source). `BLESS=1` rewrites the expected files.

use std::path::{Path, PathBuf};

use sable_compat::{Finding, Sense};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn schemas(dir: &Path) -> (PathBuf, PathBuf) {
    let Ok(files) = std::fs::read_to_string(dir.join("files")) else {
        return (dir.join("old.xml"), dir.join("new.xml"));
    };
    let path = |key: &str| {
        let line = files.lines().find_map(|l| l.strip_prefix(key)).expect(key);
        workspace().join(line.trim())
    };
    (path("old "), path("new "))
}

fn ir(path: &Path) -> sable_ir::Ir {
    let compiled = sable_schema::compile_file(path);
    compiled
        .ir
        .unwrap_or_else(|| panic!("{}: {:?}", path.display(), compiled.diagnostics))
}

fn line(f: &Finding) -> String {
    let verdicts: Vec<&str> = Sense::ALL.iter().map(|&s| f.verdict(s).as_str()).collect();
    let element = f.new.as_deref().or(f.old.as_deref()).unwrap_or("-");
    format!("{} {} {}", f.rule, element, verdicts.join(" "))
}

#[test]
fn every_pair_gives_its_expected_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pairs");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/pairs")
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 40, "only {} pairs", dirs.len());
    let mut failures = Vec::new();
    for dir in &dirs {
        let (old, new) = schemas(dir);
        let found: String = sable_compat::compare(&ir(&old), &ir(&new))
            .iter()
            .map(|f| line(f) + "\n")
            .collect();
        let expected_path = dir.join("expected.txt");
        if std::env::var_os("BLESS").is_some() {
            std::fs::write(&expected_path, &found).expect("write expected.txt");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != found {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- found\n{found}",
                dir.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every pair proven by decoding: no message decodes wrongly in a direction judged compatible,
/// and the shared pairs' judged breaks are shown by a message.
#[test]
fn proof_by_decoding_agrees_with_every_pair() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pairs");
    let mut contradictions = Vec::new();
    let (mut shown, mut proofs) = (0, 0);
    for entry in std::fs::read_dir(&root).expect("tests/pairs") {
        let dir = entry.expect("entry").path();
        let (old, new) = schemas(&dir);
        let (old, new) = (ir(&old), ir(&new));
        let findings = sable_compat::compare(&old, &new);
        for proof in sable_compat::prove::prove(&old, &new, 40, 7).expect("prove") {
            assert!(
                proof.tried > 0,
                "{}: nothing encoded for {}",
                dir.display(),
                proof.message
            );
            proofs += 1;
            shown += usize::from(proof.evidence.is_some());
            if sable_compat::contradicts(&findings, &proof) {
                contradictions.push(format!("{}: {proof:?}", dir.display()));
            }
        }
    }
    assert!(contradictions.is_empty(), "{}", contradictions.join("\n"));
    assert!(
        shown > 0 && proofs > shown,
        "{shown} of {proofs} proofs showed a break"
    );
}

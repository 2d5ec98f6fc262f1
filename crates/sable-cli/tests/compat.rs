//! `sable compat`: its report, exit statuses, `--require`, `--format json` and `--against`.
//! The rules themselves are tested on the corpus of pairs in `crates/sable-compat/tests`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn sable() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sable"))
}

fn pair(name: &str, side: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sable-compat/tests/pairs")
        .join(name)
        .join(format!("{side}.xml"))
}

#[test]
fn identical_schemas_are_compatible() {
    sable()
        .arg("compat")
        .arg(pair("identical", "old"))
        .arg(pair("identical", "new"))
        .assert()
        .code(0)
        .stdout(predicate::str::contains("0 findings").and(predicate::str::contains("compatible")));
}

#[test]
fn a_wire_break_fails_with_both_locations() {
    let (old, new) = (pair("field-removed", "old"), pair("field-removed", "new"));
    sable()
        .arg("compat")
        .arg(&old)
        .arg(&new)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains(format!("{}:33:5: [field-removed]", new.display()))
                .and(predicate::str::contains(format!(
                    "old: {}:36:9",
                    old.display()
                )))
                .and(predicate::str::contains(
                    "NOT compatible: backward, forward broken",
                )),
        );
}

#[test]
fn require_chooses_the_senses_that_count() {
    let args = |require: &str| {
        let mut cmd = sable();
        cmd.arg("compat")
            .arg(pair("field-renamed", "old"))
            .arg(pair("field-renamed", "new"))
            .arg(format!("--require={require}"));
        cmd
    };
    args("backward,forward").assert().code(0);
    args("source").assert().code(1);
    args("sideways").assert().code(2);
}

#[test]
fn json_report_lists_findings_with_verdicts_and_locations() {
    let out = sable()
        .args(["compat", "--format", "json"])
        .arg(pair("enum-value-added", "old"))
        .arg(pair("enum-value-added", "new"))
        .output()
        .expect("run sable");
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["compatible"], false);
    assert_eq!(doc["broken"], serde_json::json!(["forward"]));
    let f = &doc["findings"][0];
    assert_eq!(f["rule"], "enum-value-added");
    assert_eq!(f["backward"], "compatible");
    assert_eq!(f["forward"], "breaking");
    assert_eq!(f["source"], "compatible");
    assert_eq!(f["new"]["element"], "Side/Short");
    assert_eq!(f["new"]["line"], 21);
}

#[test]
fn a_sbeir_file_is_compared_too_and_located_by_its_path() {
    let dir = std::env::temp_dir().join(format!("sable-compat-sbeir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let sbeir = dir.join("old.sbeir");
    sable()
        .arg("ir")
        .arg(pair("field-removed", "old"))
        .arg("-o")
        .arg(&sbeir)
        .assert()
        .success();
    let new = pair("field-removed", "new");
    sable()
        .arg("compat")
        .arg(&sbeir)
        .arg(&new)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains(format!(
                "{}:33:5: [field-removed] Order/side",
                new.display()
            ))
            .and(predicate::str::contains(format!(
                "old: {} (Order/side)",
                sbeir.display()
            )))
            .and(predicate::str::contains("4 findings")),
        );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn against_compares_with_the_version_in_git() {
    let dir = std::env::temp_dir().join(format!("sable-compat-git-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .arg("-C")
            .arg(&dir)
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .status()
            .expect("git")
            .success();
        assert!(ok, "git {args:?}");
    };
    let schema = dir.join("schema.xml");
    git(&["init", "-q"]);
    std::fs::copy(pair("field-removed", "old"), &schema).expect("copy");
    git(&["add", "schema.xml"]);
    git(&["commit", "-q", "-m", "v1"]);
    std::fs::copy(pair("field-removed", "new"), &schema).expect("copy");
    sable()
        .args(["compat", "--against", "HEAD"])
        .arg(&schema)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("[field-removed]")
                .and(predicate::str::contains("schema.xml@HEAD:36:9")),
        );
    sable()
        .args(["compat", "--against", "no-such-ref"])
        .arg(&schema)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "git show no-such-ref:./schema.xml failed",
        ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn prove_shows_a_message_that_decodes_wrongly_or_that_all_read_back() {
    let run = |case: &str| {
        let mut cmd = sable();
        cmd.args(["compat", "--prove", "--prove-count", "30"])
            .arg(pair(case, "old"))
            .arg(pair(case, "new"));
        cmd
    };
    run("field-type-widened").assert().code(1).stdout(
        predicate::str::contains("proof backward Order (template 1): breaks, as judged")
            .and(predicate::str::contains("  bytes:   "))
            .and(predicate::str::contains("  written: {"))
            .and(predicate::str::contains("  read:    {")),
    );
    run("field-appended").assert().code(0).stdout(
        predicate::str::contains(
            "proof forward Order (template 1): 30 messages, every common field read back",
        )
        .and(predicate::str::contains("CONTRADICTS").not()),
    );
}

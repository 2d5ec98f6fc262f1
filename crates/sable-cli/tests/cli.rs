//! The `sable` binary end to end: arguments, exit statuses, output and diagnostics.
//!
//! Exit statuses: 0 success (warnings allowed), 1 schema errors (or warnings with
//! `--warnings-as-errors`) or unreadable input, 2 usage errors and commands not implemented yet.
//! `decode` and `encode` are tested in `otf.rs`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use sable_schema::{compile_file, Severity};

fn sable() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sable"))
}

/// `shared/schemas`, beside the repository root.
fn schemas() -> PathBuf {
    sable_testkit::shared_dir().join("schemas")
}

fn valid(name: &str) -> PathBuf {
    schemas().join("valid").join(name)
}

fn invalid(name: &str) -> PathBuf {
    schemas().join("invalid").join(name)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A path for a test's own file in a scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sable-cli-tests");
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The dump of a schema's IR, computed with the libraries directly.
fn library_dump(path: &Path) -> String {
    let ir = compile_file(path)
        .ir
        .unwrap_or_else(|| panic!("{} does not compile", path.display()));
    sable_ir::dump(&ir)
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("stdout is UTF-8")
}

fn stderr_text(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

/// What `sable check` must print on stderr for an XML schema: every diagnostic the library
/// reports, sorted by position, then the summary.
fn expected_check_stderr(path: &Path) -> (String, usize, usize) {
    let mut diagnostics = compile_file(path).diagnostics;
    diagnostics.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    let mut text = String::new();
    for d in &diagnostics {
        text.push_str(&format!("{d}\n"));
    }
    text.push_str(&format!(
        "{}, {}\n",
        plural(errors, "error"),
        plural(warnings, "warning")
    ));
    (text, errors, warnings)
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

// --- help and usage --------------------------------------------------------------------------

#[test]
fn help_lists_every_subcommand_and_the_global_flag() {
    sable().arg("--help").assert().success().stdout(
        predicate::str::contains("Usage: sable")
            .and(predicate::str::contains("ir "))
            .and(predicate::str::contains("check "))
            .and(predicate::str::contains("generate "))
            .and(predicate::str::contains("decode "))
            .and(predicate::str::contains("encode "))
            .and(predicate::str::contains("--warnings-as-errors"))
            .and(predicate::str::contains("Exit status")),
    );
}

#[test]
fn every_subcommand_has_help() {
    for (sub, mentions) in [
        (
            "ir",
            &[
                "SCHEMA",
                "--output",
                "--dump",
                "With neither, print the dump",
            ][..],
        ),
        ("check", &["SCHEMA", "N errors, M warnings"][..]),
        (
            "generate",
            &["--lang", "--output", "SCHEMA", "not implemented yet"][..],
        ),
        (
            "decode",
            &[
                "--schema",
                "--framing",
                "--format",
                "--pcap",
                "--template",
                "--limit",
                "FILE",
                "sofh",
                "mdp3",
                "u16le",
                "The input streams",
                "memory bounded",
                "--follow",
                "--max-message-size",
            ][..],
        ),
        (
            "encode",
            &[
                "--schema",
                "--framing",
                "--output",
                "FILE",
                "docs/json.md",
                "The input streams",
                "a live pipe sees each message at once",
                "--sofh-form",
                "0xCAFE",
            ][..],
        ),
    ] {
        let assert = sable().args([sub, "--help"]).assert().success();
        let out = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
        assert!(
            out.contains(&format!("Usage: sable {sub}")),
            "sable {sub} --help:\n{out}"
        );
        for m in mentions {
            assert!(out.contains(m), "sable {sub} --help lacks {m:?}:\n{out}");
        }
    }
    // `sable help SUB` too.
    sable()
        .args(["help", "ir"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Usage: sable ir"));
}

#[test]
fn version_is_printed() {
    sable()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("sable "));
}

#[test]
fn usage_errors_exit_2() {
    let example = valid("example-schema.xml");
    let cases: Vec<Vec<&std::ffi::OsStr>> = vec![
        vec![],
        vec!["frobnicate".as_ref()],
        vec!["--no-such-flag".as_ref()],
        vec!["ir".as_ref()],
        vec!["ir".as_ref(), "--bogus".as_ref(), example.as_os_str()],
        vec!["ir".as_ref(), example.as_os_str(), example.as_os_str()],
        vec!["check".as_ref()],
        vec!["ir".as_ref(), example.as_os_str(), "-o".as_ref()],
        vec!["generate".as_ref(), example.as_os_str()],
        vec!["decode".as_ref(), "--framing".as_ref(), "bogus".as_ref()],
        vec!["decode".as_ref(), "in.bin".as_ref()],
        vec![
            "decode".as_ref(),
            "--schema".as_ref(),
            example.as_os_str(),
            "--format".as_ref(),
            "yaml".as_ref(),
        ],
    ];
    for args in cases {
        sable().args(&args).assert().code(2).stdout("").stderr(
            predicate::str::starts_with("error: ")
                .or(predicate::str::contains("Usage: sable"))
                .and(predicate::str::contains("panicked").not()),
        );
    }
}

// --- ir ----------------------------------------------------------------------------------------

#[test]
fn ir_dump_of_the_example_schema() {
    let example = valid("example-schema.xml");
    let assert = sable()
        .arg("ir")
        .arg("--dump")
        .arg(&example)
        .assert()
        .success()
        .stderr("");
    let out = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        out.starts_with("SCHEMA package=baseline "),
        "unexpected dump:\n{out}"
    );
    assert!(
        out.contains("BEGIN_MESSAGE name=Car "),
        "no Car message:\n{out}"
    );
    assert_eq!(out, library_dump(&example));
}

#[test]
fn ir_prints_the_dump_when_given_neither_output_nor_dump() {
    let example = valid("example-schema.xml");
    let plain = stdout_of(sable().arg("ir").arg(&example));
    let dumped = stdout_of(sable().args(["ir", "--dump"]).arg(&example));
    assert_eq!(plain, dumped);
}

#[test]
fn the_bundled_car_example_is_the_example_schema() {
    let car = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/car.xml");
    let out = stdout_of(sable().arg("ir").arg(&car));
    assert_eq!(out, library_dump(&valid("example-schema.xml")));
}

#[test]
fn ir_output_then_dump_of_the_sbeir_matches_the_xml() {
    let example = valid("example-schema.xml");
    let sbeir = scratch("example.sbeir");
    sable()
        .arg("ir")
        .arg(&example)
        .arg("-o")
        .arg(&sbeir)
        .assert()
        .success()
        .stdout("")
        .stderr("");
    let bytes = std::fs::read(&sbeir).expect("the .sbeir file was written");
    assert!(!bytes.is_empty());

    let from_xml = stdout_of(sable().args(["ir", "--dump"]).arg(&example));
    let from_sbeir = stdout_of(sable().args(["ir", "--dump"]).arg(&sbeir));
    assert_eq!(from_sbeir, from_xml);

    // A .sbeir file under another name is recognised by its content.
    let renamed = scratch("example-sbeir.bin");
    std::fs::write(&renamed, &bytes).expect("write copy");
    assert_eq!(stdout_of(sable().arg("ir").arg(&renamed)), from_xml);

    // check, and writing a .sbeir from a .sbeir, take one too.
    sable()
        .arg("check")
        .arg(&sbeir)
        .assert()
        .success()
        .stderr("0 errors, 0 warnings\n");
    let again = scratch("example-again.sbeir");
    sable()
        .arg("ir")
        .arg(&sbeir)
        .arg("--output")
        .arg(&again)
        .assert()
        .success();
    assert_eq!(
        stdout_of(sable().args(["ir", "--dump"]).arg(&again)),
        from_xml
    );
}

#[test]
fn ir_output_and_dump_together_do_both() {
    let example = valid("example-schema.xml");
    let sbeir = scratch("both.sbeir");
    let out = stdout_of(
        sable()
            .arg("ir")
            .arg(&example)
            .arg("--dump")
            .arg("-o")
            .arg(&sbeir),
    );
    assert_eq!(out, library_dump(&example));
    assert_eq!(stdout_of(sable().arg("ir").arg(&sbeir)), out);
}

/// The dump of a schema's IR after a trip through `.sbeir`, computed with the libraries
/// directly. The format does not hold everything (see `sable_ir::sbeir`), so this may differ from
/// the XML's dump.
fn library_sbeir_dump(path: &Path) -> String {
    let ir = compile_file(path)
        .ir
        .unwrap_or_else(|| panic!("{} does not compile", path.display()));
    let back = sable_ir::sbeir::read(&sable_ir::sbeir::write(&ir))
        .unwrap_or_else(|e| panic!("{}: cannot read back its .sbeir: {e}", path.display()));
    sable_ir::dump(&back)
}

#[test]
fn every_valid_schema_goes_through_sbeir_files_as_through_the_library() {
    for (i, file) in sable_testkit::valid_schemas().iter().enumerate() {
        let sbeir = scratch(&format!("valid-{i}.sbeir"));
        let from_xml = stdout_of(
            sable()
                .arg("ir")
                .arg(file)
                .arg("--dump")
                .arg("-o")
                .arg(&sbeir),
        );
        assert_eq!(from_xml, library_dump(file), "{}", file.display());
        let bytes = std::fs::read(&sbeir).expect("the .sbeir file was written");
        let ir = compile_file(file).ir.expect("compiles");
        assert!(bytes == sable_ir::sbeir::write(&ir), "{}", file.display());
        let from_sbeir = stdout_of(sable().arg("ir").arg(&sbeir));
        assert_eq!(from_sbeir, library_sbeir_dump(file), "{}", file.display());
    }
}

#[test]
fn xincludes_resolve_relative_to_the_schema_not_the_working_directory() {
    let schema = valid("sub/basic-schema.xml");
    let out = stdout_of(
        sable()
            .current_dir(env!("CARGO_TARGET_TMPDIR"))
            .arg("ir")
            .arg(&schema),
    );
    assert_eq!(out, library_dump(&schema));
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let example = valid("example-schema.xml");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(std::fs::read(&example).expect("read example"));
    let with_bom = scratch("bom.xml");
    std::fs::write(&with_bom, bytes).expect("write");
    assert_eq!(
        stdout_of(sable().arg("ir").arg(&with_bom)),
        library_dump(&example)
    );
}

// --- errors and warnings -----------------------------------------------------------------------

#[test]
fn invalid_schemas_exit_1_with_every_diagnostic_located_and_sorted() {
    for file in sable_testkit::invalid_schemas() {
        let (expected, errors, _) = expected_check_stderr(&file);
        if errors == 0 {
            continue; // warning-only: see the warning tests
        }
        let assert = sable().arg("check").arg(&file).assert().code(1).stdout("");
        let stderr = stderr_text(&assert);
        assert_eq!(stderr, expected, "{}", file.display());

        // Every diagnostic is FILE:LINE:COLUMN: error|warning: ..., in position order.
        let prefix = format!("{}:", file.display());
        let mut last = (0u32, 0u32);
        let mut located = 0;
        for line in stderr.lines() {
            if line.starts_with("  help: ")
                || line.ends_with(" warnings")
                || line.ends_with(" warning")
            {
                continue;
            }
            let rest = line
                .strip_prefix(&prefix)
                .unwrap_or_else(|| panic!("not located in {}: {line}", file.display()));
            let mut parts = rest.splitn(3, ':');
            let l: u32 = parts.next().and_then(|s| s.parse().ok()).expect("line");
            let c: u32 = parts.next().and_then(|s| s.parse().ok()).expect("column");
            let tail = parts.next().expect("message");
            assert!(
                tail.starts_with(" error: ") || tail.starts_with(" warning: "),
                "{line}"
            );
            assert!(l > 0 && c > 0, "no position: {line}");
            assert!((l, c) >= last, "not sorted: {line}");
            last = (l, c);
            located += 1;
        }
        assert!(located >= errors, "{}", file.display());

        // `ir` fails the same way, prints no IR and writes no file.
        let sbeir = scratch("invalid.sbeir");
        sable()
            .arg("ir")
            .arg(&file)
            .arg("-o")
            .arg(&sbeir)
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(": error: "));
        assert!(
            !sbeir.exists(),
            "{}: wrote IR despite errors",
            file.display()
        );
    }
}

#[test]
fn check_summarises_errors_and_warnings() {
    sable()
        .arg("check")
        .arg(invalid("error-handler-since-version.xml"))
        .assert()
        .code(1)
        .stderr(predicate::str::ends_with("\n5 errors, 0 warnings\n"));
    sable()
        .arg("check")
        .arg(invalid(
            "error-handler-enum-violates-min-max-value-range.xml",
        ))
        .assert()
        .code(1)
        .stderr(predicate::str::ends_with("\n4 errors, 0 warnings\n"));
    sable()
        .arg("check")
        .arg(valid("example-schema.xml"))
        .assert()
        .success()
        .stdout("")
        .stderr("0 errors, 0 warnings\n");
}

#[test]
fn warnings_pass_unless_warnings_are_errors() {
    let schema = invalid("error-handler-invalid-name.xml");
    let (expected, errors, warnings) = expected_check_stderr(&schema);
    assert_eq!((errors, warnings), (0, 4), "{expected}");

    sable()
        .arg("check")
        .arg(&schema)
        .assert()
        .success()
        .stderr(expected.clone());
    sable()
        .arg("--warnings-as-errors")
        .arg("check")
        .arg(&schema)
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains(": warning: ").and(predicate::str::ends_with(
                "0 errors, 4 warnings (warnings are errors: --warnings-as-errors)\n",
            )),
        );

    // ir: these warnings are about names in generated code, which do not concern the IR: it
    // neither prints nor counts them, with --warnings-as-errors in either position too.
    // (a_warning_only_duplicate_type_fails_only_with_warnings_as_errors has ir failing on one.)
    sable()
        .arg("ir")
        .arg(&schema)
        .assert()
        .success()
        .stdout(library_dump(&schema))
        .stderr("");
    for args in [
        &["--warnings-as-errors", "ir"][..],
        &["ir", "--warnings-as-errors"][..],
    ] {
        let sbeir = scratch("warned.sbeir");
        sable()
            .args(args)
            .arg(&schema)
            .arg("-o")
            .arg(&sbeir)
            .assert()
            .success()
            .stdout("")
            .stderr("");
        assert!(sbeir.exists());
    }
}

#[test]
fn a_warning_only_duplicate_type_fails_only_with_warnings_as_errors() {
    let schema = fixture("duplicate-type-warning.xml");
    let warning = format!(
        "{}:12:15: warning: <type name=\"Quantity\">: ",
        schema.display()
    );
    sable().arg("check").arg(&schema).assert().success().stderr(
        predicate::str::starts_with(warning.clone())
            .and(predicate::str::ends_with("0 errors, 1 warning\n")),
    );
    sable()
        .args(["check", "--warnings-as-errors"])
        .arg(&schema)
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with(warning));
    sable().arg("ir").arg(&schema).assert().success();
    sable()
        .args(["ir", "--warnings-as-errors"])
        .arg(&schema)
        .assert()
        .code(1)
        .stdout("");
}

#[test]
fn shared_duplicate_type_schema_warns_and_fails_with_warnings_as_errors() {
    // The README lists one warning for this schema (a duplicate type name). It also has no
    // message header type, which fails it on its own when the header is checked; so the exit
    // status without the flag follows what the library reports.
    let schema = invalid("error-handler-types-dup-schema.xml");
    let (expected, errors, warnings) = expected_check_stderr(&schema);
    assert_eq!(warnings, 1, "{expected}");
    let warning = format!(
        "{}:10:15: warning: <type name=\"TypeToTest\">: ",
        schema.display()
    );
    assert!(expected.contains(&warning), "{expected}");

    sable()
        .args(["--warnings-as-errors", "check"])
        .arg(&schema)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(warning.clone()));
    sable()
        .arg("check")
        .arg(&schema)
        .assert()
        .code(if errors == 0 { 0 } else { 1 })
        .stderr(expected);
}

// --- bad input ---------------------------------------------------------------------------------

#[test]
fn unreadable_files_exit_1_naming_the_file() {
    let missing = scratch("does-not-exist.xml");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    for path in [&missing, &dir] {
        for sub in ["ir", "check"] {
            sable()
                .arg(sub)
                .arg(path)
                .assert()
                .code(1)
                .stdout("")
                .stderr(predicate::str::starts_with(format!(
                    "sable: cannot read {}: ",
                    path.display()
                )));
        }
    }
}

#[test]
fn garbage_never_panics_and_exits_1_naming_the_file() {
    let sbeir = scratch("garbage-source.sbeir");
    sable()
        .arg("ir")
        .arg(valid("example-schema.xml"))
        .arg("-o")
        .arg(&sbeir)
        .assert()
        .success();
    let good = std::fs::read(&sbeir).expect("read .sbeir");

    let mut cases: Vec<(String, Vec<u8>)> = vec![
        ("empty.xml".into(), vec![]),
        ("empty.sbeir".into(), vec![]),
        ("blank.xml".into(), b"  \n\t\n".to_vec()),
        ("hello.txt".into(), b"hello, world\n".to_vec()),
        (
            "binary.bin".into(),
            vec![0xff, 0xfe, 0x00, 0x80, 0x81, 0x01],
        ),
        ("binary.sbeir".into(), vec![0xff; 64]),
        (
            "truncated.xml".into(),
            b"<?xml version=\"1.0\"?><messageSchema package=\"x\"".to_vec(),
        ),
        (
            "not-utf8.xml".into(),
            b"<messageSchema package=\"\xff\xfe\"/>".to_vec(),
        ),
        ("wrong-root.xml".into(), b"<html><body/></html>".to_vec()),
        ("sbeir-named.xml".into(), b"\x00\x01\x02".to_vec()),
    ];
    for cut in [1, 2, 4, 8, 16, good.len() / 2, good.len() - 1] {
        cases.push((format!("cut-{cut}.sbeir"), good[..cut].to_vec()));
    }
    let mut flipped = good.clone();
    for b in flipped.iter_mut().step_by(7) {
        *b ^= 0x5a;
    }
    cases.push(("flipped.sbeir".into(), flipped));

    for (name, bytes) in cases {
        let path = scratch(&format!("garbage-{name}"));
        std::fs::write(&path, &bytes).expect("write garbage");
        for sub in ["ir", "check"] {
            let assert = sable().arg(sub).arg(&path).assert();
            let stderr = stderr_text(&assert);
            assert!(!stderr.contains("panicked"), "{name}: {stderr}");
            assert.code(1).stdout("");
            assert!(
                stderr.contains(&path.display().to_string()),
                "{name}: the message does not name the file: {stderr}"
            );
        }
    }
}

#[test]
fn failing_to_write_the_output_exits_1_naming_the_file() {
    let out = scratch("no-such-dir").join("x.sbeir");
    sable()
        .arg("ir")
        .arg(valid("example-schema.xml"))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with(format!(
            "sable: cannot write {}: ",
            out.display()
        )));
}

// --- size limits (issue 13, item 3) ------------------------------------------------------------

#[test]
fn an_endless_schema_is_cut_off_at_the_size_limit() {
    let expected =
        "sable: /dev/zero: larger than the 64 MiB limit (--max-schema-size to raise it)\n";
    sable()
        .args(["check", "/dev/zero"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(expected);
    sable()
        .args(["decode", "--schema", "/dev/zero", "/dev/null"])
        .assert()
        .code(1)
        .stderr(expected);
    sable()
        .args(["encode", "--schema", "/dev/zero", "/dev/null"])
        .assert()
        .code(1)
        .stderr(expected);
}

#[test]
fn max_schema_size_lowers_and_raises_the_limit() {
    let example = valid("example-schema.xml");
    sable()
        .args(["--max-schema-size", "1K", "check"])
        .arg(&example)
        .assert()
        .code(1)
        .stderr(format!(
            "sable: {}: larger than the 1 KiB limit (--max-schema-size to raise it)\n",
            example.display()
        ));
    sable()
        .args(["check", "--max-schema-size", "1M"])
        .arg(&example)
        .assert()
        .success();
    sable()
        .args(["--max-schema-size", "lots", "check"])
        .arg(&example)
        .assert()
        .code(2);
    sable().arg("--help").assert().success().stdout(
        predicate::str::contains("--max-schema-size <SIZE>")
            .and(predicate::str::contains("[default: 64M]"))
            .and(predicate::str::contains("--quiet")),
    );
}

/// A copy of example-schema.xml whose types include `href`, in `dir`.
fn schema_including(dir: &sable_testkit::ScratchDir, href: &str) -> PathBuf {
    let text = std::fs::read_to_string(valid("example-schema.xml")).expect("read example");
    let text = text
        .replacen(
            "<sbe:messageSchema ",
            "<sbe:messageSchema xmlns:xi=\"http://www.w3.org/2001/XInclude\" ",
            1,
        )
        .replacen(
            "<types>",
            &format!("<xi:include href=\"{href}\"/>\n    <types>"),
            1,
        );
    let path = dir.join("including.xml");
    std::fs::write(&path, text).expect("write schema");
    path
}

#[test]
fn devices_and_fifos_are_refused_as_xincludes_at_the_include() {
    let dir = sable_testkit::ScratchDir::new("cli-xinclude-special");
    let fifo = dir.join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo")
        .success());
    for (href, what) in [("/dev/zero", "a character device"), ("fifo", "a FIFO")] {
        let schema = schema_including(&dir, href);
        let assert = sable().arg("check").arg(&schema).assert().code(1);
        let stderr = stderr_text(&assert);
        assert!(
            stderr.starts_with(&format!("{}:", schema.display()))
                && stderr.contains("error: <xi:include>: cannot read included file")
                && stderr.contains(&format!("not a regular file but {what}")),
            "{href}: {stderr}"
        );
    }
}

// --- messages (issue 13, item 8) ---------------------------------------------------------------

#[test]
fn naming_warnings_show_in_check_and_generate_only_and_quiet_hides_warnings() {
    let schema = valid("code-generation-schema.xml");
    let warns = predicate::str::contains("warning:");
    sable()
        .arg("check")
        .arg(&schema)
        .assert()
        .success()
        .stderr(warns.clone());
    sable().arg("ir").arg(&schema).assert().success().stderr("");
    sable()
        .args(["encode", "--schema"])
        .arg(&schema)
        .write_stdin("{\"message\":\"NoSuchMessage\"}\n")
        .assert()
        .code(1)
        .stderr(
            predicate::str::starts_with("sable: <stdin>:1: message: no message named")
                .and(warns.clone().not()),
        );
    sable()
        .args(["decode", "--schema"])
        .arg(&schema)
        .write_stdin(Vec::new())
        .assert()
        .success()
        .stderr("");
    // --quiet: warnings gone from check, the summary and errors kept.
    let (_, _, warnings) = expected_check_stderr(&schema);
    sable()
        .args(["check", "--quiet"])
        .arg(&schema)
        .assert()
        .success()
        .stderr(format!("0 errors, {warnings} warnings\n"));
    let bad = invalid("error-handler-types-dup-schema.xml");
    let (expected, _, _) = expected_check_stderr(&bad);
    let errors_only: String = expected
        .split_inclusive('\n')
        .filter(|l| !l.contains(": warning: "))
        .collect::<Vec<_>>()
        .join("");
    let quiet = sable().args(["-q", "check"]).arg(&bad).assert();
    let stderr = stderr_text(&quiet);
    assert!(!stderr.contains(": warning: "), "{stderr}");
    assert!(stderr.contains(": error: "), "{stderr}");
    assert_eq!(
        stderr.lines().filter(|l| l.contains(": error: ")).count(),
        errors_only
            .lines()
            .filter(|l| l.contains(": error: "))
            .count()
    );
}

#[test]
fn a_schema_that_is_neither_xml_nor_sbeir_says_what_it_looks_like() {
    let expected =
        "expected an SBE XML schema (UTF-8 text) or a .sbeir file (as `sable ir -o` writes)";
    let utf16: Vec<u8> = "\u{feff}<?xml version=\"1.0\"?><messageSchema/>"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let random: Vec<u8> = (0u32..256)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    for (name, bytes, looks) in [
        ("empty.xml", Vec::new(), "empty"),
        ("utf16.xml", utf16, "starts with a UTF-16 byte order mark"),
        (
            "utf16-nobom.xml",
            b"<\0?\0x\0m\0l\0".to_vec(),
            "looks like UTF-16 text without a byte order mark",
        ),
        (
            "random.bin",
            random,
            "binary data that is not a .sbeir file",
        ),
        (
            "text.txt",
            b"hello, world\n".to_vec(),
            "text that is not XML (it starts with \"hello, world\")",
        ),
    ] {
        let path = scratch(&format!("neither-{name}"));
        std::fs::write(&path, bytes).expect("write");
        sable().arg("check").arg(&path).assert().code(1).stderr(
            predicate::str::starts_with(format!("sable: {}: {looks}", path.display()))
                .and(predicate::str::contains(expected)),
        );
    }
}

#[test]
fn a_dash_reads_the_schema_from_standard_input() {
    let example = valid("example-schema.xml");
    let text = std::fs::read(&example).expect("read example");
    sable()
        .args(["check", "-"])
        .write_stdin(text.clone())
        .assert()
        .success()
        .stderr("0 errors, 0 warnings\n");
    let dump = sable()
        .args(["ir", "-"])
        .write_stdin(text.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(dump).unwrap(), library_dump(&example));
    let out = sable_testkit::ScratchDir::new("cli-generate-stdin");
    sable()
        .args(["generate", "--lang", "rust", "--output"])
        .arg(out.path())
        .arg("-")
        .write_stdin(text.clone())
        .assert()
        .success();
    assert!(out.join("baseline.rs").exists());
    // Diagnostics name <stdin>; XIncludes resolve from the current directory.
    sable()
        .args(["check", "-"])
        .write_stdin("<messageSchema")
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with("<stdin>:1:"));
    let dir = sable_testkit::ScratchDir::new("cli-stdin-include");
    std::fs::write(
        dir.join("types.xml"),
        "<types><type name=\"Extra\" primitiveType=\"int8\"/></types>",
    )
    .expect("write include");
    let including = String::from_utf8(text)
        .unwrap()
        .replacen(
            "<sbe:messageSchema ",
            "<sbe:messageSchema xmlns:xi=\"http://www.w3.org/2001/XInclude\" ",
            1,
        )
        .replacen("<types>", "<xi:include href=\"types.xml\"/><types>", 1);
    sable()
        .current_dir(dir.path())
        .args(["ir", "-"])
        .write_stdin(including.clone())
        .assert()
        .success()
        .stderr("");
    // Elsewhere, the same include is not found.
    sable()
        .args(["check", "-"])
        .write_stdin(including.clone())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "cannot read included file types.xml",
        ));
    // The schema and the messages cannot both be standard input.
    for sub in ["decode", "encode"] {
        for input in [None, Some("-")] {
            let mut cmd = sable();
            cmd.args([sub, "--schema", "-"]).args(input);
            cmd.write_stdin(Vec::new()).assert().code(2).stderr(
                "sable: --schema - and the messages cannot both come from standard input: \
                 give the messages as a FILE\n",
            );
        }
    }
    let empty = scratch("no-messages.bin");
    std::fs::write(&empty, b"").expect("write");
    sable()
        .args(["decode", "--schema", "-"])
        .arg(&empty)
        .write_stdin(std::fs::read(&example).unwrap())
        .assert()
        .success();
}

#[test]
fn every_line_sable_writes_to_stderr_starts_with_sable_or_a_diagnostic_position() {
    let example = valid("example-schema.xml");
    let missing = scratch("convention-missing.xml");
    let empty = scratch("convention-empty.xml");
    std::fs::write(&empty, b"").expect("write");
    let bad = invalid("error-handler-types-dup-schema.xml");
    let file = scratch("convention-file");
    std::fs::write(&file, b"").expect("write");
    let garbage = scratch("convention-garbage.bin");
    std::fs::write(&garbage, [0x03, 0, 0, 0, 0xff, 0xff]).expect("write");
    let runs: Vec<(Vec<std::ffi::OsString>, &[u8])> = vec![
        (vec!["check".into(), missing.clone().into()], b""),
        (vec!["ir".into(), empty.clone().into()], b""),
        (
            vec![
                "--warnings-as-errors".into(),
                "ir".into(),
                bad.clone().into(),
            ],
            b"",
        ),
        (
            vec![
                "generate".into(),
                "--lang".into(),
                "rust".into(),
                "--output".into(),
                file.clone().into(),
                example.clone().into(),
            ],
            b"",
        ),
        (
            vec![
                "generate".into(),
                "--lang".into(),
                "go".into(),
                "--output".into(),
                file.clone().into(),
                example.clone().into(),
            ],
            b"",
        ),
        (
            vec!["decode".into(), "--schema".into(), example.clone().into()],
            &[1, 2, 3],
        ),
        (
            vec![
                "decode".into(),
                "--schema".into(),
                example.clone().into(),
                garbage.clone().into(),
            ],
            b"",
        ),
        (
            vec!["encode".into(), "--schema".into(), example.clone().into()],
            b"{}\nnot json\n",
        ),
        (
            vec!["decode".into(), "--schema".into(), garbage.clone().into()],
            b"",
        ),
    ];
    let diagnostic = |line: &str| {
        // FILE:LINE:COLUMN: error|warning: ..., or its help line.
        line.starts_with("  help: ")
            || line.split(": ").nth(1).is_some_and(|level| {
                (level == "error" || level == "warning")
                    && line.split(": ").next().is_some_and(|place| {
                        let mut parts = place.rsplitn(3, ':');
                        parts.next().is_some_and(|c| c.parse::<u32>().is_ok())
                            && parts.next().is_some_and(|l| l.parse::<u32>().is_ok())
                    })
            })
    };
    for (args, stdin) in runs {
        let output = sable()
            .args(&args)
            .write_stdin(stdin.to_vec())
            .output()
            .expect("run sable");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!stderr.is_empty(), "{args:?}: no message");
        assert!(!output.status.success(), "{args:?}");
        for line in stderr.lines() {
            assert!(
                line.starts_with("sable: ") || diagnostic(line),
                "{args:?}: a line in another form: {line:?}\n{stderr}"
            );
        }
    }
}

//! The Rust generator lays its output out itself (as the Java and C++ generators do), without
//! rustfmt: every line indented by the blocks open before it, and rustfmt left little to change.

use std::io::Write as _;
use std::process::{Command, Stdio};

use sable_codegen::rust;
use sable_testkit::repo_root;

/// The golden files' schemas (tests/golden.rs).
const SCHEMAS: [&str; 3] = [
    "examples/car.xml",
    "conformance/schemas/structure.xml",
    "../shared/schemas/valid/example-bigendian-test-schema.xml",
];

fn generated() -> Vec<(&'static str, String)> {
    let root = repo_root();
    SCHEMAS
        .iter()
        .map(|schema| {
            let ir = sable_schema::compile_file(&root.join(schema))
                .ir
                .unwrap_or_else(|| panic!("{schema} does not compile"));
            (*schema, rust::generate(&ir))
        })
        .collect()
}

/// For each line, the indentation rustfmt gives it: a line starting with closing brackets
/// that of the line which opened the last of them; else four spaces more than the line which
/// opened the innermost bracket still open (none: no indentation), four more again for a method
/// chain's next call or an expression continued after `=`. Strings, characters and comments
/// are skipped. Panics on unbalanced brackets.
fn expected_indents(text: &str) -> Vec<usize> {
    // Each open bracket, with the line it opened on.
    let mut open: Vec<(char, usize)> = Vec::new();
    let mut indents: Vec<usize> = Vec::new();
    let mut previous = "";
    for (n, line) in text.lines().enumerate() {
        let body = line.trim_start();
        let chars: Vec<char> = body.chars().collect();
        let mut i = 0;
        let mut closed = None;
        while let Some(&c) = chars.get(i) {
            if !matches!(c, '}' | ')' | ']') {
                break;
            }
            closed = Some(close(&mut open, c, n));
            i += 1;
        }
        let continued = (body.starts_with('.') && !body.starts_with(".."))
            || previous.trim_end().ends_with(" =");
        let indent = match (closed, open.last()) {
            _ if body.is_empty() => 0,
            (Some(opener), _) => indents[opener],
            (None, Some(&(_, opener))) => indents[opener] + 4,
            (None, None) => 0,
        };
        indents.push(indent + 4 * usize::from(continued));
        previous = line;
        while let Some(&c) = chars.get(i) {
            match c {
                '/' if chars.get(i + 1) == Some(&'/') => break,
                '"' => i = skip_quoted(&chars, i, '"'),
                // A character literal (`'{'`, `'\n'`); else a lifetime (`'a`).
                '\'' if chars.get(i + 1) == Some(&'\\') || chars.get(i + 2) == Some(&'\'') => {
                    i = skip_quoted(&chars, i, '\'');
                }
                '{' | '(' | '[' => open.push((c, n)),
                '}' | ')' | ']' => {
                    close(&mut open, c, n);
                }
                _ => {}
            }
            i += 1;
        }
    }
    assert!(open.is_empty(), "brackets left open: {open:?}");
    indents
}

/// Closes the innermost bracket with `c`; the line it opened on.
fn close(open: &mut Vec<(char, usize)>, c: char, line: usize) -> usize {
    let want = match c {
        '}' => '{',
        ')' => '(',
        _ => '[',
    };
    match open.pop() {
        Some((o, opener)) if o == want => opener,
        other => panic!("line {}: `{c}` closes {other:?}", line + 1),
    }
}

/// The index of the quote ending the literal that starts at `start`.
fn skip_quoted(chars: &[char], start: usize, quote: char) -> usize {
    let mut i = start + 1;
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => i += 2,
            c if c == quote => return i,
            _ => i += 1,
        }
    }
    panic!("unterminated literal: {}", chars.iter().collect::<String>());
}

#[test]
fn every_line_is_indented_by_its_blocks() {
    for (schema, text) in generated() {
        let wrong: Vec<String> = text
            .lines()
            .zip(expected_indents(&text))
            .enumerate()
            .filter(|(_, (line, indent))| line.len() - line.trim_start().len() != *indent)
            .map(|(n, (line, indent))| format!("{}: want {indent} spaces: {line}", n + 1))
            .collect();
        assert!(
            wrong.is_empty(),
            "{schema}: {} lines not indented by their blocks, e.g.\n{}",
            wrong.len(),
            wrong[..wrong.len().min(20)].join("\n")
        );
        assert!(
            !text.contains("\n\n\n"),
            "{schema}: two blank lines in a row"
        );
    }
}

#[test]
fn the_checker_finds_the_old_unindented_layout() {
    let old = "impl A {\npub fn f(&self) -> u8 { match self.x { _ => 0 } }\n}\n";
    assert_eq!(expected_indents(old), [0, 4, 0]);
    let strings = "f(\"{\", '}', b\"(\\\"\")\nx::<'a>(y)\n";
    assert_eq!(expected_indents(strings), [0, 0]);
}

/// rustfmt (the toolchain's, edition 2021) over `text`.
fn rustfmt(text: &str) -> String {
    let mut child = Command::new(std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into()))
        .args(["--edition", "2021", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rustfmt runs (it comes with the Rust toolchain)");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = text.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("rustfmt output");
    writer.join().expect("writer").expect("written");
    assert!(out.status.success(), "rustfmt failed");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The length of the longest common subsequence of `a` and `b`: the lines a diff keeps.
fn common_lines(a: &[&str], b: &[&str]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// rustfmt keeps at least 95 % of the lines as generated: what it still changes is lines
/// longer than its 100 columns, which it wraps (and two short arrays it joins).
#[test]
fn rustfmt_changes_few_lines() {
    for (schema, text) in generated() {
        let formatted = rustfmt(&text);
        let ours: Vec<&str> = text.lines().collect();
        let theirs: Vec<&str> = formatted.lines().collect();
        let total = ours.len();
        let changed = total - common_lines(&ours, &theirs);
        assert!(
            changed * 20 <= total,
            "{schema}: rustfmt changes {changed} of {total} lines"
        );
    }
}

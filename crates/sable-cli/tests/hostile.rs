//! The hostile-input suite: `sable` run on generated hostile schemas and IR files, under a
//! memory limit and a timeout, by every subcommand that takes a schema.
//!
//! Each run must end by itself (no panic, no signal, within the time limit) with exit status 1
//! or 2 and a diagnostic on stderr. Mutated inputs (random edits of a valid schema or IR file)
//! may still be valid, so for them exit status 0 is allowed too; everything else is asserted.
//! The mutations are seeded, so every run tests the same inputs.

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sable_testkit::{run_parallel, ScratchDir};

/// The address space each run may use.
const MEMORY_LIMIT: &str = "--as=1073741824";
/// How long each run may take.
const TIME_LIMIT: Duration = Duration::from_secs(20);

fn car_xml() -> PathBuf {
    sable_testkit::repo_root().join("examples/car.xml")
}

fn car_jsonl() -> PathBuf {
    sable_testkit::repo_root().join("examples/car.jsonl")
}

/// How a run ended.
struct Run {
    code: Option<i32>,
    signal: Option<i32>,
    timed_out: bool,
    stdout: String,
    stderr: String,
}

/// Runs `sable args` under the memory limit and the timeout.
fn run(args: &[&std::ffi::OsStr], dir: &Path) -> Run {
    let mut child = Command::new("prlimit")
        .arg(MEMORY_LIMIT)
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_sable"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run prlimit (util-linux)");
    // Drain the pipes on their own threads so that a chatty child cannot block on them.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for sable") {
            break status;
        }
        if started.elapsed() > TIME_LIMIT {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("wait for sable");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        code: status.code(),
        signal: status.signal(),
        timed_out,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

/// Whether exit status 0 is acceptable for an input.
#[derive(Clone, Copy, PartialEq)]
enum Expect {
    /// Invalid for sure: exit status 1 or 2 with a diagnostic.
    Refused,
    /// A random edit of a valid input, which may still be valid.
    MaybeValid,
}

/// One hostile input: a file in the scratch directory.
struct Case {
    name: String,
    file: PathBuf,
    expect: Expect,
}

/// Runs every subcommand that takes a schema on `case`; returns what went wrong.
fn check_case(case: &Case, dir: &Path, messages: &Path) -> Vec<String> {
    let out = dir.join(format!("{}.out", case.name));
    let _ = std::fs::create_dir_all(&out);
    let schema = case.file.as_os_str();
    let sbeir = out.join("out.sbeir");
    let encoded = out.join("out.bin");
    let jsonl = car_jsonl();
    let commands: Vec<Vec<&std::ffi::OsStr>> = vec![
        vec!["check".as_ref(), schema],
        vec!["ir".as_ref(), schema],
        vec!["ir".as_ref(), schema, "-o".as_ref(), sbeir.as_os_str()],
        vec![
            "generate".as_ref(),
            "--lang".as_ref(),
            "java".as_ref(),
            "--output".as_ref(),
            out.as_os_str(),
            schema,
        ],
        vec![
            "generate".as_ref(),
            "--lang".as_ref(),
            "cpp".as_ref(),
            "--output".as_ref(),
            out.as_os_str(),
            schema,
        ],
        vec![
            "generate".as_ref(),
            "--lang".as_ref(),
            "rust".as_ref(),
            "--output".as_ref(),
            out.as_os_str(),
            schema,
        ],
        vec![
            "decode".as_ref(),
            "--schema".as_ref(),
            schema,
            messages.as_os_str(),
        ],
        vec![
            "encode".as_ref(),
            "--schema".as_ref(),
            schema,
            jsonl.as_os_str(),
            "-o".as_ref(),
            encoded.as_os_str(),
        ],
    ];
    let mut problems = Vec::new();
    for args in &commands {
        let r = run(args, dir);
        let what = format!(
            "{}: sable {}",
            case.name,
            args.iter()
                .take(4)
                .map(|a| a.to_string_lossy())
                .collect::<Vec<_>>()
                .join(" ")
        );
        let first_line = r.stderr.lines().next().unwrap_or_default().to_owned();
        if r.timed_out {
            problems.push(format!("{what}: still running after {TIME_LIMIT:?}"));
        } else if let Some(signal) = r.signal {
            problems.push(format!("{what}: killed by signal {signal}: {first_line}"));
        } else if r.stderr.contains("panicked at") {
            problems.push(format!("{what}: panicked: {}", r.stderr.trim()));
        } else if r.stderr.contains("memory allocation") {
            problems.push(format!("{what}: ran out of memory: {first_line}"));
        } else if r.stdout.contains("root:x:0") || r.stderr.contains("root:x:0") {
            problems.push(format!("{what}: read /etc/passwd"));
        } else {
            let refused = matches!(r.code, Some(1 | 2)) && !r.stderr.trim().is_empty();
            let ok = r.code == Some(0) && case.expect == Expect::MaybeValid;
            if !(refused || ok) {
                problems.push(format!(
                    "{what}: exit status {:?}, stderr {:?}",
                    r.code, first_line
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    problems
}

/// Runs every case and fails with the list of what went wrong.
fn check_all(dir: &ScratchDir, cases: &[Case]) {
    let messages = dir.join("car-messages.bin");
    if !messages.exists() {
        let encoded = Command::new(env!("CARGO_BIN_EXE_sable"))
            .arg("encode")
            .arg("--schema")
            .arg(car_xml())
            .arg(car_jsonl())
            .arg("-o")
            .arg(&messages)
            .status()
            .expect("encode the Car messages");
        assert!(encoded.success());
    }
    let problems: Vec<String> = run_parallel(cases, |case| check_case(case, dir.path(), &messages))
        .into_iter()
        .flatten()
        .collect();
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

fn case(dir: &ScratchDir, name: &str, bytes: impl AsRef<[u8]>, expect: Expect) -> Case {
    let file = dir.join(name);
    std::fs::write(&file, bytes).expect("write case");
    Case {
        name: name.to_owned(),
        file,
        expect,
    }
}

/// A schema with the standard header and var-data types, `types` and `messages`.
fn schema(types: &str, messages: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   xmlns:xi="http://www.w3.org/2001/XInclude" package="hostile" id="1" version="0">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
        <composite name="groupSizeEncoding">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="numInGroup" primitiveType="uint16"/>
        </composite>
{types}
    </types>
{messages}
</sbe:messageSchema>
"#
    )
}

/// A message `M` with one field of type `ty`.
fn message_using(ty: &str) -> String {
    format!(
        "    <sbe:message name=\"M\" id=\"1\">\n        \
         <field name=\"f\" id=\"1\" type=\"{ty}\"/>\n    </sbe:message>"
    )
}

/// Composites C0 .. C{depth}, each holding a ref to the next.
fn ref_chain(depth: usize, used: bool) -> String {
    let mut types = String::with_capacity(depth * 90);
    for i in 0..depth {
        types.push_str(&format!(
            "<composite name=\"C{i}\"><ref name=\"r\" type=\"C{}\"/></composite>\n",
            i + 1
        ));
    }
    types.push_str(&format!(
        "<composite name=\"C{depth}\"><type name=\"v\" primitiveType=\"int8\"/></composite>\n"
    ));
    let messages = if used {
        message_using("C0")
    } else {
        message_using("int8")
    };
    schema(&types, &messages)
}

#[test]
fn deep_ref_chains_and_ref_bombs() {
    let dir = ScratchDir::new("hostile-refs");
    // Ten refs per level, ten levels: 10^10 members if expanded.
    let mut bomb = String::new();
    for level in 0..10 {
        let refs: String = (0..10)
            .map(|i| format!("<ref name=\"r{i}\" type=\"L{}\"/>", level + 1))
            .collect();
        bomb.push_str(&format!(
            "<composite name=\"L{level}\">{refs}</composite>\n"
        ));
    }
    bomb.push_str(
        "<composite name=\"L10\"><type name=\"v\" primitiveType=\"int64\"/></composite>\n",
    );
    let cases = [
        case(
            &dir,
            "refs-4000.xml",
            ref_chain(4000, false),
            Expect::Refused,
        ),
        case(
            &dir,
            "refs-4000-used.xml",
            ref_chain(4000, true),
            Expect::Refused,
        ),
        case(
            &dir,
            "refs-100000.xml",
            ref_chain(100_000, false),
            Expect::Refused,
        ),
        case(
            &dir,
            "ref-bomb.xml",
            schema(&bomb, &message_using("L0")),
            Expect::Refused,
        ),
        case(
            &dir,
            "ref-cycle.xml",
            schema(
                "<composite name=\"A\"><ref name=\"b\" type=\"B\"/></composite>\n\
                 <composite name=\"B\"><ref name=\"a\" type=\"A\"/></composite>",
                &message_using("A"),
            ),
            Expect::Refused,
        ),
    ];
    check_all(&dir, &cases);
}

#[test]
fn deep_nesting() {
    let dir = ScratchDir::new("hostile-nesting");
    let deep_elements = schema(
        &format!("{}{}", "<x>".repeat(100_000), "</x>".repeat(100_000)),
        &message_using("int8"),
    );
    let mut groups = String::new();
    for i in 0..200 {
        groups.push_str(&format!(
            "<group name=\"g{i}\" id=\"{}\" dimensionType=\"groupSizeEncoding\">",
            i + 10
        ));
    }
    groups.push_str(&"</group>".repeat(200));
    let deep_groups = schema(
        "",
        &format!("<sbe:message name=\"M\" id=\"1\">{groups}</sbe:message>"),
    );
    let cases = [
        case(&dir, "elements-100000.xml", deep_elements, Expect::Refused),
        case(&dir, "groups-200.xml", deep_groups, Expect::Refused),
    ];
    check_all(&dir, &cases);
}

#[test]
fn huge_lengths() {
    let dir = ScratchDir::new("hostile-lengths");
    let cases = [
        case(
            &dir,
            "char-2147483647.xml",
            schema(
                "<type name=\"Big\" primitiveType=\"char\" length=\"2147483647\"/>",
                &message_using("Big"),
            ),
            Expect::Refused,
        ),
        case(
            &dir,
            "int64-1000000000.xml",
            schema(
                "<type name=\"Big\" primitiveType=\"int64\" length=\"1000000000\"/>",
                &message_using("Big"),
            ),
            Expect::Refused,
        ),
        case(
            &dir,
            "length-overflow.xml",
            schema(
                "<type name=\"Big\" primitiveType=\"int64\" length=\"99999999999999999999\"/>",
                &message_using("Big"),
            ),
            Expect::Refused,
        ),
    ];
    check_all(&dir, &cases);
}

#[test]
fn xml_entity_tricks() {
    let dir = ScratchDir::new("hostile-entities");
    let mut laughs = String::from("<!ENTITY l0 \"lollollollollol\">");
    for i in 1..10 {
        laughs.push_str(&format!(
            "<!ENTITY l{i} \"{}\">",
            format!("&l{};", i - 1).repeat(10)
        ));
    }
    let with_doctype = |decls: &str, entity: &str| {
        schema("", &message_using("int8"))
            .replacen(
                "<sbe:messageSchema",
                &format!("<!DOCTYPE sbe:messageSchema [{decls}]>\n<sbe:messageSchema"),
                1,
            )
            .replacen("package=\"hostile\"", &format!("package=\"&{entity};\""), 1)
    };
    let cases = [
        case(
            &dir,
            "billion-laughs.xml",
            with_doctype(&laughs, "l9"),
            Expect::Refused,
        ),
        case(
            &dir,
            "external-dev-zero.xml",
            with_doctype("<!ENTITY z SYSTEM \"/dev/zero\">", "z"),
            Expect::Refused,
        ),
        case(
            &dir,
            "external-passwd.xml",
            with_doctype("<!ENTITY p SYSTEM \"/etc/passwd\">", "p"),
            Expect::Refused,
        ),
        case(
            &dir,
            "external-parameter.xml",
            with_doctype("<!ENTITY % p SYSTEM \"/etc/passwd\"> %p;", "amp"),
            Expect::Refused,
        ),
    ];
    check_all(&dir, &cases);
}

#[test]
fn hostile_xincludes() {
    let dir = ScratchDir::new("hostile-xincludes");
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo")
        .success());
    let including = |href: &str, times: usize| {
        schema(
            &format!("<xi:include href=\"{href}\"/>\n").repeat(times),
            &message_using("int8"),
        )
    };
    let cases = [
        case(
            &dir,
            "include-dev-zero.xml",
            including("/dev/zero", 1),
            Expect::Refused,
        ),
        case(
            &dir,
            "include-fifo.xml",
            including("fifo", 1),
            Expect::Refused,
        ),
        case(&dir, "include-dir.xml", including(".", 1), Expect::Refused),
        case(
            &dir,
            "include-self.xml",
            including("include-self.xml", 1),
            Expect::Refused,
        ),
        // Each file includes itself twice: 2^16 reads if only the depth were limited.
        case(
            &dir,
            "include-self-twice.xml",
            including("include-self-twice.xml", 2),
            Expect::Refused,
        ),
    ];
    check_all(&dir, &cases);
}

/// A small deterministic generator (xorshift64*), so that every run mutates the same way.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn truncated_and_mutated_sbeir_files() {
    let dir = ScratchDir::new("hostile-sbeir");
    let good = dir.join("car.sbeir");
    let written = Command::new(env!("CARGO_BIN_EXE_sable"))
        .arg("ir")
        .arg(car_xml())
        .arg("-o")
        .arg(&good)
        .status()
        .expect("write car.sbeir");
    assert!(written.success());
    let bytes = std::fs::read(&good).expect("read car.sbeir");
    let mut rng = Rng(0x5eed_0001);
    let mut cases = Vec::new();
    for i in 0..12 {
        let cut = rng.below(bytes.len());
        cases.push(case(
            &dir,
            &format!("cut-{i}-at-{cut}.sbeir"),
            &bytes[..cut],
            Expect::Refused,
        ));
    }
    for i in 0..24 {
        let mut mutated = bytes.clone();
        for _ in 0..=rng.below(4) {
            let at = rng.below(mutated.len());
            mutated[at] = match rng.below(3) {
                0 => rng.next() as u8,
                1 => 0xff,
                _ => mutated[at] ^ (1 << rng.below(8)),
            };
        }
        cases.push(case(
            &dir,
            &format!("mutated-{i}.sbeir"),
            mutated,
            Expect::MaybeValid,
        ));
    }
    check_all(&dir, &cases);
}

#[test]
fn mutated_schemas() {
    let dir = ScratchDir::new("hostile-mutated-schemas");
    let text = std::fs::read_to_string(car_xml()).expect("read car.xml");
    let lines: Vec<&str> = text.lines().collect();
    let mut rng = Rng(0x5eed_0002);
    let mut cases = Vec::new();
    for i in 0..30 {
        let mut edited: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
        let a = rng.below(edited.len());
        let b = rng.below(edited.len());
        let what = match rng.below(6) {
            0 => {
                edited.remove(a);
                "delete-line"
            }
            1 => {
                let line = edited[a].clone();
                edited.insert(b, line);
                "duplicate-line"
            }
            2 => {
                edited.swap(a, b);
                "swap-lines"
            }
            kind => {
                // An attribute: deleted, duplicated, or its value given to another.
                let attrs: Vec<(usize, usize)> = edited
                    .iter()
                    .enumerate()
                    .flat_map(|(n, l)| l.match_indices("=\"").map(move |(at, _)| (n, at)))
                    .collect();
                let (n, at) = attrs[rng.below(attrs.len())];
                let line = &edited[n];
                let start = line[..at].rfind(' ').map_or(0, |s| s + 1);
                let end = line[at + 2..].find('"').map_or(line.len(), |e| at + 3 + e);
                let attr = line[start..end].to_owned();
                edited[n] = match kind {
                    3 => format!("{}{}", &line[..start], &line[end..]),
                    4 => format!("{} {attr}{}", &line[..end], &line[end..]),
                    _ => {
                        let (m, other) = attrs[rng.below(attrs.len())];
                        let value_end = edited[m][other + 2..]
                            .find('"')
                            .map_or(0, |e| other + 2 + e);
                        let value = edited[m][other + 2..value_end].to_owned();
                        format!("{}=\"{value}\"{}", &line[..at], &line[end..])
                    }
                };
                ["delete-attr", "duplicate-attr", "swap-value"][kind - 3]
            }
        };
        cases.push(case(
            &dir,
            &format!("car-{i}-{what}.xml"),
            edited.join("\n"),
            Expect::MaybeValid,
        ));
    }
    check_all(&dir, &cases);
}

#[test]
fn files_that_are_not_schemas() {
    let dir = ScratchDir::new("hostile-not-schemas");
    let mut rng = Rng(0x5eed_0003);
    let random: Vec<u8> = (0..4096).map(|_| rng.next() as u8).collect();
    let utf16: Vec<u8> = std::fs::read_to_string(car_xml())
        .expect("read car.xml")
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let mut utf16_bom = vec![0xff, 0xfe];
    utf16_bom.extend_from_slice(&utf16);
    let cases = [
        case(&dir, "random.bin", &random, Expect::Refused),
        case(&dir, "random.sbeir", &random, Expect::Refused),
        case(&dir, "utf16.xml", &utf16_bom, Expect::Refused),
        case(&dir, "utf16-no-bom.xml", &utf16, Expect::Refused),
        case(&dir, "empty.xml", b"", Expect::Refused),
        case(&dir, "empty.sbeir", b"", Expect::Refused),
        case(&dir, "nul.xml", [0u8; 100], Expect::Refused),
    ];
    let mut cases = cases.into_iter().collect::<Vec<_>>();
    cases.push(Case {
        name: "dev-zero".to_owned(),
        file: PathBuf::from("/dev/zero"),
        expect: Expect::Refused,
    });
    check_all(&dir, &cases);
}

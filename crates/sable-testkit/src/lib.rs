//! Test helpers shared by Sable's crates (a dev-dependency only, never published):
//!
//! - where things are: [`repo_root`], [`shared_dir`], the shared corpus's [`valid_schemas`];
//! - the reference oracle: [`Oracle`] runs `interop/IrDump.java` against the reference jar
//!   (`uk.co.real-logic:sbe-all:1.32.1`) and returns the reference's IR in the text form of
//!   `sable_ir::dump`;
//! - comparing such dumps with a readable report of the first difference: [`compare_dumps`];
//! - [`imports::ModuleGraph`]: a crate's module graph from its sources, to keep its imports
//!   one-way;
//! - [`ScratchDir`] for files the oracle reads and writes, and [`run_parallel`] to spread the
//!   JVM runs over the machine's cores.
//!
//! The oracle needs `scripts/fetch-reference.sh` to have been run; when it has not, [`Oracle::new`]
//! panics saying so, so that interop tests fail rather than pass without checking anything.

#![forbid(unsafe_code)]

pub mod imports;

use std::ffi::OsStr;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// The reference implementation's version the oracle runs.
pub const REFERENCE_VERSION: &str = "1.32.1";

/// How long one oracle run may take before it is killed and reported as failed.
pub const ORACLE_TIMEOUT: Duration = Duration::from_secs(120);

/// The repository's root directory (the one holding the workspace `Cargo.toml`).
pub fn repo_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// The shared folder next to the repository (`../shared`), holding the schema corpus.
///
/// Panics if it is not there.
pub fn shared_dir() -> PathBuf {
    let dir = repo_root().join("../shared");
    assert!(
        dir.is_dir(),
        "the shared folder is not at {}: the tests expect it next to the repository",
        dir.display()
    );
    dir.canonicalize().unwrap_or(dir)
}

/// Every message schema under `shared/schemas/valid`, sorted: the `.xml` files, in any
/// subfolder, whose root element is `messageSchema` (so fragments brought in by XInclude are
/// left out).
///
/// Panics if the folder cannot be read.
pub fn valid_schemas() -> Vec<PathBuf> {
    schemas_in(&shared_dir().join("schemas/valid"))
}

/// Every schema under `shared/schemas/invalid`, sorted.
pub fn invalid_schemas() -> Vec<PathBuf> {
    schemas_in(&shared_dir().join("schemas/invalid"))
}

/// Runs `check(schema, scratch_dir)` on every valid shared schema, spread over the cores, and
/// panics listing every schema whose check failed. `tag` names the scratch directory.
#[track_caller]
pub fn for_every_valid_schema(
    tag: &str,
    check: impl Fn(&Path, &Path) -> Result<(), String> + Sync,
) {
    let schemas = valid_schemas();
    assert!(
        schemas.len() >= 40,
        "the shared corpus looks incomplete: {} schemas",
        schemas.len()
    );
    let scratch = ScratchDir::new(tag);
    let failures: Vec<String> = run_parallel(&schemas, |schema| {
        check(schema, scratch.path()).map_err(|why| format!("{}: {why}", schema_label(schema)))
    })
    .into_iter()
    .filter_map(Result::err)
    .collect();
    assert!(
        failures.is_empty(),
        "{} of {} schemas failed:\n\n{}",
        failures.len(),
        schemas.len(),
        failures.join("\n\n")
    );
}

/// The message schemas in `dir` and its subfolders, sorted (see [`valid_schemas`]).
pub fn schemas_in(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
                .path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|x| x == "xml") && is_message_schema(&path) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Whether the XML file's root element is `messageSchema` (with any namespace prefix).
fn is_message_schema(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let mut rest = text.as_str();
    // Skip the declaration, processing instructions, comments and the doctype.
    loop {
        let Some(start) = rest.find('<') else {
            return false;
        };
        rest = &rest[start..];
        if rest.starts_with("<?") {
            rest = rest.find("?>").map_or("", |end| &rest[end + 2..]);
        } else if rest.starts_with("<!--") {
            rest = rest.find("-->").map_or("", |end| &rest[end + 3..]);
        } else if rest.starts_with("<!") {
            rest = rest.find('>').map_or("", |end| &rest[end + 1..]);
        } else {
            let name: String = rest[1..]
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
                .collect();
            return name.rsplit(':').next() == Some("messageSchema");
        }
    }
}

/// A path relative to the shared corpus's `schemas/valid` (or the file name), for messages.
pub fn schema_label(schema: &Path) -> String {
    let base = shared_dir().join("schemas/valid");
    schema
        .strip_prefix(&base)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| schema.display().to_string())
}

/// The oracle failed: the JVM could not start, the reference threw, or the run timed out.
#[derive(Debug, Clone)]
pub struct OracleError(String);

impl fmt::Display for OracleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OracleError {}

/// The reference implementation, run through `interop/IrDump.java`.
#[derive(Debug, Clone)]
pub struct Oracle {
    classpath: String,
}

impl Oracle {
    /// Finds the reference jar and the compiled oracle in `.cache/reference`.
    ///
    /// Panics, telling to run `scripts/fetch-reference.sh`, when either is missing or older
    /// than `interop/IrDump.java`, or when `java` does not run.
    #[track_caller]
    pub fn new() -> Oracle {
        let root = repo_root();
        let dir = root.join(".cache/reference");
        let jar = dir.join(format!("sbe-all-{REFERENCE_VERSION}.jar"));
        let classes = dir.join("classes");
        let class = classes.join("IrDump.class");
        let fetch = "run scripts/fetch-reference.sh (needs Maven and a JDK 17) first";
        assert!(
            jar.is_file(),
            "the reference jar is missing ({}): {fetch}",
            jar.display()
        );
        assert!(
            class.is_file(),
            "the oracle is not compiled ({} is missing): {fetch}",
            class.display()
        );
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let source = root.join("interop/IrDump.java");
        if let (Some(src), Some(cls)) = (modified(&source), modified(&class)) {
            assert!(
                src <= cls,
                "{} is newer than its compiled class: {fetch}",
                source.display()
            );
        }
        let java = Command::new("java")
            .arg("-version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        assert!(
            java.is_ok_and(|s| s.success()),
            "`java -version` does not run: put a JDK 17 on PATH, then {fetch}"
        );
        let separator = if cfg!(windows) { ";" } else { ":" };
        Oracle {
            classpath: format!("{}{separator}{}", jar.display(), classes.display()),
        }
    }

    /// The reference's IR of the XML schema (parsed with XInclude on), as `sable_ir::dump`
    /// prints it; when `sbeir_out` is given, the reference also writes its `.sbeir` file there.
    pub fn xml(&self, schema: &Path, sbeir_out: Option<&Path>) -> Result<String, OracleError> {
        let mut args: Vec<&OsStr> = vec![OsStr::new("xml"), schema.as_os_str()];
        if let Some(out) = sbeir_out {
            args.push(out.as_os_str());
        }
        self.run(&args)
    }

    /// The reference's IrDecoder's reading of each `.sbeir` file, as `sable_ir::dump` prints it,
    /// in the order given (one JVM for them all).
    pub fn sbeir(&self, files: &[&Path]) -> Result<Vec<String>, OracleError> {
        let mut args: Vec<&OsStr> = vec![OsStr::new("sbeir")];
        args.extend(files.iter().map(|f| f.as_os_str()));
        let text = self.run(&args)?;
        let dumps = split_dumps(&text);
        if dumps.len() != files.len() {
            return Err(OracleError(format!(
                "IrDump sbeir printed {} dumps for {} files",
                dumps.len(),
                files.len()
            )));
        }
        Ok(dumps)
    }

    /// Has the reference's IrDecoder read both `.sbeir` files and compare their token lists
    /// field by field, messages matched by template id. `Ok` holds a one-line summary; `Err`
    /// lists every difference.
    pub fn compare(&self, expected: &Path, actual: &Path) -> Result<String, OracleError> {
        self.run(&[
            OsStr::new("compare"),
            expected.as_os_str(),
            actual.as_os_str(),
        ])
    }

    /// Runs `java -cp JAR:classes IrDump ARGS...` and returns its standard output, or an error
    /// with its standard error when it fails or takes longer than [`ORACLE_TIMEOUT`].
    pub fn run(&self, args: &[&OsStr]) -> Result<String, OracleError> {
        self.run_class("IrDump", args)
    }

    /// Runs another program of `interop/` compiled by `scripts/fetch-reference.sh` (such as
    /// `ConformanceCheck`) as [`Oracle::run`] runs IrDump. Panics, telling to run the script,
    /// when its class is missing or older than its source.
    pub fn run_class(&self, class: &str, args: &[&OsStr]) -> Result<String, OracleError> {
        let root = repo_root();
        let compiled = root
            .join(".cache/reference/classes")
            .join(format!("{class}.class"));
        let source = root.join("interop").join(format!("{class}.java"));
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        match (modified(&source), modified(&compiled)) {
            (Some(src), Some(cls)) if src <= cls => {}
            (_, None) => panic!(
                "{} is not compiled: run scripts/fetch-reference.sh first",
                source.display()
            ),
            _ => panic!(
                "{} is newer than its compiled class: run scripts/fetch-reference.sh first",
                source.display()
            ),
        }
        let describe = || {
            let args: Vec<String> = args
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            format!("{class} {}", args.join(" "))
        };
        let mut child = Command::new("java")
            // A short-lived run: the client compiler alone starts faster.
            .args(["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss4m"])
            .arg("-cp")
            .arg(&self.classpath)
            .arg(class)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| OracleError(format!("{}: cannot start java: {e}", describe())))?;
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let out = thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stdout.read_to_end(&mut buf);
            buf
        });
        let err = thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stderr.read_to_end(&mut buf);
            buf
        });
        let deadline = Instant::now() + ORACLE_TIMEOUT;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                Ok(None) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(OracleError(format!(
                        "{}: no answer after {:?}; killed",
                        describe(),
                        ORACLE_TIMEOUT
                    )));
                }
                Err(e) => return Err(OracleError(format!("{}: {e}", describe()))),
            }
        };
        let out = out.join().unwrap_or_default();
        let err = err.join().unwrap_or_default();
        if !status.success() {
            return Err(OracleError(format!(
                "{} failed ({status}):\n{}",
                describe(),
                String::from_utf8_lossy(&err).trim_end()
            )));
        }
        String::from_utf8(out)
            .map_err(|e| OracleError(format!("{}: output is not UTF-8: {e}", describe())))
    }
}

impl Default for Oracle {
    fn default() -> Oracle {
        Oracle::new()
    }
}

/// A dump with its messages in template id order: the reference keeps messages in a hash map,
/// so the order it lists them in says nothing.
pub fn messages_by_id(dump: &str) -> String {
    let mut head = String::new();
    let mut messages: Vec<(i64, String)> = Vec::new();
    let mut open = false;
    for line in dump.split_inclusive('\n') {
        if line.starts_with("BEGIN_MESSAGE ") {
            let id = line
                .split(' ')
                .find_map(|field| field.strip_prefix("id="))
                .and_then(|id| id.parse().ok())
                .unwrap_or(i64::MIN);
            messages.push((id, String::new()));
            open = true;
        }
        match messages.last_mut() {
            Some((_, text)) if open => text.push_str(line),
            _ => head.push_str(line),
        }
        if line.starts_with("END_MESSAGE ") {
            open = false;
        }
    }
    messages.sort_by_key(|(id, _)| *id);
    messages.into_iter().fold(head, |mut out, (_, text)| {
        out.push_str(&text);
        out
    })
}

/// Splits the output of several dumps, each starting with its `SCHEMA` line.
fn split_dumps(text: &str) -> Vec<String> {
    let mut dumps: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("SCHEMA ") || dumps.is_empty() {
            dumps.push(String::new());
        }
        if let Some(last) = dumps.last_mut() {
            last.push_str(line);
        }
    }
    dumps
}

/// Compares two IR dumps line by line. On a difference, the error names both sides, the first
/// differing line (numbered from 1) in full from each, and the field where they part.
pub fn compare_dumps(
    expected_name: &str,
    expected: &str,
    actual_name: &str,
    actual: &str,
) -> Result<(), String> {
    let mut expected_lines = expected.lines();
    let mut actual_lines = actual.lines();
    let width = expected_name.len().max(actual_name.len());
    for number in 1.. {
        match (expected_lines.next(), actual_lines.next()) {
            (None, None) => return Ok(()),
            (e, a) if e == a => continue,
            (e, a) => {
                let field = match (e, a) {
                    (Some(e), Some(a)) => format!(" (at field `{}`)", differing_field(e, a)),
                    _ => String::new(),
                };
                let show = |line: Option<&str>| line.unwrap_or("<no more lines>").to_owned();
                return Err(format!(
                    "line {number} differs{field}:\n  {expected_name:width$}: {}\n  \
                     {actual_name:width$}: {}\n  ({} has {} lines, {} has {})",
                    show(e),
                    show(a),
                    expected_name,
                    expected.lines().count(),
                    actual_name,
                    actual.lines().count(),
                ));
            }
        }
    }
    Ok(())
}

/// The `key` of the first `key=value` field where two dump lines differ (or the signal).
fn differing_field(a: &str, b: &str) -> String {
    let at = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    let before = &a[..at];
    match before.rfind('=') {
        Some(eq) => {
            let start = before[..eq].rfind(' ').map_or(0, |s| s + 1);
            before[start..eq].to_owned()
        }
        None => "signal".to_owned(),
    }
}

/// A fresh directory under the system's temporary directory, removed when dropped, unless the
/// thread is panicking (a failed test), when it is kept and its path printed for inspection.
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// Creates `<tmp>/sable-<tag>-<pid>-<n>`, emptying it first if it exists.
    pub fn new(tag: &str) -> ScratchDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("sable-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("creating {}: {e}", path.display()));
        ScratchDir { path }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A path in the directory.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if thread::panicking() {
            eprintln!("keeping {} for inspection", self.path.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// Runs `f` on every item, on as many threads as the machine has cores (at least 2), and
/// returns the results in the items' order.
pub fn run_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(2)
        .min(items.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let result = f(item);
                results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(result);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|r| r.expect("every item was run"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_dumps_reports_the_first_differing_line_and_field() {
        let a = "SCHEMA package=a\nENCODING name=x ref= id=1 version=0\nEND\n";
        let b = "SCHEMA package=a\nENCODING name=x ref= id=1 version=2\nEND\n";
        assert_eq!(compare_dumps("ref", a, "sable", a), Ok(()));
        let report = compare_dumps("ref", a, "sable", b).unwrap_err();
        assert!(
            report.starts_with("line 2 differs (at field `version`)"),
            "{report}"
        );
        assert!(
            report.contains("ref  : ENCODING name=x ref= id=1 version=0"),
            "{report}"
        );
        assert!(
            report.contains("sable: ENCODING name=x ref= id=1 version=2"),
            "{report}"
        );
        let short = compare_dumps("ref", a, "sable", "SCHEMA package=a\n").unwrap_err();
        assert!(short.contains("<no more lines>"), "{short}");
        let signal = compare_dumps("ref", "BEGIN_FIELD x", "sable", "END_FIELD x").unwrap_err();
        assert!(signal.contains("(at field `signal`)"), "{signal}");
    }

    #[test]
    fn splits_concatenated_dumps_at_schema_lines() {
        let dumps = split_dumps("SCHEMA a\nX\nSCHEMA b\nY\nZ\n");
        assert_eq!(dumps, ["SCHEMA a\nX\n", "SCHEMA b\nY\nZ\n"]);
    }

    #[test]
    fn finds_the_shared_corpus_schemas_but_not_fragments() {
        let schemas = valid_schemas();
        assert!(schemas.len() >= 40, "only {} schemas", schemas.len());
        assert!(schemas.iter().any(|p| p.ends_with("sub/basic-schema.xml")));
        assert!(!schemas.iter().any(|p| p.ends_with("sub2/common.xml")));
    }

    #[test]
    fn runs_everything_in_parallel_and_keeps_order() {
        let items: Vec<u32> = (0..50).collect();
        assert_eq!(
            run_parallel(&items, |x| x * 2),
            (0..50).map(|x| x * 2).collect::<Vec<_>>()
        );
    }
}

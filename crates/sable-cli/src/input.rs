//! Loading a schema argument: SBE XML (compiled, diagnostics reported) or a `.sbeir` file, from a
//! file or standard input (`-`), never more than the size limit.

use std::io::Write;
use std::path::Path;

use sable_ir::Ir;
use sable_schema::{Category, Diagnostic, Locations, ReadError, Severity};

/// What every error about an unrecognised schema file ends with.
const EXPECTED: &str =
    "expected an SBE XML schema (UTF-8 text) or a .sbeir file (as `sable ir -o` writes)";

/// How to load a schema.
#[derive(Debug, Clone, Copy)]
pub struct LoadOptions {
    /// The most bytes read for the schema, its XIncludes counted in.
    pub max_bytes: u64,
    /// Leave warnings unprinted (they are still counted).
    pub quiet: bool,
    /// Report warnings about names in generated code (`check` and `generate`); other commands
    /// neither print nor count them.
    pub generated_names: bool,
    /// Lower the schema to IR; `check` needs only the diagnostics.
    pub lower: bool,
}

/// What loading a schema argument came to. Everything worth saying has been said on stderr.
pub enum Loaded {
    /// The file could not be read, or is neither an XML schema nor a valid `.sbeir` file.
    Unreadable,
    /// The file was compiled (or read from `.sbeir`, with no diagnostics).
    Compiled {
        /// The IR, when there were no errors.
        ir: Option<Ir>,
        errors: usize,
        warnings: usize,
    },
}

impl Loaded {
    /// The IR, if loading succeeded: no errors, and no warnings either when they count as errors.
    pub fn into_ir(self, warnings_as_errors: bool) -> Option<Ir> {
        let passed = self.passed(warnings_as_errors);
        match self {
            Loaded::Compiled { ir, .. } if passed => ir,
            _ => None,
        }
    }

    /// Whether the schema passed: read, no errors, and no warnings when they count as errors.
    pub fn passed(&self, warnings_as_errors: bool) -> bool {
        match self {
            Loaded::Compiled {
                errors: 0,
                warnings,
                ..
            } => !(warnings_as_errors && *warnings > 0),
            _ => false,
        }
    }
}

/// Whether a schema path means standard input.
pub fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

/// How a schema path is named in messages.
pub fn display(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

/// Reads the schema at `path` (standard input for `-`), compiling it when it is XML, and reports
/// every diagnostic (sorted by file, line and column) or the reason it could not be read.
pub fn load(path: &Path, options: &LoadOptions) -> Loaded {
    match read(path, options) {
        Some(bytes) => from_bytes(path, &bytes, options).0,
        None => Loaded::Unreadable,
    }
}

/// The bytes of the file at `path` (standard input for `-`), within the size limit; `None`
/// when they cannot be read, which has been reported.
pub fn read(path: &Path, options: &LoadOptions) -> Option<Vec<u8>> {
    let name = display(path);
    let read = if is_stdin(path) {
        sable_schema::read_bounded(std::io::stdin().lock(), options.max_bytes)
    } else {
        std::fs::File::open(path)
            .map_err(ReadError::Io)
            .and_then(|file| sable_schema::read_bounded(file, options.max_bytes))
    };
    match read {
        Ok(bytes) => Some(bytes),
        Err(ReadError::TooLarge { limit }) => {
            report(&format!(
                "sable: {name}: larger than the {} limit (--max-schema-size to raise it)",
                sable_schema::size(limit)
            ));
            None
        }
        Err(e) => {
            report(&format!("sable: cannot read {name}: {e}"));
            None
        }
    }
}

/// [`load`] of bytes already read from `path`, and where the schema's elements are declared
/// (none for a `.sbeir` file).
pub fn from_bytes(path: &Path, bytes: &[u8], options: &LoadOptions) -> (Loaded, Locations) {
    let name = display(path);
    let text = match recognise(path, bytes) {
        Recognised::Xml(text) => text,
        Recognised::Ir(ir) => {
            let loaded = Loaded::Compiled {
                ir: Some(*ir),
                errors: 0,
                warnings: 0,
            };
            return (loaded, Locations::default());
        }
        Recognised::Neither(why) => {
            report(&format!("sable: {name}: {why}"));
            return (Loaded::Unreadable, Locations::default());
        }
    };
    // From standard input, XIncludes resolve relative to the current directory.
    let origin = if is_stdin(path) {
        Path::new("<stdin>")
    } else {
        path
    };
    let limits = sable_schema::Options {
        max_file_bytes: options.max_bytes,
    };
    let (ir, mut diagnostics, locations) = if options.lower {
        let (compiled, locations) = sable_schema::compile_str_located(text, origin, &limits);
        (compiled.ir, compiled.diagnostics, locations)
    } else {
        let diagnostics = sable_schema::check_str_with(text, origin, &limits);
        (None, diagnostics, Locations::default())
    };
    diagnostics.retain(|d| options.generated_names || d.category != Category::GeneratedNames);
    diagnostics.sort_by(|a, b| position(a).cmp(&position(b)));
    for d in &diagnostics {
        if !(options.quiet && d.severity == Severity::Warning) {
            report(&d.to_string());
        }
    }
    let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
    let errors = count(Severity::Error);
    let loaded = Loaded::Compiled {
        ir: ir.filter(|_| errors == 0),
        errors,
        warnings: count(Severity::Warning),
    };
    (loaded, locations)
}

/// What a schema file turned out to be.
enum Recognised<'a> {
    /// XML text (a UTF-8 byte order mark removed).
    Xml(&'a str),
    Ir(Box<Ir>),
    /// Neither: what it looks like and what was expected.
    Neither(String),
}

/// Tells XML from `.sbeir` from anything else. XML when the text starts with `<` after an
/// optional byte order mark and whitespace; `.sbeir` when the bytes read as one; otherwise an
/// explanation of what the file looks like.
fn recognise<'a>(path: &Path, bytes: &'a [u8]) -> Recognised<'a> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = body.iter().position(|b| !b.is_ascii_whitespace());
    let Some(first) = first else {
        return Recognised::Neither(format!("empty: {EXPECTED}"));
    };
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Recognised::Neither(format!(
            "starts with a UTF-16 byte order mark: Sable reads XML schemas in UTF-8 only \
             (convert it, e.g. `iconv -f UTF-16 -t UTF-8`); {EXPECTED}"
        ));
    }
    if bytes.starts_with(b"<\0") || bytes.starts_with(b"\0<") {
        return Recognised::Neither(format!(
            "looks like UTF-16 text without a byte order mark: Sable reads XML schemas in \
             UTF-8 only (convert it, e.g. `iconv -f UTF-16LE -t UTF-8`); {EXPECTED}"
        ));
    }
    if body[first] == b'<' {
        return match std::str::from_utf8(body) {
            Ok(text) => Recognised::Xml(text),
            Err(e) => {
                let at = e.valid_up_to();
                Recognised::Neither(format!(
                    "XML that is not UTF-8 text (byte 0x{:02X} at offset {}): SBE XML schemas \
                     must be UTF-8",
                    body[at],
                    at + (bytes.len() - body.len())
                ))
            }
        };
    }
    let sbeir_problem = match sable_ir::sbeir::read(bytes) {
        Ok(ir) => return Recognised::Ir(Box::new(ir)),
        Err(e) => e,
    };
    if path.extension().is_some_and(|x| x == "sbeir") {
        return Recognised::Neither(format!("not a valid .sbeir file: {sbeir_problem}"));
    }
    match std::str::from_utf8(body) {
        Ok(text) => Recognised::Neither(format!(
            "text that is not XML (it starts with \"{}\"): {EXPECTED}",
            sable_otf::shown(text.trim_start().lines().next().unwrap_or_default(), 20)
        )),
        Err(_) => Recognised::Neither(format!(
            "binary data that is not a .sbeir file either ({sbeir_problem}): {EXPECTED}"
        )),
    }
}

fn position(d: &Diagnostic) -> (&Path, u32, u32) {
    (&d.file, d.line, d.column)
}

/// Writes one line to stderr. A failure to write there has nowhere to be reported, so it is
/// ignored rather than allowed to abort the program.
pub fn report(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

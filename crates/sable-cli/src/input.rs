//! Loading a schema argument: SBE XML (compiled, diagnostics reported) or a `.sbeir` file.

use std::io::Write;
use std::path::Path;

use sable_ir::Ir;
use sable_schema::{Diagnostic, Severity};

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
        match self {
            Loaded::Compiled {
                ir,
                errors: 0,
                warnings,
            } if !(warnings_as_errors && warnings > 0) => ir,
            _ => None,
        }
    }
}

/// Reads the schema at `path`, compiling it when it is XML, and reports every diagnostic (sorted
/// by file, line and column) or the reason it could not be read on stderr.
pub fn load(path: &Path) -> Loaded {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            report(&format!("sable: cannot read {}: {e}", path.display()));
            return Loaded::Unreadable;
        }
    };
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let looks_like_xml = body
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'<');
    // XML when the text starts with `<` after an optional byte order mark and whitespace; else
    // `.sbeir` when the name says so or the bytes read as one; else XML if the bytes are text, so
    // that the XML parser says where the problem is.
    if !looks_like_xml {
        let is_sbeir_name = path.extension().is_some_and(|x| x == "sbeir");
        match sable_ir::sbeir::read(&bytes) {
            Ok(ir) => {
                return Loaded::Compiled {
                    ir: Some(ir),
                    errors: 0,
                    warnings: 0,
                }
            }
            Err(e) if is_sbeir_name => {
                report(&format!(
                    "sable: {}: not a valid .sbeir file: {e}",
                    path.display()
                ));
                return Loaded::Unreadable;
            }
            Err(e) if std::str::from_utf8(body).is_err() => {
                report(&format!(
                    "sable: {}: neither an SBE XML schema nor a .sbeir file ({e})",
                    path.display()
                ));
                return Loaded::Unreadable;
            }
            Err(_) => {}
        }
    }
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(e) => {
            report(&format!(
                "sable: cannot read {}: the schema is not UTF-8 text (invalid byte at offset {})",
                path.display(),
                e.valid_up_to() + (bytes.len() - body.len())
            ));
            return Loaded::Unreadable;
        }
    };
    let compiled = sable_schema::compile_str(text, path);
    let mut diagnostics = compiled.diagnostics;
    diagnostics.sort_by(|a, b| position(a).cmp(&position(b)));
    for d in &diagnostics {
        report(&d.to_string());
    }
    let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
    let errors = count(Severity::Error);
    Loaded::Compiled {
        ir: compiled.ir.filter(|_| errors == 0),
        errors,
        warnings: count(Severity::Warning),
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

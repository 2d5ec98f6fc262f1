//! SBE XML message schemas: parsing, validation with located diagnostics, and lowering to IR.

#![forbid(unsafe_code)]

mod collisions;
mod diagnostic;
mod locations;
mod lower;
mod model;
mod names;
mod order;
mod parse;
mod read;
mod vocabulary;
mod xml;

pub use diagnostic::{Category, Diagnostic, Severity};
pub use locations::{Location, Locations};
pub use read::{read_bounded, read_regular_file, size, ReadError, DEFAULT_MAX_FILE_BYTES};

use std::path::Path;

use sable_ir::Ir;

/// What compiling a schema produced: the IR when there were no errors, and every diagnostic.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub ir: Option<Ir>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Limits on what compiling a schema may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The most bytes read for one schema, its XIncludes counted in (each included file, and
    /// all of them together with the schema). [`DEFAULT_MAX_FILE_BYTES`] by default.
    pub max_file_bytes: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
        }
    }
}

/// Reads, parses, validates and lowers the schema at `path` (XIncludes resolved relative to it),
/// with the default [`Options`].
pub fn compile_file(path: &Path) -> Compiled {
    compile_file_with(path, &Options::default())
}

/// [`compile_file`] within `options`' limits.
pub fn compile_file_with(path: &Path, options: &Options) -> Compiled {
    let read = std::fs::File::open(path)
        .map_err(ReadError::Io)
        .and_then(|file| read_bounded(file, options.max_file_bytes));
    let cannot = |message: String| Compiled {
        ir: None,
        diagnostics: vec![Diagnostic {
            severity: Severity::Error,
            category: Category::Schema,
            file: path.to_path_buf(),
            line: 0,
            column: 0,
            element: String::new(),
            message,
            help: None,
        }],
    };
    match read.map(String::from_utf8) {
        Ok(Ok(text)) => compile_str_with(&text, path, options),
        Ok(Err(e)) => cannot(format!(
            "cannot read schema: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )),
        Err(e) => cannot(format!("cannot read schema: {e}")),
    }
}

/// Parses, validates and lowers schema text that came from `path`, with the default [`Options`].
pub fn compile_str(text: &str, path: &Path) -> Compiled {
    compile_str_with(text, path, &Options::default())
}

/// [`compile_str`] within `options`' limits (the text itself counts towards them).
pub fn compile_str_with(text: &str, path: &Path, options: &Options) -> Compiled {
    compile_str_located(text, path, options).0
}

/// [`compile_str_with`], and where each element of the schema is declared (empty when the
/// schema could not be parsed).
pub fn compile_str_located(text: &str, path: &Path, options: &Options) -> (Compiled, Locations) {
    let (schema, diagnostics, sources) = analyse(text, path, options);
    let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
    let locations = schema
        .as_ref()
        .map(|s| Locations::of(s, &sources))
        .unwrap_or_default();
    let ir = schema.filter(|_| !has_errors).map(|s| lower::lower(&s));
    (Compiled { ir, diagnostics }, locations)
}

/// The diagnostics [`compile_str_with`] gives, without lowering the schema to IR: all that
/// checking a schema needs, in less time and memory.
pub fn check_str_with(text: &str, path: &Path, options: &Options) -> Vec<Diagnostic> {
    analyse(text, path, options).1
}

/// Parses and validates: the schema (when one could be built) and every diagnostic, sorted.
fn analyse(
    text: &str,
    path: &Path,
    options: &Options,
) -> (Option<model::Schema>, Vec<Diagnostic>, xml::Sources) {
    let mut sources = xml::Sources {
        max_file_bytes: options.max_file_bytes,
        include_budget: options.max_file_bytes.saturating_sub(text.len() as u64),
        ..xml::Sources::default()
    };
    let mut diagnostics = Vec::new();
    let arena = bumpalo::Bump::new();
    let schema = match xml::load(text, path, &mut sources, &arena) {
        Ok(root) => {
            // The vocabulary and names checks read the same tree as the parser and nothing
            // else: on a second thread they hide within parsing (the larger part of checking a
            // large schema). Their diagnostics keep their places: the vocabulary's first, the
            // names' last, as when the three ran one after the other.
            let (schema, checks) = std::thread::scope(|scope| {
                let checks = scope.spawn(|| {
                    let (mut vocabulary, mut names) = (Vec::new(), Vec::new());
                    vocabulary::check(&root, &sources, &mut vocabulary);
                    collisions::check(&root, &sources, &mut names);
                    (vocabulary, names)
                });
                let mut parsed = Vec::new();
                let schema = parse::parse(&root, &sources, &mut parsed);
                (schema, checks.join().map(|checks| (checks, parsed)))
            });
            match checks {
                Ok(((vocabulary, names), parsed)) => {
                    diagnostics.extend(vocabulary);
                    diagnostics.extend(parsed);
                    diagnostics.extend(names);
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
            schema
        }
        Err(d) => {
            diagnostics.push(d);
            None
        }
    };
    diagnostics.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    diagnostics.dedup();
    (schema, diagnostics, sources)
}

//! SBE XML message schemas: parsing, validation with located diagnostics, and lowering to IR.

mod collisions;
mod diagnostic;
mod lower;
mod model;
mod names;
mod parse;
mod xml;

pub use diagnostic::{Diagnostic, Severity};

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

/// Reads, parses, validates and lowers the schema at `path` (XIncludes resolved relative to it).
pub fn compile_file(path: &Path) -> Compiled {
    match std::fs::read_to_string(path) {
        Ok(text) => compile_str(&text, path),
        Err(e) => Compiled {
            ir: None,
            diagnostics: vec![Diagnostic {
                severity: Severity::Error,
                file: path.to_path_buf(),
                line: 0,
                column: 0,
                element: String::new(),
                message: format!("cannot read schema: {e}"),
                help: None,
            }],
        },
    }
}

/// Parses, validates and lowers schema text that came from `path`.
pub fn compile_str(text: &str, path: &Path) -> Compiled {
    let mut sources = xml::Sources::default();
    let mut diagnostics = Vec::new();
    let schema = match xml::load(text, path, &mut sources) {
        Ok(root) => parse::parse(&root, &sources, &mut diagnostics),
        Err(d) => {
            diagnostics.push(d);
            None
        }
    };
    diagnostics.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    diagnostics.dedup();
    let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
    let ir = schema.filter(|_| !has_errors).map(|s| lower::lower(&s));
    Compiled { ir, diagnostics }
}

//! Problems found in a schema, each located at file:line:column.

use std::fmt;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// What a diagnostic is about, so that each command shows what concerns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Category {
    /// The schema itself: its structure, types, values and wire layout.
    #[default]
    Schema,
    /// A name that generated code must mangle (a keyword, not an identifier in some target
    /// language). It matters to `check` and `generate`, not to decoding or encoding messages.
    GeneratedNames,
}

/// One problem in a schema: what is wrong, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub category: Category,
    /// The file the problem is in (an included file where it came from one).
    pub file: PathBuf,
    /// 1-based line and column of the element or attribute at fault; 0 when not known.
    pub line: u32,
    pub column: u32,
    /// The element at fault, e.g. `<field name="price">`.
    pub element: String,
    pub message: String,
    /// How to fix it, where there is something useful to say.
    pub help: Option<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(
            f,
            "{}:{}:{}: {level}: ",
            self.file.display(),
            self.line,
            self.column
        )?;
        if !self.element.is_empty() {
            write!(f, "{}: ", self.element)?;
        }
        f.write_str(&self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

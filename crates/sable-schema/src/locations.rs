//! Where each named element of a schema is declared, for tools that speak of schema elements
//! rather than diagnostics (`sable compat` points at both schemas it compares).
//!
//! Elements are named by paths: `message:NAME` for a message, `message:NAME/FIELD` for its
//! fields, groups and var data (`message:NAME/GROUP/FIELD` inside a group), `type:NAME` for a
//! type, `type:NAME/MEMBER` for a composite's member, an enum's value or a set's choice
//! (`type:NAME/MEMBER/INNER` further in), and `schema` for the `messageSchema` element.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;

use crate::model::{Field, FieldKind, Schema, TypeDef, TypeKind};
use crate::xml::{Loc, Sources};

/// A place in a schema file: 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

/// The declarations of a schema's elements, by path (see the module's documentation).
#[derive(Debug, Clone, Default)]
pub struct Locations {
    by_path: HashMap<String, Location>,
}

impl Locations {
    pub fn get(&self, path: &str) -> Option<&Location> {
        self.by_path.get(path)
    }

    pub(crate) fn of(schema: &Schema, sources: &Sources) -> Locations {
        let mut found = Walk {
            sources,
            by_path: HashMap::new(),
        };
        found.put("schema".to_owned(), schema.loc);
        found.type_def("type:", &schema.header);
        for m in &schema.messages {
            let path = format!("message:{}", m.name);
            found.fields(&path, &m.fields);
            found.put(path, m.loc);
        }
        Locations {
            by_path: found.by_path,
        }
    }
}

struct Walk<'a> {
    sources: &'a Sources,
    by_path: HashMap<String, Location>,
}

impl Walk<'_> {
    fn put(&mut self, path: String, loc: Loc) {
        let file = self
            .sources
            .files
            .get(loc.file)
            .cloned()
            .unwrap_or_default();
        self.by_path.entry(path).or_insert(Location {
            file,
            line: loc.line,
            column: loc.column,
        });
    }

    fn fields(&mut self, parent: &str, fields: &[Field]) {
        for f in fields {
            let path = format!("{parent}/{}", f.name);
            match &f.kind {
                FieldKind::Plain(t) => self.type_def("type:", t),
                FieldKind::Group {
                    dimension, fields, ..
                } => {
                    self.type_def("type:", dimension);
                    self.fields(&path, fields);
                }
                FieldKind::Data(t) => self.type_def("type:", t),
            }
            self.put(path, f.loc);
        }
    }

    /// A type and what it holds, under `prefix` (`type:` for a declared type, the enclosing
    /// composite's path and `/` for a member). A type declared once is walked once.
    fn type_def(&mut self, prefix: &str, t: &TypeDef) {
        let path = format!("{prefix}{}", t.name);
        if self.by_path.contains_key(&path) {
            return;
        }
        self.put(path.clone(), t.loc);
        let inner = format!("{path}/");
        match &t.kind {
            TypeKind::Encoded(_) => {}
            TypeKind::Composite(c) => {
                for m in &c.members {
                    self.type_def(&inner, m);
                }
            }
            TypeKind::Enum(e) => {
                for v in &e.values {
                    self.put(format!("{inner}{}", v.name), v.loc);
                }
            }
            TypeKind::Set(s) => {
                for c in &s.choices {
                    self.put(format!("{inner}{}", c.name), c.loc);
                }
            }
        }
    }
}

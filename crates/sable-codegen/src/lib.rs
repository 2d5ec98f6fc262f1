//! Code generation for SBE codecs.
//!
//! The shared pieces every language's generator uses: a typed [`model`] of the schema built
//! from the IR's token lists, [`naming`] helpers and an indenting [`writer`]; and one module per
//! target language ([`java`]).

#![forbid(unsafe_code)]

pub mod cpp;
pub mod csharp;
pub mod go;
pub mod java;
pub mod model;
pub mod nulls;
pub mod python;
pub mod rust;
pub mod typescript;
pub mod writer;

/// Case conversion and identifier cleaning (each language's rules are in sable-names).
pub use sable_names::common as naming;

/// The package to generate a schema's code under when it declares neither a package nor a
/// namespace, so that no generated file is hidden or nameless (`.hpp`, `_x.rs`): one named after
/// the schema's file (`car.xml` gives `car`), or `schema` for standard input (`-`). `None` when
/// the schema names its own.
pub fn unnamed_package(ir: &sable_ir::Ir, schema_path: Option<&std::path::Path>) -> Option<String> {
    let named = |n: Option<&str>| n.is_some_and(|n| !n.trim().is_empty());
    if named(Some(&ir.package_name)) || named(ir.namespace_name.as_deref()) {
        return None;
    }
    let path = schema_path.filter(|p| *p != std::path::Path::new("-"));
    Some(sable_names::package_for_file(path))
}

/// A generated source file: its path relative to the output directory, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    pub path: std::path::PathBuf,
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_schema_without_a_package_is_named_after_its_file() {
        let mut ir = sable_ir::Ir::default();
        assert_eq!(
            unnamed_package(&ir, Some(Path::new("d/car.xml"))).as_deref(),
            Some("car")
        );
        assert_eq!(
            unnamed_package(&ir, Some(Path::new("-"))).as_deref(),
            Some("schema")
        );
        assert_eq!(unnamed_package(&ir, None).as_deref(), Some("schema"));
        ir.namespace_name = Some("ns".into());
        assert_eq!(unnamed_package(&ir, Some(Path::new("car.xml"))), None);
        ir.namespace_name = None;
        ir.package_name = "pkg".into();
        assert_eq!(unnamed_package(&ir, Some(Path::new("car.xml"))), None);
    }
}

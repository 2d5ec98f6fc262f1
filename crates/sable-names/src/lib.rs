//! How schema names become identifiers in each language Sable generates, or will generate.
//!
//! One module per language holds its rules (case conversion, keywords, escaping); the
//! generators in sable-codegen call them, and sable-schema's `check` uses [`generated`] to find
//! schema names that would become the same identifier. docs/naming.md describes the rules.

#![forbid(unsafe_code)]

pub mod c;
pub mod common;
pub mod cpp;
pub mod csharp;
pub mod erlang;
pub mod generated;
pub mod go;
pub mod java;
pub mod python;
pub mod rust;
pub mod typescript;

/// A target language: those generated now (Java, C++, Rust) and those planned (C#, Go,
/// Python, TypeScript: issues 17 to 20; then C and Erlang).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    Java,
    Cpp,
    Rust,
    CSharp,
    Go,
    Python,
    TypeScript,
    C,
    Erlang,
}

impl Language {
    pub const ALL: [Language; 9] = [
        Language::Java,
        Language::Cpp,
        Language::Rust,
        Language::CSharp,
        Language::Go,
        Language::Python,
        Language::TypeScript,
        Language::C,
        Language::Erlang,
    ];

    /// The language's name as people write it: `C++`, `C#`.
    pub fn name(self) -> &'static str {
        match self {
            Language::Java => "Java",
            Language::Cpp => "C++",
            Language::Rust => "Rust",
            Language::CSharp => "C#",
            Language::Go => "Go",
            Language::Python => "Python",
            Language::TypeScript => "TypeScript",
            Language::C => "C",
            Language::Erlang => "Erlang",
        }
    }

    /// The language's keywords: a schema name that is one gets escaped. (C's generator also
    /// escapes the standard headers' macros, [`c::RESERVED`], and C++'s its own list.)
    pub fn keywords(self) -> &'static [&'static str] {
        match self {
            Language::Java => java::KEYWORDS,
            Language::Cpp => cpp::KEYWORDS,
            Language::Rust => rust::KEYWORDS,
            Language::CSharp => csharp::KEYWORDS,
            Language::Go => go::KEYWORDS,
            Language::Python => python::KEYWORDS,
            Language::TypeScript => typescript::KEYWORDS,
            Language::C => c::KEYWORDS,
            Language::Erlang => erlang::KEYWORDS,
        }
    }

    /// The module, namespace or package the generated code goes in, for a schema package.
    pub fn module(self, package: &str) -> String {
        match self {
            Language::Java => java::package(package),
            Language::Cpp => cpp::namespace(package),
            Language::Rust => rust::module(package),
            Language::CSharp => csharp::namespace(package),
            Language::Go => go::package(package),
            Language::Python => python::module(package),
            Language::TypeScript => typescript::module(package),
            Language::C => c::prefix(package),
            Language::Erlang => erlang::module(package),
        }
    }
}

/// The name to use as a schema's package when it declares none: its file's stem made an
/// identifier (`car.xml` -> `car`, `my-schema.xml` -> `my_schema`), or [`UNNAMED_PACKAGE`]
/// when there is no file (standard input) or the stem has no letter to start a name with.
pub fn package_for_file(path: Option<&std::path::Path>) -> String {
    let stem = path
        .and_then(std::path::Path::file_stem)
        .and_then(|s| s.to_str())
        .unwrap_or("");
    let id = common::identifier(stem);
    if id.starts_with(|c: char| c.is_ascii_alphabetic()) {
        id
    } else {
        UNNAMED_PACKAGE.to_owned()
    }
}

/// The package of a schema with none that was read from standard input.
pub const UNNAMED_PACKAGE: &str = "schema";

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn packages_for_files() {
        assert_eq!(package_for_file(Some(Path::new("dir/car.xml"))), "car");
        assert_eq!(
            package_for_file(Some(Path::new("my-schema.xml"))),
            "my_schema"
        );
        assert_eq!(package_for_file(Some(Path::new(".xml"))), "schema");
        assert_eq!(package_for_file(Some(Path::new("9.xml"))), "schema");
        assert_eq!(package_for_file(None), "schema");
    }
}

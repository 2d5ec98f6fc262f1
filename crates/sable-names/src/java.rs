//! Java: the names the Java generator (sable-codegen's `java`) gives schema names.

use crate::common;

/// Java's reserved words and literals; a name that is one gets `_` appended.
pub const KEYWORDS: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
    "_",
];

/// A type name: `fuelFigures` -> `FuelFigures`.
pub fn class_name(name: &str) -> String {
    common::escape_keyword(
        &common::upper_first(&common::identifier(name)),
        KEYWORDS,
        "_",
    )
}

/// A method or variable name: `MdEntryPx` -> `mdEntryPx`, `new` -> `new_`.
pub fn prop(name: &str) -> String {
    common::escape_keyword(
        &common::lower_first(&common::identifier(name)),
        KEYWORDS,
        "_",
    )
}

/// A name used as is (enum constants, choice accessors keep the schema's case).
pub fn ident(name: &str) -> String {
    common::escape_keyword(&common::identifier(name), KEYWORDS, "_")
}

/// The Java package for a schema package name: each dot-separated part made an identifier
/// (characters other than letters, digits and `_` become `_`; a leading digit or a keyword
/// gets `_`).
pub fn package(schema_package: &str) -> String {
    common::package_parts(schema_package, ident, ".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(class_name("fuelFigures"), "FuelFigures");
        assert_eq!(prop("MdEntryPx"), "mdEntryPx");
        assert_eq!(prop("new"), "new_");
        assert_eq!(ident("NITROUS"), "NITROUS");
        assert_eq!(package("uk.co.9lives"), "uk.co._9lives");
    }
}

//! TypeScript: the names the TypeScript generator (issue 20) is to give schema names, as the
//! usual style has them: camelCase fields and methods, PascalCase types and enum members,
//! camelCase set choices; a reserved word gets `_` appended.

use crate::common;

/// ECMAScript's reserved words and those of strict mode (modules are strict): not usable as
/// variable, parameter or class names.
pub const KEYWORDS: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "implements",
    "interface",
    "let",
    "package",
    "private",
    "protected",
    "public",
    "static",
    "yield",
    "await",
];

/// Fields, methods and set choices: `bid_px` -> `bidPx`.
pub fn camel(name: &str) -> String {
    escape(common::camel(name))
}

/// Types and enum members: `bid_px` -> `BidPx`.
pub fn pascal(name: &str) -> String {
    escape(common::pascal(name))
}

/// The module (file) name for a dotted package, without extension: `uk.co.sbe` -> `uk-co-sbe`.
pub fn module(package: &str) -> String {
    common::package_parts(package, |p| common::lower_snake(p).replace('_', "-"), "-")
}

fn escape(name: String) -> String {
    common::escape_keyword(&name, KEYWORDS, "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(camel("BID_PX"), "bidPx");
        assert_eq!(camel("function"), "function_");
        assert_eq!(pascal("side"), "Side");
        assert_eq!(module("uk.co.carExample"), "uk-co-car-example");
    }
}

//! C#: the names the C# generator (issue 17) is to give schema names, as .NET's naming
//! guidelines have them: PascalCase for types, properties, constants, enum members and set
//! choices; a keyword is escaped as a verbatim identifier (`@class`).

use crate::common;

/// C#'s reserved keywords (contextual keywords are usable as names).
pub const KEYWORDS: &[&str] = &[
    "abstract",
    "as",
    "base",
    "bool",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "checked",
    "class",
    "const",
    "continue",
    "decimal",
    "default",
    "delegate",
    "do",
    "double",
    "else",
    "enum",
    "event",
    "explicit",
    "extern",
    "false",
    "finally",
    "fixed",
    "float",
    "for",
    "foreach",
    "goto",
    "if",
    "implicit",
    "in",
    "int",
    "interface",
    "internal",
    "is",
    "lock",
    "long",
    "namespace",
    "new",
    "null",
    "object",
    "operator",
    "out",
    "override",
    "params",
    "private",
    "protected",
    "public",
    "readonly",
    "ref",
    "return",
    "sbyte",
    "sealed",
    "short",
    "sizeof",
    "stackalloc",
    "static",
    "string",
    "struct",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "uint",
    "ulong",
    "unchecked",
    "unsafe",
    "ushort",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
];

/// Types, properties, constants, enum members and set choices: `bid_px` -> `BidPx`.
pub fn pascal(name: &str) -> String {
    escape(common::pascal(name))
}

/// The namespace for a dotted package: each part PascalCase (`uk.co.sbe` -> `Uk.Co.Sbe`).
pub fn namespace(package: &str) -> String {
    common::package_parts(package, pascal, ".")
}

fn escape(name: String) -> String {
    if KEYWORDS.contains(&name.as_str()) {
        format!("@{name}")
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(pascal("bidPx"), "BidPx");
        assert_eq!(pascal("MDEntryPx"), "MdEntryPx");
        assert_eq!(namespace("uk.co.sbe"), "Uk.Co.Sbe");
    }
}

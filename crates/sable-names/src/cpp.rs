//! C++: the names the C++ generator (sable-codegen's `cpp`) gives schema names. Names keep
//! their case; only invalid characters and reserved words change.

use crate::common;

/// C++ keywords and alternative tokens.
pub const KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
];

/// Macros of the standard headers the codecs include, and names the codecs use themselves.
const RESERVED: &[&str] = &[
    "NULL", "EOF", "errno", "assert", "stdin", "stdout", "stderr", "INFINITY", "NAN", "EDOM",
    "ERANGE", "EILSEQ", "CHAR_BIT", "BUFSIZ", "sable", "std", "Decoder", "Encoder", "iterator",
];

/// A schema name as a C++ identifier: invalid characters replaced, reserved names get `_`.
pub fn ident(name: &str) -> String {
    let id = common::identifier(name);
    if KEYWORDS.contains(&id.as_str()) || RESERVED.contains(&id.as_str()) {
        format!("{id}_")
    } else {
        id
    }
}

/// The C++ namespace for a dotted package name: `a::b::c`.
pub fn namespace(package: &str) -> String {
    common::package_parts(package, ident, "::")
}

/// The header file name for a namespace: its parts joined by `_`, `.hpp`.
pub fn header(namespace: &str) -> String {
    format!("{}.hpp", namespace.replace("::", "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(namespace("uk.co.new"), "uk::co::new_");
        assert_eq!(ident("EOF"), "EOF_");
        assert_eq!(ident("a-b"), "a_b");
        assert_eq!(header("uk::co::sbe"), "uk_co_sbe.hpp");
    }
}

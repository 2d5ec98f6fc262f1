//! C: the names the C generator (planned, after TypeScript) is to give schema names. C has no
//! namespaces, so every generated identifier is prefixed by its package and type
//! (`car_fuelFigures_speed`); the schema name itself keeps its case, as in C++. A name that is a
//! keyword or a macro of the standard headers a codec includes gets `_` appended; a name that
//! starts with `_` (reserved at file scope, as is `_` then a capital or `__` everywhere) gets `x`
//! in front.

use crate::common;

/// The keywords of C11 and C17, and those C23 adds (a codec may be compiled as C23).
pub const KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Bool",
    "_Complex",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    // C23.
    "alignas",
    "alignof",
    "bool",
    "constexpr",
    "false",
    "nullptr",
    "static_assert",
    "thread_local",
    "true",
    "typeof",
    "typeof_unqual",
    "_BitInt",
    "_Decimal32",
    "_Decimal64",
    "_Decimal128",
];

/// Macros and typedefs of the standard headers a codec includes (`stdbool.h`, `stddef.h`,
/// `stdint.h`, `string.h`, `errno.h`, `limits.h`, `float.h`, `math.h`, `assert.h`), and the
/// names the codecs use themselves.
pub const RESERVED: &[&str] = &[
    "NULL",
    "EOF",
    "errno",
    "assert",
    "bool",
    "true",
    "false",
    "offsetof",
    "size_t",
    "ptrdiff_t",
    "max_align_t",
    "wchar_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "intptr_t",
    "uintptr_t",
    "SIZE_MAX",
    "CHAR_BIT",
    "INFINITY",
    "NAN",
    "HUGE_VAL",
    "EDOM",
    "ERANGE",
    "EILSEQ",
    "memcpy",
    "memset",
    "memcmp",
    "strlen",
    "stdin",
    "stdout",
    "stderr",
    "sable",
];

/// Whether `id` may not be a generated identifier's own part: a keyword, a reserved name, or
/// a name starting with `_`.
pub fn is_reserved(id: &str) -> bool {
    id.starts_with('_') || KEYWORDS.contains(&id) || RESERVED.contains(&id)
}

/// A schema name as a C identifier part: invalid characters replaced, `x` in front of a name
/// starting with `_` (or a digit, which `common::identifier` gives `_`), `_` after a keyword
/// or reserved name.
pub fn ident(name: &str) -> String {
    let id = common::identifier(name);
    if id.starts_with('_') {
        format!("x{id}")
    } else if is_reserved(&id) {
        format!("{id}_")
    } else {
        id
    }
}

/// The prefix of every identifier of a package: its dotted parts joined by `_`
/// (`uk.co.sbe` -> `uk_co_sbe`).
pub fn prefix(package: &str) -> String {
    common::package_parts(package, ident, "_")
}

/// The header file of a package: its prefix, `.h`.
pub fn header(package: &str) -> String {
    format!("{}.h", prefix(package))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(ident("fuelFigures"), "fuelFigures");
        assert_eq!(ident("a-b"), "a_b");
        assert_eq!(ident("switch"), "switch_");
        assert_eq!(ident("errno"), "errno_");
        assert_eq!(ident("bool"), "bool_");
        assert_eq!(ident("NULL"), "NULL_");
        assert_eq!(ident("_Private"), "x_Private");
        assert_eq!(ident("__x"), "x__x");
        assert_eq!(ident("_lower"), "x_lower");
        assert_eq!(ident("9lives"), "x_9lives");
        assert_eq!(prefix("uk.co.sbe"), "uk_co_sbe");
        assert_eq!(prefix("a.static"), "a_static_");
        assert_eq!(header("uk.co.sbe"), "uk_co_sbe.h");
    }

    #[test]
    fn reserved_identifiers() {
        for id in ["_Bool", "__func__", "_x", "while", "true", "uint8_t", "EOF"] {
            assert!(is_reserved(id), "{id}");
            assert!(!is_reserved(&ident(id)), "{id} -> {}", ident(id));
        }
        assert!(!is_reserved("price"));
    }
}

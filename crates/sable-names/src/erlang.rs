//! Erlang: the names the Erlang generator (planned, after C) is to give schema names, as
//! Erlang's style has them: snake_case modules, records and functions (`bid_px/1` decodes,
//! `bid_px/2` encodes), enum values and set choices as snake_case atoms, variables in
//! PascalCase. A module, record or function name that is a reserved word gets `_` appended; an
//! atom that cannot be written bare is quoted (`'end'`, `'Nitrous'`).

use crate::common;

/// Erlang's reserved words (OTP 27: `maybe` and `else` included, the `maybe` expression being
/// on by default).
pub const KEYWORDS: &[&str] = &[
    "after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor", "case",
    "catch", "cond", "div", "else", "end", "fun", "if", "let", "maybe", "not", "of", "or",
    "orelse", "receive", "rem", "try", "when", "xor",
];

/// Whether `atom` must be quoted in source: unless it starts with a lower-case letter and goes
/// on with letters, digits, `_` and `@`, and is no reserved word.
pub fn needs_quotes(atom: &str) -> bool {
    let mut chars = atom.chars();
    let bare = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@');
    !bare || KEYWORDS.contains(&atom)
}

/// `atom` as written in source: bare, or between single quotes (`\` and `'` escaped).
pub fn atom(atom: &str) -> String {
    if !needs_quotes(atom) {
        return atom.to_owned();
    }
    let mut out = String::from("'");
    for c in atom.chars() {
        if c == '\'' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('\'');
    out
}

/// Modules, records and functions: `bidPx` -> `bid_px`; a reserved word gets `_`; a name that
/// does not start with a letter gets `x` in front, so none needs quotes.
pub fn snake(name: &str) -> String {
    let mut s = common::lower_snake(name);
    if !s.starts_with(|c: char| c.is_ascii_lowercase()) {
        s.insert(0, 'x');
    }
    common::escape_keyword(&s, KEYWORDS, "_")
}

/// The atom of an enum's value or a set's choice: `NITROUS` -> `nitrous`, `end` -> `end` (the
/// atom's text; [`atom`] writes it, `'end'`).
pub fn value(name: &str) -> String {
    common::lower_snake(name)
}

/// Variables (the generated code's parameters and bindings): `bid_px` -> `BidPx`.
pub fn variable(name: &str) -> String {
    let p = common::pascal(name);
    if p.starts_with(|c: char| c.is_ascii_uppercase()) {
        p
    } else {
        format!("V{p}")
    }
}

/// The module prefix for a dotted package: `uk.co.sbe` -> `uk_co_sbe` (a message's module is
/// the prefix, `_`, and the message's snake_case name).
pub fn module(package: &str) -> String {
    snake(&package.replace('.', "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake("bidPx"), "bid_px");
        assert_eq!(snake("end"), "end_");
        assert_eq!(snake("receive"), "receive_");
        assert_eq!(snake("_x"), "x");
        assert_eq!(snake("9lives"), "x_9lives");
        assert_eq!(value("NITROUS"), "nitrous");
        assert_eq!(variable("bid_px"), "BidPx");
        assert_eq!(module("uk.co.sbe"), "uk_co_sbe");
        assert_eq!(module("of"), "of_");
    }

    #[test]
    fn atoms_quoted_when_needed() {
        assert!(!needs_quotes("nitrous"));
        assert!(!needs_quotes("a@b_1"));
        for a in ["end", "maybe", "Nitrous", "_x", "1a", "a-b", "", "a b", "é"] {
            assert!(needs_quotes(a), "{a:?}");
        }
        assert_eq!(atom("nitrous"), "nitrous");
        assert_eq!(atom("end"), "'end'");
        assert_eq!(atom("Nitrous"), "'Nitrous'");
        assert_eq!(atom("it's"), "'it\\'s'");
        assert_eq!(atom("a\\b"), "'a\\\\b'");
    }
}

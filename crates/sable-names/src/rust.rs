//! Rust: the names the Rust generator (sable-codegen's `rust`) gives schema names.

use crate::common;

/// Rust's strict and reserved keywords (and `union`); a name that is one gets `_` appended.
pub const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen", "union",
];

/// Method names the generated types use themselves, or that clippy expects to implement a
/// trait: a field with such a name gets `_` appended.
pub const RESERVED_METHODS: &[&str] = &[
    "decode",
    "decode_body",
    "header",
    "wrap",
    "new",
    "new_body",
    "acting_version",
    "acting_block_length",
    "encoded_length",
    "next",
    "next_entry",
    "default",
    "clone",
    "hash",
    "eq",
    "cmp",
    "partial_cmp",
    "add",
    "sub",
    "mul",
    "div",
    "neg",
    "not",
    "deref",
    "drop",
    "index",
    "borrow",
    "as_ref",
    "as_mut",
    "into_iter",
    "from_iter",
    "from_str",
    "fmt",
    "to_string",
    "count",
    "len",
    "is_empty",
];

/// `MDEntryPx` -> `md_entry_px`, `serialNumber` -> `serial_number`.
pub fn snake(name: &str) -> String {
    let id = common::identifier(name);
    let mut out = String::new();
    for c in common::upper_snake(&id).to_lowercase().chars() {
        if c == '_' && (out.ends_with('_')) {
            continue;
        }
        out.push(c);
    }
    let trimmed = out.trim_end_matches('_');
    let mut s = if trimmed.is_empty() {
        "_x".to_owned()
    } else {
        trimmed.to_owned()
    };
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    if KEYWORDS.contains(&s.as_str()) {
        s.push('_');
    }
    s
}

/// A method name for a field: snake case, with `_` appended when reserved.
pub fn method(name: &str) -> String {
    let s = snake(name);
    if RESERVED_METHODS.contains(&s.as_str()) {
        format!("{s}_")
    } else {
        s
    }
}

/// `fuelFigures` -> `FUEL_FIGURES`.
pub fn upper(name: &str) -> String {
    snake(name).trim_end_matches('_').to_uppercase()
}

/// `fuelFigures` -> `FuelFigures`, `NITROUS` -> `Nitrous`, `new_order` -> `NewOrder`.
pub fn camel(name: &str) -> String {
    let id = common::identifier(name);
    let mut out = String::new();
    for part in id.split('_').filter(|p| !p.is_empty()) {
        let all_upper = part.chars().all(|c| !c.is_lowercase()) && part.len() > 1;
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            if all_upper {
                out.extend(chars.flat_map(char::to_lowercase));
            } else {
                out.extend(chars);
            }
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

/// The module (file) name for a package: snake case, dots as `_`.
pub fn module(package: &str) -> String {
    snake(&package.replace('.', "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake("MDEntryPx"), "md_entry_px");
        assert_eq!(snake("serialNumber"), "serial_number");
        assert_eq!(snake("type"), "type_");
        assert_eq!(method("next"), "next_");
        assert_eq!(upper("fuelFigures"), "FUEL_FIGURES");
        assert_eq!(camel("NITROUS"), "Nitrous");
        assert_eq!(camel("fuelFigures"), "FuelFigures");
        assert_eq!(camel("MDEntryType"), "MDEntryType");
        assert_eq!(camel("new_order"), "NewOrder");
        assert_eq!(camel("9x"), "V9x");
        assert_eq!(module("uk.co.sbe"), "uk_co_sbe");
    }
}

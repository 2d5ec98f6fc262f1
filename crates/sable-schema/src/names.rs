//! Names that will not work as identifiers in the languages Sable generates (each language's
//! keywords come from sable-names).

use std::collections::HashSet;
use std::sync::OnceLock;

use sable_names::Language;

/// Whether `name` is a keyword in any target language: one lookup, where a schema of a million
/// names would otherwise compare each with every language's list.
fn is_any_keyword(name: &str) -> bool {
    static ALL: OnceLock<HashSet<&'static str>> = OnceLock::new();
    ALL.get_or_init(|| {
        Language::ALL
            .iter()
            .flat_map(|l| l.keywords().iter().copied())
            .collect()
    })
    .contains(name)
}

/// Whether `name` is an identifier in every target language: ASCII letter or underscore, then
/// letters, digits and underscores.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// What is wrong with `name` as an identifier in generated code, if anything.
pub fn problem(name: &str) -> Option<String> {
    if !is_identifier(name) {
        return Some(format!(
            "name \"{name}\" is not a valid identifier in generated code (letters, digits and _ only, not starting with a digit)"
        ));
    }
    if !is_any_keyword(name) {
        return None;
    }
    let languages: Vec<&str> = Language::ALL
        .iter()
        .filter(|l| l.keywords().contains(&name))
        .map(|l| l.name())
        .collect();
    if languages.is_empty() {
        None
    } else {
        Some(format!(
            "name \"{name}\" is a keyword in {}",
            languages.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_keywords_and_invalid_identifiers() {
        assert!(problem("price").is_none());
        assert!(problem("_x1").is_none());
        assert!(problem("invalid field name")
            .unwrap()
            .contains("not a valid identifier"));
        assert!(problem("1abc").is_some());
        let p = problem("false").unwrap();
        assert!(
            p.contains("Java") && p.contains("C++") && p.contains("C#"),
            "{p}"
        );
        assert!(problem("type").unwrap().contains("Go"));
        // C's and Erlang's lists too (sable-names).
        assert_eq!(
            problem("receive").unwrap(),
            "name \"receive\" is a keyword in Erlang"
        );
        assert_eq!(
            problem("restrict").unwrap(),
            "name \"restrict\" is a keyword in C"
        );
    }
}

//! Naming helpers shared by the generators: case conversion and identifier cleaning.

/// `fuelFigures` -> `FuelFigures`.
pub fn upper_first(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `FuelFigures` -> `fuelFigures`.
pub fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `fuelFigures` -> `FUEL_FIGURES`; `MDEntryPx` -> `MD_ENTRY_PX`.
pub fn upper_snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if i > 0 && c.is_uppercase() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push('_');
            }
        }
        out.extend(c.to_uppercase());
    }
    out
}

/// Replaces every character that may not appear in an identifier with `_`, and prefixes `_` when
/// the name starts with a digit (or is empty).
pub fn identifier(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// `name` with `suffix` appended when it is one of `keywords`.
pub fn escape_keyword(name: &str, keywords: &[&str], suffix: &str) -> String {
    if keywords.contains(&name) {
        format!("{name}{suffix}")
    } else {
        name.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_case() {
        assert_eq!(upper_first("fuelFigures"), "FuelFigures");
        assert_eq!(lower_first("MdEntryPx"), "mdEntryPx");
        assert_eq!(upper_snake("fuelFigures"), "FUEL_FIGURES");
        assert_eq!(upper_snake("MDEntryPx"), "MD_ENTRY_PX");
        assert_eq!(upper_snake("a1B"), "A1_B");
    }

    #[test]
    fn cleans_identifiers() {
        assert_eq!(identifier("SBE tests"), "SBE_tests");
        assert_eq!(identifier("baseline-bigendian"), "baseline_bigendian");
        assert_eq!(identifier("9lives"), "_9lives");
        assert_eq!(escape_keyword("new", &["new"], "_"), "new_");
        assert_eq!(escape_keyword("old", &["new"], "_"), "old");
    }
}

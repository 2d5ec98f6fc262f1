//! Case conversion and identifier cleaning, shared by every language's rules.

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

/// Each non-empty dot-separated part of `package` through `part`, joined by `separator`.
pub fn package_parts(package: &str, part: impl Fn(&str) -> String, separator: &str) -> String {
    package
        .split('.')
        .filter(|p| !p.is_empty())
        .map(part)
        .collect::<Vec<_>>()
        .join(separator)
}

/// `name` with `suffix` appended when it is one of `keywords`.
pub fn escape_keyword(name: &str, keywords: &[&str], suffix: &str) -> String {
    if keywords.contains(&name) {
        format!("{name}{suffix}")
    } else {
        name.to_owned()
    }
}

/// The words of a name, in their own case: split at `_` and where `upper_snake` would put one
/// (`MDEntryPx` -> `MD`, `Entry`, `Px`; `bid_px` -> `bid`, `px`), after cleaning to an identifier.
pub fn words(name: &str) -> Vec<String> {
    let id = identifier(name);
    let chars: Vec<char> = id.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            words.push(std::mem::take(&mut word));
            continue;
        }
        if i > 0 && c.is_uppercase() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                words.push(std::mem::take(&mut word));
            }
        }
        word.push(c);
    }
    words.push(word);
    words.retain(|w| !w.is_empty());
    words
}

/// `bid_px`, `bidPx`, `BID_PX` -> `BidPx`; `MDEntryPx` -> `MdEntryPx`: every word capitalised,
/// the rest of it lower case. `V` goes in front of a leading digit or an empty name.
pub fn pascal(name: &str) -> String {
    let mut out: String = words(name).iter().map(|w| capitalised(w)).collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

/// `bid_px`, `BidPx` -> `bidPx`; `MDEntryPx` -> `mdEntryPx`. `_` goes in front of a leading
/// digit or an empty name.
pub fn camel(name: &str) -> String {
    let mut out = String::new();
    for (i, w) in words(name).iter().enumerate() {
        if i == 0 {
            out.push_str(&w.to_lowercase());
        } else {
            out.push_str(&capitalised(w));
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// `bidPx`, `BidPx`, `BID_PX` -> `bid_px`. `_` goes in front of a leading digit or an empty name.
pub fn lower_snake(name: &str) -> String {
    let mut out = words(name)
        .iter()
        .map(|w| w.to_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// `bidPx` -> `BID_PX`, with the same words as [`lower_snake`].
pub fn screaming_snake(name: &str) -> String {
    lower_snake(name).to_uppercase()
}

/// `px` -> `Px`, `MD` -> `Md`.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
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

    #[test]
    fn splits_words() {
        assert_eq!(words("MDEntryPx"), ["MD", "Entry", "Px"]);
        assert_eq!(words("bid_px"), ["bid", "px"]);
        assert_eq!(words("a-b"), ["a", "b"]);
        assert_eq!(pascal("bid_px"), "BidPx");
        assert_eq!(pascal("MDEntryPx"), "MdEntryPx");
        assert_eq!(pascal("9x"), "V9x");
        assert_eq!(camel("BID_PX"), "bidPx");
        assert_eq!(lower_snake("bidPx"), "bid_px");
        assert_eq!(screaming_snake("fuelFigures"), "FUEL_FIGURES");
    }
}

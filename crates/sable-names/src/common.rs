//! Case conversion and identifier cleaning, shared by every language's rules.

use std::borrow::Cow;

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
    cleaned(name).into_owned()
}

/// [`identifier`], borrowing the name when it already is one (as nearly every name is).
fn cleaned(name: &str) -> Cow<'_, str> {
    let allowed = |c: char| c.is_alphanumeric() || c == '_';
    let starts_well = name.starts_with(|c: char| !c.is_ascii_digit());
    if starts_well && name.chars().all(allowed) {
        return Cow::Borrowed(name);
    }
    let mut out: String = name
        .chars()
        .map(|c| if allowed(c) { c } else { '_' })
        .collect();
    if !starts_well {
        out.insert(0, '_');
    }
    Cow::Owned(out)
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
    let mut words = Vec::new();
    each_word(name, |w| words.push(w.to_owned()));
    words
}

/// Calls `f` with each of [`words`]' words, without allocating them (names are converted
/// millions of times in a large schema's check).
fn each_word(name: &str, mut f: impl FnMut(&str)) {
    let id = cleaned(name);
    let id = id.as_ref();
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut chars = id.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '_' {
            if start < i {
                f(&id[start..i]);
            }
            start = i + 1;
        } else if let Some(prev) = prev.filter(|_| c.is_uppercase()) {
            let next_lower = chars.peek().is_some_and(|(_, n)| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                if start < i {
                    f(&id[start..i]);
                }
                start = i;
            }
        }
        prev = Some(c);
    }
    if start < id.len() {
        f(&id[start..]);
    }
}

/// `bid_px`, `bidPx`, `BID_PX` -> `BidPx`; `MDEntryPx` -> `MdEntryPx`: every word capitalised,
/// the rest of it lower case. `V` goes in front of a leading digit or an empty name.
pub fn pascal(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 1);
    each_word(name, |w| push_capitalised(&mut out, w));
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

/// `bid_px`, `BidPx` -> `bidPx`; `MDEntryPx` -> `mdEntryPx`. `_` goes in front of a leading
/// digit or an empty name.
pub fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 1);
    each_word(name, |w| {
        if out.is_empty() {
            out.extend(w.chars().flat_map(char::to_lowercase));
        } else {
            push_capitalised(&mut out, w);
        }
    });
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// `bidPx`, `BidPx`, `BID_PX` -> `bid_px`. `_` goes in front of a leading digit or an empty name.
pub fn lower_snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut first = true;
    each_word(name, |w| {
        if !first {
            out.push('_');
        }
        first = false;
        out.extend(w.chars().flat_map(char::to_lowercase));
    });
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// `bidPx` -> `BID_PX`, with the same words as [`lower_snake`].
pub fn screaming_snake(name: &str) -> String {
    lower_snake(name).to_uppercase()
}

/// Appends `px` as `Px`, `MD` as `Md`.
fn push_capitalised(out: &mut String, word: &str) {
    let mut chars = word.chars();
    if let Some(c) = chars.next() {
        out.extend(c.to_uppercase());
        out.extend(chars.flat_map(char::to_lowercase));
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
        assert_eq!(words("__a__B_"), ["a", "B"]);
        assert_eq!(words("ABCdef1Gh"), ["AB", "Cdef1", "Gh"]);
        assert_eq!(words("ÄbcÖl"), ["Äbc", "Öl"]);
        assert_eq!(pascal(""), "V");
        assert_eq!(pascal("_"), "V");
        assert_eq!(camel("_"), "_");
        assert_eq!(camel("X_y"), "xY");
        assert_eq!(lower_snake("9Lives"), "_9_lives");
        assert_eq!(pascal("ßx"), "SSx");
    }
}

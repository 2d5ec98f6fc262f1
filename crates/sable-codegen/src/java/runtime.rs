//! Java classes every generated package holds, kept as real Java source files under `runtime/`
//! (compiled and tested on their own by `tests/javac.rs`). Each file is written in the package
//! `sable.runtime`; the one substitution made is that package line: it becomes the generated
//! package's (or goes, for the default package). They do not depend on the buffer type.

/// The classes: file name without `.java`, and the source.
const CLASSES: [(&str, &str); 2] = [
    (
        "SbeDecodeException",
        include_str!("runtime/SbeDecodeException.java"),
    ),
    (
        "SbeEncodeException",
        include_str!("runtime/SbeEncodeException.java"),
    ),
];

/// The line each runtime source declares its package with.
pub const TEMPLATE_PACKAGE: &str = "package sable.runtime;";

/// The runtime classes for `package`: class name and source.
pub fn classes(package: &str) -> Vec<(&'static str, String)> {
    CLASSES
        .iter()
        .map(|(name, source)| (*name, in_package(source, package)))
        .collect()
}

/// `source` with its package line naming `package` (removed, with the blank line after it, for
/// the default package).
pub fn in_package(source: &str, package: &str) -> String {
    if package.is_empty() {
        source.replacen(&format!("{TEMPLATE_PACKAGE}\n\n"), "", 1)
    } else {
        source.replacen(TEMPLATE_PACKAGE, &format!("package {package};"), 1)
    }
}

/// The runtime sources as they are in the repository (for compiling them on their own).
pub fn template_sources() -> impl Iterator<Item = (&'static str, &'static str)> {
    CLASSES.iter().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_declares_the_template_package_once() {
        for (name, source) in CLASSES {
            assert_eq!(source.matches(TEMPLATE_PACKAGE).count(), 1, "{name}");
            assert!(source.contains(&format!("public final class {name}")), "{name}");
        }
    }

    #[test]
    fn the_package_line_is_substituted_or_removed() {
        let (_, in_pkg) = &classes("com.example")[0];
        assert!(in_pkg.contains("package com.example;"));
        assert!(!in_pkg.contains("sable.runtime"));
        let (_, default) = &classes("")[0];
        assert!(!default.contains("package "));
    }
}

//! Java classes every generated package holds, kept as real Java source files under `runtime/`
//! (compiled and tested on their own by `tests/javac.rs`). Each file is written in the package
//! `sable.runtime`, and that package line is substituted: it becomes the generated package's (or
//! goes, for the default package). The exceptions do not depend on the buffer type.
//!
//! `SbeSupport.java` does: it is written in the MemorySegment flavour, and marked for the Agrona
//! flavour (see `flavour` and the file's own `//@note` lines): whole lines between
//! `//@segment-start` and `//@segment-end` or ending in `//@segment` are the segment flavour's
//! only, lines starting with `//@agrona ` the Agrona flavour's (commented out in the template),
//! and `/*R*/MemorySegment`, `/*W*/MemorySegment`, `/*O*/long` are the read buffer, write buffer
//! and offset types.

use super::buffer::Buffer;

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

/// `SbeSupport`, the package-private helpers of the generated codecs, in the template's markup.
const SUPPORT: &str = include_str!("runtime/SbeSupport.java");

/// `SbeSupport` for `package` in the buffer flavour `buffer`.
pub fn support(package: &str, buffer: Buffer) -> String {
    in_package(&flavour(SUPPORT, buffer), package)
}

/// The template `source` in the buffer flavour `buffer` (the markup the module's doc describes).
fn flavour(source: &str, buffer: Buffer) -> String {
    let agrona = buffer.is_agrona();
    let mut out = String::with_capacity(source.len());
    let mut in_segment_block = false;
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("//@note") {
            continue;
        }
        if code == "//@segment-start" || code == "//@segment-end" {
            in_segment_block = code == "//@segment-start";
            continue;
        }
        let segment_only = in_segment_block || line.ends_with("//@segment");
        let text = match code.strip_prefix("//@agrona ") {
            Some(rest) if agrona => format!("{}{rest}", &line[..line.len() - code.len()]),
            Some(_) => continue,
            None if segment_only && agrona => continue,
            None => line.trim_end_matches("//@segment").trim_end().to_owned(),
        };
        let text = if agrona {
            text.replace("/*R*/MemorySegment", buffer.source_type())
                .replace("/*W*/MemorySegment", buffer.dest_type())
                .replace("/*O*/long", buffer.off())
        } else {
            text.replace("/*R*/", "")
                .replace("/*W*/", "")
                .replace("/*O*/", "")
        };
        out.push_str(&text);
        out.push('\n');
    }
    out
}

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
    CLASSES.iter().copied().chain([("SbeSupport", SUPPORT)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_declares_the_template_package_once() {
        for (name, source) in CLASSES {
            assert_eq!(source.matches(TEMPLATE_PACKAGE).count(), 1, "{name}");
            assert!(
                source.contains(&format!("public final class {name}")),
                "{name}"
            );
        }
    }

    #[test]
    fn the_flavours_keep_their_own_lines_and_types() {
        let template = "a\n//@note gone\n//@segment-start\nseg\n//@segment-end\n  x(); //@segment\n  //@agrona y();\nf(/*R*/MemorySegment r, /*W*/MemorySegment w, /*O*/long o)\n";
        assert_eq!(
            flavour(template, Buffer::Segment),
            "a\nseg\n  x();\nf(MemorySegment r, MemorySegment w, long o)\n"
        );
        assert_eq!(
            flavour(template, Buffer::Agrona),
            "a\n  y();\nf(DirectBuffer r, MutableDirectBuffer w, int o)\n"
        );
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

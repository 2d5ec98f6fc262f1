//! A crate's module graph read from its sources, for tests that keep its imports one-way.
//!
//! Each source file is a module (`lib.rs` is `crate`, `a/b.rs` or `a/b/mod.rs` is `a::b`). A
//! module depends on another when its code names it: a `use` of `crate::..`, `super::..` or
//! `self::..`, a child module's name (`use child::X`, `child::f()`), or such a path anywhere in
//! its code (`crate::write::write_json_str(..)`). Declaring a child (`mod child;`) is not a
//! dependency; code in an inline module (`mod tests { use super::*; }`) counts as its file's.
//! Comments, strings and character literals are skipped, so documentation links are not
//! dependencies.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::Path;

/// The modules of a crate and which names which.
#[derive(Debug, Clone, Default)]
pub struct ModuleGraph {
    /// Each module's path (`crate`, `json`, `json::run`) and its source file.
    modules: BTreeMap<String, String>,
    /// `from -> to -> line` (the first line of `from`'s file that names `to`).
    edges: BTreeMap<String, BTreeMap<String, usize>>,
}

impl ModuleGraph {
    /// The graph of the crate whose sources are under `src` (its `lib.rs` or `main.rs` the
    /// root).
    pub fn of_dir(src: &Path) -> io::Result<ModuleGraph> {
        let mut files = Vec::new();
        collect(src, src, &mut files)?;
        let mut sources = Vec::new();
        for (module, path) in files {
            let text = std::fs::read_to_string(src.join(&path))?;
            sources.push((module, path, text));
        }
        Ok(ModuleGraph::from_sources(
            sources
                .iter()
                .map(|(m, p, t)| (m.as_str(), p.as_str(), t.as_str())),
        ))
    }

    /// The graph of modules given as `(module path, file name, source)`.
    pub fn from_sources<'a>(
        sources: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
    ) -> ModuleGraph {
        let sources: Vec<_> = sources.into_iter().collect();
        let mut graph = ModuleGraph::default();
        for (module, file, _) in &sources {
            graph.modules.insert(module.to_string(), file.to_string());
        }
        for (module, _, text) in &sources {
            for (inline, path, line) in paths(text) {
                let mut here = segments(module);
                here.extend(inline);
                if let Some(to) = graph.resolve(&here, &path) {
                    if to != *module {
                        graph
                            .edges
                            .entry(module.to_string())
                            .or_default()
                            .entry(to)
                            .or_insert(line);
                    }
                }
            }
        }
        graph
    }

    /// Every module's path.
    pub fn modules(&self) -> impl Iterator<Item = &str> {
        self.modules.keys().map(String::as_str)
    }

    /// The modules `module` names, with the first line that does.
    pub fn imports(&self, module: &str) -> impl Iterator<Item = (&str, usize)> {
        self.edges
            .get(module)
            .into_iter()
            .flat_map(|m| m.iter().map(|(to, &line)| (to.as_str(), line)))
    }

    /// A cycle of imports (`a`, `b`, ..., each naming the next and the last naming `a`), if
    /// there is one.
    pub fn cycle(&self) -> Option<Vec<String>> {
        #[derive(Clone, Copy, PartialEq)]
        enum Seen {
            No,
            OnPath,
            Done,
        }
        fn visit(
            g: &ModuleGraph,
            m: &str,
            seen: &mut BTreeMap<String, Seen>,
            path: &mut Vec<String>,
        ) -> Option<Vec<String>> {
            seen.insert(m.to_owned(), Seen::OnPath);
            path.push(m.to_owned());
            for (to, _) in g.imports(m) {
                match seen.get(to).copied().unwrap_or(Seen::No) {
                    Seen::OnPath => {
                        let at = path.iter().position(|p| p == to).unwrap_or(0);
                        return Some(path[at..].to_vec());
                    }
                    Seen::No => {
                        if let Some(c) = visit(g, to, seen, path) {
                            return Some(c);
                        }
                    }
                    Seen::Done => {}
                }
            }
            path.pop();
            seen.insert(m.to_owned(), Seen::Done);
            None
        }
        let mut seen = BTreeMap::new();
        for m in self.modules.keys() {
            if seen.get(m).copied().unwrap_or(Seen::No) == Seen::No {
                if let Some(c) = visit(self, m, &mut seen, &mut Vec::new()) {
                    return Some(c);
                }
            }
        }
        None
    }

    /// `cycle` written out, one import a line with the file and line that makes it.
    pub fn describe(&self, cycle: &[String]) -> String {
        let mut out = String::from("import cycle:\n");
        for (i, from) in cycle.iter().enumerate() {
            let to = &cycle[(i + 1) % cycle.len()];
            let line = self.edges.get(from).and_then(|m| m.get(to)).unwrap_or(&0);
            let file = self.modules.get(from).map_or("?", String::as_str);
            out.push_str(&format!("  {from} -> {to} ({file}:{line})\n"));
        }
        out
    }

    /// The module a path names from module `here` (the deepest module of the crate it goes
    /// through), or `None` when it names none (a path of another crate, a local item).
    fn resolve(&self, here: &[String], path: &[String]) -> Option<String> {
        let (mut base, rest): (Vec<String>, &[String]) = match path.first()?.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (here.to_vec(), &path[1..]),
            "super" => {
                let mut base = here.to_vec();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                (base, rest)
            }
            first => {
                let mut child = here.to_vec();
                child.push(first.to_owned());
                if !self.modules.contains_key(&join(&child)) {
                    return None;
                }
                (here.to_vec(), path)
            }
        };
        for seg in rest {
            base.push(seg.clone());
            if !self.modules.contains_key(&join(&base)) {
                base.pop();
                break;
            }
        }
        // Inline modules (`tests`) are part of their file's module.
        while !base.is_empty() && !self.modules.contains_key(&join(&base)) {
            base.pop();
        }
        Some(join(&base))
    }
}

impl fmt::Display for ModuleGraph {
    /// One line per module: `module -> its imports`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in self.modules.keys() {
            let to: Vec<&str> = self.imports(m).map(|(t, _)| t).collect();
            writeln!(f, "{m} -> {}", to.join(", "))?;
        }
        Ok(())
    }
}

fn join(segments: &[String]) -> String {
    if segments.is_empty() {
        "crate".to_owned()
    } else {
        segments.join("::")
    }
}

fn segments(module: &str) -> Vec<String> {
    if module == "crate" {
        Vec::new()
    } else {
        module.split("::").map(str::to_owned).collect()
    }
}

/// The `.rs` files under `dir` as `(module path, path relative to root)`.
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let path = e.path();
        if path.is_dir() {
            collect(root, &path, out)?;
            continue;
        }
        if path.extension().and_then(|x| x.to_str()) != Some("rs") {
            continue;
        }
        let rel = path.strip_prefix(root).unwrap_or(&path);
        let mut parts: Vec<String> = rel
            .with_extension("")
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if parts.last().is_some_and(|l| l == "mod") {
            parts.pop();
        }
        if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
            parts.clear();
        }
        out.push((join(&parts), rel.to_string_lossy().into_owned()));
    }
    Ok(())
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// The tokens of Rust source that matter to paths, each with its line; comments, strings and
/// character literals left out, lifetimes too.
fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if ch == '"' || (matches!(ch, 'b' | 'c') && at(i + 1) == '"') {
            i += if ch == '"' { 1 } else { 2 };
            while i < c.len() && c[i] != '"' {
                line += usize::from(c[i] == '\n');
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if let Some(hashes) = raw_string_start(&c, i) {
            // r"..", r#".."#, br#".."#
            while i < c.len() && c[i] != '"' {
                i += 1;
            }
            i += 1;
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat('#').take(hashes))
                .collect();
            while i < c.len() && !c[i..].starts_with(&close) {
                line += usize::from(c[i] == '\n');
                i += 1;
            }
            i += close.len();
        } else if ch == '\'' || (ch == 'b' && at(i + 1) == '\'') {
            let q = if ch == '\'' { i } else { i + 1 };
            if at(q + 1) == '\\' {
                // An escaped character: up to the closing quote.
                i = q + 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(q + 2) == '\'' {
                i = q + 3;
            } else {
                // A lifetime or label.
                i = q + 1;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            out.push((Tok::Ident(word.trim_start_matches("r#").to_owned()), line));
        } else if ch == ':' && at(i + 1) == ':' {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// The number of `#` of a raw string starting at `i` (`r"`, `r#"`, `br##"`...).
fn raw_string_start(c: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(c.get(j), Some('b' | 'c')) {
        j += 1;
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = c[j..].iter().take_while(|&&h| h == '#').count();
    (c.get(j + hashes) == Some(&'"')).then_some(hashes)
}

/// A path found in a file: the inline modules it is in (`tests`), its segments, its line.
type Found = (Vec<String>, Vec<String>, usize);

/// Every path in `text` that could name a module: each `use` tree expanded, and every other
/// `a::b::c` (its segments up to the first that is not a name).
fn paths(text: &str) -> Vec<Found> {
    let toks = tokens(text);
    let tok = |i: usize| toks.get(i).map(|t| &t.0);
    let mut out = Vec::new();
    // The inline modules open (`mod name {`), with the brace depth inside each.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let line = toks[i].1;
        let within = || inline.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        match &toks[i].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some(Tok::Ident(name)), Some(Tok::Punct('{'))) = (tok(i + 1), tok(i + 2)) {
                    depth += 1;
                    inline.push((name.clone(), depth));
                    i += 3;
                    continue;
                }
            }
            Tok::Ident(w) if w == "use" => {
                let mut found = Vec::new();
                i = use_tree(&toks, i + 1, &mut Vec::new(), line, &mut found);
                let here = within();
                out.extend(found.into_iter().map(|(p, l)| (here.clone(), p, l)));
                continue;
            }
            Tok::Ident(_) => {
                let after_path = i > 0 && tok(i - 1) == Some(&Tok::Path);
                // `pub(in crate::a)` is a visibility, not a use of `a`.
                let visibility = i > 1
                    && tok(i - 1) == Some(&Tok::Ident("in".into()))
                    && tok(i - 2) == Some(&Tok::Punct('('));
                if !after_path && !visibility && tok(i + 1) == Some(&Tok::Path) {
                    let mut path = Vec::new();
                    let mut j = i;
                    while let Some(Tok::Ident(w)) = tok(j) {
                        path.push(w.clone());
                        if tok(j + 1) != Some(&Tok::Path) {
                            break;
                        }
                        j += 2;
                    }
                    out.push((within(), path, line));
                    i = j + 1;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Reads a `use` tree from `i` (after `use`, or in a group), pushing each path it names (below
/// `prefix`) to `out`; returns the index after it (after the `;` at the top level).
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: &mut Vec<String>,
    line: usize,
    out: &mut Vec<(Vec<String>, usize)>,
) -> usize {
    let depth = prefix.len();
    let top = prefix.is_empty();
    loop {
        match toks.get(i).map(|t| &t.0) {
            Some(Tok::Ident(w)) if w == "as" => i += 2,
            Some(Tok::Ident(w)) if w == "self" && !prefix.is_empty() => i += 1,
            Some(Tok::Ident(w)) => {
                prefix.push(w.clone());
                i += 1;
            }
            Some(Tok::Path | Tok::Punct('*')) => i += 1,
            Some(Tok::Punct('{')) => {
                out.push((prefix.clone(), line));
                i += 1;
                loop {
                    match toks.get(i).map(|t| &t.0) {
                        Some(Tok::Punct('}')) => {
                            i += 1;
                            break;
                        }
                        Some(Tok::Punct(',')) => i += 1,
                        None => break,
                        _ => i = use_tree(toks, i, &mut prefix.clone(), line, out),
                    }
                }
            }
            next => {
                if prefix.len() > depth || (top && !prefix.is_empty()) {
                    out.push((prefix.clone(), line));
                }
                return if top && next == Some(&Tok::Punct(';')) {
                    i + 1
                } else {
                    i
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(sources: &[(&str, &str)]) -> ModuleGraph {
        ModuleGraph::from_sources(sources.iter().map(|(m, t)| (*m, *m, *t)))
    }

    fn imports(g: &ModuleGraph, m: &str) -> Vec<String> {
        g.imports(m).map(|(t, _)| t.to_owned()).collect()
    }

    #[test]
    fn paths_of_every_form_are_found() {
        let g = graph(&[
            ("crate", "mod a; mod b; pub use b::X;"),
            (
                "a",
                "use crate::b::{self, X as Y};\nfn f() { super::c::g(); }\nmod child;",
            ),
            ("a::child", "use super::super::d::Z;"),
            ("b", "pub struct X; fn f() { crate::e::h() }"),
            ("c", "fn g() { inner::k(); } mod inner { pub fn k() {} }"),
            (
                "d",
                "#[cfg(test)] mod tests { use super::*; use crate::e; }",
            ),
            ("e", "pub(in crate::a) fn h() {}"),
        ]);
        assert_eq!(imports(&g, "crate"), ["b"]);
        assert_eq!(imports(&g, "a"), ["b", "c"]);
        assert_eq!(imports(&g, "a::child"), ["d"]);
        assert_eq!(imports(&g, "b"), ["e"]);
        assert!(
            imports(&g, "c").is_empty(),
            "an inline module is its file's"
        );
        assert_eq!(imports(&g, "d"), ["e"]);
        assert!(imports(&g, "e").is_empty(), "a visibility is no import");
        assert_eq!(g.cycle(), None);
    }

    #[test]
    fn comments_strings_and_chars_are_not_paths() {
        let g = graph(&[
            ("crate", ""),
            ("a", "// crate::b::x\n/* crate::b */ fn f<'a>(s: &'a str) -> char { let _ = \"crate::b::x\"; let _ = r#\"crate::b\"#; '\"' }\n/// [`crate::b`]"),
            ("b", "fn g() -> u8 { b'\\'' }"),
        ]);
        assert!(imports(&g, "a").is_empty(), "{g}");
    }

    #[test]
    fn a_cycle_is_found_and_described() {
        let g = graph(&[
            ("crate", ""),
            ("decode", "fn key() { crate::json::write_json_str(); }"),
            ("json", "use crate::decode::Value;\nmod run;"),
            ("json::run", "use crate::decode::Plan;"),
            ("program", "use super::json::run::Program;"),
        ]);
        let cycle = g.cycle().expect("decode and json import each other");
        let mut sorted = cycle.clone();
        sorted.sort();
        assert_eq!(sorted, ["decode", "json"]);
        let text = g.describe(&cycle);
        assert!(text.contains("decode -> json (decode:1)"), "{text}");
        assert!(text.contains("json -> decode (json:1)"), "{text}");
        assert_eq!(imports(&g, "program"), ["json::run"]);
    }

    #[test]
    fn a_child_using_its_parent_that_uses_it_is_a_cycle() {
        let g = graph(&[
            ("crate", ""),
            ("p", "mod jit; struct Op; fn f() { jit::run(); }"),
            ("p::jit", "use super::Op;"),
        ]);
        assert!(g.cycle().is_some());
    }
}

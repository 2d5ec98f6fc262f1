//! An XML element tree with source positions, with XIncludes spliced in.
//!
//! roxmltree borrows its input, and included files are separate documents. This tree borrows
//! its names, values and text from the schema's text, and from an arena that holds the included
//! files' texts (and the few strings that are not in any text as they stand: values with entity
//! references, URIs), so that elements from several files sit in one tree, each knowing where it
//! came from, without a string allocated per name and attribute. The lists of attributes and
//! children are in the arena too, so that the tree is freed with it, all at once.

use std::path::{Path, PathBuf};

use bumpalo::collections::Vec as ArenaVec;
use bumpalo::Bump;

use crate::diagnostic::{Diagnostic, Severity};

const XINCLUDE_NS: &str = "http://www.w3.org/2001/XInclude";
/// Includes nested deeper than this are taken to be a cycle.
const MAX_INCLUDE_DEPTH: usize = 16;
/// No real schema nests elements anywhere near this deep; the limit keeps recursion bounded.
const MAX_ELEMENT_DEPTH: usize = 128;

/// Where something is: an index into [`Sources::files`] and a 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Loc {
    pub file: usize,
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone)]
pub struct Attr<'t> {
    /// Local name, without any namespace prefix.
    pub name: &'t str,
    pub value: &'t str,
    pub loc: Loc,
}

#[derive(Debug, Clone)]
pub struct Element<'t> {
    /// Local name, without any namespace prefix.
    pub name: &'t str,
    /// The namespace URI, if the element is in one.
    pub namespace: Option<&'t str>,
    /// Arena slices, not vectors, so that the tree is `Sync`: two threads check it at once.
    pub attrs: &'t [Attr<'t>],
    pub children: &'t [Element<'t>],
    /// The element's own text, concatenated; empty when it is only whitespace.
    pub text: &'t str,
    pub loc: Loc,
}

impl<'t> Element<'t> {
    pub fn attr(&self, name: &str) -> Option<&Attr<'t>> {
        self.attrs.iter().find(|a| a.name == name)
    }

    pub fn value(&self, name: &str) -> Option<&'t str> {
        self.attr(name).map(|a| a.value)
    }

    /// Where an attribute is, or the element when it has no such attribute.
    pub fn loc_of(&self, name: &str) -> Loc {
        self.attr(name).map_or(self.loc, |a| a.loc)
    }

    /// `<name name="x">`, for diagnostics.
    pub fn label(&self) -> String {
        match self.value("name") {
            Some(n) => format!("<{} name=\"{}\">", self.name, n),
            None => format!("<{}>", self.name),
        }
    }
}

/// The files a schema was read from, so that a [`Loc`] can name its file.
#[derive(Debug)]
pub struct Sources {
    pub files: Vec<PathBuf>,
    /// The most bytes one included file may have.
    pub max_file_bytes: u64,
    /// How many bytes the includes still to be read may have together.
    pub include_budget: u64,
}

impl Default for Sources {
    fn default() -> Sources {
        Sources {
            files: Vec::new(),
            max_file_bytes: crate::read::DEFAULT_MAX_FILE_BYTES,
            include_budget: crate::read::DEFAULT_MAX_FILE_BYTES,
        }
    }
}

impl Sources {
    pub fn diagnostic(
        &self,
        severity: Severity,
        loc: Loc,
        element: String,
        message: String,
        help: Option<String>,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            category: crate::diagnostic::Category::Schema,
            file: self.files.get(loc.file).cloned().unwrap_or_default(),
            line: loc.line,
            column: loc.column,
            element,
            message,
            help,
        }
    }
}

/// Parses `text` (read from `path`) into an element tree, splicing in XIncludes, whose texts go
/// into `arena`.
pub fn load<'t>(
    text: &'t str,
    path: &Path,
    sources: &mut Sources,
    arena: &'t Bump,
) -> Result<Element<'t>, Diagnostic> {
    load_file(text, path, sources, arena, 0, None)
}

fn load_file<'t>(
    text: &'t str,
    path: &Path,
    sources: &mut Sources,
    arena: &'t Bump,
    depth: usize,
    root_namespace: Option<Option<&'t str>>,
) -> Result<Element<'t>, Diagnostic> {
    let file = sources.files.len();
    sources.files.push(path.to_path_buf());
    if let Some(pos) = nesting_exceeds(text, MAX_ELEMENT_DEPTH) {
        // roxmltree recurses per level; refuse absurd nesting before it can exhaust the stack.
        let (line, column) = Cursor::new(text).line_col(pos);
        return Err(sources.diagnostic(
            Severity::Error,
            Loc { file, line, column },
            String::new(),
            format!("elements are nested more than {MAX_ELEMENT_DEPTH} deep"),
            None,
        ));
    }
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, options).map_err(|e| {
        let pos = e.pos();
        sources.diagnostic(
            Severity::Error,
            Loc {
                file,
                line: pos.row,
                column: pos.col,
            },
            String::new(),
            format!("not well-formed XML: {e}"),
            None,
        )
    })?;
    let mut cx = Cx {
        cursor: Cursor::new(text),
        file,
        dir: path.parent().unwrap_or(Path::new("")).to_path_buf(),
        depth,
        arena,
        namespaces: Vec::new(),
        root_namespace,
    };
    // An included file's root may itself be an include: that file's root stands for it.
    cx.convert(doc.root_element(), sources, 0)
}

struct Cx<'t> {
    cursor: Cursor<'t>,
    file: usize,
    dir: PathBuf,
    depth: usize,
    arena: &'t Bump,
    /// The namespace URIs met so far, each copied into the arena once.
    namespaces: Vec<&'t str>,
    /// The schema root's namespace, once its element is reached (through included roots).
    root_namespace: Option<Option<&'t str>>,
}

impl<'t> Cx<'t> {
    fn loc(&mut self, pos: usize) -> Loc {
        let (line, column) = self.cursor.line_col(pos);
        Loc {
            file: self.file,
            line,
            column,
        }
    }

    /// A string of the document: borrowed from the text, or (with entities decoded) copied into
    /// the arena.
    fn stored(&self, s: &roxmltree::StringStorage<'t>) -> &'t str {
        match s {
            roxmltree::StringStorage::Borrowed(s) => s,
            roxmltree::StringStorage::Owned(s) => self.arena.alloc_str(s),
        }
    }

    /// Whether a namespace is SBE's: none, the root's, or FIX's. Elements and attributes of other
    /// namespaces are allowed, as XML intends, and left out of the tree.
    fn is_sbe(&self, namespace: Option<&str>) -> bool {
        match namespace {
            None => true,
            Some(ns) => {
                self.root_namespace.flatten() == Some(ns)
                    || ns.starts_with("http://fixprotocol.io/")
                    || ns.starts_with("http://www.fixprotocol.org/ns/simple")
            }
        }
    }

    fn namespace(&mut self, uri: Option<&str>) -> Option<&'t str> {
        let uri = uri?;
        if let Some(known) = self.namespaces.iter().find(|n| **n == uri) {
            return Some(known);
        }
        let stored: &'t str = self.arena.alloc_str(uri);
        self.namespaces.push(stored);
        Some(stored)
    }

    /// Converts a node to an element: itself, or for an XInclude the included file's root.
    fn convert(
        &mut self,
        node: roxmltree::Node<'_, 't>,
        sources: &mut Sources,
        depth: usize,
    ) -> Result<Element<'t>, Diagnostic> {
        let loc = self.loc(node.range().start);
        if depth > MAX_ELEMENT_DEPTH {
            return Err(sources.diagnostic(
                Severity::Error,
                loc,
                format!("<{}>", node.tag_name().name()),
                format!("elements are nested more than {MAX_ELEMENT_DEPTH} deep"),
                None,
            ));
        }
        if node.tag_name().namespace() == Some(XINCLUDE_NS) && node.tag_name().name() == "include" {
            return self.include(node, loc, sources);
        }
        let namespace = self.namespace(node.tag_name().namespace());
        if self.root_namespace.is_none() {
            self.root_namespace = Some(namespace);
        }
        let mut attrs = ArenaVec::with_capacity_in(node.attributes().len(), self.arena);
        for a in node.attributes() {
            if !self.is_sbe(a.namespace()) {
                continue;
            }
            attrs.push(Attr {
                name: a.name(),
                value: self.stored(a.value_storage()),
                loc: self.loc(a.range().start),
            });
        }
        let elements = node.children().filter(|c| c.is_element()).count();
        let mut children = ArenaVec::with_capacity_in(elements, self.arena);
        // Text is only read trimmed, so whitespace between child elements is not kept.
        let has_text = node.children().any(|c| {
            let text = c.text().unwrap_or("");
            // Mostly indentation: ASCII whitespace is told apart without decoding characters.
            c.is_text() && !text.bytes().all(|b| b.is_ascii_whitespace()) && !text.trim().is_empty()
        });
        let mut texts = node
            .children()
            .filter(|c| c.is_text())
            .filter_map(|c| c.text_storage());
        let text = match (has_text, texts.next(), texts.next()) {
            (true, Some(only), None) => self.stored(only),
            (true, Some(first), Some(second)) => {
                let mut text = String::from(first.as_str());
                text.push_str(second.as_str());
                texts.for_each(|t| text.push_str(t.as_str()));
                self.arena.alloc_str(&text)
            }
            _ => "",
        };
        for child in node.children().filter(|c| c.is_element()) {
            let child = self.convert(child, sources, depth + 1)?;
            if self.is_sbe(child.namespace) {
                children.push(child);
            }
        }
        Ok(Element {
            name: node.tag_name().name(),
            namespace,
            attrs: attrs.into_bump_slice(),
            children: children.into_bump_slice(),
            text,
            loc,
        })
    }

    fn include(
        &mut self,
        node: roxmltree::Node,
        loc: Loc,
        sources: &mut Sources,
    ) -> Result<Element<'t>, Diagnostic> {
        let fail = |sources: &Sources, message: String| {
            sources.diagnostic(
                Severity::Error,
                loc,
                "<xi:include>".to_owned(),
                message,
                None,
            )
        };
        let Some(href) = node.attribute("href") else {
            return Err(fail(sources, "XInclude has no href attribute".to_owned()));
        };
        if node.attribute("parse").is_some_and(|p| p != "xml") {
            return Err(fail(
                sources,
                "only parse=\"xml\" XIncludes are supported".to_owned(),
            ));
        }
        if self.depth >= MAX_INCLUDE_DEPTH {
            return Err(fail(
                sources,
                format!("XIncludes nested more than {MAX_INCLUDE_DEPTH} deep (a cycle?) at {href}"),
            ));
        }
        let path = self.dir.join(href);
        // Only regular files: a device or FIFO could be endless or block. The limit holds for
        // each file and for all of them together, so that many includes cannot add up.
        let bytes = crate::read::read_regular_file(&path, sources.max_file_bytes)
            .map_err(|e| e.to_string())
            .and_then(
                |bytes| match sources.include_budget.checked_sub(bytes.len() as u64) {
                    Some(left) => {
                        sources.include_budget = left;
                        Ok(bytes)
                    }
                    None => Err(format!(
                        "the schema and its includes come to more than the {} limit",
                        crate::read::size(sources.max_file_bytes)
                    )),
                },
            )
            .map_err(|why| {
                fail(
                    sources,
                    format!("cannot read included file {}: {why}", path.display()),
                )
            })?;
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        let text = std::str::from_utf8(bytes).map_err(|e| {
            fail(
                sources,
                format!(
                    "cannot read included file {}: not UTF-8 text (invalid byte at offset {})",
                    path.display(),
                    e.valid_up_to()
                ),
            )
        })?;
        load_file(
            self.arena.alloc_str(text),
            &path,
            sources,
            self.arena,
            self.depth + 1,
            self.root_namespace,
        )
    }
}

/// The byte offset of the first start tag nested deeper than `limit`, if any. Only counts: it
/// skips comments, CDATA, processing instructions, declarations and quoted attribute values,
/// and leaves checking well-formedness to the parser.
fn nesting_exceeds(text: &str, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let find = |from: usize, needle: &[u8]| {
        bytes[from.min(bytes.len())..]
            .windows(needle.len())
            .position(|w| w == needle)
            .map_or(bytes.len(), |p| from + p + needle.len())
    };
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        let rest = &bytes[i..];
        if rest.starts_with(b"<!--") {
            i = find(i + 4, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = find(i + 9, b"]]>");
        } else if rest.starts_with(b"<?") {
            i = find(i + 2, b"?>");
        } else if rest.starts_with(b"<!") {
            // A declaration, possibly with an internal subset in brackets.
            let mut brackets = 0usize;
            i += 2;
            while i < bytes.len() {
                match bytes[i] {
                    b'[' => brackets += 1,
                    b']' => brackets = brackets.saturating_sub(1),
                    b'>' if brackets == 0 => break,
                    _ => {}
                }
                i += 1;
            }
            i += 1;
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i = find(i + 2, b">");
        } else {
            let start = i;
            let mut quote = None;
            i += 1;
            while i < bytes.len() {
                match (quote, bytes[i]) {
                    (Some(q), c) if c == q => quote = None,
                    (None, b'"' | b'\'') => quote = Some(bytes[i]),
                    (None, b'>') => break,
                    _ => {}
                }
                i += 1;
            }
            if bytes.get(i.wrapping_sub(1)) != Some(&b'/') {
                depth += 1;
                if depth > limit {
                    return Some(start);
                }
            }
            i += 1;
        }
    }
    None
}

/// 1-based lines and columns (in characters; a line ends at `\n`) of byte offsets. Offsets are
/// asked in document order, so each call scans only the text since the previous one and
/// positioning a whole document is linear (roxmltree's `text_pos_at` scans from the start).
struct Cursor<'t> {
    text: &'t str,
    pos: usize,
    line: u32,
    column: u32,
}

impl<'t> Cursor<'t> {
    fn new(text: &'t str) -> Cursor<'t> {
        Cursor {
            text,
            pos: 0,
            line: 1,
            column: 1,
        }
    }

    fn line_col(&mut self, pos: usize) -> (u32, u32) {
        let pos = pos.min(self.text.len());
        if pos < self.pos {
            // Out of order (only for a rare diagnostic): start again.
            *self = Cursor::new(self.text);
        }
        let skipped = &self.text.as_bytes()[self.pos..pos];
        let on_this_line = match memchr::memrchr(b'\n', skipped) {
            Some(last) => {
                let lines = memchr::memchr_iter(b'\n', &skipped[..last]).count() + 1;
                self.line = self
                    .line
                    .saturating_add(u32::try_from(lines).unwrap_or(u32::MAX));
                self.column = 1;
                &skipped[last + 1..]
            }
            None => skipped,
        };
        // Counts characters: every byte but UTF-8 continuation bytes starts one.
        let chars = on_this_line.iter().filter(|&&b| b & 0xC0 != 0x80).count();
        self.column = self
            .column
            .saturating_add(u32::try_from(chars).unwrap_or(u32::MAX));
        self.pos = pos;
        (self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_characters_across_jumps() {
        let text = "ab\nçd\n\n€é<x";
        let at = |pos: usize| Cursor::new(text).line_col(pos);
        let mut cursor = Cursor::new(text);
        // Each position from a fresh cursor and from one moved forward step by step agree.
        for (pos, expected) in [
            (0, (1, 1)),
            (1, (1, 2)),
            (3, (2, 1)),
            (5, (2, 2)),
            (7, (3, 1)),
            (8, (4, 1)),
            (13, (4, 3)),
            (14, (4, 4)),
        ] {
            assert_eq!(at(pos), expected, "fresh, at {pos}");
            assert_eq!(cursor.line_col(pos), expected, "moved on, at {pos}");
        }
        assert_eq!(cursor.line_col(3), (2, 1), "moved back");
    }

    #[test]
    fn counts_nesting_but_not_comments_cdata_or_quoted_text() {
        let ok = "<?xml version='1.0'?><!DOCTYPE a [<!ENTITY x 'y'>]><a><!-- <b><b> --><b x='<c>' y=\"/>\"/><![CDATA[<d><d>]]></a>";
        assert_eq!(nesting_exceeds(ok, 1), None);
        assert_eq!(nesting_exceeds("<a><b/><b></b></a>", 2), None);
        assert_eq!(nesting_exceeds("<a><b><c/></b></a>", 1), Some(3));
    }

    #[test]
    fn positions_match_roxmltree_with_multibyte_text_and_crlf() {
        let text = "<?xml version=\"1.0\"?>\r\n<a é=\"ü\">\r\n  <b name=\"日本\" x='€'/>\n\t<c>😀\r</c>\r\n</a>\r\n";
        let doc = roxmltree::Document::parse(text).unwrap();
        let expected = |pos: usize| {
            let p = doc.text_pos_at(pos);
            (p.row, p.col)
        };
        let boundaries: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        let mut cursor = Cursor::new(text);
        for &pos in &boundaries {
            assert_eq!(cursor.line_col(pos), expected(pos), "at byte {pos}");
        }
        // Asked out of order (or twice), it still answers right.
        for &pos in boundaries.iter().rev().step_by(3) {
            assert_eq!(cursor.line_col(pos), expected(pos), "at byte {pos}");
        }
        assert_eq!(cursor.line_col(usize::MAX), expected(text.len()));
    }

    #[test]
    fn element_and_attribute_locations_count_characters() {
        let text = "<a>\r\n<bé x=\"1\"  日=\"2\"/></a>";
        let arena = Bump::new();
        let root = load(text, Path::new("t.xml"), &mut Sources::default(), &arena).unwrap();
        let b = &root.children[0];
        assert_eq!((b.loc.line, b.loc.column), (2, 1));
        let cols: Vec<(u32, u32)> = b.attrs.iter().map(|a| (a.loc.line, a.loc.column)).collect();
        assert_eq!(cols, [(2, 5), (2, 12)]);
    }

    #[test]
    fn values_and_text_with_entities_comments_and_cdata_are_decoded_and_joined() {
        let text = "<a x=\"&lt;b&gt;\" y='plain'>1<!-- c -->2&amp;3<![CDATA[<4>]]><b>5</b></a>";
        let arena = Bump::new();
        let root = load(text, Path::new("t.xml"), &mut Sources::default(), &arena).unwrap();
        assert_eq!(root.value("x"), Some("<b>"));
        assert_eq!(root.value("y"), Some("plain"));
        assert_eq!(root.text, "12&3<4>");
        assert_eq!(root.children[0].text, "5");
        let blank = load(
            "<a> <b/>\n</a>",
            Path::new("t.xml"),
            &mut Sources::default(),
            &arena,
        );
        assert_eq!(blank.unwrap().text, "");
    }

    #[test]
    fn absurd_nesting_is_an_error_not_a_crash() {
        let text = "<a>".repeat(100_000);
        let err = load(
            &text,
            Path::new("deep.xml"),
            &mut Sources::default(),
            &Bump::new(),
        )
        .unwrap_err();
        assert!(err.message.contains("nested more than"), "{err}");
        assert_eq!(
            (err.line, err.column),
            (1, 1 + 3 * MAX_ELEMENT_DEPTH as u32)
        );
    }
}

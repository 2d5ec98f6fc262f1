//! An indenting code writer.

use std::fmt::Write as _;

/// Builds source text line by line at an indentation level.
#[derive(Debug)]
pub struct CodeWriter {
    out: String,
    level: usize,
    unit: &'static str,
}

impl CodeWriter {
    /// A writer indenting by `unit` (e.g. four spaces) per level.
    pub fn new(unit: &'static str) -> CodeWriter {
        CodeWriter {
            out: String::new(),
            level: 0,
            unit,
        }
    }

    /// Writes one line at the current level (an empty line without indentation). A text of
    /// several lines is written as several lines.
    pub fn line(&mut self, text: impl AsRef<str>) -> &mut Self {
        for l in text.as_ref().split('\n') {
            if l.is_empty() {
                self.out.push('\n');
            } else {
                for _ in 0..self.level {
                    self.out.push_str(self.unit);
                }
                let _ = writeln!(self.out, "{l}");
            }
        }
        self
    }

    /// An empty line.
    pub fn blank(&mut self) -> &mut Self {
        self.out.push('\n');
        self
    }

    /// Writes `text` then goes one level in.
    pub fn open(&mut self, text: impl AsRef<str>) -> &mut Self {
        self.line(text);
        self.level += 1;
        self
    }

    /// Writes `text`, then `{` on a line of its own, then goes one level in.
    pub fn open_brace(&mut self, text: impl AsRef<str>) -> &mut Self {
        self.line(text);
        self.line("{");
        self.level += 1;
        self
    }

    /// Goes one level out, then writes `text`.
    pub fn close(&mut self, text: impl AsRef<str>) -> &mut Self {
        self.level = self.level.saturating_sub(1);
        self.line(text)
    }

    /// Like [`close`](Self::close), but first drops a blank line just before, so that the block
    /// does not end with one.
    pub fn end(&mut self, text: impl AsRef<str>) -> &mut Self {
        if self.out.ends_with("\n\n") {
            self.out.pop();
        }
        self.close(text)
    }

    /// Writes lines of code in a language of braces (Rust, Java, C++), each line's text
    /// without indentation: a line starting with a closing `}`, `)` or `]` goes one level out
    /// first, a line ending with an opening `{`, `(` or `[` goes one level in after (comment
    /// lines do neither), as hand-written code is laid out. An empty line is a blank line, at
    /// most one in a row and none just inside a block's braces.
    pub fn code(&mut self, text: impl AsRef<str>) -> &mut Self {
        for l in text.as_ref().split('\n') {
            let l = l.trim();
            if l.is_empty() {
                if !(self.out.is_empty() || self.out.ends_with("\n\n") || self.opened()) {
                    self.out.push('\n');
                }
                continue;
            }
            let comment = l.starts_with("//");
            if !comment && l.starts_with(['}', ')', ']']) {
                self.end(l);
            } else {
                self.line(l);
            }
            if !comment && l.ends_with(['{', '(', '[']) {
                self.level += 1;
            }
        }
        self
    }

    /// Whether the last line written opens a block.
    fn opened(&self) -> bool {
        let last = self
            .out
            .trim_end_matches('\n')
            .rsplit('\n')
            .next()
            .unwrap_or("");
        let last = last.trim();
        !last.starts_with("//") && last.ends_with(['{', '(', '['])
    }

    pub fn indent(&mut self) -> &mut Self {
        self.level += 1;
        self
    }

    pub fn outdent(&mut self) -> &mut Self {
        self.level = self.level.saturating_sub(1);
        self
    }

    /// The text so far.
    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indents_blocks() {
        let mut w = CodeWriter::new("    ");
        w.open("class A {").line("int x;").blank().close("}");
        w.open_brace("void f()").line("g();").blank().end("}");
        assert_eq!(
            w.finish(),
            "class A {\n    int x;\n\n}\nvoid f()\n{\n    g();\n}\n"
        );
    }

    #[test]
    fn indents_code_by_its_braces() {
        let mut w = CodeWriter::new("    ");
        w.code("fn f() {\n\nlet x = g(\n1,\n);\n// not a block {\nmatch x {\n1 => {}\n_ => {\nh();\n\n}\n}\n}\n\n\nstruct S;");
        assert_eq!(
            w.finish(),
            "fn f() {\n    let x = g(\n        1,\n    );\n    // not a block {\n    match x {\n        1 => {}\n        _ => {\n            h();\n        }\n    }\n}\n\nstruct S;\n"
        );
    }
}

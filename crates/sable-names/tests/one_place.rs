//! Each language's reserved words are listed once, here: no other crate of the workspace keeps
//! a copy (issue 14 found four, two of which had drifted apart by 19 names).

use std::path::{Path, PathBuf};

use sable_names::{c, Language};

/// A file naming this many of one language's keywords as string literals holds a list of them
/// (generators name a few: `"char"`, `"true"`; the most any file names today is 7).
const A_LIST: usize = 15;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of `text` that are one word (`"while"`), without their quotes.
fn word_literals(text: &str) -> Vec<&str> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect()
}

#[test]
fn no_crate_but_sable_names_lists_keywords() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in std::fs::read_dir(&crates).expect("crates/").flatten() {
        if krate.file_name() != "sable-names" {
            rust_files(&krate.path().join("src"), &mut files);
        }
    }
    assert!(files.len() > 20, "found only {} files", files.len());
    let mut lists = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read");
        let words = word_literals(&text);
        let reserved = [("C macros", c::RESERVED)];
        let lists_of = Language::ALL
            .iter()
            .map(|l| (l.name(), l.keywords()))
            .chain(reserved);
        for (name, keywords) in lists_of {
            let found = keywords.iter().filter(|k| words.contains(k)).count();
            if found >= A_LIST {
                lists.push(format!("{}: {found} of {name}'s keywords", f.display()));
            }
        }
    }
    assert!(
        lists.is_empty(),
        "keyword lists outside sable-names (use sable_names::Language::keywords):\n{}",
        lists.join("\n")
    );
}

/// The check above finds a copy: a file holding C++'s list is flagged.
#[test]
fn a_copied_list_is_found() {
    let copy: String = sable_names::cpp::KEYWORDS
        .iter()
        .map(|k| format!("\"{k}\",\n"))
        .collect();
    let words = word_literals(&copy);
    let found = Language::Cpp
        .keywords()
        .iter()
        .filter(|k| words.contains(k))
        .count();
    assert!(found >= A_LIST, "{found}");
}

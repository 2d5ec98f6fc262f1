//! Findings written for people (text) and for tools (JSON).

use std::fmt::Write as _;
use std::path::Path;

use sable_schema::Locations;

use crate::diff::shown;
use crate::finding::{Finding, Sense, Verdict};

/// One side of the comparison as the report names it: its name, where its elements are, and
/// the file those locations name as `file` (shown as `name`: a version from git is named
/// `FILE@REF`, though it was compiled as FILE).
pub struct Side<'a> {
    pub name: &'a str,
    pub file: &'a Path,
    pub locations: &'a Locations,
}

impl Side<'_> {
    /// `file:line:col` of the element at `path`, else the file and the element's path.
    fn place(&self, path: Option<&str>) -> String {
        match path {
            Some(p) => match self.locations.get(p) {
                Some(loc) if loc.file == self.file => {
                    format!("{}:{}:{}", self.name, loc.line, loc.column)
                }
                Some(loc) => loc.to_string(),
                None => format!("{} ({})", self.name, shown(p)),
            },
            None => self.name.to_owned(),
        }
    }
}

/// Which senses break, of those required.
pub fn broken(findings: &[Finding], required: &[Sense]) -> Vec<Sense> {
    required
        .iter()
        .copied()
        .filter(|&s| findings.iter().any(|f| f.breaks(s)))
        .collect()
}

pub fn text(findings: &[Finding], old: &Side, new: &Side, required: &[Sense]) -> String {
    let mut out = String::new();
    for f in findings {
        let _ = writeln!(
            out,
            "{}: [{}] {}",
            new.place(f.new.as_deref()),
            f.rule,
            f.message
        );
        let _ = writeln!(out, "  old: {}", old.place(f.old.as_deref()));
        let _ = writeln!(
            out,
            "  wire backward: {}, wire forward: {}, source: {}",
            f.backward.as_str(),
            f.forward.as_str(),
            f.source.as_str()
        );
    }
    let count = |s: Sense| findings.iter().filter(|f| f.breaks(s)).count();
    let _ = writeln!(
        out,
        "{} finding{}; breaking: {} backward, {} forward, {} source",
        findings.len(),
        if findings.len() == 1 { "" } else { "s" },
        count(Sense::Backward),
        count(Sense::Forward),
        count(Sense::Source)
    );
    let broken = broken(findings, required);
    let names = |senses: &[Sense]| {
        senses
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if broken.is_empty() {
        let _ = writeln!(out, "compatible ({})", names(required));
    } else {
        let _ = writeln!(out, "NOT compatible: {} broken", names(&broken));
    }
    out
}

pub fn json(findings: &[Finding], old: &Side, new: &Side, required: &[Sense]) -> String {
    use serde_json::{json, Value};
    let place = |side: &Side, path: &Option<String>| -> Value {
        let loc = path.as_deref().and_then(|p| side.locations.get(p));
        json!({
            "file": loc
                .filter(|l| l.file != side.file)
                .map_or(side.name.to_owned(), |l| l.file.display().to_string()),
            "line": loc.map(|l| l.line),
            "column": loc.map(|l| l.column),
            "element": path.as_deref().map(shown),
        })
    };
    let list: Vec<Value> = findings
        .iter()
        .map(|f| {
            json!({
                "rule": f.rule,
                "message": f.message,
                "templateId": f.template,
                "old": place(old, &f.old),
                "new": place(new, &f.new),
                "backward": word(f.backward),
                "forward": word(f.forward),
                "source": word(f.source),
            })
        })
        .collect();
    let broken: Vec<&str> = broken(findings, required)
        .iter()
        .map(|s| s.as_str())
        .collect();
    let required: Vec<&str> = required.iter().map(|s| s.as_str()).collect();
    let doc = json!({
        "old": old.name,
        "new": new.name,
        "required": required,
        "broken": broken,
        "compatible": broken.is_empty(),
        "findings": list,
    });
    format!("{doc}\n")
}

fn word(v: Verdict) -> &'static str {
    match v {
        Verdict::Compatible => "compatible",
        Verdict::Breaking => "breaking",
    }
}

/// The proofs as text: per template and direction, how many messages read back, or the
/// message that decodes wrongly; and where a proof contradicts a verdict.
pub fn proofs_text(findings: &[Finding], proofs: &[crate::prove::Proof]) -> String {
    let mut out = String::new();
    for p in proofs {
        let judged = findings
            .iter()
            .any(|f| f.breaks(p.sense) && !matches!(f.template, Some(t) if t != p.template));
        let head = format!("proof {} {} (template {}):", p.sense, p.message, p.template);
        match &p.evidence {
            None if judged => {
                let _ = writeln!(
                    out,
                    "{head} {} messages read back; the break judged is not shown by sable-otf's decoder",
                    p.tried
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "{head} {} messages, every common field read back",
                    p.tried
                );
            }
            Some(e) => {
                let verdict = if judged {
                    "breaks, as judged"
                } else {
                    "CONTRADICTS the verdict"
                };
                let _ = writeln!(out, "{head} {verdict}: {} decodes wrongly", e.path);
                let _ = writeln!(out, "  bytes:   {}", e.bytes);
                let _ = writeln!(out, "  written: {}", e.written);
                let _ = writeln!(out, "  read:    {}", e.read);
            }
        }
    }
    out
}

//! Rules for the schema as a whole: its id, version, byte order and message header, and its
//! messages, paired by template id.

use crate::body;
use crate::diff::{pair, shown, At, Diff, NONE, SOURCE, WIRE};
use crate::finding::Finding;
use crate::model::{Message, Schema};
use crate::types;

const SCHEMA: At = At {
    old: "schema",
    new: "schema",
};

/// Every difference between OLD and NEW that matters, in the order found.
pub fn compare(old: &Schema, new: &Schema) -> Vec<Finding> {
    let mut d = Diff {
        findings: Vec::new(),
        old_version: old.version,
        template: None,
    };
    if old.id != new.id {
        let message = format!(
            "schema id changed from {} to {}: readers refuse, or misread, the other's messages",
            old.id, new.id
        );
        d.push("schema-id-changed", message, SCHEMA, WIRE);
    }
    if old.byte_order != new.byte_order {
        let message = format!(
            "byte order changed from {} to {}",
            old.byte_order.as_str(),
            new.byte_order.as_str()
        );
        d.push("byte-order-changed", message, SCHEMA, WIRE);
    }
    header(&mut d, old, new);
    for p in pair(&old.messages, &new.messages, |m| m.name.as_str(), |m| m.id) {
        match p {
            (Some(i), Some(j)) => message(&mut d, &old.messages[i], &new.messages[j]),
            (Some(i), None) => {
                let o = &old.messages[i];
                d.template = Some(o.id);
                let message = format!(
                    "{}: message (template id {}) removed: a new reader cannot decode it",
                    o.name, o.id
                );
                let at = At {
                    old: &o.path,
                    new: "schema",
                };
                d.push("message-removed", message, at, [true, false, true]);
            }
            (None, Some(j)) => {
                let n = &new.messages[j];
                d.template = Some(n.id);
                let message = format!(
                    "{}: message (template id {}) added: an old reader does not know its template id",
                    n.name, n.id
                );
                let at = At {
                    old: "schema",
                    new: &n.path,
                };
                d.push("message-added", message, at, NONE);
            }
            (None, None) => {}
        }
    }
    d.template = None;
    version(&mut d, old, new);
    let mut seen = Vec::new();
    d.findings.retain(|f| {
        let key = (f.rule, f.old.clone(), f.new.clone(), f.message.clone());
        let first = !seen.contains(&key);
        seen.push(key);
        first
    });
    d.findings
}

fn header(d: &mut Diff, old: &Schema, new: &Schema) {
    let before = d.findings.len();
    let at = At {
        old: &old.header.path,
        new: &new.header.path,
    };
    types::compare(d, at, &old.header, &new.header);
    // A renamed header type changes generated code only: it stays a `type-renamed`.
    for f in d.findings[before..]
        .iter_mut()
        .filter(|f| f.rule != "type-renamed")
    {
        f.rule = "header-changed";
        f.message = format!("message header: {}", f.message);
        f.backward = crate::finding::Verdict::Breaking;
        f.forward = crate::finding::Verdict::Breaking;
    }
}

fn message(d: &mut Diff, o: &Message, n: &Message) {
    d.template = Some(n.id);
    let at = At {
        old: &o.path,
        new: &n.path,
    };
    if o.id != n.id {
        let message = format!(
            "{}: template id changed from {} to {}: each reader takes the other's messages for another message, or none",
            shown(&n.path),
            o.id,
            n.id
        );
        d.push("template-id-changed", message, at, WIRE);
    }
    if o.name != n.name {
        let message = format!("{}: message renamed to {}", o.name, n.name);
        d.push("renamed", message, at, SOURCE);
    }
    if n.block_length < o.block_length {
        let message = format!(
            "{}: block length reduced from {} to {}: an old reader expects a block at least as long as its own",
            shown(&n.path),
            o.block_length,
            n.block_length
        );
        d.push("block-length-reduced", message, at, [false, true, false]);
    }
    body::compare(d, at, &o.body, &n.body);
}

/// The version must go up when NEW adds to the wire: that is how a new reader tells an old
/// message, which lacks the additions, from a new one.
fn version(d: &mut Diff, old: &Schema, new: &Schema) {
    if new.version < old.version {
        let message = format!(
            "schema version lowered from {} to {}",
            old.version, new.version
        );
        d.push("version-lowered", message, SCHEMA, WIRE);
        return;
    }
    let adds = d.findings.iter().any(|f| {
        matches!(
            f.rule,
            "added" | "since-version-missing" | "inserted" | "composite-member-added"
        )
    });
    if adds && new.version == old.version {
        let message = format!(
            "schema version not raised (still {}) though the new schema adds to the wire: a new \
             reader cannot tell old messages from new ones",
            new.version
        );
        d.push("version-not-raised", message, SCHEMA, [true, false, false]);
    }
}

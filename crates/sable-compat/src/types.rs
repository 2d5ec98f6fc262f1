//! Rules for a type that both schemas have in the same place: its encoding, presence, null and
//! constant values, enum values, set choices and composite members.

use sable_ir::Presence;

use crate::diff::{pair, shown, At, Breaks, Diff, ALL, SOURCE, WIRE};
use crate::model::{Item, Kind, Type};

/// Compares the type of one element (`at` names it, for messages and locations), its name
/// included where generated code has a class of that name.
pub fn compare(d: &mut Diff, at: At, old: &Type, new: &Type) {
    if old.name != new.name && old.is_generated_class() && new.is_generated_class() {
        let message = format!(
            "{}: type {} renamed to {}: the same bytes, but generated code names its class \
             after the type",
            shown(at.new),
            old.name,
            new.name
        );
        d.push("type-renamed", message, at, SOURCE);
    }
    layout(d, at, old, new);
}

/// Compares what a type puts on the wire, not its name: for the types of var data and group
/// dimensions, whose names no message accessor carries (the generated code reads them for the
/// caller).
pub fn layout(d: &mut Diff, at: At, old: &Type, new: &Type) {
    let what = shown(at.new);
    if old.presence() != new.presence() {
        presence(d, at, old.presence(), new.presence());
        return;
    }
    match (&old.kind, &new.kind) {
        (
            Kind::Encoded {
                primitive: op,
                null: on,
                constant: oc,
                charset: ocs,
                ..
            },
            Kind::Encoded {
                primitive: np,
                null: nn,
                constant: nc,
                charset: ncs,
                ..
            },
        ) => {
            if op != np || old.length != new.length {
                type_changed(d, at, old, new);
                return;
            }
            if old.presence() == Presence::Optional && on != nn {
                null_changed(d, at, on, nn);
            }
            if oc != nc {
                let message = format!(
                    "{what}: constant changed from {} to {}: each reader supplies its own value",
                    value(oc),
                    value(nc)
                );
                d.push("constant-changed", message, at, WIRE);
            }
            if ocs != ncs {
                charset(d, at, ocs.as_deref(), ncs.as_deref());
            }
        }
        (
            Kind::Enum {
                primitive: op,
                null: on,
                items: oi,
                ..
            },
            Kind::Enum {
                primitive: np,
                null: nn,
                items: ni,
                ..
            },
        ) => {
            if op != np {
                type_changed(d, at, old, new);
                return;
            }
            if old.presence() == Presence::Optional && on != nn {
                null_changed(d, at, on, nn);
            }
            items(d, &old.name, oi, ni, ItemKind::EnumValue);
        }
        (
            Kind::Set {
                primitive: op,
                items: oi,
            },
            Kind::Set {
                primitive: np,
                items: ni,
            },
        ) => {
            if op != np {
                type_changed(d, at, old, new);
                return;
            }
            items(d, &old.name, oi, ni, ItemKind::SetChoice);
        }
        (Kind::Composite(om), Kind::Composite(nm)) => composite(d, old, new, om, nm),
        _ => type_changed(d, at, old, new),
    }
}

fn value(v: &Option<sable_ir::PrimitiveValue>) -> String {
    v.as_ref().map_or("none".to_owned(), ToString::to_string)
}

fn type_changed(d: &mut Diff, at: At, old: &Type, new: &Type) {
    let same_bytes = old.length == new.length && primitive(old) == primitive(new);
    let (breaks, why): (Breaks, &str) = if same_bytes {
        (SOURCE, "the same bytes, read through a different API")
    } else {
        (ALL, "the bytes mean something else to the other side")
    };
    let message = format!(
        "{}: type changed from {} to {}: {why}",
        shown(at.new),
        old.describe(),
        new.describe()
    );
    d.push("type-changed", message, at, breaks);
}

fn primitive(t: &Type) -> Option<sable_ir::PrimitiveType> {
    match &t.kind {
        Kind::Encoded { primitive, .. }
        | Kind::Enum { primitive, .. }
        | Kind::Set { primitive, .. } => Some(*primitive),
        Kind::Composite(_) => None,
    }
}

fn presence(d: &mut Diff, at: At, old: Presence, new: Presence) {
    use Presence::{Optional, Required};
    let (breaks, why): (Breaks, &str) = match (old, new) {
        (Required, Optional) => (
            [false, true, true],
            "an old reader takes the null value a new writer may write for a real value",
        ),
        (Optional, Required) => (
            [true, false, true],
            "a new reader takes the null value an old writer may have written for a real value",
        ),
        _ => (
            ALL,
            "a constant takes no bytes in the block, other fields do",
        ),
    };
    let message = format!(
        "{}: presence changed from {} to {}: {why}",
        shown(at.new),
        old.as_str().to_lowercase(),
        new.as_str().to_lowercase()
    );
    d.push("presence-changed", message, at, breaks);
}

fn null_changed(
    d: &mut Diff,
    at: At,
    old: &Option<sable_ir::PrimitiveValue>,
    new: &Option<sable_ir::PrimitiveValue>,
) {
    let message = format!(
        "{}: null value changed from {} to {}: each side reads the other's null as a value",
        shown(at.new),
        value(old),
        value(new)
    );
    d.push("null-value-changed", message, at, WIRE);
}

/// ASCII is a subset of UTF-8: text that fits the reader's encoding reads the same.
fn charset(d: &mut Diff, at: At, old: Option<&str>, new: Option<&str>) {
    let wider = |a: Option<&str>, b: Option<&str>| {
        matches!(
            (
                a.map(str::to_ascii_uppercase).as_deref(),
                b.map(str::to_ascii_uppercase).as_deref()
            ),
            (Some("ASCII" | "US-ASCII"), Some("UTF-8"))
        )
    };
    let breaks = [!wider(old, new), !wider(new, old), false];
    let message = format!(
        "{}: character encoding changed from {} to {}",
        shown(at.new),
        old.unwrap_or("none"),
        new.unwrap_or("none")
    );
    d.push("character-encoding-changed", message, at, breaks);
}

#[derive(Clone, Copy)]
enum ItemKind {
    EnumValue,
    SetChoice,
}

fn items(d: &mut Diff, owner: &str, old: &[Item], new: &[Item], kind: ItemKind) {
    let (noun, rule_added, rule_removed, rule_renumbered, rule_renamed) = match kind {
        ItemKind::EnumValue => (
            "value",
            "enum-value-added",
            "enum-value-removed",
            "enum-value-renumbered",
            "enum-value-renamed",
        ),
        ItemKind::SetChoice => (
            "choice",
            "set-choice-added",
            "set-choice-removed",
            "set-choice-renumbered",
            "set-choice-renamed",
        ),
    };
    let type_path = format!("type:{owner}");
    // Items pair by name, then by value: the same value under a new name is a rename.
    let key = |i: &Item| i.value.to_string();
    let pairs = pair(old, new, |i| i.name.as_str(), |_| -1);
    let mut lone_old: Vec<&Item> = Vec::new();
    let mut lone_new: Vec<&Item> = Vec::new();
    for p in pairs {
        match p {
            (Some(i), Some(j)) if key(&old[i]) != key(&new[j]) => {
                let at = At {
                    old: &old[i].path,
                    new: &new[j].path,
                };
                let message = format!(
                    "{owner}.{}: {noun} changed from {} to {}",
                    old[i].name, old[i].value, new[j].value
                );
                d.push(rule_renumbered, message, at, WIRE);
            }
            (Some(i), None) => lone_old.push(&old[i]),
            (None, Some(j)) => lone_new.push(&new[j]),
            _ => {}
        }
    }
    for o in &lone_old {
        if let Some(n) = lone_new.iter().position(|n| key(n) == key(o)) {
            let n = lone_new.remove(n);
            let at = At {
                old: &o.path,
                new: &n.path,
            };
            let message = format!(
                "{owner}: {noun} {} ({}) renamed to {}",
                o.name, o.value, n.name
            );
            d.push(rule_renamed, message, at, SOURCE);
            continue;
        }
        let at = At {
            old: &o.path,
            new: &type_path,
        };
        let (breaks, why) = match kind {
            ItemKind::EnumValue => ([true, false, true], "a new reader does not know it"),
            ItemKind::SetChoice => ([true, false, true], "a new reader drops the bit"),
        };
        let message = format!("{owner}: {noun} {} ({}) removed: {why}", o.name, o.value);
        d.push(rule_removed, message, at, breaks);
    }
    for n in lone_new {
        let at = At {
            old: &type_path,
            new: &n.path,
        };
        let (breaks, why) = match kind {
            ItemKind::EnumValue => (
                [false, true, false],
                "an old reader sees an unknown value (the reference's Java codecs throw, or \
                 give SBE_UNKNOWN)",
            ),
            ItemKind::SetChoice => (
                [false, true, false],
                "an old reader does not know the bit (the reference's codecs drop it, \
                 sable decode shows its number)",
            ),
        };
        let message = format!("{owner}: {noun} {} ({}) added: {why}", n.name, n.value);
        d.push(rule_added, message, at, breaks);
    }
}

fn composite(d: &mut Diff, old: &Type, new: &Type, om: &[Type], nm: &[Type]) {
    if old.length != new.length {
        let at = At {
            old: &old.path,
            new: &new.path,
        };
        let message = format!(
            "{}: composite length changed from {} to {}",
            shown(&new.path),
            old.length,
            new.length
        );
        d.push("composite-length-changed", message, at, WIRE);
    }
    for p in pair(om, nm, |t| t.name.as_str(), |_| -1) {
        match p {
            (Some(i), Some(j)) => {
                let (o, n) = (&om[i], &nm[j]);
                let at = At {
                    old: &o.path,
                    new: &n.path,
                };
                if o.offset != n.offset && o.length != 0 {
                    let message = format!(
                        "{}: member moved from offset {} to {}",
                        shown(&n.path),
                        o.offset,
                        n.offset
                    );
                    d.push("composite-member-moved", message, at, WIRE);
                }
                compare(d, at, o, n);
            }
            (Some(i), None) => {
                let o = &om[i];
                let at = At {
                    old: &o.path,
                    new: &new.path,
                };
                let message = format!("{}: member removed", shown(&o.path));
                let wire = o.length != 0;
                d.push("composite-member-removed", message, at, [wire, wire, true]);
            }
            (None, Some(j)) => {
                let n = &nm[j];
                let at = At {
                    old: &old.path,
                    new: &n.path,
                };
                let unmarked = n.since <= d.old_version && n.length != 0;
                let message = format!(
                    "{}: member added{}",
                    shown(&n.path),
                    if unmarked {
                        " without a sinceVersion above the old schema's version: a new reader reads bytes an old writer never wrote"
                    } else {
                        ""
                    }
                );
                d.push(
                    "composite-member-added",
                    message,
                    at,
                    [unmarked, false, false],
                );
            }
            (None, None) => {}
        }
    }
}

//! Rules for a message's or group's contents: the fields of its block, then its groups and var
//! data, in order.

use crate::diff::{pair, shown, At, Diff, ALL, SOURCE, WIRE};
use crate::model::{Body, Data, Field, Group, Type};
use crate::types;

/// Compares two bodies at `at` (the message or group).
pub fn compare(d: &mut Diff, at: At, old: &Body, new: &Body) {
    fields(d, at, &old.fields, &new.fields);
    tail(d, at, &tail_of(old), &tail_of(new));
}

fn fields(d: &mut Diff, at: At, old: &[Field], new: &[Field]) {
    for p in pair(old, new, |f| f.name.as_str(), |f| f.id) {
        match p {
            (Some(i), Some(j)) => field(d, &old[i], &new[j]),
            (Some(i), None) => {
                let o = &old[i];
                let wire = o.length != 0;
                let message = format!(
                    "{}: field removed{}",
                    shown(&o.path),
                    if wire {
                        ": an old reader reads it from bytes a new writer uses otherwise"
                    } else {
                        " (a constant: not on the wire)"
                    }
                );
                let at = At {
                    old: &o.path,
                    new: at.new,
                };
                d.push("field-removed", message, at, [false, wire, true]);
            }
            (None, Some(j)) => {
                let n = &new[j];
                let at = At {
                    old: at.old,
                    new: &n.path,
                };
                added(d, at, "field", n.since, n.length == 0);
            }
            (None, None) => {}
        }
    }
}

/// An element new to NEW: a new reader meets old messages without it, and must know from
/// the acting version that it is absent.
fn added(d: &mut Diff, at: At, noun: &str, since: i32, constant: bool) {
    let what = shown(at.new);
    if constant || since > d.old_version {
        let message = format!("{what}: {noun} added, since version {since}");
        d.push("added", message, at, [false, false, false]);
    } else {
        let message = format!(
            "{what}: {noun} added with sinceVersion {since}, not above the old schema's version {}: \
             a reader built from the new schema takes it as present in old messages, which \
             never had it (the reference's codecs read whatever bytes are there)",
            d.old_version
        );
        d.push("since-version-missing", message, at, [true, false, false]);
    }
}

fn common(d: &mut Diff, at: At, noun: &str, names: (&str, &str), since: (i32, i32)) {
    if names.0 != names.1 {
        let message = format!("{}: {noun} renamed to {}", shown(at.old), names.1);
        d.push("renamed", message, at, SOURCE);
    }
    if since.1 > since.0 && since.1 > d.old_version {
        let message = format!(
            "{}: sinceVersion raised from {} to {}, above the old schema's version {}: a new \
             reader takes it as absent from old messages, which have it",
            shown(at.new),
            since.0,
            since.1,
            d.old_version
        );
        d.push("since-version-raised", message, at, [true, false, false]);
    }
}

fn field(d: &mut Diff, o: &Field, n: &Field) {
    let at = At {
        old: &o.path,
        new: &n.path,
    };
    common(d, at, "field", (&o.name, &n.name), (o.since, n.since));
    if o.id != n.id {
        let message = format!(
            "{}: field id changed from {} to {}",
            shown(&n.path),
            o.id,
            n.id
        );
        d.push("field-id-changed", message, at, [false, false, false]);
    }
    if o.offset != n.offset && o.length != 0 && n.length != 0 {
        let message = format!(
            "{}: field moved from offset {} to {}: each side reads it from the other's bytes",
            shown(&n.path),
            o.offset,
            n.offset
        );
        d.push("field-moved", message, at, WIRE);
    }
    types::compare(d, at, &o.ty, &n.ty);
}

/// A group or var data: what follows a block, in order.
enum Tail<'a> {
    Group(&'a Group),
    Data(&'a Data),
}

impl Tail<'_> {
    fn name(&self) -> &str {
        match self {
            Tail::Group(g) => &g.name,
            Tail::Data(v) => &v.name,
        }
    }
    fn id(&self) -> i32 {
        match self {
            Tail::Group(g) => g.id,
            Tail::Data(v) => v.id,
        }
    }
    fn path(&self) -> &str {
        match self {
            Tail::Group(g) => &g.path,
            Tail::Data(v) => &v.path,
        }
    }
    fn since(&self) -> i32 {
        match self {
            Tail::Group(g) => g.since,
            Tail::Data(v) => v.since,
        }
    }
    fn noun(&self) -> &'static str {
        match self {
            Tail::Group(_) => "group",
            Tail::Data(_) => "var data",
        }
    }
}

fn tail_of(body: &Body) -> Vec<Tail<'_>> {
    let groups = body.groups.iter().map(Tail::Group);
    groups.chain(body.data.iter().map(Tail::Data)).collect()
}

fn tail(d: &mut Diff, at: At, old: &[Tail], new: &[Tail]) {
    let pairs = pair(old, new, |t| t.name(), |t| t.id());
    // Elements both have, in OLD's order: NEW must keep that order.
    let mut common_new: Vec<usize> = pairs.iter().filter_map(|p| p.0.and(p.1)).collect();
    let in_order = common_new.windows(2).all(|w| w[0] < w[1]);
    common_new.sort_unstable();
    if !in_order {
        let names: Vec<&str> = common_new.iter().map(|&j| new[j].name()).collect();
        let message = format!(
            "{}: groups and var data reordered (now {}): each side reads one as another",
            shown(at.new),
            names.join(", ")
        );
        d.push("reordered", message, at, WIRE);
    }
    let last_common_old = pairs
        .iter()
        .filter(|p| p.1.is_some())
        .filter_map(|p| p.0)
        .max();
    for p in &pairs {
        match *p {
            (Some(i), Some(j)) => matched(d, &old[i], &new[j]),
            (Some(i), None) => {
                let o = &old[i];
                // A new reader stops before it when nothing it knows follows it.
                let followed = last_common_old.is_some_and(|l| l > i);
                let message = format!(
                    "{}: {} removed: an old reader expects it where a new writer writes {}",
                    shown(o.path()),
                    o.noun(),
                    if followed { "what follows" } else { "nothing" }
                );
                let at = At {
                    old: o.path(),
                    new: at.new,
                };
                d.push("removed", message, at, [followed, true, true]);
            }
            (None, Some(j)) => {
                let n = &new[j];
                let inserted = common_new.last().is_some_and(|&l| l > j);
                let at = At {
                    old: at.old,
                    new: n.path(),
                };
                if inserted {
                    let message = format!(
                        "{}: {} inserted before others: an old reader reads it as the next \
                         element it knows",
                        shown(n.path()),
                        n.noun()
                    );
                    let unmarked = n.since() <= d.old_version;
                    d.push("inserted", message, at, [unmarked, true, false]);
                } else {
                    added(d, at, n.noun(), n.since(), false);
                }
            }
            (None, None) => {}
        }
    }
}

fn matched(d: &mut Diff, o: &Tail, n: &Tail) {
    let at = At {
        old: o.path(),
        new: n.path(),
    };
    common(
        d,
        at,
        o.noun(),
        (o.name(), n.name()),
        (o.since(), n.since()),
    );
    match (o, n) {
        (Tail::Group(o), Tail::Group(n)) => {
            dimension(d, at, &o.dimension, &n.dimension);
            compare(d, at, &o.body, &n.body);
        }
        (Tail::Data(o), Tail::Data(n)) => types::layout(d, at, &o.ty, &n.ty),
        _ => {
            let message = format!(
                "{}: changed from {} to {}",
                shown(n.path()),
                o.noun(),
                n.noun()
            );
            d.push("kind-changed", message, at, ALL);
        }
    }
}

fn dimension(d: &mut Diff, at: At, old: &Type, new: &Type) {
    let before = d.findings.len();
    types::layout(d, at, old, new);
    for f in &mut d.findings[before..] {
        f.message = format!("{} (group dimension {})", f.message, new.name);
    }
}

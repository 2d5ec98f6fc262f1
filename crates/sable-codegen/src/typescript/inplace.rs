//! Composite members read and written in place: `e.mdEntryPxMantissaAsNumber()` beside
//! `e.mdEntryPx.mantissaAsNumber()`, `g.mdEntryPxMantissa(50)` beside
//! `g.mdEntryPx().mantissa(50)`. The same bytes, null values and errors (the same path), but no
//! composite flyweight to move first: its `_at` stores four fields and costs V8's inlining budget
//! as much as two getters (docs/typescript.md, "Speed").

use std::collections::HashSet;

use sable_ir::Presence;

use super::fields::{Place, Slot};
use super::names::{accessor, camel, pascal};
use super::Gen;
use crate::model::{Body, TypeRef};

/// What an accessor's name `x` may be followed by in the names of a codec's members
/// (`xAsNumber`, `xRaw`, `xBytes`, `xAt`).
const DERIVED: [&str; 5] = ["", "AsNumber", "Raw", "Bytes", "At"];

/// A composite member made flat: its accessor name, its path (for docs and errors) and its slot.
struct Flat<'a> {
    name: String,
    path: String,
    composite_accessor: String,
    member_accessor: String,
    slot: Slot<'a>,
}

impl Gen<'_> {
    /// The in-place accessors of a body's composite fields' primitive members: getters on a
    /// decoder (`encoder` false), setters on an encoder. Left out: arrays, constants, members
    /// added in later versions, nested composites' members, and any name another member of the
    /// codec has or derives (`tradeIdAsNumber`): no name the schema gives is shadowed.
    pub(super) fn in_place_members(&mut self, body: &Body, place: &Place, encoder: bool) {
        let s = self.s;
        let derived = |x: &str| DERIVED.map(|d| format!("{x}{d}"));
        let mut taken: HashSet<String> = body
            .fields
            .iter()
            .map(|f| &f.name)
            .chain(body.groups.iter().map(|g| &g.name))
            .chain(body.var_data.iter().map(|v| &v.name))
            .flat_map(|n| derived(&accessor(n)))
            .collect();
        let mut flats: Vec<Flat<'_>> = Vec::new();
        for f in &body.fields {
            let TypeRef::Composite(cname) = &f.type_ref else {
                continue;
            };
            if f.is_constant() {
                continue;
            }
            for m in &s.composite(cname).members {
                let member = Slot::of_member(m);
                let TypeRef::Primitive(p) = &m.type_ref else {
                    continue;
                };
                if p.is_array() || member.constant || m.since_version > 0 {
                    continue;
                }
                let name = format!("{}{}", camel(&f.name), pascal(&m.name));
                let mine = derived(&name);
                if accessor(&name) != name || mine.iter().any(|x| taken.contains(x)) {
                    continue;
                }
                taken.extend(mine);
                flats.push(Flat {
                    name,
                    path: format!("{}.{}", f.name, m.name),
                    composite_accessor: accessor(&f.name),
                    member_accessor: accessor(&m.name),
                    slot: Slot {
                        offset: f.offset + m.offset,
                        optional: member.optional || m.presence == Presence::Optional,
                        ..member
                    },
                });
            }
        }
        for flat in &flats {
            let (c, m) = (&flat.composite_accessor, &flat.member_accessor);
            let note = if encoder {
                format!(
                    "in place: what `{c}().{m}(value)` writes, without the composite's encoder."
                )
            } else {
                format!("in place: what `{c}.{m}` reads, without the composite's decoder.")
            };
            let what = if encoder { "Writes " } else { "" };
            let description = match flat.slot.description {
                Some(d) => format!("{d} ({what}`{}` {note})", flat.path),
                None => format!("{what}`{}` {note}", flat.path),
            };
            let slot = Slot {
                name: &flat.path,
                description: Some(&description),
                ..flat.slot
            };
            if encoder {
                self.slot_setter_named(&slot, place, &flat.name);
            } else {
                self.slot_getter_named(&slot, place, &flat.name);
            }
        }
    }
}

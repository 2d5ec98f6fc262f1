//! Reading a block (or a composite) with one struct: its format, and where each field's values
//! lie in what it reads.

use sable_ir::{ByteOrder, PrimitiveType};

use super::fields::Slot;
use super::names::format_letter;
use super::Gen;
use crate::model::{Body, Composite, TypeRef};

/// A slot in a struct format: its offset, size, format code, and (when its values are read)
/// its index among the slots and how many values it reads.
type Part = (usize, usize, String, Option<(usize, usize)>);

/// A struct format and, for each slot, the index of its first value in what it reads.
pub(super) type Layout = (String, Vec<Option<usize>>);

impl Gen<'_> {
    /// One struct format reading every field of the block that is not a constant: a
    /// composite's members are read with it when the composite reads as one struct, else its
    /// bytes are skipped (its decoder reads them). `None` when fields overlap or differ in
    /// byte order.
    pub(super) fn block_layout(&self, body: &Body) -> Option<Layout> {
        let slots: Vec<Slot<'_>> = body.fields.iter().map(Slot::of_field).collect();
        self.layout(&slots)
    }

    /// A composite's own struct, when all its members read as one (none is a composite).
    pub(super) fn composite_layout(&self, c: &Composite) -> Option<Layout> {
        let slots: Vec<Slot<'_>> = c.members.iter().map(Slot::of_member).collect();
        if slots
            .iter()
            .any(|s| matches!(s.type_ref, TypeRef::Composite(_)))
        {
            return None;
        }
        self.layout(&slots)
    }

    /// The composite a slot is, when its members are read with its block.
    pub(super) fn flat_composite(&self, slot: &Slot<'_>) -> Option<&Composite> {
        match slot.type_ref {
            TypeRef::Composite(n) if !slot.constant => {
                let c = self.s.composite(n);
                self.composite_layout(c).map(|_| c)
            }
            _ => None,
        }
    }

    fn layout(&self, slots: &[Slot<'_>]) -> Option<Layout> {
        let mut order = None;
        let mut parts: Vec<Part> = Vec::new();
        for (i, slot) in slots.iter().enumerate() {
            let size = self.slot_size(slot);
            if slot.constant || size == 0 {
                continue;
            }
            if let Some(c) = self.flat_composite(slot) {
                let mut members: Vec<Slot<'_>> = c.members.iter().map(Slot::of_member).collect();
                members.sort_by_key(|m| m.offset);
                let mut count = 0;
                let mut first = true;
                for m in &members {
                    let Some((code, n, byte_order)) = self.code(m) else {
                        continue;
                    };
                    if *order.get_or_insert(byte_order) != byte_order {
                        return None;
                    }
                    let field = first.then_some((i, 0));
                    first = false;
                    parts.push((slot.offset + m.offset, self.slot_size(m), code, field));
                    count += n;
                }
                // The composite's first member counts the values of all of them.
                if let Some(p) = parts.iter_mut().find(|p| p.3 == Some((i, 0))) {
                    p.3 = Some((i, count));
                }
                continue;
            }
            match self.code(slot) {
                Some((code, count, byte_order)) => {
                    if *order.get_or_insert(byte_order) != byte_order {
                        return None;
                    }
                    parts.push((slot.offset, size, code, Some((i, count))));
                }
                None => parts.push((slot.offset, size, format!("{size}x"), None)),
            }
        }
        parts.sort_by_key(|p| p.0);
        let mut format = String::from(match order.unwrap_or(self.s.byte_order) {
            ByteOrder::BigEndian => ">",
            _ => "<",
        });
        let mut at = vec![None; slots.len()];
        let (mut pos, mut index) = (0, 0);
        for (offset, size, code, field) in parts {
            if offset < pos {
                return None;
            }
            if offset > pos {
                format.push_str(&format!("{}x", offset - pos));
            }
            format.push_str(&code);
            if let Some((i, count)) = field {
                at[i] = Some(index);
                index += count;
            }
            pos = offset + size;
        }
        (index > 0).then_some((format, at))
    }

    /// A slot's struct code, how many values it reads and its byte order; `None` for a
    /// composite.
    fn code(&self, slot: &Slot<'_>) -> Option<(String, usize, ByteOrder)> {
        if slot.constant || self.slot_size(slot) == 0 {
            return None;
        }
        Some(match slot.type_ref {
            TypeRef::Primitive(p) if p.primitive_type == PrimitiveType::Char && p.is_array() => {
                (format!("{}s", p.length), 1, p.byte_order)
            }
            TypeRef::Primitive(p) if p.is_array() => (
                format!("{}{}", p.length, format_letter(p.primitive_type)),
                p.length,
                p.byte_order,
            ),
            TypeRef::Primitive(p) => (format_letter(p.primitive_type).to_string(), 1, p.byte_order),
            TypeRef::Enum(n) => {
                let e = self.s.enum_type(n);
                (format_letter(e.encoding_type).to_string(), 1, e.byte_order)
            }
            TypeRef::Set(n) => {
                let st = self.s.set_type(n);
                (
                    format_letter(st.encoding_type).to_string(),
                    1,
                    st.byte_order,
                )
            }
            TypeRef::Composite(_) => return None,
        })
    }
}

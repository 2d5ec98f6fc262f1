//! What a composite or set field reads as when it is not on the wire (newer than the acting
//! version, or beyond an older writer's shorter block: docs/codecs.md, "Acting version and block
//! length"): its decoder class keeps a read-only image of its null values, each member's (no
//! choice, for a set), and the field's getter wraps the flyweight over it.

use super::syntax::{doc, literal};
use super::{Buffer, Gen};
use crate::model::TypeRef;
use crate::writer::CodeWriter;

/// The static field of a composite or set decoder holding its null image.
pub(super) const NULL_VALUES: &str = "SBE_NULL_VALUES";

impl Gen<'_> {
    /// Declares and fills the null image of a composite (`members`: the composite's, by type)
    /// or of a set (`None`: all bits clear).
    pub(super) fn null_values(&self, w: &mut CodeWriter, members: Option<&[crate::model::Member]>) {
        let b = self.buffer;
        doc(
            w,
            "What this reads as when its field is not on the wire: each member's null value (read only).",
        );
        let image = b.null_image_var();
        match b {
            Buffer::Segment => {
                w.line(format!("static final MemorySegment {NULL_VALUES};"));
                w.open_brace("static");
                w.line("final byte[] sbeNullArray = new byte[ENCODED_LENGTH];");
                w.line(format!(
                    "final MemorySegment {image} = MemorySegment.ofArray(sbeNullArray);"
                ));
                self.put_null_members(w, members, 0);
                w.line(format!("{NULL_VALUES} = {image}.asReadOnly();"));
                w.end("}");
            }
            Buffer::Agrona | Buffer::AgronaUnsafe => {
                // Agrona has no read-only buffer: the image is package-private, and only the
                // decoders read it.
                w.line(format!(
                    "static final org.agrona.concurrent.UnsafeBuffer {NULL_VALUES} = new org.agrona.concurrent.UnsafeBuffer(new byte[ENCODED_LENGTH]);"
                ));
                if members.is_some() {
                    w.open_brace("static");
                    w.line(format!(
                        "final org.agrona.concurrent.UnsafeBuffer {image} = {NULL_VALUES};"
                    ));
                    self.put_null_members(w, members, 0);
                    w.end("}");
                }
            }
        }
        w.blank();
    }

    fn put_null_members(
        &self,
        w: &mut CodeWriter,
        members: Option<&[crate::model::Member]>,
        at: usize,
    ) {
        for m in members.unwrap_or_default() {
            self.put_nulls(w, &m.type_ref, at + m.offset);
        }
    }

    /// Statements writing the null value of a type at `at` in the null image: a primitive's (each
    /// element's), an enum's, no choice of a set (the image starts zeroed), each member's of a
    /// composite.
    fn put_nulls(&self, w: &mut CodeWriter, type_ref: &TypeRef, at: usize) {
        let b = self.buffer;
        let image = b.null_image_var();
        match type_ref {
            TypeRef::Primitive(p) if p.is_constant() => {}
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                let null = literal(t, &p.null_value);
                if p.length == 1 {
                    w.line(b.put(image, t, p.byte_order, &at.to_string(), &null));
                } else {
                    w.open_brace(format!("for (int i = 0; i < {}; i++)", p.length));
                    let element = match t.size() {
                        1 => format!("{at} + i"),
                        size => format!("{at} + i * {size}"),
                    };
                    w.line(b.put(image, t, p.byte_order, &element, &null));
                    w.end("}");
                }
            }
            TypeRef::Enum(e) => {
                let et = self.schema.enum_type(e);
                let null = literal(et.encoding_type, &et.null_value);
                w.line(b.put(
                    image,
                    et.encoding_type,
                    et.byte_order,
                    &at.to_string(),
                    &null,
                ));
            }
            TypeRef::Set(_) => {}
            TypeRef::Composite(c) => {
                self.put_null_members(w, Some(&self.schema.composite(c).members), at);
            }
        }
    }
}

//! What a composite or set field reads as when it is not on the wire (newer than the acting
//! version, or beyond an older writer's shorter block: docs/codecs.md, "Acting version and block
//! length"): its decoder class keeps a read-only image of its null values (`crate::nulls`), and
//! the field's getter wraps the flyweight over it.

use super::syntax::doc;
use super::{Buffer, Gen};
use crate::writer::CodeWriter;

/// The static field of a composite or set decoder holding its null image.
pub(super) const NULL_VALUES: &str = "SBE_NULL_VALUES";

impl Gen<'_> {
    /// Declares the null image of a composite or set decoder: `bytes`, its null bytes.
    pub(super) fn null_values(&self, w: &mut CodeWriter, bytes: &[u8]) {
        doc(
            w,
            "What this reads as when its field is not on the wire: each member's null value (read only).",
        );
        let array = byte_array(bytes);
        let line = match self.buffer {
            Buffer::Segment => format!(
                "static final MemorySegment {NULL_VALUES} = MemorySegment.ofArray({array}).asReadOnly();"
            ),
            // Agrona has no read-only buffer: the image is package-private, and only the
            // decoders read it.
            Buffer::Agrona | Buffer::AgronaUnsafe => format!(
                "static final org.agrona.concurrent.UnsafeBuffer {NULL_VALUES} = new org.agrona.concurrent.UnsafeBuffer({array});"
            ),
        };
        w.line(line);
        w.blank();
    }
}

/// A Java `byte[]` of `bytes` (`new byte[ENCODED_LENGTH]` when all are zero).
fn byte_array(bytes: &[u8]) -> String {
    if bytes.iter().all(|&b| b == 0) {
        return "new byte[ENCODED_LENGTH]".to_owned();
    }
    let items: Vec<String> = bytes
        .iter()
        .map(|&b| {
            if b < 0x80 {
                b.to_string()
            } else {
                format!("(byte) 0x{b:02X}")
            }
        })
        .collect();
    format!("new byte[] {{{}}}", items.join(", "))
}

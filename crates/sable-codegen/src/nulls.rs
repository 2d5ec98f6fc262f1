//! What a field or composite member that is not on the wire reads as (newer than the acting
//! version, or beyond an older writer's shorter block: docs/codecs.md, "Acting version and block
//! length"), as bytes: the generators that read absent fields from a block of null values embed
//! these.

use sable_ir::{ByteOrder, PrimitiveType, PrimitiveValue};

use crate::model::{Composite, Field, Schema, Slot, TypeRef};

/// The bytes of `v` as a value of `p` in `order`.
pub fn value_bytes(v: &PrimitiveValue, p: PrimitiveType, order: ByteOrder) -> Vec<u8> {
    let mut b: Vec<u8> = match p {
        PrimitiveType::Float => (v.as_f64().unwrap_or(f64::NAN) as f32)
            .to_le_bytes()
            .to_vec(),
        PrimitiveType::Double => v.as_f64().unwrap_or(f64::NAN).to_le_bytes().to_vec(),
        _ => {
            let i = match v {
                PrimitiveValue::Bytes { bytes, .. } => bytes.first().copied().map_or(0, i128::from),
                other => other.as_i128().unwrap_or(0),
            };
            i.to_le_bytes()[..p.size()].to_vec()
        }
    };
    if order == ByteOrder::BigEndian {
        b.reverse();
    }
    b
}

impl Schema {
    /// A slot's bytes when null: a primitive's null value in each element, an enum's null
    /// value, no choice of a set, each member's of a composite; none for a constant.
    pub fn null_bytes(&self, slot: &Slot<'_>) -> Vec<u8> {
        if slot.constant {
            return Vec::new();
        }
        match slot.type_ref {
            TypeRef::Primitive(p) => {
                let one = value_bytes(&p.null_value, p.primitive_type, p.byte_order);
                one.repeat(p.length.max(1))
            }
            TypeRef::Enum(n) => {
                let e = self.enum_type(n);
                value_bytes(&e.null_value, e.encoding_type, e.byte_order)
            }
            TypeRef::Set(n) => vec![0; self.set_type(n).encoding_type.size()],
            TypeRef::Composite(n) => self.composite_null(self.composite(n)),
        }
    }

    /// A composite's bytes when null: each member's null bytes, padding zero.
    pub fn composite_null(&self, c: &Composite) -> Vec<u8> {
        let mut out = vec![0u8; c.encoded_length.max(0) as usize];
        for m in &c.members {
            let b = self.null_bytes(&Slot::of_member(m));
            if let Some(dst) = out.get_mut(m.offset..m.offset + b.len()) {
                dst.copy_from_slice(&b);
            }
        }
        out
    }

    /// A block of `length` bytes with every field null, padding zero.
    pub fn null_block(&self, fields: &[Field], length: usize) -> Vec<u8> {
        let mut out = vec![0u8; length];
        for f in fields {
            let b = self.null_bytes(&Slot::of_field(f));
            if let Some(dst) = out.get_mut(f.offset..f.offset + b.len()) {
                dst.copy_from_slice(&b);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_in_either_byte_order() {
        assert_eq!(
            value_bytes(
                &PrimitiveValue::UInt(65535),
                PrimitiveType::UInt16,
                ByteOrder::BigEndian
            ),
            vec![255, 255]
        );
        assert_eq!(
            value_bytes(
                &PrimitiveValue::Int(-2),
                PrimitiveType::Int32,
                ByteOrder::BigEndian
            ),
            vec![255, 255, 255, 254]
        );
        assert_eq!(
            value_bytes(
                &PrimitiveValue::Float(f64::NAN),
                PrimitiveType::Float,
                ByteOrder::LittleEndian
            ),
            f32::NAN.to_le_bytes().to_vec()
        );
    }
}

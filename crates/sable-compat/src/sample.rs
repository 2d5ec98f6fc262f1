//! Random messages of a schema, in the canonical JSON form `sable encode` takes: every field,
//! group and var data with a value its type allows (optional ones sometimes null).

use sable_ir::{PrimitiveType, PrimitiveValue};
use serde_json::{json, Map, Value};

use crate::model::{Body, Kind, Message, Type};

/// A small, seeded generator (xorshift64*): the same seed gives the same messages.
pub struct Random(u64);

impl Random {
    pub fn new(seed: u64) -> Random {
        Random(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
}

pub fn message(m: &Message, r: &mut Random) -> Value {
    json!({"message": m.name, "fields": body(&m.body, r)})
}

fn body(b: &Body, r: &mut Random) -> Value {
    let mut fields = Map::new();
    for f in &b.fields {
        if let Some(v) = value(&f.ty, r) {
            fields.insert(f.name.clone(), v);
        }
    }
    for g in &b.groups {
        let entries: Vec<Value> = (0..r.below(3)).map(|_| body(&g.body, r)).collect();
        fields.insert(g.name.clone(), Value::Array(entries));
    }
    for d in &b.data {
        let text = matches!(&d.ty.kind, Kind::Composite(m) if m.iter().any(|t| matches!(&t.kind, Kind::Encoded { charset: Some(_), .. })));
        let n = r.below(8) as usize;
        fields.insert(d.name.clone(), Value::String(letters_or_hex(n, text, r)));
    }
    Value::Object(fields)
}

fn letters_or_hex(n: usize, text: bool, r: &mut Random) -> String {
    if text {
        (0..n)
            .map(|_| char::from(b'a' + r.below(26) as u8))
            .collect()
    } else {
        (0..n).map(|_| format!("{:02x}", r.below(256))).collect()
    }
}

/// A value of type `t`; `None` for a constant (the encoder supplies it).
fn value(t: &Type, r: &mut Random) -> Option<Value> {
    if t.presence() == sable_ir::Presence::Constant {
        return None;
    }
    if t.presence() == sable_ir::Presence::Optional && r.below(4) == 0 {
        return Some(Value::Null);
    }
    Some(match &t.kind {
        Kind::Encoded { primitive, .. } => {
            let n = if t.length > 0 {
                (t.length / primitive.size() as i32).max(1) as usize
            } else {
                1
            };
            match primitive {
                PrimitiveType::Char if n > 1 => {
                    Value::String(letters_or_hex(r.below(n as u64 + 1) as usize, true, r))
                }
                PrimitiveType::UInt8 | PrimitiveType::Int8 if n > 1 => {
                    Value::String(letters_or_hex(n, false, r))
                }
                _ if n > 1 => Value::Array((0..n).map(|_| number(*primitive, r)).collect()),
                _ => number(*primitive, r),
            }
        }
        Kind::Composite(members) => {
            let mut o = Map::new();
            for m in members {
                if let Some(v) = value(m, r) {
                    o.insert(m.name.clone(), v);
                }
            }
            Value::Object(o)
        }
        Kind::Enum { items, .. } => match items.get(r.below(items.len() as u64) as usize) {
            Some(i) => Value::String(i.name.clone()),
            None => Value::Null,
        },
        Kind::Set { items, .. } => Value::Array(
            items
                .iter()
                .filter(|_| r.below(2) == 1)
                .map(|i| Value::String(i.name.clone()))
                .collect(),
        ),
    })
}

/// A number within the primitive type's default range (so never its null value).
fn number(p: PrimitiveType, r: &mut Random) -> Value {
    if p == PrimitiveType::Char {
        return Value::String(char::from(b'a' + r.below(26) as u8).to_string());
    }
    if p.is_float() {
        return json!(r.below(1 << 20) as f64 / 4.0);
    }
    let mut span = |min: i128, max: i128| -> i128 {
        let width = (max - min + 1).min(i128::from(u64::MAX)) as u64;
        min + i128::from(r.below(width))
    };
    let bound = |v: PrimitiveValue| match v {
        PrimitiveValue::Int(i) => i128::from(i),
        PrimitiveValue::UInt(u) => i128::from(u),
        _ => 0,
    };
    let n = span(bound(p.min_value()), bound(p.max_value()));
    if n < 0 {
        json!(n as i64)
    } else {
        json!(n as u64)
    }
}

/// `fields` as wire values: each enum value's and set choice's name replaced by its number, so
/// that two schemas naming the same value differently read the same (a rename breaks only
/// source).
pub fn numbered(b: &Body, fields: &Value) -> Value {
    let Value::Object(map) = fields else {
        return fields.clone();
    };
    let mut out = map.clone();
    for f in &b.fields {
        if let Some(v) = out.get_mut(&f.name) {
            *v = typed(&f.ty, v);
        }
    }
    for g in &b.groups {
        if let Some(Value::Array(entries)) = out.get_mut(&g.name) {
            for e in entries.iter_mut() {
                *e = numbered(&g.body, e);
            }
        }
    }
    Value::Object(out)
}

fn typed(t: &Type, v: &Value) -> Value {
    let number = |items: &[crate::model::Item], name: &str| {
        items
            .iter()
            .find(|i| i.name == name)
            .map_or(Value::String(name.to_owned()), |i| {
                json!(i.value.to_string())
            })
    };
    match (&t.kind, v) {
        (Kind::Enum { items, .. }, Value::String(name)) => number(items, name),
        (Kind::Set { items, .. }, Value::Array(names)) => Value::Array(
            names
                .iter()
                .map(|n| match n {
                    Value::String(name) => number(items, name),
                    other => json!(other.to_string()),
                })
                .collect(),
        ),
        (Kind::Composite(members), Value::Object(o)) => {
            let mut out = o.clone();
            for m in members {
                if let Some(v) = out.get_mut(&m.name) {
                    *v = typed(m, v);
                }
            }
            Value::Object(out)
        }
        _ => v.clone(),
    }
}

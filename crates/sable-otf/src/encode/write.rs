//! The writer: walks a plan and a JSON value together, writing bytes.

use sable_ir::{ByteOrder, PrimitiveType, PrimitiveValue};
use serde_json::{Map, Value};

use super::error::{EncodeError, EncodeErrorKind};
use super::plan::{Block, Composite, Enum, Prim, Set, Type, VarData};
use super::tokens::{value_as_f64, value_as_i128};

/// A JSON path, built on the stack as the writer descends and printed only for an error.
pub(super) enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    fn render(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.render(out);
                if !out.is_empty() {
                    out.push('.');
                }
                // A key may come from the input: escaped and cut short like any echoed value.
                out.push_str(&crate::shown(key, 40));
            }
            Path::Index(parent, i) => {
                parent.render(out);
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }

    /// An error at this path.
    pub fn error(&self, kind: EncodeErrorKind) -> EncodeError {
        let mut path = String::new();
        self.render(&mut path);
        EncodeError { path, kind }
    }
}

/// How JSON names a value's type in an error.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A wrong-type error kind.
pub(super) fn wrong_type(expected: &str, found: &Value) -> EncodeErrorKind {
    EncodeErrorKind::WrongType {
        expected: expected.to_owned(),
        found: json_type(found),
    }
}

/// The value as an object, or a wrong-type error.
pub(super) fn as_object<'v>(
    v: &'v Value,
    path: &Path,
    expected: &str,
) -> Result<&'v Map<String, Value>, EncodeError> {
    match v {
        Value::Object(m) => Ok(m),
        other => Err(path.error(wrong_type(expected, other))),
    }
}

/// Whether `encoding` stores text as UTF-8 (otherwise one byte per character, U+0000..U+00FF).
fn is_utf8(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| {
        let e = e.to_ascii_uppercase();
        e == "UTF-8" || e == "UTF8"
    })
}

/// Text to bytes in a character encoding: UTF-8 as is; anything else (US-ASCII, ISO-8859-1 and
/// undeclared) one byte per character, which must be at most U+00FF (docs/json.md maps every
/// byte to U+0000..U+00FF, US-ASCII too, so that every byte round-trips).
fn text_bytes(text: &str, encoding: Option<&str>, path: &Path) -> Result<Vec<u8>, EncodeError> {
    if is_utf8(encoding) {
        return Ok(text.as_bytes().to_vec());
    }
    text.chars()
        .map(|c| {
            u8::try_from(u32::from(c)).ok().ok_or_else(|| {
                path.error(EncodeErrorKind::UnencodableCharacter {
                    character: c,
                    encoding: encoding.unwrap_or("ISO-8859-1").to_owned(),
                })
            })
        })
        .collect()
}

/// Lowercase or uppercase hex to bytes.
fn hex_bytes(text: &str, path: &Path) -> Result<Vec<u8>, EncodeError> {
    let digits = text.as_bytes();
    if digits.len() % 2 != 0 {
        return Err(path.error(EncodeErrorKind::BadHex(format!(
            "odd number of digits ({})",
            digits.len()
        ))));
    }
    let digit = |c: u8| -> Result<u8, EncodeError> {
        match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(path.error(EncodeErrorKind::BadHex(format!(
                "'{}' is not a hex digit",
                char::from(c).escape_default()
            )))),
        }
    };
    digits
        .chunks(2)
        .map(|pair| Ok(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

/// Bytes given as a string (text) or `{"hex":"..."}`.
fn string_or_hex(
    v: &Value,
    encoding: Option<&str>,
    path: &Path,
    expected: &str,
) -> Result<Vec<u8>, EncodeError> {
    match v {
        Value::String(s) => text_bytes(s, encoding, path),
        Value::Object(m) => hex_object(m, path, expected),
        other => Err(path.error(wrong_type(expected, other))),
    }
}

/// The bytes of a `{"hex":"..."}` object.
fn hex_object(m: &Map<String, Value>, path: &Path, expected: &str) -> Result<Vec<u8>, EncodeError> {
    match (m.get("hex"), m.len()) {
        (Some(Value::String(h)), 1) => hex_bytes(h, &Path::Key(path, "hex")),
        (Some(other), 1) => Err(Path::Key(path, "hex").error(wrong_type("a hex string", other))),
        _ => Err(path.error(EncodeErrorKind::WrongType {
            expected: expected.to_owned(),
            found: "an object other than {\"hex\":...}",
        })),
    }
}

/// Integer bounds of a primitive type as it can be stored (not as the standard restricts it).
fn representable(t: PrimitiveType) -> (i128, i128) {
    match t {
        PrimitiveType::Char | PrimitiveType::UInt8 => (0, 0xff),
        PrimitiveType::Int8 => (i8::MIN.into(), i8::MAX.into()),
        PrimitiveType::Int16 => (i16::MIN.into(), i16::MAX.into()),
        PrimitiveType::Int32 => (i32::MIN.into(), i32::MAX.into()),
        PrimitiveType::Int64 => (i64::MIN.into(), i64::MAX.into()),
        PrimitiveType::UInt16 => (0, u16::MAX.into()),
        PrimitiveType::UInt32 => (0, u32::MAX.into()),
        PrimitiveType::UInt64 | PrimitiveType::Float | PrimitiveType::Double => {
            (0, u64::MAX.into())
        }
    }
}

/// A JSON integer, exact (u64 and i64 never go through f64). A number with a fraction or an
/// exponent (`1.0`, `1e3`) is not an integer, unless it is integral and beyond 64 bits (how
/// serde_json reads `18446744073709551616`): then it saturates to i128 so that the caller's
/// range check reports it with the type's range.
fn json_integer(v: &Value, path: &Path, expected: &str) -> Result<i128, EncodeError> {
    match v {
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                Ok(i128::from(u))
            } else if let Some(i) = n.as_i64() {
                Ok(i128::from(i))
            } else {
                match n.as_f64() {
                    Some(f) if f.fract() == 0.0 && f.abs() >= u64::MAX as f64 => Ok(f as i128),
                    _ => Err(path.error(EncodeErrorKind::NotAnInteger(n.to_string()))),
                }
            }
        }
        other => Err(path.error(wrong_type(expected, other))),
    }
}

/// A float bound as a message shows it: `3.4028235e38` rather than 39 digits, `-1.5` as is.
/// `Float` bounds print as the f32 they are.
fn float_text(t: PrimitiveType, f: f64) -> String {
    let big_or_tiny = f.abs() >= 1e16 || (f != 0.0 && f.abs() < 1e-4);
    match (t == PrimitiveType::Float, big_or_tiny) {
        (true, true) => format!("{:e}", f as f32),
        (true, false) => format!("{}", f as f32),
        (false, true) => format!("{f:e}"),
        (false, false) => format!("{f}"),
    }
}

/// The writer's settings.
pub(super) struct Writer {
    pub order: ByteOrder,
    pub range_checks: bool,
}

impl Writer {
    /// Writes an integer of type `t` into `buf` (exactly `t.size()` bytes).
    fn put_int(&self, t: PrimitiveType, v: i128, buf: &mut [u8]) {
        let size = t.size();
        // Two's complement truncation to the type's width.
        let raw = v as u64;
        match self.order {
            ByteOrder::LittleEndian => buf[..size].copy_from_slice(&raw.to_le_bytes()[..size]),
            ByteOrder::BigEndian => buf[..size].copy_from_slice(&raw.to_be_bytes()[8 - size..]),
        }
    }

    /// Writes a float or double into `buf`.
    fn put_float(&self, t: PrimitiveType, v: f64, buf: &mut [u8]) {
        if t == PrimitiveType::Float {
            let bits = (v as f32).to_bits();
            let bytes = match self.order {
                ByteOrder::LittleEndian => bits.to_le_bytes(),
                ByteOrder::BigEndian => bits.to_be_bytes(),
            };
            buf[..4].copy_from_slice(&bytes);
        } else {
            let bits = v.to_bits();
            let bytes = match self.order {
                ByteOrder::LittleEndian => bits.to_le_bytes(),
                ByteOrder::BigEndian => bits.to_be_bytes(),
            };
            buf[..8].copy_from_slice(&bytes);
        }
    }

    /// Writes an IR value (a null or constant value) of type `t` into `buf`.
    fn put_value(&self, t: PrimitiveType, v: &PrimitiveValue, buf: &mut [u8]) {
        if t.is_float() {
            self.put_float(t, value_as_f64(v).unwrap_or(f64::NAN), buf);
        } else {
            self.put_int(t, value_as_i128(v).unwrap_or(0), buf);
        }
    }

    /// Writes one element (scalar) of a primitive.
    fn scalar(
        &self,
        p: &Prim,
        v: &Value,
        nullable: bool,
        path: &Path,
        buf: &mut [u8],
    ) -> Result<(), EncodeError> {
        let t = p.ptype;
        if v.is_null() {
            if !nullable {
                return Err(path.error(EncodeErrorKind::NullNotAllowed));
            }
            self.put_value(t, &p.null, buf);
            return Ok(());
        }
        if t == PrimitiveType::Char {
            let bytes = string_or_hex(v, p.character_encoding.as_deref(), path, "a string")?;
            if bytes.len() > 1 {
                return Err(path.error(EncodeErrorKind::StringTooLong {
                    length: bytes.len(),
                    type_name: "char".to_owned(),
                }));
            }
            buf[0] = bytes.first().copied().unwrap_or(0);
            return Ok(());
        }
        if t.is_float() {
            let f = match v {
                Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
                Value::String(s) if s == "NaN" => f64::NAN,
                Value::String(s) if s == "Infinity" => f64::INFINITY,
                Value::String(s) if s == "-Infinity" => f64::NEG_INFINITY,
                other => {
                    return Err(path.error(wrong_type(
                        "a number or \"NaN\", \"Infinity\", \"-Infinity\"",
                        other,
                    )))
                }
            };
            // A float is checked as the f32 it rounds to: the shortest text of f32::MAX reads
            // as a double just above it.
            let f = if t == PrimitiveType::Float {
                f64::from(f as f32)
            } else {
                f
            };
            if f.is_finite() || (t == PrimitiveType::Float && v.is_number()) {
                let (lo, hi) = if t == PrimitiveType::Float {
                    (-f64::from(f32::MAX), f64::from(f32::MAX))
                } else {
                    (-f64::MAX, f64::MAX)
                };
                let (min, max) = if self.range_checks {
                    (
                        p.min.as_ref().and_then(value_as_f64).unwrap_or(lo),
                        p.max.as_ref().and_then(value_as_f64).unwrap_or(hi),
                    )
                } else {
                    (lo, hi)
                };
                let is_null = value_as_f64(&p.null) == Some(f);
                if (f < min || f > max) && !is_null {
                    return Err(path.error(EncodeErrorKind::OutOfRange {
                        value: v.to_string(),
                        type_name: t.to_string(),
                        min: float_text(t, min),
                        max: float_text(t, max),
                    }));
                }
            }
            self.put_float(t, f, buf);
            return Ok(());
        }
        let n = json_integer(v, path, t.schema_name())?;
        let (lo, hi) = representable(t);
        let (min, max) = if self.range_checks {
            (
                p.min
                    .as_ref()
                    .or(Some(&t.min_value()))
                    .and_then(value_as_i128)
                    .unwrap_or(lo),
                p.max
                    .as_ref()
                    .or(Some(&t.max_value()))
                    .and_then(value_as_i128)
                    .unwrap_or(hi),
            )
        } else {
            (lo, hi)
        };
        // The null value is accepted as a number even for a required field: it is what a decoder
        // shows for one holding it on the wire (the spec's own MaturityMonthYear example does).
        let is_null = value_as_i128(&p.null) == Some(n);
        if (n < min || n > max || n < lo || n > hi) && !is_null {
            return Err(path.error(EncodeErrorKind::OutOfRange {
                value: v.to_string(),
                type_name: t.to_string(),
                min: min.max(lo).to_string(),
                max: max.min(hi).to_string(),
            }));
        }
        self.put_int(t, n, buf);
        Ok(())
    }

    /// Writes a primitive (scalar or array) into `buf` (exactly its size), or checks a constant.
    fn prim(
        &self,
        p: &Prim,
        v: &Value,
        nullable: bool,
        path: &Path,
        buf: &mut [u8],
    ) -> Result<(), EncodeError> {
        if let Some(c) = &p.constant {
            return self.constant(p, c, v, path);
        }
        let t = p.ptype;
        let size = t.size();
        if p.length == 1 {
            return self.scalar(p, v, nullable, path, buf);
        }
        if v.is_null() {
            if !nullable {
                return Err(path.error(EncodeErrorKind::NullNotAllowed));
            }
            for chunk in buf.chunks_mut(size) {
                self.put_value(t, &p.null, chunk);
            }
            return Ok(());
        }
        match t {
            PrimitiveType::Char => {
                let bytes = string_or_hex(
                    v,
                    p.character_encoding.as_deref(),
                    path,
                    "a string or {\"hex\":...}",
                )?;
                if bytes.len() > p.length {
                    return Err(path.error(EncodeErrorKind::StringTooLong {
                        length: bytes.len(),
                        type_name: p.type_name(),
                    }));
                }
                buf[..bytes.len()].copy_from_slice(&bytes);
                buf[bytes.len()..].fill(0);
                Ok(())
            }
            PrimitiveType::UInt8 | PrimitiveType::Int8 => {
                let bytes = match v {
                    Value::String(s) => hex_bytes(s, path)?,
                    other => return Err(path.error(wrong_type("a hex string", other))),
                };
                if bytes.len() != p.length {
                    return Err(path.error(EncodeErrorKind::BadHex(format!(
                        "{} bytes for {}, which needs {}",
                        bytes.len(),
                        p.type_name(),
                        p.length
                    ))));
                }
                buf.copy_from_slice(&bytes);
                Ok(())
            }
            _ => {
                let items = match v {
                    Value::Array(a) => a,
                    other => return Err(path.error(wrong_type("an array", other))),
                };
                if items.len() != p.length {
                    return Err(path.error(EncodeErrorKind::WrongArrayLength {
                        expected: p.length,
                        found: items.len(),
                    }));
                }
                for (i, (item, chunk)) in items.iter().zip(buf.chunks_mut(size)).enumerate() {
                    self.scalar(p, item, nullable, &Path::Index(path, i), chunk)?;
                }
                Ok(())
            }
        }
    }

    /// Checks that `v` is the constant `c`: encodes both and compares the bytes.
    fn constant(
        &self,
        p: &Prim,
        c: &PrimitiveValue,
        v: &Value,
        path: &Path,
    ) -> Result<(), EncodeError> {
        let size = p.ptype.size() * p.length;
        let mut want = vec![0u8; size];
        match c {
            PrimitiveValue::Bytes { bytes, .. } => {
                let n = bytes.len().min(size);
                want[..n].copy_from_slice(&bytes[..n]);
            }
            other => self.put_value(p.ptype, other, &mut want),
        }
        let mut got = vec![0u8; size];
        let plain = Prim {
            constant: None,
            min: None,
            max: None,
            ..p.clone()
        };
        let saved = Writer {
            order: self.order,
            range_checks: false,
        };
        let mismatch = || {
            path.error(EncodeErrorKind::ConstantMismatch {
                expected: c.to_string(),
                found: v.to_string(),
            })
        };
        if v.is_null() || saved.prim(&plain, v, false, path, &mut got).is_err() || got != want {
            return Err(mismatch());
        }
        Ok(())
    }

    fn enumeration(
        &self,
        e: &Enum,
        v: &Value,
        path: &Path,
        buf: &mut [u8],
    ) -> Result<(), EncodeError> {
        let n = match v {
            // Any enum's null value decodes as `null` (docs/json.md), so any takes it back.
            Value::Null => e.null,
            Value::String(name) => match e.values.iter().find(|(n, _)| n == name) {
                Some((_, n)) => *n,
                None => {
                    return Err(path.error(EncodeErrorKind::UnknownEnumValue {
                        name: name.clone(),
                        enum_name: e.name.clone(),
                    }))
                }
            },
            Value::Object(m) if m.len() == 1 && m.contains_key("unknown") => {
                let inner = Path::Key(path, "unknown");
                let n = json_integer(&m["unknown"], &inner, "an integer")?;
                let (lo, hi) = representable(e.ptype);
                if n < lo || n > hi {
                    return Err(inner.error(EncodeErrorKind::OutOfRange {
                        value: m["unknown"].to_string(),
                        type_name: e.ptype.to_string(),
                        min: lo.to_string(),
                        max: hi.to_string(),
                    }));
                }
                n
            }
            other => {
                return Err(path.error(wrong_type(
                    &format!("a value name of enum {} or {{\"unknown\":N}}", e.name),
                    other,
                )))
            }
        };
        if let Some(c) = &e.constant {
            let want = e.values.iter().find(|(name, _)| name == c).map(|(_, n)| *n);
            if want != Some(n) {
                return Err(path.error(EncodeErrorKind::ConstantMismatch {
                    expected: c.clone(),
                    found: v.to_string(),
                }));
            }
            return Ok(());
        }
        self.put_int(e.ptype, n, buf);
        Ok(())
    }

    fn set(
        &self,
        s: &Set,
        v: &Value,
        nullable: bool,
        path: &Path,
        buf: &mut [u8],
    ) -> Result<(), EncodeError> {
        let items = match v {
            Value::Null if nullable => {
                self.put_int(s.ptype, 0, buf);
                return Ok(());
            }
            Value::Null => return Err(path.error(EncodeErrorKind::NullNotAllowed)),
            Value::Array(a) => a,
            other => {
                return Err(path.error(wrong_type(
                    "an array of choice names and bit numbers",
                    other,
                )))
            }
        };
        let bits = (s.ptype.size() * 8) as u64;
        let mut word: u64 = 0;
        for (i, item) in items.iter().enumerate() {
            let ipath = Path::Index(path, i);
            let bit = match item {
                Value::String(name) => match s.choices.iter().find(|(n, _)| n == name) {
                    Some((_, b)) => u64::from(*b),
                    None => {
                        return Err(ipath.error(EncodeErrorKind::UnknownChoice {
                            choice: format!("'{name}'"),
                            set_name: s.name.clone(),
                        }))
                    }
                },
                Value::Number(n) => match n.as_u64().filter(|b| *b < bits) {
                    Some(b) => b,
                    None => {
                        return Err(ipath.error(EncodeErrorKind::UnknownChoice {
                            choice: format!("bit {n}"),
                            set_name: s.name.clone(),
                        }))
                    }
                },
                other => {
                    return Err(ipath.error(wrong_type("a choice name or a bit number", other)))
                }
            };
            word |= 1 << bit;
        }
        self.put_int(s.ptype, i128::from(word), buf);
        Ok(())
    }

    /// Writes a composite into `buf` (exactly its length).
    pub fn composite(
        &self,
        c: &Composite,
        v: &Value,
        nullable: bool,
        path: &Path,
        buf: &mut [u8],
    ) -> Result<(), EncodeError> {
        let null = Value::Null;
        let object = match v {
            Value::Null if nullable => None,
            Value::Null => return Err(path.error(EncodeErrorKind::NullNotAllowed)),
            other => Some(as_object(
                other,
                path,
                &format!("an object (composite {})", c.name),
            )?),
        };
        if let Some(object) = object {
            for key in object.keys() {
                if !c.members.iter().any(|m| &m.name == key) {
                    return Err(Path::Key(path, key).error(EncodeErrorKind::UnknownField));
                }
            }
        }
        for m in &c.members {
            let mpath = Path::Key(path, &m.name);
            let member_nullable = m.nullable || nullable;
            let mv = match object.map(|o| o.get(&m.name)) {
                None => &null,
                Some(Some(mv)) => mv,
                Some(None) if member_nullable || m.ty.is_constant() => &null,
                Some(None) => return Err(mpath.error(EncodeErrorKind::MissingField)),
            };
            if mv.is_null() && m.ty.is_constant() {
                continue;
            }
            let end = m.offset + m.ty.size();
            let slot = buf
                .get_mut(m.offset..end)
                .ok_or_else(|| mpath.error(EncodeErrorKind::MissingField))?;
            self.ty(&m.ty, mv, member_nullable, &mpath, slot)?;
        }
        Ok(())
    }

    fn ty(
        &self,
        t: &Type,
        v: &Value,
        nullable: bool,
        path: &Path,
        buf: &mut [u8],
    ) -> Result<(), EncodeError> {
        match t {
            Type::Prim(p) => self.prim(p, v, nullable, path, buf),
            Type::Enum(e) => self.enumeration(e, v, path, buf),
            Type::Set(s) => self.set(s, v, nullable, path, buf),
            Type::Composite(c) => self.composite(c, v, nullable, path, buf),
        }
    }

    /// Appends a block (fields, then groups, then var data) from the object `v`.
    pub fn block(
        &self,
        b: &Block,
        v: &Value,
        path: &Path,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let object = as_object(v, path, "an object of fields")?;
        for key in object.keys() {
            if !b.has(key) {
                return Err(Path::Key(path, key).error(EncodeErrorKind::UnknownField));
            }
        }
        let null = Value::Null;
        let start = out.len();
        out.resize(start + b.length, 0);
        for f in &b.fields {
            let fpath = Path::Key(path, &f.name);
            let fv = match object.get(&f.name) {
                Some(fv) => fv,
                None if f.nullable || f.ty.is_constant() => &null,
                None => return Err(fpath.error(EncodeErrorKind::MissingField)),
            };
            if fv.is_null() && f.ty.is_constant() {
                continue;
            }
            let at = start + f.offset;
            let slot = out
                .get_mut(at..at + f.ty.size())
                .ok_or_else(|| fpath.error(EncodeErrorKind::MissingField))?;
            self.ty(&f.ty, fv, f.nullable, &fpath, slot)?;
        }
        for g in &b.groups {
            let gpath = Path::Key(path, &g.name);
            let entries: &[Value] = match object.get(&g.name) {
                Some(Value::Array(a)) => a,
                Some(Value::Null) | None if g.nullable => &[],
                Some(Value::Null) => return Err(gpath.error(EncodeErrorKind::NullNotAllowed)),
                None => return Err(gpath.error(EncodeErrorKind::MissingField)),
                Some(other) => {
                    return Err(gpath.error(wrong_type("an array of group entries", other)))
                }
            };
            self.dimension(&g.dimension, b_len(&g.body), entries.len(), &gpath, out)?;
            for (i, entry) in entries.iter().enumerate() {
                self.block(&g.body, entry, &Path::Index(&gpath, i), out)?;
            }
        }
        for d in &b.var_data {
            let dpath = Path::Key(path, &d.name);
            match object.get(&d.name) {
                Some(Value::Null) | None if d.nullable => self.var_data(d, &[], &dpath, out)?,
                Some(Value::Null) => return Err(dpath.error(EncodeErrorKind::NullNotAllowed)),
                None => return Err(dpath.error(EncodeErrorKind::MissingField)),
                Some(dv) => {
                    let bytes = match (&d.character_encoding, dv) {
                        (Some(enc), _) => {
                            string_or_hex(dv, Some(enc), &dpath, "a string or {\"hex\":...}")?
                        }
                        (None, Value::String(s)) => hex_bytes(s, &dpath)?,
                        (None, Value::Object(m)) => hex_object(m, &dpath, "a hex string")?,
                        (None, other) => return Err(dpath.error(wrong_type("a hex string", other))),
                    };
                    self.var_data(d, &bytes, &dpath, out)?;
                }
            }
        }
        Ok(())
    }

    /// Appends a group's dimension: its block length and entry count.
    fn dimension(
        &self,
        dim: &Composite,
        block_length: usize,
        count: usize,
        path: &Path,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let start = out.len();
        out.resize(start + dim.length, 0);
        let buf = &mut out[start..];
        // Members other than blockLength and numInGroup hold their null value.
        for m in &dim.members {
            if let Type::Prim(p) = &m.ty {
                if p.constant.is_none() && p.length == 1 {
                    if let Some(slot) = buf.get_mut(m.offset..m.offset + m.ty.size()) {
                        self.put_value(p.ptype, &p.null, slot);
                    }
                }
            }
        }
        if let Some((off, p)) = dim.prim("blockLength") {
            let v = block_length as i128;
            let (lo, hi) = representable(p.ptype);
            if v > hi || v < lo || p.ptype.is_float() {
                return Err(path.error(EncodeErrorKind::OutOfRange {
                    value: v.to_string(),
                    type_name: format!("the group's blockLength ({})", p.ptype),
                    min: lo.to_string(),
                    max: hi.to_string(),
                }));
            }
            if p.constant.is_none() {
                if let Some(slot) = buf.get_mut(off..off + p.ptype.size()) {
                    self.put_int(p.ptype, v, slot);
                }
            }
        }
        if let Some((off, p)) = dim.prim("numInGroup") {
            let (lo, hi) = representable(p.ptype);
            let min = p.min.as_ref().and_then(value_as_i128).unwrap_or(0).max(lo);
            let max = p
                .max
                .as_ref()
                .or(Some(&p.ptype.max_value()))
                .and_then(value_as_i128)
                .unwrap_or(hi)
                .min(hi);
            let n = count as i128;
            if n < min || n > max || p.ptype.is_float() || p.constant.is_some() {
                return Err(path.error(EncodeErrorKind::GroupCountOutOfRange {
                    count,
                    min: min.to_string(),
                    max: max.to_string(),
                }));
            }
            if let Some(slot) = buf.get_mut(off..off + p.ptype.size()) {
                self.put_int(p.ptype, n, slot);
            }
        }
        Ok(())
    }

    /// Appends var data: its length prefix (in its composite) and its bytes.
    fn var_data(
        &self,
        d: &VarData,
        bytes: &[u8],
        path: &Path,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let t = d.length.ptype;
        let (_, hi) = representable(t);
        let max = d
            .length
            .max
            .as_ref()
            .or(Some(&t.max_value()))
            .and_then(value_as_i128)
            .unwrap_or(hi)
            .min(hi);
        let n = bytes.len() as i128;
        if n > max {
            return Err(path.error(EncodeErrorKind::VarDataTooLong {
                length: bytes.len(),
                max: max.to_string(),
            }));
        }
        let start = out.len();
        out.resize(start + d.data_offset, 0);
        let at = start + d.length_offset;
        if let Some(slot) = out.get_mut(at..at + t.size()) {
            self.put_int(t, n, slot);
        }
        out.extend_from_slice(bytes);
        Ok(())
    }
}

fn b_len(b: &Block) -> usize {
    b.length
}

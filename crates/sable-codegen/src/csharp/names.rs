//! C# names for schema names, and C# literals, reads and writes for schema values.

use sable_ir::{ByteOrder, PrimitiveType, PrimitiveValue};

pub use sable_names::csharp::{namespace, pascal};

/// The C# type of a primitive (`char` is a byte: SBE chars are bytes).
pub fn cs_type(p: PrimitiveType) -> &'static str {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => "byte",
        PrimitiveType::Int8 => "sbyte",
        PrimitiveType::Int16 => "short",
        PrimitiveType::Int32 => "int",
        PrimitiveType::Int64 => "long",
        PrimitiveType::UInt16 => "ushort",
        PrimitiveType::UInt32 => "uint",
        PrimitiveType::UInt64 => "ulong",
        PrimitiveType::Float => "float",
        PrimitiveType::Double => "double",
    }
}

pub fn is_float(p: PrimitiveType) -> bool {
    matches!(p, PrimitiveType::Float | PrimitiveType::Double)
}

/// A C# constant expression of type `cs_type(p)` for `v`.
pub fn lit(v: &PrimitiveValue, p: PrimitiveType) -> String {
    let t = cs_type(p);
    if is_float(p) {
        let f = v.as_f64().unwrap_or(f64::NAN);
        return if f.is_nan() {
            format!("{t}.NaN")
        } else if f.is_infinite() {
            format!(
                "{t}.{}Infinity",
                if f < 0.0 { "Negative" } else { "Positive" }
            )
        } else if p == PrimitiveType::Float {
            let x = f as f32;
            if x == f32::MAX {
                "float.MaxValue".into()
            } else if x == -f32::MAX {
                "float.MinValue".into()
            } else {
                format!("{x:e}f")
            }
        } else if f == f64::MAX {
            "double.MaxValue".into()
        } else if f == -f64::MAX {
            "double.MinValue".into()
        } else {
            format!("{f:e}d")
        };
    }
    let i = match v {
        PrimitiveValue::Bytes { bytes, .. } => bytes.first().copied().map_or(0, i128::from),
        other => other.as_i128().unwrap_or(0),
    };
    int_lit(i, p)
}

/// An integer constant of the primitive's C# type (the type's MinValue and MaxValue by name).
pub fn int_lit(i: i128, p: PrimitiveType) -> String {
    let t = cs_type(p);
    let (min, max) = range(p);
    if i >= max && p != PrimitiveType::Char {
        format!("{t}.MaxValue")
    } else if i <= min && min != 0 {
        format!("{t}.MinValue")
    } else {
        let i = i.clamp(min, max);
        match p {
            PrimitiveType::UInt64 => format!("{i}UL"),
            PrimitiveType::UInt32 => format!("{i}U"),
            PrimitiveType::Int64 => format!("{i}L"),
            PrimitiveType::Int32 => i.to_string(),
            _ => format!("({t}){i}"),
        }
    }
}

/// The range of an integer primitive.
pub fn range(p: PrimitiveType) -> (i128, i128) {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => (0, u8::MAX.into()),
        PrimitiveType::Int8 => (i8::MIN.into(), i8::MAX.into()),
        PrimitiveType::Int16 => (i16::MIN.into(), i16::MAX.into()),
        PrimitiveType::Int32 => (i32::MIN.into(), i32::MAX.into()),
        PrimitiveType::Int64 => (i64::MIN.into(), i64::MAX.into()),
        PrimitiveType::UInt16 => (0, u16::MAX.into()),
        PrimitiveType::UInt32 => (0, u32::MAX.into()),
        PrimitiveType::UInt64 => (0, u64::MAX.into()),
        PrimitiveType::Float | PrimitiveType::Double => (i128::MIN, i128::MAX),
    }
}

fn endian(o: ByteOrder) -> &'static str {
    if o == ByteOrder::BigEndian {
        "BigEndian"
    } else {
        "LittleEndian"
    }
}

fn bp_name(p: PrimitiveType) -> &'static str {
    match p {
        PrimitiveType::Int16 => "Int16",
        PrimitiveType::UInt16 => "UInt16",
        PrimitiveType::Int32 | PrimitiveType::Float => "Int32",
        PrimitiveType::UInt32 => "UInt32",
        PrimitiveType::Int64 | PrimitiveType::Double => "Int64",
        _ => "UInt64",
    }
}

/// An expression reading primitive `p` from span `buf` at offset `at`.
pub fn read(buf: &str, at: &str, p: PrimitiveType, o: ByteOrder) -> String {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => format!("{buf}[{at}]"),
        PrimitiveType::Int8 => format!("(sbyte){buf}[{at}]"),
        PrimitiveType::Float => format!(
            "BitConverter.Int32BitsToSingle(BinaryPrimitives.ReadInt32{}({buf}.Slice({at})))",
            endian(o)
        ),
        PrimitiveType::Double => format!(
            "BitConverter.Int64BitsToDouble(BinaryPrimitives.ReadInt64{}({buf}.Slice({at})))",
            endian(o)
        ),
        _ => format!(
            "BinaryPrimitives.Read{}{}({buf}.Slice({at}))",
            bp_name(p),
            endian(o)
        ),
    }
}

/// A statement writing `v` (of the primitive's C# type) to span `buf` at offset `at`.
pub fn write(buf: &str, at: &str, p: PrimitiveType, o: ByteOrder, v: &str) -> String {
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => format!("{buf}[{at}] = {v};"),
        PrimitiveType::Int8 => format!("{buf}[{at}] = (byte){v};"),
        PrimitiveType::Float => format!(
            "BinaryPrimitives.WriteInt32{}({buf}.Slice({at}), BitConverter.SingleToInt32Bits({v}));",
            endian(o)
        ),
        PrimitiveType::Double => format!(
            "BinaryPrimitives.WriteInt64{}({buf}.Slice({at}), BitConverter.DoubleToInt64Bits({v}));",
            endian(o)
        ),
        _ => format!(
            "BinaryPrimitives.Write{}{}({buf}.Slice({at}), {v});",
            bp_name(p),
            endian(o)
        ),
    }
}

/// A C# string literal.
pub fn str_lit(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (' '..='~').contains(&c) => o.push(c),
            c => {
                let mut b = [0u16; 2];
                for u in c.encode_utf16(&mut b) {
                    o.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    o.push('"');
    o
}

/// The canonical JSON text of a string (docs/json.md escaping).
pub fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            '\u{8}' => o.push_str("\\b"),
            '\u{c}' => o.push_str("\\f"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A statement appending `text` to the StringBuilder `sb`.
pub fn append(text: &str) -> String {
    if text.chars().count() == 1 {
        let c = text.chars().next().unwrap_or(' ');
        let lit = match c {
            '\'' => "'\\''".to_owned(),
            '\\' => "'\\\\'".to_owned(),
            c => format!("'{c}'"),
        };
        return format!("sb.Append({lit});");
    }
    format!("sb.Append({});", str_lit(text))
}

/// An XML doc comment from a schema description (or `fallback`).
pub fn doc(desc: Option<&str>, fallback: &str) -> String {
    let text = desc
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .unwrap_or(fallback);
    let text = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.len() <= 1 {
        format!(
            "/// <summary>{}</summary>",
            lines.first().copied().unwrap_or("")
        )
    } else {
        let mut o = String::from("/// <summary>\n");
        for l in lines {
            o.push_str(&format!("/// {l}\n"));
        }
        o.push_str("/// </summary>");
        o
    }
}

/// Whether a character encoding is UTF-8 (else one byte per character).
pub fn is_utf8(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| {
        let e = e.trim().to_ascii_uppercase();
        e == "UTF-8" || e == "UTF8"
    })
}

/// A composite read and written as one unsigned word (the message header's four `uint16`s as one
/// `ulong`, a group's dimension as one `uint`): mono's JIT pays for every `Span` operation, so
/// one read of eight bytes costs a quarter of four reads of two.
pub struct Word {
    /// 4 or 8 bytes.
    pub size: usize,
    pub order: ByteOrder,
}

impl Word {
    /// The word of composite `c`: when its members on the wire are integer primitives (not
    /// arrays) of one byte order, filling its 4 or 8 bytes whole.
    pub fn of(c: &crate::model::Composite) -> Option<Word> {
        let size = usize::try_from(c.encoded_length).ok()?;
        if size != 4 && size != 8 {
            return None;
        }
        let mut order = None;
        let mut total = 0;
        for m in &c.members {
            let crate::model::TypeRef::Primitive(p) = &m.type_ref else {
                return None;
            };
            if p.is_constant() {
                continue;
            }
            if p.is_array() || is_float(p.primitive_type) {
                return None;
            }
            if *order.get_or_insert(p.byte_order) != p.byte_order {
                return None;
            }
            total += p.primitive_type.size();
        }
        (total == size).then(|| Word {
            size,
            order: order.unwrap_or(ByteOrder::LittleEndian),
        })
    }

    /// The C# type of the word.
    pub fn ty(&self) -> &'static str {
        if self.size == 8 {
            "ulong"
        } else {
            "uint"
        }
    }

    /// An expression reading the word from span `buf` at `at`.
    pub fn read(&self, buf: &str, at: &str) -> String {
        let slice = if at == "0" {
            buf.to_owned()
        } else {
            format!("{buf}.Slice({at})")
        };
        format!(
            "BinaryPrimitives.ReadUInt{}{}({slice})",
            self.size * 8,
            endian(self.order)
        )
    }

    /// A statement writing word `v` to span `buf` at `at`.
    pub fn write(&self, buf: &str, at: &str, v: &str) -> String {
        let slice = if at == "0" {
            buf.to_owned()
        } else {
            format!("{buf}.Slice({at})")
        };
        format!(
            "BinaryPrimitives.WriteUInt{}{}({slice}, {v});",
            self.size * 8,
            endian(self.order)
        )
    }

    fn shift(&self, offset: usize, p: PrimitiveType) -> usize {
        8 * if self.order == ByteOrder::BigEndian {
            self.size - offset - p.size()
        } else {
            offset
        }
    }

    /// An expression of the member of type `p` at `offset`, taken from word variable `w`.
    pub fn get(&self, w: &str, offset: usize, p: PrimitiveType) -> String {
        let s = self.shift(offset, p);
        let shifted = if s == 0 {
            w.to_owned()
        } else {
            format!("({w} >> {s})")
        };
        let unsigned = match p.size() {
            1 => "byte",
            2 => "ushort",
            4 => "uint",
            _ => "ulong",
        };
        let t = cs_type(p);
        if t == unsigned {
            format!("({t}){shifted}")
        } else {
            format!("({t})({unsigned}){shifted}")
        }
    }

    /// An expression of the word's bits holding value `v` (of type `p`) at `offset`.
    pub fn put(&self, offset: usize, p: PrimitiveType, v: &str) -> String {
        let s = self.shift(offset, p);
        let unsigned = match p.size() {
            1 => "byte",
            2 => "ushort",
            4 => "uint",
            _ => "ulong",
        };
        let t = self.ty();
        if s == 0 {
            format!("({t})({unsigned})({v})")
        } else {
            format!("(({t})({unsigned})({v}) << {s})")
        }
    }

    /// The word's bits of constant `v` (of type `p`) at `offset`.
    pub fn put_const(&self, offset: usize, p: PrimitiveType, v: i128) -> u64 {
        let bits = 8 * p.size();
        let mask: u128 = if bits >= 64 {
            u64::MAX.into()
        } else {
            (1u128 << bits) - 1
        };
        let raw = (v as u128) & mask;
        (raw << self.shift(offset, p)) as u64
    }
}

//! Go text for primitives: types, literals, reads and writes in a byte order, comments.

use sable_ir::{ByteOrder, PrimitiveType, PrimitiveValue};

/// The Go type holding every value of a primitive.
pub(super) fn gotype(p: PrimitiveType) -> &'static str {
    match p {
        PrimitiveType::Char => "byte",
        PrimitiveType::Int8 => "int8",
        PrimitiveType::Int16 => "int16",
        PrimitiveType::Int32 => "int32",
        PrimitiveType::Int64 => "int64",
        PrimitiveType::UInt8 => "uint8",
        PrimitiveType::UInt16 => "uint16",
        PrimitiveType::UInt32 => "uint32",
        PrimitiveType::UInt64 => "uint64",
        PrimitiveType::Float => "float32",
        PrimitiveType::Double => "float64",
    }
}

pub(super) fn is_float(p: PrimitiveType) -> bool {
    matches!(p, PrimitiveType::Float | PrimitiveType::Double)
}

fn endian(order: ByteOrder) -> &'static str {
    match order {
        ByteOrder::BigEndian => "binary.BigEndian",
        ByteOrder::LittleEndian => "binary.LittleEndian",
    }
}

/// The value of primitive `p` at `b[off:]`.
pub(super) fn read(b: &str, off: &str, p: PrimitiveType, order: ByteOrder) -> String {
    read_slice(b, off, &format!("{b}[{off}:]"), p, order)
}

/// The value of primitive `p` at `b[off:]` read from the slice of its size, `b[off :
/// off+size]`: where `off` is not a constant, the compiler then needs no pointer masking (a
/// slice `b[off:]` may be empty, its pointer past the end).
pub(super) fn read_sized(b: &str, off: &str, p: PrimitiveType, order: ByteOrder) -> String {
    let slice = format!("{b}[{off} : {off}+{}]", p.size());
    read_slice(b, off, &slice, p, order)
}

/// `read` with the slice that multi-byte values are read from.
fn read_slice(b: &str, off: &str, s: &str, p: PrimitiveType, order: ByteOrder) -> String {
    let e = endian(order);
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => format!("{b}[{off}]"),
        PrimitiveType::Int8 => format!("int8({b}[{off}])"),
        PrimitiveType::UInt16 => format!("{e}.Uint16({s})"),
        PrimitiveType::Int16 => format!("int16({e}.Uint16({s}))"),
        PrimitiveType::UInt32 => format!("{e}.Uint32({s})"),
        PrimitiveType::Int32 => format!("int32({e}.Uint32({s}))"),
        PrimitiveType::UInt64 => format!("{e}.Uint64({s})"),
        PrimitiveType::Int64 => format!("int64({e}.Uint64({s}))"),
        PrimitiveType::Float => format!("math.Float32frombits({e}.Uint32({s}))"),
        PrimitiveType::Double => format!("math.Float64frombits({e}.Uint64({s}))"),
    }
}

/// The statement writing `v` (of primitive `p`'s Go type) at `b[off:]`.
pub(super) fn write(b: &str, off: &str, p: PrimitiveType, order: ByteOrder, v: &str) -> String {
    let e = endian(order);
    match p {
        PrimitiveType::Char | PrimitiveType::UInt8 => format!("{b}[{off}] = {v}"),
        PrimitiveType::Int8 => format!("{b}[{off}] = byte({v})"),
        PrimitiveType::UInt16 => format!("{e}.PutUint16({b}[{off}:], {v})"),
        PrimitiveType::Int16 => format!("{e}.PutUint16({b}[{off}:], uint16({v}))"),
        PrimitiveType::UInt32 => format!("{e}.PutUint32({b}[{off}:], {v})"),
        PrimitiveType::Int32 => format!("{e}.PutUint32({b}[{off}:], uint32({v}))"),
        PrimitiveType::UInt64 => format!("{e}.PutUint64({b}[{off}:], {v})"),
        PrimitiveType::Int64 => format!("{e}.PutUint64({b}[{off}:], uint64({v}))"),
        PrimitiveType::Float => format!("{e}.PutUint32({b}[{off}:], math.Float32bits({v}))"),
        PrimitiveType::Double => format!("{e}.PutUint64({b}[{off}:], math.Float64bits({v}))"),
    }
}

/// A Go constant expression of value `v` as primitive `p` (an untyped constant that fits).
pub(super) fn lit(v: &PrimitiveValue, p: PrimitiveType) -> String {
    if is_float(p) {
        let f = v.as_f64().unwrap_or(0.0);
        let narrow = |e: String| {
            if p == PrimitiveType::Float {
                format!("float32({e})")
            } else {
                e
            }
        };
        return if f.is_nan() {
            narrow("math.NaN()".to_owned())
        } else if f.is_infinite() {
            narrow(format!("math.Inf({})", if f > 0.0 { 1 } else { -1 }))
        } else if p == PrimitiveType::Float && f == f64::from(f32::MAX) {
            "math.MaxFloat32".to_owned()
        } else if p == PrimitiveType::Float && f == -f64::from(f32::MAX) {
            "-math.MaxFloat32".to_owned()
        } else if f == f64::MAX {
            "math.MaxFloat64".to_owned()
        } else if f == -f64::MAX {
            "-math.MaxFloat64".to_owned()
        } else {
            format!("{f:?}")
        };
    }
    let i = match v {
        PrimitiveValue::Bytes { bytes, .. } => bytes.first().copied().map_or(0, i128::from),
        other => other.as_i128().unwrap_or(0),
    };
    let (min, max) = range(p);
    i.clamp(min, max).to_string()
}

/// An integer type's range.
pub(super) fn range(p: PrimitiveType) -> (i128, i128) {
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

/// A Go string literal (interpreted, every non-printable or non-ASCII byte escaped).
pub(super) fn go_str(s: &str) -> String {
    bytes_str(s.as_bytes())
}

/// A Go string literal of bytes.
pub(super) fn bytes_str(b: &[u8]) -> String {
    let mut o = String::from("\"");
    for &c in b {
        match c {
            b'"' => o.push_str("\\\""),
            b'\\' => o.push_str("\\\\"),
            0x20..=0x7e => o.push(char::from(c)),
            _ => o.push_str(&format!("\\x{c:02x}")),
        }
    }
    o.push('"');
    o
}

/// `//` comment lines of a text (whitespace collapsed, wrapped near 100 columns).
pub(super) fn comment(text: &str) -> String {
    let mut o = String::new();
    let mut line = String::from("//");
    for word in text.split_whitespace() {
        if line.len() + word.len() > 96 && line.len() > 2 {
            o.push_str(&line);
            o.push('\n');
            line = String::from("//");
        }
        line.push(' ');
        line.push_str(word);
    }
    if line.len() > 2 {
        o.push_str(&line);
        o.push('\n');
    }
    o
}

/// A doc comment for `name` (a Go identifier) from what it is and the schema's description.
pub(super) fn doc(name: &str, what: &str, description: Option<&str>) -> String {
    let desc = description
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| format!(" {d}"))
        .unwrap_or_default();
    comment(&format!("{name} {what}.{desc}"))
}

/// Whether a character encoding name means UTF-8.
pub(super) fn is_utf8(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8"))
}

/// The exported Go name of a schema name.
pub(super) fn exported(name: &str) -> String {
    sable_names::go::exported(name)
}

/// The exported name of a member's accessor: a schema name, or with `_` after it where it
/// would be one of the codecs' own methods.
pub(super) fn method(name: &str) -> String {
    sable_names::go::method(name)
}

/// The unexported (package-private) form of an exported name.
pub(super) fn private(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => {
            let rest: String = c.collect();
            let lead: String = f.to_lowercase().collect();
            format!("{lead}{rest}")
        }
        None => String::new(),
    }
}

/// A Go array literal of bytes, `[N]byte{...}`, 16 to a line.
pub(super) fn byte_array(b: &[u8]) -> String {
    let mut o = format!("[{}]byte{{", b.len());
    for (i, c) in b.iter().enumerate() {
        o.push_str(if i % 16 == 0 { "\n" } else { " " });
        o.push_str(&format!("0x{c:02x},"));
    }
    if !b.is_empty() {
        o.push('\n');
    }
    o.push('}');
    o
}

/// A method split into its fast path and its error path, so that the fast path inlines into
/// its callers: Go's inliner prices a call at 57 of its budget of 80, but a call through a
/// function parameter at 17, so the error path is passed in as a method expression.
/// `doc` documents method `name` of receiver `recv` (`e *CarEncoder`), taking `params`
/// (`(name, type)` pairs) and returning `ret`; `fast(call)` is its fast path, returning
/// `call` (`failed(e, v)`) where it fails; `failed` is the error path's body, which takes
/// the parameters too when `failed_params`.
#[allow(clippy::too_many_arguments)]
pub(super) fn split_method(
    doc: &str,
    recv: (&str, &str),
    name: &str,
    params: &[(&str, &str)],
    ret: &str,
    fast: impl FnOnce(&str) -> String,
    failed: &str,
    failed_params: bool,
) -> String {
    let (r, rt) = recv;
    let low = private(name);
    let decl = params
        .iter()
        .map(|(n, t)| format!("{n} {t}"))
        .collect::<Vec<_>>()
        .join(", ");
    let args = params
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ");
    let sep = if params.is_empty() { "" } else { ", " };
    let (types, comma_args, failed_decl) = if failed_params {
        let types: String = params.iter().map(|(_, t)| format!(", {t}")).collect();
        (types, format!("{sep}{args}"), decl.as_str())
    } else {
        (String::new(), String::new(), "")
    };
    let body = fast(&format!("failed({r}{comma_args})"));
    format!(
        "{doc}func ({r} {rt}) {name}({decl}) {ret} {{\nreturn {r}.{low}Fast({args}{sep}({rt}).{low}Failed)\n}}\n\n\
         // {low}Fast is {name} with its error path passed in (see sbe.go, \"Fast paths\").\n\
         func ({r} {rt}) {low}Fast({decl}{sep}failed func({rt}{types}) {ret}) {ret} {{\n{body}\n}}\n\n\
         // {low}Failed is {name}'s error path.\n\
         func ({r} {rt}) {low}Failed({failed_decl}) {ret} {{\n{failed}\n}}\n"
    )
}

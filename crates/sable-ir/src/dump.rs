//! A line-per-token text form of the IR, for people and for comparing IRs in tests.

use std::fmt::Write;

use crate::{Ir, Token};

/// The IR as text: a `SCHEMA` line, then one line per token (header tokens first, then each
/// message's). The format is documented in `docs/ir.md`; the interop tests print the reference's
/// IR in the same form.
pub fn dump(ir: &Ir) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "SCHEMA package={} namespace={} id={} version={} semanticVersion={} order={}",
        escape(&ir.package_name),
        escape(ir.namespace_name.as_deref().unwrap_or("")),
        ir.id,
        ir.version,
        escape(ir.semantic_version.as_deref().unwrap_or("")),
        ir.byte_order.as_str(),
    );
    for token in ir.header_tokens.iter().chain(ir.messages.iter().flatten()) {
        dump_token(token, &mut out);
    }
    out
}

fn dump_token(t: &Token, out: &mut String) {
    let e = &t.encoding;
    let opt = |v: &Option<String>| escape(v.as_deref().unwrap_or(""));
    let val = |v: &Option<crate::PrimitiveValue>| {
        escape(&v.as_ref().map(ToString::to_string).unwrap_or_default())
    };
    let _ = writeln!(
        out,
        "{} name={} ref={} id={} version={} deprecated={} length={} offset={} components={} \
         presence={} type={} order={} min={} max={} null={} const={} charset={} epoch={} \
         timeUnit={} semanticType={} description={}",
        t.signal,
        escape(&t.name),
        opt(&t.referenced_name),
        t.id,
        t.version,
        t.deprecated,
        t.encoded_length,
        t.offset,
        t.component_token_count,
        e.presence.as_str(),
        e.primitive_type.map_or("NONE", |p| type_name(p)),
        e.byte_order.as_str(),
        val(&e.min_value),
        val(&e.max_value),
        val(&e.null_value),
        val(&e.const_value),
        opt(&e.character_encoding),
        opt(&e.epoch),
        opt(&e.time_unit),
        opt(&e.semantic_type),
        opt(&t.description),
    );
}

fn type_name(p: crate::PrimitiveType) -> &'static str {
    use crate::PrimitiveType::*;
    match p {
        Char => "CHAR",
        Int8 => "INT8",
        Int16 => "INT16",
        Int32 => "INT32",
        Int64 => "INT64",
        UInt8 => "UINT8",
        UInt16 => "UINT16",
        UInt32 => "UINT32",
        UInt64 => "UINT64",
        Float => "FLOAT",
        Double => "DOUBLE",
    }
}

/// Backslash-escapes `\`, newline, carriage return and tab so each token stays on one line.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

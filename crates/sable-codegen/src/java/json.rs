//! The decoders' canonical JSON (docs/json.md): `appendTo` and `toString` of messages, and the
//! bodies of messages and group entries.

use super::fields::{Ctx, Slot};
use super::message::Level;
use sable_ir::{Presence, PrimitiveType, PrimitiveValue};

use super::syntax::{class_name, doc, is_utf8, java_type, javadoc, literal, prop, string_literal};
use super::Gen;
use crate::model::{Body, Message, TypeRef};
use crate::writer::CodeWriter;

impl Gen<'_> {
    pub(super) fn json_body(&self, w: &mut CodeWriter, body: &Body, ctx: &Ctx, level: &Level) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let mut first = true;
        for f in &body.fields {
            self.json_slot(w, &Slot::from_field(f), ctx, first);
            first = false;
        }
        let version = format!("{}actingVersion", level.owner);
        for g in &body.groups {
            let key = format!("{}\"{}\":", if first { "" } else { "," }, g.name);
            first = false;
            w.line(format!("builder.append({});", string_literal(&key)));
            let gc = format!("{}Decoder", class_name(&g.name));
            let name = prop(&g.name);
            let open_else = g.since_version > 0;
            if open_else {
                w.open_brace(format!("if ({version} < {})", g.since_version));
                w.line("builder.append(\"null\");");
                w.end("}");
                w.open_brace("else");
            }
            w.line(format!("final {gc} {name}Group = {name}();"));
            w.line("builder.append('[');");
            w.open_brace(format!("while ({name}Group.hasNext())"));
            w.line(format!("{name}Group.next().appendTo(builder);"));
            w.open_brace(format!("if ({name}Group.hasNext())"));
            w.line("builder.append(',');");
            w.end("}");
            w.end("}");
            w.line("builder.append(']');");
            if open_else {
                w.end("}");
            }
        }
        for (vi, v) in body.var_data.iter().enumerate() {
            let key = format!("{}\"{}\":", if first { "" } else { "," }, v.name);
            first = false;
            w.line(format!("builder.append({});", string_literal(&key)));
            let name = prop(&v.name);
            let open_else = v.since_version > 0;
            if open_else {
                w.open_brace(format!("if ({version} < {})", v.since_version));
                w.line("builder.append(\"null\");");
                w.end("}");
                w.open_brace("else");
            }
            let p = level.owner;
            let size = v.length_size();
            self.access_check(w, body.groups.len() + vi, true);
            w.line(format!("final {off} {name}At = {p}limit + {size};"));
            w.line(format!(
                "final int {name}Length = sbe{}Length({p}limit);",
                class_name(&v.name)
            ));
            w.line(format!("{p}limit = {name}At + {name}Length;"));
            if v.is_text() {
                w.line(format!(
                    "SbeSupport.appendJsonText(builder, {buf}, {name}At, {name}Length, {});",
                    is_utf8(v.character_encoding.as_deref())
                ));
            } else {
                w.line(format!(
                    "SbeSupport.appendJsonHex(builder, {buf}, {name}At, {name}Length);"
                ));
            }
            if open_else {
                w.end("}");
            }
        }
    }

    /// A message decoder's `appendTo` and `toString`: the canonical JSON of the whole message.
    pub(super) fn message_json(&self, w: &mut CodeWriter, m: &Message, level: &Level) {
        let buf = self.buffer.var();
        let off = self.buffer.off();
        javadoc(
            w,
            Some("Appends the message in the canonical JSON form of docs/json.md."),
            &[
                "The header is the one read by wrapAndApplyHeader, or else made of the acting block length and version.".to_owned(),
                "Reads the groups and var data from the start, so a group being iterated is reset; the position is kept.".to_owned(),
                "@param builder the destination.".to_owned(),
                "@return the builder.".to_owned(),
            ],
        );
        w.open_brace("public StringBuilder appendTo(final StringBuilder builder)");
        let h = self.schema.header_composite();
        w.line(format!("final {off} originalLimit = limit;"));
        w.line("final int originalAccessIndex = sbeAccessIndex;");
        w.line("limit = offset + actingBlockLength;");
        w.line("sbeAccessIndex = 0;");
        w.line(format!(
            "builder.append({});",
            string_literal(&format!("{{\"message\":\"{}\",\"header\":", m.name))
        ));
        w.open_brace("if (headerOffset >= 0)");
        w.line(format!(
            "headerDecoder.wrap({buf}, headerOffset).appendTo(builder);"
        ));
        w.end("}");
        w.open_brace("else");
        let mut first = true;
        for member in &h.members {
            let key = format!("{}\"{}\":", if first { "{" } else { "," }, member.name);
            first = false;
            w.line(format!("builder.append({});", string_literal(&key)));
            let v = match member.name.as_str() {
                "blockLength" => "actingBlockLength",
                "templateId" => "TEMPLATE_ID",
                "schemaId" => "SCHEMA_ID",
                "version" => "actingVersion",
                _ => "\"null\"",
            };
            w.line(format!("builder.append({v});"));
        }
        w.line("builder.append('}');");
        w.end("}");
        w.line("builder.append(\",\\\"fields\\\":{\");");
        let ctx = self.decoder_ctx(&m.body, level);
        self.json_body(w, &m.body, &ctx, level);
        w.line("builder.append(\"}}\");");
        w.line("limit = originalLimit;");
        w.line("sbeAccessIndex = originalAccessIndex;");
        w.line("return builder;");
        w.end("}");
        w.blank();
        doc(w, "The message in the canonical JSON form of docs/json.md (allocates).\n\n@return the JSON text.");
        w.line("@Override");
        w.open_brace("public String toString()");
        w.line("return appendTo(new StringBuilder()).toString();");
        w.end("}");
    }
}

impl Gen<'_> {
    /// Writes the JSON `"name":value` of a slot (with a comma first unless `first`).
    pub(super) fn json_slot(&self, w: &mut CodeWriter, s: &Slot, ctx: &Ctx, first: bool) {
        let key = format!("{}\"{}\":", if first { "" } else { "," }, s.name);
        w.line(format!("builder.append({});", string_literal(&key)));
        let b = self.buffer;
        let buf = &ctx.buf;
        let at = ctx.at(s.offset);
        // A constant takes no bytes, but is absent too when newer than the acting version.
        let absent = ctx.absent(s);
        if let Some(a) = &absent {
            w.open_brace(format!("if ({a})"));
            w.line("builder.append(\"null\");");
            w.end("}");
            w.open_brace("else");
        }
        match s.type_ref {
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                if p.is_constant() {
                    match &p.const_value {
                        Some(PrimitiveValue::Bytes { bytes, .. })
                            if bytes.len() != 1 || p.length > 1 =>
                        {
                            let text: String = bytes
                                .iter()
                                .take_while(|&&b| b != 0)
                                .map(|&b| char::from(b))
                                .collect();
                            w.line(format!(
                                "SbeSupport.appendJsonString(builder, {});",
                                string_literal(&text)
                            ));
                        }
                        Some(v) => {
                            let lit = literal(t, v);
                            self.json_scalar(w, t, &lit, None);
                        }
                        None => {
                            w.line("builder.append(\"null\");");
                        }
                    }
                } else if !p.is_array() {
                    let get = b.get(buf, t, p.byte_order, &at);
                    let var = format!("{}Value", prop(s.name));
                    let null =
                        (p.presence == Presence::Optional).then_some((&p.null_value, var.as_str()));
                    self.json_scalar(w, t, &get, null);
                } else if t == PrimitiveType::Char {
                    w.line(format!(
                        "SbeSupport.appendJsonChars(builder, {buf}, {at}, {}, {});",
                        p.length,
                        is_utf8(p.character_encoding.as_deref())
                    ));
                } else if t.size() == 1 {
                    w.line(format!(
                        "SbeSupport.appendJsonHex(builder, {buf}, {at}, {});",
                        p.length
                    ));
                } else {
                    w.line("builder.append('[');");
                    w.open_brace(format!("for (int i = 0; i < {}; i++)", p.length));
                    w.open_brace("if (i > 0)");
                    w.line("builder.append(',');");
                    w.end("}");
                    let get = b.get(buf, t, p.byte_order, &format!("{at} + i * {}", t.size()));
                    self.json_scalar(w, t, &get, None);
                    w.end("}");
                    w.line("builder.append(']');");
                }
            }
            TypeRef::Enum(e) => {
                let et = self.schema.enum_type(e);
                let ename = class_name(e);
                let t = et.encoding_type;
                if s.is_constant() {
                    match s.const_enum_value {
                        Some(v) => w.line(format!(
                            "builder.append({});",
                            string_literal(&format!("\"{v}\""))
                        )),
                        None => w.line("builder.append(\"null\");"),
                    };
                } else {
                    let get = b.get(buf, t, et.byte_order, &at);
                    w.line(format!(
                        "final {} {}Value = {get};",
                        java_type(t),
                        prop(s.name)
                    ));
                    let v = format!("{}Value", prop(s.name));
                    // Any enum's null value is `null`, required or not: the IR does not keep
                    // whether the encoding type is optional (docs/json.md).
                    w.open_brace(format!("if ({v} == {})", literal(t, &et.null_value)));
                    w.line("builder.append(\"null\");");
                    w.end("}");
                    w.open_brace("else");
                    w.line(format!("{ename}.appendJson(builder, {v});"));
                    w.end("}");
                }
            }
            TypeRef::Set(_) | TypeRef::Composite(_) => {
                w.line(format!("{}().appendTo(builder);", prop(s.name)));
            }
        }
        if absent.is_some() {
            w.end("}");
        }
    }

    /// Appends one scalar value `expr` of type `t`; `null` when it equals `null` (optional), the
    /// value then held in a local named `var`.
    fn json_scalar(
        &self,
        w: &mut CodeWriter,
        t: PrimitiveType,
        expr: &str,
        null: Option<(&PrimitiveValue, &str)>,
    ) {
        let append = |v: &str| -> String {
            match t {
                PrimitiveType::Char => format!("SbeSupport.appendJsonChar(builder, {v});"),
                PrimitiveType::UInt64 => format!("SbeSupport.appendUnsigned(builder, {v});"),
                PrimitiveType::Float => format!("SbeSupport.appendJsonFloat(builder, {v});"),
                PrimitiveType::Double => format!("SbeSupport.appendJsonDouble(builder, {v});"),
                _ => format!("builder.append({v});"),
            }
        };
        match null {
            None => {
                w.line(append(expr));
            }
            Some((n, var)) => {
                w.line(format!("final {} {var} = {expr};", java_type(t)));
                let is_null = if t.is_float() && n.as_f64().is_some_and(f64::is_nan) {
                    let boxed = if t == PrimitiveType::Float {
                        "Float"
                    } else {
                        "Double"
                    };
                    format!("{boxed}.isNaN({var})")
                } else {
                    format!("{var} == {}", literal(t, n))
                };
                w.open_brace(format!("if ({is_null})"));
                w.line("builder.append(\"null\");");
                w.end("}");
                w.open_brace("else");
                w.line(append(var));
                w.end("}");
            }
        }
    }
}

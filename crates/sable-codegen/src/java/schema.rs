//! `SbeSchemaDecoder`: the schema-level entry point (docs/codecs.md). Given a buffer holding one
//! message of the schema, it reads the header, checks the schema id, dispatches on the template
//! id to that message's decoder, and prints the message's canonical JSON or reports the
//! contract's error.

use std::collections::BTreeSet;

use super::syntax::{as_int, class_name, doc, javadoc, prop};
use super::wrap::header_get;
use super::Gen;
use crate::writer::CodeWriter;

/// The class's name (prefixed like `SbeSupport`, to keep clear of the schema's own names).
pub const SCHEMA_DECODER: &str = "SbeSchemaDecoder";

impl Gen<'_> {
    pub(super) fn schema_decoder(&self) -> String {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let rt = b.read_type();
        let s = self.schema;
        let header = format!("{}Decoder", class_name(&s.header));
        let mut w = self.file_header(&[b.read_import()]);
        javadoc(
            &mut w,
            s.description.as_deref(),
            &[format!(
                "Decodes any message of the schema (id {}, version {}): reads the header, checks the schema id, and hands the message to its decoder by the header's template id. Holds one reusable decoder per message.",
                s.id, s.version
            )],
        );
        w.open_brace(format!("public final class {SCHEMA_DECODER}"));
        doc(&mut w, "The schema's id.");
        w.line(format!("public static final int SCHEMA_ID = {};", s.id));
        doc(&mut w, "The schema's version.");
        w.line(format!(
            "public static final int SCHEMA_VERSION = {};",
            s.version
        ));
        w.blank();
        w.line(format!("private final {header} header = new {header}();"));
        let mut ids = BTreeSet::new();
        // One decoder per template id (the schema checks make ids unique; keep the first).
        let messages: Vec<_> = s.messages.iter().filter(|m| ids.insert(m.id)).collect();
        for m in &messages {
            let dc = format!("{}Decoder", class_name(&m.name));
            w.line(format!(
                "private final {dc} {} = new {dc}();",
                field_name(&m.name)
            ));
        }
        w.blank();
        javadoc(
            &mut w,
            Some("Wraps the message's decoder over the message, after checking the header (docs/codecs.md: truncated header, schemaIdMismatch, unknownTemplate, then the message decoder's own checks)."),
            &[
                format!("@param {buf} the buffer."),
                "@param offset where the message (its header) starts.".to_owned(),
                "@param length the bytes from offset that hold the message (at most).".to_owned(),
                "@return the message's decoder (one of the XxxDecoder classes), wrapped.".to_owned(),
                "@throws SbeDecodeException when the header is wrong or the root block does not fit.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public Object wrap(final {rt} {buf}, final {off} offset, final {off} length)"
        ));
        w.open_brace(format!("switch (templateId({buf}, offset, length))"));
        for m in &messages {
            w.line(format!(
                "case {}: return {}.wrapAndApplyHeader({buf}, offset, length, header);",
                m.id,
                field_name(&m.name)
            ));
        }
        w.line("default: throw unknownTemplate();");
        w.end("}");
        w.end("}");
        w.blank();
        javadoc(
            &mut w,
            Some("Decodes the message and appends its canonical JSON (docs/json.md); on an error, appends nothing."),
            &[
                format!("@param {buf} the buffer."),
                "@param offset where the message (its header) starts.".to_owned(),
                "@param length the bytes from offset that hold the message (at most).".to_owned(),
                "@param builder the destination.".to_owned(),
                "@return the builder.".to_owned(),
                "@throws SbeDecodeException at the first item that cannot be read, in reading order.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public StringBuilder appendJson(final {rt} {buf}, final {off} offset, final {off} length, final StringBuilder builder)"
        ));
        w.line("final int start = builder.length();");
        w.open_brace("try");
        w.open_brace(format!("switch (templateId({buf}, offset, length))"));
        for m in &messages {
            w.line(format!(
                "case {}: return {}.wrapAndApplyHeader({buf}, offset, length, header).appendTo(builder);",
                m.id,
                field_name(&m.name)
            ));
        }
        w.line("default: throw unknownTemplate();");
        w.end("}");
        w.end("}");
        w.open_brace("catch (final SbeDecodeException ex)");
        w.line("builder.setLength(start);");
        w.line("throw ex;");
        w.end("}");
        w.end("}");
        w.blank();
        javadoc(
            &mut w,
            Some("The message's canonical JSON (docs/json.md). Allocates."),
            &[
                format!("@param {buf} the buffer."),
                "@param offset where the message (its header) starts.".to_owned(),
                "@param length the bytes from offset that hold the message (at most).".to_owned(),
                "@return the JSON text.".to_owned(),
                "@throws SbeDecodeException at the first item that cannot be read, in reading order.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public String toJson(final {rt} {buf}, final {off} offset, final {off} length)"
        ));
        w.line(format!(
            "return appendJson({buf}, offset, length, new StringBuilder()).toString();"
        ));
        w.end("}");
        w.blank();
        self.template_id_method(&mut w, &header);
        w.end("}");
        w.finish()
    }

    /// `templateId(...)`: the header fits and names the schema; its template id.
    /// `unknownTemplate()`: the error for a template id no message has.
    fn template_id_method(&self, w: &mut CodeWriter, header: &str) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let h = self.schema.header_composite();
        let member = |name: &str| h.primitive(name).map(|(m, _)| m.offset);
        let get = |name: &str| match h.primitive(name) {
            Some((_, p)) => as_int(p.primitive_type, &header_get(p, &self.schema.header, name)),
            None => "-1".to_owned(),
        };
        w.open_brace(format!(
            "private int templateId(final {} {buf}, final {off} offset, final {off} length)",
            b.read_type()
        ));
        w.line(format!(
            "final {off} within = SbeSupport.within({buf}, offset, length);"
        ));
        w.open_brace(format!("if (within < {header}.ENCODED_LENGTH)"));
        w.line(format!(
            "throw SbeDecodeException.truncated(0, \"header\", {header}.ENCODED_LENGTH, within);"
        ));
        w.end("}");
        w.line(format!("header.{}({buf}, offset);", b.internal_wrap()));
        // A constant schemaId is not on the wire: there is nothing to check.
        let schema_id = h.primitive("schemaId").filter(|(_, p)| !p.is_constant());
        if let Some(at) = schema_id.map(|(m, _)| m.offset) {
            w.line(format!("final int schemaId = {};", get("schemaId")));
            w.open_brace("if (schemaId != SCHEMA_ID)");
            w.line(format!(
                "throw new SbeDecodeException(SbeDecodeException.Kind.SCHEMA_ID_MISMATCH, {at}, \"header.schemaId\", \"schema id \" + schemaId + \", not the schema's \" + SCHEMA_ID);"
            ));
            w.end("}");
        }
        w.line(format!("return {};", get("templateId")));
        w.end("}");
        w.blank();
        w.open_brace("private SbeDecodeException unknownTemplate()");
        let at = member("templateId").unwrap_or(0);
        let value = match member("templateId") {
            Some(_) => get("templateId"),
            None => "\"none\"".to_owned(),
        };
        w.line(format!(
            "return new SbeDecodeException(SbeDecodeException.Kind.UNKNOWN_TEMPLATE, {at}, \"header.templateId\", \"template id \" + {value} + \" names no message of the schema\");"
        ));
        w.end("}");
    }
}

/// The decoder field of message `name` (suffixed, to keep clear of `header`).
fn field_name(name: &str) -> String {
    format!("{}Decoder", prop(name))
}

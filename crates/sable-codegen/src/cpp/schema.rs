//! The schema-level entry point: decodes whichever message of the schema a buffer holds.

use super::message::header_member;
use super::names::{ident, load};
use super::Gen;
use crate::writer::CodeWriter;

impl Gen<'_> {
    /// `sbe_print_json(os, buf, len)`: checks the header (its length, then the schema id),
    /// dispatches on the template id, and prints the message's canonical JSON or the error.
    pub(crate) fn schema_entry_point(&self, w: &mut CodeWriter) {
        let s = self.schema;
        let header = s.header_composite();
        let hdr_len = header.encoded_length.max(0) as usize;
        let member = |name: &str| {
            header_member(header, name)
                .map(|(off, t)| (off, load(t, s.byte_order, &format!("sbe_p + {off}"))))
        };
        let error = |offset: usize, field: &str, kind: &str| {
            format!("{{ sable::detail::json::error(os, {offset}, \"{field}\", sable::errc::{kind}); return sable::errc::{kind}; }}")
        };
        w.line("/* Decodes whichever message of the schema buf[0..len) holds (the message header's template id says which) and prints its canonical JSON form (docs/json.md), or the error object of docs/codecs.md; returns the error, errc::ok when none. */");
        w.open("inline sable::errc sbe_print_json(std::ostream &os, const void *sbe_buf, std::size_t sbe_len) {");
        w.line("const std::uint8_t *sbe_p = static_cast<const std::uint8_t *>(sbe_buf);");
        w.line("(void)sbe_p;");
        w.line(format!(
            "if (sbe_len < {hdr_len}u) {}",
            error(0, "header", "truncated")
        ));
        if let Some((off, read)) = member("schemaId") {
            w.line(format!(
                "if (static_cast<std::uint64_t>({read}) != {}u) {}",
                s.id as u16,
                error(off, "header.schemaId", "schema_id_mismatch")
            ));
        }
        let (tid_off, tid) = member("templateId").unwrap_or((0, "0".to_owned()));
        w.line(format!("switch (static_cast<std::uint64_t>({tid})) {{"));
        let mut seen = Vec::new();
        for m in &s.messages {
            let id = m.id as u16;
            if seen.contains(&id) {
                continue;
            }
            seen.push(id);
            w.line(format!(
                "case {id}u: return {}::Decoder(sbe_buf, sbe_len).sbe_print_json(os);",
                ident(&m.name)
            ));
        }
        w.line(format!(
            "default: {}",
            error(tid_off, "header.templateId", "unknown_template")
        ));
        w.line("}");
        w.close("}");
    }
}

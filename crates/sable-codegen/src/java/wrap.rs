//! Wrapping a message decoder over a buffer: the header's checks (docs/codecs.md, "Errors": the
//! header fits, then its schema id, template id and block length) and the root block's bounds.

use sable_ir::{ByteOrder, PrimitiveType};

use super::message::standard_header;
use super::syntax::{as_int, javadoc, prop};
use super::Gen;
use crate::model::Message;
use crate::writer::CodeWriter;

impl Gen<'_> {
    /// The decoder's `wrap` (public: the header is assumed to precede the block) and the private
    /// `sbeWrap` both wraps go through, which checks that the root block fits.
    pub(super) fn decoder_wrap(&self, w: &mut CodeWriter, cls: &str, header: &str) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let rt = b.read_type();
        javadoc(
            w,
            Some("Reads a message at a position in a buffer (after its header)."),
            &[
                "Error offsets count from where the header would be, ENCODED_LENGTH bytes before offset.".to_owned(),
                format!("@param {buf} the buffer."),
                "@param offset where the root block starts.".to_owned(),
                "@param actingBlockLength the root block length the writer used (from the header)."
                    .to_owned(),
                "@param actingVersion the schema version the writer used (from the header)."
                    .to_owned(),
                "@return this.".to_owned(),
                "@throws SbeDecodeException (truncated, fields) when the root block does not fit the buffer.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public {cls} wrap(final {rt} {buf}, final {off} offset, final int actingBlockLength, final int actingVersion)"
        ));
        w.line(format!("final {off} end = {};", b.capacity(buf)));
        b.check_offset(w, "offset", "end");
        w.line(format!(
            "return sbeWrap({buf}, offset, actingBlockLength, actingVersion, end);"
        ));
        w.end("}");
        w.blank();
        w.open_brace(format!(
            "private {cls} sbeWrap(final {rt} {buf}, final {off} offset, final int actingBlockLength, final int actingVersion, final {off} end)"
        ));
        w.line(format!(
            "final {off} blockEnd = offset + actingBlockLength;"
        ));
        w.open_brace(format!("if ({})", b.ends_past("blockEnd", "end")));
        w.line(format!("throw SbeDecodeException.truncated({header}.ENCODED_LENGTH, \"fields\", actingBlockLength, end - offset);"));
        w.end("}");
        b.bind(w);
        w.line("this.offset = offset;");
        w.line("this.actingBlockLength = actingBlockLength;");
        w.line("this.actingVersion = actingVersion;");
        w.line("this.limit = blockEnd;");
        w.open_brace("if (SbeSupport.ACCESS_ORDER_CHECKS)");
        w.line("sbeAccessIndex = 0;");
        w.end("}");
        w.line("this.headerOffset = -1;");
        w.line("this.sbeEnd = end;");
        w.line("return this;");
        w.end("}");
        w.blank();
    }

    /// `wrapAndApplyHeader`, over the rest of the buffer or over `length` bytes: the header's
    /// checks in the contract's order, then `sbeWrap`.
    pub(super) fn decoder_apply_header(
        &self,
        w: &mut CodeWriter,
        m: &Message,
        cls: &str,
        header: &str,
    ) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let rt = b.read_type();
        javadoc(
            w,
            Some("Reads the message header, checks it, then reads the message after it at the header's block length and version; the message may use the rest of the buffer."),
            &[
                format!("@param {buf} the buffer."),
                "@param offset where the header starts.".to_owned(),
                "@param header the header decoder to read it with.".to_owned(),
                "@return this.".to_owned(),
                "@throws SbeDecodeException when the header or root block does not fit, or the header is not this message's.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public {cls} wrapAndApplyHeader(final {rt} {buf}, final {off} offset, final {header} header)"
        ));
        w.line(format!(
            "return wrapAndApplyHeader({buf}, offset, {} - offset, header);",
            b.capacity(buf)
        ));
        w.end("}");
        w.blank();
        javadoc(
            w,
            Some("Reads the message header, checks it, then reads the message after it at the header's block length and version; the message must lie within length bytes."),
            &[
                "The checks, in order (docs/codecs.md): the header fits (truncated, header), its schema id is SCHEMA_ID (schemaIdMismatch), its template id TEMPLATE_ID (unknownTemplate), its block length at least BLOCK_LENGTH unless its version is older (blockLengthTooShort), the root block fits (truncated, fields). Groups and var data are checked as they are read.".to_owned(),
                format!("@param {buf} the buffer."),
                "@param offset where the header starts.".to_owned(),
                "@param length the bytes from offset that hold the message (at most).".to_owned(),
                "@param header the header decoder to read it with.".to_owned(),
                "@return this.".to_owned(),
                "@throws SbeDecodeException when a check fails.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public {cls} wrapAndApplyHeader(final {rt} {buf}, final {off} offset, final {off} length, final {header} header)"
        ));
        w.line(format!(
            "final {off} within = SbeSupport.within({buf}, offset, length);"
        ));
        w.open_brace(format!("if (within < {header}.ENCODED_LENGTH)"));
        w.line(format!(
            "throw SbeDecodeException.truncated(0, \"header\", {header}.ENCODED_LENGTH, within);"
        ));
        w.end("}");
        b.bind(w);
        w.line(format!("header.{}({buf}, offset);", b.internal_wrap()));
        let checks = self.header_values(w, m);
        for c in checks {
            w.open_brace(format!("if ({})", c.failed));
            w.line(format!(
                "throw new SbeDecodeException(SbeDecodeException.Kind.{}, {}, \"header.{}\", {});",
                c.kind, c.offset, c.member, c.message
            ));
            w.end("}");
        }
        w.line(format!(
            "sbeWrap({buf}, offset + {header}.ENCODED_LENGTH, blockLength, version, offset + within);"
        ));
        w.line("this.headerOffset = offset;");
        w.line("return this;");
        w.end("}");
        w.blank();
    }

    /// Declares `schemaId`, `templateId`, `blockLength` and `version` from the header just
    /// wrapped (one 64-bit read for the standard header), and returns the checks on them.
    fn header_values(&self, w: &mut CodeWriter, m: &Message) -> Vec<HeaderCheck> {
        let b = self.buffer;
        let buf = b.var();
        let h = self.schema.header_composite();
        // A constant member is not on the wire: there is nothing to check.
        let member_offset = |name: &str| {
            h.primitive(name)
                .filter(|(_, p)| !p.is_constant())
                .map(|(member, _)| member.offset)
        };
        let values: [(&str, String); 4] = match standard_header(h) {
            Some(order) => {
                // The four uint16s of the standard header: one 64-bit read.
                w.line(format!(
                    "final long fields = {};",
                    b.get(buf, PrimitiveType::Int64, order, "offset")
                ));
                let field = |i: u32| {
                    let shift = match order {
                        ByteOrder::LittleEndian => 16 * i,
                        ByteOrder::BigEndian => 48 - 16 * i,
                    };
                    if shift == 0 {
                        "(int) fields & 0xFFFF".to_owned()
                    } else {
                        format!("(int) (fields >>> {shift}) & 0xFFFF")
                    }
                };
                [
                    ("blockLength", field(0)),
                    ("templateId", field(1)),
                    ("schemaId", field(2)),
                    ("version", field(3)),
                ]
            }
            None => {
                let get = |member: &str, fallback: &str| match h.primitive(member) {
                    Some((_, p)) => as_int(
                        p.primitive_type,
                        &header_get(p, &self.schema.header, member),
                    ),
                    None => fallback.to_owned(),
                };
                [
                    ("blockLength", get("blockLength", "BLOCK_LENGTH")),
                    ("templateId", get("templateId", "TEMPLATE_ID")),
                    ("schemaId", get("schemaId", "SCHEMA_ID")),
                    ("version", get("version", "SCHEMA_VERSION")),
                ]
            }
        };
        for (name, value) in &values {
            w.line(format!("final int {name} = {value};"));
        }
        let mut checks = Vec::new();
        if let Some(at) = member_offset("schemaId") {
            checks.push(HeaderCheck {
                failed: "schemaId != SCHEMA_ID".to_owned(),
                kind: "SCHEMA_ID_MISMATCH",
                offset: at,
                member: "schemaId",
                message: "\"schema id \" + schemaId + \", not the schema's \" + SCHEMA_ID"
                    .to_owned(),
            });
        }
        if let Some(at) = member_offset("templateId") {
            checks.push(HeaderCheck {
                failed: "templateId != TEMPLATE_ID".to_owned(),
                kind: "UNKNOWN_TEMPLATE",
                offset: at,
                member: "templateId",
                message: format!(
                    "\"template id \" + templateId + \", not {}'s \" + TEMPLATE_ID",
                    m.name
                ),
            });
        }
        if let Some(at) = member_offset("blockLength") {
            checks.push(HeaderCheck {
                failed: "blockLength < BLOCK_LENGTH && version >= SCHEMA_VERSION".to_owned(),
                kind: "BLOCK_LENGTH_TOO_SHORT",
                offset: at,
                member: "blockLength",
                message: "\"block length \" + blockLength + \" below \" + BLOCK_LENGTH + \" at version \" + version".to_owned(),
            });
        }
        checks
    }
}

/// One check of the header: the Java condition that fails it, the error's kind, the member's
/// offset in the header and name, and the message (a Java expression).
struct HeaderCheck {
    failed: String,
    kind: &'static str,
    offset: usize,
    member: &'static str,
    message: String,
}

/// Reading header member `member` (of primitive `p`) from the header decoder `header`: through
/// the class for a constant (its getter is static).
pub(super) fn header_get(p: &crate::model::Primitive, header: &str, member: &str) -> String {
    if p.is_constant() {
        format!(
            "{}Decoder.{}()",
            super::syntax::class_name(header),
            prop(member)
        )
    } else {
        format!("header.{}()", prop(member))
    }
}

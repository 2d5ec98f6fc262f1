//! Messages: the class with its constants, a decoder over const memory (its groups and var data
//! read through a shared cursor) and a fluent encoder.

use super::body::{order_check, Ctx};
use super::group::full_test;
use super::names::{ctype, doc, ident, load, store, string_literal};
use super::Gen;
use crate::model::{Body, Composite, Message, TypeRef};
use crate::writer::CodeWriter;
use sable_ir::ByteOrder;

/// The largest block any part of the body writes at once (for the encoder's scratch space).
fn max_block(gen: &Gen, body: &Body) -> usize {
    body.groups
        .iter()
        .map(|g| {
            let dim = gen.schema.composite(&g.dimension).encoded_length.max(0) as usize;
            g.block_length.max(dim).max(max_block(gen, &g.body))
        })
        .max()
        .unwrap_or(0)
}

/// How deep the body's groups nest (0 without groups).
pub(crate) fn depth(body: &Body) -> usize {
    body.groups
        .iter()
        .map(|g| 1 + depth(&g.body))
        .max()
        .unwrap_or(0)
}

/// A header member: offset and primitive type.
pub(crate) fn header_member(
    header: &Composite,
    name: &str,
) -> Option<(usize, sable_ir::PrimitiveType)> {
    header
        .primitive(name)
        .map(|(m, p)| (m.offset, p.primitive_type))
}

/// The four-byte load of the header's template and schema ids and the value it has for this
/// message, when they are two-byte members side by side as in the standard header.
fn ids_as_one(header: &Composite, order: ByteOrder) -> Option<(String, String)> {
    use sable_ir::PrimitiveType::{UInt16, UInt32};
    match (
        header_member(header, "templateId"),
        header_member(header, "schemaId"),
    ) {
        (Some((t, UInt16)), Some((s, UInt16))) if s == t + 2 => {
            // Read as one integer in the schema's byte order, the member at the lower offset
            // is the high half when big-endian.
            let (high, low) = if order == ByteOrder::BigEndian {
                ("sbe_template_id", "sbe_schema_id")
            } else {
                ("sbe_schema_id", "sbe_template_id")
            };
            Some((
                load(UInt32, order, &format!("st_.buf + {t}")),
                format!("((static_cast<std::uint32_t>({high}) << 16) | {low})"),
            ))
        }
        _ => None,
    }
}

impl Gen<'_> {
    pub(crate) fn message(&self, w: &mut CodeWriter, m: &Message) {
        let name = ident(&m.name);
        doc(w, m.description.as_deref());
        w.line(format!("/* Message {} (template {}). */", m.name, m.id));
        w.open(format!("class {name} {{"));
        w.line("public:");
        self.message_constants(w, m);
        w.blank();
        self.message_decoder(w, m);
        w.blank();
        self.message_encoder(w, m);
        w.close("};");
    }

    fn message_constants(&self, w: &mut CodeWriter, m: &Message) {
        let s = self.schema;
        let hdr_len = s.header_composite().encoded_length.max(0);
        let constants = [
            (
                "std::uint16_t",
                "sbe_template_id",
                (m.id as u16).to_string(),
            ),
            (
                "std::size_t",
                "sbe_block_length",
                m.block_length.to_string(),
            ),
            ("std::size_t", "sbe_header_length", hdr_len.to_string()),
            ("std::uint16_t", "sbe_schema_id", (s.id as u16).to_string()),
            (
                "std::uint16_t",
                "sbe_schema_version",
                (s.version as u16).to_string(),
            ),
            (
                "std::string_view",
                "sbe_name",
                string_literal(m.name.as_bytes()),
            ),
            (
                "std::string_view",
                "sbe_semantic_type",
                string_literal(m.semantic_type.as_deref().unwrap_or("").as_bytes()),
            ),
        ];
        for (ty, name, value) in constants {
            w.line(format!("static constexpr {ty} {name} = {value};"));
        }
        for f in &m.body.fields {
            let n = ident(&f.name);
            w.line(format!("static constexpr int {n}_id = {};", f.id));
            w.line(format!(
                "static constexpr int {n}_since_version = {};",
                f.since_version
            ));
            w.line(format!(
                "static constexpr std::size_t {n}_offset = {};",
                f.offset
            ));
        }
        for (n, id) in m
            .body
            .groups
            .iter()
            .map(|g| (&g.name, g.id))
            .chain(m.body.var_data.iter().map(|v| (&v.name, v.id)))
        {
            w.line(format!("static constexpr int {}_id = {id};", ident(n)));
        }
    }

    /// The message decoder: wrapping, errors, the root body and JSON printing.
    fn message_decoder(&self, w: &mut CodeWriter, m: &Message) {
        w.line("/* Reads a message from const memory. Check error() after reading. */");
        w.open("class Decoder {");
        w.line("public:");
        w.line("Decoder() noexcept = default;");
        w.line("Decoder(const void *sbe_buf, std::size_t sbe_len) noexcept { wrap(sbe_buf, sbe_len); }");
        w.line("#if __cplusplus >= 202002L");
        w.line("explicit Decoder(std::span<const std::byte> sbe_b) noexcept { wrap(sbe_b.data(), sbe_b.size()); }");
        w.line("sable::errc wrap(std::span<const std::byte> sbe_b) noexcept { return wrap(sbe_b.data(), sbe_b.size()); }");
        w.line("sable::errc wrap(std::span<const std::uint8_t> sbe_b) noexcept { return wrap(sbe_b.data(), sbe_b.size()); }");
        w.line("#endif");
        self.decoder_wrap(w);
        w.line("/* Reads a message body (no header) at buf + offset, written with the given block length and version. */");
        w.open("sable::errc wrap_body(const void *sbe_buf, std::size_t sbe_len, std::size_t sbe_offset, std::size_t sbe_wire_block_length, std::uint16_t sbe_wire_version) noexcept {");
        w.line("start(sbe_buf, sbe_len, sbe_offset, false);");
        w.line("return body(sbe_offset, sbe_wire_block_length, sbe_wire_version, sbe_offset);");
        w.close("}");
        decoder_errors(w);
        w.line("std::uint16_t acting_version() const noexcept { return st_.acting_version; }");
        w.line("std::size_t acting_block_length() const noexcept { return block_; }");
        w.line("/* Bytes from the message's start to the current read position. */");
        w.line("std::size_t position() const noexcept { return st_.pos - start_; }");
        w.line("/* The whole message's length in bytes (header included when wrapped with one), by reading past its groups and var data in a copy; 0 when it does not fit the buffer. */");
        w.open("std::size_t encoded_length() const noexcept {");
        w.line("Decoder sbe_d = *this;");
        w.line("sbe_d.rewind();");
        w.line("sbe_d.sbe_skip();");
        w.line("return sbe_d.ok() ? sbe_d.st_.pos - start_ : 0;");
        w.close("}");
        w.line("/* Moves the read position back to the end of the root block. */");
        w.open("void rewind() noexcept {");
        w.line("st_.pos = body_end_;");
        w.line("st_.err = wrap_err_;");
        order_check(w, &[begin_root(&m.body)]);
        w.close("}");
        self.decoder_body(w, &m.body, &Ctx::root());
        self.decoder_print(w, m);
        w.line("private:");
        self.decoder_internals(w, m);
        w.close("};");
    }

    /// `wrap(buf, len)`: the header's checks in the contract's order.
    fn decoder_wrap(&self, w: &mut CodeWriter) {
        let s = self.schema;
        let header = s.header_composite();
        let hdr_len = header.encoded_length.max(0) as usize;
        let order = s.byte_order;
        w.line("/* Reads the message header at buf and checks it is this message's. */");
        w.open("sable::errc wrap(const void *sbe_buf, std::size_t sbe_len) noexcept {");
        w.line("start(sbe_buf, sbe_len, 0, true);");
        w.line(format!(
            "if (SABLE_CHECKS && sbe_len < {hdr_len}u) {{ return fail_wrap(sable::errc::truncated, 0, \"header\"); }}"
        ));
        let read = |name: &str, fallback: &str| match header_member(header, name) {
            Some((off, t)) => load(t, order, &format!("st_.buf + {off}")),
            None => fallback.to_owned(),
        };
        let offset = |name: &str| header_member(header, name).map_or(0, |(off, _)| off);
        w.line(format!(
            "const std::size_t sbe_bl = static_cast<std::size_t>({});",
            read("blockLength", "sbe_block_length")
        ));
        let sid = format!(
            "static_cast<std::uint64_t>({})",
            read("schemaId", "sbe_schema_id")
        );
        // Both ids in one test on the common path (one four-byte load where it can: 2
        // instructions where the two 16-bit tests take 7); the schema id is checked first.
        let ids_differ = match ids_as_one(header, order) {
            Some((both, expected)) => format!("({both} != {expected})"),
            None => {
                w.line(format!(
                    "const std::uint64_t sbe_tid = static_cast<std::uint64_t>({});",
                    read("templateId", "sbe_template_id")
                ));
                w.line(format!("const std::uint64_t sbe_sid = {sid};"));
                "((sbe_tid ^ sbe_template_id) | (sbe_sid ^ sbe_schema_id)) != 0".to_owned()
            }
        };
        w.line(format!(
            "const std::uint16_t sbe_ver = static_cast<std::uint16_t>({});",
            read("version", "sbe_schema_version")
        ));
        w.open(format!(
            "if (SABLE_CHECKS && SABLE_UNLIKELY({ids_differ})) {{"
        ));
        w.line(format!(
            "if ({sid} != sbe_schema_id) {{ return fail_wrap(sable::errc::schema_id_mismatch, {}, \"header.schemaId\"); }}",
            offset("schemaId")
        ));
        w.line(format!(
            "return fail_wrap(sable::errc::unknown_template, {}, \"header.templateId\");",
            offset("templateId")
        ));
        w.close("}");
        w.line(format!(
            "return body({hdr_len}, sbe_bl, sbe_ver, {});",
            offset("blockLength")
        ));
        w.close("}");
    }

    /// `sbe_print_json(os)` and `operator<<`.
    fn decoder_print(&self, w: &mut CodeWriter, m: &Message) {
        let hq = self.qualified(&self.schema.header);
        w.line("/* Prints the message's canonical JSON form (docs/json.md), reading a copy of the decoder from the start; a message that does not decode prints as {\"error\":{...}} (docs/codecs.md). Returns the error, errc::ok when none. */");
        w.open("sable::errc sbe_print_json(std::ostream &os) const {");
        w.line("Decoder sbe_d = *this;");
        w.line("sbe_d.rewind();");
        w.line("sbe_d.sbe_skip();");
        w.open("if (!sbe_d.ok()) {");
        w.line("sable::detail::json::error(os, sbe_d.error_offset(), sbe_d.error_field(), sbe_d.error());");
        w.line("return sbe_d.error();");
        w.close("}");
        w.line("sbe_d.rewind();");
        w.line(format!(
            "sable::detail::json::raw(os, {});",
            string_literal(format!("{{\"message\":\"{}\"", m.name).as_bytes())
        ));
        w.open("if (has_header_) {");
        w.line("sable::detail::json::raw(os, \",\\\"header\\\":\");");
        w.line(format!("{hq}::Decoder(st_.buf + start_).sbe_json(os);"));
        w.close("}");
        w.line("sable::detail::json::raw(os, \",\\\"fields\\\":{\");");
        w.line("sbe_d.sbe_json_fields(os);");
        w.line("sable::detail::json::raw(os, \"}}\");");
        w.line("return sable::errc::ok;");
        w.close("}");
        w.line("friend std::ostream &operator<<(std::ostream &os, const Decoder &sbe_d) { sbe_d.sbe_print_json(os); return os; }");
    }

    /// The decoder's private helpers and state.
    fn decoder_internals(&self, w: &mut CodeWriter, m: &Message) {
        let bl = m.block_length;
        w.open("void start(const void *sbe_buf, std::size_t sbe_len, std::size_t sbe_start, bool sbe_header) noexcept {");
        w.line("st_ = sable::detail::dstate();");
        w.line("st_.buf = static_cast<const std::uint8_t *>(sbe_buf);");
        w.line("st_.len = sbe_len;");
        w.line("start_ = sbe_start;");
        w.line("has_header_ = sbe_header;");
        w.line("wrap_field_ = nullptr;");
        w.close("}");
        w.open("sable::errc fail_wrap(sable::errc sbe_e, std::size_t sbe_at, const char *sbe_field) noexcept {");
        w.line("st_.fail(sbe_e, start_ + sbe_at);");
        w.line("wrap_field_ = sbe_field;");
        w.line("st_.pos = st_.len;");
        w.line("base_ = sable::detail::zeros;");
        w.line("block_ = 0;");
        w.line("full_ = false;");
        w.line("body_end_ = st_.len;");
        w.line("wrap_err_ = st_.err;");
        w.line("return sbe_e;");
        w.close("}");
        w.line("/* The root block at offset, of bl bytes on the wire (the header's blockLength is at bl_at). */");
        w.open("sable::errc body(std::size_t sbe_offset, std::size_t sbe_bl, std::uint16_t sbe_ver, std::size_t sbe_bl_at) noexcept {");
        w.line("(void)sbe_bl_at;");
        w.line("st_.acting_version = sbe_ver;");
        w.line(full_test("sbe_bl", bl));
        if bl > 0 {
            // Tested only for a block shorter than the schema's: one test on the common path.
            w.line(
                "if (SABLE_CHECKS && SABLE_UNLIKELY(!full_) && sbe_ver >= sbe_schema_version) { return fail_wrap(sable::errc::block_length_too_short, sbe_bl_at - start_, \"header.blockLength\"); }",
            );
        }
        w.line("if (SABLE_CHECKS && (sbe_offset > st_.len || sbe_bl > st_.len - sbe_offset)) { return fail_wrap(sable::errc::truncated, sbe_offset - start_, \"fields\"); }");
        w.line("base_ = st_.buf + sbe_offset;");
        w.line("block_ = sbe_bl;");
        w.line("st_.pos = sbe_offset + sbe_bl;");
        w.line("body_end_ = st_.pos;");
        w.line("wrap_err_ = sable::errc::ok;");
        order_check(w, &[begin_root(&m.body)]);
        w.line("return sable::errc::ok;");
        w.close("}");
        for line in [
            "sable::detail::dstate st_;",
            "const std::uint8_t *base_ = sable::detail::zeros;",
            "std::size_t block_ = 0;",
            "bool full_ = false;",
            "std::size_t start_ = 0;",
            "std::size_t body_end_ = 0;",
            "sable::errc wrap_err_ = sable::errc::ok;",
            "const char *wrap_field_ = nullptr;",
            "bool has_header_ = false;",
        ] {
            w.line(line);
        }
    }

    fn message_encoder(&self, w: &mut CodeWriter, m: &Message) {
        let header = self.schema.header_composite();
        let hdr_len = header.encoded_length.max(0) as usize;
        let bl = m.block_length;
        let scratch = (hdr_len + bl).max(max_block(self, &m.body)).max(1);
        w.line("/* Writes a message (fluent setters). Check error() when done. */");
        w.open("class Encoder {");
        w.line("public:");
        w.line("Encoder() noexcept { reset_scratch(); }");
        w.line("Encoder(void *sbe_buf, std::size_t sbe_cap) noexcept { wrap(sbe_buf, sbe_cap); }");
        w.line("Encoder(const Encoder &) = delete;");
        w.line("Encoder &operator=(const Encoder &) = delete;");
        w.line("#if __cplusplus >= 202002L");
        w.line("explicit Encoder(std::span<std::byte> sbe_b) noexcept { wrap(sbe_b.data(), sbe_b.size()); }");
        w.line("sable::errc wrap(std::span<std::byte> sbe_b) noexcept { return wrap(sbe_b.data(), sbe_b.size()); }");
        w.line("sable::errc wrap(std::span<std::uint8_t> sbe_b) noexcept { return wrap(sbe_b.data(), sbe_b.size()); }");
        w.line("#endif");
        w.line("/* Writes the message header at buf, then the root block's fields through the setters. */");
        w.open("sable::errc wrap(void *sbe_buf, std::size_t sbe_cap) noexcept {");
        w.line("start(sbe_buf, sbe_cap);");
        w.line(format!(
            "std::uint8_t *sbe_h = st_.reserve_message({}, {hdr_len});",
            hdr_len + bl
        ));
        self.write_header(w, header, bl);
        w.line(format!("base_ = sbe_h + {hdr_len};"));
        w.line("return st_.err;");
        w.close("}");
        w.line("/* Writes the root block at buf without a header. */");
        w.open("sable::errc wrap_body(void *sbe_buf, std::size_t sbe_cap) noexcept {");
        w.line("start(sbe_buf, sbe_cap);");
        w.line(format!("base_ = st_.reserve({bl}, \"fields\");"));
        w.line("return st_.err;");
        w.close("}");
        w.line("/* The first error met (errc::ok when none), and the path of the field it concerns (\"fields.fuelFigures[1].usageDescription\"). With the access-order checks, a message not written to its end (a group, var data or entry left unwritten) is errc::access_order too. */");
        w.open("sable::errc error() const noexcept {");
        order_check(
            w,
            &["if (st_.err == sable::errc::ok && !st_.ao.complete()) { return sable::errc::access_order; }".to_owned()],
        );
        w.line("return st_.err;");
        w.close("}");
        w.line("bool ok() const noexcept { return error() == sable::errc::ok; }");
        w.open("std::string error_field() const {");
        order_check(
            w,
            &[
                "if (st_.err == sable::errc::access_order) { return st_.ao.expected(); }"
                    .to_owned(),
                "if (st_.err == sable::errc::ok && !st_.ao.complete()) { return st_.ao.missing(); }"
                    .to_owned(),
            ],
        );
        w.line("return sable::detail::fill_path(st_.err_field, st_.err_path);");
        w.close("}");
        w.line("/* Bytes written so far: the message's length once complete. */");
        w.line("std::size_t encoded_length() const noexcept { return st_.pos; }");
        self.encoder_body(w, &m.body, &Ctx::root(), "Encoder");
        w.line("private:");
        w.open("void start(void *sbe_buf, std::size_t sbe_cap) noexcept {");
        w.line("st_ = sbe_estate();");
        w.line("st_.buf = static_cast<std::uint8_t *>(sbe_buf);");
        w.line("st_.cap = sbe_cap;");
        order_check(w, &[begin_root(&m.body)]);
        w.line("reset_scratch();");
        w.close("}");
        w.line(format!("void reset_scratch() noexcept {{ st_.scratch = sable::detail::sink<{scratch}>; base_ = st_.scratch; }}"));
        w.line("sbe_estate st_;");
        w.line("std::uint8_t *base_ = nullptr;");
        w.close("};");
    }

    /// Stores of the header's members (at `sbe_h`) for a message of block length `bl`.
    fn write_header(&self, w: &mut CodeWriter, header: &Composite, bl: usize) {
        for mem in &header.members {
            if let TypeRef::Primitive(p) = &mem.type_ref {
                if p.is_constant() || p.is_array() {
                    continue;
                }
                let t = p.primitive_type;
                let v = match mem.name.as_str() {
                    "blockLength" => bl.to_string(),
                    "templateId" => "sbe_template_id".to_owned(),
                    "schemaId" => "sbe_schema_id".to_owned(),
                    "version" => "sbe_schema_version".to_owned(),
                    _ => "0".to_owned(),
                };
                w.line(format!(
                    "{};",
                    store(
                        t,
                        p.byte_order,
                        &format!("sbe_h + {}", mem.offset),
                        &format!("static_cast<{}>({v})", ctype(t))
                    )
                ));
            }
        }
    }
}

/// The decoder's error accessors.
fn decoder_errors(w: &mut CodeWriter) {
    w.line("/* The first error met, errc::ok when none (docs/codecs.md, \"Errors\"). */");
    w.line("sable::errc error() const noexcept { return st_.err; }");
    w.line("bool ok() const noexcept { return st_.err == sable::errc::ok; }");
    w.line("/* Where the item that failed starts, in bytes from the message's first byte. */");
    w.line("std::size_t error_offset() const noexcept { return ok() ? 0 : st_.err_at - start_; }");
    w.line("/* The field path of the item that failed (\"fields.fuelFigures[1]\"), found by reading a copy from the start again; empty when none did. */");
    w.open("std::string error_field() const {");
    w.line("if (ok()) { return std::string(); }");
    order_check(
        w,
        &["if (st_.err == sable::errc::access_order) { return st_.ao.expected(); }".to_owned()],
    );
    w.line("if (wrap_field_ != nullptr) { return wrap_field_; }");
    w.line("Decoder sbe_d = *this;");
    w.line("sbe_d.rewind();");
    w.line("std::string sbe_path = \"fields\";");
    w.line("sbe_d.sbe_error_path(sbe_path);");
    w.line("return sbe_path;");
    w.close("}");
}

/// The access-order checks' start of a message: its root body's groups and var data.
fn begin_root(body: &Body) -> String {
    format!(
        "st_.ao.begin_root(sbe_items, {});",
        body.groups.len() + body.var_data.len()
    )
}

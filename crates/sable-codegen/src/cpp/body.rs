//! Messages and repeating groups: decoders (over const memory, with a shared cursor for groups
//! and var data) and fluent encoders.

use sable_ir::PrimitiveType;

use super::names::{self, ctype, ident, load, store, string_literal};
use super::types::Slot;
use super::Gen;
use crate::model::{Body, Composite, Group, Message, TypeRef};
use crate::naming::upper_first;
use crate::writer::CodeWriter;

/// Where the generated code of a body finds its state.
struct Ctx<'a> {
    /// The decoder or encoder state, as an lvalue (`st_` or `(*s_)`).
    state: &'a str,
    /// A pointer to it (`&st_` or `s_`).
    state_ptr: &'a str,
}

const ROOT: Ctx = Ctx {
    state: "st_",
    state_ptr: "&st_",
};
const GROUP: Ctx = Ctx {
    state: "(*s_)",
    state_ptr: "s_",
};

/// The class name of a group (with `Group` appended when it would equal its accessor's name).
fn group_class(g: &Group) -> String {
    let n = upper_first(&ident(&g.name));
    if n == ident(&g.name) {
        format!("{n}Group")
    } else {
        n
    }
}

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

/// A dimension or header member: offset and primitive type.
fn member_of(c: &Composite, name: &str) -> Option<(usize, PrimitiveType)> {
    c.primitive(name).map(|(m, p)| (m.offset, p.primitive_type))
}

/// Sets `full_`: whether a block of `wire` bytes holds every field of a `schema`-byte block (an
/// unsigned `>= 0` would draw -Wtype-limits).
fn full_test(wire: &str, schema: usize) -> String {
    if schema == 0 {
        "full_ = true;".to_owned()
    } else {
        format!("full_ = {wire} >= {schema}u;")
    }
}

impl Gen<'_> {
    fn order(&self) -> sable_ir::ByteOrder {
        self.schema.byte_order
    }

    /// Presence functions, getters, groups and var data of a decoder body.
    fn decoder_body(&self, w: &mut CodeWriter, body: &Body, ctx: &Ctx) {
        for f in &body.fields {
            let s = Slot::from_field(f);
            let name = s.id();
            let mut conds = Vec::new();
            if !s.constant && f.end() > 0 {
                // `full_` (the block on the wire is at least the schema's) is one test the
                // compiler shares between getters; the block-length test is for older writers.
                conds.push(format!(
                    "(!SABLE_CHECKS || SABLE_LIKELY(full_) || block_ >= {}u)",
                    f.end()
                ));
            }
            if f.since_version > 0 {
                conds.push(format!(
                    "{}.acting_version >= {}",
                    ctx.state, f.since_version
                ));
            }
            let cond = if conds.is_empty() {
                "true".to_owned()
            } else {
                conds.join(" && ")
            };
            w.line(format!(
                "bool {name}_present() const noexcept {{ return {cond}; }}"
            ));
            let present = format!("{name}_present()");
            self.decoder_accessors(w, &s, "base_", (!s.constant).then_some(present.as_str()));
        }
        for g in &body.groups {
            self.group_decoder(w, g);
            let cls = group_class(g);
            let name = ident(&g.name);
            let present = if g.since_version > 0 {
                format!("{}.acting_version >= {}", ctx.state, g.since_version)
            } else {
                "true".to_owned()
            };
            w.line(format!(
                "bool {name}_present() const noexcept {{ return {present}; }}"
            ));
            w.line(
                "/* The group's entries: read them (range-for or next()) before what follows. */",
            );
            w.line(format!(
                "{cls} {name}() noexcept {{ return {cls}({}, {name}_present()); }}",
                ctx.state_ptr
            ));
        }
        for v in &body.var_data {
            let name = ident(&v.name);
            let present = if v.since_version > 0 {
                format!("{}.acting_version >= {}", ctx.state, v.since_version)
            } else {
                "true".to_owned()
            };
            let lt = ctype(v.length.primitive_type);
            let be = names::is_big(v.length.byte_order);
            w.line(format!(
                "bool {name}_present() const noexcept {{ return {present}; }}"
            ));
            w.line(format!(
                "sable::bytes_view {name}_bytes() noexcept {{ if (!{name}_present()) {{ return sable::bytes_view(); }} return sable::detail::read_var<{lt}, {be}>({}); }}",
                ctx.state
            ));
            if v.is_text() {
                w.line(format!(
                    "std::string_view {name}() noexcept {{ return {name}_bytes().as_chars(); }}"
                ));
            } else {
                w.line(format!(
                    "sable::bytes_view {name}() noexcept {{ return {name}_bytes(); }}"
                ));
            }
        }
        // Skipping what follows the block.
        w.line("/* Reads past the groups and var data (the position moves to the end). */");
        w.open("void sbe_skip() noexcept {");
        for g in &body.groups {
            w.open("{");
            w.line(format!("auto sbe_g = {}();", ident(&g.name)));
            w.line("while (sbe_g.next()) { sbe_g.sbe_skip(); }");
            w.close("}");
        }
        for v in &body.var_data {
            w.line(format!("(void){}_bytes();", ident(&v.name)));
        }
        w.close("}");
        // JSON
        w.open("void sbe_json_fields(std::ostream &os) {");
        w.line("(void)os;");
        let mut first = true;
        let mut key = |name: &str| {
            let k = format!("{}\"{}\":", if first { "" } else { "," }, name);
            first = false;
            format!(
                "sable::detail::json::raw(os, {});",
                string_literal(k.as_bytes())
            )
        };
        for f in &body.fields {
            let s = Slot::from_field(f);
            w.line(key(&f.name));
            w.line(format!(
                "if (!{}_present()) {{ sable::detail::json::raw(os, \"null\"); }} else {{",
                s.id()
            ));
            w.indent();
            self.json_slot(w, &s, "base_");
            w.close("}");
        }
        for g in &body.groups {
            let name = ident(&g.name);
            w.line(key(&g.name));
            w.line(format!(
                "if (!{name}_present()) {{ sable::detail::json::raw(os, \"null\"); }} else {{"
            ));
            w.indent();
            w.line(format!("auto sbe_g = {name}();"));
            w.line("os.put('[');");
            w.line("bool sbe_first = true;");
            w.open("while (sbe_g.next()) {");
            w.line("if (!sbe_first) { os.put(','); }");
            w.line("sbe_first = false;");
            w.line("os.put('{');");
            w.line("sbe_g.sbe_json_fields(os);");
            w.line("os.put('}');");
            w.close("}");
            w.line("os.put(']');");
            w.close("}");
        }
        for v in &body.var_data {
            let name = ident(&v.name);
            w.line(key(&v.name));
            w.line(format!(
                "if (!{name}_present()) {{ sable::detail::json::raw(os, \"null\"); }} else {{"
            ));
            w.indent();
            w.line(format!("const sable::bytes_view sbe_d = {name}_bytes();"));
            if v.is_text() {
                w.line(format!(
                    "sable::detail::json::var_text(os, sbe_d.data(), sbe_d.size(), {});",
                    names::is_utf8(v.character_encoding.as_deref())
                ));
            } else {
                w.line("sable::detail::json::hex_string(os, sbe_d.data(), sbe_d.size());");
            }
            w.close("}");
        }
        w.close("}");
    }

    /// Setters, groups and var data of an encoder body returning `self_ty &`.
    fn encoder_body(&self, w: &mut CodeWriter, body: &Body, ctx: &Ctx, self_ty: &str) {
        for f in &body.fields {
            let s = Slot::from_field(f);
            self.encoder_accessors(w, &s, "base_", self_ty);
        }
        for g in &body.groups {
            self.group_encoder(w, g);
            let cls = group_class(g);
            let name = ident(&g.name);
            w.line(
                "/* Writes the group's header for COUNT entries; then next() before each entry. */",
            );
            w.line(format!(
                "{cls} {name}(std::uint64_t sbe_count) noexcept {{ return {cls}({}, sbe_count); }}",
                ctx.state_ptr
            ));
        }
        for v in &body.var_data {
            let name = ident(&v.name);
            let lt = ctype(v.length.primitive_type);
            let be = names::is_big(v.length.byte_order);
            let max = v
                .length
                .max_value
                .as_i128()
                .unwrap_or(0)
                .clamp(0, u32::MAX as i128);
            w.line(format!(
                "{self_ty} &{name}(const void *sbe_p, std::size_t sbe_n) noexcept {{ sable::detail::write_var<{lt}, {be}>({}, sbe_p, sbe_n, {max}u); return *this; }}",
                ctx.state
            ));
            w.line(format!(
                "{self_ty} &{name}(std::string_view sbe_v) noexcept {{ return {name}(sbe_v.data(), sbe_v.size()); }}"
            ));
            w.line(format!(
                "{self_ty} &{name}(sable::bytes_view sbe_v) noexcept {{ return {name}(sbe_v.data(), sbe_v.size()); }}"
            ));
        }
    }

    fn dimension(
        &self,
        g: &Group,
    ) -> (
        &Composite,
        usize,
        (usize, PrimitiveType),
        (usize, PrimitiveType),
    ) {
        let dim = self.schema.composite(&g.dimension);
        let len = dim.encoded_length.max(0) as usize;
        let bl = member_of(dim, "blockLength").unwrap_or((0, PrimitiveType::UInt16));
        let num = member_of(dim, "numInGroup").unwrap_or((2, PrimitiveType::UInt16));
        (dim, len, bl, num)
    }

    fn group_decoder(&self, w: &mut CodeWriter, g: &Group) {
        let cls = group_class(g);
        let (_, dim_len, (bl_off, bl_t), (num_off, num_t)) = self.dimension(g);
        // Entries of fixed size whose total (count times block length, both of at most 32 bits)
        // cannot overflow: one bounds test serves them all.
        let flat = g.body.groups.is_empty()
            && g.body.var_data.is_empty()
            && bl_t.size() <= 4
            && num_t.size() <= 4;
        let order = self.order();
        w.line(format!("/* The {} group: an entry at a time. */", g.name));
        w.open(format!("class {cls} {{"));
        w.line("public:");
        w.line(format!(
            "static constexpr std::size_t sbe_block_length = {};",
            g.block_length
        ));
        w.line(format!(
            "static constexpr std::size_t sbe_header_length = {dim_len};"
        ));
        w.line(format!("static constexpr int sbe_id = {};", g.id));
        w.open(format!(
            "{cls}(sable::detail::dstate *sbe_s, bool sbe_present) noexcept : s_(sbe_s) {{"
        ));
        w.line("if (!sbe_present) { return; }");
        w.line(format!(
            "if (SABLE_UNLIKELY(!s_->fits({dim_len}))) {{ s_->fail(sable::errc::short_buffer); s_->pos = s_->len; return; }}"
        ));
        w.line("const std::uint8_t *sbe_h = s_->buf + s_->pos;");
        w.line(format!(
            "entry_block_ = static_cast<std::size_t>({});",
            load(bl_t, order, &format!("sbe_h + {bl_off}"))
        ));
        w.line(format!(
            "count_ = static_cast<std::uint64_t>({});",
            load(num_t, order, &format!("sbe_h + {num_off}"))
        ));
        w.line(format!("s_->pos += {dim_len};"));
        if flat {
            // When every entry fits, the decoder's position moves past the whole group at once
            // (nothing later waits for the entries to be read); otherwise entry by entry, so
            // that the entries that are there are read.
            w.line("cur_ = s_->pos;");
            w.line("all_fit_ = !SABLE_CHECKS || count_ * entry_block_ <= s_->len - s_->pos;");
            // The wire's block length is most often the schema's: a constant stride makes the
            // total (on the path to everything after the group) cheaper to compute.
            w.line("if (SABLE_LIKELY(all_fit_)) { s_->pos += SABLE_LIKELY(entry_block_ == sbe_block_length) ? static_cast<std::size_t>(count_) * sbe_block_length : static_cast<std::size_t>(count_) * entry_block_; }");
        }
        w.close("}");
        w.line("/* Entries on the wire. */");
        w.line("std::uint64_t count() const noexcept { return count_; }");
        w.line("/* Entries read so far. */");
        w.line("std::uint64_t index() const noexcept { return index_; }");
        w.line("/* The entry's block length on the wire. */");
        w.line("std::size_t acting_block_length() const noexcept { return block_; }");
        w.line("/* Moves to the next entry; false at the end or when it does not fit the buffer (the decoder's error() says which). */");
        w.open("bool next() noexcept {");
        w.line("if (index_ >= count_) { return false; }");
        let missing = "s_->fail(sable::errc::short_buffer); s_->pos = s_->len; count_ = index_; base_ = sable::detail::zeros; block_ = 0; full_ = false; return false;";
        if flat {
            w.open("if (SABLE_UNLIKELY(!all_fit_)) {");
            w.line(format!("if (!s_->fits(entry_block_)) {{ {missing} }}"));
            w.line("s_->pos += entry_block_;");
            w.close("}");
            w.line("base_ = s_->buf + cur_;");
            w.line("cur_ += entry_block_;");
        } else {
            w.line(format!(
                "if (SABLE_UNLIKELY(!s_->fits(entry_block_))) {{ {missing} }}"
            ));
            w.line("base_ = s_->buf + s_->pos;");
            w.line("s_->pos += entry_block_;");
        }
        w.line("block_ = entry_block_;");
        w.line(full_test("entry_block_", g.block_length));
        w.line("++index_;");
        w.line("return true;");
        w.close("}");
        w.open("class iterator {");
        w.line("public:");
        w.line(format!(
            "iterator({cls} *sbe_g, bool sbe_valid) noexcept : g_(sbe_g), valid_(sbe_valid) {{}}"
        ));
        w.line(format!(
            "{cls} &operator*() const noexcept {{ return *g_; }}"
        ));
        w.line("iterator &operator++() noexcept { valid_ = g_->next(); return *this; }");
        w.line("bool operator!=(const iterator &sbe_o) const noexcept { return valid_ != sbe_o.valid_; }");
        w.line("bool operator==(const iterator &sbe_o) const noexcept { return valid_ == sbe_o.valid_; }");
        w.line("private:");
        w.line(format!("{cls} *g_;"));
        w.line("bool valid_;");
        w.close("};");
        w.line("iterator begin() noexcept { return iterator(this, next()); }");
        w.line("iterator end() noexcept { return iterator(this, false); }");
        self.decoder_body(w, &g.body, &GROUP);
        w.line("private:");
        w.line("sable::detail::dstate *s_;");
        w.line("const std::uint8_t *base_ = sable::detail::zeros;");
        w.line("std::size_t block_ = 0;");
        w.line("bool full_ = false;");
        if flat {
            w.line("bool all_fit_ = false;");
            w.line("std::size_t cur_ = 0;");
        }
        w.line("std::size_t entry_block_ = 0;");
        w.line("std::uint64_t count_ = 0;");
        w.line("std::uint64_t index_ = 0;");
        w.close("};");
    }

    fn group_encoder(&self, w: &mut CodeWriter, g: &Group) {
        let cls = group_class(g);
        let (dim, dim_len, (bl_off, bl_t), (num_off, _)) = self.dimension(g);
        let max = dim
            .primitive("numInGroup")
            .and_then(|(_, p)| p.max_value.as_i128())
            .unwrap_or(65534)
            .clamp(0, u32::MAX as i128);
        // Entries of fixed size: room for all of them is taken at once when there is enough
        // (count at most 2^32 - 1, so the total cannot overflow).
        let flat = g.body.groups.is_empty() && g.body.var_data.is_empty();
        w.line(format!(
            "/* The {} group: next() before each entry. */",
            g.name
        ));
        w.open(format!("class {cls} {{"));
        w.line("public:");
        w.line(format!(
            "static constexpr std::size_t sbe_block_length = {};",
            g.block_length
        ));
        w.line(format!(
            "static constexpr std::uint64_t sbe_max_count = {max}u;"
        ));
        w.open(format!(
            "{cls}(sable::detail::estate *sbe_s, std::uint64_t sbe_count) noexcept : s_(sbe_s) {{"
        ));
        w.line("if (SABLE_CHECKS && sbe_count > sbe_max_count) { s_->fail(sable::errc::value_out_of_range); sbe_count = 0; }");
        w.line(format!("std::uint8_t *sbe_h = s_->reserve({dim_len});"));
        for m in &dim.members {
            if let TypeRef::Primitive(p) = &m.type_ref {
                if p.is_constant() || p.is_array() {
                    continue;
                }
                let t = p.primitive_type;
                let value = if m.offset == bl_off && t == bl_t && m.name == "blockLength" {
                    format!("static_cast<{}>({})", ctype(t), g.block_length)
                } else if m.offset == num_off && m.name == "numInGroup" {
                    format!("static_cast<{}>(sbe_count)", ctype(t))
                } else {
                    format!("static_cast<{}>(0)", ctype(t))
                };
                w.line(format!(
                    "{};",
                    store(t, p.byte_order, &format!("sbe_h + {}", m.offset), &value)
                ));
            }
        }
        w.line("count_ = sbe_count;");
        if flat {
            w.line(format!(
                "all_fit_ = !SABLE_CHECKS || s_->fits(static_cast<std::size_t>(sbe_count) * {});",
                g.block_length
            ));
            w.line(format!(
                "if (SABLE_LIKELY(all_fit_)) {{ cur_ = s_->buf + s_->pos; s_->pos += static_cast<std::size_t>(sbe_count) * {}; }}",
                g.block_length
            ));
        }
        w.close("}");
        w.line("std::uint64_t count() const noexcept { return count_; }");
        w.line("/* Starts the next entry (an error past the count). */");
        w.open(format!("{cls} &next() noexcept {{"));
        w.line("if (SABLE_CHECKS && index_ >= count_) { s_->fail(sable::errc::value_out_of_range); base_ = s_->scratch; return *this; }");
        if flat {
            w.line(format!(
                "if (SABLE_LIKELY(all_fit_)) {{ base_ = cur_; cur_ += {bl}; }} else {{ base_ = s_->reserve({bl}); }}",
                bl = g.block_length
            ));
        } else {
            w.line(format!("base_ = s_->reserve({});", g.block_length));
        }
        w.line("++index_;");
        w.line("return *this;");
        w.close("}");
        self.encoder_body(w, &g.body, &GROUP, &cls);
        w.line("private:");
        w.line("sable::detail::estate *s_;");
        w.line("std::uint8_t *base_ = s_->scratch;");
        w.line("std::uint64_t count_ = 0;");
        w.line("std::uint64_t index_ = 0;");
        if flat {
            w.line("bool all_fit_ = false;");
            w.line("std::uint8_t *cur_ = nullptr;");
        }
        w.close("};");
    }

    pub(crate) fn message(&self, w: &mut CodeWriter, m: &Message) {
        let name = ident(&m.name);
        let s = self.schema;
        let header = s.header_composite();
        let hq = self.qualified(&s.header);
        let hdr_len = header.encoded_length.max(0) as usize;
        let order = self.order();
        let bl = m.block_length;
        w.line(format!("/* Message {} (template {}). */", m.name, m.id));
        w.open(format!("class {name} {{"));
        w.line("public:");
        w.line(format!(
            "static constexpr std::uint16_t sbe_template_id = {};",
            m.id as u16
        ));
        w.line(format!(
            "static constexpr std::size_t sbe_block_length = {bl};"
        ));
        w.line(format!(
            "static constexpr std::size_t sbe_header_length = {hdr_len};"
        ));
        w.line(format!(
            "static constexpr std::uint16_t sbe_schema_id = {};",
            s.id as u16
        ));
        w.line(format!(
            "static constexpr std::uint16_t sbe_schema_version = {};",
            s.version as u16
        ));
        w.line(format!(
            "static constexpr std::string_view sbe_name = {};",
            string_literal(m.name.as_bytes())
        ));
        w.line(format!(
            "static constexpr std::string_view sbe_semantic_type = {};",
            string_literal(m.semantic_type.as_deref().unwrap_or("").as_bytes())
        ));
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
        for g in &m.body.groups {
            w.line(format!(
                "static constexpr int {}_id = {};",
                ident(&g.name),
                g.id
            ));
        }
        for v in &m.body.var_data {
            w.line(format!(
                "static constexpr int {}_id = {};",
                ident(&v.name),
                v.id
            ));
        }
        w.blank();
        self.message_decoder(w, m, header, &hq, hdr_len, order);
        w.blank();
        self.message_encoder(w, m, header, hdr_len);
        w.close("};");
    }

    fn message_decoder(
        &self,
        w: &mut CodeWriter,
        m: &Message,
        header: &Composite,
        hq: &str,
        hdr_len: usize,
        order: sable_ir::ByteOrder,
    ) {
        let bl = m.block_length;
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
        w.line("/* Reads the message header at buf and checks it is this message's. */");
        w.open("sable::errc wrap(const void *sbe_buf, std::size_t sbe_len) noexcept {");
        w.line("start(sbe_buf, sbe_len, 0, true);");
        w.line(format!(
            "if (SABLE_CHECKS && sbe_len < {hdr_len}u) {{ return fail_wrap(sable::errc::short_buffer); }}"
        ));
        let read = |name: &str, fallback: &str| match member_of(header, name) {
            Some((off, t)) => load(t, order, &format!("st_.buf + {off}")),
            None => fallback.to_owned(),
        };
        w.line(format!(
            "const std::size_t sbe_bl = static_cast<std::size_t>({});",
            read("blockLength", &bl.to_string())
        ));
        w.line(format!(
            "const std::uint64_t sbe_tid = static_cast<std::uint64_t>({});",
            read("templateId", "sbe_template_id")
        ));
        w.line(format!(
            "const std::uint64_t sbe_sid = static_cast<std::uint64_t>({});",
            read("schemaId", "sbe_schema_id")
        ));
        w.line(format!(
            "const std::uint16_t sbe_ver = static_cast<std::uint16_t>({});",
            read("version", "sbe_schema_version")
        ));
        // Both ids in one test on the common path.
        w.line("if (SABLE_CHECKS && SABLE_UNLIKELY(((sbe_tid ^ sbe_template_id) | (sbe_sid ^ sbe_schema_id)) != 0)) { return fail_wrap(sbe_tid != sbe_template_id ? sable::errc::wrong_template : sable::errc::wrong_schema); }");
        w.line(format!("return body({hdr_len}, sbe_bl, sbe_ver);"));
        w.close("}");
        w.line("/* Reads a message body (no header) at buf + offset, written with the given block length and version. */");
        w.open("sable::errc wrap_body(const void *sbe_buf, std::size_t sbe_len, std::size_t sbe_offset, std::size_t sbe_wire_block_length, std::uint16_t sbe_wire_version) noexcept {");
        w.line("start(sbe_buf, sbe_len, sbe_offset, false);");
        w.line("return body(sbe_offset, sbe_wire_block_length, sbe_wire_version);");
        w.close("}");
        w.line("/* The first error met, errc::ok when none. */");
        w.line("sable::errc error() const noexcept { return st_.err; }");
        w.line("bool ok() const noexcept { return st_.err == sable::errc::ok; }");
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
        w.line("void rewind() noexcept { st_.pos = body_end_; st_.err = wrap_err_; }");
        self.decoder_body(w, &m.body, &ROOT);
        w.line("/* Prints the message's canonical JSON form (docs/json.md), reading a copy of the decoder from the start; a message that does not decode prints as {\"error\":{...}}. */");
        w.open("void sbe_print_json(std::ostream &os) const {");
        w.line("Decoder sbe_d = *this;");
        w.line("sbe_d.rewind();");
        w.line("sbe_d.sbe_skip();");
        w.open("if (!sbe_d.ok()) {");
        w.line("sable::detail::json::raw(os, \"{\\\"error\\\":{\\\"offset\\\":\");");
        w.line("sable::detail::json::uint(os, sbe_d.st_.pos - start_);");
        w.line("sable::detail::json::raw(os, \",\\\"message\\\":\\\"\");");
        w.line("sable::detail::json::raw(os, sable::message(sbe_d.st_.err));");
        w.line("sable::detail::json::raw(os, \"\\\"}}\");");
        w.line("return;");
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
        w.close("}");
        w.line("friend std::ostream &operator<<(std::ostream &os, const Decoder &sbe_d) { sbe_d.sbe_print_json(os); return os; }");
        w.line("private:");
        w.open("void start(const void *sbe_buf, std::size_t sbe_len, std::size_t sbe_start, bool sbe_header) noexcept {");
        w.line("st_ = sable::detail::dstate();");
        w.line("st_.buf = static_cast<const std::uint8_t *>(sbe_buf);");
        w.line("st_.len = sbe_len;");
        w.line("start_ = sbe_start;");
        w.line("has_header_ = sbe_header;");
        w.close("}");
        w.open("sable::errc fail_wrap(sable::errc sbe_e) noexcept {");
        w.line("st_.fail(sbe_e);");
        w.line("st_.pos = st_.len;");
        w.line("base_ = sable::detail::zeros;");
        w.line("block_ = 0;");
        w.line("full_ = false;");
        w.line("body_end_ = st_.len;");
        w.line("wrap_err_ = st_.err;");
        w.line("return sbe_e;");
        w.close("}");
        w.open("sable::errc body(std::size_t sbe_offset, std::size_t sbe_bl, std::uint16_t sbe_ver) noexcept {");
        w.line("st_.acting_version = sbe_ver;");
        w.line("if (SABLE_CHECKS && (sbe_offset > st_.len || sbe_bl > st_.len - sbe_offset)) { return fail_wrap(sable::errc::short_buffer); }");
        w.line(full_test("sbe_bl", bl));
        if bl > 0 {
            // Tested only for a block shorter than the schema's: one test on the common path.
            w.line(
                "if (SABLE_CHECKS && SABLE_UNLIKELY(!full_) && sbe_ver >= sbe_schema_version) { return fail_wrap(sable::errc::block_too_short); }",
            );
        }
        w.line("base_ = st_.buf + sbe_offset;");
        w.line("block_ = sbe_bl;");
        w.line("st_.pos = sbe_offset + sbe_bl;");
        w.line("body_end_ = st_.pos;");
        w.line("wrap_err_ = sable::errc::ok;");
        w.line("return sable::errc::ok;");
        w.close("}");
        w.line("sable::detail::dstate st_;");
        w.line("const std::uint8_t *base_ = sable::detail::zeros;");
        w.line("std::size_t block_ = 0;");
        w.line("bool full_ = false;");
        w.line("std::size_t start_ = 0;");
        w.line("std::size_t body_end_ = 0;");
        w.line("sable::errc wrap_err_ = sable::errc::ok;");
        w.line("bool has_header_ = false;");
        w.close("};");
    }

    fn message_encoder(&self, w: &mut CodeWriter, m: &Message, header: &Composite, hdr_len: usize) {
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
            "std::uint8_t *sbe_h = st_.reserve({});",
            hdr_len + bl
        ));
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
        w.line(format!("base_ = sbe_h + {hdr_len};"));
        w.line("return st_.err;");
        w.close("}");
        w.line("/* Writes the root block at buf without a header. */");
        w.open("sable::errc wrap_body(void *sbe_buf, std::size_t sbe_cap) noexcept {");
        w.line("start(sbe_buf, sbe_cap);");
        w.line(format!("base_ = st_.reserve({bl});"));
        w.line("return st_.err;");
        w.close("}");
        w.line("/* The first error met, errc::ok when none. */");
        w.line("sable::errc error() const noexcept { return st_.err; }");
        w.line("bool ok() const noexcept { return st_.err == sable::errc::ok; }");
        w.line("/* Bytes written so far: the message's length once complete. */");
        w.line("std::size_t encoded_length() const noexcept { return st_.pos; }");
        self.encoder_body(w, &m.body, &ROOT, "Encoder");
        w.line("private:");
        w.open("void start(void *sbe_buf, std::size_t sbe_cap) noexcept {");
        w.line("st_ = sable::detail::estate();");
        w.line("st_.buf = static_cast<std::uint8_t *>(sbe_buf);");
        w.line("st_.cap = sbe_cap;");
        w.line("reset_scratch();");
        w.close("}");
        w.line(format!("void reset_scratch() noexcept {{ st_.scratch = sable::detail::sink<{scratch}>; base_ = st_.scratch; }}"));
        w.line("sable::detail::estate st_;");
        w.line("std::uint8_t *base_ = nullptr;");
        w.close("};");
    }
}

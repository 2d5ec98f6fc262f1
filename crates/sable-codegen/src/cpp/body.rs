//! What a message and a group entry share: the accessors of their fields, groups and var data,
//! reading past them, printing them as JSON and finding the path of the item that failed.

use super::names::{self, ctype, doc, ident, string_literal};
use super::types::Slot;
use super::Gen;
use crate::model::{Body, Group, TypeRef};
use crate::naming::upper_first;
use crate::writer::CodeWriter;

/// Where the generated code of a body (a message's root or a group entry) finds its state, and
/// how it names its fields in error reports.
pub(crate) struct Ctx {
    /// The decoder or encoder state, as an lvalue (`st_` or `(*s_)`).
    pub state: &'static str,
    /// A pointer to it (`&st_` or `s_`).
    pub state_ptr: &'static str,
    /// The qualifier of the accessors that move the shared read position: none at the root
    /// (the state is the decoder's own), ` const` in an entry (the state is shared).
    pub qual: &'static str,
    /// The body's field path, each `[]` an entry index: `fields`, `fields.G[]`.
    pub path: String,
    /// How many group entries the body lies in (0 at the root).
    pub entries: usize,
}

impl Ctx {
    pub fn root() -> Ctx {
        Ctx {
            state: "st_",
            state_ptr: "&st_",
            qual: "",
            path: "fields".to_owned(),
            entries: 0,
        }
    }

    /// The context of an entry of group `g` of this body.
    pub fn entry(&self, g: &Group) -> Ctx {
        Ctx {
            state: "(*s_)",
            state_ptr: "s_",
            qual: " const",
            path: format!("{}.{}[]", self.path, g.name),
            entries: self.entries + 1,
        }
    }

    /// The path of a field, group or var data `name` of the body, as a C++ string literal.
    pub fn path_of(&self, name: &str) -> String {
        string_literal(format!("{}.{name}", self.path).as_bytes())
    }

    /// The trailing arguments locating an encoder error in the body's entry (none at the root).
    pub fn entry_args(&self) -> String {
        if self.entries == 0 {
            String::new()
        } else {
            format!(", {}, index_ - 1", self.entries)
        }
    }

    /// An encoder statement recording error `kind` (an `errc` name) at field `name`.
    pub fn fail(&self, kind: &str, name: &str) -> String {
        format!(
            "{}.fail(sable::errc::{kind}, {}{})",
            self.state,
            self.path_of(name),
            self.entry_args()
        )
    }

    /// The arguments after the pointer of a composite field's encoder (how it reports errors:
    /// its members' paths are in the table `composite_paths` names).
    pub fn composite_args(&self, name: &str) -> String {
        let (entries, index) = if self.entries == 0 {
            ("0".to_owned(), "0")
        } else {
            (self.entries.to_string(), "index_ - 1")
        };
        format!(
            "{}, {}, {entries}, {index}",
            self.state_ptr,
            composite_paths(name)
        )
    }

    /// A C++ test that the state has met an error.
    fn failed(&self) -> String {
        format!("{}.err != sable::errc::ok", self.state)
    }
}

/// Statements compiled with `SABLE_ENABLE_ACCESS_ORDER_CHECKS` only (docs/cpp.md).
pub(crate) fn order_check(w: &mut CodeWriter, lines: &[String]) {
    w.line("#if SABLE_ACCESS_ORDER");
    for l in lines {
        w.line(l);
    }
    w.line("#endif");
}

/// The access-order check of item `k` (groups first, then var data) of a body at depth
/// `ctx.entries`, a group of `n` entries or var data (`n` 0), and what a failure does besides
/// recording it (`on_fail`, e.g. a return).
pub(crate) fn order_access(ctx: &Ctx, k: usize, n: &str, on_fail: &str) -> Vec<String> {
    vec![format!(
        "if (!{s}.ao.access({}, {k}, {n})) {{ {s}.fail_order(); {on_fail}}}",
        ctx.entries,
        s = ctx.state
    )]
}

/// `sbe_items`: the paths of a body's groups and var data in schema order, which the
/// access-order checks name what was expected with; and how many.
pub(crate) fn order_items(w: &mut CodeWriter, body: &Body, ctx: &Ctx) -> usize {
    let items: Vec<String> = body
        .groups
        .iter()
        .map(|g| &g.name)
        .chain(body.var_data.iter().map(|v| &v.name))
        .map(|n| format!("{}.{n}", ctx.path))
        .collect();
    path_table(w, "sbe_items", &items);
    items.len()
}

/// A static table of path strings (`{nullptr}` when there are none: no empty arrays in C++).
fn path_table(w: &mut CodeWriter, name: &str, paths: &[String]) {
    let list = if paths.is_empty() {
        "nullptr".to_owned()
    } else {
        let items: Vec<String> = paths.iter().map(|p| string_literal(p.as_bytes())).collect();
        items.join(", ")
    };
    w.line(format!(
        "static constexpr const char *{name}[] = {{{list}}};"
    ));
}

/// The name of the table of a composite field's member paths.
fn composite_paths(name: &str) -> String {
    format!("sbe_{}_paths", ident(name))
}

/// The class name of a group (with `Group` appended when it would equal its accessor's name).
pub(crate) fn group_class(g: &Group) -> String {
    let n = upper_first(&ident(&g.name));
    if n == ident(&g.name) {
        format!("{n}Group")
    } else {
        n
    }
}

/// `NAME_present()`'s test for a part that came with `since_version`.
fn since(ctx: &Ctx, since_version: i32) -> String {
    if since_version > 0 {
        format!("{}.acting_version >= {since_version}", ctx.state)
    } else {
        "true".to_owned()
    }
}

impl Gen<'_> {
    /// Presence functions, getters, groups, var data, skipping, JSON and error paths of a
    /// decoder body.
    pub(crate) fn decoder_body(&self, w: &mut CodeWriter, body: &Body, ctx: &Ctx) {
        order_items(w, body, ctx);
        self.decoder_fields(w, body, ctx);
        let classes: Vec<String> = body.groups.iter().map(group_class).collect();
        for (k, g) in body.groups.iter().enumerate() {
            self.group_decoder(w, g, ctx, &classes, k);
            let cls = group_class(g);
            let name = ident(&g.name);
            w.line(format!(
                "bool {name}_present() const noexcept {{ return {}; }}",
                since(ctx, g.since_version)
            ));
            doc(w, g.description.as_deref());
            w.line(
                "/* The group's entries: read them (range-for or next()) before what follows. */",
            );
            w.open(format!("{cls} {name}(){} noexcept {{", ctx.qual));
            order_check(w, &order_access(ctx, k, "0", ""));
            w.line(format!(
                "return {cls}({}, {name}_present());",
                ctx.state_ptr
            ));
            w.close("}");
        }
        for (j, v) in body.var_data.iter().enumerate() {
            let name = ident(&v.name);
            let lt = ctype(v.length.primitive_type);
            let be = names::is_big(v.length.byte_order);
            w.line(format!(
                "bool {name}_present() const noexcept {{ return {}; }}",
                since(ctx, v.since_version)
            ));
            doc(w, v.description.as_deref());
            w.open(format!(
                "sable::bytes_view {name}_bytes(){} noexcept {{",
                ctx.qual
            ));
            let k = body.groups.len() + j;
            order_check(
                w,
                &order_access(ctx, k, "0", "return sable::bytes_view(); "),
            );
            w.line(format!(
                "if (!{name}_present()) {{ return sable::bytes_view(); }} return sable::detail::read_var<{lt}, {be}>({});",
                ctx.state
            ));
            w.close("}");
            doc(w, v.description.as_deref());
            let ty = if v.is_text() {
                "std::string_view"
            } else {
                "sable::bytes_view"
            };
            let conv = if v.is_text() { ".as_chars()" } else { "" };
            w.line(format!(
                "{ty} {name}(){} noexcept {{ return {name}_bytes(){conv}; }}",
                ctx.qual
            ));
        }
        self.skip(w, body, ctx);
        self.json_fields(w, body, ctx);
        self.error_path(w, body, ctx);
    }

    /// Presence functions and getters of a body's fixed fields.
    fn decoder_fields(&self, w: &mut CodeWriter, body: &Body, ctx: &Ctx) {
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
                conds.push(since(ctx, f.since_version));
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
    }

    /// `sbe_skip()`: reads past the body's groups and var data.
    fn skip(&self, w: &mut CodeWriter, body: &Body, ctx: &Ctx) {
        w.line("/* Reads past the groups and var data (the position moves to the end). */");
        w.open(format!("void sbe_skip(){} noexcept {{", ctx.qual));
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
    }

    /// `sbe_json_fields(os)`: the members of the body's `fields` JSON object.
    fn json_fields(&self, w: &mut CodeWriter, body: &Body, ctx: &Ctx) {
        w.open(format!(
            "void sbe_json_fields(std::ostream &os){} {{",
            ctx.qual
        ));
        w.line("(void)os;");
        let mut first = true;
        let mut key = |w: &mut CodeWriter, name: &str, present: String| {
            let k = format!("{}\"{}\":", if first { "" } else { "," }, name);
            first = false;
            w.line(format!(
                "sable::detail::json::raw(os, {});",
                string_literal(k.as_bytes())
            ));
            w.line(format!(
                "if (!{present}_present()) {{ sable::detail::json::raw(os, \"null\"); }} else {{"
            ));
            w.indent();
        };
        for f in &body.fields {
            let s = Slot::from_field(f);
            key(w, &f.name, s.id());
            self.json_slot(w, &s, "base_");
            w.close("}");
        }
        for g in &body.groups {
            let name = ident(&g.name);
            key(w, &g.name, name.clone());
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
            key(w, &v.name, name.clone());
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

    /// `sbe_error_path(path)`: reading on as `sbe_skip()` does, appends the path of the first
    /// item that fails (docs/codecs.md: `.G` for a group's dimension, `.G[i]` for an entry's
    /// block, `.V` for var data). The hot path keeps only the failing item's offset; its path is
    /// found by reading a copy again, when asked.
    fn error_path(&self, w: &mut CodeWriter, body: &Body, ctx: &Ctx) {
        w.line("/* After an error: reads on as sbe_skip() does and appends to sbe_path the path of the item that fails; true when one does. */");
        w.open(format!(
            "bool sbe_error_path(std::string &sbe_path){} {{",
            ctx.qual
        ));
        w.line("(void)sbe_path;");
        let failed = ctx.failed();
        for g in &body.groups {
            let name = ident(&g.name);
            let key = string_literal(format!(".{}", g.name).as_bytes());
            let entry = string_literal(format!(".{}[", g.name).as_bytes());
            w.open("{");
            w.line(format!("auto sbe_g = {name}();"));
            w.line(format!(
                "if ({failed}) {{ sbe_path += {key}; return true; }}"
            ));
            w.open("while (sbe_g.next()) {");
            w.line("const std::size_t sbe_n = sbe_path.size();");
            w.line(format!("sbe_path += {entry};"));
            w.line("sbe_path += std::to_string(sbe_g.index() - 1);");
            w.line("sbe_path += ']';");
            w.line("if (sbe_g.sbe_error_path(sbe_path)) { return true; }");
            w.line("sbe_path.resize(sbe_n);");
            w.close("}");
            w.line(format!("if ({failed}) {{ sbe_path += {entry}; sbe_path += std::to_string(sbe_g.index()); sbe_path += ']'; return true; }}"));
            w.close("}");
        }
        for v in &body.var_data {
            let key = string_literal(format!(".{}", v.name).as_bytes());
            w.line(format!("(void){}_bytes();", ident(&v.name)));
            w.line(format!(
                "if ({failed}) {{ sbe_path += {key}; return true; }}"
            ));
        }
        w.line("return false;");
        w.close("}");
    }

    /// Setters, groups and var data of an encoder body returning `self_ty &`.
    pub(crate) fn encoder_body(&self, w: &mut CodeWriter, body: &Body, ctx: &Ctx, self_ty: &str) {
        order_items(w, body, ctx);
        for f in &body.fields {
            let s = Slot::from_field(f);
            if let (TypeRef::Composite(c), false) = (&f.type_ref, s.constant) {
                let paths = self.member_paths(c, &format!("{}.{}", ctx.path, f.name));
                path_table(w, &composite_paths(&f.name), &paths);
            }
            doc(w, f.description.as_deref());
            self.encoder_accessors(
                w,
                &s,
                "base_",
                self_ty,
                &|kind| ctx.fail(kind, &f.name),
                &ctx.composite_args(&f.name),
            );
        }
        for (k, g) in body.groups.iter().enumerate() {
            self.group_encoder(w, g, ctx, k);
            let cls = group_class(g);
            let name = ident(&g.name);
            doc(w, g.description.as_deref());
            w.line(
                "/* Writes the group's header for COUNT entries; then next() before each entry. */",
            );
            let parent = if ctx.entries == 0 { "" } else { ", index_ - 1" };
            w.line(format!(
                "{cls} {name}(std::uint64_t sbe_count) noexcept {{ return {cls}({}, sbe_count{parent}); }}",
                ctx.state_ptr
            ));
        }
        for (j, v) in body.var_data.iter().enumerate() {
            let name = ident(&v.name);
            let lt = ctype(v.length.primitive_type);
            let be = names::is_big(v.length.byte_order);
            let max = v
                .length
                .max_value
                .as_i128()
                .unwrap_or(0)
                .clamp(0, u32::MAX as i128);
            doc(w, v.description.as_deref());
            w.open(format!(
                "{self_ty} &{name}(const void *sbe_p, std::size_t sbe_n) noexcept {{"
            ));
            order_check(w, &order_access(ctx, body.groups.len() + j, "0", ""));
            w.line(format!(
                "sable::detail::write_var<{lt}, {be}>({}, sbe_p, sbe_n, {max}u, {}{}); return *this;",
                ctx.state,
                ctx.path_of(&v.name),
                ctx.entry_args()
            ));
            w.close("}");
            w.line(format!(
                "{self_ty} &{name}(std::string_view sbe_v) noexcept {{ return {name}(sbe_v.data(), sbe_v.size()); }}"
            ));
            w.line(format!(
                "{self_ty} &{name}(sable::bytes_view sbe_v) noexcept {{ return {name}(sbe_v.data(), sbe_v.size()); }}"
            ));
        }
    }
}

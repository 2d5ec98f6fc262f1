//! Repeating groups: a decoder's entry view, its cursor over the entries and their iterator
//! (random access when the entries are of fixed size), and the encoder's group writer.

use sable_ir::PrimitiveType;

use super::body::{group_class, order_check, Ctx};
use super::names::{ctype, doc, load, store};
use super::Gen;
use crate::model::{Composite, Group, TypeRef};
use crate::writer::CodeWriter;

/// A dimension member: offset and primitive type.
fn member_of(c: &Composite, name: &str) -> Option<(usize, PrimitiveType)> {
    c.primitive(name).map(|(m, p)| (m.offset, p.primitive_type))
}

/// Sets `full_`: whether a block of `wire` bytes holds every field of a `schema`-byte block (an
/// unsigned `>= 0` would draw -Wtype-limits).
pub(crate) fn full_test(wire: &str, schema: usize) -> String {
    if schema == 0 {
        "full_ = true;".to_owned()
    } else {
        format!("full_ = {wire} >= {schema}u;")
    }
}

/// The group's dimension: its composite, length, and `blockLength` and `numInGroup` members.
struct Dimension<'a> {
    composite: &'a Composite,
    length: usize,
    block_length: (usize, PrimitiveType),
    count: (usize, PrimitiveType),
}

/// Whether the entries are of fixed size with a count and block length of at most 32 bits: one
/// bounds test serves all of them (their total cannot overflow) and they can be reached by
/// index (the iterator is random access).
fn is_flat(g: &Group, dim: &Dimension) -> bool {
    g.body.groups.is_empty()
        && g.body.var_data.is_empty()
        && dim.block_length.1.size() <= 4
        && dim.count.1.size() <= 4
}

/// Where a group stands for the access-order checks: the depth of the body it is in, its
/// position among that body's groups and var data, and how many its entries hold.
pub(crate) struct Order {
    depth: usize,
    item: usize,
    entry_items: usize,
}

impl Order {
    fn of(g: &Group, parent: &Ctx, k: usize) -> Order {
        Order {
            depth: parent.entries,
            item: k,
            entry_items: g.body.groups.len() + g.body.var_data.len(),
        }
    }
}

/// The name of the entry class of a group class `cls`, unlike any sibling group's class.
fn entry_class(cls: &str, siblings: &[String]) -> String {
    let mut name = format!("{cls}Entry");
    while siblings.contains(&name) {
        name.push('_');
    }
    name
}

impl Gen<'_> {
    fn dimension(&self, g: &Group) -> Dimension<'_> {
        let composite = self.schema.composite(&g.dimension);
        Dimension {
            composite,
            length: composite.encoded_length.max(0) as usize,
            block_length: member_of(composite, "blockLength").unwrap_or((0, PrimitiveType::UInt16)),
            count: member_of(composite, "numInGroup").unwrap_or((2, PrimitiveType::UInt16)),
        }
    }

    /// A group's decoder: `<Cls>Entry` (the entry's accessors) and `<Cls>` (the cursor over
    /// the entries, an `Entry` itself, and their iterator).
    pub(crate) fn group_decoder(
        &self,
        w: &mut CodeWriter,
        g: &Group,
        parent: &Ctx,
        siblings: &[String],
        k: usize,
    ) {
        let cls = group_class(g);
        let dim = self.dimension(g);
        let flat = is_flat(g, &dim);
        let entry = entry_class(&cls, siblings);
        let ctx = parent.entry(g);
        doc(w, g.description.as_deref());
        w.line(format!("/* An entry of the {} group. */", g.name));
        w.open(format!("class {entry} {{"));
        w.line("public:");
        w.line(format!(
            "static constexpr std::size_t sbe_block_length = {};",
            g.block_length
        ));
        w.line(format!("{entry}() noexcept = default;"));
        w.line(
            "/* A view of the entry whose block (of block_length bytes on the wire) is at base. */",
        );
        w.open(format!("{entry}(sable::detail::dstate *sbe_s, const std::uint8_t *sbe_base, std::size_t sbe_block) noexcept : s_(sbe_s), base_(sbe_base), block_(sbe_block) {{"));
        w.line(full_test("sbe_block", g.block_length));
        w.close("}");
        w.line("/* The entry's block length on the wire. */");
        w.line("std::size_t acting_block_length() const noexcept { return block_; }");
        if flat {
            w.line("/* Moves the view by n entries (for the group's iterator). */");
            w.line("void sbe_step(std::ptrdiff_t sbe_n) noexcept { base_ += sbe_n * static_cast<std::ptrdiff_t>(block_); }");
        }
        self.decoder_body(w, &g.body, &ctx);
        w.line("protected:");
        w.line("sable::detail::dstate *s_ = nullptr;");
        w.line("const std::uint8_t *base_ = sable::detail::zeros;");
        w.line("std::size_t block_ = 0;");
        w.line("bool full_ = false;");
        w.close("};");
        w.line(format!("/* The {} group: an entry at a time. */", g.name));
        w.open(format!("class {cls} : public {entry} {{"));
        w.line("public:");
        w.line(format!("using Entry = {entry};"));
        w.line(format!(
            "static constexpr std::size_t sbe_header_length = {};",
            dim.length
        ));
        w.line(format!("static constexpr int sbe_id = {};", g.id));
        let order = Order::of(g, parent, k);
        self.group_cursor_start(w, g, &dim, flat, &order);
        self.group_cursor_next(w, g, flat, &order);
        if flat {
            self.random_access_iterator(w, &order);
        } else {
            forward_iterator(w, &cls);
        }
        w.line("private:");
        if flat {
            w.line("bool all_fit_ = false;");
            w.line("std::size_t cur_ = 0;");
            w.line("bool ranged_ = false;");
            w.line("const std::uint8_t *first_ = nullptr;");
            w.line("std::ptrdiff_t n_ = 0;");
        }
        if !flat {
            w.line("std::size_t end_ = 0;");
        }
        w.line("std::size_t entry_block_ = 0;");
        w.line("std::uint64_t count_ = 0;");
        w.line("std::uint64_t left_ = 0;");
        w.close("};");
    }

    /// The cursor's constructor: reads and checks the dimension.
    fn group_cursor_start(
        &self,
        w: &mut CodeWriter,
        g: &Group,
        dim: &Dimension,
        flat: bool,
        order: &Order,
    ) {
        let cls = group_class(g);
        let byte_order = self.schema.byte_order;
        let (bl_off, bl_t) = dim.block_length;
        let (num_off, num_t) = dim.count;
        let dim_len = dim.length;
        w.open(format!(
            "{cls}(sable::detail::dstate *sbe_s, bool sbe_present) noexcept {{"
        ));
        w.line("s_ = sbe_s;");
        w.line("if (!sbe_present) { return; }");
        w.line(format!(
            "if (SABLE_UNLIKELY(!s_->fits({dim_len}))) {{ s_->fail(sable::errc::truncated, s_->pos); s_->pos = s_->len; return; }}"
        ));
        w.line("const std::uint8_t *sbe_h = s_->buf + s_->pos;");
        w.line(format!(
            "entry_block_ = static_cast<std::size_t>({});",
            load(bl_t, byte_order, &format!("sbe_h + {bl_off}"))
        ));
        let too_short = (g.block_length > 0).then(|| {
            let version = self.schema.version;
            let newer = if version > 0 {
                format!(" && s_->acting_version >= {version}")
            } else {
                String::new()
            };
            format!(
                "if (SABLE_CHECKS && SABLE_UNLIKELY(entry_block_ < sbe_block_length){newer}) {{ s_->fail(sable::errc::block_length_too_short, s_->pos + {bl_off}); s_->pos = s_->len; return; }}"
            )
        });
        let count = format!(
            "const std::uint64_t sbe_n = static_cast<std::uint64_t>({});",
            load(num_t, byte_order, &format!("sbe_h + {num_off}"))
        );
        if flat {
            // The wire's block length is most often the schema's: tested once, it makes the
            // stride a constant (the total, on the path to everything after the group, is
            // cheaper to compute) and the block-length check leaves the common path.
            w.line(count);
            w.open("if (SABLE_LIKELY(entry_block_ == sbe_block_length)) {");
            w.line("sbe_take(sbe_n, sbe_block_length);");
            w.close("} else {").indent();
            if let Some(check) = &too_short {
                w.line(check);
            }
            w.line("sbe_take(sbe_n, entry_block_);");
            w.close("}");
        } else {
            if let Some(check) = &too_short {
                w.line(check);
            }
            w.line(count);
            w.line("count_ = sbe_n;");
            w.line("left_ = sbe_n;");
            w.line(format!("s_->pos += {dim_len};"));
        }
        order_check(w, &[format!("s_->ao.entries[{}] = count_;", order.depth)]);
        w.close("}");
        if flat {
            w.line("private:");
            // When every entry fits, the decoder's position moves past the whole group at once
            // (nothing later waits for the entries to be read); otherwise entry by entry, so
            // that the entries that are there are read.
            w.line("/* Takes the group's n entries of stride bytes each, after the dimension. */");
            w.open("void sbe_take(std::uint64_t sbe_n, std::size_t sbe_stride) noexcept {");
            w.line("count_ = sbe_n;");
            w.line("left_ = sbe_n;");
            w.line(format!("s_->pos += {dim_len};"));
            w.line("cur_ = s_->pos;");
            w.line("all_fit_ = !SABLE_CHECKS || sbe_n * sbe_stride <= s_->len - s_->pos;");
            w.line("if (SABLE_LIKELY(all_fit_)) { s_->pos += static_cast<std::size_t>(sbe_n) * sbe_stride; }");
            w.close("}");
            w.line("public:");
        }
    }

    /// `count()`, `index()` and `next()`.
    fn group_cursor_next(&self, w: &mut CodeWriter, g: &Group, flat: bool, order: &Order) {
        w.line("/* Entries on the wire. */");
        w.line("std::uint64_t count() const noexcept { return count_; }");
        w.line("/* Entries read so far. */");
        w.line("std::uint64_t index() const noexcept { return count_ - left_; }");
        w.line("/* Moves to the next entry; false at the end or when it does not fit the buffer (the decoder's error() says which). */");
        w.open("bool next() noexcept {");
        w.line("if (left_ == 0) { return false; }");
        let stop = "count_ -= left_; left_ = 0; base_ = sable::detail::zeros; block_ = 0; full_ = false; return false;";
        order_check(
            w,
            &[format!(
                "if (!s_->ao.next_entry({}, {}, Entry::sbe_items, {})) {{ s_->fail_order(); {stop} }}",
                order.depth, order.item, order.entry_items
            )],
        );
        let missing =
            format!("s_->fail(sable::errc::truncated, s_->pos); s_->pos = s_->len; {stop}");
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
            w.line("end_ = s_->pos;");
        }
        w.line("block_ = entry_block_;");
        w.line(full_test("entry_block_", g.block_length));
        w.line("--left_;");
        w.line("return true;");
        w.close("}");
    }

    /// The iterator of a group of fixed-size entries: random access over the entries not read
    /// yet that fit the buffer (the first that does not is the decoder's error).
    fn random_access_iterator(&self, w: &mut CodeWriter, order: &Order) {
        w.line("/* A random-access iterator over the entries; *it is the entry, a view held by value (so that iterators such as std::reverse_iterator that dereference a temporary stay valid). */");
        w.open("class iterator {");
        w.line("public:");
        w.line("/* What it-> gives: the entry, by value. */");
        w.line("struct sbe_arrow { Entry sbe_e; const Entry *operator->() const noexcept { return &sbe_e; } };");
        w.line("using iterator_category = std::random_access_iterator_tag;");
        w.line("using value_type = Entry;");
        w.line("using difference_type = std::ptrdiff_t;");
        w.line("using pointer = sbe_arrow;");
        w.line("using reference = Entry;");
        w.line("iterator() noexcept = default;");
        w.line("iterator(const Entry &sbe_first, difference_type sbe_i) noexcept : e_(sbe_first) { *this += sbe_i; }");
        w.line("reference operator*() const noexcept { return e_; }");
        w.line("pointer operator->() const noexcept { return sbe_arrow{e_}; }");
        w.line("value_type operator[](difference_type sbe_n) const noexcept { return *(*this + sbe_n); }");
        w.line("iterator &operator+=(difference_type sbe_n) noexcept { e_.sbe_step(sbe_n); i_ += sbe_n; return *this; }");
        w.line("iterator &operator-=(difference_type sbe_n) noexcept { return *this += -sbe_n; }");
        w.line("iterator &operator++() noexcept { return *this += 1; }");
        w.line("iterator &operator--() noexcept { return *this += -1; }");
        w.line("iterator operator++(int) noexcept { iterator sbe_t = *this; *this += 1; return sbe_t; }");
        w.line("iterator operator--(int) noexcept { iterator sbe_t = *this; *this += -1; return sbe_t; }");
        w.line("friend iterator operator+(iterator sbe_a, difference_type sbe_n) noexcept { return sbe_a += sbe_n; }");
        w.line("friend iterator operator+(difference_type sbe_n, iterator sbe_a) noexcept { return sbe_a += sbe_n; }");
        w.line("friend iterator operator-(iterator sbe_a, difference_type sbe_n) noexcept { return sbe_a += -sbe_n; }");
        w.line("friend difference_type operator-(const iterator &sbe_a, const iterator &sbe_b) noexcept { return sbe_a.i_ - sbe_b.i_; }");
        for op in ["==", "!=", "<", ">", "<=", ">="] {
            w.line(format!("friend bool operator{op}(const iterator &sbe_a, const iterator &sbe_b) noexcept {{ return sbe_a.i_ {op} sbe_b.i_; }}"));
        }
        w.line("private:");
        w.line("Entry e_;");
        w.line("difference_type i_ = 0;");
        w.close("};");
        w.line("/* The entries not read yet (all of them when next() was not called); begin() and end() read past them. */");
        w.line("iterator begin() noexcept { sbe_range(); return iterator(Entry(s_, first_, entry_block_), 0); }");
        w.line("iterator end() noexcept { sbe_range(); return iterator(Entry(s_, first_, entry_block_), n_); }");
        w.line("private:");
        w.line("/* Takes the entries not read yet at once: those that fit the buffer (the first that does not is the error). */");
        w.open("void sbe_range() noexcept {");
        w.line("if (ranged_) { return; }");
        w.line("ranged_ = true;");
        w.line("first_ = s_->buf + cur_;");
        order_check(
            w,
            &[format!(
                "if (!s_->ao.take_all({}, {})) {{ s_->fail_order(); count_ -= left_; left_ = 0; n_ = 0; return; }}",
                order.depth, order.item
            )],
        );
        w.line("std::uint64_t sbe_left = left_;");
        w.open("if (SABLE_UNLIKELY(!all_fit_)) {");
        w.line("const std::uint64_t sbe_fit = entry_block_ == 0 ? sbe_left : static_cast<std::uint64_t>((s_->len - s_->pos) / entry_block_);");
        w.line("if (sbe_fit < sbe_left) { s_->fail(sable::errc::truncated, s_->pos + static_cast<std::size_t>(sbe_fit) * entry_block_); s_->pos = s_->len; count_ -= sbe_left - sbe_fit; sbe_left = sbe_fit; } else { s_->pos += static_cast<std::size_t>(sbe_left) * entry_block_; }");
        w.close("}");
        w.line("cur_ += static_cast<std::size_t>(sbe_left) * entry_block_;");
        w.line("left_ = 0;");
        w.line("n_ = static_cast<std::ptrdiff_t>(sbe_left);");
        w.close("}");
        w.line("public:");
    }

    /// A group's encoder: its header at construction, then an entry per `next()`.
    pub(crate) fn group_encoder(&self, w: &mut CodeWriter, g: &Group, parent: &Ctx, k: usize) {
        let cls = group_class(g);
        let dim = self.dimension(g);
        let ctx = parent.entry(g);
        let max = dim
            .composite
            .primitive("numInGroup")
            .and_then(|(_, p)| p.max_value.as_i128())
            .unwrap_or(65534)
            .clamp(0, u32::MAX as i128);
        // Entries of fixed size: room for all of them is taken at once when there is enough
        // (count at most 2^32 - 1, so the total cannot overflow).
        let flat = g.body.groups.is_empty() && g.body.var_data.is_empty();
        doc(w, g.description.as_deref());
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
        let order = Order::of(g, parent, k);
        self.group_encoder_start(w, g, &dim, parent, flat, &order);
        w.line("std::uint64_t count() const noexcept { return count_; }");
        w.line("/* Starts the next entry (an error past the count). */");
        w.open(format!("{cls} &next() noexcept {{"));
        let entry_path = super::names::string_literal(ctx.path.as_bytes());
        let entries = ctx.entries;
        w.line(format!("if (SABLE_CHECKS && SABLE_UNLIKELY(index_ >= count_)) {{ s_->fail(sable::errc::index_out_of_range, {entry_path}, {entries}, index_); base_ = s_->scratch; return *this; }}"));
        order_check(
            w,
            &[format!(
                "if (!s_->ao.next_entry({}, {}, sbe_items, {})) {{ s_->fail_order(); }}",
                order.depth, order.item, order.entry_items
            )],
        );
        let reserve = format!(
            "s_->reserve({}, {entry_path}, {entries}, index_)",
            g.block_length
        );
        if flat {
            w.line(format!(
                "if (SABLE_LIKELY(all_fit_)) {{ base_ = cur_; cur_ += {}; }} else {{ base_ = {reserve}; }}",
                g.block_length
            ));
        } else {
            w.line(format!("base_ = {reserve};"));
        }
        w.line("++index_;");
        w.line("return *this;");
        w.close("}");
        self.encoder_body(w, &g.body, &ctx, &cls);
        w.line("private:");
        w.line("sbe_estate *s_;");
        w.line("std::uint8_t *base_ = s_->scratch;");
        w.line("std::uint64_t count_ = 0;");
        w.line("std::uint64_t index_ = 0;");
        if flat {
            w.line("bool all_fit_ = false;");
            w.line("std::uint8_t *cur_ = nullptr;");
        }
        w.close("};");
    }

    /// The group encoder's constructor: checks the count and writes the dimension.
    fn group_encoder_start(
        &self,
        w: &mut CodeWriter,
        g: &Group,
        dim: &Dimension,
        parent: &Ctx,
        flat: bool,
        order: &Order,
    ) {
        let cls = group_class(g);
        let path = parent.path_of(&g.name);
        // A nested group records the entry it is written in, for error paths.
        let (param, args) = if parent.entries == 0 {
            (String::new(), String::new())
        } else {
            (
                ", std::uint64_t sbe_parent".to_owned(),
                format!(", {}, sbe_parent", parent.entries),
            )
        };
        w.open(format!(
            "{cls}(sbe_estate *sbe_s, std::uint64_t sbe_count{param}) noexcept : s_(sbe_s) {{"
        ));
        if parent.entries > 0 {
            w.line(format!("s_->path[{}] = sbe_parent;", parent.entries - 1));
        }
        w.line(format!("if (SABLE_CHECKS && SABLE_UNLIKELY(sbe_count > sbe_max_count)) {{ s_->fail(sable::errc::count_too_large, {path}{args}); sbe_count = 0; }}"));
        order_check(
            w,
            &[format!(
                "if (!s_->ao.access({}, {}, sbe_count)) {{ s_->fail_order(); }}",
                order.depth, order.item
            )],
        );
        w.line(format!(
            "std::uint8_t *sbe_h = s_->reserve({}, {path}{args});",
            dim.length
        ));
        let (bl_off, bl_t) = dim.block_length;
        let (num_off, _) = dim.count;
        for m in &dim.composite.members {
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
    }
}

/// The iterator of a group whose entries hold groups or var data: a forward iterator whose `*it`
/// is the entry the cursor is at (its `Entry`), since those are read in order.
fn forward_iterator(w: &mut CodeWriter, cls: &str) {
    w.line("/* A forward iterator over the entries; *it is the current entry (valid until the iterator moves; its groups and var data are read in order). */");
    w.open("class iterator {");
    w.line("public:");
    w.line("using iterator_category = std::forward_iterator_tag;");
    w.line("using value_type = Entry;");
    w.line("using difference_type = std::ptrdiff_t;");
    w.line("using pointer = const Entry *;");
    w.line("using reference = const Entry &;");
    w.line("iterator() noexcept = default;");
    // An iterator's position: 0 at the end, else the entries left after it plus one.
    w.line(format!(
        "iterator({cls} *sbe_g, bool sbe_valid) noexcept : g_(sbe_g), i_(sbe_valid ? sbe_g->left_ + 1 : 0) {{}}"
    ));
    w.line("reference operator*() const noexcept { return *g_; }");
    w.line("pointer operator->() const noexcept { return g_; }");
    // Inlined early (with sbe_finish_entry), so that the compiler sees through the pointers to
    // the cursor and the decoder and keeps their state in registers (without it: 11 more
    // instructions a Car decode, scripts/count-cpp.sh).
    w.line("SABLE_ALWAYS_INLINE iterator &operator++() noexcept { g_->sbe_finish_entry(); i_ = g_->next() ? g_->left_ + 1 : 0; return *this; }");
    w.line("iterator operator++(int) noexcept { iterator sbe_t = *this; ++*this; return sbe_t; }");
    w.line("friend bool operator==(const iterator &sbe_a, const iterator &sbe_b) noexcept { return sbe_a.i_ == sbe_b.i_; }");
    w.line("friend bool operator!=(const iterator &sbe_a, const iterator &sbe_b) noexcept { return sbe_a.i_ != sbe_b.i_; }");
    w.line("private:");
    w.line(format!("{cls} *g_ = nullptr;"));
    w.line("std::uint64_t i_ = 0;");
    w.close("};");
    w.line("iterator begin() noexcept { const bool sbe_valid = next(); return iterator(this, sbe_valid); }");
    w.line("iterator end() noexcept { return iterator(this, false); }");
    w.line("private:");
    w.line("/* Reads past the entry's groups and var data when none of them was read (as std::distance or std::find_if leave them). */");
    w.line("SABLE_ALWAYS_INLINE void sbe_finish_entry() noexcept { if (s_->pos == end_) { sbe_skip(); } }");
    w.line("public:");
}

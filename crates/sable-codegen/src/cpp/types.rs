//! Enums, sets and composites, and the accessors of a fixed-size slot (a field or a composite
//! member) that messages, groups and composites share.

use sable_ir::{Presence, PrimitiveType, PrimitiveValue};

use super::names::{self, ctype, declared_range, doc, ident, literal, load, store, string_literal};
use super::Gen;
use crate::model::{Composite, EnumType, Field, Member, Primitive, SetType, TypeRef};
use crate::writer::CodeWriter;

/// A fixed-size value in a block or composite.
pub(crate) struct Slot<'a> {
    pub name: &'a str,
    pub offset: usize,
    pub type_ref: &'a TypeRef,
    pub optional: bool,
    pub constant: bool,
    pub const_enum: Option<&'a str>,
    pub utf8: bool,
    pub description: Option<&'a str>,
}

impl<'a> Slot<'a> {
    pub fn from_field(f: &'a Field) -> Slot<'a> {
        let prim_encoding = match &f.type_ref {
            TypeRef::Primitive(p) => p.character_encoding.as_deref(),
            _ => None,
        };
        Slot {
            name: &f.name,
            offset: f.offset,
            type_ref: &f.type_ref,
            optional: f.presence == Presence::Optional,
            constant: f.is_constant(),
            const_enum: f.const_enum_value.as_deref(),
            utf8: names::is_utf8(f.meta.character_encoding.as_deref().or(prim_encoding)),
            description: f.description.as_deref(),
        }
    }

    pub fn from_member(m: &'a Member) -> Slot<'a> {
        let (constant, optional, utf8) = match &m.type_ref {
            TypeRef::Primitive(p) => (
                p.is_constant(),
                p.presence == Presence::Optional,
                names::is_utf8(p.character_encoding.as_deref()),
            ),
            _ => (false, m.presence == Presence::Optional, false),
        };
        Slot {
            name: &m.name,
            offset: m.offset,
            type_ref: &m.type_ref,
            optional,
            constant,
            const_enum: None,
            utf8,
            description: m.description.as_deref(),
        }
    }

    pub fn id(&self) -> String {
        ident(self.name)
    }
}

/// The JSON text for a null check of a primitive value `v`.
fn is_null(p: &Primitive, v: &str) -> String {
    match p.primitive_type {
        PrimitiveType::Float | PrimitiveType::Double => format!("std::isnan({v})"),
        t => format!("{v} == {}", literal(t, &p.null_value)),
    }
}

/// Statements printing one primitive value `v` (not an array) as JSON.
fn json_scalar(w: &mut CodeWriter, t: PrimitiveType, v: &str, utf8: bool) {
    match t {
        PrimitiveType::Char => {
            w.line(format!("const char sbe_c = {v};"));
            w.line(format!(
                "sable::detail::json::chars(os, reinterpret_cast<const std::uint8_t *>(&sbe_c), 1, {utf8});"
            ));
        }
        PrimitiveType::Float => {
            w.line(format!("sable::detail::json::f32(os, {v});"));
        }
        PrimitiveType::Double => {
            w.line(format!("sable::detail::json::f64(os, {v});"));
        }
        t if names::signed(t) => {
            w.line(format!(
                "sable::detail::json::sint(os, static_cast<std::int64_t>({v}));"
            ));
        }
        _ => {
            w.line(format!(
                "sable::detail::json::uint(os, static_cast<std::uint64_t>({v}));"
            ));
        }
    }
}

/// The getter of a constant.
fn constant_getter(w: &mut CodeWriter, name: &str, p: &Primitive) {
    let t = p.primitive_type;
    match &p.const_value {
        Some(PrimitiveValue::Bytes { bytes, .. }) if bytes.len() != 1 || p.length > 1 => {
            w.line(format!(
                "static constexpr std::string_view {name}() noexcept {{ return std::string_view({}, {}); }}",
                string_literal(bytes),
                bytes.len()
            ));
        }
        value => {
            let v = value.as_ref().unwrap_or(&p.null_value);
            w.line(format!(
                "static constexpr {} {name}() noexcept {{ return {}; }}",
                ctype(t),
                literal(t, v)
            ));
        }
    }
}

/// The getters of an array: char arrays as text up to the first NUL (and every byte with
/// `NAME_bytes()`), other arrays by index (and uint8/int8 arrays' bytes).
fn array_getters(w: &mut CodeWriter, s: &Slot, p: &Primitive, base: &str, present: Option<&str>) {
    let name = s.id();
    let off = s.offset;
    let t = p.primitive_type;
    let len = p.length;
    let (absent, guard) = match present {
        Some(c) => (
            format!("if (!({c})) {{ return {{}}; }}"),
            format!("!({c}) || "),
        ),
        None => (String::new(), String::new()),
    };
    w.line(format!(
        "static constexpr std::size_t {name}_length = {len};"
    ));
    let bytes = format!(
        "sable::bytes_view {name}_bytes() const noexcept {{ {absent} return sable::bytes_view({base} + {off}, {len}); }}"
    );
    if t == PrimitiveType::Char {
        w.line(format!(
            "std::string_view {name}() const noexcept {{ {absent} return sable::detail::chars_to_nul({base} + {off}, {len}); }}"
        ));
        w.line(bytes);
        w.line(format!(
            "char {name}(std::size_t sbe_i) const noexcept {{ if ({guard}(SABLE_CHECKS && sbe_i >= {len})) {{ return 0; }} return static_cast<char>({base}[{off} + sbe_i]); }}"
        ));
        return;
    }
    let ty = ctype(t);
    let null = literal(t, &p.null_value);
    w.line(format!(
        "static constexpr {ty} {name}_null_value() noexcept {{ return {null}; }}"
    ));
    w.line(format!(
        "{ty} {name}(std::size_t sbe_i) const noexcept {{ if ({guard}(SABLE_CHECKS && sbe_i >= {len})) {{ return {null}; }} return {}; }}",
        load(t, p.byte_order, &format!("{base} + {off} + sbe_i * {}", t.size()))
    ));
    if matches!(t, PrimitiveType::UInt8 | PrimitiveType::Int8) {
        w.line(bytes);
    }
}

/// The setters of an array: char arrays from text (NUL-padded; longer text is an error), any
/// array by index (an index past the end is an error), uint8/int8 arrays from bytes.
fn array_setters(
    w: &mut CodeWriter,
    s: &Slot,
    p: &Primitive,
    base: &str,
    self_ty: &str,
    check: &dyn Fn(&str, &str) -> String,
) {
    let name = s.id();
    let off = s.offset;
    let t = p.primitive_type;
    let len = p.length;
    let index = check(&format!("sbe_i >= {len}"), "index_out_of_range");
    if t == PrimitiveType::Char {
        w.line(format!(
            "{self_ty} &{name}(std::string_view sbe_v) noexcept {{ {} sable::detail::put_chars({base} + {off}, {len}, sbe_v); return *this; }}",
            check(&format!("sbe_v.size() > {len}"), "text_too_long")
        ));
        w.line(format!(
            "{self_ty} &{name}(std::size_t sbe_i, char sbe_v) noexcept {{ {index} {base}[{off} + sbe_i] = static_cast<std::uint8_t>(sbe_v); return *this; }}"
        ));
        return;
    }
    w.line(format!(
        "{self_ty} &{name}(std::size_t sbe_i, {} sbe_v) noexcept {{ {index} {}; return *this; }}",
        ctype(t),
        store(
            t,
            p.byte_order,
            &format!("{base} + {off} + sbe_i * {}", t.size()),
            "sbe_v"
        )
    ));
    if matches!(t, PrimitiveType::UInt8 | PrimitiveType::Int8) {
        w.line(format!(
            "{self_ty} &{name}_bytes(const void *sbe_p, std::size_t sbe_n) noexcept {{ {} sable::detail::put_chars({base} + {off}, {len}, std::string_view(static_cast<const char *>(sbe_p), sbe_n)); return *this; }}",
            check(&format!("sbe_n > {len}"), "text_too_long")
        ));
    }
}

/// A C++ test that `v` lies outside the field's declared minValue..maxValue (an optional
/// field's null value is always accepted); None when the schema declares no narrower range.
fn range_test(s: &Slot, p: &Primitive, v: &str) -> Option<String> {
    let (min, max) = declared_range(p);
    let mut outside = Vec::new();
    if let Some(min) = min {
        outside.push(format!("{v} < {min}"));
    }
    if let Some(max) = max {
        outside.push(format!("{v} > {max}"));
    }
    if outside.is_empty() {
        return None;
    }
    let outside = outside.join(" || ");
    let float = matches!(
        p.primitive_type,
        PrimitiveType::Float | PrimitiveType::Double
    );
    Some(if s.optional && !float {
        format!(
            "{v} != {} && ({outside})",
            literal(p.primitive_type, &p.null_value)
        )
    } else {
        format!("({outside})")
    })
}

impl Gen<'_> {
    /// Getters of a slot read at `base` (a `const std::uint8_t *`); `present` is a C++ boolean
    /// expression telling whether the slot is on the wire, when that can be false.
    pub(crate) fn decoder_accessors(
        &self,
        w: &mut CodeWriter,
        s: &Slot,
        base: &str,
        present: Option<&str>,
    ) {
        let name = s.id();
        let off = s.offset;
        let absent = |fallback: &str| match present {
            Some(p) => format!("if (!({p})) {{ return {fallback}; }}"),
            None => String::new(),
        };
        doc(w, s.description);
        match s.type_ref {
            TypeRef::Primitive(p) if s.constant => constant_getter(w, &name, p),
            TypeRef::Primitive(p) if p.is_array() => array_getters(w, s, p, base, present),
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                let ty = ctype(t);
                let null = literal(t, &p.null_value);
                w.line(format!(
                    "static constexpr {ty} {name}_null_value() noexcept {{ return {null}; }}"
                ));
                w.line(format!(
                    "{ty} {name}() const noexcept {{ {} return {}; }}",
                    absent(&null),
                    load(t, p.byte_order, &format!("{base} + {off}"))
                ));
            }
            TypeRef::Enum(e) => {
                let et = self.schema.enum_type(e);
                let q = self.qualified(e);
                if s.constant {
                    let v = s.const_enum.unwrap_or("");
                    w.line(format!(
                        "static constexpr {q} {name}() noexcept {{ return {q}::{}; }}",
                        ident(v)
                    ));
                } else {
                    let null = format!(
                        "static_cast<{q}>({})",
                        literal(et.encoding_type, &et.null_value)
                    );
                    w.line(format!(
                        "{q} {name}() const noexcept {{ {} return static_cast<{q}>({}); }}",
                        absent(&null),
                        load(et.encoding_type, et.byte_order, &format!("{base} + {off}"))
                    ));
                }
            }
            TypeRef::Set(st) => {
                let set = self.schema.set_type(st);
                let q = self.qualified(st);
                w.line(format!(
                    "{q} {name}() const noexcept {{ {} return {q}({}); }}",
                    absent(&format!("{q}()")),
                    load(
                        set.encoding_type,
                        set.byte_order,
                        &format!("{base} + {off}")
                    )
                ));
            }
            TypeRef::Composite(c) => {
                let q = self.qualified(c);
                let nulls = if self.schema.composite(c).encoded_length > 0 {
                    format!("{q}::sbe_nulls")
                } else {
                    "sable::detail::zeros".to_string()
                };
                w.line(format!(
                    "{q}::Decoder {name}() const noexcept {{ {} return {q}::Decoder({base} + {off}); }}",
                    absent(&format!("{q}::Decoder({nulls})"))
                ));
            }
        }
    }

    /// Setters of a slot written at `base` (a `std::uint8_t *`), returning `self_ty &`. `fail`
    /// gives the statement recording an error of a kind (an `errc` name) for this slot;
    /// `composite_args` the arguments after the pointer of a composite field's encoder.
    pub(crate) fn encoder_accessors(
        &self,
        w: &mut CodeWriter,
        s: &Slot,
        base: &str,
        self_ty: &str,
        fail: &dyn Fn(&str) -> String,
        composite_args: &str,
    ) {
        if s.constant {
            return;
        }
        let name = s.id();
        let off = s.offset;
        let check = |test: &str, kind: &str| {
            format!(
                "if (SABLE_CHECKS && SABLE_UNLIKELY({test})) {{ {}; return *this; }}",
                fail(kind)
            )
        };
        match s.type_ref {
            TypeRef::Primitive(p) if p.is_array() => {
                array_setters(w, s, p, base, self_ty, &check);
            }
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                let range = range_test(s, p, "sbe_v")
                    .map(|test| check(&test, "value_out_of_range"))
                    .unwrap_or_default();
                w.line(format!(
                    "{self_ty} &{name}({} sbe_v) noexcept {{ {range}{}; return *this; }}",
                    ctype(t),
                    store(t, p.byte_order, &format!("{base} + {off}"), "sbe_v")
                ));
            }
            TypeRef::Enum(e) => {
                let et = self.schema.enum_type(e);
                let q = self.qualified(e);
                let ut = ctype(et.encoding_type);
                w.line(format!(
                    "{self_ty} &{name}({q} sbe_v) noexcept {{ {}; return *this; }}",
                    store(
                        et.encoding_type,
                        et.byte_order,
                        &format!("{base} + {off}"),
                        &format!("static_cast<{ut}>(sbe_v)")
                    )
                ));
            }
            TypeRef::Set(st) => {
                let set = self.schema.set_type(st);
                let q = self.qualified(st);
                w.line(format!(
                    "{self_ty} &{name}({q} sbe_v) noexcept {{ {}; return *this; }}",
                    store(
                        set.encoding_type,
                        set.byte_order,
                        &format!("{base} + {off}"),
                        "sbe_v.raw()"
                    )
                ));
            }
            TypeRef::Composite(c) => {
                let q = self.qualified(c);
                w.line(format!(
                    "{q}::Encoder {name}() noexcept {{ return {q}::Encoder({base} + {off}, {composite_args}); }}"
                ));
            }
        }
    }

    /// Statements printing the slot's value as JSON (the slot is on the wire).
    pub(crate) fn json_slot(&self, w: &mut CodeWriter, s: &Slot, base: &str) {
        let name = s.id();
        let off = s.offset;
        match s.type_ref {
            TypeRef::Primitive(p) if s.constant => match &p.const_value {
                Some(PrimitiveValue::Bytes { bytes, .. }) if bytes.len() != 1 || p.length > 1 => {
                    w.line(format!(
                        "sable::detail::json::chars(os, reinterpret_cast<const std::uint8_t *>({}), {}, {});",
                        string_literal(bytes),
                        bytes.len(),
                        s.utf8
                    ));
                }
                _ => json_scalar(w, p.primitive_type, &format!("{name}()"), s.utf8),
            },
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                if !p.is_array() {
                    w.line(format!("const {} sbe_v = {name}();", ctype(t)));
                    if s.optional {
                        w.line(format!(
                            "if ({}) {{ sable::detail::json::raw(os, \"null\"); }} else {{",
                            is_null(p, "sbe_v")
                        ));
                        w.indent();
                        json_scalar(w, t, "sbe_v", s.utf8);
                        w.close("}");
                    } else {
                        json_scalar(w, t, "sbe_v", s.utf8);
                    }
                } else if t == PrimitiveType::Char {
                    w.line(format!(
                        "sable::detail::json::chars(os, {base} + {off}, {}, {});",
                        p.length, s.utf8
                    ));
                } else if matches!(t, PrimitiveType::UInt8 | PrimitiveType::Int8) {
                    w.line(format!(
                        "sable::detail::json::hex_string(os, {base} + {off}, {});",
                        p.length
                    ));
                } else {
                    w.line("os.put('[');");
                    w.open(format!(
                        "for (std::size_t sbe_i = 0; sbe_i < {}; ++sbe_i) {{",
                        p.length
                    ));
                    w.line("if (sbe_i != 0) { os.put(','); }");
                    json_scalar(w, t, &format!("{name}(sbe_i)"), false);
                    w.close("}");
                    w.line("os.put(']');");
                }
            }
            TypeRef::Enum(_) => {
                w.line(format!("::{}::sbe_write_json(os, {name}());", self.ns));
            }
            TypeRef::Set(_) => {
                w.line(format!("::{}::sbe_write_json(os, {name}());", self.ns));
            }
            TypeRef::Composite(_) => {
                w.line(format!("{name}().sbe_json(os);"));
            }
        }
    }

    pub(crate) fn enum_type(&self, w: &mut CodeWriter, e: &EnumType) {
        let name = ident(&e.name);
        let ut = ctype(e.encoding_type);
        doc(w, e.description.as_deref());
        w.open(format!("enum class {name} : {ut} {{"));
        for v in &e.values {
            doc(w, v.description.as_deref());
            w.line(format!(
                "{} = {},",
                ident(&v.name),
                literal(e.encoding_type, &v.value)
            ));
        }
        w.close("};");
        let null = literal(e.encoding_type, &e.null_value);
        w.line(format!(
            "inline constexpr {name} {name}_null_value = static_cast<{name}>({null});"
        ));
        // Distinct values, first name wins.
        let mut seen = Vec::new();
        let values: Vec<_> = e
            .values
            .iter()
            .filter(|v| {
                let k = v.value.as_i128();
                if seen.contains(&k) {
                    false
                } else {
                    seen.push(k);
                    true
                }
            })
            .collect();
        w.line("/* The value's name in the schema, or nullptr for a value with no name. */");
        w.open(format!(
            "inline constexpr const char *sbe_name({name} sbe_v) noexcept {{"
        ));
        w.line("switch (sbe_v) {");
        for v in &values {
            w.line(format!(
                "case {name}::{}: return {};",
                ident(&v.name),
                string_literal(v.name.as_bytes())
            ));
        }
        w.line("default: return nullptr;");
        w.line("}");
        w.close("}");
        w.open(format!(
            "inline void sbe_write_json(std::ostream &os, {name} sbe_v) {{"
        ));
        // Any enum's null value is `null`, required or not: the IR does not keep whether the
        // encoding type is optional (docs/json.md).
        w.line(format!(
            "if (sbe_v == {name}_null_value) {{ sable::detail::json::raw(os, \"null\"); return; }}"
        ));
        w.line("const char *sbe_n = sbe_name(sbe_v);");
        w.line("if (sbe_n != nullptr) { os.put('\"'); sable::detail::json::raw(os, sbe_n); os.put('\"'); return; }");
        w.line("sable::detail::json::raw(os, \"{\\\"unknown\\\":\");");
        let cast = match e.encoding_type {
            PrimitiveType::Char => {
                "sable::detail::json::uint(os, static_cast<unsigned char>(sbe_v));".to_owned()
            }
            t if names::signed(t) => {
                "sable::detail::json::sint(os, static_cast<std::int64_t>(sbe_v));".to_owned()
            }
            _ => "sable::detail::json::uint(os, static_cast<std::uint64_t>(sbe_v));".to_owned(),
        };
        w.line(cast);
        w.line("os.put('}');");
        w.close("}");
    }

    pub(crate) fn set_type(&self, w: &mut CodeWriter, s: &SetType) {
        let name = ident(&s.name);
        let ut = ctype(s.encoding_type);
        let bits = s.encoding_type.size() * 8;
        doc(w, s.description.as_deref());
        w.line("/* A set of choices over its bits (a value type: get and set choices by name). */");
        w.open(format!("class {name} {{"));
        w.line("public:");
        w.line(format!("using value_type = {ut};"));
        w.line(format!("constexpr {name}() noexcept = default;"));
        w.line(format!(
            "constexpr explicit {name}({ut} sbe_bits) noexcept : bits_(sbe_bits) {{}}"
        ));
        w.line(format!(
            "constexpr {ut} raw() const noexcept {{ return bits_; }}"
        ));
        w.line(format!(
            "constexpr {name} &clear() noexcept {{ bits_ = 0; return *this; }}"
        ));
        for c in &s.choices {
            let cn = ident(&c.name);
            let b = c.bit;
            doc(w, c.description.as_deref());
            w.line(format!("static constexpr unsigned {cn}_bit = {b};"));
            w.line(format!(
                "constexpr bool {cn}() const noexcept {{ return ((static_cast<std::uint64_t>(bits_) >> {b}) & 1u) != 0; }}"
            ));
            w.line(format!(
                "constexpr {name} &{cn}(bool sbe_on) noexcept {{ bits_ = static_cast<{ut}>(sbe_on ? (static_cast<std::uint64_t>(bits_) | (std::uint64_t{{1}} << {b})) : (static_cast<std::uint64_t>(bits_) & ~(std::uint64_t{{1}} << {b}))); return *this; }}"
            ));
        }
        w.line(format!(
            "friend bool operator==({name} sbe_a, {name} sbe_b) noexcept {{ return sbe_a.bits_ == sbe_b.bits_; }}"
        ));
        w.line(format!(
            "friend bool operator!=({name} sbe_a, {name} sbe_b) noexcept {{ return sbe_a.bits_ != sbe_b.bits_; }}"
        ));
        w.line("private:");
        w.line(format!("{ut} bits_ = 0;"));
        w.close("};");
        let known: u64 = s
            .choices
            .iter()
            .filter(|c| (c.bit as usize) < bits)
            .fold(0, |m, c| m | (1u64 << c.bit));
        w.open(format!(
            "inline void sbe_write_json(std::ostream &os, {name} sbe_v) {{"
        ));
        w.line("const std::uint64_t sbe_bits = static_cast<std::uint64_t>(sbe_v.raw());");
        w.line("bool sbe_first = true;");
        w.line("os.put('[');");
        for c in &s.choices {
            w.line(format!(
                "if (((sbe_bits >> {}) & 1u) != 0) {{ if (!sbe_first) {{ os.put(','); }} sbe_first = false; sable::detail::json::raw(os, {}); }}",
                c.bit,
                string_literal(format!("\"{}\"", c.name).as_bytes())
            ));
        }
        w.line(format!(
            "const std::uint64_t sbe_unknown = sbe_bits & ~std::uint64_t{{{known}u}};"
        ));
        w.open(format!(
            "for (unsigned sbe_b = 0; sbe_b < {bits}; ++sbe_b) {{"
        ));
        w.line("if (((sbe_unknown >> sbe_b) & 1u) != 0) { if (!sbe_first) { os.put(','); } sbe_first = false; sable::detail::json::uint(os, sbe_b); }");
        w.close("}");
        w.line("os.put(']');");
        w.close("}");
    }

    /// The error paths of composite `name`'s members under `prefix` (`fields.engine`), depth
    /// first: each member, then a nested composite's own members (`fields.engine.booster`,
    /// `fields.engine.booster.horsePower`), as `sable encode` names them.
    pub(crate) fn member_paths(&self, name: &str, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        for m in &self.schema.composite(name).members {
            let p = format!("{prefix}.{}", m.name);
            out.push(p.clone());
            if let TypeRef::Composite(n) = &m.type_ref {
                out.extend(self.member_paths(n, &p));
            }
        }
        out
    }

    pub(crate) fn composite(&self, w: &mut CodeWriter, c: &Composite) {
        let name = ident(&c.name);
        let len = c.encoded_length.max(0);
        doc(w, c.description.as_deref());
        w.open(format!("struct {name} {{"));
        w.line(format!(
            "static constexpr std::size_t encoded_length = {len};"
        ));
        if len > 0 {
            let bytes: Vec<String> = self
                .schema
                .composite_null(c)
                .iter()
                .map(|b| format!("0x{b:02x}"))
                .collect();
            w.line("/* The composite's bytes when it is absent (newer than the acting version, or beyond an older writer's block): each member's null value, no choice of a set, padding zero. */");
            w.line(format!(
                "static constexpr std::uint8_t sbe_nulls[{len}] = {{{}}};",
                bytes.join(", ")
            ));
        }
        let slots: Vec<Slot> = c.members.iter().map(Slot::from_member).collect();
        // Decoder
        w.line("/* A read-only view of the composite. */");
        w.open("class Decoder {");
        w.line("public:");
        w.line("explicit Decoder(const std::uint8_t *sbe_p) noexcept : p_(sbe_p) {}");
        w.line("const std::uint8_t *sbe_buffer() const noexcept { return p_; }");
        for s in &slots {
            self.decoder_accessors(w, s, "p_", None);
        }
        w.open("void sbe_json(std::ostream &os) const {");
        w.line("os.put('{');");
        for (i, s) in slots.iter().enumerate() {
            let key = format!("{}\"{}\":", if i == 0 { "" } else { "," }, s.name);
            w.line(format!(
                "sable::detail::json::raw(os, {});",
                string_literal(key.as_bytes())
            ));
            w.open("{");
            self.json_slot(w, s, "p_");
            w.close("}");
        }
        w.line("os.put('}');");
        w.close("}");
        w.line("private:");
        w.line("const std::uint8_t *p_;");
        w.close("};");
        // Encoder
        w.line("/* A writer of the composite in place. A composite field's encoder reports its errors to its message's encoder; one made on its own keeps them (error()). */");
        w.open("class Encoder {");
        w.line("public:");
        w.line("explicit Encoder(std::uint8_t *sbe_p) noexcept : p_(sbe_p) {}");
        w.line("/* One reporting to an encoder: its members' paths are paths[0..] (member_paths()'s order). */");
        w.line("Encoder(std::uint8_t *sbe_p, sbe_estate *sbe_s, const char *const *sbe_paths, std::size_t sbe_entries, std::uint64_t sbe_index) noexcept : p_(sbe_p), s_(sbe_s), paths_(sbe_paths), entries_(sbe_entries), index_(sbe_index) {}");
        w.line("sable::errc error() const noexcept { return s_ != nullptr ? s_->err : err_; }");
        let mut slot = 0;
        for (s, m) in slots.iter().zip(&c.members) {
            doc(w, s.description);
            let k = slot;
            self.encoder_accessors(
                w,
                s,
                "p_",
                "Encoder",
                &|kind| format!("sbe_fail(sable::errc::{kind}, {k})"),
                &format!(
                    "s_, paths_ == nullptr ? nullptr : paths_ + {}, entries_, index_",
                    k + 1
                ),
            );
            slot += 1;
            if let TypeRef::Composite(n) = &m.type_ref {
                slot += self.member_paths(n, "").len();
            }
        }
        w.line("private:");
        w.open("void sbe_fail(sable::errc sbe_e, std::size_t sbe_k) noexcept {");
        w.line("if (s_ != nullptr) { s_->fail(sbe_e, paths_[sbe_k], entries_, index_); } else if (err_ == sable::errc::ok) { err_ = sbe_e; }");
        w.close("}");
        w.line("std::uint8_t *p_;");
        w.line("sbe_estate *s_ = nullptr;");
        w.line("const char *const *paths_ = nullptr;");
        w.line("std::size_t entries_ = 0;");
        w.line("std::uint64_t index_ = 0;");
        w.line("sable::errc err_ = sable::errc::ok;");
        w.close("};");
        w.close("};");
    }
}

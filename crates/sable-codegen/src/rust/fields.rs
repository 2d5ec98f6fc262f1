//! Fixed-size elements (fields of a block, members of a composite): their getters and setters.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Gen<'_> {
    /// Member `m` of a composite of `len` bytes, as a slot (`path`: its [`Slot::path`]).
    pub(super) fn member_slot<'m>(&'m self, m: &'m Member, len: usize, path: String) -> Slot<'m> {
        let kind = self.kind(&m.type_ref);
        Slot {
            name: &m.name,
            desc: m.description.as_deref(),
            presence: member_presence(m, &kind),
            kind,
            const_enum: None,
            off: m.offset,
            since: m.since_version,
            slice: "buf",
            full: len,
            path,
        }
    }

    /// Getter(s) for a fixed-size element (`slot`). Returns (getter code, JSON code).
    pub(super) fn getter(&self, slot: &Slot<'_>) -> (String, String) {
        let Slot {
            name,
            desc,
            ref kind,
            presence,
            off,
            since,
            slice,
            full,
            ..
        } = *slot;
        let m = method(name);
        let mut o = String::new();
        let d = doc(desc);
        let end = off + self.kind_size(kind, presence);
        let present = present_cond(&format!("self.{slice}"), "self.version", since, end);
        let sl = format!("self.{slice}");
        let key = json_str(name);
        let json = match kind {
            Kind::Prim(p) => {
                let t = rtype(p.primitive_type);
                let u = upper(name);
                if presence == Presence::Constant || p.is_constant() {
                    return self.const_getter(slot, p);
                }
                let null = lit(&p.null_value, p.primitive_type);
                let _ = writeln!(
                    o,
                    "\n/// The null value of `{name}`.\npub const {u}_NULL: {t} = {null};"
                );
                let _ = writeln!(
                    o,
                    "/// The minimum value of `{name}`.\npub const {u}_MIN: {t} = {};",
                    lit(&p.min_value, p.primitive_type)
                );
                let _ = writeln!(
                    o,
                    "/// The maximum value of `{name}`.\npub const {u}_MAX: {t} = {};",
                    lit(&p.max_value, p.primitive_type)
                );
                if p.is_array() {
                    self.array_getter(slot, p, &mut o)
                } else {
                    self.scalar_getter(slot, p, &mut o)
                }
            }
            Kind::Enum(e) => {
                if presence == Presence::Constant {
                    return const_enum_getter(slot, e);
                }
                enum_getter(slot, e, &mut o)
            }
            Kind::Set(st) => {
                let sn = camel(&st.name);
                let raw = slot.read(st.encoding_type, st.byte_order);
                let _ = writeln!(o, "\n{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {sn} {{\n{sn}::from_bits(({raw}).unwrap_or(0))\n}}");
                format!("write!(f, \"{{}}\", self.{m}())?;")
            }
            Kind::Comp(c) => {
                let cn = format!("{}Decoder", camel(&c.name));
                // The block's full size when it holds the composite (it does at the schema's
                // version), so that the test is the one the block's other reads share.
                let full = full.max(off + c.encoded_length.max(0) as usize);
                let slice = if since > 0 {
                    format!("if self.version < {since} {{\n&[]\n}} else {{\nsbe_support::from::<{full}>({sl}, {off})\n}}")
                } else {
                    format!("sbe_support::from::<{full}>({sl}, {off})")
                };
                let _ = writeln!(o, "\n{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {cn}<'a> {{\n{cn}::wrap({slice}, self.version)\n}}");
                format!("write!(f, \"{{}}\", self.{m}())?;")
            }
        };
        let body = match present {
            Some(c) => format!("if {c} {{\n{json}\n}} else {{\nf.write_str(\"null\")?;\n}}"),
            None => json,
        };
        (o, format!("{}{body}", ws(&format!("{key}:"))))
    }

    /// The getter of a primitive that is neither an array nor a constant (`slot`), into `o`;
    /// the JSON value's statements.
    fn scalar_getter(&self, slot: &Slot<'_>, p: &Primitive, o: &mut String) -> String {
        let (name, presence) = (slot.name, slot.presence);
        let (m, d, u, t) = (
            method(name),
            doc(slot.desc),
            upper(name),
            rtype(p.primitive_type),
        );
        let utf8 = is_utf8(p.character_encoding.as_deref());
        let raw = slot.read(p.primitive_type, p.byte_order);
        let optional = presence == Presence::Optional || p.presence == Presence::Optional;
        if optional {
            let filt =
                if is_float(p.primitive_type) && p.null_value.as_f64().is_some_and(f64::is_nan) {
                    ".filter(|v| !v.is_nan())".to_owned()
                } else {
                    format!(".filter(|v| *v != Self::{u}_NULL)")
                };
            let _ = writeln!(o, "\n{d}///\n/// `None` for the null value (or when absent at the acting version).\n#[must_use]\n#[inline]\npub fn {m}(&self) -> Option<{t}> {{\n({raw}){filt}\n}}");
            let item = if p.primitive_type == PrimitiveType::Char {
                format!("sbe_support::w_chars(f, &[v], {utf8})?;")
            } else {
                self.num_json("v", p.primitive_type)
            };
            format!("match self.{m}() {{\nSome(v) => {{\n{item}\n}}\nNone => f.write_str(\"null\")?,\n}}")
        } else {
            let _ = writeln!(o, "\n{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {t} {{\n({raw}).unwrap_or(Self::{u}_NULL)\n}}");
            if p.primitive_type == PrimitiveType::Char {
                format!("sbe_support::w_chars(f, &[self.{m}()], {utf8})?;")
            } else {
                let v = format!("self.{m}()");
                self.num_json(&v, p.primitive_type)
            }
        }
    }

    /// The getter of a constant primitive (`slot`), and its JSON member's statements.
    fn const_getter(&self, slot: &Slot<'_>, p: &Primitive) -> (String, String) {
        let (name, since) = (slot.name, slot.since);
        let (m, d, u, t) = (
            method(name),
            doc(slot.desc),
            upper(name),
            rtype(p.primitive_type),
        );
        let sl = format!("self.{}", slot.slice);
        let key = json_str(name);
        let mut o = String::new();
        let cv = p.const_value.clone().unwrap_or(PrimitiveValue::Int(0));
        let cname = format!("{u}_VALUE");
        match &cv {
            PrimitiveValue::Bytes { bytes, .. } if p.primitive_type == PrimitiveType::Char => {
                let _ = writeln!(
                    o,
                    "\n/// The constant value of `{name}`.\npub const {cname}: &'static [u8] = {};",
                    bytes_lit(bytes)
                );
                let _ = writeln!(o, "\n{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> &'static [u8] {{\nSelf::{cname}\n}}");
            }
            _ => {
                let _ = writeln!(
                    o,
                    "\n/// The constant value of `{name}`.\npub const {cname}: {t} = {};",
                    lit(&cv, p.primitive_type)
                );
                let _ = writeln!(
                    o,
                    "\n{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {t} {{\nSelf::{cname}\n}}"
                );
            }
        }
        let val = const_json(p, &cv);
        let json = match present_cond(&sl, "self.version", since, 0) {
            Some(c) => format!("if {c} {{\n{}}} else {{\n{}}}", ws(&val), ws("null")),
            None => ws(&val),
        };
        (o, format!("{}{json}", ws(&format!("{key}:"))))
    }

    /// The getters of an array primitive (`slot`), into `o`; the JSON value's statements.
    fn array_getter(&self, slot: &Slot<'_>, p: &Primitive, o: &mut String) -> String {
        let (name, since, slice, full, off, path) = (
            slot.name, slot.since, slot.slice, slot.full, slot.off, &slot.path,
        );
        let (m, d, u, t) = (
            method(name),
            doc(slot.desc),
            upper(name),
            rtype(p.primitive_type),
        );
        let sl = format!("self.{slice}");
        let null = lit(&p.null_value, p.primitive_type);
        let utf8 = is_utf8(p.character_encoding.as_deref());
        let gate = |expr: String, absent: &str| gate(since, expr, absent);
        let json;
        let n = p.length;
        let _ = writeln!(
            o,
            "\n/// The number of elements of `{name}`.\npub const {u}_LENGTH: usize = {n};"
        );
        if p.primitive_type == PrimitiveType::Char {
            let expr = gate(array_ref(slice, &sl, full, n, off), "None");
            let raw = format!("{}_raw", snake(name));
            let _ = writeln!(o, "\n{d}///\n/// The text: the bytes before the first NUL (all {n} when there is none).\n#[must_use]\n#[inline]\npub fn {m}(&self) -> &'a [u8] {{\nsbe_support::until_nul(self.{raw}())\n}}");
            let _ = writeln!(o, "\n/// All {n} bytes of `{name}`, its NUL padding included.\n#[must_use]\n#[inline]\npub fn {raw}(&self) -> &'a [u8; {n}] {{\n({expr}).unwrap_or(&[0; {n}])\n}}");
            let _ = writeln!(o, "\n/// `{name}` as text, up to the first NUL (UTF-8 checked, or ASCII for one-byte encodings).\n///\n/// # Errors\n///\n/// Text not valid as `&str` (`InvalidText`).\n#[inline]\npub fn {}_str(&self) -> Result<&'a str, DecodeError> {{\nsbe_support::text(self.{m}(), {utf8}, {off}, {path})\n}}", snake(name));
            json = format!("sbe_support::w_chars(f, self.{raw}(), {utf8})?;");
        } else if p.primitive_type == PrimitiveType::UInt8 {
            let expr = gate(array_ref(slice, &sl, full, n, off), "None");
            let _ = writeln!(o, "\n{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> &'a [u8; {n}] {{\n({expr}).unwrap_or(&[0; {n}])\n}}");
            {
                json = format!("sbe_support::w_hex(f, self.{m}())?;");
            }
        } else {
            let sz = p.primitive_type.size();
            let mut body = format!(
                    "let mut out = [{null}; {n}];\nif let Some(b) = {} {{\nfor (v, c) in out.iter_mut().zip(b.chunks_exact({sz})) {{\nif let Ok(a) = c.try_into() {{\n*v = {}(a);\n}}\n}}\n}}\nout",
                    array_ref(slice, &sl, full, n * sz, off), from_bytes(p.primitive_type, p.byte_order)
                );
            if since > 0 {
                body = format!("if self.version < {since} {{\nreturn [{null}; {n}];\n}}\n{body}");
            }
            let _ = writeln!(
                o,
                "\n{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> [{t}; {n}] {{\n{body}\n}}"
            );
            json = if p.primitive_type == PrimitiveType::Int8 {
                format!("let a = self.{m}();\nlet mut b = [0u8; {n}];\nfor (d, s) in b.iter_mut().zip(a) {{\n*d = s.to_le_bytes()[0];\n}}\nsbe_support::w_hex(f, &b)?;")
            } else {
                let item = self.num_json("*v", p.primitive_type);
                format!("f.write_str(\"[\")?;\nfor (i, v) in self.{m}().iter().enumerate() {{\nif i > 0 {{\nf.write_str(\",\")?;\n}}\n{item}\n}}\nf.write_str(\"]\")?;")
            }
        }
        json
    }

    pub(super) fn num_json(&self, v: &str, p: PrimitiveType) -> String {
        match p {
            PrimitiveType::Float => format!("sbe_support::w_f32(f, {v})?;"),
            PrimitiveType::Double => format!("sbe_support::w_f64(f, {v})?;"),
            _ => format!("write!(f, \"{{}}\", {v})?;"),
        }
    }

    pub(super) fn kind_size(&self, kind: &Kind<'_>, presence: Presence) -> usize {
        if presence == Presence::Constant {
            return 0;
        }
        match kind {
            Kind::Prim(p) => p.size(),
            Kind::Enum(e) => e.encoding_type.size(),
            Kind::Set(s) => s.encoding_type.size(),
            Kind::Comp(c) => c.encoded_length.max(0) as usize,
        }
    }

    /// Setter(s) for a fixed-size element (`slot`) at `base + slot.off` of `self.buf`;
    /// `lifetime_ret`: the lifetime of a composite encoder returned.
    pub(super) fn setter(&self, slot: &Slot<'_>, base: &str, lifetime_ret: &str) -> String {
        let m = method(slot.name);
        let d = doc(slot.desc);
        let at = add(base, slot.off);
        let path = &slot.path;
        // A composite encoder writes into the composite's bytes; its errors' offsets are
        // from the start of the message, the composite's at `self.at`.
        let in_composite = slot.slice == "buf";
        let (moved, err_at, comp_at) = if in_composite {
            (
                ".map_err(|e| sbe_support::moved(e, self.at))",
                add("self.at", slot.off),
                "self.at + at",
            )
        } else {
            ("", at.clone(), "at")
        };
        let mut o = String::from("\n");
        match slot.kind {
            Kind::Prim(p) => {
                if slot.presence == Presence::Constant || p.is_constant() {
                    return o;
                }
                let t = rtype(p.primitive_type);
                if p.is_array() {
                    let n = p.length;
                    let sz = p.primitive_type.size();
                    if p.primitive_type == PrimitiveType::Char {
                        let _ = writeln!(o, "{d}///\n/// A shorter value is padded with NUL.\n///\n/// # Errors\n///\n/// `TextTooLong`: longer than the array's {n} bytes (nothing written).\n#[inline]\npub fn {m}(&mut self, value: &[u8]) -> Result<&mut Self, EncodeError> {{\nsbe_support::put_padded(self.buf, {at}, {n}, value, {path}){moved}?;\nOk(self)\n}}");
                    } else if p.primitive_type == PrimitiveType::UInt8 {
                        let _ = writeln!(o, "{d}#[inline]\npub fn {m}(&mut self, value: &[u8; {n}]) -> &mut Self {{\nsbe_support::put(self.buf, {at}, *value);\nself\n}}");
                    } else {
                        let tb = to_bytes(p.byte_order);
                        let _ = writeln!(o, "{d}#[inline]\npub fn {m}(&mut self, value: &[{t}; {n}]) -> &mut Self {{\nlet mut b = [0u8; {}];\nfor (c, v) in b.chunks_exact_mut({sz}).zip(value) {{\nc.copy_from_slice(&v.{tb}());\n}}\nsbe_support::put(self.buf, {at}, b);\nself\n}}", n * sz);
                    }
                    let w = write("self.buf", "at", "value", p.byte_order);
                    let _ = writeln!(o, "\n/// Writes element `index` of `{}`.\n///\n/// # Errors\n///\n/// `IndexOutOfRange`: `index` not below {n}.\n#[inline]\npub fn {}_at(&mut self, index: usize, value: {t}) -> Result<&mut Self, EncodeError> {{\nlet at = sbe_support::element({at}, index, {n}, {sz}, {path}){moved}?;\n{w}\nOk(self)\n}}", slot.name, m.trim_end_matches('_'));
                    return o;
                }
                let optional =
                    slot.presence == Presence::Optional || p.presence == Presence::Optional;
                let check = p.range_declared.then(|| {
                    let (min, max) = (lit(&p.min_value, p.primitive_type), lit(&p.max_value, p.primitive_type));
                    format!("if !({min}..={max}).contains(&v) {{\nreturn Err(sbe_support::out_of_range({err_at}, {path}));\n}}")
                });
                let (arg, value, null_doc) = if optional {
                    let null = lit(&p.null_value, p.primitive_type);
                    (
                        format!("Option<{t}>"),
                        format!("value.unwrap_or({null})"),
                        "///\n/// `None` writes the null value.\n",
                    )
                } else {
                    (t.to_owned(), "value".to_owned(), "")
                };
                let w = write("self.buf", &at, &value, p.byte_order);
                match check {
                    Some(check) => {
                        let test = if optional {
                            format!("if let Some(v) = value {{\n{check}\n}}")
                        } else {
                            format!("let v = value;\n{check}")
                        };
                        let (min, max) = (
                            lit(&p.min_value, p.primitive_type),
                            lit(&p.max_value, p.primitive_type),
                        );
                        let _ = writeln!(o, "{d}{null_doc}///\n/// # Errors\n///\n/// `ValueOutOfRange`: outside the declared {min}..={max} (nothing written).\n#[inline]\npub fn {m}(&mut self, value: {arg}) -> Result<&mut Self, EncodeError> {{\n{test}\n{w}\nOk(self)\n}}");
                    }
                    None => {
                        let _ = writeln!(o, "{d}{null_doc}#[inline]\npub fn {m}(&mut self, value: {arg}) -> &mut Self {{\n{w}\nself\n}}");
                    }
                }
            }
            Kind::Enum(e) => {
                if slot.presence == Presence::Constant {
                    return o;
                }
                let en = camel(&e.name);
                if slot.presence == Presence::Optional {
                    let w = write(
                        "self.buf",
                        &at,
                        &format!("value.map_or({en}::NULL_VALUE, {en}::raw)"),
                        e.byte_order,
                    );
                    let _ = writeln!(o, "{d}///\n/// `None` writes the null value.\n#[inline]\npub fn {m}(&mut self, value: Option<{en}>) -> &mut Self {{\n{w}\nself\n}}");
                } else {
                    let w = write("self.buf", &at, "value.raw()", e.byte_order);
                    let _ = writeln!(o, "{d}#[inline]\npub fn {m}(&mut self, value: {en}) -> &mut Self {{\n{w}\nself\n}}");
                }
            }
            Kind::Set(st) => {
                let sn = camel(&st.name);
                let w = write("self.buf", &at, "value.bits()", st.byte_order);
                let _ = writeln!(
                    o,
                    "{d}#[inline]\npub fn {m}(&mut self, value: {sn}) -> &mut Self {{\n{w}\nself\n}}"
                );
            }
            Kind::Comp(c) => {
                let cn = format!("{}Encoder", camel(&c.name));
                let len = c.encoded_length.max(0) as usize;
                let _ = writeln!(o, "{d}#[inline]\npub fn {m}(&mut self) -> {cn}<{lifetime_ret}> {{\nlet at = {at};\n{cn}::wrap_at(self.buf.get_mut(at..at + {len}).unwrap_or_default(), {comp_at}, {path})\n}}");
            }
        }
        o
    }
}

/// A fixed-size element to read or write: a field of a block or a member of a composite.
pub(super) struct Slot<'s> {
    /// Its name in the schema.
    pub(super) name: &'s str,
    pub(super) desc: Option<&'s str>,
    pub(super) kind: Kind<'s>,
    pub(super) presence: Presence,
    /// A constant enum field's value name.
    pub(super) const_enum: Option<&'s str>,
    /// Its offset in the block or composite.
    pub(super) off: usize,
    pub(super) since: i32,
    /// The decoder's slice holding it: `block` (a message's or an entry's) or `buf` (a
    /// composite's).
    pub(super) slice: &'static str,
    /// The block's or composite's size at the schema's version.
    pub(super) full: usize,
    /// The Rust expression of its [`FieldPath`] for errors: `FieldPath::new("fields.vehicleCode")`,
    /// in an entry encoder `...with_indices(self.idx)`, in a composite encoder
    /// `self.path.member("name")`.
    pub(super) path: String,
}

/// What a fixed-size element holds, resolved.
#[derive(Clone, Copy)]
pub(super) enum Kind<'s> {
    Prim(&'s Primitive),
    Enum(&'s EnumType),
    Set(&'s SetType),
    Comp(&'s Composite),
}

/// Static metadata of a field, as associated consts.
pub(super) fn field_meta(fd: &Field) -> String {
    let u = upper(&fd.name);
    let mut o = String::new();
    let _ = writeln!(o, "\n/// The id of field `{}`.\npub const {u}_ID: u16 = {};\n/// The version field `{}` appeared in.\npub const {u}_SINCE_VERSION: u16 = {};\n/// The offset of field `{}` in the block.\npub const {u}_OFFSET: usize = {};\n/// The size of field `{}` in bytes (0 for a constant).\npub const {u}_ENCODED_LENGTH: usize = {};",
        fd.name, fd.id.max(0), fd.name, fd.since_version.max(0), fd.name, fd.offset, fd.name, fd.size);
    for (what, v) in [
        ("SEMANTIC_TYPE", &fd.meta.semantic_type),
        ("EPOCH", &fd.meta.epoch),
        ("TIME_UNIT", &fd.meta.time_unit),
        ("CHARACTER_ENCODING", &fd.meta.character_encoding),
    ] {
        if let Some(v) = v {
            let _ = writeln!(
                o,
                "/// The {} of field `{}`.\npub const {u}_{what}: &'static str = {};",
                what.to_lowercase().replace('_', " "),
                fd.name,
                str_lit(v)
            );
        }
    }
    o
}

/// A composite member's presence, as a field's.
pub(super) fn member_presence(m: &Member, kind: &Kind<'_>) -> Presence {
    match kind {
        Kind::Prim(p) if p.is_constant() => Presence::Constant,
        Kind::Prim(p) => p.presence,
        _ => m.presence,
    }
}

impl Slot<'_> {
    /// An expression of `Option<T>`: the slot's value read as `ty`, `None` when absent at the
    /// acting version.
    fn read(&self, ty: PrimitiveType, order: ByteOrder) -> String {
        let at = read(
            &format!("self.{}", self.slice),
            &self.off.to_string(),
            ty,
            order,
            self.full,
        );
        gate(self.since, at, "None")
    }
}

/// `expr`, or `absent` when the acting version is older than `since` (a field added later).
fn gate(since: i32, expr: String, absent: &str) -> String {
    if since > 0 {
        format!("if self.version < {since} {{\n{absent}\n}} else {{\n{expr}\n}}")
    } else {
        expr
    }
}

/// The getter of a constant enum field (`slot`), and its JSON member's statements.
fn const_enum_getter(slot: &Slot<'_>, e: &EnumType) -> (String, String) {
    let name = slot.name;
    let (m, d, u, en) = (method(name), doc(slot.desc), upper(name), camel(&e.name));
    let vname = slot.const_enum.unwrap_or("");
    let var = e
        .values
        .iter()
        .find(|v| v.name == vname)
        .map(|v| lit(&v.value, e.encoding_type))
        .unwrap_or_else(|| "0".into());
    let mut o = String::new();
    let _ = writeln!(
        o,
        "\n/// The constant value of `{name}`.\npub const {u}_VALUE: {en} = {en}::from_raw({var});"
    );
    let _ = writeln!(
        o,
        "\n{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {en} {{\nSelf::{u}_VALUE\n}}"
    );
    let val = json_str(vname);
    let sl = format!("self.{}", slot.slice);
    let json = match present_cond(&sl, "self.version", slot.since, 0) {
        Some(c) => format!("if {c} {{\n{}}} else {{\n{}}}", ws(&val), ws("null")),
        None => ws(&val),
    };
    (o, format!("{}{json}", ws(&format!("{}:", json_str(name)))))
}

/// The getter of an enum field that is not constant (`slot`), into `o`; the JSON value's
/// statements.
fn enum_getter(slot: &Slot<'_>, e: &EnumType, o: &mut String) -> String {
    let (m, d, en) = (method(slot.name), doc(slot.desc), camel(&e.name));
    let raw = slot.read(e.encoding_type, e.byte_order);
    if slot.presence == Presence::Optional {
        let _ = writeln!(o, "\n{d}///\n/// `None` for the null value (or when absent at the acting version).\n#[must_use]\n#[inline]\npub fn {m}(&self) -> Option<{en}> {{\n({raw})\n.filter(|v| *v != {en}::NULL_VALUE)\n.map({en}::from_raw)\n}}");
        format!("match self.{m}() {{\nSome(v) => write!(f, \"{{v}}\")?,\nNone => f.write_str(\"null\")?,\n}}")
    } else {
        let _ = writeln!(o, "\n{d}#[must_use]\n#[inline]\npub fn {m}(&self) -> {en} {{\n{en}::from_raw(({raw}).unwrap_or({en}::NULL_VALUE))\n}}");
        // Any enum's null value is `null`, required or not: the IR does not keep whether the
        // encoding type is optional (docs/json.md).
        format!("match self.{m}() {{\nv if v.raw() == {en}::NULL_VALUE => f.write_str(\"null\")?,\nv => write!(f, \"{{v}}\")?,\n}}")
    }
}

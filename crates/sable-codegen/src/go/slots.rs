//! Fixed-size elements (fields of a block, members of a composite): their getters, setters and
//! JSON. Every decoder reads its block from `d.block`, a `*[N]byte` of the schema's length (an
//! older writer's shorter block is read from a copy, its missing fields null: see
//! `Gen::null_block`), at acting version `d.version`, so that getters test nothing but the
//! version; every encoder writes into `e.block`, which lies at `e.at` in the message, and
//! reports errors to `e.st` with its path (the entry indices from its level, `Slot::lv`).

use std::fmt::Write as _;

use sable_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};

use super::code::{
    bytes_str, doc, exported, gotype, is_float, is_utf8, lit, method, private, range, read,
    split_method, write,
};
use super::Gen;
use crate::model::{Composite, EnumType, Member, Primitive, SetType, TypeRef};

/// A fixed-size element to read or write.
pub(super) struct Slot<'s> {
    pub(super) name: &'s str,
    pub(super) desc: Option<&'s str>,
    pub(super) kind: Kind<'s>,
    pub(super) presence: Presence,
    /// A constant enum field's value name.
    pub(super) const_enum: Option<&'s str>,
    pub(super) off: usize,
    /// How many bytes the block it lies in holds at least (its decoder's `*[N]byte`): a getter
    /// may read any of them.
    pub(super) block: usize,
    pub(super) since: i32,
    /// Its error path, as Go: a string expression (`"fields.x"`, `e.errPath()+".x"`).
    pub(super) path: String,
    /// The level its encoder's errors take their entry indices from, as Go (`nil`, `&e.lv`,
    /// `e.lv`).
    pub(super) lv: &'static str,
    /// The Go name of the null image of the block it lies in (`carNulls`); `None` for a
    /// composite's member (its composite is always whole).
    pub(super) nulls: Option<String>,
}

/// What a fixed-size element holds, resolved.
#[derive(Clone, Copy)]
pub(super) enum Kind<'s> {
    Prim(&'s Primitive),
    Enum(&'s EnumType),
    Set(&'s SetType),
    Comp(&'s Composite),
}

impl<'s> Kind<'s> {
    /// Bytes on the wire.
    pub(super) fn size(&self, presence: Presence) -> usize {
        if presence == Presence::Constant {
            return 0;
        }
        match self {
            Kind::Prim(p) => p.size(),
            Kind::Enum(e) => e.encoding_type.size(),
            Kind::Set(s) => s.encoding_type.size(),
            Kind::Comp(c) => c.encoded_length.max(0) as usize,
        }
    }
}

/// The condition that an element since version `since`, ending at `end` of a block (0: in a
/// composite, or none), is on the wire; `None` when it always is. Getters test the version
/// only (a block shorter than the schema's is read from a copy of null values); the JSON
/// writes `null` for an element beyond the acting block length too.
pub(super) fn present(since: i32, end: usize) -> Option<String> {
    let mut c = Vec::new();
    if since > 0 {
        c.push(format!("d.version >= {since}"));
    }
    if end > 0 {
        c.push(format!("d.blockLength >= {end}"));
    }
    (!c.is_empty()).then(|| c.join(" && "))
}

/// Where `slot` (of `size` bytes) ends in its block, for its JSON's presence test: 0 (none) in
/// a composite.
fn block_end(slot: &Slot<'_>) -> usize {
    match slot.nulls {
        Some(_) => slot.off + slot.kind.size(slot.presence),
        None => 0,
    }
}

/// An element's presence tests: its JSON's (its version and, in a block, the acting block
/// length) and its getter's (its version only).
fn presence(slot: &Slot<'_>) -> (Option<String>, Option<String>) {
    (present(slot.since, block_end(slot)), present(slot.since, 0))
}

/// The Go expression of the `n` bytes (at most 8) of a char array at `off` of `d.block` (a
/// block at least `block` bytes long) as a `uint64`, little-endian, for `nulAt` (which ignores
/// the bytes from `n` up): one read of 1, 2, 4 or 8 bytes where the block holds them, else two
/// of half that size that overlap.
fn text_word(off: usize, n: usize, block: usize) -> String {
    let le = ByteOrder::LittleEndian;
    let reads = [
        (1, PrimitiveType::UInt8),
        (2, PrimitiveType::UInt16),
        (4, PrimitiveType::UInt32),
        (8, PrimitiveType::UInt64),
    ];
    let at = |o: usize, p: PrimitiveType| {
        let r = read("d.block", &o.to_string(), p, le);
        if p == PrimitiveType::UInt64 {
            r
        } else {
            format!("uint64({r})")
        }
    };
    if let Some(&(_, p)) = reads.iter().find(|(w, _)| *w >= n && off + w <= block) {
        return at(off, p);
    }
    // The widest read shorter than n: n is 3 or 5 to 7 here (the block holds the array's n
    // bytes, and a read of n bytes when n is 1, 2, 4 or 8).
    let (w, p) = reads
        .iter()
        .rev()
        .find(|(w, _)| *w < n)
        .copied()
        .unwrap_or(reads[0]);
    format!("{}|{}<<{}", at(off, p), at(off + n - w, p), 8 * (n - w))
}

/// The statement returning `null` when `cond` (an element's presence) does not hold.
fn absent(cond: &Option<String>, null: &str) -> String {
    match cond {
        Some(c) => format!("if !({c}) {{\nreturn {null}\n}}\n"),
        None => String::new(),
    }
}

/// `stmts` when `cond` holds, else `null` written.
fn guarded(cond: Option<String>, stmts: &str) -> String {
    match cond {
        Some(c) => format!("if {c} {{\n{stmts}\n}} else {{\ndst = append(dst, \"null\"...)\n}}\n"),
        None => format!("{stmts}\n"),
    }
}

/// The statement appending number `v` of primitive `p` to `dst`.
pub(super) fn num_json(v: &str, p: PrimitiveType) -> String {
    match p {
        PrimitiveType::Float => format!("dst = appendFloat(dst, float64({v}), 32)"),
        PrimitiveType::Double => format!("dst = appendFloat(dst, {v}, 64)"),
        PrimitiveType::Int8 | PrimitiveType::Int16 | PrimitiveType::Int32 => {
            format!("dst = strconv.AppendInt(dst, int64({v}), 10)")
        }
        PrimitiveType::Int64 => format!("dst = strconv.AppendInt(dst, {v}, 10)"),
        PrimitiveType::UInt64 => format!("dst = strconv.AppendUint(dst, {v}, 10)"),
        _ => format!("dst = strconv.AppendUint(dst, uint64({v}), 10)"),
    }
}

/// The JSON key of a member, as Go text appended: `"name":`.
pub(super) fn key(name: &str, first: bool) -> String {
    let comma = if first { "" } else { "," };
    let k = crate::rust::json::const_json(
        &Primitive {
            primitive_type: PrimitiveType::Char,
            length: 2,
            presence: Presence::Constant,
            byte_order: sable_ir::ByteOrder::LittleEndian,
            null_value: PrimitiveValue::Int(0),
            min_value: PrimitiveValue::Int(0),
            max_value: PrimitiveValue::Int(0),
            const_value: None,
            character_encoding: Some("UTF-8".into()),
            range_declared: false,
        },
        &PrimitiveValue::Bytes {
            bytes: name.as_bytes().to_vec(),
            character_encoding: "UTF-8".into(),
        },
    );
    format!(
        "dst = append(dst, {}...)\n",
        bytes_str(format!("{comma}{k}:").as_bytes())
    )
}

/// A member's presence, as a field's.
pub(super) fn member_presence(m: &Member, kind: &Kind<'_>) -> Presence {
    match kind {
        Kind::Prim(p) if p.is_constant() => Presence::Constant,
        Kind::Prim(p) => p.presence,
        _ => m.presence,
    }
}

/// The struct field of an encoder holding the encoder of its composite field `name` (reused:
/// its accessor fills it in and returns it, so that chained setters copy nothing).
pub(super) fn comp_field(name: &str) -> String {
    format!("c{}", exported(name))
}

/// The conditions under which a value `v` is outside a primitive's declared range.
fn range_checks(p: &Primitive) -> Vec<String> {
    let mut checks = Vec::new();
    if p.range_declared {
        let (tmin, tmax) = range(p.primitive_type);
        let (min, max) = (p.min_value.as_i128(), p.max_value.as_i128());
        if is_float(p.primitive_type) {
            checks.push(format!("v < {}", lit(&p.min_value, p.primitive_type)));
            checks.push(format!("v > {}", lit(&p.max_value, p.primitive_type)));
        } else {
            if min.is_some_and(|m| m > tmin) {
                checks.push(format!("v < {}", lit(&p.min_value, p.primitive_type)));
            }
            if max.is_some_and(|m| m < tmax) {
                checks.push(format!("v > {}", lit(&p.max_value, p.primitive_type)));
            }
        }
    }
    checks
}

fn optional(slot: &Slot<'_>, p: &Primitive) -> bool {
    slot.presence == Presence::Optional || p.presence == Presence::Optional
}

impl<'a> Gen<'a> {
    pub(super) fn kind(&self, t: &'a TypeRef) -> Kind<'a> {
        match t {
            TypeRef::Primitive(p) => Kind::Prim(p),
            TypeRef::Enum(n) => Kind::Enum(self.s.enum_type(n)),
            TypeRef::Set(n) => Kind::Set(self.s.set_type(n)),
            TypeRef::Composite(n) => Kind::Comp(self.s.composite(n)),
        }
    }

    /// Whether a setter of composite `c`'s encoder (or of a composite in it) can fail: only
    /// then does its encoder carry what an error needs (offset, state, path).
    pub(super) fn can_fail(&self, c: &Composite) -> bool {
        c.members.iter().any(|m| match self.kind(&m.type_ref) {
            Kind::Prim(p) if p.is_constant() || m.presence == Presence::Constant => false,
            Kind::Prim(p) => p.is_array() || !range_checks(p).is_empty(),
            Kind::Comp(inner) => self.can_fail(inner),
            Kind::Enum(_) | Kind::Set(_) => false,
        })
    }

    /// The struct fields holding the encoders of the composite fields among `refs` (name and
    /// type).
    pub(super) fn comp_fields<'r>(
        &self,
        refs: impl Iterator<Item = (&'r str, &'a TypeRef)>,
    ) -> String
    where
        'a: 'r,
    {
        refs.filter_map(|(name, t)| match self.kind(t) {
            // One whose setters cannot fail is returned by value (see `setter`): no field.
            Kind::Comp(c) if self.can_fail(c) => Some(format!(
                "{} {}Encoder\n",
                comp_field(name),
                exported(&c.name)
            )),
            _ => None,
        })
        .collect()
    }

    /// The getters of `slot` on decoder type `t` (receiver `d`), and the statements appending
    /// its value's JSON to `dst` (without its key).
    pub(super) fn getter(&self, slot: &Slot<'_>, t: &str) -> (String, String) {
        let m = method(slot.name);
        let off = slot.off;
        let (cond, gate) = presence(slot);
        let absent = |null: &str| absent(&gate, null);
        let mut o = String::new();
        let json = match slot.kind {
            Kind::Prim(p) if slot.presence == Presence::Constant || p.is_constant() => {
                let cv = p.const_value.clone().unwrap_or(PrimitiveValue::Int(0));
                let d = doc(
                    &m,
                    &format!("returns the constant `{}`", slot.name),
                    slot.desc,
                );
                match &cv {
                    PrimitiveValue::Bytes { bytes, .. } => {
                        let _ = writeln!(
                            o,
                            "{d}func (d {t}) {m}() string {{\nreturn {}\n}}\n",
                            bytes_str(bytes)
                        );
                    }
                    v => {
                        let gt = gotype(p.primitive_type);
                        let _ = writeln!(
                            o,
                            "{d}func (d {t}) {m}() {gt} {{\nreturn {}\n}}\n",
                            lit(v, p.primitive_type)
                        );
                    }
                }
                let text = crate::rust::json::const_json(p, &cv);
                let stmt = format!("dst = append(dst, {}...)", bytes_str(text.as_bytes()));
                return (o, guarded(present(slot.since, 0), &stmt));
            }
            Kind::Prim(p) if p.is_array() => self.array_getter(slot, p, t, &mut o),
            Kind::Prim(p) => return self.prim_getter(slot, p, t),
            Kind::Enum(e) => return self.enum_getter(slot, e, t),
            Kind::Set(st) => {
                let sn = exported(&st.name);
                let r = format!(
                    "{sn}({})",
                    read("d.block", &off.to_string(), st.encoding_type, st.byte_order)
                );
                let d = doc(
                    &m,
                    &format!("returns field `{}` (no bits when absent)", slot.name),
                    slot.desc,
                );
                let _ = writeln!(
                    o,
                    "{d}func (d {t}) {m}() {sn} {{\n{}return {r}\n}}\n",
                    absent("0")
                );
                guarded(cond, &format!("dst = {r}.appendJSON(dst)"))
            }
            Kind::Comp(c) => {
                let cn = format!("{}Decoder", exported(&c.name));
                let len = c.encoded_length.max(0) as usize;
                let d = doc(
                    &m,
                    &format!(
                        "returns a view of field `{}` (its members null when it is absent)",
                        slot.name
                    ),
                    slot.desc,
                );
                // Before its version, its members read their null values.
                let gate = if slot.since > 0 {
                    let nulls = match &slot.nulls {
                        Some(n) => format!("(*[{len}]byte)({n}[{off}:{}])", off + len),
                        None => format!("&{}Nulls", private(&exported(&c.name))),
                    };
                    format!(
                        "if d.version < {} {{\nreturn {cn}{{block: {nulls}, version: d.version}}\n}}\n",
                        slot.since
                    )
                } else {
                    String::new()
                };
                let _ = writeln!(o, "{d}func (d {t}) {m}() {cn} {{\n{gate}return {cn}{{block: (*[{len}]byte)(d.block[{off}:{}]), version: d.version}}\n}}\n", off + len);
                guarded(cond, &format!("dst = d.{m}().appendJSON(dst)"))
            }
        };
        (o, json)
    }

    /// The getter of a (non-array, non-constant) primitive `slot`; its JSON statements.
    fn prim_getter(&self, slot: &Slot<'_>, p: &Primitive, t: &str) -> (String, String) {
        let (m, off) = (method(slot.name), slot.off);
        let (cond, gate) = presence(slot);
        let absent = |null: &str| absent(&gate, null);
        let mut o = String::new();
        let gt = gotype(p.primitive_type);
        let null = lit(&p.null_value, p.primitive_type);
        let r = read("d.block", &off.to_string(), p.primitive_type, p.byte_order);
        let item = if p.primitive_type == PrimitiveType::Char {
            let utf8 = is_utf8(p.character_encoding.as_deref());
            format!("dst = appendChars(dst, d.block[{off}:{}], {utf8})", off + 1)
        } else {
            num_json("v", p.primitive_type)
        };
        if optional(slot, p) {
            let is_null =
                if is_float(p.primitive_type) && p.null_value.as_f64().is_some_and(f64::is_nan) {
                    "v != v".to_owned()
                } else {
                    format!("v == {null}")
                };
            let d = doc(&m, &format!("returns optional field `{}`, and false when it holds its null value or is absent", slot.name), slot.desc);
            let _ = writeln!(
                o,
                "{d}func (d {t}) {m}() ({gt}, bool) {{\n{}v := {r}\nreturn v, !({is_null})\n}}\n",
                absent(&format!("{null}, false"))
            );
            let bind = if p.primitive_type == PrimitiveType::Char {
                "_"
            } else {
                "v"
            };
            (o, format!("if {bind}, ok := d.{m}(); ok {{\n{item}\n}} else {{\ndst = append(dst, \"null\"...)\n}}\n"))
        } else {
            let d = doc(
                &m,
                &format!("returns field `{}` (its null value when absent)", slot.name),
                slot.desc,
            );
            let _ = writeln!(
                o,
                "{d}func (d {t}) {m}() {gt} {{\n{}return {r}\n}}\n",
                absent(&null)
            );
            let stmts = if p.primitive_type == PrimitiveType::Char {
                item
            } else if cond.is_none() {
                num_json(&r, p.primitive_type)
            } else {
                format!("v := {r}\n{item}")
            };
            (o, guarded(cond, &stmts))
        }
    }

    /// The getter of an enum `slot`; its JSON statements.
    fn enum_getter(&self, slot: &Slot<'_>, e: &EnumType, t: &str) -> (String, String) {
        let (m, off) = (method(slot.name), slot.off);
        let (cond, gate) = presence(slot);
        let absent = |null: &str| absent(&gate, null);
        let mut o = String::new();
        let en = exported(&e.name);
        if slot.presence == Presence::Constant {
            let vname = slot.const_enum.unwrap_or("");
            let d = doc(
                &m,
                &format!("returns the constant `{}`", slot.name),
                slot.desc,
            );
            let _ = writeln!(
                o,
                "{d}func (d {t}) {m}() {en} {{\nreturn {en}{}\n}}\n",
                exported(vname)
            );
            let text = format!("\"{vname}\"");
            let stmt = format!("dst = append(dst, {}...)", bytes_str(text.as_bytes()));
            return (o, guarded(present(slot.since, 0), &stmt));
        }
        let r = format!(
            "{en}({})",
            read("d.block", &off.to_string(), e.encoding_type, e.byte_order)
        );
        if slot.presence == Presence::Optional {
            let d = doc(&m, &format!("returns optional field `{}`, and false when it holds its null value or is absent", slot.name), slot.desc);
            let _ = writeln!(o, "{d}func (d {t}) {m}() ({en}, bool) {{\n{}v := {r}\nreturn v, v != {en}NullValue\n}}\n", absent(&format!("{en}NullValue, false")));
        } else {
            let d = doc(
                &m,
                &format!("returns field `{}` (the null value when absent)", slot.name),
                slot.desc,
            );
            let _ = writeln!(
                o,
                "{d}func (d {t}) {m}() {en} {{\n{}return {r}\n}}\n",
                absent(&format!("{en}NullValue"))
            );
        }
        (o, guarded(cond, &format!("dst = {r}.appendJSON(dst)")))
    }

    /// The getters of an array (into `o`); its JSON statements.
    fn array_getter(&self, slot: &Slot<'_>, p: &Primitive, t: &str, o: &mut String) -> String {
        let m = method(slot.name);
        let (off, n) = (slot.off, p.length);
        let sz = p.primitive_type.size();
        let end = off + n * sz;
        let (cond, gate) = presence(slot);
        let absent = |null: &str| absent(&gate, null);
        let name = slot.name;
        let l = exported(name);
        let _ = writeln!(o, "// {l}Length is the number of elements of `{name}`.\nfunc (d {t}) {l}Length() int {{\nreturn {n}\n}}\n");
        if p.primitive_type == PrimitiveType::Char {
            let utf8 = is_utf8(p.character_encoding.as_deref());
            let d = doc(&m, &format!("returns the text of `{name}`: its bytes before the first NUL (a view of the buffer; when absent, of what {l}Raw returns)"), slot.desc);
            // Up to 8 bytes are searched as one word (nulAt), longer arrays byte by byte.
            let text = if n <= 8 {
                format!(
                    "{}return d.block[{off}:{end}:{end}][:nulAt({}, {n})]",
                    absent("nil"),
                    text_word(off, n, slot.block)
                )
            } else {
                format!("return untilNUL(d.{l}Raw())")
            };
            let _ = writeln!(o, "{d}func (d {t}) {m}() []byte {{\n{text}\n}}\n");
            let _ = writeln!(o, "// {l}String returns the text of `{name}` as a string (a copy).\nfunc (d {t}) {l}String() string {{\nreturn string(d.{m}())\n}}\n");
            let _ = writeln!(o, "// {l}Raw returns all {n} bytes of `{name}`, its NUL padding included (a view of the buffer; nil before its version, and its null bytes beyond an older writer's shorter block).\nfunc (d {t}) {l}Raw() []byte {{\n{}return d.block[{off}:{end}:{end}]\n}}\n", absent("nil"));
            return guarded(
                cond,
                &format!("dst = appendChars(dst, d.block[{off}:{end}], {utf8})"),
            );
        }
        let gt = gotype(p.primitive_type);
        let null = lit(&p.null_value, p.primitive_type);
        let at = if sz == 1 {
            format!("{off}+i")
        } else {
            format!("{off}+i*{sz}")
        };
        let r = read("d.block", &at, p.primitive_type, p.byte_order);
        let d = doc(&m, &format!("returns element i of `{name}` (the null value when absent); it panics when i is not in 0..{n}, as slices do"), slot.desc);
        let _ = writeln!(o, "{d}func (d {t}) {m}(i int) {gt} {{\nif uint(i) >= {n} {{\npanic(\"{name}: index out of range\")\n}}\n{}return {r}\n}}\n", absent(&null));
        if matches!(p.primitive_type, PrimitiveType::UInt8 | PrimitiveType::Int8) {
            return guarded(cond, &format!("dst = appendHex(dst, d.block[{off}:{end}])"));
        }
        let item = num_json(&format!("d.{m}(i)"), p.primitive_type);
        guarded(cond, &format!("dst = append(dst, '[')\nfor i := 0; i < {n}; i++ {{\nif i > 0 {{\ndst = append(dst, ',')\n}}\n{item}\n}}\ndst = append(dst, ']')"))
    }

    /// The setters of `slot` on encoder type `t` (receiver `e`; `ret` what they return: `e`).
    pub(super) fn setter(&self, slot: &Slot<'_>, t: &str) -> String {
        let name = slot.name;
        let x = exported(name);
        let off = slot.off;
        let path = &slot.path;
        let lv = slot.lv;
        let fail = |kind: &str| {
            format!("e.st.setErr(encodeError(e.at+{off}, {path}, {lv}, {kind}))\nreturn e")
        };
        let recv = ("e", t);
        let mut o = String::new();
        match slot.kind {
            Kind::Prim(p) if slot.presence == Presence::Constant || p.is_constant() => {}
            Kind::Prim(p) if p.is_array() => {
                let n = p.length;
                let sz = p.primitive_type.size();
                let end = off + n * sz;
                if p.primitive_type == PrimitiveType::Char {
                    let d = doc(&format!("Set{x}"), &format!("writes the text of `{name}`, NUL-padded; text longer than its {n} bytes is KindTextTooLong (nothing written)"), slot.desc);
                    let fast = |failed: &str| {
                        format!("if len(v) <= {n} {{\nb := e.block[{off}:{end}]\nclear(b[copy(b, v):])\nreturn e\n}}\nreturn {failed}")
                    };
                    let failed = fail("KindTextTooLong");
                    for (ty, m, d) in [
                        ("[]byte", format!("Set{x}"), d),
                        (
                            "string",
                            format!("Set{x}String"),
                            format!("// Set{x}String writes the text of `{name}`, as Set{x}.\n"),
                        ),
                    ] {
                        o.push_str(&split_method(
                            &d,
                            recv,
                            &m,
                            &[("v", ty)],
                            t,
                            fast,
                            &failed,
                            false,
                        ));
                        o.push('\n');
                    }
                } else {
                    let gt = gotype(p.primitive_type);
                    let at = if sz == 1 {
                        format!("{off}+i")
                    } else {
                        format!("{off}+i*{sz}")
                    };
                    let w = write("e.block", &at, p.primitive_type, p.byte_order, "v");
                    let d = doc(&format!("Set{x}"), &format!("writes element i of `{name}`; i not in 0..{n} is KindIndexOutOfRange (nothing written)"), slot.desc);
                    o.push_str(&split_method(
                        &d,
                        recv,
                        &format!("Set{x}"),
                        &[("i", "int"), ("v", gt)],
                        t,
                        |failed| format!("if uint(i) < {n} {{\n{w}\nreturn e\n}}\nreturn {failed}"),
                        &fail("KindIndexOutOfRange"),
                        false,
                    ));
                    o.push('\n');
                }
            }
            Kind::Prim(p) => return self.prim_setter(slot, p, t),
            Kind::Enum(en) => {
                if slot.presence == Presence::Constant {
                    return o;
                }
                let et = exported(&en.name);
                let gt = gotype(en.encoding_type);
                let w = write(
                    "e.block",
                    &off.to_string(),
                    en.encoding_type,
                    en.byte_order,
                    &format!("{gt}(v)"),
                );
                o.push_str(&plain_setter(slot, t, &et, &w));
                if slot.presence == Presence::Optional {
                    let _ = writeln!(o, "// Clear{x} writes the null value of `{name}`: no value.\nfunc (e {t}) Clear{x}() {t} {{\nreturn e.Set{x}({et}NullValue)\n}}\n");
                }
            }
            Kind::Set(st) => {
                let sn = exported(&st.name);
                let gt = gotype(st.encoding_type);
                let w = write(
                    "e.block",
                    &off.to_string(),
                    st.encoding_type,
                    st.byte_order,
                    &format!("{gt}(v)"),
                );
                o.push_str(&plain_setter(slot, t, &sn, &w));
            }
            Kind::Comp(c) => {
                let cn = format!("{}Encoder", exported(&c.name));
                let len = c.encoded_length.max(0) as usize;
                let m = method(name);
                let d = doc(
                    &m,
                    &format!("returns the encoder of field `{name}`"),
                    slot.desc,
                );
                // In a composite, the path goes on from the composite's (see `errPath`).
                let (up, seg) = match path.strip_prefix(super::types::UP_PATH) {
                    Some(seg) => ("e", seg),
                    None => ("nil", path.as_str()),
                };
                if self.can_fail(c) {
                    let fill = format!("c.block, c.at, c.st, c.lv = (*[{len}]byte)(e.block[{off}:{}]), e.at+{off}, e.st, {lv}\nc.up, c.name = {up}, {seg}", off + len);
                    let _ = writeln!(
                        o,
                        "{d}func (e {t}) {m}() *{cn} {{\nc := &e.{}\n{fill}\nreturn c\n}}\n",
                        comp_field(name)
                    );
                } else {
                    // Its bytes are all it holds: a value, so that no pointer is stored into
                    // the encoder (behind a write barrier test) and loaded straight back by
                    // the setter (docs/benchmarks.md, go18j).
                    let _ = writeln!(
                        o,
                        "{d}func (e {t}) {m}() {cn} {{\nreturn {cn}{{block: (*[{len}]byte)(e.block[{off}:{}])}}\n}}\n",
                        off + len
                    );
                }
            }
        }
        o
    }

    /// The setter (and for an optional field, the clearer) of a (non-array, non-constant)
    /// primitive `slot` on encoder type `t`.
    fn prim_setter(&self, slot: &Slot<'_>, p: &Primitive, t: &str) -> String {
        let (name, off, path, lv) = (slot.name, slot.off, &slot.path, slot.lv);
        let x = exported(name);
        let fail = |kind: &str| {
            format!("e.st.setErr(encodeError(e.at+{off}, {path}, {lv}, {kind}))\nreturn e")
        };
        let mut o = String::new();
        let gt = gotype(p.primitive_type);
        let w = write(
            "e.block",
            &off.to_string(),
            p.primitive_type,
            p.byte_order,
            "v",
        );
        let checks = range_checks(p);
        if checks.is_empty() {
            o.push_str(&plain_setter(slot, t, gt, &w));
        } else {
            let what = format!(
                "; a value outside {}..{} is KindValueOutOfRange (nothing written)",
                lit(&p.min_value, p.primitive_type),
                lit(&p.max_value, p.primitive_type)
            );
            let d = doc(
                &format!("Set{x}"),
                &format!("writes field `{name}`{what}"),
                slot.desc,
            );
            let checks = checks.join(" || ");
            let fast = |failed: &str| format!("if {checks} {{\nreturn {failed}\n}}\n{w}\nreturn e");
            o.push_str(&split_method(
                &d,
                ("e", t),
                &format!("Set{x}"),
                &[("v", gt)],
                t,
                fast,
                &fail("KindValueOutOfRange"),
                false,
            ));
            o.push('\n');
        }
        if optional(slot, p) {
            let null = lit(&p.null_value, p.primitive_type);
            let w = format!(
                "null := {gt}({null})\n{}",
                write(
                    "e.block",
                    &off.to_string(),
                    p.primitive_type,
                    p.byte_order,
                    "null"
                )
            );
            let _ = writeln!(o, "// Clear{x} writes the null value of `{name}`: no value.\nfunc (e {t}) Clear{x}() {t} {{\n{w}\nreturn e\n}}\n");
        }
        o
    }
}

/// The setter of `slot` on encoder type `t` that cannot fail: it writes `v` (of Go type `ty`)
/// by `w`.
fn plain_setter(slot: &Slot<'_>, t: &str, ty: &str, w: &str) -> String {
    let x = exported(slot.name);
    let d = doc(
        &format!("Set{x}"),
        &format!("writes field `{}`", slot.name),
        slot.desc,
    );
    format!("{d}func (e {t}) Set{x}(v {ty}) {t} {{\n{w}\nreturn e\n}}\n\n")
}

#[cfg(test)]
mod tests {
    use super::text_word;

    /// The bytes `text_word` reads: each read's offset and width, from its Go text.
    fn reads(expr: &str) -> Vec<(usize, usize)> {
        expr.match_indices("d.block[")
            .map(|(i, m)| {
                let after = &expr[i + m.len()..];
                let digits = after.find(|c: char| !c.is_ascii_digit()).unwrap();
                let before = &expr[..i];
                let width = [("Uint64(", 8), ("Uint32(", 4), ("Uint16(", 2)]
                    .iter()
                    .find(|(f, _)| before.ends_with(f))
                    .map_or(1, |&(_, w)| w);
                (after[..digits].parse().unwrap(), width)
            })
            .collect()
    }

    #[test]
    fn text_word_reads_the_array_within_its_block() {
        for block in 1..=20 {
            for n in 1..=8.min(block) {
                for off in 0..=block - n {
                    let expr = text_word(off, n, block);
                    let r = reads(&expr);
                    // Every read within the block, and the array's n bytes all read.
                    assert!(r.iter().all(|&(o, w)| o >= off && o + w <= block), "{expr}");
                    assert!(
                        (off..off + n).all(|b| r.iter().any(|&(o, w)| (o..o + w).contains(&b))),
                        "{expr}"
                    );
                    // The second of two reads shifted to its bytes' place in the word.
                    if let [_, (o2, _)] = r[..] {
                        assert!(expr.ends_with(&format!("<<{}", 8 * (o2 - off))), "{expr}");
                    }
                }
            }
        }
    }
}

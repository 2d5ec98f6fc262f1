//! Enums (typed constants with `String`), sets (bit flags with `Has`) and composites (a
//! decoder and an encoder over the composite's bytes).

use std::fmt::Write as _;

use sable_ir::PrimitiveType;

use super::code::{byte_array, doc, exported, go_str, gotype, lit, private};
use super::slots::{key, member_presence, Slot};
use super::Gen;
use crate::model::{Composite, EnumType, SetType, TypeDef, TypeRef};

fn signed(p: PrimitiveType) -> bool {
    matches!(
        p,
        PrimitiveType::Int8 | PrimitiveType::Int16 | PrimitiveType::Int32 | PrimitiveType::Int64
    )
}

/// The statement appending an enum or set's raw number `v` to `dst`.
fn raw_json(v: &str, p: PrimitiveType) -> String {
    if signed(p) {
        format!("dst = strconv.AppendInt(dst, int64({v}), 10)")
    } else {
        format!("dst = strconv.AppendUint(dst, uint64({v}), 10)")
    }
}

/// How a composite member's error path starts: its composite's path, built when needed.
pub(super) const UP_PATH: &str = "e.errPath()+";

impl Gen<'_> {
    pub(super) fn enum_type(&mut self, e: &EnumType) {
        let t = exported(&e.name);
        let gt = gotype(e.encoding_type);
        let mut o = doc(
            &t,
            &format!(
                "is enum `{}`: any value of its encoding type, named or not",
                e.name
            ),
            e.description.as_deref(),
        );
        let _ = writeln!(o, "type {t} {gt}\n\n// The values of {t}.\nconst (");
        let mut seen = Vec::new();
        for v in &e.values {
            let c = format!("{t}{}", exported(&v.name));
            let _ = write!(
                o,
                "{}",
                doc(&c, &format!("is `{}`", v.name), v.description.as_deref())
            );
            let _ = writeln!(o, "{c} {t} = {}", lit(&v.value, e.encoding_type));
        }
        let null = lit(&e.null_value, e.encoding_type);
        let _ = writeln!(
            o,
            "// {t}NullValue is the null value: no value.\n{t}NullValue {t} = {null}\n)\n"
        );
        let mut names = String::new();
        let mut jsons = String::new();
        for v in &e.values {
            let raw = lit(&v.value, e.encoding_type);
            if seen.contains(&raw) || raw == null {
                continue;
            }
            seen.push(raw);
            let c = format!("{t}{}", exported(&v.name));
            let _ = writeln!(names, "case {c}:\nreturn {}", go_str(&v.name));
            let _ = writeln!(
                jsons,
                "case {c}:\nreturn append(dst, {}...)",
                go_str(&format!("\"{}\"", v.name))
            );
        }
        let unnamed = raw_json("v", e.encoding_type);
        let _ = writeln!(o, "// String gives the value's name in the schema, or {t}(N) for a value with none.\nfunc (v {t}) String() string {{\nswitch v {{\n{names}}}\nreturn {}\n}}\n", go_str(&format!("{t}(")) + " + strconv.FormatInt(int64(v), 10) + \")\"");
        let _ = writeln!(o, "// appendJSON appends the value's canonical JSON: its name, null, or {{\"unknown\":N}}.\nfunc (v {t}) appendJSON(dst []byte) []byte {{\nswitch v {{\n{jsons}case {t}NullValue:\nreturn append(dst, \"null\"...)\n}}\ndst = append(dst, `{{\"unknown\":`...)\n{unnamed}\nreturn append(dst, '}}')\n}}");
        self.w(o);
    }

    pub(super) fn set_type(&mut self, s: &SetType) {
        let t = exported(&s.name);
        let gt = gotype(s.encoding_type);
        let mut o = doc(
            &t,
            &format!(
                "is set `{}`: its choices are bits; bits that name no choice are kept",
                s.name
            ),
            s.description.as_deref(),
        );
        let _ = writeln!(o, "type {t} {gt}");
        if !s.choices.is_empty() {
            let _ = writeln!(o, "\n// The choices of {t}.\nconst (");
            for c in &s.choices {
                let n = format!("{t}{}", exported(&c.name));
                let _ = write!(
                    o,
                    "{}",
                    doc(
                        &n,
                        &format!("is choice `{}` (bit {})", c.name, c.bit),
                        c.description.as_deref()
                    )
                );
                let _ = writeln!(o, "{n} {t} = 1 << {}", c.bit);
            }
            o.push_str(")\n");
        }
        let p = private(&t);
        let names: Vec<String> = s.choices.iter().map(|c| go_str(&c.name)).collect();
        let bits: Vec<String> = s.choices.iter().map(|c| c.bit.to_string()).collect();
        let _ = writeln!(o, "\n// Has reports whether every bit of c is set in s.\nfunc (s {t}) Has(c {t}) bool {{\nreturn s&c == c\n}}\n\nvar {p}Names = [...]string{{{}}}\n\nvar {p}Bits = [...]uint8{{{}}}\n\n// appendJSON appends the set's canonical JSON: the names of its choices set, then other bits by number.\nfunc (s {t}) appendJSON(dst []byte) []byte {{\nreturn appendSet(dst, uint64(s), {p}Names[:], {p}Bits[:])\n}}", names.join(", "), bits.join(", "));
        self.w(o);
    }

    /// Whether composite `name`'s null image is read by a getter: a composite's member of that
    /// type since a later version than the composite's first.
    fn nulls_used(&self, name: &str) -> bool {
        self.s.types.iter().any(|t| match t {
            TypeDef::Composite(c) => c.members.iter().any(|m| {
                m.since_version > 0 && matches!(&m.type_ref, TypeRef::Composite(n) if n == name)
            }),
            _ => false,
        })
    }

    pub(super) fn composite(&mut self, c: &Composite) {
        let t = exported(&c.name);
        let (dn, en) = (format!("{t}Decoder"), format!("{t}Encoder"));
        let mut o = doc(
            &dn,
            &format!("reads composite `{}` from its bytes", c.name),
            c.description.as_deref(),
        );
        // Its bytes as an array: its getters' offsets need no bounds checks (a decoder's
        // composite is always whole: its block holds it, or its null image does).
        let len = c.encoded_length.max(0);
        let _ = writeln!(
            o,
            "type {dn} struct {{\nblock *[{len}]byte\nversion int\n}}\n"
        );
        if self.nulls_used(&c.name) {
            let _ = writeln!(o, "// {p}Nulls is composite `{}` with every member null: what a member since a later version than the acting one reads.\nvar {p}Nulls = {}\n", c.name, byte_array(&self.s.composite_null(c)), p = private(&t));
        }
        let mut json = String::from("dst = append(dst, '{')\n");
        let mut enc = doc(
            &en,
            &format!("writes composite `{}` into its bytes", c.name),
            c.description.as_deref(),
        );
        // The encoder's bytes as an array too.
        let fails = self.can_fail(c);
        if fails {
            let comps = self.comp_fields(c.members.iter().map(|m| (m.name.as_str(), &m.type_ref)));
            let _ = writeln!(enc, "type {en} struct {{\nblock *[{len}]byte\nat int\nst *encoderState\nlv *level\n// The error path: up's, then name (up nil: name only). Built only for an error, so that\n// reaching a nested composite copies no string.\nup pather\nname string\n{comps}}}\n\nfunc (e *{en}) errPath() string {{\nif e.up == nil {{\nreturn e.name\n}}\nreturn e.up.errPath() + e.name\n}}\n");
        } else {
            // No setter of it can fail (nor of its members' composites, which so hold no
            // encoder field): its bytes are all it needs, and it is used by value.
            let _ = writeln!(enc, "type {en} struct {{\nblock *[{len}]byte\n}}\n");
        }
        for (i, m) in c.members.iter().enumerate() {
            let kind = self.kind(&m.type_ref);
            let slot = Slot {
                name: &m.name,
                desc: m.description.as_deref(),
                presence: member_presence(m, &kind),
                kind,
                const_enum: None,
                off: m.offset,
                block: len as usize,
                since: m.since_version,
                path: format!("{UP_PATH}{}", go_str(&format!(".{}", m.name))),
                lv: "e.lv",
                nulls: None,
            };
            let (g, j) = self.getter(&slot, &dn);
            o.push_str(&g);
            json.push_str(&key(&m.name, i == 0));
            json.push_str(&j);
            let recv = if fails { format!("*{en}") } else { en.clone() };
            enc.push_str(&self.setter(&slot, &recv));
        }
        let _ = writeln!(o, "// appendJSON appends the composite's canonical JSON.\nfunc (d {dn}) appendJSON(dst []byte) []byte {{\n{json}return append(dst, '}}')\n}}");
        self.w(o);
        self.w(enc);
    }
}

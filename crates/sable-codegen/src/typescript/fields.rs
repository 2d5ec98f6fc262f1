//! Fixed fields and composite members: a decoder's getter, an encoder's fluent setter, the
//! metadata constants, the canonical JSON of the value and its null bytes.

use sable_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};

use super::names::{
    accessor, bool_lit, cache, class_name, constant, doc, is_big, is_utf8, lit, pascal, read,
    str_lit, ts_type, write,
};
use super::Gen;
use crate::model::{Field, Primitive, TypeRef};

pub(super) use crate::model::Slot;

/// Where a flyweight reads or writes: its `DataView`, its bytes and its base offset.
pub(super) struct Place {
    pub view: &'static str,
    pub bytes: &'static str,
    pub off: &'static str,
}

pub(super) const BLOCK_DEC: Place = Place {
    view: "this._bv",
    bytes: "this._bb",
    off: "this._bo",
};

pub(super) const COMPOSITE_DEC: Place = Place {
    view: "this._view",
    bytes: "this._bytes",
    off: "this._off",
};

pub(super) const BLOCK_ENC: Place = Place {
    view: "this._view",
    bytes: "this._buf",
    off: "this._block",
};

pub(super) const COMPOSITE_ENC: Place = Place {
    view: "this._view",
    bytes: "this._buf",
    off: "this._off",
};

fn at(base: &str, offset: usize) -> String {
    if offset == 0 {
        base.to_owned()
    } else {
        format!("{base} + {offset}")
    }
}

/// A condition that `v`, a `number` or `bigint`, is a value of `p` (any value for floats). Shifts,
/// not masks: a mask of 0xffff is a 32-bit operand in V8's bytecode, and a setter's bytecode size
/// decides whether V8 inlines it (docs/typescript.md, "Speed").
fn fits(p: PrimitiveType, v: &str) -> Option<String> {
    Some(match p {
        PrimitiveType::UInt8 | PrimitiveType::Char => format!("{v} << 24 >>> 24 === {v}"),
        PrimitiveType::Int8 => format!("({v} << 24) >> 24 === {v}"),
        PrimitiveType::UInt16 => format!("{v} << 16 >>> 16 === {v}"),
        PrimitiveType::Int16 => format!("({v} << 16) >> 16 === {v}"),
        PrimitiveType::UInt32 => format!("{v} >>> 0 === {v}"),
        PrimitiveType::Int32 => format!("({v} | 0) === {v}"),
        PrimitiveType::UInt64 => format!("BigInt.asUintN(64, {v}) === {v}"),
        PrimitiveType::Int64 => format!("BigInt.asIntN(64, {v}) === {v}"),
        PrimitiveType::Float | PrimitiveType::Double => return None,
    })
}

/// The body of a 64-bit setter without declared limits: a `number` that is a safe integer of
/// the type is written inline as two 32-bit halves (`lo`, and `hi` the exact quotient by 2^32,
/// an integer only if `v` is one); a `bigint`, or a `number` out of range, goes to the support
/// class's `_w64` (which checks the one and throws for the other). Small, so that V8 inlines it
/// into the caller (docs/typescript.md, "Speed").
fn set64(
    place: &Place,
    offset: usize,
    t: PrimitiveType,
    order: ByteOrder,
    v: &str,
    key: &str,
) -> Vec<String> {
    let signed = t == PrimitiveType::Int64;
    let le = order == ByteOrder::LittleEndian;
    let (lo_at, hi_at) = if le {
        (at(place.off, offset), at(place.off, offset + 4))
    } else {
        (at(place.off, offset + 4), at(place.off, offset))
    };
    let ok = if signed {
        format!("(hi | 0) === hi && {v} >= -9007199254740991 && {v} <= 9007199254740991")
    } else {
        format!("hi >>> 0 === hi && {v} <= 9007199254740991")
    };
    let le_arg = if le { ", true" } else { "" };
    let hi_type = if signed { "Int32" } else { "Uint32" };
    let view = place.view;
    vec![
        format!("if (typeof {v} === \"number\") {{"),
        format!("  const lo = {v} >>> 0;"),
        format!("  const hi = ({v} - lo) / 4294967296;"),
        format!("  if ({ok}) {{"),
        format!("    {view}.setUint32({lo_at}, lo{le_arg});"),
        format!("    {view}.set{hi_type}({hi_at}, hi{le_arg});"),
        "    return this;".to_owned(),
        "  }".to_owned(),
        "}".to_owned(),
        format!(
            "this._w64({v}, {key}, {offset}, {}, {});",
            bool_lit(signed),
            bool_lit(le)
        ),
    ]
}

impl Gen<'_> {
    /// The size in bytes of a slot's value on the wire.
    pub(super) fn slot_size(&self, slot: &Slot<'_>) -> usize {
        if slot.constant {
            return 0;
        }
        match slot.type_ref {
            TypeRef::Primitive(p) => p.size(),
            TypeRef::Enum(n) => self.s.enum_type(n).encoding_type.size(),
            TypeRef::Set(n) => self.s.set_type(n).encoding_type.size(),
            TypeRef::Composite(n) => self.s.composite(n).encoded_length.max(0) as usize,
        }
    }

    /// The metadata constants of a slot: id, since version, offset, length, limits.
    pub(super) fn slot_meta(&mut self, slot: &Slot<'_>) {
        let c = constant(slot.name);
        let size = self.slot_size(slot);
        let o = &mut self.out;
        o.line(format!("/** Metadata of `{}`. */", slot.name));
        if let Some(id) = slot.id {
            o.line(format!("static readonly {c}_ID = {id};"));
        }
        o.line(format!(
            "static readonly {c}_SINCE_VERSION = {};",
            slot.since
        ));
        o.line(format!("static readonly {c}_OFFSET = {};", slot.offset));
        o.line(format!("static readonly {c}_ENCODED_LENGTH = {size};"));
        if let TypeRef::Primitive(p) = slot.type_ref {
            if !p.is_constant() && p.primitive_type != PrimitiveType::Char {
                let t = p.primitive_type;
                o.line(format!(
                    "static readonly {c}_NULL_VALUE = {};",
                    lit(&p.null_value, t)
                ));
                o.line(format!(
                    "static readonly {c}_MIN_VALUE = {};",
                    lit(&p.min_value, t)
                ));
                o.line(format!(
                    "static readonly {c}_MAX_VALUE = {};",
                    lit(&p.max_value, t)
                ));
            }
            if p.is_array() {
                o.line(format!("static readonly {c}_LENGTH = {};", p.length));
            }
        }
    }

    /// A getter (or method) with its TSDoc.
    fn getter(&mut self, doc_text: &str, head: &str, body: &[String]) {
        let o = &mut self.out;
        o.blank();
        o.line(doc_text);
        o.line(format!("{head} {{"));
        for l in body {
            o.line(format!("  {l}"));
        }
        o.line("}");
    }

    /// A decoder's getter(s) for a slot.
    pub(super) fn slot_getter(&mut self, slot: &Slot<'_>, place: &Place) {
        self.slot_getter_named(slot, place, &accessor(slot.name));
    }

    /// A decoder's getter(s) for a slot, by the accessor name `name`.
    pub(super) fn slot_getter_named(&mut self, slot: &Slot<'_>, place: &Place, name: &str) {
        let d = doc(slot.description, &format!("`{}`.", slot.name));
        let pos = at(place.off, slot.offset);
        let (view, bytes) = (place.view, place.bytes);
        match slot.type_ref {
            TypeRef::Primitive(p) if slot.constant => {
                let (t, v) = const_value(p);
                self.getter(&d, &format!("get {name}(): {t}"), &[format!("return {v};")]);
            }
            TypeRef::Enum(n) if slot.constant => {
                let t = class_name(n);
                let v = match slot.const_enum {
                    Some(v) => format!("{t}.{}", pascal(v)),
                    None => format!("{}_NULL_VALUE", constant(n)),
                };
                let ret = if slot.const_enum.is_some() {
                    t
                } else {
                    "number".into()
                };
                self.getter(
                    &d,
                    &format!("get {name}(): {ret}"),
                    &[format!("return {v};")],
                );
            }
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                let order = p.byte_order;
                if t == PrimitiveType::Char && p.is_array() {
                    let end = format!("{pos} + {}", p.length);
                    self.import("decodeText");
                    self.import("nulAt");
                    self.getter(
                        &d,
                        &format!("get {name}(): string"),
                        &[format!(
                            "return decodeText({bytes}, {pos}, nulAt({bytes}, {pos}, {end}), {});",
                            bool_lit(is_utf8(p.character_encoding.as_deref()))
                        )],
                    );
                    self.getter(
                        &format!("/** `{}`: every byte of the array (the text and its NUL padding), a view. */", slot.name),
                        &format!("get {name}Bytes(): Uint8Array"),
                        &[format!("return {bytes}.subarray({pos}, {end});")],
                    );
                } else if p.is_array() {
                    let size = t.size();
                    let tt = ts_type(t);
                    let element = read(view, t, order, &format!("{pos} + i * {size}"));
                    self.getter(
                        &d,
                        &format!("get {name}(): {tt}[]"),
                        &[
                            format!("const out: {tt}[] = [];"),
                            format!(
                                "for (let i = 0; i < {}; i++) out.push({element});",
                                p.length
                            ),
                            "return out;".into(),
                        ],
                    );
                    self.getter(
                        &format!("/** Element `i` of `{}` (a `RangeError` outside 0..{}). */", slot.name, p.length - 1),
                        &format!("{name}At(i: number): {tt}"),
                        &[
                            format!(
                                "if (!(i >= 0 && i < {})) throw new RangeError(`index ${{i}} of {} elements`);",
                                p.length, p.length
                            ),
                            format!("return {element};"),
                        ],
                    );
                } else if t == PrimitiveType::Char {
                    let r = read(view, t, order, &pos);
                    self.getter(
                        &d,
                        &format!("get {name}(): string"),
                        &[format!("return String.fromCharCode({r});")],
                    );
                } else {
                    let r = read(view, t, order, &pos);
                    let tt = ts_type(t);
                    if slot.optional {
                        let null = lit(&p.null_value, t);
                        let cond = if null == "NaN" {
                            "v !== v".to_owned()
                        } else {
                            format!("v === {null}")
                        };
                        self.getter(
                            &d,
                            &format!("get {name}(): {tt} | null"),
                            &[
                                format!("const v = {r};"),
                                format!("return {cond} ? null : v;"),
                            ],
                        );
                    } else {
                        self.getter(
                            &d,
                            &format!("get {name}(): {tt}"),
                            &[format!("return {r};")],
                        );
                    }
                    if is_big(t) {
                        // One addition of a folded constant: the bytecode's size decides
                        // whether V8 inlines the method.
                        let upper = at(place.off, slot.offset + 4);
                        let (lo, hi) = match order {
                            ByteOrder::BigEndian => (upper, pos.clone()),
                            _ => (pos.clone(), upper),
                        };
                        let le = if order == ByteOrder::BigEndian {
                            ""
                        } else {
                            ", true"
                        };
                        let high = if t == PrimitiveType::Int64 {
                            "Int32"
                        } else {
                            "Uint32"
                        };
                        let value = format!(
                            "{view}.get{high}({hi}{le}) * 4294967296 + {view}.getUint32({lo}{le})"
                        );
                        let mut body = vec![];
                        let ret = if slot.optional {
                            body.push(format!("if (this.{name} === null) return null;"));
                            "number | null"
                        } else {
                            "number"
                        };
                        body.push(format!("return {value};"));
                        self.getter(
                            &format!("/** `{}` as a `number`: exact while it is within ±(2^53 - 1) (`Number.isSafeInteger`), faster than the `bigint`. */", slot.name),
                            &format!("{name}AsNumber(): {ret}"),
                            &body,
                        );
                    }
                }
            }
            TypeRef::Enum(n) => {
                let e = self.s.enum_type(n);
                let r = read(view, e.encoding_type, e.byte_order, &pos);
                let r = if is_big(e.encoding_type) {
                    format!("Number({r})")
                } else {
                    r
                };
                let t = class_name(n);
                self.import("type Open");
                if slot.optional {
                    let null = lit(&e.null_value, e.encoding_type);
                    let null = null.trim_end_matches('n');
                    self.getter(
                        &d,
                        &format!("get {name}(): Open<{t}> | null"),
                        &[
                            format!("const v = {r};"),
                            format!("return v === {null} ? null : v;"),
                        ],
                    );
                } else {
                    self.getter(
                        &d,
                        &format!("get {name}(): Open<{t}>"),
                        &[format!("return {r};")],
                    );
                }
                self.getter(
                    &format!("/** `{}`: the number on the wire. */", slot.name),
                    &format!("get {name}Raw(): number"),
                    &[format!("return {r};")],
                );
            }
            TypeRef::Set(n) => {
                let st = self.s.set_type(n);
                let r = read(view, st.encoding_type, st.byte_order, &pos);
                self.getter(
                    &d,
                    &format!("get {name}(): {}", class_name(n)),
                    &[format!("return new {}({r});", class_name(n))],
                );
            }
            TypeRef::Composite(n) => {
                let c = class_name(n);
                self.getter(
                    &d,
                    &format!("get {name}(): {c}Decoder"),
                    &[format!(
                        "return this.{}._at({bytes}, {view}, {pos}, this._version);",
                        cache(slot.name)
                    )],
                );
            }
        }
    }

    /// An encoder's fluent setter(s) for a slot (none for a constant).
    pub(super) fn slot_setter(&mut self, slot: &Slot<'_>, place: &Place) {
        self.slot_setter_named(slot, place, &accessor(slot.name));
    }

    /// An encoder's fluent setter(s) for a slot, by the name `name`.
    pub(super) fn slot_setter_named(&mut self, slot: &Slot<'_>, place: &Place, name: &str) {
        if slot.constant {
            return;
        }
        let key = str_lit(slot.name);
        let pos = at(place.off, slot.offset);
        let view = place.view;
        let d = doc(slot.description, &format!("Writes `{}`.", slot.name));
        match slot.type_ref {
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                let order = p.byte_order;
                if t == PrimitiveType::Char && p.is_array() {
                    self.setter(
                        &d,
                        name,
                        "value: string | Uint8Array",
                        &[format!(
                            "this._chars(value, {pos}, {}, {}, {key});",
                            p.length,
                            bool_lit(is_utf8(p.character_encoding.as_deref()))
                        )],
                    );
                } else if p.is_array() {
                    let size = t.size();
                    let tt = ts_type(t);
                    let mut body = vec![format!(
                        "this._checkCount(values, {}, {key}, {pos});",
                        p.length
                    )];
                    let check = self.value_check(p, "v", &key, slot.offset);
                    if !check.is_empty() {
                        body.push(format!("for (let i = 0; i < {}; i++) {{", p.length));
                        body.push("  const v = values[i]!;".into());
                        for c in &check {
                            body.push(format!("  {c}"));
                        }
                        body.push("}".into());
                    }
                    body.push(format!("for (let i = 0; i < {}; i++) {{", p.length));
                    body.push(format!(
                        "  {}",
                        write(view, t, order, &format!("{pos} + i * {size}"), "values[i]!")
                    ));
                    body.push("}".into());
                    self.setter(&d, name, &format!("values: ArrayLike<{tt}>"), &body);
                    let mut body = vec![format!(
                        "this._checkIndex(index, {}, {key}, {pos});",
                        p.length
                    )];
                    body.extend(self.value_check(p, "value", &key, slot.offset));
                    body.push(write(
                        view,
                        t,
                        order,
                        &format!("{pos} + index * {size}"),
                        "value",
                    ));
                    self.setter(
                        &format!("/** Writes element `index` of `{}`. */", slot.name),
                        &format!("{name}At"),
                        &format!("index: number, value: {tt}"),
                        &body,
                    );
                } else if t == PrimitiveType::Char {
                    self.setter(
                        &d,
                        name,
                        "value: string",
                        &[write(
                            view,
                            t,
                            order,
                            &pos,
                            &format!("this._char(value, {key}, {pos})"),
                        )],
                    );
                } else {
                    let tt = ts_type(t);
                    let mut body = Vec::new();
                    let param_t = if is_big(t) {
                        "bigint | number".to_owned()
                    } else {
                        tt.to_owned()
                    };
                    let v = if slot.optional {
                        body.push(format!(
                            "const v = value === null ? {} : value;",
                            lit(&p.null_value, t)
                        ));
                        "v"
                    } else {
                        "value"
                    };
                    if is_big(t) && !p.range_declared {
                        body.extend(set64(place, slot.offset, t, order, v, &key));
                    } else if is_big(t) {
                        body.push(format!(
                            "const b = typeof {v} === \"bigint\" ? {v} : this._safe({v}, {key}, {pos});"
                        ));
                        body.extend(self.value_check(p, "b", &key, slot.offset));
                        body.push(write(view, t, order, &pos, "b"));
                    } else {
                        body.extend(self.value_check(p, v, &key, slot.offset));
                        body.push(write(view, t, order, &pos, v));
                    }
                    let param = if slot.optional {
                        format!("value: {param_t} | null")
                    } else {
                        format!("value: {param_t}")
                    };
                    self.setter(&d, name, &param, &body);
                }
            }
            TypeRef::Enum(n) => {
                let e = self.s.enum_type(n);
                let t = class_name(n);
                let mut body = Vec::new();
                let null = lit(&e.null_value, e.encoding_type);
                let null = null.trim_end_matches('n');
                let v = if slot.optional {
                    body.push(format!("const v = value === null ? {null} : value;"));
                    "v"
                } else {
                    "value"
                };
                let fake = Primitive {
                    primitive_type: e.encoding_type,
                    range_declared: false,
                    ..primitive_of(e.encoding_type)
                };
                let value = if is_big(e.encoding_type) {
                    body.push(format!("const b = this._safe({v}, {key}, {pos});"));
                    body.extend(self.value_check(&fake, "b", &key, slot.offset));
                    "b"
                } else {
                    body.extend(self.value_check(&fake, v, &key, slot.offset));
                    v
                };
                body.push(write(view, e.encoding_type, e.byte_order, &pos, value));
                self.import("type Open");
                let param = if slot.optional {
                    format!("value: Open<{t}> | null")
                } else {
                    format!("value: Open<{t}>")
                };
                self.setter(&d, name, &param, &body);
            }
            TypeRef::Set(n) => {
                let st = self.s.set_type(n);
                let c = class_name(n);
                let raw_t = if is_big(st.encoding_type) {
                    "bigint"
                } else {
                    "number"
                };
                self.setter(
                    &d,
                    name,
                    &format!("value: {c} | {raw_t}"),
                    &[write(
                        view,
                        st.encoding_type,
                        st.byte_order,
                        &pos,
                        "typeof value === \"object\" ? value.raw : value",
                    )],
                );
            }
            TypeRef::Composite(n) => {
                let c = class_name(n);
                let o = &mut self.out;
                o.blank();
                o.line(doc(
                    slot.description,
                    &format!("The encoder of composite `{}`.", slot.name),
                ));
                o.line(format!("{name}(): {c}Encoder {{"));
                o.line(format!(
                    "  return this.{}._at(this._buf, this._view, this._msg, {pos});",
                    cache(slot.name)
                ));
                o.line("}");
            }
        }
    }

    /// Statements refusing a value `v` the field cannot hold, or outside its declared range.
    /// `offset` is the field's offset in its block or composite: the error's position is made
    /// from it by the cold `_bad` (the hot path's bytecode carries a constant, not an addition).
    fn value_check(&mut self, p: &Primitive, v: &str, key: &str, offset: usize) -> Vec<String> {
        let t = p.primitive_type;
        let mut conds = Vec::new();
        if let Some(f) = fits(t, v) {
            conds.push(f);
        }
        if p.range_declared {
            let (min, max, null) = (
                lit(&p.min_value, t),
                lit(&p.max_value, t),
                lit(&p.null_value, t),
            );
            let null_cond = if null == "NaN" {
                format!("{v} !== {v}")
            } else {
                format!("{v} === {null}")
            };
            conds.push(format!("(({v} >= {min} && {v} <= {max}) || {null_cond})"));
        }
        if conds.is_empty() {
            return Vec::new();
        }
        vec![format!(
            "if (!({})) throw this._bad({v}, {key}, {offset});",
            conds.join(" && ")
        )]
    }

    fn setter(&mut self, doc_text: &str, name: &str, params: &str, body: &[String]) {
        let o = &mut self.out;
        o.blank();
        o.line(doc_text);
        o.line(format!("{name}({params}): this {{"));
        for l in body {
            o.line(format!("  {l}"));
        }
        o.line("  return this;");
        o.line("}");
    }

    /// The expression of the slot's canonical JSON value.
    pub(super) fn slot_json(&mut self, slot: &Slot<'_>, place: &Place) -> String {
        let pos = at(place.off, slot.offset);
        let (view, bytes) = (place.view, place.bytes);
        let name = accessor(slot.name);
        match slot.type_ref {
            TypeRef::Primitive(p) if slot.constant => {
                let text = p.const_value.as_ref().map_or_else(
                    || "null".to_owned(),
                    |v| crate::rust::json::const_json(p, v),
                );
                str_lit(&text)
            }
            TypeRef::Enum(_) if slot.constant => str_lit(
                &slot
                    .const_enum
                    .map_or_else(|| "null".to_owned(), |v| format!("\"{v}\"")),
            ),
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                let utf8 = bool_lit(is_utf8(p.character_encoding.as_deref()));
                if p.is_array() && t == PrimitiveType::Char {
                    self.import("jsonChars");
                    format!("jsonChars({bytes}, {pos}, {}, {utf8})", p.length)
                } else if p.is_array() && matches!(t, PrimitiveType::UInt8 | PrimitiveType::Int8) {
                    self.import("hex");
                    format!("'\"' + hex({bytes}, {pos}, {pos} + {}) + '\"'", p.length)
                } else if p.is_array() {
                    let each = self.number_json(t, "v");
                    format!("\"[\" + this.{name}.map((v) => {each}).join(\",\") + \"]\"")
                } else if t == PrimitiveType::Char {
                    self.import("jsonChar");
                    let json = format!("jsonChar({bytes}, {pos}, {utf8})");
                    if slot.optional {
                        format!(
                            "({bytes}[{pos}] === {} ? \"null\" : {json})",
                            lit(&p.null_value, t)
                        )
                    } else {
                        json
                    }
                } else if slot.optional {
                    let each = self.number_json(t, "v");
                    format!("((v) => (v === null ? \"null\" : {each}))(this.{name})")
                } else {
                    let _ = view;
                    self.number_json(t, &format!("this.{name}"))
                }
            }
            TypeRef::Enum(n) => {
                let e = self.s.enum_type(n);
                self.import("jsonEnum");
                format!(
                    "jsonEnum(this.{name}Raw, {}_NAMES, {})",
                    constant(n),
                    lit(&e.null_value, e.encoding_type).trim_end_matches('n')
                )
            }
            TypeRef::Set(_) => format!("this.{name}.toJson()"),
            TypeRef::Composite(_) => format!("this.{name}._json()"),
        }
    }

    /// The JSON text of a number `v` of type `t`.
    fn number_json(&mut self, t: PrimitiveType, v: &str) -> String {
        match t {
            PrimitiveType::Float => format!("{}({v})", self.import("jsonFloat")),
            PrimitiveType::Double => format!("{}({v})", self.import("jsonDouble")),
            _ => format!("String({v})"),
        }
    }

    /// A block's null bytes (every field null, padding zero), as a `Uint8Array` expression.
    pub(super) fn null_block(&self, fields: &[Field], length: usize) -> String {
        let out = self.s.null_block(fields, length);
        if out.iter().all(|&b| b == 0) {
            return format!("new Uint8Array({length})");
        }
        let list: Vec<String> = out.iter().map(u8::to_string).collect();
        format!("Uint8Array.of({})", list.join(", "))
    }
}

/// A primitive of type `t` with its type's limits (for an enum's encoding).
fn primitive_of(t: PrimitiveType) -> Primitive {
    Primitive {
        primitive_type: t,
        length: 1,
        presence: Presence::Required,
        byte_order: ByteOrder::LittleEndian,
        null_value: t.null_value(),
        min_value: t.min_value(),
        max_value: t.max_value(),
        const_value: None,
        character_encoding: None,
        range_declared: false,
    }
}

/// The TypeScript type and value of a constant primitive.
fn const_value(p: &Primitive) -> (&'static str, String) {
    match &p.const_value {
        Some(PrimitiveValue::Bytes { bytes, .. }) => {
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            let text: String = if is_utf8(p.character_encoding.as_deref()) {
                String::from_utf8_lossy(&bytes[..end]).into_owned()
            } else {
                bytes[..end].iter().map(|&b| char::from(b)).collect()
            };
            ("string", str_lit(&text))
        }
        Some(v) if p.primitive_type == PrimitiveType::Char => {
            let code = v.as_i128().unwrap_or(0);
            (
                "string",
                str_lit(&char::from(u8::try_from(code).unwrap_or(0)).to_string()),
            )
        }
        Some(v) => (ts_type(p.primitive_type), lit(v, p.primitive_type)),
        None => ("null", "null".to_owned()),
    }
}

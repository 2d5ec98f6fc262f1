//! Fixed fields and composite members: a decoder's property, an encoder's fluent setter, the
//! metadata constants, the canonical JSON of the value and its null bytes.

use sable_ir::PrimitiveType;

use super::names::{
    accessor, class_name, codec, constant, docstring, is_utf8, lit, py_type, str_lit,
};
use super::Gen;
use crate::model::{Field, Primitive, TypeRef};

pub(super) use crate::model::Slot;

/// Block fields read when the decoder reaches the block: the attributes they are (for
/// `__slots__`) and the statements setting them from `v`, the block's values.
#[derive(Default)]
pub(super) struct Eager {
    pub attrs: Vec<String>,
    pub lines: Vec<String>,
}

impl Eager {
    pub fn extend(&mut self, other: Eager) {
        self.attrs.extend(other.attrs);
        self.lines.extend(other.lines);
    }
}

/// The attribute a slot read with its block is: its accessor (a char array's bytes:
/// `<accessor>_bytes`, its text being a property).
pub(super) fn eager_attr(slot: &Slot<'_>) -> String {
    let name = accessor(slot.name);
    match slot.type_ref {
        TypeRef::Primitive(p) if p.primitive_type == PrimitiveType::Char && p.is_array() => {
            format!("{name}_bytes")
        }
        _ => name,
    }
}

/// Statements writing `v` with struct `f` at `pos`: a value the type cannot hold is
/// `valueOutOfRange` (field `key`).
fn put(f: &str, pos: &str, v: &str, key: &str) -> Vec<String> {
    vec![
        "try:".to_owned(),
        format!("    {f}.pack_into(self._buf, {pos}, {v})"),
        "except struct.error as e:".to_owned(),
        format!("    raise self._range({key}, {v}, e, {pos}) from None"),
    ]
}

/// A docstring as the `#:` comment that documents an attribute.
pub(super) fn comment(doc: &str) -> String {
    format!("#: {}", doc.trim_matches('"').trim())
}

/// Where a flyweight reads and writes: the decoder's buffer and base offset, the encoder's
/// base offset (its buffer is `self._buf`).
pub(super) struct Place {
    pub buf: &'static str,
    pub off: &'static str,
    pub enc_off: &'static str,
}

pub(super) const BLOCK: Place = Place {
    buf: "self._block_buf",
    off: "self._block_off",
    enc_off: "self._block",
};

pub(super) const COMPOSITE: Place = Place {
    buf: "self._buf",
    off: "self._off",
    enc_off: "self._off",
};

/// The size in bytes of a slot's value on the wire.
pub(super) fn size_of(s: &crate::model::Schema, slot: &Slot<'_>) -> usize {
    if slot.constant {
        return 0;
    }
    match slot.type_ref {
        TypeRef::Primitive(p) => p.size(),
        TypeRef::Enum(n) => s.enum_type(n).encoding_type.size(),
        TypeRef::Set(n) => s.set_type(n).encoding_type.size(),
        TypeRef::Composite(n) => s.composite(n).encoded_length.max(0) as usize,
    }
}

/// Whether values of `p` are one unsigned byte: an enum or set of them is looked up in a tuple
/// of all 256.
pub(super) fn one_byte(p: PrimitiveType) -> bool {
    matches!(p, PrimitiveType::UInt8 | PrimitiveType::Char)
}

fn at(base: &str, offset: usize) -> String {
    if offset == 0 {
        base.to_owned()
    } else {
        format!("{base} + {offset}")
    }
}

impl Gen<'_> {
    /// The size in bytes of a slot's value on the wire.
    pub(super) fn slot_size(&self, slot: &Slot<'_>) -> usize {
        size_of(self.s, slot)
    }

    /// The metadata constants of a slot: id, since version, offset, length, limits.
    pub(super) fn slot_meta(&mut self, slot: &Slot<'_>) {
        let c = constant(slot.name);
        let size = self.slot_size(slot);
        let o = &mut self.out;
        if let Some(id) = slot.id {
            o.line(format!("{c}_ID: Final = {id}"));
        }
        o.line(format!("{c}_SINCE_VERSION: Final = {}", slot.since));
        o.line(format!("{c}_OFFSET: Final = {}", slot.offset));
        o.line(format!("{c}_ENCODED_LENGTH: Final = {size}"));
        if let TypeRef::Primitive(p) = slot.type_ref {
            if !p.is_constant() && p.primitive_type != PrimitiveType::Char {
                let t = p.primitive_type;
                o.line(format!("{c}_NULL: Final = {}", lit(&p.null_value, t)));
                o.line(format!("{c}_MIN: Final = {}", lit(&p.min_value, t)));
                o.line(format!("{c}_MAX: Final = {}", lit(&p.max_value, t)));
            }
            if p.is_array() {
                o.line(format!("{c}_LENGTH: Final = {}", p.length));
            }
        }
    }

    /// The type a slot's decoder property returns.
    fn read_type(&self, slot: &Slot<'_>) -> String {
        let t = match slot.type_ref {
            TypeRef::Primitive(p) if p.primitive_type == PrimitiveType::Char => "str".to_owned(),
            TypeRef::Primitive(p) if p.is_array() => {
                format!("tuple[{}, ...]", py_type(p.primitive_type))
            }
            TypeRef::Primitive(p) => py_type(p.primitive_type).to_owned(),
            TypeRef::Enum(n) if slot.constant => class_name(n),
            TypeRef::Enum(n) => format!("{} | int", class_name(n)),
            TypeRef::Set(n) => class_name(n),
            TypeRef::Composite(n) => format!("{}Decoder", class_name(n)),
        };
        let nullable = slot.optional
            && !slot.constant
            && !matches!(slot.type_ref, TypeRef::Set(_) | TypeRef::Composite(_))
            && !matches!(slot.type_ref, TypeRef::Primitive(p) if p.is_array() || p.primitive_type == PrimitiveType::Char);
        if nullable {
            format!("{t} | None")
        } else {
            t
        }
    }

    /// The expression reading a value (`count` elements; `text`: a char array as bytes) from
    /// the buffer.
    fn raw(
        &mut self,
        t: PrimitiveType,
        order: sable_ir::ByteOrder,
        count: usize,
        text: bool,
        buf: &str,
        pos: &str,
    ) -> String {
        let f = self.fmt(t, order, count, text);
        let one = if count > 1 && !text { "" } else { "[0]" };
        format!("{f}.unpack_from({buf}, {pos}){one}")
    }

    /// A decoder's accessor for a slot. `val`: the value's index in the block's values read at
    /// once, when it is there: then the value is an attribute set when the decoder reaches the
    /// block (returned: its attribute declarations and the statements setting it from `v`, the
    /// block's values); else a property reading the buffer.
    pub(super) fn slot_getter(
        &mut self,
        slot: &Slot<'_>,
        place: &Place,
        val: Option<usize>,
    ) -> Option<Eager> {
        if let Some(i) = val.filter(|_| !slot.constant) {
            return Some(self.slot_eager(slot, place, i));
        }
        let name = accessor(slot.name);
        let ret = self.read_type(slot);
        let doc = docstring(slot.description, &format!("`{}`.", slot.name));
        let pos = at(place.off, slot.offset);
        let buf = place.buf;
        let mut body: Vec<String> = Vec::new();
        let mut extra: Option<(String, String, Vec<String>)> = None;
        match slot.type_ref {
            TypeRef::Primitive(p) if slot.constant => {
                // A class attribute: read like a field, at no cost.
                self.out.line(comment(&doc));
                self.out
                    .line(format!("{name}: Final[{ret}] = {}", const_value(p)));
                self.out.blank();
                return None;
            }
            TypeRef::Enum(n) if slot.constant => {
                let value = slot.const_enum.map_or_else(|| "NULL".to_owned(), constant);
                self.out.line(comment(&doc));
                self.out
                    .line(format!("{name}: Final[{ret}] = {}.{value}", class_name(n)));
                self.out.blank();
                return None;
            }
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                if t == PrimitiveType::Char && p.is_array() {
                    let raw = self.raw(t, p.byte_order, p.length, true, buf, &pos);
                    body.push(format!("raw: bytes = {raw}"));
                    body.push(format!(
                        "return raw.split(b\"\\0\", 1)[0].decode({})",
                        str_lit(codec(p.character_encoding.as_deref()))
                    ));
                    extra = Some((
                        format!("{name}_bytes"),
                        "bytes".to_owned(),
                        vec![format!("raw: bytes = {raw}"), "return raw".to_owned()],
                    ));
                } else if p.is_array() {
                    let raw = self.raw(t, p.byte_order, p.length, false, buf, &pos);
                    body.push(format!("v: {ret} = {raw}"));
                    body.push("return v".to_owned());
                } else {
                    let raw = self.raw(t, p.byte_order, 1, false, buf, &pos);
                    let (vt, value) = if t == PrimitiveType::Char {
                        ("int", "chr(v)")
                    } else {
                        (py_type(t), "v")
                    };
                    body.push(format!("v: {vt} = {raw}"));
                    if slot.optional && t != PrimitiveType::Char {
                        body.push(format!("return None if {} else {value}", is_null(p, "v")));
                    } else {
                        body.push(format!("return {value}"));
                    }
                }
            }
            TypeRef::Enum(n) => {
                let e = self.s.enum_type(n);
                let raw = self.raw(e.encoding_type, e.byte_order, 1, false, buf, &pos);
                body.push(format!("v: int = {raw}"));
                if slot.optional {
                    body.push(format!("if v == {}:", lit(&e.null_value, e.encoding_type)));
                    body.push("    return None".to_owned());
                }
                if one_byte(e.encoding_type) {
                    body.push(format!("return _{}_OF[v]", constant(n)));
                } else {
                    body.push(format!("return _{}_VALUES.get(v, v)", constant(n)));
                }
            }
            TypeRef::Set(n) => {
                let st = self.s.set_type(n);
                let raw = self.raw(st.encoding_type, st.byte_order, 1, false, buf, &pos);
                if one_byte(st.encoding_type) {
                    body.push(format!("return _{}_OF[{raw}]", constant(n)));
                } else {
                    body.push(format!("return {}({raw})", class_name(n)));
                }
            }
            TypeRef::Composite(n) => {
                body.push(format!(
                    "return {}Decoder({buf}, {pos}, self._version)",
                    class_name(n)
                ));
            }
        }
        self.property(&name, &ret, &doc, &body);
        if let Some((n, t, b)) = extra {
            let doc = format!(
                "\"\"\"`{}`: every byte of the array (the text and its NUL padding).\"\"\"",
                slot.name
            );
            self.property(&n, &t, &doc, &b);
        }
        None
    }

    /// A slot read with its block (value `i` of `v`): its attribute, declared here, and the
    /// statements setting it. A char array's attribute is its bytes (`<name>_bytes`); its
    /// text is a property. A composite's is its decoder, its members set from `v` too.
    fn slot_eager(&mut self, slot: &Slot<'_>, place: &Place, i: usize) -> Eager {
        let name = accessor(slot.name);
        let doc = docstring(slot.description, &format!("`{}`.", slot.name));
        let lines = self.eager_lines(slot, place, i);
        let (attr, t) = if let Some(c) = self.flat_composite(slot) {
            (name.clone(), format!("{}Decoder", class_name(&c.name)))
        } else {
            let attr = eager_attr(slot);
            let t = if attr == name {
                self.read_type(slot)
            } else {
                // A char array: its text is a property of its bytes.
                let TypeRef::Primitive(p) = slot.type_ref else {
                    unreachable!("only a char array's attribute is its bytes")
                };
                self.property(
                    &name,
                    "str",
                    &doc,
                    &[format!(
                        "return self.{attr}.split(b\"\\0\", 1)[0].decode({})",
                        str_lit(codec(p.character_encoding.as_deref()))
                    )],
                );
                "bytes".to_owned()
            };
            (attr, t)
        };
        let doc = if attr.ends_with("_bytes") && attr != name {
            format!(
                "`{}`: every byte of the array (the text and its NUL padding).",
                slot.name
            )
        } else {
            doc
        };
        let o = &mut self.out;
        o.line(comment(&doc));
        o.line(format!("{attr}: {t}"));
        o.blank();
        Eager {
            lines,
            attrs: vec![attr],
        }
    }

    /// The statements setting a slot read with its block from `v`, the block's values (its
    /// first at `i`); a composite's decoder is made here, its members set too.
    pub(super) fn eager_lines(&self, slot: &Slot<'_>, place: &Place, i: usize) -> Vec<String> {
        let name = accessor(slot.name);
        let Some(composite) = self.flat_composite(slot) else {
            let (attr, value) = self.eager_value(slot, i);
            return vec![format!("self.{attr} = {value}")];
        };
        let cls = format!("{}Decoder", class_name(&composite.name));
        let (_, at) = self.composite_layout(composite).unwrap_or_default();
        // (A variable of its own: mypy gives each one type.)
        let c = format!("c_{name}");
        let mut lines = kept_composite(&c, "self", &name, &cls);
        lines.extend([
            format!("{c}._buf = {}", place.buf),
            format!("{c}._off = {}", self::at(place.off, slot.offset)),
            format!("{c}._version = self._version"),
        ]);
        for (m, k) in composite.members.iter().zip(at) {
            if let Some(k) = k {
                let (attr, value) = self.eager_value(&Slot::of_member(m), i + k);
                lines.push(format!("{c}.{attr} = {value}"));
            }
        }
        lines
    }

    /// The attribute of a slot read with its block and its value from `v[i]` (not a
    /// composite).
    pub(super) fn eager_value(&self, slot: &Slot<'_>, i: usize) -> (String, String) {
        let v = format!("v[{i}]");
        let value = match slot.type_ref {
            TypeRef::Primitive(p) if p.primitive_type == PrimitiveType::Char && p.is_array() => v,
            TypeRef::Primitive(p) if p.is_array() => format!("v[{i}:{}]", i + p.length),
            _ => self.convert(slot, &v).unwrap_or(v),
        };
        (eager_attr(slot), value)
    }

    /// The value of a single (not array) slot from `v`, the raw value read: `None` when it is
    /// `v` itself.
    fn convert(&self, slot: &Slot<'_>, v: &str) -> Option<String> {
        Some(match slot.type_ref {
            TypeRef::Primitive(p) if p.is_array() => return None,
            TypeRef::Primitive(p) if p.primitive_type == PrimitiveType::Char => {
                format!("chr({v})")
            }
            TypeRef::Primitive(p) if slot.optional => {
                format!("None if {} else {v}", is_null(p, v))
            }
            TypeRef::Enum(n) => {
                let e = self.s.enum_type(n);
                let get = if one_byte(e.encoding_type) {
                    format!("_{}_OF[{v}]", constant(n))
                } else {
                    format!("_{}_VALUES.get({v}, {v})", constant(n))
                };
                if slot.optional {
                    let null = lit(&e.null_value, e.encoding_type);
                    format!("None if {v} == {null} else {get}")
                } else {
                    get
                }
            }
            TypeRef::Set(n) => {
                if one_byte(self.s.set_type(n).encoding_type) {
                    format!("_{}_OF[{v}]", constant(n))
                } else {
                    format!("{}({v})", class_name(n))
                }
            }
            _ => return None,
        })
    }

    /// A block's (or entry's) fields read by one struct straight into their attributes: the
    /// statements making the composite decoders read with the block (`made`: their buffer
    /// and version, which a group's generator does once for all its entries), and those
    /// reading the block at `pos` of `buf` (`(a, b, ...) = _STRUCT.unpack_from(buf, pos)`,
    /// then the values converted: enums, sets, arrays, optional nulls).
    pub(super) fn fill_into(
        &self,
        fields: &[Field],
        layout: &[Option<usize>],
        format: &str,
        obj: &str,
        version: &str,
    ) -> (Vec<String>, Vec<String>) {
        let count: usize = fields
            .iter()
            .zip(layout)
            .filter_map(|(f, i)| i.map(|_| self.value_count(&Slot::of_field(f))))
            .sum();
        let mut targets: Vec<Option<String>> = vec![None; count];
        let (mut made, mut post) = (Vec::new(), Vec::new());
        for (f, i) in fields.iter().zip(layout) {
            let slot = Slot::of_field(f);
            let Some(i) = i.filter(|_| !slot.constant) else {
                continue;
            };
            let Some(composite) = self.flat_composite(&slot) else {
                self.targets(&slot, obj, i, &mut targets, &mut post);
                continue;
            };
            let name = accessor(slot.name);
            let c = format!("c_{name}");
            let cls = format!("{}Decoder", class_name(&composite.name));
            made.extend(kept_composite(&c, obj, &name, &cls));
            made.push(format!("{c}._buf = buf"));
            made.push(format!("{c}._version = {version}"));
            let (_, cat) = self.composite_layout(composite).unwrap_or_default();
            for (m, k) in composite.members.iter().zip(cat) {
                if let Some(k) = k {
                    self.targets(&Slot::of_member(m), &c, i + k, &mut targets, &mut post);
                }
            }
            post.push(format!("{c}._off = {}", at("pos", slot.offset)));
        }
        let targets: Vec<String> = targets
            .into_iter()
            .map(|t| t.unwrap_or_else(|| "_".to_owned()))
            .collect();
        let mut lines = if targets.len() == 1 {
            vec![format!(
                "({},) = {format}.unpack_from(buf, pos)",
                targets[0]
            )]
        } else {
            let mut l = vec!["(".to_owned()];
            l.extend(targets.iter().map(|t| format!("    {t},")));
            l.push(format!(") = {format}.unpack_from(buf, pos)"));
            l
        };
        lines.extend(post);
        (made, lines)
    }

    /// How many values a slot reads in a block's struct.
    fn value_count(&self, slot: &Slot<'_>) -> usize {
        if let Some(c) = self.flat_composite(slot) {
            return c
                .members
                .iter()
                .map(|m| self.value_count(&Slot::of_member(m)))
                .sum();
        }
        match slot.type_ref {
            _ if slot.constant || self.slot_size(slot) == 0 => 0,
            TypeRef::Primitive(p) if p.is_array() && p.primitive_type != PrimitiveType::Char => {
                p.length
            }
            TypeRef::Composite(_) => 0,
            _ => 1,
        }
    }

    /// The targets of a (not composite) slot's values, the `i`th value on, in the tuple
    /// assignment of its block's struct, and the statements converting them after it.
    fn targets(
        &self,
        slot: &Slot<'_>,
        obj: &str,
        i: usize,
        targets: &mut [Option<String>],
        post: &mut Vec<String>,
    ) {
        let attr = eager_attr(slot);
        match slot.type_ref {
            TypeRef::Primitive(p) if p.is_array() && p.primitive_type != PrimitiveType::Char => {
                let names: Vec<String> = (i..i + p.length).map(|k| format!("v{k}")).collect();
                for (k, n) in names.iter().enumerate() {
                    targets[i + k] = Some(n.clone());
                }
                let tuple = if names.len() == 1 {
                    format!("({},)", names[0])
                } else {
                    format!("({})", names.join(", "))
                };
                post.push(format!("{obj}.{attr} = {tuple}"));
            }
            _ => match self.convert(slot, &format!("v{i}")) {
                Some(value) => {
                    targets[i] = Some(format!("v{i}"));
                    post.push(format!("{obj}.{attr} = {value}"));
                }
                None => targets[i] = Some(format!("{obj}.{attr}")),
            },
        }
    }

    fn property(&mut self, name: &str, ret: &str, doc: &str, body: &[String]) {
        let o = &mut self.out;
        o.line("@property");
        o.line(format!("def {name}(self) -> {ret}:"));
        o.indent();
        o.line(doc);
        for l in body {
            o.line(l);
        }
        o.outdent();
        o.blank();
    }

    /// An encoder's fluent setter(s) for a slot (none for a constant).
    /// `kept`: a group entry's composites, whose encoder is kept by the group's encoder (one
    /// object, moved to the entry by each call).
    pub(super) fn slot_setter(&mut self, slot: &Slot<'_>, place: &Place, cls: &str, kept: bool) {
        if slot.constant {
            return;
        }
        let name = accessor(slot.name);
        let key = str_lit(slot.name);
        let pos = at(place.enc_off, slot.offset);
        let doc = docstring(slot.description, &format!("Writes `{}`.", slot.name));
        let mut lines: Vec<String> = Vec::new();
        let (param, value_type) = match slot.type_ref {
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                if t == PrimitiveType::Char && p.is_array() {
                    let f = self.fmt(t, p.byte_order, p.length, true);
                    lines.push(format!(
                        "self._put({f}.pack_into, {pos}, self._text(value, {}, {}, {key}, {pos}), {key})",
                        p.length,
                        str_lit(codec(p.character_encoding.as_deref()))
                    ));
                    ("value", "str | bytes".to_owned())
                } else if p.is_array() {
                    let f = self.fmt(t, p.byte_order, p.length, false);
                    let single = self.fmt(t, p.byte_order, 1, false);
                    lines.push(format!("if len(values) != {}:", p.length));
                    lines.push(format!(
                        "    raise self._fail({key}, \"indexOutOfRange\", f\"{{len(values)}} values for {} elements\", {pos})",
                        p.length
                    ));
                    lines.push(format!(
                        "self._put_all({f}.pack_into, {pos}, values, {key})"
                    ));
                    self.setter(
                        &name,
                        "values",
                        &format!("Sequence[{}]", py_type(t)),
                        cls,
                        &doc,
                        &lines,
                    );
                    // One element.
                    let lines = vec![
                        format!("if not 0 <= index < {}:", p.length),
                        format!(
                            "    raise self._fail({key}, \"indexOutOfRange\", f\"index {{index}} of {} elements\", {pos})",
                            p.length
                        ),
                        format!(
                            "self._put({single}.pack_into, {pos} + index * {}, value, {key})",
                            t.size()
                        ),
                    ];
                    let doc = format!("\"\"\"Writes element `index` of `{}`.\"\"\"", slot.name);
                    self.setter(
                        &format!("{name}_at"),
                        "index: int, value",
                        py_type(t),
                        cls,
                        &doc,
                        &lines,
                    );
                    return;
                } else if t == PrimitiveType::Char {
                    let f = self.fmt(t, p.byte_order, 1, false);
                    lines.push(format!(
                        "self._put({f}.pack_into, {pos}, self._char(value, {}, {key}, {pos}), {key})",
                        str_lit(codec(p.character_encoding.as_deref()))
                    ));
                    ("value", "str".to_owned())
                } else {
                    let f = self.fmt(t, p.byte_order, 1, false);
                    let null = lit(&p.null_value, t);
                    let v = if slot.optional {
                        lines.push(format!("v = {null} if value is None else value"));
                        "v"
                    } else {
                        "value"
                    };
                    if p.range_declared {
                        let (min, max) = (lit(&p.min_value, t), lit(&p.max_value, t));
                        lines.push(format!("if not {min} <= {v} <= {max} and {v} != {null}:"));
                        lines.push(format!(
                            "    raise self._fail({key}, \"valueOutOfRange\", f\"{{{v}}} is outside {min}..{max}\", {pos})"
                        ));
                    }
                    lines.extend(put(&f, &pos, v, &key));
                    let t = py_type(t).to_owned();
                    (
                        "value",
                        if slot.optional {
                            format!("{t} | None")
                        } else {
                            t
                        },
                    )
                }
            }
            TypeRef::Enum(n) => {
                let e = self.s.enum_type(n);
                let f = self.fmt(e.encoding_type, e.byte_order, 1, false);
                let v = if slot.optional {
                    lines.push(format!(
                        "v = {} if value is None else value",
                        lit(&e.null_value, e.encoding_type)
                    ));
                    "v"
                } else {
                    "value"
                };
                lines.extend(put(&f, &pos, v, &key));
                (
                    "value",
                    if slot.optional {
                        "int | None".to_owned()
                    } else {
                        "int".to_owned()
                    },
                )
            }
            TypeRef::Set(n) => {
                let st = self.s.set_type(n);
                let f = self.fmt(st.encoding_type, st.byte_order, 1, false);
                lines.extend(put(&f, &pos, "value", &key));
                ("value", "int".to_owned())
            }
            TypeRef::Composite(n) => {
                let o = &mut self.out;
                o.line(format!("def {name}(self) -> {}Encoder:", class_name(n)));
                o.indent();
                o.line(docstring(
                    slot.description,
                    &format!("The encoder of composite `{}`.", slot.name),
                ));
                let cls = format!("{}Encoder", class_name(n));
                if kept {
                    o.line(format!("c = self._c_{name}"));
                    o.line("if c is None:");
                    o.indent();
                    o.line(format!("c = self._c_{name} = {cls}.__new__({cls})"));
                    for (attr, value) in [
                        ("_buf", "self._buf"),
                        ("_parent", "self"),
                        ("_name", key.as_str()),
                        ("_msg", "self._root._msg"),
                    ] {
                        o.line(format!("c.{attr} = {value}"));
                    }
                    o.outdent();
                    o.line(format!("c._off = {pos}"));
                    o.line("return c");
                } else {
                    o.line(format!("c = {cls}.__new__({cls})"));
                    for (attr, value) in [
                        ("_buf", "self._buf"),
                        ("_off", pos.as_str()),
                        ("_parent", "self"),
                        ("_name", key.as_str()),
                        ("_msg", "self._msg"),
                    ] {
                        o.line(format!("c.{attr} = {value}"));
                    }
                    o.line("return c");
                }
                o.outdent();
                o.blank();
                return;
            }
        };
        self.setter(&name, param, &value_type, cls, &doc, &lines);
    }

    fn setter(
        &mut self,
        name: &str,
        param: &str,
        ptype: &str,
        cls: &str,
        doc: &str,
        lines: &[String],
    ) {
        let o = &mut self.out;
        let params = if param == "index: int, value" {
            format!("index: int, value: {ptype}")
        } else {
            format!("{param}: {ptype}")
        };
        o.line(format!("def {name}(self, {params}) -> {cls}:"));
        o.indent();
        o.line(doc);
        for l in lines {
            o.line(l);
        }
        o.line("return self");
        o.outdent();
        o.blank();
    }

    /// Statements appending the slot's canonical JSON value to `out`.
    pub(super) fn slot_json(&mut self, slot: &Slot<'_>, place: &Place) -> Vec<String> {
        let pos = at(place.off, slot.offset);
        let buf = place.buf;
        match slot.type_ref {
            TypeRef::Primitive(p) if slot.constant => {
                let text = p.const_value.as_ref().map_or_else(
                    || "null".to_owned(),
                    |v| crate::rust::json::const_json(p, v),
                );
                vec![format!("out.append({})", str_lit(&text))]
            }
            TypeRef::Enum(_) if slot.constant => {
                let text = slot
                    .const_enum
                    .map_or_else(|| "null".to_owned(), |v| format!("\"{v}\""));
                vec![format!("out.append({})", str_lit(&text))]
            }
            TypeRef::Primitive(p) => {
                let t = p.primitive_type;
                let utf8 = if is_utf8(p.character_encoding.as_deref()) {
                    "True"
                } else {
                    "False"
                };
                if p.is_array() && matches!(t, PrimitiveType::Char) {
                    let f = self.fmt(t, p.byte_order, p.length, true);
                    vec![format!(
                        "out.append(json_text({f}.unpack_from({buf}, {pos})[0], {utf8}))"
                    )]
                } else if p.is_array() && matches!(t, PrimitiveType::UInt8 | PrimitiveType::Int8) {
                    let f = self.fmt(t, p.byte_order, p.length, true);
                    vec![format!(
                        "out.append(f'\"{{{f}.unpack_from({buf}, {pos})[0].hex()}}\"')"
                    )]
                } else if p.is_array() {
                    let f = self.fmt(t, p.byte_order, p.length, false);
                    let each = match t {
                        PrimitiveType::Float => "json_float",
                        PrimitiveType::Double => "json_double",
                        _ => "str",
                    };
                    vec![format!(
                        "out.append(f\"[{{','.join(map({each}, {f}.unpack_from({buf}, {pos})))}}]\")"
                    )]
                } else {
                    let f = self.fmt(t, p.byte_order, 1, false);
                    let value = match t {
                        PrimitiveType::Char => format!("json_char(v, {utf8})"),
                        PrimitiveType::Float => "json_float(v)".to_owned(),
                        PrimitiveType::Double => "json_double(v)".to_owned(),
                        _ => "str(v)".to_owned(),
                    };
                    let mut lines = vec![format!("v = {f}.unpack_from({buf}, {pos})[0]")];
                    if slot.optional {
                        lines.push(format!(
                            "out.append(\"null\" if {} else {value})",
                            is_null(p, "v")
                        ));
                    } else {
                        lines.push(format!("out.append({value})"));
                    }
                    lines
                }
            }
            TypeRef::Enum(n) => {
                let e = self.s.enum_type(n);
                let f = self.fmt(e.encoding_type, e.byte_order, 1, false);
                vec![format!(
                    "out.append(json_enum({f}.unpack_from({buf}, {pos})[0], _{}_JSON, {}))",
                    constant(n),
                    lit(&e.null_value, e.encoding_type)
                )]
            }
            TypeRef::Set(n) => {
                let st = self.s.set_type(n);
                let f = self.fmt(st.encoding_type, st.byte_order, 1, false);
                vec![format!(
                    "out.append(json_set({f}.unpack_from({buf}, {pos})[0], _{}_CHOICES))",
                    constant(n)
                )]
            }
            TypeRef::Composite(n) => {
                vec![format!(
                    "{}Decoder({buf}, {pos}, self._version)._json(out)",
                    class_name(n)
                )]
            }
        }
    }
}

/// A Python condition: `v` holds the primitive's null value.
fn is_null(p: &Primitive, v: &str) -> String {
    let null = lit(&p.null_value, p.primitive_type);
    if null == "math.nan" {
        format!("{v} != {v}")
    } else {
        format!("{v} == {null}")
    }
}

/// The Python value of a constant primitive.
fn const_value(p: &Primitive) -> String {
    match &p.const_value {
        Some(sable_ir::PrimitiveValue::Bytes { bytes, .. }) => {
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            let text: String = if is_utf8(p.character_encoding.as_deref()) {
                String::from_utf8_lossy(&bytes[..end]).into_owned()
            } else {
                bytes[..end].iter().map(|&b| char::from(b)).collect()
            };
            str_lit(&text)
        }
        Some(v) if p.primitive_type == PrimitiveType::Char => {
            let code = v.as_i128().unwrap_or(0);
            str_lit(&char::from(u8::try_from(code).unwrap_or(0)).to_string())
        }
        Some(v) => lit(v, p.primitive_type),
        None => "None".to_owned(),
    }
}

/// The statements binding `c` to the decoder of composite field `name` that `obj` keeps
/// (one per decoder, moved with its block, as the group decoders are), made on first use.
fn kept_composite(c: &str, obj: &str, name: &str, cls: &str) -> Vec<String> {
    vec![
        "try:".to_owned(),
        format!("    {c} = {obj}.{name}"),
        "except AttributeError:  # the first block read".to_owned(),
        format!("    {c} = {obj}.{name} = {cls}.__new__({cls})"),
    ]
}

//! An encoder's `fields(...)`: every fixed field of a block written by one call, the block's
//! values packed at once (a struct per run of adjacent fields), checked as the setters check
//! them; a composite's members are parameters of their own (`engine_capacity`).

use sable_ir::{ByteOrder, PrimitiveType};

use super::fields::{size_of, Slot};
use super::names::{accessor, codec, format_letter, lit, plus, py_type, str_lit};
use super::Gen;
use crate::model::{Field, Schema, TypeRef};

/// Names a parameter must not take: the modules, builtins and names the methods use (the
/// locals they use begin with `_`, which no accessor does).
const RESERVED: &[&str] = &[
    "self",
    "struct",
    "math",
    "enum",
    "len",
    "isinstance",
    "EncodeError",
];

/// A value of the block `fields(...)` writes: a primitive, enum or set, or an array of them.
struct Param<'a> {
    /// The parameter's name.
    name: String,
    /// The value's path below the block, as errors name it (`engine.capacity`).
    key: String,
    /// Its offset in the block.
    offset: usize,
    slot: Slot<'a>,
    /// The accessors leading to it (`engine().booster().`), for the setters' fallback.
    chain: String,
}

/// The writable values of a block's fields, composites' members flattened, in schema order.
fn params<'s>(s: &'s Schema, fields: &'s [Field]) -> Vec<Param<'s>> {
    let mut out = Vec::new();
    for f in fields {
        flatten(s, Slot::of_field(f), "", "", 0, "", &mut out);
    }
    // Parameter names stay distinct (a field `engine_capacity` beside `engine.capacity`).
    let mut seen = std::collections::BTreeSet::new();
    for p in &mut out {
        while !seen.insert(p.name.clone()) || RESERVED.contains(&p.name.as_str()) {
            p.name.push('_');
        }
    }
    out
}

fn flatten<'s>(
    s: &'s Schema,
    slot: Slot<'s>,
    prefix: &str,
    key_prefix: &str,
    base: usize,
    chain: &str,
    out: &mut Vec<Param<'s>>,
) {
    if slot.constant || size_of(s, &slot) == 0 {
        return;
    }
    let name = format!("{prefix}{}", accessor(slot.name));
    let key = format!("{key_prefix}{}", slot.name);
    let offset = base + slot.offset;
    if let TypeRef::Composite(n) = slot.type_ref {
        let c = s.composite(n);
        let chain = format!("{chain}{}().", accessor(slot.name));
        for m in &c.members {
            flatten(
                s,
                Slot::of_member(m),
                &format!("{name}_"),
                &format!("{key}."),
                offset,
                &chain,
                out,
            );
        }
        return;
    }
    out.push(Param {
        name,
        key,
        offset,
        slot,
        chain: chain.to_owned(),
    });
}

impl Gen<'_> {
    /// A value's struct code, its size, how many values it packs and its byte order.
    fn pack_code(&self, slot: &Slot<'_>) -> (String, usize, usize, ByteOrder) {
        let size = self.slot_size(slot);
        match slot.type_ref {
            TypeRef::Primitive(p) if p.primitive_type == PrimitiveType::Char && p.is_array() => {
                (format!("{}s", p.length), size, 1, p.byte_order)
            }
            TypeRef::Primitive(p) if p.is_array() => (
                format!("{}{}", p.length, format_letter(p.primitive_type)),
                size,
                p.length,
                p.byte_order,
            ),
            TypeRef::Primitive(p) => (
                format_letter(p.primitive_type).to_string(),
                size,
                1,
                p.byte_order,
            ),
            TypeRef::Enum(n) => {
                let e = self.s.enum_type(n);
                (
                    format_letter(e.encoding_type).to_string(),
                    size,
                    1,
                    e.byte_order,
                )
            }
            TypeRef::Set(n) => {
                let st = self.s.set_type(n);
                (
                    format_letter(st.encoding_type).to_string(),
                    size,
                    1,
                    st.byte_order,
                )
            }
            TypeRef::Composite(_) => unreachable!("composites are flattened"),
        }
    }

    /// The parameter's annotation.
    fn param_type(&self, slot: &Slot<'_>) -> String {
        let t = match slot.type_ref {
            TypeRef::Primitive(p) if p.primitive_type == PrimitiveType::Char && p.is_array() => {
                return "str | bytes".to_owned();
            }
            TypeRef::Primitive(p) if p.is_array() => {
                return format!("Sequence[{}]", py_type(p.primitive_type));
            }
            TypeRef::Primitive(p) if p.primitive_type == PrimitiveType::Char => {
                return "str".to_owned();
            }
            TypeRef::Primitive(p) => py_type(p.primitive_type),
            _ => "int",
        };
        if slot.optional && !matches!(slot.type_ref, TypeRef::Set(_)) {
            format!("{t} | None")
        } else {
            t.to_owned()
        }
    }

    /// An encoder's `fields(...)`, and a group encoder's `add(...)` (`entry`: the entry's
    /// block length, and the count's struct and offset in the dimension); none when the block
    /// has nothing to write.
    pub(super) fn block_setter(
        &mut self,
        fields: &[Field],
        prefix: &str,
        cls: &str,
        entry: Option<(usize, &str, usize)>,
    ) {
        let params = params(self.s, fields);
        if params.is_empty() {
            return;
        }
        let sig: Vec<String> = params
            .iter()
            .map(|p| format!("{}: {}", p.name, self.param_type(&p.slot)))
            .collect();
        let sig = sig.join(", ");
        // Adjacent values in one byte order pack as one run; overlapping values (or mixed
        // byte orders) are written by the setters instead.
        let mut order: Vec<usize> = (0..params.len()).collect();
        order.sort_by_key(|&i| params[i].offset);
        let mut runs: Vec<(usize, usize, Vec<usize>)> = Vec::new(); // (offset, end, params)
        let mut byte_order = None;
        let mut packed = true;
        for &i in &order {
            let p = &params[i];
            let (_, size, _, bo) = self.pack_code(&p.slot);
            if *byte_order.get_or_insert(bo) != bo {
                packed = false;
            }
            match runs.last_mut() {
                Some((_, end, members)) if *end == p.offset => {
                    *end += size;
                    members.push(i);
                }
                Some((_, end, _)) if *end > p.offset => packed = false,
                _ => runs.push((p.offset, p.offset + size, vec![i])),
            }
        }
        let big = byte_order == Some(ByteOrder::BigEndian);
        let o = &mut self.out;
        o.line(format!("def fields(self, {sig}) -> {cls}:"));
        o.indent();
        o.line(
            "\"\"\"Writes every fixed field at once (a composite's members as `<field>_<member>`),",
        );
        o.line("checked as the setters check them; nothing is written when one is refused.\"\"\"");
        if packed {
            let lines = self.pack_block(&params, &runs, big, prefix, "self._block", false);
            let o = &mut self.out;
            for l in &lines {
                o.line(l);
            }
        } else {
            for p in &params {
                o.line(format!(
                    "self.{}{}({})",
                    p.chain,
                    accessor(p.slot.name),
                    p.name
                ));
            }
        }
        let o = &mut self.out;
        o.line("return self");
        o.outdent();
        o.blank();
        let Some((block_length, count_f, count_at)) = entry else {
            return;
        };
        let args: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        o.line(format!("def add(self, {sig}) -> {cls}:"));
        o.indent();
        o.line("\"\"\"Adds an entry with these fields (as `next_entry()` then `fields(...)`) and moves");
        o.line("this encoder to it; nothing is added when a value is refused.\"\"\"");
        if !packed {
            o.line(format!(
                "return self.next_entry().fields({})",
                args.join(", ")
            ));
            o.outdent();
            o.blank();
            return;
        }
        o.line("_root = self._root");
        o.line("_at = _root._limit");
        o.line("_index = self._index + 1");
        o.line(format!(
            "if _index >= self._most or _at + {block_length} > _root._cap:"
        ));
        o.line("    self._add_entry()  # raises: countTooLarge, indexOutOfRange or bufferTooShort");
        o.line("self._index = _index  # (errors name the entry)");
        o.line("try:");
        o.indent();
        let lines = self.pack_block(&params, &runs, big, prefix, "_at", true);
        let o = &mut self.out;
        for l in &lines {
            o.line(l);
        }
        o.outdent();
        o.line("except EncodeError:");
        o.line("    self._index = _index - 1");
        o.line("    raise");
        o.line("if self._follow:");
        o.line(format!(
            "    {count_f}.pack_into(self._buf, {}, _index + 1)",
            plus("self._dim", count_at)
        ));
        o.line("self._block = _at");
        o.line(format!("_root._limit = _at + {block_length}"));
        o.line("return self");
        o.outdent();
        o.blank();
    }

    /// The statements writing a block's values (`params`, in `runs`) at `base`: their checks
    /// and conversions, then each run packed and copied into the buffer (a refused value
    /// leaves the buffer as it was), or, `direct`, packed into the buffer (`add(...)`: a new
    /// entry, past the encoded length, where a refused value's run may leave bytes).
    fn pack_block(
        &mut self,
        params: &[Param<'_>],
        runs: &[(usize, usize, Vec<usize>)],
        big: bool,
        prefix: &str,
        base: &str,
        direct: bool,
    ) -> Vec<String> {
        let at = |offset: usize| plus(base, offset);
        let mut lines: Vec<String> = Vec::new();
        let mut values: Vec<String> = Vec::with_capacity(params.len());
        let mut bad: Vec<String> = Vec::new();
        for p in params {
            let key = str_lit(&p.key);
            let pos = at(p.offset);
            let (code, _, count, bo) = self.pack_code(&p.slot);
            let order = match bo {
                ByteOrder::BigEndian => ">",
                _ => "<",
            };
            let one = format!("struct.Struct({})", str_lit(&format!("{order}{code}")));
            let many = if count > 1 { "True" } else { "False" };
            let n = &p.name;
            let value = match p.slot.type_ref {
                TypeRef::Primitive(t)
                    if t.primitive_type == PrimitiveType::Char && t.is_array() =>
                {
                    // `_text`'s checks, inline (a call fewer).
                    let codec = str_lit(codec(t.character_encoding.as_deref()));
                    let size = t.length;
                    lines.push(format!(
                        "_v_{n} = {n}.encode({codec}) if isinstance({n}, str) else bytes({n})"
                    ));
                    lines.push(format!("if len(_v_{n}) > {size}:"));
                    lines.push(format!(
                        "    raise self._fail({key}, \"textTooLong\", f\"{{len(_v_{n})}} bytes of text for {size}\", {pos})"
                    ));
                    format!("_v_{n}")
                }
                TypeRef::Primitive(t) if t.is_array() => {
                    lines.push(format!("if len({n}) != {}:", t.length));
                    lines.push(format!(
                        "    raise self._fail({key}, \"indexOutOfRange\", f\"{{len({n})}} values for {} elements\", {pos})",
                        t.length
                    ));
                    // Element by element: a plain call, where `*` would build a tuple.
                    let items: Vec<String> = (0..t.length).map(|i| format!("{n}[{i}]")).collect();
                    items.join(", ")
                }
                TypeRef::Primitive(t) if t.primitive_type == PrimitiveType::Char => {
                    lines.push(format!(
                        "_v_{n} = self._char({n}, {}, {key}, {pos})",
                        str_lit(codec(t.character_encoding.as_deref()))
                    ));
                    format!("_v_{n}")
                }
                TypeRef::Primitive(t) => {
                    let ty = t.primitive_type;
                    let null = lit(&t.null_value, ty);
                    let v = if p.slot.optional {
                        lines.push(format!("_v_{n} = {null} if {n} is None else {n}"));
                        format!("_v_{n}")
                    } else {
                        n.clone()
                    };
                    if t.range_declared {
                        let (min, max) = (lit(&t.min_value, ty), lit(&t.max_value, ty));
                        lines.push(format!("if not {min} <= {v} <= {max} and {v} != {null}:"));
                        lines.push(format!(
                            "    raise self._fail({key}, \"valueOutOfRange\", f\"{{{v}}} is outside {min}..{max}\", {pos})"
                        ));
                    }
                    v
                }
                TypeRef::Enum(e) if p.slot.optional => {
                    let e = self.s.enum_type(e);
                    lines.push(format!(
                        "_v_{n} = {} if {n} is None else {n}",
                        lit(&e.null_value, e.encoding_type)
                    ));
                    format!("_v_{n}")
                }
                _ => n.clone(),
            };
            let raw = if count > 1 {
                n.as_str()
            } else {
                value.as_str()
            };
            bad.push(format!("({key}, {one}, {pos}, {raw}, {many})"));
            values.push(value);
        }
        lines.push("try:".to_owned());
        let mut writes = Vec::new();
        for (k, (offset, end, members)) in runs.iter().enumerate() {
            let format: String = members
                .iter()
                .map(|&i| self.pack_code(&params[i].slot).0)
                .collect();
            let f = format!("{}{format}", if big { ">" } else { "<" });
            let name = if runs.len() == 1 {
                format!("_{}_PACK", super::names::constant(prefix))
            } else {
                format!("_{}_PACK{k}", super::names::constant(prefix))
            };
            self.formats.insert(super::names::Format {
                name: name.clone(),
                format: f,
            });
            let args: Vec<&str> = members.iter().map(|&i| values[i].as_str()).collect();
            if direct {
                lines.push(format!(
                    "    {name}.pack_into(self._buf, {}, {})",
                    at(*offset),
                    args.join(", ")
                ));
                continue;
            }
            lines.push(format!("    _b{k} = {name}.pack({})", args.join(", ")));
            let bytes = self.fmt(
                PrimitiveType::Char,
                ByteOrder::LittleEndian,
                *end - *offset,
                true,
            );
            writes.push((at(*offset), bytes, k));
        }
        lines.push("except struct.error:".to_owned());
        lines.push(format!(
            "    raise self._refused(({})) from None",
            tuple_items(&bad)
        ));
        for (at, bytes, k) in &writes {
            lines.push(format!("{bytes}.pack_into(self._buf, {at}, _b{k})"));
        }
        lines
    }
}

/// The items of a Python tuple literal (a trailing comma only for one item).
fn tuple_items(items: &[String]) -> String {
    if items.len() == 1 {
        format!("{},", items[0])
    } else {
        items.join(", ")
    }
}

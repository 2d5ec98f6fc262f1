//! A message's or group's encoder class: setters, group starters and var data writers.

use crate::model::{Message, TypeRef};
use crate::python::fields::{Slot, BLOCK};
use crate::python::names::{accessor, class_name, codec, docstring, str_lit};
use crate::python::Gen;

use super::{full_max, kept_groups, Owner};

impl Gen<'_> {
    /// An encoder's setters, group starters and var data writers (`group`: of a group's
    /// encoder, whose composites' encoders are kept).
    pub(super) fn encoder_body(
        &mut self,
        owner: &Owner<'_>,
        cls: &str,
        entry: Option<(usize, &str, usize)>,
    ) {
        let group = entry.is_some();
        for f in &owner.body.fields {
            self.slot_setter(&Slot::of_field(f), &BLOCK, cls, group);
        }
        let entry = entry.map(|(bl, f, at)| (bl, f.to_owned(), at));
        self.block_setter(
            &owner.body.fields,
            &owner.prefix,
            cls,
            entry.as_ref().map(|(bl, f, at)| (*bl, f.as_str(), *at)),
        );
        // A message encoder is its own root: its group starts and var data move its `_limit`.
        let root = if group { "root" } else { "self" };
        for g in &owner.body.groups {
            let gcls = format!("{}{}Encoder", owner.prefix, class_name(&g.name));
            let dims = self.dims(g);
            let composites: Vec<String> = g
                .body
                .fields
                .iter()
                .filter(|f| !f.is_constant() && matches!(f.type_ref, TypeRef::Composite(_)))
                .map(|f| format!("_c_{}", accessor(&f.name)))
                .collect();
            let o = &mut self.out;
            o.line(format!(
                "def {}(self, count: int | None = None) -> {gcls}:",
                accessor(&g.name),
            ));
            o.indent();
            o.line(docstring(
                g.description.as_deref(),
                &format!(
                    "Starts group `{}`: with `count`, its number of entries, written once (then add \
                     exactly that many with `next_entry()`); without, no entries yet (the count \
                     follows them).",
                    g.name
                ),
            ));
            let gprefix = format!("{}{}", owner.prefix, class_name(&g.name));
            let nested: Vec<String> = kept_groups(&gprefix, &g.body.groups)
                .into_iter()
                .map(|(a, _)| a)
                .collect();
            let kept = format!("_g_{}", accessor(&g.name));
            o.line(format!("g = self.{kept}"));
            o.line("if g is None:");
            o.line(format!("    g = self.{kept} = {gcls}.__new__({gcls})"));
            o.line("    g._root = self._root");
            o.line("    g._parent = self");
            for n in nested.iter().chain(&composites) {
                o.line(format!("    g.{n} = None"));
            }
            if let Some(dim) = &dims.both {
                let ds = dims.size;
                o.line("buf = self._buf");
                if group {
                    o.line("root = self._root");
                }
                o.line(format!("at = {root}._limit"));
                o.line(format!(
                    "if at + {ds} <= {root}._cap and (count is None or 0 <= count <= {}):",
                    dims.max_count
                ));
                o.indent();
                o.line("g._buf = buf");
                o.line("g._index = -1");
                // The entries' composite encoders are kept from message to message: only
                // what may differ is set again (a new one costs ten times these two stores).
                for c in &composites {
                    // (`_c_x` kept, `c_x` the local: one name per type, for mypy.)
                    let local = &c[1..];
                    o.line(format!("if ({local} := g.{c}) is not None:"));
                    o.line(format!("    {local}._buf = buf"));
                    o.line(format!("    {local}._msg = {root}._msg"));
                }
                o.line("if count is None:");
                o.line("    g._dim = at  # (where the count that follows goes)");
                o.line("    g._follow = True");
                o.line(format!("    g._most = {}", dims.max_count));
                o.line(format!(
                    "    {dim}.pack_into(buf, at, {}, 0)",
                    g.block_length
                ));
                o.line("else:");
                o.line("    g._follow = False");
                o.line("    g._most = count");
                o.line(format!(
                    "    {dim}.pack_into(buf, at, {}, count)",
                    g.block_length
                ));
                o.line(format!("{root}._limit = at + {ds}"));
                o.line("return g");
                o.outdent();
                o.line("g._start(self, count)  # raises");
            } else {
                o.line("g._start(self, count)");
                for c in &composites {
                    o.line(format!("g.{c} = None"));
                }
            }
            o.line("return g");
            o.outdent();
            o.blank();
        }
        for v in &owner.body.var_data {
            let length = &v.length;
            let f = self.fmt(length.primitive_type, length.byte_order, 1, false);
            let max = if length.range_declared {
                length.max_value.as_i128().unwrap_or(0)
            } else {
                full_max(length.primitive_type)
            };
            let size = v.length_size();
            let text = codec(v.character_encoding.as_deref());
            let codec = str_lit(text);
            let o = &mut self.out;
            o.line(format!(
                "def {}(self, value: str | bytes | bytearray | memoryview) -> {cls}:",
                accessor(&v.name)
            ));
            o.indent();
            o.line(docstring(
                v.description.as_deref(),
                &format!("Writes var data `{}` (text is encoded as {text}).", v.name,),
            ));
            o.line(format!(
                "raw = value.encode({codec}) if isinstance(value, str) else value"
            ));
            o.line("n = len(raw)");
            o.line("buf = self._buf");
            if group {
                o.line("root = self._root");
            }
            o.line(format!("at = {root}._limit"));
            o.line(format!("end = at + {size} + n"));
            o.line(format!("if n > {max} or end > {root}._cap:"));
            o.line(format!(
                "    self._var({}, raw, {codec}, {f}.pack_into, {size}, {max})  # raises",
                str_lit(&v.name),
            ));
            o.line(format!("{f}.pack_into(buf, at, n)"));
            o.line(format!("buf[at + {size} : end] = raw"));
            o.line(format!("{root}._limit = end"));
            o.line("return self");
            o.outdent();
            o.blank();
        }
    }

    /// A message encoder's start (`__init__`, `wrap`): the usual header written at once by the
    /// usual start (a header, room for it and the block); anything else by `_wrap`, which
    /// raises the errors. `init`: in `__init__`, which also makes the encoder its own root
    /// (`wrap` keeps it so).
    pub(super) fn start_message(&mut self, m: &Message, init: bool) {
        let hs = self.header_size();
        let s = self.s;
        let o = &mut self.out;
        if let Some(std) = self.header_std.clone() {
            let need = hs + m.block_length;
            o.line("cap = len(buf)");
            o.line(format!(
                "if header and 0 <= offset and offset + {need} <= cap:"
            ));
            o.indent();
            o.line("self._buf = buf");
            o.line("self._cap = cap");
            o.line("self._msg = offset");
            if init {
                o.line("self._root = self");
            }
            o.line(format!("self._block = offset + {hs}"));
            o.line(format!("self._limit = offset + {need}"));
            o.line(format!(
                "{std}.pack_into(buf, offset, {}, {}, {}, {})",
                m.block_length, m.id, s.id, s.version
            ));
            o.outdent();
            o.line("else:");
            o.line("    self._wrap(buf, offset, header)");
        } else {
            o.line("self._wrap(buf, offset, header)");
        }
    }
}

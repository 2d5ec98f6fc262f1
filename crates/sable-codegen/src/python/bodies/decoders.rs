//! A message's or group's decoder class: its tables, fields, groups, var data and JSON.

use crate::model::{Body, Group, Message, VarData};
use crate::python::fields::{eager_attr, Eager, Slot, BLOCK};
use crate::python::names::{
    accessor, bytes_lit, class_name, codec, constant, docstring, is_utf8, str_lit,
};
use crate::python::Gen;

use super::{slots_line, Owner};

impl Gen<'_> {
    /// A decoder's tables, fields, groups, var data and JSON.
    pub(super) fn decoder_body(&mut self, owner: &Owner<'_>) {
        let body = owner.body;
        let null_block = bytes_lit(&self.s.null_block(&body.fields, owner.block_length));
        let o = &mut self.out;
        o.line(format!("BLOCK_LENGTH = {}", owner.block_length));
        o.line(format!("_NULL_BLOCK = {null_block}"));
        let since: Vec<String> = body
            .fields
            .iter()
            .filter(|f| f.since_version > 0 && f.size > 0)
            .map(|f| format!("({}, {}, {})", f.since_version, f.offset, f.size))
            .collect();
        if !since.is_empty() {
            o.line(format!("_SINCE = ({},)", since.join(", ")));
        }
        let mut items = Vec::new();
        for g in &body.groups {
            items.push(format!(
                "Item({}, {}, group={}{}Decoder)",
                str_lit(&g.name),
                g.since_version,
                owner.prefix,
                class_name(&g.name)
            ));
        }
        for v in &body.var_data {
            let f = self.fmt(v.length.primitive_type, v.length.byte_order, 1, false);
            items.push(format!(
                "Item({}, {}, length={f}.unpack_from, length_size={})",
                str_lit(&v.name),
                v.since_version,
                v.length_size()
            ));
        }
        let o = &mut self.out;
        if !items.is_empty() {
            o.line("_ITEMS = (");
            for i in &items {
                o.line(format!("    {i},"));
            }
            o.line(")");
        }
        o.blank();
        let layout = self.block_layout(body);
        if let Some((format, _)) = &layout {
            let name = format!("_{}_BLOCK", constant(&owner.prefix));
            self.formats.insert(crate::python::names::Format {
                name: name.clone(),
                format: format.clone(),
            });
            self.out.line(format!("_BLOCK = {name}"));
            self.out.blank();
        }
        let mut eager = Eager::default();
        for (i, f) in body.fields.iter().enumerate() {
            let slot = Slot::of_field(f);
            self.slot_meta(&slot);
            let val = layout.as_ref().and_then(|(_, at)| at[i]);
            if let Some(e) = self.slot_getter(&slot, &BLOCK, val) {
                eager.extend(e);
            }
        }
        if !eager.lines.is_empty() {
            let o = &mut self.out;
            o.line("def _fill(self, v: tuple[Any, ...]) -> None:");
            o.indent();
            for l in &eager.lines {
                o.line(l);
            }
            o.outdent();
            o.blank();
        }
        let mut item = 0;
        for g in &body.groups {
            let o = &mut self.out;
            o.line(format!("{}_ID: Final = {}", constant(&g.name), g.id));
            o.line(format!(
                "{}_SINCE_VERSION: Final = {}",
                constant(&g.name),
                g.since_version
            ));
            o.line(format!(
                "_g_{}: {}{}Decoder",
                accessor(&g.name),
                owner.prefix,
                class_name(&g.name)
            ));
            o.blank();
            o.line("@property");
            o.line(format!(
                "def {}(self) -> {}{}Decoder:",
                accessor(&g.name),
                owner.prefix,
                class_name(&g.name)
            ));
            o.indent();
            o.line(docstring(
                g.description.as_deref(),
                &format!("Group `{}`.", g.name),
            ));
            let cls = format!("{}{}Decoder", owner.prefix, class_name(&g.name));
            o.line(format!(
                "pos = self._next_pos if self._next_item == {item} else self._start({item})"
            ));
            // One decoder kept per group, moved by each access; one being iterated is left to
            // its loop (a new one is kept instead).
            let kept = format!("self._g_{}", accessor(&g.name));
            o.line("try:");
            o.line(format!("    g = {kept}"));
            // (Two int comparisons, which the interpreter specializes, where a chained one
            // is not; the one that fails for a finished loop, the usual case, first.)
            o.line("    index = g._index");
            o.line("    if index < g._count and index >= 0:  # being iterated");
            o.line(format!("        g = {kept} = {cls}()"));
            o.line("        g._parent = self");
            o.line("except AttributeError:  # the first access");
            o.line(format!("    g = {kept} = {cls}()"));
            o.line("    g._parent = self");
            self.open_group(g, item);
            let o = &mut self.out;
            o.line(format!("g._open(self, {item}, pos)"));
            o.line("return g");
            o.outdent();
            o.blank();
            item += 1;
        }
        for v in &body.var_data {
            self.var_data_getters(v, item);
            item += 1;
        }
        // The JSON.
        let versioned = self.s.version > 0;
        let mut entries = Vec::new();
        for f in &body.fields {
            let slot = Slot::of_field(f);
            let lines = self.slot_json(&slot, &BLOCK);
            let present = (!slot.constant && (versioned || f.since_version > 0))
                .then(|| format!("self._present({}, {})", f.since_version, f.end()));
            entries.push((f.name.clone(), lines, present));
        }
        let mut item = 0;
        for g in &body.groups {
            entries.push((
                g.name.clone(),
                vec![format!(
                    "self._group_json(out, {}{}Decoder, {item})",
                    owner.prefix,
                    class_name(&g.name)
                )],
                None,
            ));
            item += 1;
        }
        for v in &body.var_data {
            let utf8 = if is_utf8(v.character_encoding.as_deref()) {
                "True"
            } else {
                "False"
            };
            let text = if v.is_text() { "True" } else { "False" };
            entries.push((
                v.name.clone(),
                vec![format!(
                    "out.append(self._var_json({item}, {text}, {utf8}))"
                )],
                None,
            ));
            item += 1;
        }
        self.json_method(entries);
    }

    /// The statements making the composite decoders read with the block, and those reading
    /// the block at `pos` of `buf` into the fields' attributes (none when the fields are
    /// properties); `version`: the decoder's version.
    fn fill(&mut self, owner: &Owner<'_>, version: &str) -> (Vec<String>, Vec<String>) {
        self.fill_as(owner, "self", version)
    }

    fn fill_as(
        &mut self,
        owner: &Owner<'_>,
        obj: &str,
        version: &str,
    ) -> (Vec<String>, Vec<String>) {
        let Some((format, at)) = self.block_layout(owner.body) else {
            return (Vec::new(), Vec::new());
        };
        let name = format!("_{}_BLOCK", constant(&owner.prefix));
        self.formats.insert(crate::python::names::Format {
            name: name.clone(),
            format,
        });
        self.fill_into(&owner.body.fields, &at, &name, obj, version)
    }

    /// A decoder's `__slots__`: the attributes of the fields read with the block.
    /// A decoder's slots: its block's field attributes (when read by one struct) and the
    /// group decoders it keeps (`_g_<group>`).
    pub(super) fn decoder_slots(&self, body: &Body) -> String {
        let mut attrs: Vec<String> = match self.block_layout(body) {
            Some((_, at)) => body
                .fields
                .iter()
                .zip(at)
                .filter(|(f, i)| i.is_some() && !f.is_constant())
                .map(|(f, _)| eager_attr(&Slot::of_field(f)))
                .collect(),
            None => Vec::new(),
        };
        attrs.extend(
            body.groups
                .iter()
                .map(|g| format!("_g_{}", accessor(&g.name))),
        );
        slots_line(attrs)
    }

    /// A message decoder's `decode` or `wrap` body (`d`: the decoder): the usual message
    /// (the usual header, this message, a writer at this version or newer, the block whole in
    /// the buffer) is read straight; anything else goes through `_wrap_header`, checked, which
    /// raises the contract's errors and reads an older writer's block.
    pub(super) fn open_message(&mut self, m: &Message, owner: &Owner<'_>, d: &str) {
        let (made, fill) = self.fill_as(owner, d, "version");
        let hs = self.header_size();
        let s = self.s;
        let o = &mut self.out;
        if let Some(std) = self.header_std.clone() {
            let bl = m.block_length;
            o.line("end = len(buf) if length is None else min(len(buf), offset + length)");
            o.line(format!("pos = offset + {hs}"));
            o.line(format!("if pos + {bl} <= end:"));
            o.indent();
            o.line(format!(
                "block_length, template_id, schema_id, version = {std}.unpack_from(buf, offset)"
            ));
            o.line("if (");
            o.line(format!("    template_id == {}", m.id));
            o.line(format!("    and schema_id == {}", s.id));
            o.line(format!("    and version >= {}", s.version));
            o.line(format!("    and block_length >= {bl}"));
            o.line("    and pos + block_length <= end");
            o.line("):");
            o.indent();
            for (attr, value) in [
                ("_buf", "buf"),
                ("_end", "end"),
                ("_msg", "offset"),
                ("_version", "version"),
                ("_header", "True"),
                ("_index", "0"),
                ("_block_length", "block_length"),
                ("_block_buf", "buf"),
                ("_block_off", "pos"),
                ("_next_item", "0"),
            ] {
                o.line(format!("{d}.{attr} = {value}"));
            }
            o.line(format!(
                "{d}._items_start = {d}._next_pos = pos + block_length"
            ));
            for l in made.iter().chain(&fill) {
                o.line(l);
            }
            o.line(format!("return {d}"));
            o.outdent();
            o.outdent();
        }
        o.line(format!("{d}._wrap_header(buf, offset, length)"));
        o.line(format!("return {d}"));
    }

    /// A group decoder's `__iter__`: a generator over the entries. When the group was opened
    /// straight (`_straight`: the usual dimension, a writer at this version or newer, entries
    /// of this block length or longer; for entries of fixed size, all of them in the message)
    /// each entry is read where it lies, straight into the attributes; otherwise `_entries`
    /// reads each, checked, from a copy with the missing fields null. The composites read
    /// with the block are made once and moved with the entry. A group with groups or var data
    /// in its entries checks each entry's end and, after the last, tells its parent where it
    /// ends (a group of fixed-size entries told it when it was opened).
    pub(super) fn entries(&mut self, owner: &Owner<'_>, g: &Group, item: usize, cls: &str) {
        let o = &mut self.out;
        o.line(format!("def __iter__(self) -> Iterator[{cls}]:"));
        o.indent();
        o.line("\"\"\"The entries: this same object, moved to each in turn.\"\"\"");
        if self.straight(g).is_none() {
            self.out.line("return self._entries()");
            self.out.outdent();
            self.out.blank();
            return;
        }
        let (made, fill) = self.fill(owner, "self._version");
        let items = owner.body.groups.len() + owner.body.var_data.len();
        let ds = self.dims(g).size;
        let block_read = self.reads_block(owner.body);
        let o = &mut self.out;
        o.line("if not self._straight:");
        o.line("    yield from self._entries()");
        o.line("    return");
        if !fill.is_empty() {
            o.line("buf = self._buf");
        }
        o.line("step = self._block_length");
        o.line("index = self._index + 1");
        if items == 0 {
            // (Entries of fixed size are evenly spaced: the loop keeps only its index.)
            o.line(format!("pos = self._start_pos + {ds} + index * step"));
        } else {
            o.line("end = self._end");
        }
        for l in &made {
            o.line(l);
        }
        // (A while loop: a `range` costs more than its few entries' additions and tests.)
        o.line("count = self._count");
        o.line("while index < count:");
        o.indent();
        if items > 0 {
            o.line(format!(
                "pos = self._next_pos if self._next_item == {items} else self._start({items})"
            ));
            o.line("nxt = pos + step");
            o.line("if nxt > end:");
            o.line("    self._advance()  # raises: the entry is cut short");
        }
        o.line("self._index = index");
        if items > 0 || block_read {
            o.line("self._block_off = pos");
        }
        if items > 0 {
            o.line("self._items_start = self._next_pos = nxt");
            o.line("self._next_item = 0");
        }
        for l in &fill {
            o.line(l);
        }
        if items == 0 {
            o.line("pos += step");
        }
        o.line("yield self");
        o.line("index += 1");
        o.outdent();
        if items == 0 {
            o.line("self._index = self._count");
        } else {
            o.line(format!(
                "end = self._next_pos if self._next_item == {items} else self._start({items})"
            ));
            o.line("self._index = self._count");
            o.line("parent = self._parent");
            o.line("if (");
            o.line(format!("    parent._next_item == {item}"));
            o.line("    and parent._next_pos == self._start_pos");
            o.line("    and parent._index == self._parent_index");
            o.line("):");
            o.line(format!("    parent._next_item = {}", item + 1));
            o.line("    parent._next_pos = end");
        }
        o.outdent();
        o.blank();
    }

    /// A group property's straight open of group `g` (item `item` of its parent) at `pos`
    /// into `g`, when the group is read straight (see `entries`): the usual dimension read at
    /// once, a writer at this version or newer, entries of the schema's block length or
    /// longer, and for entries of fixed size all of them in the message (the parent then
    /// moves past the group at once). Anything else falls through to `_open`, checked.
    fn open_group(&mut self, g: &Group, item: usize) {
        let Some(dim) = self.straight(g) else {
            return;
        };
        let ds = self.dims(g).size;
        let leaf = g.body.groups.is_empty() && g.body.var_data.is_empty();
        let items = g.body.groups.len() + g.body.var_data.len();
        let version = self.s.version;
        let o = &mut self.out;
        o.line("end = self._end");
        if version > 0 {
            o.line(format!(
                "if pos + {ds} <= end and self._version >= {version}:"
            ));
        } else {
            o.line(format!("if pos + {ds} <= end:"));
        }
        o.indent();
        o.line("buf = self._buf");
        o.line(format!("step, count = {dim}.unpack_from(buf, pos)"));
        if leaf {
            o.line(format!("nxt = pos + {ds} + step * count"));
            o.line(format!("if step >= {} and nxt <= end:", g.block_length));
        } else {
            o.line(format!("if step >= {}:", g.block_length));
        }
        o.indent();
        for l in [
            "g._buf = g._block_buf = buf".to_owned(),
            "g._end = end".to_owned(),
            "g._msg = self._msg".to_owned(),
            "g._version = self._version".to_owned(),
            "g._parent_index = self._index".to_owned(),
            "g._index = -1".to_owned(),
            // (A group of fixed-size entries has no items to walk back to, and its entries
            // set where each starts.)
            if leaf {
                "g._start_pos = pos".to_owned()
            } else {
                "g._start_pos = g._items_start = g._block_off = pos".to_owned()
            },
            "g._block_length = step".to_owned(),
            format!("g._next_item = {items}"),
            "g._count = count".to_owned(),
            "g._straight = True".to_owned(),
        ] {
            o.line(l);
        }
        if leaf {
            // (Its entries are found from the loop's index; the parent moves past it now.)
            o.line(format!("self._next_item = {}", item + 1));
            o.line("self._next_pos = nxt");
        } else {
            o.line(format!("g._next_pos = pos + {ds}"));
        }
        o.line("return g");
        o.outdent();
        o.outdent();
    }

    fn var_data_getters(&mut self, v: &VarData, item: usize) {
        let name = accessor(&v.name);
        let c = constant(&v.name);
        let o = &mut self.out;
        o.line(format!("{c}_ID: Final = {}", v.id));
        o.line(format!("{c}_SINCE_VERSION: Final = {}", v.since_version));
        o.line(format!("{c}_LENGTH_SIZE: Final = {}", v.length_size()));
        o.line(format!(
            "{c}_CHARACTER_ENCODING: Final = {}",
            str_lit(v.character_encoding.as_deref().unwrap_or(""))
        ));
        o.blank();
        o.line("@property");
        if v.is_text() {
            o.line(format!("def {name}(self) -> str:"));
            o.indent();
            o.line(docstring(
                v.description.as_deref(),
                &format!("Var data `{}`, as text (empty when absent).", v.name),
            ));
            let text = format!(
                "str(self._buf[start:end], {})",
                str_lit(codec(v.character_encoding.as_deref()))
            );
            self.var_span(v, item, &text);
            let o = &mut self.out;
            o.outdent();
            o.blank();
            o.line("@property");
            o.line(format!("def {name}_bytes(self) -> memoryview:"));
            o.indent();
            o.line(format!(
                "\"\"\"Var data `{}`: its bytes, not copied (empty when absent).\"\"\"",
                v.name
            ));
        } else {
            o.line(format!("def {name}(self) -> memoryview:"));
            o.indent();
            o.line(docstring(
                v.description.as_deref(),
                &format!(
                    "Var data `{}`: its bytes, not copied (empty when absent).",
                    v.name
                ),
            ));
        }
        self.var_span(v, item, "memoryview(self._buf)[start:end]");
        self.out.outdent();
        self.out.blank();
    }

    /// The statements of a var data getter returning `value` of its bytes' `start` and `end`:
    /// found straight when the getter is reached in order (the usual reading), else by
    /// `_var` (which walks the items before it, checked, and raises the errors).
    fn var_span(&mut self, v: &VarData, item: usize, value: &str) {
        let size = v.length_size();
        let f = self.fmt(v.length.primitive_type, v.length.byte_order, 1, false);
        let o = &mut self.out;
        if v.since_version == 0 {
            o.line("pos = self._next_pos");
            o.line(format!("start = pos + {size}"));
            o.line(format!(
                "if self._next_item == {item} and start <= self._end:"
            ));
            o.indent();
            o.line(format!("end = start + {f}.unpack_from(self._buf, pos)[0]"));
            o.line("if end <= self._end:");
            o.line(format!("    self._next_item = {}", item + 1));
            o.line("    self._next_pos = end");
            o.line(format!("    return {value}"));
            o.outdent();
        }
        o.line(format!("start, end = self._var({item})"));
        o.line(format!("return {value}"));
    }

    /// A message decoder's `_header_json`: the header composite as on the wire, or (a body
    /// wrapped alone) the four members the decoder knows.
    pub(super) fn header_json(&mut self) {
        let h = class_name(&self.s.header);
        let o = &mut self.out;
        o.line("def _header_json(self, out: list[str]) -> None:");
        o.indent();
        o.line("if self._header:");
        o.line(format!(
            "    {h}Decoder(self._buf, self._msg, self._version)._json(out)"
        ));
        o.line("else:");
        o.line("    out.append(");
        o.line(
            "        f'{{\"blockLength\":{self._block_length},\"templateId\":{self.TEMPLATE_ID},'",
        );
        o.line("        f'\"schemaId\":{self.SCHEMA_ID},\"version\":{self._version}}}'");
        o.line("    )");
        o.outdent();
        o.blank();
    }
}

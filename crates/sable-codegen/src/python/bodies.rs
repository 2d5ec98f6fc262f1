//! Messages and groups: a decoder and an encoder class for each message and each group (nested
//! groups first, so that every class a table names is defined before it).

use sable_ir::{ByteOrder, PrimitiveType};

use super::fields::{eager_attr, Eager, Slot, BLOCK};
use super::names::{
    accessor, bytes_lit, class_name, codec, constant, docstring, is_utf8, plus, str_lit,
};
use super::Gen;
use crate::model::{Body, Group, Message, TypeRef, VarData};

/// A group's dimension composite, as its codecs read and write it.
struct Dims {
    size: usize,
    bl_f: String,
    bl_at: usize,
    count_f: String,
    count_at: usize,
    max_count: i128,
    /// The struct reading block length and count at once, when the dimension is the usual one.
    both: Option<String>,
}

/// What a message's or group's classes need to know beyond its body.
struct Owner<'a> {
    /// The class name prefix (`Car`, `CarFuelFigures`).
    prefix: String,
    description: Option<&'a str>,
    block_length: usize,
    body: &'a Body,
}

impl Gen<'_> {
    pub(super) fn message(&mut self, m: &Message) {
        let owner = Owner {
            prefix: class_name(&m.name),
            description: m.description.as_deref(),
            block_length: m.block_length,
            body: &m.body,
        };
        self.groups_of(&owner);
        let cls = format!("{}Decoder", owner.prefix);
        let o = &mut self.out;
        o.line(format!("class {cls}(MessageDecoder):"));
        o.indent();
        o.line(docstring(
            owner.description,
            &format!("Decodes message `{}`.", m.name),
        ));
        o.blank();
        let slots = self.decoder_slots(owner.body);
        let o = &mut self.out;
        o.line(slots);
        o.blank();
        o.line(format!("TEMPLATE_ID = {}", m.id));
        o.line(format!("SCHEMA_ID = {}", self.s.id));
        o.line(format!("SCHEMA_VERSION = {}", self.s.version));
        o.line(format!("NAME = {}", str_lit(&m.name)));
        o.line("_HEADER = _HEADER");
        o.blank();
        o.line("@classmethod");
        o.line(format!(
            "def decode(cls, buf: Buffer, offset: int = 0, length: int | None = None) -> {cls}:"
        ));
        o.indent();
        o.line("\"\"\"A decoder of the message at `offset` (its header read and checked).\"\"\"");
        o.line("d = cls()");
        self.open_message(m, &owner, "d");
        let o = &mut self.out;
        o.outdent();
        o.blank();
        o.line(format!(
            "def wrap(self, buf: Buffer, offset: int = 0, length: int | None = None) -> {cls}:"
        ));
        o.indent();
        o.line("\"\"\"Moves this decoder to the message at `offset` (its header read and checked).\"\"\"");
        self.open_message(m, &owner, "self");
        let o = &mut self.out;
        o.outdent();
        o.blank();
        o.line("def wrap_body(");
        o.line("    self, buf: Buffer, offset: int, block_length: int, version: int, length: int | None = None");
        o.line(format!(") -> {cls}:"));
        o.line(
            "    \"\"\"Moves this decoder to a message body at `offset` (no header), written with",
        );
        o.line("    `block_length` at `version`; error offsets count from where its header would be.\"\"\"");
        o.line("    self._wrap_body(buf, offset, block_length, version, length)");
        o.line("    return self");
        o.blank();
        self.decoder_body(&owner);
        let n = owner.body.groups.len() + owner.body.var_data.len();
        let o = &mut self.out;
        o.line("def encoded_length(self) -> int:");
        o.line("    \"\"\"The message's length, header to the end of its last var data (walked, checked).\"\"\"");
        o.line(format!("    if self._next_item == {n}:"));
        o.line("        return self._next_pos - self._msg");
        o.line(format!("    return self._start({n}) - self._msg"));
        o.blank();
        self.header_json();
        self.out.outdent();
        self.out.blank();
        self.out.blank();

        let cls = format!("{}Encoder", owner.prefix);
        let o = &mut self.out;
        o.line(format!("class {cls}(MessageEncoder):"));
        o.indent();
        o.line(docstring(
            owner.description,
            &format!("Encodes message `{}`.", m.name),
        ));
        o.blank();
        let kept = kept_groups(&owner.prefix, &owner.body.groups);
        o.line(slots_line(kept.iter().map(|(a, _)| a.clone()).collect()));
        o.blank();
        o.line(format!("TEMPLATE_ID = {}", m.id));
        o.line(format!("SCHEMA_ID = {}", self.s.id));
        o.line(format!("SCHEMA_VERSION = {}", self.s.version));
        o.line(format!("BLOCK_LENGTH = {}", m.block_length));
        o.line(format!("NAME = {}", str_lit(&m.name)));
        o.line("_HEADER = _HEADER");
        o.line("_HEADER_PUT = _HEADER_PUT");
        o.blank();
        for (a, c) in &kept {
            o.line(format!("{a}: {c} | None"));
        }
        if !kept.is_empty() {
            o.blank();
        }
        o.line(
            "def __init__(self, buf: WritableBuffer, offset: int = 0, header: bool = True) -> None:",
        );
        o.indent();
        o.line("\"\"\"Starts a message at `offset` (see `wrap`).\"\"\"");
        for (a, _) in &kept {
            o.line(format!("self.{a} = None"));
        }
        self.start_message(m, true);
        self.out.outdent();
        self.out.blank();
        let o = &mut self.out;
        o.line(format!(
            "def wrap(self, buf: WritableBuffer, offset: int = 0, header: bool = True) -> {cls}:"
        ));
        o.indent();
        o.line(
            "\"\"\"Starts a message at `offset`: writes its header (unless `header` is false: then",
        );
        o.line("`offset` is where the body goes).\"\"\"");
        self.start_message(m, false);
        let o = &mut self.out;
        o.line("return self");
        o.outdent();
        o.blank();
        o.line("def encoded_length(self) -> int:");
        o.line("    \"\"\"The bytes written: header, block, groups and var data.\"\"\"");
        o.line("    return self._limit - self._msg");
        o.blank();
        self.encoder_body(&owner, &cls, None);
        self.out.outdent();
        self.out.blank();
        self.out.blank();
    }

    /// The classes of the owner's groups (and theirs, first).
    fn groups_of(&mut self, owner: &Owner<'_>) {
        for (item, g) in owner.body.groups.iter().enumerate() {
            self.group(owner, g, item);
        }
    }

    fn group(&mut self, parent: &Owner<'_>, g: &Group, item: usize) {
        let owner = Owner {
            prefix: format!("{}{}", parent.prefix, class_name(&g.name)),
            description: g.description.as_deref(),
            block_length: g.block_length,
            body: &g.body,
        };
        self.groups_of(&owner);
        let Dims {
            size: dim_size,
            bl_f,
            bl_at,
            count_f,
            count_at,
            max_count,
            both: dim_both,
        } = self.dims(g);
        let needs = g.body.fields.iter().map(|f| f.end()).max().unwrap_or(0);
        let cls = format!("{}Decoder", owner.prefix);
        let o = &mut self.out;
        o.line(format!("class {cls}(GroupDecoder):"));
        o.indent();
        o.line(docstring(
            owner.description,
            &format!(
                "Group `{}`: iterate it for its entries (this same object, moved to each).",
                g.name
            ),
        ));
        o.blank();
        let slots = self.decoder_slots(owner.body);
        let o = &mut self.out;
        o.line(slots);
        o.blank();
        o.line(format!("NAME = {}", str_lit(&g.name)));
        o.line(format!("ID: Final = {}", g.id));
        o.line(format!("SINCE_VERSION: Final = {}", g.since_version));
        o.line(format!("SCHEMA_VERSION = {}", self.s.version));
        o.line(format!("_DIM_SIZE = {dim_size}"));
        o.line(format!("_DIM_BLOCK_LENGTH = ({bl_f}.unpack_from, {bl_at})"));
        o.line(format!("_DIM_COUNT = ({count_f}.unpack_from, {count_at})"));
        o.line(format!("_NEEDS = {needs}"));
        o.line(format!("_ITEM = {item}"));
        if let Some(f) = dim_both {
            o.line(format!("_DIM = {f}"));
        }
        o.blank();
        o.line(format!("def __next__(self) -> {cls}:"));
        o.line("    if not self._advance():");
        o.line("        raise StopIteration");
        o.line("    return self");
        o.blank();
        self.entries(&owner, g, item, &cls);
        self.decoder_body(&owner);
        self.out.outdent();
        self.out.blank();
        self.out.blank();

        let cls = format!("{}Encoder", owner.prefix);
        let o = &mut self.out;
        o.line(format!("class {cls}(GroupEncoder):"));
        o.indent();
        o.line(docstring(
            owner.description,
            &format!(
                "Writes group `{}`: `next_entry()` adds an entry and moves to it.",
                g.name
            ),
        ));
        o.blank();
        // Each composite field's encoder: one for the group's encoder, moved to the entry by
        // each call.
        let composites: Vec<(String, String)> = g
            .body
            .fields
            .iter()
            .filter(|f| !f.is_constant())
            .filter_map(|f| match &f.type_ref {
                TypeRef::Composite(n) => Some((accessor(&f.name), class_name(n))),
                _ => None,
            })
            .collect();
        let kept = kept_groups(&owner.prefix, &g.body.groups);
        let mut slots: Vec<String> = composites.iter().map(|(n, _)| format!("_c_{n}")).collect();
        slots.extend(kept.iter().map(|(a, _)| a.clone()));
        o.line(slots_line(slots));
        o.blank();
        o.line(format!("NAME = {}", str_lit(&g.name)));
        o.line(format!("BLOCK_LENGTH = {}", g.block_length));
        o.line(format!("MAX_COUNT = {max_count}"));
        o.line(format!("_DIM_SIZE = {dim_size}"));
        o.line(format!("_DIM_BLOCK_LENGTH = ({bl_f}.pack_into, {bl_at})"));
        o.line(format!("_DIM_COUNT = ({count_f}.pack_into, {count_at})"));
        o.blank();
        for (n, c) in &composites {
            o.line(format!("_c_{n}: {c}Encoder | None"));
        }
        for (a, c) in &kept {
            o.line(format!("{a}: {c} | None"));
        }
        if !composites.is_empty() || !kept.is_empty() {
            o.blank();
        }
        o.line(format!("def next_entry(self) -> {cls}:"));
        o.indent();
        o.line("\"\"\"Adds an entry (counting it, unless the group was started with its count) and moves");
        o.line("this encoder to it.\"\"\"");
        o.line("root = self._root");
        o.line("at = root._limit");
        o.line("index = self._index + 1");
        o.line(format!(
            "if index >= self._most or at + {} > root._cap:",
            g.block_length
        ));
        o.line("    self._add_entry()  # raises: countTooLarge, indexOutOfRange or bufferTooShort");
        o.line("self._index = index");
        o.line("if self._follow:");
        o.line(format!(
            "    {count_f}.pack_into(self._buf, {}, index + 1)",
            plus("self._dim", count_at)
        ));
        o.line("self._block = at");
        o.line(format!("root._limit = at + {}", g.block_length));
        o.line("return self");
        o.outdent();
        o.blank();
        self.encoder_body(&owner, &cls, Some((g.block_length, &count_f, count_at)));
        self.out.outdent();
        self.out.blank();
        self.out.blank();
    }

    /// A group's dimension: its size, the block length's and count's structs and offsets,
    /// the count's maximum, and the struct reading both at once (the usual dimension: block
    /// length then count, adjacent, one byte order).
    fn dims(&mut self, g: &Group) -> Dims {
        let dim = self.s.composite(&g.dimension);
        let size = dim.encoded_length.max(0) as usize;
        let (bl_f, bl_at) = match dim.primitive("blockLength") {
            Some((m, p)) => (self.fmt(p.primitive_type, p.byte_order, 1, false), m.offset),
            None => (
                self.fmt(PrimitiveType::UInt16, self.s.byte_order, 1, false),
                0,
            ),
        };
        let (count_f, count_at, max_count) = match dim.primitive("numInGroup") {
            Some((m, p)) => {
                let max = if p.range_declared {
                    p.max_value.as_i128().unwrap_or(0)
                } else {
                    full_max(p.primitive_type)
                };
                (
                    self.fmt(p.primitive_type, p.byte_order, 1, false),
                    m.offset,
                    max,
                )
            }
            None => (
                self.fmt(PrimitiveType::UInt16, self.s.byte_order, 1, false),
                2,
                65535,
            ),
        };
        let both = match (dim.primitive("blockLength"), dim.primitive("numInGroup")) {
            (Some((bm, bp)), Some((cm, cp)))
                if bm.offset == 0
                    && cm.offset == bp.size()
                    && !bp.is_array()
                    && !cp.is_array()
                    && bp.byte_order == cp.byte_order =>
            {
                let order = match bp.byte_order {
                    ByteOrder::BigEndian => ">",
                    _ => "<",
                };
                let format = format!(
                    "{order}{}{}",
                    super::names::format_letter(bp.primitive_type),
                    super::names::format_letter(cp.primitive_type)
                );
                let name = format!("_DIM_{}", format_name(&format));
                self.formats.insert(super::names::Format {
                    name: name.clone(),
                    format,
                });
                Some(name)
            }
            _ => None,
        };
        Dims {
            size,
            bl_f,
            bl_at,
            count_f,
            count_at,
            max_count,
            both,
        }
    }

    /// Whether a decoder has fields read from the buffer by properties (`_block_buf` at
    /// `_block_off`), not set with the block: a field the block's struct does not read.
    fn reads_block(&self, body: &Body) -> bool {
        match self.block_layout(body) {
            Some((_, at)) => body
                .fields
                .iter()
                .zip(at)
                .any(|(f, i)| i.is_none() && !f.is_constant()),
            None => body.fields.iter().any(|f| !f.is_constant()),
        }
    }

    /// Whether a group's entries are read straight (`_straight`) when its dimension is the
    /// usual one: its block holds fields (a group of empty entries may claim more entries
    /// than there are bytes; `_open` checks it).
    fn straight(&mut self, g: &Group) -> Option<String> {
        let dims = self.dims(g);
        dims.both.filter(|_| g.block_length > 0)
    }

    /// A decoder's tables, fields, groups, var data and JSON.
    fn decoder_body(&mut self, owner: &Owner<'_>) {
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
            self.formats.insert(super::names::Format {
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
        self.formats.insert(super::names::Format {
            name: name.clone(),
            format,
        });
        self.fill_into(&owner.body.fields, &at, &name, obj, version)
    }

    /// A decoder's `__slots__`: the attributes of the fields read with the block.
    /// A decoder's slots: its block's field attributes (when read by one struct) and the
    /// group decoders it keeps (`_g_<group>`).
    fn decoder_slots(&self, body: &Body) -> String {
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
    fn open_message(&mut self, m: &Message, owner: &Owner<'_>, d: &str) {
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
    fn entries(&mut self, owner: &Owner<'_>, g: &Group, item: usize, cls: &str) {
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

    /// An encoder's setters, group starters and var data writers (`group`: of a group's
    /// encoder, whose composites' encoders are kept).
    fn encoder_body(&mut self, owner: &Owner<'_>, cls: &str, entry: Option<(usize, &str, usize)>) {
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
    fn start_message(&mut self, m: &Message, init: bool) {
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

    /// A message decoder's `_header_json`: the header composite as on the wire, or (a body
    /// wrapped alone) the four members the decoder knows.
    fn header_json(&mut self) {
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

/// The largest value of an unsigned count or length type (signed: its positive maximum).
fn full_max(p: PrimitiveType) -> i128 {
    match p {
        PrimitiveType::Int8 => 127,
        PrimitiveType::Int16 => 32767,
        PrimitiveType::Int32 => 2_147_483_647,
        PrimitiveType::Int64 => i128::from(i64::MAX),
        other => (1i128 << (8 * other.size())) - 1,
    }
}

/// A Python name for a struct format (`<HH` gives `LE_HH`).
fn format_name(format: &str) -> String {
    let (order, codes) = format.split_at(1);
    let order = if order == ">" { "BE" } else { "LE" };
    format!("{order}_{codes}")
}

/// The group encoders an encoder keeps (one per group, moved to each start): their slots
/// (`_g_<group>`) and classes.
fn kept_groups(prefix: &str, groups: &[Group]) -> Vec<(String, String)> {
    groups
        .iter()
        .map(|g| {
            (
                format!("_g_{}", accessor(&g.name)),
                format!("{prefix}{}Encoder", class_name(&g.name)),
            )
        })
        .collect()
}

/// A `__slots__` line, the names in natural order.
fn slots_line(mut slots: Vec<String>) -> String {
    slots.sort_by_key(|a| super::natural(a));
    let slots: Vec<String> = slots.iter().map(|a| str_lit(a)).collect();
    match slots.len() {
        0 => "__slots__ = ()".to_owned(),
        1 => format!("__slots__ = ({},)", slots[0]),
        _ => format!("__slots__ = ({})", slots.join(", ")),
    }
}

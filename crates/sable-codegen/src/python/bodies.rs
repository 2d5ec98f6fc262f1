//! Messages and groups: a decoder and an encoder class for each message and each group (nested
//! groups first, so that every class a table names is defined before it).

use sable_ir::PrimitiveType;

use super::fields::{Slot, BLOCK};
use super::names::format_letter;
use super::names::{accessor, class_name, codec, constant, docstring, is_utf8, str_lit};
use super::Gen;
use crate::model::{Body, Group, Message, TypeRef, VarData};

/// A field in a block's struct format: its offset, size, format code, and (when its value is
/// read) its index among the fields and how many values it reads.
type BlockPart = (usize, usize, String, Option<(usize, usize)>);

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
        o.line("__slots__ = ()");
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
        o.line(
            "    \"\"\"A decoder of the message at `offset` (its header read and checked).\"\"\"",
        );
        o.line("    decoder = cls.__new__(cls)");
        o.line("    decoder._wrap_header(buf, offset, length)");
        o.line("    return decoder");
        o.blank();
        o.line(format!(
            "def wrap(self, buf: Buffer, offset: int = 0, length: int | None = None) -> {cls}:"
        ));
        o.line("    \"\"\"Moves this decoder to the message at `offset` (its header read and checked).\"\"\"");
        o.line("    self._wrap_header(buf, offset, length)");
        o.line("    return self");
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
        o.line("__slots__ = ()");
        o.blank();
        o.line(format!("TEMPLATE_ID = {}", m.id));
        o.line(format!("SCHEMA_ID = {}", self.s.id));
        o.line(format!("SCHEMA_VERSION = {}", self.s.version));
        o.line(format!("BLOCK_LENGTH = {}", m.block_length));
        o.line(format!("NAME = {}", str_lit(&m.name)));
        o.line("_HEADER = _HEADER");
        o.line("_HEADER_PUT = _HEADER_PUT");
        o.blank();
        o.line(format!(
            "def wrap(self, buf: WritableBuffer, offset: int = 0, *, header: bool = True) -> {cls}:"
        ));
        o.line("    \"\"\"Starts a message at `offset`: writes its header (unless `header` is false: then");
        o.line("    `offset` is where the body goes).\"\"\"");
        o.line("    self._wrap(buf, offset, header)");
        o.line("    return self");
        o.blank();
        self.encoder_body(&owner, &cls);
        self.out.outdent();
        self.out.blank();
        self.out.blank();
    }

    /// The classes of the owner's groups (and theirs, first).
    fn groups_of(&mut self, owner: &Owner<'_>) {
        for g in &owner.body.groups {
            self.group(owner, g);
        }
    }

    fn group(&mut self, parent: &Owner<'_>, g: &Group) {
        let owner = Owner {
            prefix: format!("{}{}", parent.prefix, class_name(&g.name)),
            description: g.description.as_deref(),
            block_length: g.block_length,
            body: &g.body,
        };
        self.groups_of(&owner);
        let dim = self.s.composite(&g.dimension);
        let dim_size = dim.encoded_length.max(0);
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
        o.line("__slots__ = ()");
        o.blank();
        o.line(format!("NAME = {}", str_lit(&g.name)));
        o.line(format!("ID: Final = {}", g.id));
        o.line(format!("SINCE_VERSION: Final = {}", g.since_version));
        o.line(format!("SCHEMA_VERSION = {}", self.s.version));
        o.line(format!("_DIM_SIZE = {dim_size}"));
        o.line(format!("_DIM_BLOCK_LENGTH = ({bl_f}.unpack_from, {bl_at})"));
        o.line(format!("_DIM_COUNT = ({count_f}.unpack_from, {count_at})"));
        o.line(format!("_NEEDS = {needs}"));
        o.blank();
        o.line(format!("def __iter__(self) -> {cls}:"));
        o.line("    return self");
        o.blank();
        o.line(format!("def __next__(self) -> {cls}:"));
        o.line("    self._advance()");
        o.line("    return self");
        o.blank();
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
        o.line("__slots__ = ()");
        o.blank();
        o.line(format!("NAME = {}", str_lit(&g.name)));
        o.line(format!("BLOCK_LENGTH = {}", g.block_length));
        o.line(format!("MAX_COUNT = {max_count}"));
        o.line(format!("_DIM_SIZE = {dim_size}"));
        o.line(format!("_DIM_BLOCK_LENGTH = ({bl_f}.pack_into, {bl_at})"));
        o.line(format!("_DIM_COUNT = ({count_f}.pack_into, {count_at})"));
        o.blank();
        o.line(format!("def next_entry(self) -> {cls}:"));
        o.line("    \"\"\"Adds an entry (the count follows) and moves this encoder to it.\"\"\"");
        o.line("    self._add_entry()");
        o.line("    return self");
        o.blank();
        self.encoder_body(&owner, &cls);
        self.out.outdent();
        self.out.blank();
        self.out.blank();
    }

    /// A decoder's tables, fields, groups, var data and JSON.
    fn decoder_body(&mut self, owner: &Owner<'_>) {
        let body = owner.body;
        let null_block = self.null_block(&body.fields, owner.block_length);
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
        for (i, f) in body.fields.iter().enumerate() {
            let slot = Slot::of_field(f);
            self.slot_meta(&slot);
            let val = layout.as_ref().and_then(|(_, at)| at[i]);
            self.slot_getter(&slot, &BLOCK, val);
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
            o.line(format!(
                "return self._group({}{}Decoder, {item})",
                owner.prefix,
                class_name(&g.name)
            ));
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

    /// One struct format reading every field of the block that is not a constant (a
    /// composite's bytes are skipped: its decoder reads them), and each field's index in what
    /// it reads; `None` when fields overlap or differ in byte order.
    fn block_layout(&self, body: &Body) -> Option<(String, Vec<Option<usize>>)> {
        let mut order = None;
        let mut parts: Vec<BlockPart> = Vec::new();
        for (i, f) in body.fields.iter().enumerate() {
            if f.is_constant() || f.size == 0 {
                continue;
            }
            let (code, count, byte_order) = match &f.type_ref {
                TypeRef::Primitive(p)
                    if p.primitive_type == PrimitiveType::Char && p.is_array() =>
                {
                    (format!("{}s", p.length), 1, p.byte_order)
                }
                TypeRef::Primitive(p) if p.is_array() => (
                    format!("{}{}", p.length, format_letter(p.primitive_type)),
                    p.length,
                    p.byte_order,
                ),
                TypeRef::Primitive(p) => {
                    (format_letter(p.primitive_type).to_string(), 1, p.byte_order)
                }
                TypeRef::Enum(n) => {
                    let e = self.s.enum_type(n);
                    (format_letter(e.encoding_type).to_string(), 1, e.byte_order)
                }
                TypeRef::Set(n) => {
                    let st = self.s.set_type(n);
                    (
                        format_letter(st.encoding_type).to_string(),
                        1,
                        st.byte_order,
                    )
                }
                TypeRef::Composite(_) => (format!("{}x", f.size), 0, self.s.byte_order),
            };
            if count > 0 && *order.get_or_insert(byte_order) != byte_order {
                return None;
            }
            parts.push((f.offset, f.size, code, (count > 0).then_some((i, count))));
        }
        parts.sort_by_key(|p| p.0);
        let mut format = String::from(match order.unwrap_or(self.s.byte_order) {
            sable_ir::ByteOrder::BigEndian => ">",
            _ => "<",
        });
        let mut at = vec![None; body.fields.len()];
        let (mut pos, mut index) = (0, 0);
        for (offset, size, code, field) in parts {
            if offset < pos {
                return None;
            }
            if offset > pos {
                format.push_str(&format!("{}x", offset - pos));
            }
            format.push_str(&code);
            if let Some((i, count)) = field {
                at[i] = Some(index);
                index += count;
            }
            pos = offset + size;
        }
        (index > 0).then_some((format, at))
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
            o.line(format!("start, end = self._var({item})"));
            o.line(format!(
                "return str(self._buf[start:end], {})",
                str_lit(codec(v.character_encoding.as_deref()))
            ));
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
        o.line(format!("start, end = self._var({item})"));
        o.line("return memoryview(self._buf)[start:end]");
        o.outdent();
        o.blank();
    }

    /// An encoder's setters, group starters and var data writers.
    fn encoder_body(&mut self, owner: &Owner<'_>, cls: &str) {
        for f in &owner.body.fields {
            self.slot_setter(&Slot::of_field(f), &BLOCK, cls);
        }
        for g in &owner.body.groups {
            let o = &mut self.out;
            o.line(format!(
                "def {}(self) -> {}{}Encoder:",
                accessor(&g.name),
                owner.prefix,
                class_name(&g.name)
            ));
            o.indent();
            o.line(docstring(
                g.description.as_deref(),
                &format!(
                    "Starts group `{}` (no entries yet: add them with `next_entry()`).",
                    g.name
                ),
            ));
            o.line(format!(
                "return self._group({}{}Encoder)",
                owner.prefix,
                class_name(&g.name)
            ));
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
            let o = &mut self.out;
            o.line(format!(
                "def {}(self, value: str | bytes | bytearray | memoryview) -> {cls}:",
                accessor(&v.name)
            ));
            o.indent();
            o.line(docstring(
                v.description.as_deref(),
                &format!(
                    "Writes var data `{}` (text is encoded as {}).",
                    v.name,
                    codec(v.character_encoding.as_deref())
                ),
            ));
            o.line(format!(
                "self._var({}, value, {}, {f}.pack_into, {}, {max})",
                str_lit(&v.name),
                str_lit(codec(v.character_encoding.as_deref())),
                v.length_size()
            ));
            o.line("return self");
            o.outdent();
            o.blank();
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

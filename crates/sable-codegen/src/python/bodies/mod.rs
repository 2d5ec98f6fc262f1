//! Messages and groups: a decoder and an encoder class for each message and each group (nested
//! groups first, so that every class a table names is defined before it).
//!
//! `decoders` writes the decoder classes, `encoders` the encoder classes.

mod decoders;
mod encoders;

use sable_ir::{ByteOrder, PrimitiveType};

use super::names::{accessor, class_name, docstring, plus, str_lit};
use super::Gen;
use crate::model::{Body, Group, Message, TypeRef};

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

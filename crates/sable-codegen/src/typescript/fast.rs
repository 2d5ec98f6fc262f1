//! The hot paths, written out per class: wrapping a message, opening a group and stepping to
//! its next entry, var data read and written, composites moved. Each is the common case with
//! the schema's offsets and lengths as constants, in the generated class itself (so that V8
//! sees one hidden class at each access and inlines it), and falls back to the support
//! module's general code (older writers' blocks, groups and var data read out of order,
//! errors) for everything else. docs/typescript.md, "Speed".

use sable_ir::{ByteOrder, PrimitiveType};

use super::names::{accessor, bool_lit, class_name, full_max, is_big, is_utf8, str_lit};
use super::Gen;
use crate::model::VarData;

/// A member of the message header or of a group's dimensions: where it lies and its type.
#[derive(Clone, Copy)]
pub(super) struct Part {
    pub at: usize,
    pub p: PrimitiveType,
    pub order: ByteOrder,
}

/// A group's dimension composite.
pub(super) struct Dim {
    pub size: usize,
    pub block_length: Part,
    pub count: Part,
    pub max_count: i128,
}

/// Where a group lies: its parent's class prefix, whether the parent is a group, its
/// message's, its item index in the parent, its version, what its entries need.
pub(super) struct GroupPlace<'a> {
    pub parent: &'a str,
    pub parent_is_group: bool,
    pub root: &'a str,
    pub item: usize,
    pub since: i32,
    pub block_length: usize,
    /// The bytes the entry's fields take (a current writer's shorter block is an error).
    pub needs: usize,
    /// The number of groups and var data in an entry.
    pub items: usize,
}

fn plus(base: &str, n: usize) -> String {
    if n == 0 {
        base.to_owned()
    } else {
        format!("{base} + {n}")
    }
}

impl Gen<'_> {
    /// `v.getUint16(at, true)`: a length, count or header member read (a 64-bit one as a `number`).
    fn read_part(&mut self, part: Part, view: &str, base: &str) -> String {
        let r = super::names::read(view, part.p, part.order, &plus(base, part.at));
        if is_big(part.p) {
            format!("Number({r})")
        } else {
            r
        }
    }

    /// The statement writing one (a `number`).
    fn write_part(&mut self, part: Part, view: &str, base: &str, value: &str) -> String {
        let value = if is_big(part.p) {
            format!("BigInt({value})")
        } else {
            value.to_owned()
        };
        super::names::write(view, part.p, part.order, &plus(base, part.at), &value)
    }

    /// A message decoder's `wrap`: the header read and checked inline.
    pub(super) fn decoder_wrap(
        &mut self,
        template_id: i32,
        block_length: usize,
        header: &[Part; 4],
    ) {
        self.import("bytesOf");
        self.import("viewOf");
        let size = self.header_size();
        let [bl, tid, sid, ver] = *header;
        let reads = [
            self.read_part(sid, "v", "offset"),
            self.read_part(tid, "v", "offset"),
            self.read_part(bl, "v", "offset"),
            self.read_part(ver, "v", "offset"),
        ];
        let version = self.s.version;
        let o = &mut self.out;
        o.blank();
        o.line(
            "/** Moves this decoder to the message at `offset` (its header read and checked). */",
        );
        o.line("wrap(buf: Buffer, offset = 0, length?: number): this {");
        o.line("  const b = bytesOf(buf);");
        o.line("  const v = b === this._buf ? this._view : viewOf(b);");
        o.line(
            "  const end = length === undefined ? b.length : Math.min(b.length, offset + length);",
        );
        o.line(format!("  const at = offset + {size};"));
        o.line(format!(
            "  if (at <= end && {} === {} && {} === {template_id}) {{",
            reads[0], self.s.id, reads[1]
        ));
        o.line(format!("    const blockLength = {};", reads[2]));
        o.line(format!("    const version = {};", reads[3]));
        let mut cond = vec![format!("blockLength >= {block_length}")];
        if version > 0 {
            cond.push(format!("version >= {version}"));
        }
        cond.push("at + blockLength <= end".into());
        o.line(format!("    if ({}) {{", cond.join(" && ")));
        for l in [
            "this._buf = this._bb = b;",
            "this._view = this._bv = v;",
            "this._end = end;",
            "this._msg = offset;",
            "this._version = version;",
            "this._header = true;",
            "this._blockLength = blockLength;",
            "this._bo = at;",
            "this._itemsStart = this._nextPos = at + blockLength;",
            "this._nextItem = 0;",
            "return this;",
        ] {
            o.line(format!("      {l}"));
        }
        o.line("    }");
        o.line("  }");
        o.line("  this._wrapHeader(b, offset, length);");
        o.line("  return this;");
        o.line("}");
    }

    /// A message encoder's `wrap`: the header written inline.
    pub(super) fn encoder_wrap(
        &mut self,
        template_id: i32,
        block_length: usize,
        header: &[Part; 4],
    ) {
        self.import("bytesOf");
        self.import("viewOf");
        let size = self.header_size();
        let [bl, tid, sid, ver] = *header;
        let (id, version) = (self.s.id.to_string(), self.s.version.to_string());
        let writes = [
            self.write_part(bl, "v", "offset", &block_length.to_string()),
            self.write_part(tid, "v", "offset", &template_id.to_string()),
            self.write_part(sid, "v", "offset", &id),
            self.write_part(ver, "v", "offset", &version),
        ];
        let need = size + block_length;
        let o = &mut self.out;
        o.blank();
        o.line("/** Starts a message at `offset`: writes its header, then the body follows. */");
        o.line("wrap(buf: Buffer, offset = 0): this {");
        o.line("  const b = bytesOf(buf);");
        o.line(format!(
            "  if (offset >= 0 && offset + {need} <= b.length) {{"
        ));
        o.line("    if (b !== this._buf) {");
        o.line("      this._buf = b;");
        o.line("      this._view = viewOf(b);");
        o.line("    }");
        o.line("    const v = this._view;");
        for w in &writes {
            o.line(format!("    {w}"));
        }
        o.line("    this._msg = offset;");
        o.line(format!("    this._block = offset + {size};"));
        o.line(format!("    this._limit = offset + {need};"));
        o.line("    return this;");
        o.line("  }");
        o.line("  this._wrap(b, offset, true);");
        o.line("  return this;");
        o.line("}");
    }

    /// A group decoder's `_in` (opened from its parent) and `next()`.
    pub(super) fn group_decoder_fast(&mut self, g: &GroupPlace<'_>, dim: &Dim) {
        let bl = self.read_part(dim.block_length, "v", "pos");
        let count = self.read_part(dim.count, "v", "pos");
        let version = self.s.version;
        let parent = format!("{}Decoder", g.parent);
        let o = &mut self.out;
        o.blank();
        o.line("/** @internal Moves this decoder to the group at `pos` of `parent` (checked). */");
        o.line(format!("_in(parent: {parent}, pos: number): this {{"));
        o.line("  const v = parent._view;");
        o.line("  const end = parent._end;");
        let mut cond = vec![format!("pos + {} <= end", dim.size)];
        if g.since > 0 {
            cond.push(format!("parent._version >= {}", g.since));
        }
        o.line(format!("  if ({}) {{", cond.join(" && ")));
        o.line(format!("    const blockLength = {bl};"));
        o.line(format!("    if (blockLength >= {}) {{", g.needs.max(1)));
        let fast = if version > 0 {
            format!(
                "blockLength >= {} && parent._version >= {version}",
                g.block_length
            )
        } else {
            format!("blockLength >= {}", g.block_length)
        };
        let parent_index = if g.parent_is_group {
            "parent._index"
        } else {
            "0"
        };
        for l in [
            format!("this._count = {count};"),
            "this._entryLength = blockLength;".into(),
            format!("this._fast = {fast};"),
            "this._parent = parent;".into(),
            format!("this._parentIndex = {parent_index};"),
            "this._buf = this._bb = parent._buf;".into(),
            "this._view = this._bv = v;".into(),
            "this._end = end;".into(),
            "this._msg = parent._msg;".into(),
            "this._version = parent._version;".into(),
            "this._index = -1;".into(),
            "this._startPos = this._itemsStart = this._bo = pos;".into(),
            "this._blockLength = 0;".into(),
            format!("this._nextItem = {};", g.items),
            format!("this._nextPos = pos + {};", dim.size),
            "this.present = true;".into(),
            "return this;".into(),
        ] {
            o.line(format!("      {l}"));
        }
        o.line("    }");
        o.line("  }");
        o.line(format!("  this._open(parent, {}, pos);", g.item));
        o.line("  return this;");
        o.line("}");
        o.blank();
        o.line("/** The iterator protocol: moves to the next entry (this same object). */");
        o.line("override next(): IteratorResult<this> {");
        o.line("  const index = this._index + 1;");
        o.line("  if (index < this._count && this._fast) {");
        if g.items == 0 {
            o.line("    const pos = this._nextPos;");
        } else {
            o.line(format!(
                "    const pos = this._nextItem === {0} ? this._nextPos : this._start({0});",
                g.items
            ));
        }
        o.line("    const end = pos + this._entryLength;");
        o.line("    if (end <= this._end) {");
        o.line("      this._index = index;");
        o.line("      this._bo = pos;");
        o.line("      this._blockLength = this._entryLength;");
        if g.items == 0 {
            o.line("      this._nextPos = end;");
        } else {
            o.line("      this._itemsStart = this._nextPos = end;");
            o.line("      this._nextItem = 0;");
        }
        o.line("      return this._more;");
        o.line("    }");
        o.line("  } else if (index === this._count) {");
        o.line("    // The end: where the last entry's items end, which the parent learns.");
        if g.items == 0 {
            o.line("    const end = this._nextPos;");
        } else {
            o.line(format!(
                "    const end = this._nextItem === {0} ? this._nextPos : this._start({0});",
                g.items
            ));
        }
        o.line("    this._index = index;");
        o.line(format!("    const p = this._parent as {parent};"));
        let mut cond = vec![
            format!("p._nextItem === {}", g.item),
            "p._nextPos === this._startPos".to_owned(),
        ];
        if g.parent_is_group {
            cond.insert(0, "p._index === this._parentIndex".into());
        }
        o.line(format!("    if ({}) {{", cond.join(" && ")));
        o.line(format!("      p._nextItem = {};", g.item + 1));
        o.line("      p._nextPos = end;");
        o.line("    }");
        o.line("    return DONE;");
        o.line("  }");
        o.line("  return this._step();");
        o.line("}");
        self.import("DONE");
    }

    /// A group encoder's `_in` (started by its parent) and `next()`.
    pub(super) fn group_encoder_fast(&mut self, g: &GroupPlace<'_>, dim: &Dim) {
        let parent = format!("{}Encoder", g.parent);
        let root = format!("{}Encoder", g.root);
        let write_bl = self.write_part(dim.block_length, "v", "at", &g.block_length.to_string());
        let write_zero = self.write_part(dim.count, "v", "at", "0");
        let write_count = self.write_part(dim.count, "this._view", "this._dimAt", "count + 1");
        let parent_index = if g.parent_is_group {
            "parent._index"
        } else {
            "0"
        };
        let root_of_parent = if g.parent_is_group {
            format!("parent._root as {root}")
        } else {
            "parent".to_owned()
        };
        let o = &mut self.out;
        o.blank();
        o.line(
            "/** @internal Starts the group at the end of what `parent`'s message holds so far. */",
        );
        o.line(format!("_in(parent: {parent}): this {{"));
        o.line(format!("  const root = {root_of_parent};"));
        o.line("  const at = root._limit;");
        o.line("  const buf = parent._buf;");
        o.line(format!("  if (at + {} <= buf.length) {{", dim.size));
        o.line("    const v = parent._view;");
        o.line(format!("    {write_bl}"));
        o.line(format!("    {write_zero}"));
        for l in [
            format!("root._limit = at + {};", dim.size),
            "this._parent = parent;".into(),
            format!("this._parentIndex = {parent_index};"),
            "this._root = root;".into(),
            "this._buf = buf;".into(),
            "this._view = v;".into(),
            "this._msg = parent._msg;".into(),
            "this._count = 0;".into(),
            "this._index = -1;".into(),
            "this._dimAt = at;".into(),
            "return this;".into(),
        ] {
            o.line(format!("    {l}"));
        }
        o.line("  }");
        o.line(format!("  this._begin(parent, {parent_index});"));
        o.line("  return this;");
        o.line("}");
        o.blank();
        o.line("/** Adds an entry (the count follows) and moves this encoder to it. */");
        o.line("next(): this {");
        o.line(format!("  const root = this._root as {root};"));
        o.line("  const at = root._limit;");
        o.line("  const count = this._count;");
        o.line(format!(
            "  if (count < {} && at + {} <= this._buf.length) {{",
            dim.max_count, g.block_length
        ));
        o.line("    this._index = count;");
        o.line("    this._count = count + 1;");
        o.line(format!("    {write_count}"));
        o.line("    this._block = at;");
        o.line(format!("    root._limit = at + {};", g.block_length));
        o.line("    return this;");
        o.line("  }");
        o.line("  this._add();");
        o.line("  return this;");
        o.line("}");
    }

    /// A decoder's getters of var data `v`, item `item` of its body.
    pub(super) fn var_getters(&mut self, v: &VarData, item: usize) {
        let name = accessor(&v.name);
        let len = Part {
            at: 0,
            p: v.length.primitive_type,
            order: v.length.byte_order,
        };
        let read = self.read_part(len, "this._view", "at");
        let size = v.length_size();
        let since = v.since_version;
        let utf8 = bool_lit(is_utf8(v.character_encoding.as_deref()));
        let mut getters = Vec::new();
        if v.is_text() {
            self.import("decodeText");
            getters.push((
                super::names::doc(
                    v.description.as_deref(),
                    &format!("Var data `{}`, as text (empty when absent).", v.name),
                ),
                format!("get {name}(): string"),
                format!("decodeText(this._buf, start, end, {utf8})"),
                format!("this._varText({item}, {utf8})"),
            ));
            getters.push((
                format!(
                    "/** Var data `{}`: its bytes, a view (empty when absent). */",
                    v.name
                ),
                format!("get {name}Bytes(): Uint8Array"),
                "this._buf.subarray(start, end)".into(),
                format!("this._varBytes({item})"),
            ));
        } else {
            getters.push((
                super::names::doc(
                    v.description.as_deref(),
                    &format!(
                        "Var data `{}`: its bytes, a view (empty when absent).",
                        v.name
                    ),
                ),
                format!("get {name}(): Uint8Array"),
                "this._buf.subarray(start, end)".into(),
                format!("this._varBytes({item})"),
            ));
        }
        for (doc, head, value, general) in getters {
            let o = &mut self.out;
            o.blank();
            o.line(doc);
            o.line(format!("{head} {{"));
            o.line(format!(
                "  const at = this._nextItem === {item} ? this._nextPos : this._start({item});"
            ));
            let mut cond = vec![format!("at + {size} <= this._end")];
            if since > 0 {
                cond.insert(0, format!("this._version >= {since}"));
            }
            o.line(format!("  if ({}) {{", cond.join(" && ")));
            o.line(format!("    const start = at + {size};"));
            o.line(format!("    const end = start + {read};"));
            o.line("    if (end <= this._end) {");
            o.line(format!("      this._nextItem = {};", item + 1));
            o.line("      this._nextPos = end;");
            o.line(format!("      return {value};"));
            o.line("    }");
            o.line("  }");
            o.line(format!("  return {general};"));
            o.line("}");
        }
    }

    /// An encoder's writer of var data `v` (`root` is how the body reaches its message encoder).
    pub(super) fn var_setter(&mut self, v: &VarData, root: &str) {
        let length = &v.length;
        let put = self.length_fn("write", length.primitive_type, length.byte_order);
        let max = if length.range_declared {
            length.max_value.as_i128().unwrap_or(0)
        } else {
            full_max(length.primitive_type)
        };
        let size = v.length_size();
        let utf8 = is_utf8(v.character_encoding.as_deref());
        self.import("asciiInto");
        let len = Part {
            at: 0,
            p: length.primitive_type,
            order: length.byte_order,
        };
        let write = self.write_part(len, "this._view", "at", "n");
        let o = &mut self.out;
        o.blank();
        o.line(super::names::doc(
            v.description.as_deref(),
            &format!(
                "Writes var data `{}` (text as {}).",
                v.name,
                if utf8 {
                    "UTF-8"
                } else {
                    "one byte a character"
                }
            ),
        ));
        o.line(format!(
            "{}(value: string | Uint8Array): this {{",
            accessor(&v.name)
        ));
        o.line(format!("  const root = {root};"));
        o.line("  const at = root._limit;");
        o.line(format!(
            "  const n = typeof value === \"string\" ? asciiInto(this._buf, at + {size}, value, {max}) : -1;"
        ));
        o.line("  if (n >= 0) {");
        o.line(format!("    {write}"));
        o.line(format!("    root._limit = at + {size} + n;"));
        o.line("    return this;");
        o.line("  }");
        o.line(format!(
            "  this._var({}, value, {}, {put}, {size}, {max});",
            str_lit(&v.name),
            bool_lit(utf8)
        ));
        o.line("  return this;");
        o.line("}");
    }

    /// A composite decoder's or encoder's own `_at` (the support class's, in this class: one
    /// hidden class where it is called).
    pub(super) fn composite_at(&mut self, encoder: bool) {
        let o = &mut self.out;
        o.blank();
        o.line("/** @internal */");
        if encoder {
            o.line("override _at(buf: Uint8Array, view: DataView, msg: number, offset: number): this {");
            for l in [
                "this._buf = buf;",
                "this._view = view;",
                "this._msg = msg;",
                "this._off = offset;",
            ] {
                o.line(format!("  {l}"));
            }
        } else {
            o.line("override _at(bytes: Uint8Array, view: DataView, offset: number, version: number): this {");
            for l in [
                "this._bytes = bytes;",
                "this._view = view;",
                "this._off = offset;",
                "this._version = version;",
            ] {
                o.line(format!("  {l}"));
            }
        }
        o.line("  return this;");
        o.line("}");
    }
}

/// The field holding a parent's decoder or encoder of group `group`, and its class.
pub(super) fn group_field(prefix: &str, group: &str, suffix: &str) -> (String, String) {
    (
        format!("_g{}", class_name(group)),
        format!("{prefix}{}{suffix}", class_name(group)),
    )
}

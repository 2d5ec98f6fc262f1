//! Messages and groups: a layout, a decoder class and an encoder class for each message and
//! each group (nested groups first, so that every class is defined before its parent's).

use sable_ir::PrimitiveType;

use super::fast::{group_field, Dim, GroupPlace, Part};
use super::fields::{Slot, BLOCK_DEC, BLOCK_ENC};
use super::names::{accessor, bool_lit, class_name, constant, doc, full_max, is_utf8, str_lit};
use super::Gen;
use crate::model::{Body, Group, Message};

/// What a message's or group's classes need to know beyond its body.
struct Owner<'a> {
    /// The class name prefix (`Car`, `CarFuelFigures`).
    prefix: String,
    name: &'a str,
    description: Option<&'a str>,
    block_length: usize,
    body: &'a Body,
    /// The message's class prefix (itself for a message).
    root: String,
    /// Whether this is a group.
    is_group: bool,
}

impl Owner<'_> {
    /// The module-level name of its layout (`CAR_FUEL_FIGURES_LAYOUT`).
    fn layout(&self) -> String {
        format!("{}_LAYOUT", constant(&self.prefix))
    }
}

impl Gen<'_> {
    pub(super) fn message(&mut self, m: &Message) {
        let owner = Owner {
            prefix: class_name(&m.name),
            name: &m.name,
            description: m.description.as_deref(),
            block_length: m.block_length,
            body: &m.body,
            root: class_name(&m.name),
            is_group: false,
        };
        self.groups_of(&owner);
        self.layout(&owner);
        self.import("MessageDecoder");
        self.import("MessageEncoder");
        self.import("type Buffer");
        let cls = format!("{}Decoder", owner.prefix);
        let header = class_name(&self.s.header);
        let o = &mut self.out;
        o.line(doc(
            owner.description,
            &format!("Decodes message `{}`.", m.name),
        ));
        o.line(format!("export class {cls} extends MessageDecoder {{"));
        o.indent();
        o.line("/** The message's template id, block length and name. */");
        o.line(format!("static readonly TEMPLATE_ID = {};", m.id));
        o.line(format!(
            "static readonly BLOCK_LENGTH = {};",
            m.block_length
        ));
        o.line(format!("static readonly NAME = {};", str_lit(&m.name)));
        self.body_meta(&owner);
        let o = &mut self.out;
        o.blank();
        o.line("constructor() {");
        o.line(format!(
            "  super({}, HEADER, {}, SCHEMA_ID);",
            owner.layout(),
            m.id
        ));
        o.line("}");
        o.blank();
        o.line("/** A decoder of the message at `offset` (its header read and checked). */");
        o.line(format!(
            "static decode(buf: Buffer, offset = 0, length?: number): {cls} {{"
        ));
        o.line(format!("  return new {cls}().wrap(buf, offset, length);"));
        o.line("}");
        o.blank();
        let header_parts = self.header_parts();
        self.decoder_wrap(m.id, m.block_length, &header_parts);
        let o = &mut self.out;
        o.blank();
        o.line("/**");
        o.line(" * Moves this decoder to a message body at `offset` (no header), written with `blockLength`");
        o.line(" * at `version`; error offsets count from where its header would be.");
        o.line(" */");
        o.line("wrapBody(buf: Buffer, offset: number, blockLength: number, version: number, length?: number): this {");
        o.line("  this._wrapBody(buf, offset, blockLength, version, length);");
        o.line("  return this;");
        o.line("}");
        self.decoder_body(&owner);
        let o = &mut self.out;
        o.blank();
        o.line("/** The message as canonical JSON (docs/json.md). */");
        o.line("toJson(): string {");
        o.line(format!(
            "  return {} + this._headerJson(new {header}Decoder()) + ',\"fields\":' + this._json() + \"}}\";",
            str_lit(&format!("{{\"message\":{},\"header\":", json_name(m.name.as_str())))
        ));
        o.line("}");
        o.outdent();
        o.line("}");
        o.blank();

        let cls = format!("{}Encoder", owner.prefix);
        let o = &mut self.out;
        o.line(doc(
            owner.description,
            &format!("Encodes message `{}`.", m.name),
        ));
        o.line(format!("export class {cls} extends MessageEncoder {{"));
        o.indent();
        o.line("/** The message's template id, block length and name. */");
        o.line(format!("static readonly TEMPLATE_ID = {};", m.id));
        o.line(format!(
            "static readonly BLOCK_LENGTH = {};",
            m.block_length
        ));
        o.line(format!("static readonly NAME = {};", str_lit(&m.name)));
        self.cache_fields(
            owner.body.fields.iter().map(Slot::of_field).collect(),
            "Encoder",
        );
        self.group_fields(&owner, "Encoder");
        let o = &mut self.out;
        o.blank();
        o.line("constructor() {");
        o.line(format!(
            "  super(HEADER, {}, SCHEMA_ID, SCHEMA_VERSION, {});",
            m.id, m.block_length
        ));
        o.line("}");
        self.encoder_wrap(m.id, m.block_length, &header_parts);
        let o = &mut self.out;
        o.blank();
        o.line("/** Starts a message body at `offset`, without a header (written elsewhere). */");
        o.line("wrapBody(buf: Buffer, offset: number): this {");
        o.line("  this._wrap(buf, offset, false);");
        o.line("  return this;");
        o.line("}");
        self.encoder_body(&owner);
        self.out.outdent();
        self.out.line("}");
        self.out.blank();
    }

    /// The classes of the owner's groups (and theirs, first).
    fn groups_of(&mut self, owner: &Owner<'_>) {
        for (item, g) in owner.body.groups.iter().enumerate() {
            self.group(owner, g, item);
        }
    }

    /// The owner's block layout: its name, length, null block, versioned fields and items.
    fn layout(&mut self, owner: &Owner<'_>) {
        self.import("BlockLayout");
        let body = owner.body;
        let null_block = self.null_block(&body.fields, owner.block_length);
        let since: Vec<String> = body
            .fields
            .iter()
            .filter(|f| f.since_version > 0 && f.size > 0)
            .map(|f| format!("[{}, {}, {}]", f.since_version, f.offset, f.size))
            .collect();
        let mut items = Vec::new();
        for g in &body.groups {
            items.push(format!(
                "new Item({}, {}, () => new {}{}Decoder())",
                str_lit(&g.name),
                g.since_version,
                owner.prefix,
                class_name(&g.name)
            ));
        }
        for v in &body.var_data {
            let read = self.length_fn("read", v.length.primitive_type, v.length.byte_order);
            items.push(format!(
                "new Item({}, {}, null, {read}, {})",
                str_lit(&v.name),
                v.since_version,
                v.length_size()
            ));
        }
        if !items.is_empty() {
            self.import("Item");
        }
        let version = self.s.version;
        let o = &mut self.out;
        o.line(format!("const {} = new BlockLayout(", owner.layout()));
        o.line(format!("  {},", str_lit(owner.name)));
        o.line(format!("  {},", owner.block_length));
        o.line(format!("  {version},"));
        o.line(format!("  {null_block},"));
        o.line(format!("  [{}],", since.join(", ")));
        if items.is_empty() {
            o.line("  [],");
        } else {
            o.line("  [");
            for i in &items {
                o.line(format!("    {i},"));
            }
            o.line("  ],");
        }
        o.line(");");
    }

    fn group(&mut self, parent: &Owner<'_>, g: &Group, item: usize) {
        let owner = Owner {
            prefix: format!("{}{}", parent.prefix, class_name(&g.name)),
            name: &g.name,
            description: g.description.as_deref(),
            block_length: g.block_length,
            body: &g.body,
            root: parent.root.clone(),
            is_group: true,
        };
        self.groups_of(&owner);
        self.layout(&owner);
        let dim = self.s.composite(&g.dimension);
        let order = self.s.byte_order;
        let dim_size = dim.encoded_length.max(0);
        let (bl_at, bl_t, bl_o) = match dim.primitive("blockLength") {
            Some((m, p)) => (m.offset, p.primitive_type, p.byte_order),
            None => (0, PrimitiveType::UInt16, order),
        };
        let (count_at, count_t, count_o, max_count) = match dim.primitive("numInGroup") {
            Some((m, p)) => {
                let max = if p.range_declared {
                    p.max_value.as_i128().unwrap_or(0)
                } else {
                    full_max(p.primitive_type)
                };
                (m.offset, p.primitive_type, p.byte_order, max)
            }
            None => (2, PrimitiveType::UInt16, order, 65535),
        };
        let needs = g.body.fields.iter().map(|f| f.end()).max().unwrap_or(0);
        let dim_name = format!("{}_DIM", constant(&owner.prefix));
        let fns = [
            self.length_fn("read", bl_t, bl_o),
            self.length_fn("write", bl_t, bl_o),
            self.length_fn("read", count_t, count_o),
            self.length_fn("write", count_t, count_o),
        ];
        self.import("DimLayout");
        self.import("GroupDecoder");
        self.import("GroupEncoder");
        let o = &mut self.out;
        o.line(format!(
            "const {dim_name} = new DimLayout({dim_size}, {bl_at}, {}, {}, {count_at}, {}, {}, {needs}, {max_count});",
            fns[0], fns[1], fns[2], fns[3]
        ));
        o.blank();
        let cls = format!("{}Decoder", owner.prefix);
        o.line(doc(
            owner.description,
            &format!(
                "Group `{}`: iterate it (`for...of`) for its entries (this same object, moved to each).",
                g.name
            ),
        ));
        o.line(format!("export class {cls} extends GroupDecoder {{"));
        o.indent();
        o.line("/** The group's name, id and entry block length. */");
        o.line(format!("static readonly NAME = {};", str_lit(&g.name)));
        o.line(format!("static readonly ID = {};", g.id));
        o.line(format!(
            "static readonly BLOCK_LENGTH = {};",
            g.block_length
        ));
        self.body_meta(&owner);
        let o = &mut self.out;
        o.blank();
        o.line("constructor() {");
        o.line(format!("  super({}, {dim_name});", owner.layout()));
        o.line(format!("  this._item = {item};"));
        o.line("}");
        let place = GroupPlace {
            parent: &parent.prefix,
            parent_is_group: parent.is_group,
            root: &owner.root,
            item,
            since: g.since_version,
            block_length: g.block_length,
            needs,
            items: g.body.groups.len() + g.body.var_data.len(),
        };
        let dim_parts = Dim {
            size: dim_size.max(0) as usize,
            block_length: Part {
                at: bl_at,
                p: bl_t,
                order: bl_o,
            },
            count: Part {
                at: count_at,
                p: count_t,
                order: count_o,
            },
            max_count,
        };
        self.group_decoder_fast(&place, &dim_parts);
        self.decoder_body(&owner);
        self.out.outdent();
        self.out.line("}");
        self.out.blank();

        let cls = format!("{}Encoder", owner.prefix);
        let o = &mut self.out;
        o.line(doc(
            owner.description,
            &format!(
                "Writes group `{}`: `next()` adds an entry (the count follows) and moves to it.",
                g.name
            ),
        ));
        o.line(format!("export class {cls} extends GroupEncoder {{"));
        o.indent();
        o.line("/** The entry block length and the largest count. */");
        o.line(format!(
            "static readonly BLOCK_LENGTH = {};",
            g.block_length
        ));
        o.line(format!("static readonly MAX_COUNT = {max_count};"));
        self.cache_fields(
            owner.body.fields.iter().map(Slot::of_field).collect(),
            "Encoder",
        );
        self.group_fields(&owner, "Encoder");
        let o = &mut self.out;
        o.blank();
        o.line("constructor() {");
        o.line(format!(
            "  super({}, {}, {dim_name});",
            str_lit(&g.name),
            g.block_length
        ));
        o.line("}");
        self.group_encoder_fast(&place, &dim_parts);
        self.encoder_body(&owner);
        self.out.outdent();
        self.out.line("}");
        self.out.blank();
    }

    /// The metadata of a body's fields, groups and var data, and its composites' cache fields.
    fn body_meta(&mut self, owner: &Owner<'_>) {
        for f in &owner.body.fields {
            self.slot_meta(&Slot::of_field(f));
        }
        for g in &owner.body.groups {
            let c = constant(&g.name);
            self.out
                .line(format!("/** Metadata of group `{}`. */", g.name));
            self.out.line(format!("static readonly {c}_ID = {};", g.id));
            self.out.line(format!(
                "static readonly {c}_SINCE_VERSION = {};",
                g.since_version
            ));
        }
        for v in &owner.body.var_data {
            let c = constant(&v.name);
            self.out
                .line(format!("/** Metadata of var data `{}`. */", v.name));
            self.out.line(format!("static readonly {c}_ID = {};", v.id));
            self.out.line(format!(
                "static readonly {c}_SINCE_VERSION = {};",
                v.since_version
            ));
            self.out.line(format!(
                "static readonly {c}_LENGTH_SIZE = {};",
                v.length_size()
            ));
            self.out.line(format!(
                "static readonly {c}_CHARACTER_ENCODING = {};",
                str_lit(v.character_encoding.as_deref().unwrap_or(""))
            ));
        }
        self.cache_fields(
            owner.body.fields.iter().map(Slot::of_field).collect(),
            "Decoder",
        );
        self.group_fields(owner, "Decoder");
    }

    /// The fields holding the decoders or encoders of the owner's groups.
    fn group_fields(&mut self, owner: &Owner<'_>, suffix: &str) {
        for g in &owner.body.groups {
            let (field, cls) = group_field(&owner.prefix, &g.name, suffix);
            self.out.line(format!("private {field}?: {cls};"));
        }
    }

    /// A decoder's fields, groups, var data and JSON.
    fn decoder_body(&mut self, owner: &Owner<'_>) {
        let body = owner.body;
        for f in &body.fields {
            self.slot_getter(&Slot::of_field(f), &BLOCK_DEC);
        }
        self.in_place_members(body, &BLOCK_DEC, false);
        let mut item = 0;
        for g in &body.groups {
            let (field, cls) = group_field(&owner.prefix, &g.name, "Decoder");
            let o = &mut self.out;
            o.blank();
            o.line(doc(
                g.description.as_deref(),
                &format!("Group `{}`.", g.name),
            ));
            o.line(format!("get {}(): {cls} {{", accessor(&g.name)));
            o.line(format!(
                "  return (this.{field} ??= new {cls}())._in(this, this._nextItem === {item} ? this._nextPos : this._start({item}));"
            ));
            o.line("}");
            item += 1;
        }
        for v in &body.var_data {
            self.var_getters(v, item);
            item += 1;
        }
        // The JSON.
        let versioned = self.s.version > 0;
        let mut entries = Vec::new();
        for f in &body.fields {
            let slot = Slot::of_field(f);
            let value = self.slot_json(&slot, &BLOCK_DEC);
            let present = (!slot.constant && (versioned || f.since_version > 0))
                .then(|| format!("this._present({}, {})", f.since_version, f.end()));
            entries.push((f.name.clone(), value, present));
        }
        let mut item = 0;
        for g in &body.groups {
            entries.push((g.name.clone(), format!("this._groupJson({item})"), None));
            item += 1;
        }
        for v in &body.var_data {
            entries.push((
                v.name.clone(),
                format!(
                    "this._varJson({item}, {}, {})",
                    bool_lit(v.is_text()),
                    bool_lit(is_utf8(v.character_encoding.as_deref()))
                ),
                None,
            ));
            item += 1;
        }
        self.out.blank();
        self.out.line("/** @internal */");
        self.json_method(entries, "override ");
    }

    /// An encoder's setters, group starters and var data writers.
    fn encoder_body(&mut self, owner: &Owner<'_>) {
        for f in &owner.body.fields {
            self.slot_setter(&Slot::of_field(f), &BLOCK_ENC);
        }
        self.in_place_members(owner.body, &BLOCK_ENC, true);
        for g in &owner.body.groups {
            let (field, cls) = group_field(&owner.prefix, &g.name, "Encoder");
            let o = &mut self.out;
            o.blank();
            o.line(doc(
                g.description.as_deref(),
                &format!(
                    "Starts group `{}` (no entries yet: add them with `next()`).",
                    g.name
                ),
            ));
            o.line(format!("{}(): {cls} {{", accessor(&g.name)));
            o.line(format!(
                "  return (this.{field} ??= new {cls}())._in(this);"
            ));
            o.line("}");
        }
        let root = if owner.is_group {
            format!("this._root as {}Encoder", owner.root)
        } else {
            "this".to_owned()
        };
        for v in &owner.body.var_data {
            self.var_setter(v, &root);
        }
    }
}

/// A JSON string of a schema name.
fn json_name(name: &str) -> String {
    crate::rust::json::text_json(name.as_bytes(), Some("UTF-8"))
}

//! Message encoders and decoders, their repeating groups (nested classes) and var data.

use sable_ir::{ByteOrder, PrimitiveType};

use super::fields::{flyweight_field, join_path, Ctx, Slot};
use super::syntax::{class_name, doc, is_utf8, java_type, javadoc, prop, string_literal};
use super::Gen;
use crate::model::{Body, Group, Message, Primitive, VarData};
use crate::writer::CodeWriter;

/// Where a body's accessors live: the message class itself, or a group nested in it.
struct Level<'a> {
    /// The class being written.
    class: String,
    /// The top-level message class.
    message_class: &'a str,
    /// How the message's state is reached: `""` in the message, `parentMessage.` in a group.
    owner: &'static str,
    /// The Java expression of the block's path in error reports: `"fields"` in the message,
    /// `sbeEntryPath()` (the current entry's) in a group.
    path: &'static str,
}

/// The Java expression of the root block's path.
const ROOT_PATH: &str = "\"fields\"";
/// The Java expression of a group's current entry's path.
const ENTRY_PATH: &str = "sbeEntryPath()";

/// `expr` (a count or block length) as an `int`, values above `Integer.MAX_VALUE` (of 32-bit
/// unsigned and 64-bit types) clamped to it, so that they read as too long rather than negative.
fn to_int_clamped(t: PrimitiveType, expr: &str) -> String {
    match java_type(t) {
        "long" => format!("(int) Math.min({expr}, Integer.MAX_VALUE)"),
        _ => expr.to_owned(),
    }
}

/// The signed type of the same size, for writing an `int` length without a redundant cast.
fn length_put(t: PrimitiveType) -> (PrimitiveType, &'static str) {
    match t.size() {
        1 => (PrimitiveType::Int8, "(byte) length"),
        2 => (PrimitiveType::Int16, "(short) length"),
        4 => (PrimitiveType::Int32, "length"),
        _ => (PrimitiveType::Int64, "length"),
    }
}

impl Gen<'_> {
    fn message_constants(&self, w: &mut CodeWriter, m: &Message) {
        let s = self.schema;
        doc(w, "The length of the root block.");
        w.line(format!(
            "public static final int BLOCK_LENGTH = {};",
            m.block_length
        ));
        doc(w, "The message's template id.");
        w.line(format!("public static final int TEMPLATE_ID = {};", m.id));
        doc(w, "The schema's id.");
        w.line(format!("public static final int SCHEMA_ID = {};", s.id));
        doc(w, "The schema's version.");
        w.line(format!(
            "public static final int SCHEMA_VERSION = {};",
            s.version
        ));
        doc(w, "The schema's semantic version.");
        w.line(format!(
            "public static final String SEMANTIC_VERSION = {};",
            string_literal(s.semantic_version.as_deref().unwrap_or(""))
        ));
        doc(w, "The byte order of the schema's values.");
        w.line(format!(
            "public static final java.nio.ByteOrder BYTE_ORDER = java.nio.ByteOrder.{};",
            match s.byte_order {
                sable_ir::ByteOrder::LittleEndian => "LITTLE_ENDIAN",
                sable_ir::ByteOrder::BigEndian => "BIG_ENDIAN",
            }
        ));
        w.blank();
    }

    fn message_identity(&self, w: &mut CodeWriter, m: &Message) {
        for (name, value, what) in [
            (
                "sbeBlockLength",
                "BLOCK_LENGTH",
                "The length of the root block.\n\n@return BLOCK_LENGTH.",
            ),
            (
                "sbeTemplateId",
                "TEMPLATE_ID",
                "The template id.\n\n@return TEMPLATE_ID.",
            ),
            (
                "sbeSchemaId",
                "SCHEMA_ID",
                "The schema id.\n\n@return SCHEMA_ID.",
            ),
            (
                "sbeSchemaVersion",
                "SCHEMA_VERSION",
                "The schema version.\n\n@return SCHEMA_VERSION.",
            ),
        ] {
            doc(w, what);
            w.open_brace(format!("public int {name}()"));
            w.line(format!("return {value};"));
            w.end("}");
            w.blank();
        }
        doc(
            w,
            "The message's semantic type.\n\n@return the semantic type, \"\" when none.",
        );
        w.open_brace("public String sbeSemanticType()");
        w.line(format!(
            "return {};",
            string_literal(m.semantic_type.as_deref().unwrap_or(""))
        ));
        w.end("}");
        w.blank();
    }

    /// The header composite's member setters for the four standard fields, as Java statements
    /// on `header` (an encoder).
    fn apply_header(&self, w: &mut CodeWriter, m: &Message) {
        let h = self.schema.header_composite();
        if let Some(order) = standard_header(h) {
            // The four uint16s of the standard header are constants: one 64-bit write.
            let fields = [
                m.block_length as u64 & 0xFFFF,
                m.id as u64 & 0xFFFF,
                self.schema.id as u64 & 0xFFFF,
                self.schema.version as u64 & 0xFFFF,
            ];
            let packed = match order {
                ByteOrder::LittleEndian => {
                    fields[0] | fields[1] << 16 | fields[2] << 32 | fields[3] << 48
                }
                ByteOrder::BigEndian => {
                    fields[0] << 48 | fields[1] << 32 | fields[2] << 16 | fields[3]
                }
            };
            let buf = self.buffer.var();
            w.line(format!("header.wrap({buf}, offset);"));
            w.line(format!(
                "// blockLength {}, templateId {}, schemaId {}, version {}",
                fields[0], fields[1], fields[2], fields[3]
            ));
            w.line(self.buffer.put(
                buf,
                PrimitiveType::Int64,
                order,
                "offset",
                &format!("0x{packed:016X}L"),
            ));
            return;
        }
        let mut chain = String::from("header");
        chain.push_str(&format!(".wrap({}, offset)", self.buffer.var()));
        for (member, value) in [
            ("blockLength", "BLOCK_LENGTH"),
            ("templateId", "TEMPLATE_ID"),
            ("schemaId", "SCHEMA_ID"),
            ("version", "SCHEMA_VERSION"),
        ] {
            if let Some((_, p)) = h.primitive(member) {
                if p.is_constant() {
                    continue;
                }
                let v = match java_type(p.primitive_type) {
                    "byte" | "short" => format!("({}) {value}", java_type(p.primitive_type)),
                    _ => value.to_owned(),
                };
                chain.push_str(&format!("\n    .{}({v})", prop(member)));
            }
        }
        w.line(format!("{chain};"));
    }

    pub(super) fn message_encoder(&self, m: &Message) -> (String, String) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let cls = format!("{}Encoder", class_name(&m.name));
        let header = format!("{}Encoder", class_name(&self.schema.header));
        let mut w = self.file_header(b.imports());
        javadoc(
            &mut w,
            m.description.as_deref(),
            &[format!(
                "Encoder of message {} (template id {}): a reusable flyweight writing into a buffer.",
                m.name, m.id
            )],
        );
        w.open_brace(format!("public final class {cls}"));
        self.message_constants(&mut w, m);
        b.declare(&mut w, b.write_type());
        w.line(format!("private {off} offset;"));
        w.line(format!("private {off} limit;"));
        doc(
            &mut w,
            "The buffer's capacity: where groups and var data must end.",
        );
        w.line(format!("private {off} sbeEnd;"));
        w.line("private int sbeAccessIndex;");
        self.flyweight_fields(&mut w, &m.body, true, "this");
        w.blank();
        self.message_identity(&mut w, m);
        doc(&mut w, "The buffer written to.\n\n@return the buffer.");
        w.open_brace(format!("public {} {buf}()", b.write_type()));
        w.line(format!("return {buf};"));
        w.end("}");
        w.blank();
        doc(
            &mut w,
            "Where the message's root block starts.\n\n@return the offset.",
        );
        w.open_brace(format!("public {off} offset()"));
        w.line("return offset;");
        w.end("}");
        w.blank();
        javadoc(
            &mut w,
            Some("Starts a message at a position in a buffer (after its header)."),
            &[
                format!("@param {buf} the buffer."),
                "@param offset where the root block starts.".to_owned(),
                "@return this.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public {cls} wrap(final {} {buf}, final {off} offset)",
            b.write_type()
        ));
        w.line(format!("final {off} end = {};", b.capacity(buf)));
        w.open_brace(format!(
            "if ({})",
            b.past_end("offset", "BLOCK_LENGTH", "end")
        ));
        w.line("throw SbeEncodeException.bufferTooShort(\"fields\", offset, BLOCK_LENGTH, end);");
        w.end("}");
        b.bind(&mut w);
        w.line("this.sbeEnd = end;");
        w.line("this.offset = offset;");
        w.line("this.limit = offset + BLOCK_LENGTH;");
        w.open_brace("if (SbeSupport.ACCESS_ORDER_CHECKS)");
        w.line("sbeAccessIndex = 0;");
        w.end("}");
        w.line("return this;");
        w.end("}");
        w.blank();
        javadoc(
            &mut w,
            Some("Writes the message header (block length, template id, schema id, version), then starts the message after it."),
            &[
                format!("@param {buf} the buffer."),
                "@param offset where the header starts.".to_owned(),
                "@param header the header encoder to write it with.".to_owned(),
                "@return this.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public {cls} wrapAndApplyHeader(final {} {buf}, final {off} offset, final {header} header)",
            b.write_type()
        ));
        w.line(format!("final {off} end = {};", b.capacity(buf)));
        for (what, len) in [
            ("header", format!("{header}.ENCODED_LENGTH")),
            ("fields", format!("{header}.ENCODED_LENGTH + BLOCK_LENGTH")),
        ] {
            w.open_brace(format!("if ({})", b.past_end("offset", &len, "end")));
            w.line(format!(
                "throw SbeEncodeException.bufferTooShort(\"{what}\", offset, {len}, end);"
            ));
            w.end("}");
        }
        b.bind(&mut w);
        self.apply_header(&mut w, m);
        w.line(format!(
            "return wrap({buf}, offset + {header}.ENCODED_LENGTH);"
        ));
        w.end("}");
        w.blank();
        doc(
            &mut w,
            "Bytes written so far, from the root block's start.\n\n@return the length.",
        );
        w.open_brace("public int encodedLength()");
        w.line(format!("return {};", b.offset_to_int("limit - offset")));
        w.end("}");
        w.blank();
        self.limit_accessors(&mut w);
        let level = Level {
            class: cls.clone(),
            message_class: &cls,
            owner: "",
            path: ROOT_PATH,
        };
        self.body_encoder(&mut w, &m.body, &level);
        w.end("}");
        (cls, w.finish())
    }

    fn limit_accessors(&self, w: &mut CodeWriter) {
        let off = self.buffer.off();
        doc(w, "Where the next group or var data goes (the end of what is written or read).\n\n@return the limit.");
        w.open_brace(format!("public {off} limit()"));
        w.line("return limit;");
        w.end("}");
        w.blank();
        javadoc(
            w,
            Some("Moves the limit."),
            &["@param limit the new limit.".to_owned()],
        );
        w.open_brace(format!("public void limit(final {off} limit)"));
        w.line("this.limit = limit;");
        w.end("}");
        w.blank();
    }

    /// Flyweight fields: composite and set members, and group flyweights.
    fn flyweight_fields(&self, w: &mut CodeWriter, body: &Body, encoder: bool, parent: &str) {
        for f in &body.fields {
            if let Some(decl) = flyweight_field(&Slot::from_field(f), encoder) {
                let ty = decl.split(' ').next().unwrap_or("");
                w.line(format!("private final {decl} = new {ty}();"));
            }
        }
        let suffix = if encoder { "Encoder" } else { "Decoder" };
        for g in &body.groups {
            let gc = format!("{}{suffix}", class_name(&g.name));
            if parent == "this" {
                w.line(format!(
                    "private final {gc} {} = new {gc}(this);",
                    prop(&g.name)
                ));
            } else {
                // Assigned in the constructor, once parentMessage is.
                w.line(format!("private final {gc} {};", prop(&g.name)));
            }
        }
    }

    fn nested_group_inits(&self, w: &mut CodeWriter, body: &Body, suffix: &str) {
        for g in &body.groups {
            w.line(format!(
                "this.{} = new {}{suffix}(parentMessage, this);",
                prop(&g.name),
                class_name(&g.name)
            ));
        }
    }

    fn body_encoder(&self, w: &mut CodeWriter, body: &Body, level: &Level) {
        let b = self.buffer;
        let ctx = Ctx {
            class: level.class.clone(),
            buf: b.var().to_owned(),
            base: "offset".to_owned(),
            version: None,
            block: None,
            is_message_field: true,
            path: level.path.to_owned(),
        };
        for f in &body.fields {
            self.encoder_accessors(w, &Slot::from_field(f), &ctx);
        }
        for (k, g) in body.groups.iter().enumerate() {
            self.group_encoder(w, g, level, body, k);
        }
        for (i, v) in body.var_data.iter().enumerate() {
            self.var_data_encoder(w, v, level, body, body.groups.len() + i);
        }
        self.access_methods(w, body);
    }

    fn group_meta(&self, w: &mut CodeWriter, name: &str, id: i32, since: i32) {
        let p = prop(name);
        doc(w, &format!("The schema id of {name}.\n\n@return {id}."));
        w.open_brace(format!("public static int {p}Id()"));
        w.line(format!("return {id};"));
        w.end("}");
        w.blank();
        doc(
            w,
            &format!("The schema version {name} appeared in.\n\n@return {since}."),
        );
        w.open_brace(format!("public static int {p}SinceVersion()"));
        w.line(format!("return {since};"));
        w.end("}");
        w.blank();
    }

    /// A group class's references to its message and, when nested, to the enclosing group.
    fn group_parent_fields(&self, w: &mut CodeWriter, level: &Level) {
        w.line(format!(
            "private final {} parentMessage;",
            level.message_class
        ));
        if !level.owner.is_empty() {
            w.line(format!("private final {} parentGroup;", level.class));
        }
    }

    /// A group class's constructor, and its paths in error reports.
    fn group_constructor(
        &self,
        w: &mut CodeWriter,
        g: &Group,
        gc: &str,
        level: &Level,
        suffix: &str,
    ) {
        let nested = !level.owner.is_empty();
        let params = if nested {
            format!(
                "final {} parentMessage, final {} parentGroup",
                level.message_class, level.class
            )
        } else {
            format!("final {} parentMessage", level.message_class)
        };
        w.open_brace(format!("{gc}({params})"));
        w.line("this.parentMessage = parentMessage;");
        if nested {
            w.line("this.parentGroup = parentGroup;");
        }
        self.nested_group_inits(w, &g.body, suffix);
        w.end("}");
        w.blank();
        doc(w, "The group's path in error reports.\n\n@return e.g. fields.G, or fields.G[i].H when nested.");
        w.open_brace("String sbePath()");
        let base = if nested {
            format!("parentGroup.{ENTRY_PATH}")
        } else {
            ROOT_PATH.to_owned()
        };
        w.line(format!("return {};", join_path(&base, &g.name)));
        w.end("}");
        w.blank();
        doc(
            w,
            "The current entry's path in error reports.\n\n@return e.g. fields.G[i].",
        );
        w.open_brace("String sbeEntryPath()");
        w.line("return sbePath() + \"[\" + (index - 1) + \"]\";");
        w.end("}");
        w.blank();
    }

    fn dimension(&self, g: &Group) -> (Primitive, usize, Primitive, usize, usize) {
        let d = self.schema.composite(&g.dimension);
        let (bm, bp) = d.primitive("blockLength").expect("dimension blockLength");
        let (nm, np) = d.primitive("numInGroup").expect("dimension numInGroup");
        (
            bp.clone(),
            bm.offset,
            np.clone(),
            nm.offset,
            d.encoded_length.max(0) as usize,
        )
    }

    fn group_encoder(
        &self,
        w: &mut CodeWriter,
        g: &Group,
        level: &Level,
        parent_body: &Body,
        k: usize,
    ) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let gc = format!("{}Encoder", class_name(&g.name));
        let name = prop(&g.name);
        let (bp, boff, np, noff, header_size) = self.dimension(g);
        self.group_meta(w, &g.name, g.id, g.since_version);
        javadoc(
            w,
            g.description.as_deref(),
            &[
                format!(
                    "Starts the {} group: writes its header, then each entry after next().",
                    g.name
                ),
                "@param count how many entries will be written.".to_owned(),
                format!("@return the {gc} flyweight."),
            ],
        );
        w.open_brace(format!("public {gc} {name}Count(final int count)"));
        self.access_check(w, parent_body, k, true);
        w.line(format!("{name}.wrap({buf}, count);"));
        w.line(format!("return {name};"));
        w.end("}");
        w.blank();
        let parent = "parentMessage.";
        let min = np.min_value.as_i128().unwrap_or(0);
        let max = np
            .max_value
            .as_i128()
            .unwrap_or(i128::from(i32::MAX))
            .min(i128::from(i32::MAX));
        javadoc(
            w,
            g.description.as_deref(),
            &[format!(
                "The {} repeating group's encoder: a reusable flyweight over one entry at a time.",
                g.name
            )],
        );
        w.open_brace(format!("public static final class {gc}"));
        doc(w, "Bytes of the group header.");
        w.line(format!(
            "public static final int HEADER_SIZE = {header_size};"
        ));
        doc(w, "Bytes of each entry's block.");
        w.line(format!(
            "public static final int BLOCK_LENGTH = {};",
            g.block_length
        ));
        w.blank();
        self.group_parent_fields(w, level);
        b.declare(w, b.write_type());
        w.line(format!("private {off} offset;"));
        w.line(format!("private {off} headerOffset;"));
        w.line("private int count;");
        w.line("private int index;");
        w.line("private int sbeAccessIndex;");
        self.flyweight_fields(w, &g.body, true, "parentMessage");
        w.blank();
        self.group_constructor(w, g, &gc, level, "Encoder");
        javadoc(
            w,
            Some("Writes the group header at the message's limit."),
            &[
                format!("@param {buf} the buffer."),
                "@param count how many entries will be written.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public void wrap(final {} {buf}, final int count)",
            b.write_type()
        ));
        w.open_brace(format!("if (count > {max})"));
        w.line(format!(
            "throw new SbeEncodeException(SbeEncodeException.Kind.COUNT_TOO_LARGE, sbePath(), \"count \" + count + \" above {max}\");"
        ));
        w.end("}");
        w.open_brace(format!("if (count < {min})"));
        w.line(format!(
            "throw new SbeEncodeException(SbeEncodeException.Kind.VALUE_OUT_OF_RANGE, sbePath(), \"count \" + count + \" below {min}\");"
        ));
        w.end("}");
        w.line(format!("final {off} at = {parent}limit;"));
        w.open_brace(format!(
            "if ({})",
            b.past_end("at", "HEADER_SIZE", &format!("{parent}sbeEnd"))
        ));
        w.line(format!(
            "throw SbeEncodeException.bufferTooShort(sbePath(), at, HEADER_SIZE, {parent}sbeEnd);"
        ));
        w.end("}");
        b.bind(w);
        w.line("this.count = count;");
        w.line("this.index = 0;");
        w.open_brace("if (SbeSupport.ACCESS_ORDER_CHECKS)");
        w.line("sbeAccessIndex = 0;");
        w.end("}");
        w.line("headerOffset = at;");
        w.line(format!("{parent}limit = headerOffset + HEADER_SIZE;"));
        let (nt, nv) = length_put(np.primitive_type);
        if standard_dimension(&bp, boff, &np, noff) {
            // blockLength and numInGroup, two uint16s side by side: one 32-bit write.
            let packed = match bp.byte_order {
                ByteOrder::LittleEndian => "BLOCK_LENGTH | (count << 16)",
                ByteOrder::BigEndian => "(BLOCK_LENGTH << 16) | count",
            };
            w.line(b.put(
                buf,
                PrimitiveType::Int32,
                bp.byte_order,
                "headerOffset",
                packed,
            ));
        } else {
            let (bt, bv) = length_put(bp.primitive_type);
            w.line(b.put(
                buf,
                bt,
                bp.byte_order,
                &at("headerOffset", boff),
                &bv.replace("length", "BLOCK_LENGTH"),
            ));
            w.line(b.put(
                buf,
                nt,
                np.byte_order,
                &at("headerOffset", noff),
                &nv.replace("length", "count"),
            ));
        }
        w.end("}");
        w.blank();
        doc(w, "Moves to the next entry.\n\n@return this, over the next entry.\n@throws java.util.NoSuchElementException past the count.");
        w.open_brace(format!("public {gc} next()"));
        w.open_brace("if (index >= count)");
        w.line("throw new java.util.NoSuchElementException();");
        w.end("}");
        self.entry_check(w, &g.body);
        w.open_brace(format!(
            "if ({})",
            b.past_end(
                &format!("{parent}limit"),
                "BLOCK_LENGTH",
                &format!("{parent}sbeEnd")
            )
        ));
        w.line(format!(
            "throw SbeEncodeException.bufferTooShort(sbePath() + \"[\" + index + \"]\", {parent}limit, BLOCK_LENGTH, {parent}sbeEnd);"
        ));
        w.end("}");
        w.line(format!("offset = {parent}limit;"));
        w.line(format!("{parent}limit = offset + BLOCK_LENGTH;"));
        w.line("++index;");
        w.line("return this;");
        w.end("}");
        w.blank();
        doc(w, "Sets the count to the entries started so far (for writers that stop early).\n\n@return the new count.");
        w.open_brace("public int resetCountToIndex()");
        w.line("count = index;");
        w.line(b.put(
            buf,
            nt,
            np.byte_order,
            &at("headerOffset", noff),
            &nv.replace("length", "count"),
        ));
        w.line("return count;");
        w.end("}");
        w.blank();
        for (what, v) in [("Min", min), ("Max", max)] {
            doc(
                w,
                &format!("The {} count.\n\n@return {v}.", what.to_lowercase()),
            );
            w.open_brace(format!("public static int count{what}Value()"));
            w.line(format!("return {v};"));
            w.end("}");
            w.blank();
        }
        doc(w, "Bytes of the group header.\n\n@return HEADER_SIZE.");
        w.open_brace("public static int sbeHeaderSize()");
        w.line("return HEADER_SIZE;");
        w.end("}");
        w.blank();
        doc(w, "Bytes of each entry's block.\n\n@return BLOCK_LENGTH.");
        w.open_brace("public static int sbeBlockLength()");
        w.line("return BLOCK_LENGTH;");
        w.end("}");
        w.blank();
        self.complete_methods(w, g);
        let inner = Level {
            class: gc.clone(),
            message_class: level.message_class,
            owner: "parentMessage.",
            path: ENTRY_PATH,
        };
        self.body_encoder(w, &g.body, &inner);
        w.end("}");
        w.blank();
    }

    fn var_data_meta(&self, w: &mut CodeWriter, v: &VarData) {
        let name = prop(&v.name);
        self.group_meta(w, &v.name, v.id, v.since_version);
        if let Some(enc) = &v.character_encoding {
            doc(
                w,
                &format!("The character encoding of {}.\n\n@return {enc}.", v.name),
            );
            w.open_brace(format!("public static String {name}CharacterEncoding()"));
            w.line(format!("return {};", string_literal(enc)));
            w.end("}");
            w.blank();
        }
        if let Some(st) = &v.semantic_type {
            doc(
                w,
                &format!(
                    "The semantic type of {}.\n\n@return {}.",
                    v.name,
                    super::syntax::escape_javadoc(st)
                ),
            );
            w.open_brace(format!("public static String {name}SemanticType()"));
            w.line(format!("return {};", string_literal(st)));
            w.end("}");
            w.blank();
        }
        doc(
            w,
            &format!(
                "Bytes of the length before {}.\n\n@return {}.",
                v.name,
                v.length_size()
            ),
        );
        w.open_brace(format!("public static int {name}HeaderLength()"));
        w.line(format!("return {};", v.length_size()));
        w.end("}");
        w.blank();
    }

    fn var_data_max(v: &VarData) -> Option<i128> {
        let max = v.length.max_value.as_i128()?;
        (max < i128::from(i32::MAX)).then_some(max)
    }

    fn var_data_encoder(
        &self,
        w: &mut CodeWriter,
        v: &VarData,
        level: &Level,
        body: &Body,
        k: usize,
    ) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let cls = &level.class;
        let p = level.owner;
        let name = prop(&v.name);
        let upper = class_name(&v.name);
        let size = v.length_size();
        self.var_data_meta(w, v);
        let (lt, lv) = length_put(v.length.primitive_type);
        let path = join_path(level.path, &v.name);
        let start = |w: &mut CodeWriter| {
            self.access_check(w, body, k, true);
            if let Some(max) = Self::var_data_max(v) {
                w.open_brace(format!("if (length > {max})"));
                w.line(format!(
                    "throw new SbeEncodeException(SbeEncodeException.Kind.LENGTH_TOO_LARGE, {path}, \"length \" + length + \" above {max}\");"
                ));
                w.end("}");
            }
            w.line(format!("final {off} headerOffset = {p}limit;"));
            w.open_brace(format!(
                "if ({})",
                b.past_end(
                    "headerOffset",
                    &format!("{size} + length"),
                    &format!("{p}sbeEnd")
                )
            ));
            w.line(format!(
                "throw SbeEncodeException.bufferTooShort({path}, headerOffset, {size} + length, {p}sbeEnd);"
            ));
            w.end("}");
            w.line(format!("{p}limit = headerOffset + {size} + length;"));
            w.line(b.put(buf, lt, v.length.byte_order, "headerOffset", lv));
        };
        javadoc(
            w,
            v.description.as_deref(),
            &[
                format!(
                    "Writes {} from an array: its length, then the bytes.",
                    v.name
                ),
                "@param src the bytes.".to_owned(),
                "@param srcOffset where they start in src.".to_owned(),
                "@param length how many.".to_owned(),
                "@return this.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public {cls} put{upper}(final byte[] src, final int srcOffset, final int length)"
        ));
        start(w);
        w.line(b.put_bytes(
            buf,
            &format!("headerOffset + {size}"),
            "src",
            "srcOffset",
            "length",
        ));
        w.line("return this;");
        w.end("}");
        w.blank();
        javadoc(
            w,
            v.description.as_deref(),
            &[
                format!(
                    "Writes {} from a buffer: its length, then the bytes.",
                    v.name
                ),
                "@param src the buffer.".to_owned(),
                "@param srcOffset where they start in src.".to_owned(),
                "@param length how many.".to_owned(),
                "@return this.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public {cls} put{upper}(final {} src, final {off} srcOffset, final int length)",
            b.source_type()
        ));
        start(w);
        w.line(b.copy_from(
            buf,
            &format!("headerOffset + {size}"),
            "src",
            "srcOffset",
            "length",
        ));
        w.line("return this;");
        w.end("}");
        w.blank();
        if v.is_text() {
            let utf8 = is_utf8(v.character_encoding.as_deref());
            let how = if utf8 {
                "encoded as UTF-8"
            } else {
                "one byte per character (characters above U+00FF as '?')"
            };
            for ty in ["String", "CharSequence"] {
                javadoc(
                    w,
                    v.description.as_deref(),
                    &[
                        format!("Writes {} as text, {how}, without allocating.", v.name),
                        "@param value the text.".to_owned(),
                        "@return this.".to_owned(),
                    ],
                );
                w.open_brace(format!("public {cls} {name}(final {ty} value)"));
                if utf8 {
                    w.line("final int length = SbeSupport.utf8Length(value);");
                } else {
                    w.line("final int length = value.length();");
                }
                start(w);
                let put = if utf8 { "putUtf8" } else { "putLatin1" };
                w.line(format!(
                    "SbeSupport.{put}({buf}, headerOffset + {size}, length, value, false);"
                ));
                w.line("return this;");
                w.end("}");
                w.blank();
            }
        }
    }

    pub(super) fn message_decoder(&self, m: &Message) -> (String, String) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let cls = format!("{}Decoder", class_name(&m.name));
        let header = format!("{}Decoder", class_name(&self.schema.header));
        let mut w = self.file_header(b.imports());
        javadoc(
            &mut w,
            m.description.as_deref(),
            &[format!(
                "Decoder of message {} (template id {}): a reusable flyweight reading from a buffer at the writer's (acting) version and block length.",
                m.name, m.id
            )],
        );
        w.open_brace(format!("public final class {cls}"));
        self.message_constants(&mut w, m);
        b.declare(&mut w, b.read_type());
        w.line(format!("private {off} offset;"));
        w.line(format!("private {off} limit;"));
        w.line("private int sbeAccessIndex;");
        w.line("private int actingBlockLength;");
        w.line("private int actingVersion;");
        w.line(format!("private {off} headerOffset = -1;"));
        doc(
            &mut w,
            "Where the message starts (its header): error offsets count from there.",
        );
        w.line(format!("private {off} sbeMessageStart;"));
        doc(
            &mut w,
            "Where the buffer ends: every item read must end by then.",
        );
        w.line(format!("private {off} sbeEnd;"));
        w.line(format!(
            "private final {header} headerDecoder = new {header}();"
        ));
        self.flyweight_fields(&mut w, &m.body, false, "this");
        w.blank();
        self.message_identity(&mut w, m);
        doc(&mut w, "The buffer read from.\n\n@return the buffer.");
        w.open_brace(format!("public {} {buf}()", b.read_type()));
        w.line(format!("return {buf};"));
        w.end("}");
        w.blank();
        doc(
            &mut w,
            "Where the message's root block starts.\n\n@return the offset.",
        );
        w.open_brace(format!("public {off} offset()"));
        w.line("return offset;");
        w.end("}");
        w.blank();
        self.decoder_wrap(&mut w, &cls, &header);
        self.decoder_apply_header(&mut w, m, &cls, &header);
        doc(&mut w, "Goes back to the start of the message (groups and var data are read in order).\n\n@return this.");
        w.open_brace(format!("public {cls} sbeRewind()"));
        w.line("limit = offset + actingBlockLength;");
        w.open_brace("if (SbeSupport.ACCESS_ORDER_CHECKS)");
        w.line("sbeAccessIndex = 0;");
        w.end("}");
        w.line("return this;");
        w.end("}");
        w.blank();
        doc(&mut w, "The whole message's length, found by skipping through it (the position is kept).\n\n@return bytes from the root block's start to the message's end.");
        w.open_brace("public int sbeDecodedLength()");
        w.line(format!("final {off} currentLimit = limit;"));
        w.line("final int currentAccessIndex = sbeAccessIndex;");
        w.line("sbeRewind();");
        w.line("sbeSkip();");
        w.line(format!(
            "final int decodedLength = {};",
            b.offset_to_int("limit - offset")
        ));
        w.line("limit = currentLimit;");
        w.line("sbeAccessIndex = currentAccessIndex;");
        w.line("return decodedLength;");
        w.end("}");
        w.blank();
        doc(&mut w, "Skips every group and var data of the message (call it right after wrap or sbeRewind).\n\n@return this.");
        w.open_brace(format!("public {cls} sbeSkip()"));
        self.skip_body(&mut w, &m.body);
        w.line("return this;");
        w.end("}");
        w.blank();
        doc(
            &mut w,
            "The schema version the writer used.\n\n@return the acting version.",
        );
        w.open_brace("public int actingVersion()");
        w.line("return actingVersion;");
        w.end("}");
        w.blank();
        doc(
            &mut w,
            "The root block length the writer used.\n\n@return the acting block length.",
        );
        w.open_brace("public int actingBlockLength()");
        w.line("return actingBlockLength;");
        w.end("}");
        w.blank();
        doc(
            &mut w,
            "Bytes read so far, from the root block's start.\n\n@return the length.",
        );
        w.open_brace("public int encodedLength()");
        w.line(format!("return {};", b.offset_to_int("limit - offset")));
        w.end("}");
        w.blank();
        self.limit_accessors(&mut w);
        let level = Level {
            class: cls.clone(),
            message_class: &cls,
            owner: "",
            path: ROOT_PATH,
        };
        self.body_decoder(&mut w, &m.body, &level);
        // JSON.
        javadoc(
            &mut w,
            Some("Appends the message in the canonical JSON form of docs/json.md."),
            &[
                "The header is the one read by wrapAndApplyHeader, or else made of the acting block length and version.".to_owned(),
                "Reads the groups and var data from the start, so a group being iterated is reset; the position is kept.".to_owned(),
                "@param builder the destination.".to_owned(),
                "@return the builder.".to_owned(),
            ],
        );
        w.open_brace("public StringBuilder appendTo(final StringBuilder builder)");
        let h = self.schema.header_composite();
        w.line(format!("final {off} originalLimit = limit;"));
        w.line("final int originalAccessIndex = sbeAccessIndex;");
        w.line("limit = offset + actingBlockLength;");
        w.line("sbeAccessIndex = 0;");
        w.line(format!(
            "builder.append({});",
            string_literal(&format!("{{\"message\":\"{}\",\"header\":", m.name))
        ));
        w.open_brace("if (headerOffset >= 0)");
        w.line(format!(
            "headerDecoder.wrap({buf}, headerOffset).appendTo(builder);"
        ));
        w.end("}");
        w.open_brace("else");
        let mut first = true;
        for member in &h.members {
            let key = format!("{}\"{}\":", if first { "{" } else { "," }, member.name);
            first = false;
            w.line(format!("builder.append({});", string_literal(&key)));
            let v = match member.name.as_str() {
                "blockLength" => "actingBlockLength",
                "templateId" => "TEMPLATE_ID",
                "schemaId" => "SCHEMA_ID",
                "version" => "actingVersion",
                _ => "\"null\"",
            };
            w.line(format!("builder.append({v});"));
        }
        w.line("builder.append('}');");
        w.end("}");
        w.line("builder.append(\",\\\"fields\\\":{\");");
        let ctx = self.decoder_ctx(&level);
        self.json_body(&mut w, &m.body, &ctx, &level);
        w.line("builder.append(\"}}\");");
        w.line("limit = originalLimit;");
        w.line("sbeAccessIndex = originalAccessIndex;");
        w.line("return builder;");
        w.end("}");
        w.blank();
        doc(&mut w, "The message in the canonical JSON form of docs/json.md (allocates).\n\n@return the JSON text.");
        w.line("@Override");
        w.open_brace("public String toString()");
        w.line("return appendTo(new StringBuilder()).toString();");
        w.end("}");
        w.end("}");
        (cls, w.finish())
    }

    fn decoder_ctx(&self, level: &Level) -> Ctx {
        let in_group = !level.owner.is_empty();
        Ctx {
            class: level.class.clone(),
            buf: self.buffer.var().to_owned(),
            base: "offset".to_owned(),
            version: Some(format!("{}actingVersion", level.owner)),
            block: Some(
                if in_group {
                    "blockLength"
                } else {
                    "actingBlockLength"
                }
                .to_owned(),
            ),
            is_message_field: true,
            path: level.path.to_owned(),
        }
    }

    fn skip_body(&self, w: &mut CodeWriter, body: &Body) {
        for g in &body.groups {
            let gc = format!("{}Decoder", class_name(&g.name));
            let name = prop(&g.name);
            w.line(format!("final {gc} {name}Group = {name}();"));
            w.open_brace(format!("while ({name}Group.hasNext())"));
            w.line(format!("{name}Group.next().sbeSkip();"));
            w.end("}");
        }
        for v in &body.var_data {
            w.line(format!("skip{}();", class_name(&v.name)));
        }
    }

    fn body_decoder(&self, w: &mut CodeWriter, body: &Body, level: &Level) {
        let ctx = self.decoder_ctx(level);
        for f in &body.fields {
            self.decoder_accessors(w, &Slot::from_field(f), &ctx);
        }
        for (k, g) in body.groups.iter().enumerate() {
            self.group_decoder(w, g, level, body, k);
        }
        for (i, v) in body.var_data.iter().enumerate() {
            self.var_data_decoder(w, v, level, body, body.groups.len() + i);
        }
        self.access_methods(w, body);
    }

    fn json_body(&self, w: &mut CodeWriter, body: &Body, ctx: &Ctx, level: &Level) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let mut first = true;
        for f in &body.fields {
            self.json_slot(w, &Slot::from_field(f), ctx, first);
            first = false;
        }
        let version = format!("{}actingVersion", level.owner);
        for g in &body.groups {
            let key = format!("{}\"{}\":", if first { "" } else { "," }, g.name);
            first = false;
            w.line(format!("builder.append({});", string_literal(&key)));
            let gc = format!("{}Decoder", class_name(&g.name));
            let name = prop(&g.name);
            let open_else = g.since_version > 0;
            if open_else {
                w.open_brace(format!("if ({version} < {})", g.since_version));
                w.line("builder.append(\"null\");");
                w.end("}");
                w.open_brace("else");
            }
            w.line(format!("final {gc} {name}Group = {name}();"));
            w.line("builder.append('[');");
            w.open_brace(format!("while ({name}Group.hasNext())"));
            w.line(format!("{name}Group.next().appendTo(builder);"));
            w.open_brace(format!("if ({name}Group.hasNext())"));
            w.line("builder.append(',');");
            w.end("}");
            w.end("}");
            w.line("builder.append(']');");
            if open_else {
                w.end("}");
            }
        }
        for (vi, v) in body.var_data.iter().enumerate() {
            let key = format!("{}\"{}\":", if first { "" } else { "," }, v.name);
            first = false;
            w.line(format!("builder.append({});", string_literal(&key)));
            let name = prop(&v.name);
            let open_else = v.since_version > 0;
            if open_else {
                w.open_brace(format!("if ({version} < {})", v.since_version));
                w.line("builder.append(\"null\");");
                w.end("}");
                w.open_brace("else");
            }
            let p = level.owner;
            let size = v.length_size();
            self.access_check(w, body, body.groups.len() + vi, true);
            w.line(format!("final {off} {name}At = {p}limit + {size};"));
            w.line(format!(
                "final int {name}Length = sbe{}Length({p}limit);",
                class_name(&v.name)
            ));
            w.line(format!("{p}limit = {name}At + {name}Length;"));
            if v.is_text() {
                w.line(format!(
                    "SbeSupport.appendJsonText(builder, {buf}, {name}At, {name}Length, {});",
                    is_utf8(v.character_encoding.as_deref())
                ));
            } else {
                w.line(format!(
                    "SbeSupport.appendJsonHex(builder, {buf}, {name}At, {name}Length);"
                ));
            }
            if open_else {
                w.end("}");
            }
        }
    }

    fn group_decoder(
        &self,
        w: &mut CodeWriter,
        g: &Group,
        level: &Level,
        parent_body: &Body,
        k: usize,
    ) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let gc = format!("{}Decoder", class_name(&g.name));
        let name = prop(&g.name);
        let (bp, boff, np, noff, header_size) = self.dimension(g);
        let parent = "parentMessage.";
        self.group_meta(w, &g.name, g.id, g.since_version);
        javadoc(
            w,
            g.description.as_deref(),
            &[
                format!(
                    "The {} group at the current position: reads its header; iterate it for the entries.",
                    g.name
                ),
                format!("@return the {gc} flyweight (no entries when the group is newer than the acting version)."),
            ],
        );
        w.open_brace(format!("public {gc} {name}()"));
        self.access_check(w, parent_body, k, true);
        w.line(format!("{name}.wrap({buf});"));
        w.line(format!("return {name};"));
        w.end("}");
        w.blank();
        javadoc(
            w,
            g.description.as_deref(),
            &[format!(
                "The {} repeating group's decoder: a reusable flyweight and iterator over its entries.",
                g.name
            )],
        );
        w.open_brace(format!(
            "public static final class {gc} implements Iterable<{gc}>, java.util.Iterator<{gc}>"
        ));
        doc(w, "Bytes of the group header.");
        w.line(format!(
            "public static final int HEADER_SIZE = {header_size};"
        ));
        doc(
            w,
            "Bytes of each entry's block in this version of the schema.",
        );
        w.line(format!(
            "public static final int BLOCK_LENGTH = {};",
            g.block_length
        ));
        w.blank();
        self.group_parent_fields(w, level);
        b.declare(w, b.read_type());
        w.line(format!("private {off} offset;"));
        w.line("private int blockLength;");
        w.line("private int count;");
        w.line("private int index;");
        w.line("private int sbeAccessIndex;");
        self.flyweight_fields(w, &g.body, false, "parentMessage");
        w.blank();
        self.group_constructor(w, g, &gc, level, "Decoder");
        javadoc(
            w,
            Some("Reads the group header at the message's limit."),
            &[format!("@param {buf} the buffer.")],
        );
        w.open_brace(format!("public void wrap(final {} {buf})", b.read_type()));
        b.bind(w);
        w.line("this.index = 0;");
        w.open_brace("if (SbeSupport.ACCESS_ORDER_CHECKS)");
        w.line("sbeAccessIndex = 0;");
        w.end("}");
        if g.since_version > 0 {
            w.open_brace(format!("if ({parent}actingVersion < {})", g.since_version));
            w.line("this.count = 0;");
            w.line("this.blockLength = 0;");
            w.line("return;");
            w.end("}");
        }
        w.line(format!("final {off} headerOffset = {parent}limit;"));
        w.open_brace(format!(
            "if ({})",
            b.past_end("headerOffset", "HEADER_SIZE", &format!("{parent}sbeEnd"))
        ));
        w.line(format!(
            "throw SbeDecodeException.truncated(headerOffset - {parent}sbeMessageStart, sbePath(), HEADER_SIZE, {parent}sbeEnd - headerOffset);"
        ));
        w.end("}");
        w.line(format!("{parent}limit = headerOffset + HEADER_SIZE;"));
        if standard_dimension(&bp, boff, &np, noff) {
            // blockLength and numInGroup, two uint16s side by side: one 32-bit read.
            w.line(format!(
                "final int dimensions = {};",
                b.get(buf, PrimitiveType::Int32, bp.byte_order, "headerOffset")
            ));
            let (block, count) = match bp.byte_order {
                ByteOrder::LittleEndian => ("dimensions & 0xFFFF", "dimensions >>> 16"),
                ByteOrder::BigEndian => ("dimensions >>> 16", "dimensions & 0xFFFF"),
            };
            w.line(format!("this.blockLength = {block};"));
            w.line(format!("this.count = {count};"));
        } else {
            w.line(format!(
                "this.blockLength = {};",
                to_int_clamped(
                    bp.primitive_type,
                    &b.get(
                        buf,
                        bp.primitive_type,
                        bp.byte_order,
                        &at("headerOffset", boff)
                    )
                )
            ));
            w.line(format!(
                "this.count = {};",
                to_int_clamped(
                    np.primitive_type,
                    &b.get(
                        buf,
                        np.primitive_type,
                        np.byte_order,
                        &at("headerOffset", noff)
                    )
                )
            ));
        }
        w.open_brace(format!(
            "if (blockLength < BLOCK_LENGTH && {parent}actingVersion >= SCHEMA_VERSION)"
        ));
        w.line(format!(
            "throw new SbeDecodeException(SbeDecodeException.Kind.BLOCK_LENGTH_TOO_SHORT, {}, sbePath(), \"block length \" + blockLength + \" below {} at version \" + {parent}actingVersion);",
            at(&format!("headerOffset - {parent}sbeMessageStart"), boff),
            g.block_length
        ));
        w.end("}");
        w.end("}");
        w.blank();
        doc(w, "Entries in the group.\n\n@return the count.");
        w.open_brace("public int count()");
        w.line("return count;");
        w.end("}");
        w.blank();
        doc(
            w,
            "The entry block length the writer used.\n\n@return the acting block length.",
        );
        w.open_brace("public int actingBlockLength()");
        w.line("return blockLength;");
        w.end("}");
        w.blank();
        doc(
            w,
            "The schema version the writer used.\n\n@return the acting version.",
        );
        w.open_brace("public int actingVersion()");
        w.line(format!("return {parent}actingVersion;"));
        w.end("}");
        w.blank();
        doc(w, "This flyweight, as its own iterator.\n\n@return this.");
        w.line("@Override");
        w.open_brace(format!("public java.util.Iterator<{gc}> iterator()"));
        w.line("return this;");
        w.end("}");
        w.blank();
        doc(
            w,
            "Whether there is another entry.\n\n@return true when there is.",
        );
        w.line("@Override");
        w.open_brace("public boolean hasNext()");
        w.line("return index < count;");
        w.end("}");
        w.blank();
        doc(
            w,
            "Moves to the next entry.\n\n@return this, over the next entry.",
        );
        w.line("@Override");
        w.open_brace(format!("public {gc} next()"));
        w.open_brace("if (index >= count)");
        w.line("throw new java.util.NoSuchElementException();");
        w.end("}");
        self.entry_check(w, &g.body);
        w.line(format!("offset = {parent}limit;"));
        w.open_brace(format!(
            "if ({})",
            b.past_end("offset", "blockLength", &format!("{parent}sbeEnd"))
        ));
        w.line(format!(
            "throw SbeDecodeException.truncated(offset - {parent}sbeMessageStart, sbePath() + \"[\" + index + \"]\", blockLength, {parent}sbeEnd - offset);"
        ));
        w.end("}");
        w.line(format!("{parent}limit = offset + blockLength;"));
        w.line("++index;");
        w.line("return this;");
        w.end("}");
        w.blank();
        let min = np.min_value.as_i128().unwrap_or(0);
        let max = np
            .max_value
            .as_i128()
            .unwrap_or(i128::from(i32::MAX))
            .min(i128::from(i32::MAX));
        for (what, v) in [("Min", min), ("Max", max)] {
            doc(
                w,
                &format!("The {} count.\n\n@return {v}.", what.to_lowercase()),
            );
            w.open_brace(format!("public static int count{what}Value()"));
            w.line(format!("return {v};"));
            w.end("}");
            w.blank();
        }
        doc(w, "Bytes of the group header.\n\n@return HEADER_SIZE.");
        w.open_brace("public static int sbeHeaderSize()");
        w.line("return HEADER_SIZE;");
        w.end("}");
        w.blank();
        doc(
            w,
            "Bytes of each entry's block in this version of the schema.\n\n@return BLOCK_LENGTH.",
        );
        w.open_brace("public static int sbeBlockLength()");
        w.line("return BLOCK_LENGTH;");
        w.end("}");
        w.blank();
        self.complete_methods(w, g);
        let inner = Level {
            class: gc.clone(),
            message_class: level.message_class,
            owner: "parentMessage.",
            path: ENTRY_PATH,
        };
        self.body_decoder(w, &g.body, &inner);
        doc(
            w,
            "Skips the nested groups and var data of the current entry.\n\n@return this.",
        );
        w.open_brace(format!("public {gc} sbeSkip()"));
        self.skip_body(w, &g.body);
        w.line("return this;");
        w.end("}");
        w.blank();
        javadoc(
            w,
            Some("Appends the current entry in the canonical JSON form (an object), reading its nested groups and var data."),
            &["@param builder the destination.".to_owned(), "@return the builder.".to_owned()],
        );
        w.open_brace("public StringBuilder appendTo(final StringBuilder builder)");
        w.line("builder.append('{');");
        let ctx = self.decoder_ctx(&inner);
        self.json_body(w, &g.body, &ctx, &inner);
        w.line("return builder.append('}');");
        w.end("}");
        w.end("}");
        w.blank();
    }

    /// A decoder's private `sbe<V>Length(at)`: the length of var data V at `at`, once its length
    /// field and bytes are known to fit the buffer (truncated, with V's path, otherwise).
    fn var_data_bounds(&self, w: &mut CodeWriter, v: &VarData, level: &Level) {
        let b = self.buffer;
        let off = b.off();
        let p = level.owner;
        let size = v.length_size();
        let path = join_path(level.path, &v.name);
        let end = format!("{p}sbeEnd");
        let truncated = |length: &str| {
            format!(
                "throw SbeDecodeException.truncated(at - {p}sbeMessageStart, {path}, {length}, {end} - at);"
            )
        };
        w.open_brace(format!(
            "private int sbe{}Length(final {off} at)",
            class_name(&v.name)
        ));
        w.open_brace(format!(
            "if ({})",
            b.past_end("at", &size.to_string(), &end)
        ));
        w.line(truncated("-1"));
        w.end("}");
        w.line(format!(
            "final long length = {};",
            b.get(b.var(), v.length.primitive_type, v.length.byte_order, "at")
        ));
        w.open_brace(format!(
            "if ({})",
            b.past_end("at", &format!("{size} + length"), &end)
        ));
        w.line(truncated(&format!("{size} + length")));
        w.end("}");
        w.line("return (int) length;");
        w.end("}");
        w.blank();
    }

    fn var_data_decoder(
        &self,
        w: &mut CodeWriter,
        v: &VarData,
        level: &Level,
        body: &Body,
        k: usize,
    ) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let p = level.owner;
        let name = prop(&v.name);
        let upper = class_name(&v.name);
        let size = v.length_size();
        self.var_data_meta(w, v);
        let absent =
            (v.since_version > 0).then(|| format!("{p}actingVersion < {}", v.since_version));
        let guard = |w: &mut CodeWriter, ret: &str| {
            if let Some(a) = &absent {
                w.open_brace(format!("if ({a})"));
                w.line(format!("return {ret};"));
                w.end("}");
            }
        };
        let read_len = format!("sbe{upper}Length(at)");
        self.var_data_bounds(w, v, level);
        let note = if absent.is_some() {
            " (0 when newer than the acting version)"
        } else {
            ""
        };
        doc(
            w,
            &format!(
                "The length of {} at the current position.\n\n@return bytes{note}.",
                v.name
            ),
        );
        w.open_brace(format!("public int {name}Length()"));
        self.access_check(w, body, k, false);
        guard(w, "0");
        w.line(format!("final {off} at = {p}limit;"));
        w.line(format!("return {read_len};"));
        w.end("}");
        w.blank();
        doc(
            w,
            &format!("Skips {}.\n\n@return the bytes skipped{note}.", v.name),
        );
        w.open_brace(format!("public int skip{upper}()"));
        self.access_check(w, body, k, true);
        guard(w, "0");
        w.line(format!("final {off} at = {p}limit;"));
        w.line(format!("final int length = {read_len};"));
        w.line(format!("{p}limit = at + {size} + length;"));
        w.line("return length;");
        w.end("}");
        w.blank();
        let start = |w: &mut CodeWriter| {
            w.line(format!("final {off} at = {p}limit;"));
            w.line(format!("final int dataLength = {read_len};"));
            w.line(format!("{p}limit = at + {size} + dataLength;"));
        };
        javadoc(
            w,
            v.description.as_deref(),
            &[
                format!("Copies {} to an array and moves past it.", v.name),
                "@param dst the destination.".to_owned(),
                "@param dstOffset where to write in dst.".to_owned(),
                "@param length at most how many bytes to copy.".to_owned(),
                format!("@return the bytes copied{note}."),
            ],
        );
        w.open_brace(format!(
            "public int get{upper}(final byte[] dst, final int dstOffset, final int length)"
        ));
        self.access_check(w, body, k, true);
        guard(w, "0");
        start(w);
        w.line("final int bytesCopied = Math.min(length, dataLength);");
        w.line(b.get_bytes(
            buf,
            &format!("at + {size}"),
            "dst",
            "dstOffset",
            "bytesCopied",
        ));
        w.line("return bytesCopied;");
        w.end("}");
        w.blank();
        javadoc(
            w,
            v.description.as_deref(),
            &[
                format!("Copies {} to a buffer and moves past it.", v.name),
                "@param dst the destination.".to_owned(),
                "@param dstOffset where to write in dst.".to_owned(),
                "@param length at most how many bytes to copy.".to_owned(),
                format!("@return the bytes copied{note}."),
            ],
        );
        w.open_brace(format!(
            "public int get{upper}(final {} dst, final {off} dstOffset, final int length)",
            b.dest_type()
        ));
        self.access_check(w, body, k, true);
        guard(w, "0");
        start(w);
        w.line("final int bytesCopied = Math.min(length, dataLength);");
        w.line(b.copy_to(
            buf,
            &format!("at + {size}"),
            "dst",
            "dstOffset",
            "bytesCopied",
        ));
        w.line("return bytesCopied;");
        w.end("}");
        w.blank();
        if b == super::Buffer::Agrona {
            javadoc(
                w,
                v.description.as_deref(),
                &[
                    format!(
                        "Points a buffer at {} in place (no copy) and moves past it.",
                        v.name
                    ),
                    "@param wrapBuffer the buffer to wrap over the data (wrapped empty when the data is newer than the acting version).".to_owned(),
                ],
            );
            w.open_brace(format!(
                "public void wrap{upper}(final DirectBuffer wrapBuffer)"
            ));
            self.access_check(w, body, k, true);
            if let Some(a) = &absent {
                w.open_brace(format!("if ({a})"));
                w.line(format!("wrapBuffer.wrap({buf}, 0, 0);"));
                w.line("return;");
                w.end("}");
            }
            start(w);
            w.line(format!("wrapBuffer.wrap({buf}, at + {size}, dataLength);"));
            w.end("}");
            w.blank();
        }
        if v.is_text() {
            let utf8 = is_utf8(v.character_encoding.as_deref());
            let how = if utf8 {
                "decoded as UTF-8"
            } else {
                "one character per byte"
            };
            javadoc(
                w,
                v.description.as_deref(),
                &[
                    format!(
                        "Appends {} as text, {how}, without allocating, and moves past it.",
                        v.name
                    ),
                    "@param dst the destination.".to_owned(),
                    format!("@return the bytes read{note}."),
                ],
            );
            w.open_brace(format!("public int get{upper}(final Appendable dst)"));
            self.access_check(w, body, k, true);
            guard(w, "0");
            start(w);
            let app = if utf8 { "appendUtf8" } else { "appendLatin1" };
            w.line(format!(
                "SbeSupport.{app}({buf}, at + {size}, dataLength, dst);"
            ));
            w.line("return dataLength;");
            w.end("}");
            w.blank();
            javadoc(
                w,
                v.description.as_deref(),
                &[
                    format!(
                        "{} as text, {how}, and moves past it. Allocates a String.",
                        v.name
                    ),
                    format!(
                        "@return the text{}.",
                        if absent.is_some() {
                            " (\"\" when newer than the acting version)"
                        } else {
                            ""
                        }
                    ),
                ],
            );
            w.open_brace(format!("public String {name}()"));
            self.access_check(w, body, k, true);
            guard(w, "\"\"");
            start(w);
            let read = if utf8 { "stringUtf8" } else { "stringLatin1" };
            w.line(format!(
                "return SbeSupport.{read}({buf}, at + {size}, dataLength);"
            ));
            w.end("}");
            w.blank();
        }
    }
    /// In a group's `next()`: with access-order checks, the previous entry must be complete.
    fn entry_check(&self, w: &mut CodeWriter, body: &Body) {
        w.open_brace("if (SbeSupport.ACCESS_ORDER_CHECKS)");
        if body.groups.len() + body.var_data.len() > 0 {
            w.open_brace("if (index > 0)");
            w.line("sbeCheckEntryComplete();");
            w.end("}");
        }
        w.line("sbeAccessIndex = 0;");
        w.end("}");
    }

    /// A group's completeness checks: every entry accessed, and in each every group and var data.
    fn complete_methods(&self, w: &mut CodeWriter, g: &Group) {
        let n = g.body.groups.len() + g.body.var_data.len();
        doc(
            w,
            "With access-order checks: fails unless every entry, and every group and var data of the last, was accessed.",
        );
        w.open_brace("void sbeCheckComplete()");
        w.open_brace("if (index != count)");
        w.line(format!(
            "throw new IllegalStateException(\"access order: \" + (count - index) + \" {} entries not accessed\");",
            g.name
        ));
        w.end("}");
        if n > 0 {
            w.open_brace("if (count > 0)");
            w.line("sbeCheckEntryComplete();");
            w.end("}");
        }
        w.end("}");
        w.blank();
        if n == 0 {
            return;
        }
        doc(
            w,
            "With access-order checks: fails unless every group and var data of the current entry was accessed.",
        );
        w.open_brace("private void sbeCheckEntryComplete()");
        w.open_brace(format!("if (sbeAccessIndex != {n})"));
        w.line(format!(
            "throw new IllegalStateException(\"access order: \" + sbeElementName(sbeAccessIndex) + \" of a {} entry not accessed\");",
            g.name
        ));
        w.end("}");
        if g.body.var_data.is_empty() {
            if let Some(last) = g.body.groups.last() {
                w.line(format!("{}.sbeCheckComplete();", prop(&last.name)));
            }
        }
        w.end("}");
        w.blank();
    }

    /// The optional access-order check of group or var data `k` of `body` (see
    /// `access_methods`): compiled away unless `sable.enable.access.order.checks` is set.
    fn access_check(&self, w: &mut CodeWriter, body: &Body, k: usize, advance: bool) {
        w.open_brace("if (SbeSupport.ACCESS_ORDER_CHECKS)");
        w.line(format!("sbeCheckAccess({k}, {advance});"));
        if k > 0 && k <= body.groups.len() {
            w.line(format!(
                "{}.sbeCheckComplete();",
                prop(&body.groups[k - 1].name)
            ));
        }
        w.end("}");
    }

    /// The state of the access-order checks of one level (a message or a group entry): the
    /// index of the next group or var data to access, in schema order.
    fn access_methods(&self, w: &mut CodeWriter, body: &Body) {
        let n = body.groups.len() + body.var_data.len();
        if n == 0 {
            return;
        }
        doc(
            w,
            "The name of a group or var data by its position.\n\n@param element the position.\n@return the name.",
        );
        w.open_brace("private static String sbeElementName(final int element)");
        w.open_brace("switch (element)");
        for k in 0..n {
            w.line(format!(
                "case {k}: return {};",
                string_literal(element_name(body, k))
            ));
        }
        w.line("default: return \"the end\";");
        w.end("}");
        w.end("}");
        w.blank();
        doc(
            w,
            "Checks that a group or var data is the next to access, in schema order.\n\n@param element its position.\n@param advance whether the access moves past it.",
        );
        w.open_brace("private void sbeCheckAccess(final int element, final boolean advance)");
        w.open_brace("if (sbeAccessIndex != element)");
        w.line("throw new IllegalStateException(\"access order: \" + sbeElementName(element) + \" accessed, but \" + sbeElementName(sbeAccessIndex) + \" is next (groups and var data are accessed in schema order)\");");
        w.end("}");
        w.open_brace("if (advance)");
        w.line("sbeAccessIndex = element + 1;");
        w.end("}");
        w.end("}");
        w.blank();
    }
}

/// The byte order of a header whose first members are the standard `blockLength`,
/// `templateId`, `schemaId` and `version`, each a uint16 (not constant), at offsets 0, 2, 4 and 6
/// in one byte order; `None` for any other header.
pub(super) fn standard_header(h: &crate::model::Composite) -> Option<ByteOrder> {
    let mut order = None;
    for (i, name) in ["blockLength", "templateId", "schemaId", "version"]
        .iter()
        .enumerate()
    {
        let (member, p) = h.primitive(name)?;
        if member.offset != 2 * i
            || p.primitive_type != PrimitiveType::UInt16
            || p.is_constant()
            || p.is_array()
            || order.is_some_and(|o| o != p.byte_order)
        {
            return None;
        }
        order = Some(p.byte_order);
    }
    order
}

/// Whether a group dimension is the standard uint16 `blockLength` at 0 and uint16 `numInGroup`
/// at 2, in one byte order.
fn standard_dimension(bp: &Primitive, boff: usize, np: &Primitive, noff: usize) -> bool {
    [bp, np]
        .iter()
        .all(|p| p.primitive_type == PrimitiveType::UInt16 && !p.is_constant() && !p.is_array())
        && boff == 0
        && noff == 2
        && bp.byte_order == np.byte_order
}

/// The schema name of group or var data `k` (groups first, then var data).
fn element_name(body: &Body, k: usize) -> &str {
    if k < body.groups.len() {
        &body.groups[k].name
    } else {
        &body.var_data[k - body.groups.len()].name
    }
}

fn at(base: &str, offset: usize) -> String {
    if offset == 0 {
        base.to_owned()
    } else {
        format!("{base} + {offset}")
    }
}

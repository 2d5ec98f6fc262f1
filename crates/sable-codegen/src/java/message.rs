//! Message encoders and decoders, their repeating groups (nested classes) and var data.

use sable_ir::{ByteOrder, PrimitiveType};

use super::fields::{flyweight_field, join_path, Ctx, Slot};
use super::syntax::{class_name, doc, java_type, javadoc, prop, string_literal};
use super::Gen;
use crate::model::{Body, Field, Message, TypeRef};
use crate::writer::CodeWriter;

/// Where a body's accessors live: the message class itself, or a group nested in it.
pub(super) struct Level<'a> {
    /// The class being written.
    pub(super) class: String,
    /// The top-level message class.
    pub(super) message_class: &'a str,
    /// How the message's state is reached: `""` in the message, `parentMessage.` in a group.
    pub(super) owner: &'static str,
    /// The Java expression of the block's path in error reports: `"fields"` in the message,
    /// `sbeEntryPath()` (the current entry's) in a group.
    pub(super) path: &'static str,
}

/// The Java expression of the root block's path.
pub(super) const ROOT_PATH: &str = "\"fields\"";
/// The Java expression of a group's current entry's path.
pub(super) const ENTRY_PATH: &str = "sbeEntryPath()";

/// Whether an encoder writes a block's multi-byte values byte by byte
/// (`Buffer::put_in_block`): when three or more multi-byte writes share the block's base index
/// (its fields; before a root block the message header, after any block the first group's
/// header). C2 then folds their bounds checks into two, which shrinks the compiled code of many
/// fields (scripts/count-java.sh: the heap MarketData encode 270 -> 123 instructions, the Car
/// encode 782 -> 760), but costs more in entries of one or two fields (docs/benchmarks.md).
pub(super) fn merged_stores(body: &Body, root: bool) -> bool {
    let fields = body
        .fields
        .iter()
        .filter(|f| !f.is_constant() && writes_multi_byte(f));
    fields.count() + usize::from(root) + usize::from(!body.groups.is_empty()) >= 3
}

/// Whether the block's own code writes the field as one value of more than one byte (composites
/// and sets write through their own flyweights).
fn writes_multi_byte(f: &Field) -> bool {
    match &f.type_ref {
        TypeRef::Primitive(p) => p.primitive_type.size() > 1,
        TypeRef::Enum(_) => f.size > 1,
        TypeRef::Set(_) | TypeRef::Composite(_) => false,
    }
}

/// `expr` (a count or block length) as an `int`, values above `Integer.MAX_VALUE` (of 32-bit
/// unsigned and 64-bit types) clamped to it, so that they read as too long rather than negative.
pub(super) fn to_int_clamped(t: PrimitiveType, expr: &str) -> String {
    match java_type(t) {
        "long" => format!("(int) Math.min({expr}, Integer.MAX_VALUE)"),
        _ => expr.to_owned(),
    }
}

impl Gen<'_> {
    pub(super) fn message_constants(&self, w: &mut CodeWriter, m: &Message) {
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

    pub(super) fn message_identity(&self, w: &mut CodeWriter, m: &Message) {
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
    pub(super) fn apply_header(&self, w: &mut CodeWriter, m: &Message) {
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
            w.line(format!(
                "header.{}({buf}, offset);",
                self.buffer.internal_wrap()
            ));
            w.line(format!(
                "// blockLength {}, templateId {}, schemaId {}, version {}",
                fields[0], fields[1], fields[2], fields[3]
            ));
            if self.buffer.is_agrona() {
                // Two 32-bit writes: C2 inlines Agrona's putInt, called all over the message
                // with a mature profile, where it left this lone putLong's bounds check as a call.
                let (first, second) = match order {
                    ByteOrder::LittleEndian => (packed & 0xFFFF_FFFF, packed >> 32),
                    ByteOrder::BigEndian => (packed >> 32, packed & 0xFFFF_FFFF),
                };
                for (at, value) in [("offset", first), ("offset + 4", second)] {
                    w.line(self.buffer.put(
                        buf,
                        PrimitiveType::Int32,
                        order,
                        at,
                        &format!("0x{value:08X}"),
                    ));
                }
                return;
            }
            w.line(self.buffer.put_in_block(
                buf,
                PrimitiveType::Int64,
                order,
                "offset",
                &format!("0x{packed:016X}L"),
                merged_stores(&m.body, true),
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
        b.check_offset(&mut w, "offset", "end");
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
        b.check_offset(&mut w, "offset", "end");
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

    pub(super) fn limit_accessors(&self, w: &mut CodeWriter) {
        let off = self.buffer.off();
        doc(w, "Where the next group or var data goes (the end of what is written or read).\n\n@return the limit.");
        w.open_brace(format!("public {off} limit()"));
        w.line("return limit;");
        w.end("}");
        w.blank();
        let mut tags = vec!["@param limit the new limit.".to_owned()];
        if !self.buffer.is_agrona() {
            // Only the segment flavour checks it (Buffer::check_offset).
            tags.push(
                "@throws IndexOutOfBoundsException when the limit is outside the buffer."
                    .to_owned(),
            );
        }
        javadoc(w, Some("Moves the limit."), &tags);
        w.open_brace(format!("public void limit(final {off} limit)"));
        self.buffer.check_offset(w, "limit", "sbeEnd");
        w.line("this.limit = limit;");
        w.end("}");
        w.blank();
    }

    /// Flyweight fields: composite and set members, and group flyweights.
    pub(super) fn flyweight_fields(
        &self,
        w: &mut CodeWriter,
        body: &Body,
        encoder: bool,
        parent: &str,
    ) {
        let path = if parent == "this" {
            ROOT_PATH
        } else {
            ENTRY_PATH
        };
        for f in &body.fields {
            let s = Slot::from_field(f);
            if let Some(decl) = flyweight_field(&s, encoder) {
                let ty = decl.split(' ').next().unwrap_or("");
                w.line(format!("private final {decl} = new {ty}();"));
                if encoder && matches!(s.type_ref, TypeRef::Composite(_)) {
                    composite_path_init(w, &f.name, &join_path(path, &f.name));
                }
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

    pub(super) fn nested_group_inits(&self, w: &mut CodeWriter, body: &Body, suffix: &str) {
        for g in &body.groups {
            w.line(format!(
                "this.{} = new {}{suffix}(parentMessage, this);",
                prop(&g.name),
                class_name(&g.name)
            ));
        }
    }

    pub(super) fn body_encoder(&self, w: &mut CodeWriter, body: &Body, level: &Level) {
        let b = self.buffer;
        let ctx = Ctx {
            class: level.class.clone(),
            buf: b.var().to_owned(),
            base: "offset".to_owned(),
            version: None,
            block: None,
            partial: None,
            is_message_field: true,
            merged_stores: merged_stores(body, level.path == ROOT_PATH),
            path: level.path.to_owned(),
        };
        for f in &body.fields {
            self.encoder_accessors(w, &Slot::from_field(f), &ctx);
        }
        for (k, g) in body.groups.iter().enumerate() {
            self.group_encoder(w, g, level, body, k);
        }
        for (i, v) in body.var_data.iter().enumerate() {
            self.var_data_encoder(w, v, level, body.groups.len() + i);
        }
        self.access_methods(w, body);
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
        doc(
            &mut w,
            "Less than BLOCK_LENGTH from an older writer: getters test that first (one compare per block).",
        );
        w.line("private int actingBlockLength;");
        w.line("private int actingVersion;");
        w.line(format!("private {off} headerOffset = -1;"));
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
        error_offset(&mut w, off, &header);
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
        self.message_json(&mut w, m, &level);
        w.end("}");
        (cls, w.finish())
    }

    pub(super) fn decoder_ctx(&self, body: &Body, level: &Level) -> Ctx {
        let block = if level.owner.is_empty() {
            "actingBlockLength"
        } else {
            "blockLength"
        };
        let version = format!("{}actingVersion", level.owner);
        Ctx {
            class: level.class.clone(),
            buf: self.buffer.var().to_owned(),
            base: "offset".to_owned(),
            partial: Some(partial_block(body, block, &version)),
            version: Some(version),
            block: Some(block.to_owned()),
            is_message_field: true,
            merged_stores: false,
            path: level.path.to_owned(),
        }
    }

    pub(super) fn skip_body(&self, w: &mut CodeWriter, body: &Body) {
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

    pub(super) fn body_decoder(&self, w: &mut CodeWriter, body: &Body, level: &Level) {
        let ctx = self.decoder_ctx(body, level);
        for f in &body.fields {
            self.decoder_accessors(w, &Slot::from_field(f), &ctx);
        }
        for (k, g) in body.groups.iter().enumerate() {
            self.group_decoder(w, g, level, k);
        }
        for (i, v) in body.var_data.iter().enumerate() {
            self.var_data_decoder(w, v, level, body.groups.len() + i);
        }
        self.access_methods(w, body);
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

/// The message decoder's `sbeErrorOffset(at)`: an offset in the buffer as an error offset, which
/// counts from the message's first byte (its header, even when `wrap` was given the block). Derived
/// from the root block's offset rather than stored, one store less per message.
fn error_offset(w: &mut CodeWriter, off: &str, header: &str) {
    doc(
        w,
        "An offset in the buffer as an error offset, from the message's first byte (its header).\n\n@param at the offset in the buffer.\n@return the offset from the message's start.",
    );
    w.open_brace(format!("private {off} sbeErrorOffset(final {off} at)"));
    w.line(format!("return at - offset + {header}.ENCODED_LENGTH;"));
    w.end("}");
    w.blank();
}

pub(super) fn at(base: &str, offset: usize) -> String {
    if offset == 0 {
        base.to_owned()
    } else {
        format!("{base} + {offset}")
    }
}

/// A composite encoder field's error path, set once: its members' errors name
/// `path.member` (`fields.engine.manufacturerCode`), built only when one is thrown.
pub(super) fn composite_path_init(w: &mut CodeWriter, field: &str, path: &str) {
    w.line(format!("{{ {}.sbePath(() -> {path}); }}", prop(field)));
}

/// The Java condition that a decoder's block is partial: shorter than the schema's, or (when a
/// field is newer than version 0) the acting version older. Each getter tests it before its own
/// field's end and version (`Ctx::absent`): one compare, the same in every getter, which C2 makes
/// once per block, and in a group not at all (the group's `wrap` made it for its block length
/// check). It replaced a flag the Agrona flavours stored at every wrap (`sbePartial`; Agrona
/// MarketData decode 253 to 251 instructions) and the segment flavour's compare of the block
/// length with each field's own end (heap MarketData decode 366 to 343): docs/benchmarks.md.
fn partial_block(body: &Body, block_length: &str, version: &str) -> String {
    if body.fields.iter().any(|f| f.since_version > 0) {
        format!("({block_length} < BLOCK_LENGTH || {version} < SCHEMA_VERSION)")
    } else {
        format!("{block_length} < BLOCK_LENGTH")
    }
}

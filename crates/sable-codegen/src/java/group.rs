//! Repeating groups: the nested encoder and decoder classes, their dimension headers, iteration and
//! the checks of their items (docs/codecs.md).

use sable_ir::{ByteOrder, PrimitiveType};

use super::fields::join_path;
use super::message::{at, merged_stores, to_int_clamped, Level, ENTRY_PATH, ROOT_PATH};
use super::syntax::{class_name, doc, javadoc, prop};
use super::var_data::length_put;
use super::Gen;
use crate::model::{Body, Group, Primitive};
use crate::writer::CodeWriter;

impl Gen<'_> {
    pub(super) fn group_meta(&self, w: &mut CodeWriter, name: &str, id: i32, since: i32) {
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
    pub(super) fn group_parent_fields(&self, w: &mut CodeWriter, level: &Level) {
        w.line(format!(
            "private final {} parentMessage;",
            level.message_class
        ));
        if !level.owner.is_empty() {
            w.line(format!("private final {} parentGroup;", level.class));
        }
    }

    /// A group class's constructor, and its paths in error reports.
    pub(super) fn group_constructor(
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

    pub(super) fn dimension(&self, g: &Group) -> (Primitive, usize, Primitive, usize, usize) {
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

    pub(super) fn group_encoder(
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
        let header_size = self.dimension(g).4;
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
        self.access_check(w, k, true);
        w.line(format!("{name}.wrap({buf}, count);"));
        w.line(format!("return {name};"));
        w.end("}");
        w.blank();
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
        if fixed_size_entries(g) {
            w.line("private int sbeFits;");
        }
        w.line("private int sbeAccessIndex;");
        self.flyweight_fields(w, &g.body, true, "parentMessage");
        w.blank();
        self.group_constructor(w, g, &gc, level, "Encoder");
        // The first group's header follows its parent's block: one base index with it.
        let merged = k == 0 && merged_stores(parent_body, level.path == ROOT_PATH);
        self.group_encoder_wrap(w, g, merged);
        self.group_encoder_next(w, g, &gc);
        self.group_statics(w, g, "Bytes of each entry's block.");
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

    pub(super) fn group_decoder(&self, w: &mut CodeWriter, g: &Group, level: &Level, k: usize) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let gc = format!("{}Decoder", class_name(&g.name));
        let name = prop(&g.name);
        let header_size = self.dimension(g).4;
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
        self.access_check(w, k, true);
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
        doc(
            w,
            "Less than BLOCK_LENGTH from an older writer: getters test that first (one compare per entry).",
        );
        w.line("private int blockLength;");
        w.line("private int count;");
        w.line("private int index;");
        w.line("private int sbeAccessIndex;");
        self.flyweight_fields(w, &g.body, false, "parentMessage");
        w.blank();
        self.group_constructor(w, g, &gc, level, "Decoder");
        self.group_decoder_wrap(w, g);
        self.group_decoder_iteration(w, g, &gc);
        self.group_statics(
            w,
            g,
            "Bytes of each entry's block in this version of the schema.",
        );
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
        let ctx = self.decoder_ctx(&g.body, &inner);
        self.json_body(w, &g.body, &ctx, &inner);
        w.line("return builder.append('}');");
        w.end("}");
        w.end("}");
        w.blank();
    }

    /// A group encoder's `wrap`: the count's checks, the header's bounds, then the header.
    pub(super) fn group_encoder_wrap(&self, w: &mut CodeWriter, g: &Group, merged: bool) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let parent = "parentMessage.";
        let (bp, boff, np, noff, _) = self.dimension(g);
        let (min, max) = count_range(&np);
        let fixed = fixed_size_entries(g);
        let header_too_short = format!(
            "throw SbeEncodeException.bufferTooShort(sbePath(), at, HEADER_SIZE, {parent}sbeEnd);"
        );
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
        // Fixed-size entries: how many fit is known when the group starts, so next() tests only
        // its index. In the Agrona flavours one compare covers the header and every entry, the
        // header's own check in sbeFitting for when they do not all fit (Agrona Car encode 611 to
        // 596 instructions, MarketData encode 150 to 145); over segments the same cost time
        // (heap MarketData encode 11.3 to 12.1 ns/op, Car encode 30.3 to 31.4: docs/benchmarks.md),
        // so they count the entries after writing the header.
        let counts_fits = fixed && g.block_length > 0 && b.is_agrona();
        if counts_fits {
            // (`int` offsets widen first: the end minus the entries' start cannot wrap.)
            w.line(format!(
                "final long room = {parent}sbeEnd - ((long) at + HEADER_SIZE);"
            ));
            w.open_brace("if (room < (long) count * BLOCK_LENGTH)");
            w.line("sbeFits = sbeFitting(at, room);");
            w.end("}");
            w.open_brace("else");
            w.line("sbeFits = count;");
            w.end("}");
        } else {
            w.open_brace(format!(
                "if ({})",
                b.past_end("at", "HEADER_SIZE", &format!("{parent}sbeEnd"))
            ));
            w.line(&header_too_short);
            w.end("}");
        }
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
            w.line(b.put_in_block(
                buf,
                PrimitiveType::Int32,
                bp.byte_order,
                "headerOffset",
                packed,
                merged,
            ));
        } else {
            let (bt, bv) = length_put(bp.primitive_type);
            w.line(b.put_in_block(
                buf,
                bt,
                bp.byte_order,
                &at("headerOffset", boff),
                &bv.replace("length", "BLOCK_LENGTH"),
                merged,
            ));
            w.line(b.put_in_block(
                buf,
                nt,
                np.byte_order,
                &at("headerOffset", noff),
                &nv.replace("length", "count"),
                merged,
            ));
        }
        if fixed && g.block_length == 0 {
            // Entries of no bytes all fit wherever the header does.
            w.line("sbeFits = count;");
        } else if fixed && !counts_fits {
            w.line(format!(
                "final long room = {parent}sbeEnd - (headerOffset + HEADER_SIZE);"
            ));
            w.line(
                "sbeFits = room >= (long) count * BLOCK_LENGTH ? count : (int) (room / BLOCK_LENGTH);",
            );
        }
        w.end("}");
        w.blank();
        if counts_fits {
            doc(w, "How many entries fit in the room after the header.\n\n@param at where the header starts.\n@param room the bytes after the header, negative if the header itself does not fit.\n@return the entries that fit.\n@throws SbeEncodeException if the header does not fit.");
            w.open_brace(format!(
                "private int sbeFitting(final {off} at, final long room)"
            ));
            w.open_brace("if (room < 0)");
            w.line(&header_too_short);
            w.end("}");
            w.line("return (int) (room / BLOCK_LENGTH);");
            w.end("}");
            w.blank();
        }
    }

    /// A group encoder's `next()` and `resetCountToIndex()`.
    pub(super) fn group_encoder_next(&self, w: &mut CodeWriter, g: &Group, gc: &str) {
        let b = self.buffer;
        let parent = "parentMessage.";
        doc(w, "Moves to the next entry.\n\n@return this, over the next entry.\n@throws java.util.NoSuchElementException past the count.");
        w.open_brace(format!("public {gc} next()"));
        if fixed_size_entries(g) {
            self.fixed_size_next(w, g);
            return;
        }
        w.open_brace("if (index >= count)");
        w.line("throw new java.util.NoSuchElementException();");
        w.end("}");
        self.entry_check(w, &g.body);
        w.open_brace(format!(
            "if ({})",
            b.past_end_of_constant(
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
        self.reset_count_to_index(w, g);
    }

    /// `next()` of a group whose entries are all `BLOCK_LENGTH` bytes: `wrap` counted the entries
    /// that fit (`sbeFits`), so one test of the index covers both the count and the buffer's end,
    /// and each entry's place follows from its index (`sbeEntryOffset`), so moving the limit in
    /// between cannot move an entry past what was counted.
    fn fixed_size_next(&self, w: &mut CodeWriter, g: &Group) {
        let parent = "parentMessage.";
        w.open_brace("if (index >= sbeFits)");
        w.line("throw sbeNextFailed();");
        w.end("}");
        self.entry_check(w, &g.body);
        w.line("offset = sbeEntryOffset(index);");
        w.line(format!("{parent}limit = offset + BLOCK_LENGTH;"));
        w.line("++index;");
        w.line("return this;");
        w.end("}");
        w.blank();
        doc(w, "Why next() cannot move on: past the count, or past the buffer's end.\n\n@return the exception to throw.");
        w.open_brace("private RuntimeException sbeNextFailed()");
        w.open_brace("if (index >= count)");
        w.line("return new java.util.NoSuchElementException();");
        w.end("}");
        w.line(format!(
            "return SbeEncodeException.bufferTooShort(sbePath() + \"[\" + index + \"]\", sbeEntryOffset(index), BLOCK_LENGTH, {parent}sbeEnd);"
        ));
        w.end("}");
        w.blank();
        let off = self.buffer.off();
        doc(
            w,
            "Where entry i starts.\n\n@param i the entry's index.\n@return its offset.",
        );
        w.open_brace(format!("private {off} sbeEntryOffset(final int i)"));
        // (Entries up to sbeFits end within the buffer, so an `int` offset cannot wrap; a
        // segment's `long` one needs a `long` product.)
        let step = if self.buffer.is_agrona() {
            "i * BLOCK_LENGTH"
        } else {
            "(long) i * BLOCK_LENGTH"
        };
        w.line(format!("return headerOffset + HEADER_SIZE + {step};"));
        w.end("}");
        w.blank();
        self.reset_count_to_index(w, g);
    }

    /// `resetCountToIndex()`: the count (and the header's) cut to the entries started.
    fn reset_count_to_index(&self, w: &mut CodeWriter, g: &Group) {
        let b = self.buffer;
        let buf = b.var();
        let (_, _, np, noff, _) = self.dimension(g);
        let (nt, nv) = length_put(np.primitive_type);
        doc(w, "Sets the count to the entries started so far (for writers that stop early).\n\n@return the new count.");
        w.open_brace("public int resetCountToIndex()");
        w.line("count = index;");
        if fixed_size_entries(g) {
            w.line("sbeFits = index;");
        }
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
    }

    /// A group decoder's `wrap`: the header's bounds, the header, its block length's check.
    pub(super) fn group_decoder_wrap(&self, w: &mut CodeWriter, g: &Group) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let parent = "parentMessage.";
        let (bp, boff, np, noff, _) = self.dimension(g);
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
        w.line(format!(
            "final {off} headerEnd = headerOffset + HEADER_SIZE;"
        ));
        w.open_brace(format!(
            "if ({})",
            b.ends_past("headerEnd", &format!("{parent}sbeEnd"))
        ));
        w.line(format!(
            "throw SbeDecodeException.truncated({parent}sbeErrorOffset(headerOffset), sbePath(), HEADER_SIZE, {parent}sbeEnd - headerOffset);"
        ));
        w.end("}");
        w.line(format!("{parent}limit = headerEnd;"));
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
            at(&format!("{parent}sbeErrorOffset(headerOffset)"), boff),
            g.block_length
        ));
        w.end("}");
        w.end("}");
        w.blank();
    }

    /// A group decoder's count, acting block length and version, and iteration over the entries.
    pub(super) fn group_decoder_iteration(&self, w: &mut CodeWriter, g: &Group, gc: &str) {
        let b = self.buffer;
        let parent = "parentMessage.";
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
        w.line(format!(
            "final {} entryEnd = offset + blockLength;",
            b.off()
        ));
        w.open_brace(format!(
            "if ({})",
            b.ends_past("entryEnd", &format!("{parent}sbeEnd"))
        ));
        w.line(format!(
            "throw SbeDecodeException.truncated({parent}sbeErrorOffset(offset), sbePath() + \"[\" + index + \"]\", blockLength, {parent}sbeEnd - offset);"
        ));
        w.end("}");
        w.line(format!("{parent}limit = entryEnd;"));
        w.line("++index;");
        w.line("return this;");
        w.end("}");
        w.blank();
    }

    /// The static count limits and sizes of a group class.
    pub(super) fn group_statics(&self, w: &mut CodeWriter, g: &Group, block_doc: &str) {
        let (_, _, np, _, _) = self.dimension(g);
        let (min, max) = count_range(&np);
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
        doc(w, &format!("{block_doc}\n\n@return BLOCK_LENGTH."));
        w.open_brace("public static int sbeBlockLength()");
        w.line("return BLOCK_LENGTH;");
        w.end("}");
        w.blank();
    }

    /// In a group's `next()`: with access-order checks, the previous entry must be complete.
    pub(super) fn entry_check(&self, w: &mut CodeWriter, body: &Body) {
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
    pub(super) fn complete_methods(&self, w: &mut CodeWriter, g: &Group) {
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
}

/// Whether a group dimension is the standard uint16 `blockLength` at 0 and uint16 `numInGroup`
/// at 2, in one byte order.
pub(super) fn standard_dimension(bp: &Primitive, boff: usize, np: &Primitive, noff: usize) -> bool {
    [bp, np]
        .iter()
        .all(|p| p.primitive_type == PrimitiveType::UInt16 && !p.is_constant() && !p.is_array())
        && boff == 0
        && noff == 2
        && bp.byte_order == np.byte_order
}

/// The count range of a group's numInGroup: its min and max, the max at most `i32::MAX`.
pub(super) fn count_range(np: &Primitive) -> (i128, i128) {
    let min = np.min_value.as_i128().unwrap_or(0);
    let max = np
        .max_value
        .as_i128()
        .unwrap_or(i128::from(i32::MAX))
        .min(i128::from(i32::MAX));
    (min, max)
}

/// Whether every entry of `g` is its block alone (no nested group, no var data).
fn fixed_size_entries(g: &Group) -> bool {
    g.body.groups.is_empty() && g.body.var_data.is_empty()
}

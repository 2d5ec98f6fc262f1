//! Var data: its metadata, setters and getters, and the bounds of its length and bytes.

use sable_ir::PrimitiveType;

use super::fields::join_path;
use super::message::Level;
use super::syntax::{class_name, doc, is_utf8, javadoc, prop, string_literal};
use super::Gen;
use crate::model::VarData;
use crate::writer::CodeWriter;

impl Gen<'_> {
    pub(super) fn var_data_meta(&self, w: &mut CodeWriter, v: &VarData) {
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

    pub(super) fn var_data_max(v: &VarData) -> Option<i128> {
        let max = v.length.max_value.as_i128()?;
        (max < i128::from(i32::MAX)).then_some(max)
    }

    pub(super) fn var_data_encoder(
        &self,
        w: &mut CodeWriter,
        v: &VarData,
        level: &Level,
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
            self.access_check(w, k, true);
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

    /// A decoder's private `sbe<V>Length(at)`: the length of var data V at `at`, once its length
    /// field and bytes are known to fit the buffer; and `sbe<V>Truncated`, the error otherwise
    /// (truncated, with V's path), out of the accessors' way.
    pub(super) fn var_data_bounds(&self, w: &mut CodeWriter, v: &VarData, level: &Level) {
        let off = self.buffer.off();
        let p = level.owner;
        let path = join_path(level.path, &v.name);
        let upper = class_name(&v.name);
        let r = Reading::new(self.buffer, v, level);
        w.open_brace(format!("private int sbe{upper}Length(final {off} at)"));
        r.read_checked(w);
        w.line("return (int) wireLength;");
        w.end("}");
        w.blank();
        w.open_brace(format!(
            "private SbeDecodeException sbe{upper}Truncated(final {off} at, final long length)"
        ));
        w.line(format!(
            "return SbeDecodeException.truncated({p}sbeErrorOffset(at), {path}, length, {p}sbeEnd - at);"
        ));
        w.end("}");
        w.blank();
    }

    pub(super) fn var_data_decoder(
        &self,
        w: &mut CodeWriter,
        v: &VarData,
        level: &Level,
        k: usize,
    ) {
        self.var_data_meta(w, v);
        self.var_data_bounds(w, v, level);
        let r = Reading::new(self.buffer, v, level);
        let (off, p, size, name, upper, note, read_len) =
            (r.off, r.p, r.size, &r.name, &r.upper, r.note, &r.read_len);
        doc(
            w,
            &format!(
                "The length of {} at the current position.\n\n@return bytes{note}.",
                v.name
            ),
        );
        w.open_brace(format!("public int {name}Length()"));
        self.access_check(w, k, false);
        r.guard(w, "0");
        w.line(format!("final {off} at = {p}limit;"));
        w.line(format!("return {read_len};"));
        w.end("}");
        w.blank();
        doc(
            w,
            &format!("Skips {}.\n\n@return the bytes skipped{note}.", v.name),
        );
        w.open_brace(format!("public int skip{upper}()"));
        self.access_check(w, k, true);
        r.guard(w, "0");
        w.line(format!("final {off} at = {p}limit;"));
        w.line(format!("final int length = {read_len};"));
        w.line(format!("{p}limit = at + {size} + length;"));
        w.line("return length;");
        w.end("}");
        w.blank();
        self.var_data_copy_getters(w, v, &r, k);
        self.var_data_text_getters(w, v, &r, k);
    }

    /// A var data decoder's copies: to an array, to a buffer, and (Agrona) a buffer wrapped over it.
    pub(super) fn var_data_copy_getters(
        &self,
        w: &mut CodeWriter,
        v: &VarData,
        r: &Reading,
        k: usize,
    ) {
        let b = self.buffer;
        let buf = b.var();
        let (off, size, upper, note) = (r.off, r.size, &r.upper, r.note);
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
        self.access_check(w, k, true);
        r.guard(w, "0");
        r.start(w);
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
        self.access_check(w, k, true);
        r.guard(w, "0");
        r.start(w);
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
        if b.is_agrona() {
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
            self.access_check(w, k, true);
            if let Some(a) = &r.absent {
                w.open_brace(format!("if ({a})"));
                w.line(format!("wrapBuffer.wrap({buf}, 0, 0);"));
                w.line("return;");
                w.end("}");
            }
            r.start(w);
            w.line(format!("wrapBuffer.wrap({buf}, at + {size}, dataLength);"));
            w.end("}");
            w.blank();
        }
    }

    /// A var data decoder's text getters (var data with a character encoding).
    pub(super) fn var_data_text_getters(
        &self,
        w: &mut CodeWriter,
        v: &VarData,
        r: &Reading,
        k: usize,
    ) {
        let buf = self.buffer.var();
        let (name, upper, note, size) = (&r.name, &r.upper, r.note, r.size);
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
            self.access_check(w, k, true);
            r.guard(w, "0");
            r.start(w);
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
                        if r.absent.is_some() {
                            " (\"\" when newer than the acting version)"
                        } else {
                            ""
                        }
                    ),
                ],
            );
            w.open_brace(format!("public String {name}()"));
            self.access_check(w, k, true);
            r.guard(w, "\"\"");
            r.start(w);
            let read = if utf8 { "stringUtf8" } else { "stringLatin1" };
            w.line(format!(
                "return SbeSupport.{read}({buf}, at + {size}, dataLength);"
            ));
            w.end("}");
            w.blank();
        }
    }
}

/// The signed type of the same size, for writing an `int` length without a redundant cast.
pub(super) fn length_put(t: PrimitiveType) -> (PrimitiveType, &'static str) {
    match t.size() {
        1 => (PrimitiveType::Int8, "(byte) length"),
        2 => (PrimitiveType::Int16, "(short) length"),
        4 => (PrimitiveType::Int32, "length"),
        _ => (PrimitiveType::Int64, "length"),
    }
}

/// What every getter of one var data needs: where it is read, how its absence reads.
pub(super) struct Reading {
    /// The offset type.
    off: &'static str,
    /// How the message's state is reached (`""` or `parentMessage.`).
    p: &'static str,
    /// Bytes of the length.
    size: usize,
    name: String,
    upper: String,
    /// The condition under which the var data is newer than the acting version.
    absent: Option<String>,
    /// The doc note on what reads as 0 then.
    note: &'static str,
    /// The Java expression of the checked length at `at`.
    read_len: String,
    /// Whether the length field at `at` ends past the buffer.
    header_past_end: String,
    /// The length field at `at`, as a `long`.
    get_len: String,
    /// Whether the data after the length field ends past the buffer.
    data_past_end: String,
}

impl Reading {
    fn new(b: super::Buffer, v: &VarData, level: &Level) -> Reading {
        let p = level.owner;
        let absent =
            (v.since_version > 0).then(|| format!("{p}actingVersion < {}", v.since_version));
        let note = if absent.is_some() {
            " (0 when newer than the acting version)"
        } else {
            ""
        };
        let upper = class_name(&v.name);
        let size = v.length_size();
        let end = format!("{p}sbeEnd");
        Reading {
            off: b.off(),
            p,
            size,
            name: prop(&v.name),
            read_len: format!("sbe{upper}Length(at)"),
            header_past_end: b.past_end("at", &size.to_string(), &end),
            get_len: b.get(b.var(), v.length.primitive_type, v.length.byte_order, "at"),
            data_past_end: b.past_end("at", &format!("{size} + wireLength"), &end),
            upper,
            absent,
            note,
        }
    }

    /// Returns `ret` when the var data is newer than the acting version.
    fn guard(&self, w: &mut CodeWriter, ret: &str) {
        if let Some(a) = &self.absent {
            w.open_brace(format!("if ({a})"));
            w.line(format!("return {ret};"));
            w.end("}");
        }
    }

    /// `final long wireLength`: the length at `at`, its field and the data checked against the
    /// buffer's end.
    fn read_checked(&self, w: &mut CodeWriter) {
        let upper = &self.upper;
        w.open_brace(format!("if ({})", self.header_past_end));
        w.line(format!("throw sbe{upper}Truncated(at, -1);"));
        w.end("}");
        w.line(format!("final long wireLength = {};", self.get_len));
        w.open_brace(format!("if ({})", self.data_past_end));
        w.line(format!(
            "throw sbe{upper}Truncated(at, {} + wireLength);",
            self.size
        ));
        w.end("}");
    }

    /// Reads the (checked) length at the limit and moves the limit past the data. The checks are
    /// written out here rather than called (`sbe<V>Length`): C2 compiles a caller before a
    /// helper called once per message has a profile of its own, and then leaves the helper's
    /// buffer read as a call.
    fn start(&self, w: &mut CodeWriter) {
        let (off, p, size) = (self.off, self.p, self.size);
        w.line(format!("final {off} at = {p}limit;"));
        self.read_checked(w);
        w.line("final int dataLength = (int) wireLength;");
        w.line(format!("{p}limit = at + {size} + dataLength;"));
    }
}

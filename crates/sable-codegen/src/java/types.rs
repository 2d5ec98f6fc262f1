//! The generated enums, sets and composites.

use sable_ir::PrimitiveType;

use super::fields::{self, Ctx, Slot};
use super::syntax::{class_name, doc, ident, java_type, javadoc, literal, string_literal};
use super::Gen;
use crate::model::{Composite, EnumType, SetType, TypeRef};
use crate::writer::CodeWriter;

impl Gen<'_> {
    /// The Java enum for an SBE enum.
    pub(super) fn enum_file(&self, e: &EnumType) -> String {
        let mut w = self.file_header(&[]);
        let name = class_name(&e.name);
        let t = e.encoding_type;
        let jt = java_type(t);
        javadoc(
            &mut w,
            e.description.as_deref(),
            &[format!("Encoded as {t}.")],
        );
        w.open_brace(format!("public enum {name}"));
        let null_lit = literal(t, &e.null_value);
        let null_named = e.values.iter().any(|v| literal(t, &v.value) == null_lit);
        for v in &e.values {
            javadoc(&mut w, v.description.as_deref(), &[]);
            w.line(format!("{}({}),", ident(&v.name), literal(t, &v.value)));
            w.blank();
        }
        if self.unknown_enum {
            doc(
                &mut w,
                "A value on the wire that this version of the schema does not name.",
            );
            w.line(format!("SBE_UNKNOWN({null_lit}),"));
            w.blank();
        }
        doc(&mut w, "The null value: no value on the wire.");
        w.line(format!("NULL_VAL({null_lit});"));
        w.blank();
        w.line(format!("private final {jt} value;"));
        w.blank();
        w.open_brace(format!("{name}(final {jt} value)"));
        w.line("this.value = value;");
        w.end("}");
        w.blank();
        doc(
            &mut w,
            "The value on the wire.\n\n@return the encoded value.",
        );
        w.open_brace(format!("public {jt} value()"));
        w.line("return value;");
        w.end("}");
        w.blank();
        self.enum_get(&mut w, e, null_named);
        self.enum_json(&mut w, e);
        w.end("}");
        w.finish()
    }

    /// An enum's `get(value)`: the constant for a value on the wire.
    fn enum_get(&self, w: &mut CodeWriter, e: &EnumType, null_named: bool) {
        let name = class_name(&e.name);
        let t = e.encoding_type;
        let jt = java_type(t);
        let null_lit = literal(t, &e.null_value);
        let unknown = if self.unknown_enum {
            "return SBE_UNKNOWN;".to_owned()
        } else {
            "throw new IllegalArgumentException(\"Unknown value: \" + value);".to_owned()
        };
        javadoc(
            w,
            Some("The constant for a value on the wire."),
            &[
                "@param value the encoded value.".to_owned(),
                if self.unknown_enum {
                    "@return its constant, NULL_VAL for the null value, SBE_UNKNOWN for a value with no name.".to_owned()
                } else {
                    "@return its constant, NULL_VAL for the null value.".to_owned()
                },
                if self.unknown_enum {
                    String::new()
                } else {
                    "@throws IllegalArgumentException for a value with no name.".to_owned()
                },
            ]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>(),
        );
        w.open_brace(format!("public static {name} get(final {jt} value)"));
        let mut seen: Vec<String> = Vec::new();
        if jt == "long" {
            for v in &e.values {
                let lit = literal(t, &v.value);
                if seen.contains(&lit) {
                    continue;
                }
                w.open_brace(format!("if (value == {lit})"));
                w.line(format!("return {};", ident(&v.name)));
                w.end("}");
                seen.push(lit);
            }
            if !null_named {
                w.open_brace(format!("if (value == {null_lit})"));
                w.line("return NULL_VAL;");
                w.end("}");
            }
            w.line(unknown);
        } else {
            w.open_brace("switch (value)");
            for v in &e.values {
                let lit = literal(t, &v.value);
                if seen.contains(&lit) {
                    continue;
                }
                w.line(format!(
                    "case {}: return {};",
                    case_label(&lit),
                    ident(&v.name)
                ));
                seen.push(lit);
            }
            if !null_named {
                w.line(format!("case {}: return NULL_VAL;", case_label(&null_lit)));
            }
            w.line(format!("default: {unknown}"));
            w.end("}");
        }
        w.end("}");
        w.blank();
    }

    /// An enum's `appendJson`: the canonical JSON form of a value on the wire, used by decoders.
    fn enum_json(&self, w: &mut CodeWriter, e: &EnumType) {
        let t = e.encoding_type;
        let jt = java_type(t);
        javadoc(
            w,
            Some("Appends a value on the wire in the canonical JSON form (docs/json.md): its name, or {\"unknown\":N} for a value with no name."),
            &[
                "@param builder the destination.".to_owned(),
                "@param value the encoded value.".to_owned(),
                "@return the builder.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public static StringBuilder appendJson(final StringBuilder builder, final {jt} value)"
        ));
        let number = match t {
            PrimitiveType::Char => "value & 0xFF".to_owned(),
            PrimitiveType::UInt64 => "Long.toUnsignedString(value)".to_owned(),
            _ => "value".to_owned(),
        };
        let mut seen: Vec<String> = Vec::new();
        if jt == "long" {
            for v in &e.values {
                let lit = literal(t, &v.value);
                if seen.contains(&lit) {
                    continue;
                }
                w.open_brace(format!("if (value == {lit})"));
                w.line(format!(
                    "return builder.append({});",
                    string_literal(&format!("\"{}\"", v.name))
                ));
                w.end("}");
                seen.push(lit);
            }
            w.line(format!(
                "return builder.append(\"{{\\\"unknown\\\":\").append({number}).append('}}');"
            ));
        } else {
            w.open_brace("switch (value)");
            for v in &e.values {
                let lit = literal(t, &v.value);
                if seen.contains(&lit) {
                    continue;
                }
                w.line(format!(
                    "case {}: return builder.append({});",
                    case_label(&lit),
                    string_literal(&format!("\"{}\"", v.name))
                ));
                seen.push(lit);
            }
            w.line(format!(
                "default: return builder.append(\"{{\\\"unknown\\\":\").append({number}).append('}}');"
            ));
            w.end("}");
        }
        w.end("}");
    }

    /// The encoder and decoder flyweights of a set.
    pub(super) fn set_files(&self, s: &SetType) -> [(String, String); 2] {
        let base = class_name(&s.name);
        let t = s.encoding_type;
        let b = self.buffer;
        let size = t.size();
        let mut files = Vec::new();
        for encoder in [true, false] {
            let cls = format!("{base}{}", if encoder { "Encoder" } else { "Decoder" });
            let btype = if encoder {
                b.write_type()
            } else {
                b.read_type()
            };
            let mut w = self.file_header(b.imports());
            javadoc(
                &mut w,
                s.description.as_deref(),
                &[format!(
                    "A bit set encoded as {t}: a flyweight {} over {size} bytes.",
                    if encoder { "writing" } else { "reading" }
                )],
            );
            w.open_brace(format!("public final class {cls}"));
            doc(&mut w, "Bytes on the wire.");
            w.line(format!("public static final int ENCODED_LENGTH = {size};"));
            w.blank();
            b.declare(&mut w, btype);
            w.line(format!("private {} offset;", b.off()));
            w.blank();
            if !encoder {
                self.null_values(&mut w, &vec![0; size]);
            }
            self.flyweight_wrap(&mut w, &cls, btype);
            if encoder {
                self.set_encoder_methods(&mut w, s, &cls);
            } else {
                self.set_decoder_methods(&mut w, s);
            }
            w.end("}");
            files.push((cls, w.finish()));
        }
        let dec = files.pop().expect("decoder");
        let enc = files.pop().expect("encoder");
        [enc, dec]
    }

    /// A set encoder's methods: clear, the raw bits, and a setter per choice.
    fn set_encoder_methods(&self, w: &mut CodeWriter, s: &SetType, cls: &str) {
        let t = s.encoding_type;
        let jt = java_type(t);
        let b = self.buffer;
        let buf = b.var();
        let get = b.get(buf, t, s.byte_order, "offset");
        doc(w, "Clears every bit.\n\n@return this.");
        w.open_brace(format!("public {cls} clear()"));
        w.line(b.put(buf, t, s.byte_order, "offset", &zero(t)));
        w.line("return this;");
        w.end("}");
        w.blank();
        javadoc(
            w,
            Some("Writes every bit at once, choices and unnamed bits alike."),
            &[
                "@param value the bits.".to_owned(),
                "@return this.".to_owned(),
            ],
        );
        w.open_brace(format!("public {cls} rawValue(final {jt} value)"));
        w.line(b.put(buf, t, s.byte_order, "offset", "value"));
        w.line("return this;");
        w.end("}");
        for c in &s.choices {
            w.blank();
            let name = ident(&c.name);
            javadoc(
                w,
                c.description.as_deref(),
                &[
                    format!("Sets or clears bit {} ({}).", c.bit, c.name),
                    "@param value whether the bit is set.".to_owned(),
                    "@return this.".to_owned(),
                ],
            );
            w.open_brace(format!("public {cls} {name}(final boolean value)"));
            w.line(format!("final {jt} bits = {get};"));
            w.line(b.put(
                buf,
                t,
                s.byte_order,
                "offset",
                &format!("{name}(bits, value)"),
            ));
            w.line("return this;");
            w.end("}");
            w.blank();
            javadoc(
                w,
                Some(&format!(
                    "Bit {} ({}) set or cleared in a value.",
                    c.bit, c.name
                )),
                &[
                    "@param bits the value.".to_owned(),
                    "@param value whether the bit is set.".to_owned(),
                    "@return the value with the bit changed.".to_owned(),
                ],
            );
            w.open_brace(format!(
                "public static {jt} {name}(final {jt} bits, final boolean value)"
            ));
            w.line(format!(
                "return {};",
                narrow(
                    jt,
                    &format!(
                        "value ? bits | {} : bits & ~{}",
                        bit_mask(t, c.bit),
                        bit_mask(t, c.bit)
                    )
                )
            ));
            w.end("}");
        }
    }

    /// A set decoder's methods: the raw bits, emptiness, and a getter per choice.
    fn set_decoder_methods(&self, w: &mut CodeWriter, s: &SetType) {
        let t = s.encoding_type;
        let jt = java_type(t);
        let b = self.buffer;
        let buf = b.var();
        let get = b.get(buf, t, s.byte_order, "offset");
        doc(w, "Every bit at once.\n\n@return the bits.");
        w.open_brace(format!("public {jt} rawValue()"));
        w.line(format!("return {get};"));
        w.end("}");
        w.blank();
        doc(w, "Whether no bit is set.\n\n@return true when empty.");
        w.open_brace("public boolean isEmpty()");
        w.line(format!("return {get} == 0;"));
        w.end("}");
        for c in &s.choices {
            w.blank();
            let name = ident(&c.name);
            javadoc(
                w,
                c.description.as_deref(),
                &[
                    format!("Whether bit {} ({}) is set.", c.bit, c.name),
                    "@return true when set.".to_owned(),
                ],
            );
            w.open_brace(format!("public boolean {name}()"));
            w.line(format!("return ({get} & {}) != 0;", bit_mask(t, c.bit)));
            w.end("}");
            w.blank();
            javadoc(
                w,
                Some(&format!(
                    "Whether bit {} ({}) is set in a value.",
                    c.bit, c.name
                )),
                &[
                    "@param bits the value.".to_owned(),
                    "@return true when set.".to_owned(),
                ],
            );
            w.open_brace(format!("public static boolean {name}(final {jt} bits)"));
            w.line(format!("return (bits & {}) != 0;", bit_mask(t, c.bit)));
            w.end("}");
        }
        self.set_json(w, s);
    }

    /// A set decoder's `appendTo` and `toString`: the canonical JSON form.
    fn set_json(&self, w: &mut CodeWriter, s: &SetType) {
        let t = s.encoding_type;
        let b = self.buffer;
        let buf = b.var();
        let get = b.get(buf, t, s.byte_order, "offset");
        let bits = t.size() * 8;
        w.blank();
        javadoc(
            w,
            Some("Appends the set in the canonical JSON form (docs/json.md): the names of the choices set, in schema order, then the numbers of set bits that have no choice."),
            &["@param builder the destination.".to_owned(), "@return the builder.".to_owned()],
        );
        w.open_brace("public StringBuilder appendTo(final StringBuilder builder)");
        w.line(format!("final long bits = {};", widen_bits(t, &get)));
        w.line("builder.append('[');");
        w.line("boolean first = true;");
        let mut known: u64 = 0;
        for c in &s.choices {
            if c.bit < 64 {
                known |= 1u64 << c.bit;
            }
            w.open_brace(format!(
                "if ((bits & {}) != 0)",
                bit_mask(PrimitiveType::UInt64, c.bit)
            ));
            w.line("builder.append(first ? \"\" : \",\");");
            w.line(format!(
                "builder.append({});",
                string_literal(&format!("\"{}\"", c.name))
            ));
            w.line("first = false;");
            w.end("}");
        }
        w.line(format!("final long unknown = bits & ~0x{known:X}L;"));
        w.open_brace(format!("for (int bit = 0; bit < {bits}; bit++)"));
        w.open_brace("if ((unknown & (1L << bit)) != 0)");
        w.line("builder.append(first ? \"\" : \",\").append(bit);");
        w.line("first = false;");
        w.end("}");
        w.end("}");
        w.line("return builder.append(']');");
        w.end("}");
        w.blank();
        doc(
            w,
            "The set in the canonical JSON form.\n\n@return the JSON text.",
        );
        w.line("@Override");
        w.open_brace("public String toString()");
        w.line("return appendTo(new StringBuilder()).toString();");
        w.end("}");
    }

    /// `wrap`, the buffer and offset accessors and `encodedLength` of a fixed-size flyweight.
    pub(super) fn flyweight_wrap(&self, w: &mut CodeWriter, cls: &str, btype: &str) {
        let b = self.buffer;
        let buf = b.var();
        let off = b.off();
        let mut tags = vec![
            format!("@param {buf} the buffer."),
            "@param offset where the value starts.".to_owned(),
            "@return this.".to_owned(),
        ];
        if !b.is_agrona() {
            tags.push(
                "@throws IndexOutOfBoundsException when the offset is outside the buffer."
                    .to_owned(),
            );
        }
        javadoc(
            w,
            Some("Points this flyweight at a position in a buffer."),
            &tags,
        );
        w.open_brace(format!(
            "public {cls} wrap(final {btype} {buf}, final {off} offset)"
        ));
        if !b.is_agrona() {
            // Array accesses take offsets as ints (SbeSupport.index): a user's offset must be
            // inside the segment. Agrona buffers check bounds themselves, when the user asks.
            b.check_offset(w, "offset", &b.capacity(buf));
            w.line(format!("return sbeWrap({buf}, offset);"));
            w.end("}");
            w.blank();
            doc(
                w,
                "wrap without the offset's check, for the codecs' own offsets (inside the buffer).\n\n@param segment the buffer.\n@param offset where the value starts.\n@return this.",
            );
            w.open_brace(format!(
                "{cls} sbeWrap(final {btype} {buf}, final {off} offset)"
            ));
        }
        b.bind(w);
        w.line("this.offset = offset;");
        w.line("return this;");
        w.end("}");
        w.blank();
        doc(
            w,
            "The buffer this flyweight is over.\n\n@return the buffer.",
        );
        w.open_brace(format!("public {btype} {buf}()"));
        w.line(format!("return {buf};"));
        w.end("}");
        w.blank();
        doc(
            w,
            "Where the value starts in the buffer.\n\n@return the offset.",
        );
        w.open_brace(format!("public {off} offset()"));
        w.line("return offset;");
        w.end("}");
        w.blank();
        doc(w, "Bytes on the wire.\n\n@return ENCODED_LENGTH.");
        w.open_brace("public int encodedLength()");
        w.line("return ENCODED_LENGTH;");
        w.end("}");
        w.blank();
    }

    /// The encoder and decoder flyweights of a composite.
    pub(super) fn composite_files(&self, c: &Composite) -> [(String, String); 2] {
        let base = class_name(&c.name);
        let b = self.buffer;
        let mut out = Vec::new();
        for encoder in [true, false] {
            let cls = format!("{base}{}", if encoder { "Encoder" } else { "Decoder" });
            let btype = if encoder {
                b.write_type()
            } else {
                b.read_type()
            };
            let mut w = self.file_header(b.imports());
            javadoc(
                &mut w,
                c.description.as_deref(),
                &[format!(
                    "A composite: a flyweight {} {} bytes.",
                    if encoder { "writing" } else { "reading" },
                    c.encoded_length.max(0)
                )],
            );
            w.open_brace(format!("public final class {cls}"));
            doc(&mut w, "Bytes on the wire.");
            w.line(format!(
                "public static final int ENCODED_LENGTH = {};",
                c.encoded_length.max(0)
            ));
            w.blank();
            b.declare(&mut w, btype);
            w.line(format!("private {} offset;", b.off()));
            let slots: Vec<Slot> = c.members.iter().map(Slot::from_member).collect();
            for s in &slots {
                if let Some(f) = fields::flyweight_field(s, encoder) {
                    w.line(format!(
                        "private final {f} = new {}();",
                        f.split(' ').next().unwrap_or("")
                    ));
                    if encoder && matches!(s.type_ref, TypeRef::Composite(_)) {
                        super::message::composite_path_init(
                            &mut w,
                            s.name,
                            // `this.`: the lambda may precede the field it reads.
                            &fields::join_path("this.sbePath.get()", s.name),
                        );
                    }
                }
            }
            if encoder {
                doc(&mut w, "The composite's path in error reports: the field it is written as, else its type's name.");
                w.line(format!(
                    "private java.util.function.Supplier<String> sbePath = () -> {};",
                    string_literal(&c.name)
                ));
                w.blank();
                doc(&mut w, "Sets the composite's path in error reports (by the encoder it is a field of).\n\n@param path the path, asked for only when an error is thrown.");
                w.open_brace("void sbePath(final java.util.function.Supplier<String> path)");
                w.line("this.sbePath = path;");
                w.end("}");
            }
            w.blank();
            // Not for var-data composites: no field is typed by one.
            if !encoder && c.encoded_length > 0 {
                self.null_values(&mut w, &self.schema.composite_null(c));
            }
            self.flyweight_wrap(&mut w, &cls, btype);
            let ctx = Ctx {
                class: cls.clone(),
                buf: b.var().to_owned(),
                base: "offset".to_owned(),
                version: None,
                block: None,
                partial: None,
                is_message_field: false,
                merged_stores: false,
                path: if encoder {
                    "sbePath.get()".to_owned()
                } else {
                    string_literal(&c.name)
                },
            };
            for s in &slots {
                if encoder {
                    self.encoder_accessors(&mut w, s, &ctx);
                } else {
                    self.decoder_accessors(&mut w, s, &ctx);
                }
            }
            if !encoder {
                javadoc(
                    &mut w,
                    Some("Appends the composite in the canonical JSON form (docs/json.md): an object of its members."),
                    &["@param builder the destination.".to_owned(), "@return the builder.".to_owned()],
                );
                w.open_brace("public StringBuilder appendTo(final StringBuilder builder)");
                w.line("builder.append('{');");
                let mut first = true;
                for s in &slots {
                    if s.is_var_length() {
                        continue;
                    }
                    self.json_slot(&mut w, s, &ctx, first);
                    first = false;
                }
                w.line("return builder.append('}');");
                w.end("}");
                w.blank();
                doc(
                    &mut w,
                    "The composite in the canonical JSON form.\n\n@return the JSON text.",
                );
                w.line("@Override");
                w.open_brace("public String toString()");
                w.line("return appendTo(new StringBuilder()).toString();");
                w.end("}");
            }
            w.end("}");
            out.push((cls, w.finish()));
        }
        let dec = out.pop().expect("decoder");
        let enc = out.pop().expect("encoder");
        [enc, dec]
    }
}

/// A `case` label for a literal (`(byte) 65` -> `65`).
fn case_label(lit: &str) -> String {
    lit.rsplit(' ').next().unwrap_or(lit).to_owned()
}

fn zero(t: PrimitiveType) -> String {
    match java_type(t) {
        "byte" => "(byte) 0".to_owned(),
        "short" => "(short) 0".to_owned(),
        "long" => "0L".to_owned(),
        _ => "0".to_owned(),
    }
}

/// The mask of bit `bit` as a literal fit for `t`'s Java type.
fn bit_mask(t: PrimitiveType, bit: u32) -> String {
    match java_type(t) {
        "long" => format!("(1L << {bit})"),
        _ => format!("(1 << {bit})"),
    }
}

/// `expr` narrowed to `jt` where int arithmetic widened it.
fn narrow(jt: &str, expr: &str) -> String {
    match jt {
        "byte" | "short" => format!("({jt}) ({expr})"),
        _ => expr.to_owned(),
    }
}

/// A set's bits as an unsigned long.
fn widen_bits(t: PrimitiveType, get: &str) -> String {
    match java_type(t) {
        "long" => get.to_owned(),
        _ => format!("(long) {get}"),
    }
}

//! Accessors of fixed-size fields and composite members (both are "slots": a name at an offset
//! with a type). Their canonical JSON is in json.rs.

use sable_ir::{Presence, PrimitiveType, PrimitiveValue};

use super::nulls::NULL_VALUES;
use super::syntax::{class_name, doc, is_utf8, java_type, javadoc, literal, prop, string_literal};
use super::Gen;
use crate::model::{Field, FieldMeta, Member, Primitive, TypeRef};
use crate::writer::CodeWriter;

/// A field of a block or a member of a composite.
#[derive(Debug, Clone)]
pub struct Slot<'a> {
    pub name: &'a str,
    pub id: Option<i32>,
    pub description: Option<&'a str>,
    pub since_version: i32,
    /// The schema version it was deprecated in; 0 when it is not.
    pub deprecated: i32,
    pub offset: usize,
    pub size: usize,
    pub presence: Presence,
    pub type_ref: &'a TypeRef,
    pub const_enum_value: Option<&'a str>,
    pub meta: FieldMeta,
}

impl<'a> Slot<'a> {
    pub fn from_field(f: &'a Field) -> Slot<'a> {
        Slot {
            name: &f.name,
            id: Some(f.id),
            description: f.description.as_deref(),
            since_version: f.since_version,
            deprecated: f.deprecated,
            offset: f.offset,
            size: f.size,
            presence: f.presence,
            type_ref: &f.type_ref,
            const_enum_value: f.const_enum_value.as_deref(),
            meta: f.meta.clone(),
        }
    }

    pub fn from_member(m: &'a Member) -> Slot<'a> {
        let size = match &m.type_ref {
            TypeRef::Primitive(p) => p.size(),
            _ => 0,
        };
        Slot {
            name: &m.name,
            id: None,
            description: m.description.as_deref(),
            since_version: m.since_version,
            deprecated: m.deprecated,
            offset: m.offset,
            size,
            presence: m.presence,
            type_ref: &m.type_ref,
            const_enum_value: None,
            meta: FieldMeta {
                character_encoding: match &m.type_ref {
                    TypeRef::Primitive(p) => p.character_encoding.clone(),
                    _ => None,
                },
                ..FieldMeta::default()
            },
        }
    }

    /// A var-length member of a var-data composite: not accessed as a slot.
    pub fn is_var_length(&self) -> bool {
        matches!(self.type_ref, TypeRef::Primitive(p) if p.length == 0)
    }

    pub fn is_constant(&self) -> bool {
        self.presence == Presence::Constant
            || matches!(self.type_ref, TypeRef::Primitive(p) if p.is_constant())
    }

    /// The schema's description, with a note when the slot is deprecated.
    pub fn describe(&self) -> Option<String> {
        let note = (self.deprecated > 0)
            .then(|| format!("Deprecated since schema version {}.", self.deprecated));
        match (
            self.description.map(str::trim).filter(|d| !d.is_empty()),
            note,
        ) {
            (Some(d), Some(n)) => Some(format!("{d}\n{n}")),
            (Some(d), None) => Some(d.to_owned()),
            (None, n) => n,
        }
    }
}

/// Where accessors are generated: the class, how to reach the buffer and block, and how the
/// acting version and block length are found (absent for composites).
#[derive(Debug, Clone)]
pub struct Ctx {
    /// The class the accessors are in (fluent setters return it).
    pub class: String,
    pub buf: String,
    /// The Java expression of the block's (or composite's) offset.
    pub base: String,
    /// The acting version, where fields may be newer than the writer.
    pub version: Option<String>,
    /// The acting block length, where a block may be shorter than the schema's.
    pub block: Option<String>,
    /// The Java condition that the block is shorter or the acting version older than the
    /// schema's (`message::partial_block`), tested before the slots' own conditions: the same
    /// compare in every getter, which C2 makes once per block (see `absent`).
    pub partial: Option<String>,
    /// Whether the slots are fields (with ids) rather than composite members.
    pub is_message_field: bool,
    /// Whether an encoder's multi-byte writes go byte by byte (`Buffer::put_in_block`).
    pub merged_stores: bool,
    /// The Java expression of the block's path in encoding errors (`"fields"`, `sbeEntryPath()`,
    /// a composite's type name).
    pub path: String,
}

impl Ctx {
    /// The Java condition under which a slot is not on the wire, if it can be absent.
    pub fn absent(&self, s: &Slot) -> Option<String> {
        let mut parts = Vec::new();
        if let Some(v) = &self.version {
            if s.since_version > 0 {
                parts.push(format!("{v} < {}", s.since_version));
            }
        }
        if let Some(b) = &self.block {
            let end = s.offset + s.size;
            if s.size > 0 {
                parts.push(format!("{b} < {end}"));
            }
        }
        if parts.is_empty() {
            return None;
        }
        let any = parts.join(" || ");
        Some(match &self.partial {
            Some(p) if parts.len() == 1 => format!("{p} && {any}"),
            Some(p) => format!("{p} && ({any})"),
            None => any,
        })
    }

    /// The Java expression of a slot's path in encoding errors.
    pub fn slot_path(&self, name: &str) -> String {
        join_path(&self.path, name)
    }

    pub(super) fn at(&self, offset: usize) -> String {
        if offset == 0 {
            self.base.clone()
        } else {
            format!("{} + {offset}", self.base)
        }
    }
}

/// `Type name` of the flyweight field a slot needs (composites and sets), if any.
pub fn flyweight_field(s: &Slot, encoder: bool) -> Option<String> {
    let suffix = if encoder { "Encoder" } else { "Decoder" };
    match s.type_ref {
        TypeRef::Composite(name) | TypeRef::Set(name) if !s.is_constant() => {
            Some(format!("{}{suffix} {}", class_name(name), prop(s.name)))
        }
        _ => None,
    }
}

fn param(doc: &str) -> String {
    format!("@param {doc}")
}

impl Gen<'_> {
    /// The static metadata methods every slot has, in encoders and decoders alike.
    fn metadata(&self, w: &mut CodeWriter, s: &Slot, ctx: &Ctx) {
        let p = prop(s.name);
        if let Some(id) = s.id.filter(|_| ctx.is_message_field) {
            doc(w, &format!("The schema id of {}.\n\n@return {id}.", s.name));
            w.open_brace(format!("public static int {p}Id()"));
            w.line(format!("return {id};"));
            w.end("}");
            w.blank();
        }
        doc(
            w,
            &format!(
                "The schema version {} appeared in.\n\n@return {}.",
                s.name, s.since_version
            ),
        );
        w.open_brace(format!("public static int {p}SinceVersion()"));
        w.line(format!("return {};", s.since_version));
        w.end("}");
        w.blank();
        doc(
            w,
            &format!(
                "The offset of {} in its block.\n\n@return {}.",
                s.name, s.offset
            ),
        );
        w.open_brace(format!("public static int {p}EncodingOffset()"));
        w.line(format!("return {};", s.offset));
        w.end("}");
        w.blank();
        doc(
            w,
            &format!("Bytes {} takes on the wire.\n\n@return {}.", s.name, s.size),
        );
        w.open_brace(format!("public static int {p}EncodingLength()"));
        w.line(format!("return {};", s.size));
        w.end("}");
        w.blank();
        let meta = [
            (
                "SemanticType",
                s.meta.semantic_type.as_deref(),
                "SEMANTIC_TYPE",
            ),
            ("Epoch", s.meta.epoch.as_deref(), "EPOCH"),
            ("TimeUnit", s.meta.time_unit.as_deref(), "TIME_UNIT"),
        ];
        for (suffix, value, _) in meta {
            if let Some(v) = value {
                doc(
                    w,
                    &format!(
                        "The {} of {}.\n\n@return {}.",
                        suffix.to_lowercase(),
                        s.name,
                        super::syntax::escape_javadoc(v)
                    ),
                );
                w.open_brace(format!("public static String {p}{suffix}()"));
                w.line(format!("return {};", string_literal(v)));
                w.end("}");
                w.blank();
            }
        }
        javadoc(
            w,
            Some(&format!("A meta attribute of {}.", s.name)),
            &[
                param("metaAttribute which attribute."),
                "@return its value, \"\" when the schema gives none.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public static String {p}MetaAttribute(final MetaAttribute metaAttribute)"
        ));
        w.open_brace("switch (metaAttribute)");
        for (_, value, constant) in meta {
            w.line(format!(
                "case {constant}: return {};",
                string_literal(value.unwrap_or(""))
            ));
        }
        let presence = match s.presence {
            Presence::Required => "required",
            Presence::Optional => "optional",
            Presence::Constant => "constant",
        };
        w.line(format!("case PRESENCE: return \"{presence}\";"));
        w.line("default: return \"\";");
        w.end("}");
        w.end("}");
        w.blank();
    }

    /// The static null, min and max value methods of a primitive slot.
    fn value_limits(&self, w: &mut CodeWriter, s: &Slot, p: &Primitive) {
        let name = prop(s.name);
        let jt = java_type(p.primitive_type);
        for (what, v) in [
            ("Null", &p.null_value),
            ("Min", &p.min_value),
            ("Max", &p.max_value),
        ] {
            doc(
                w,
                &format!(
                    "The {} value of {}.\n\n@return {}.",
                    what.to_lowercase(),
                    s.name,
                    literal(p.primitive_type, v).replace(['(', ')'], "")
                ),
            );
            w.open_brace(format!("public static {jt} {name}{what}Value()"));
            w.line(format!("return {};", literal(p.primitive_type, v)));
            w.end("}");
            w.blank();
        }
        if p.primitive_type == PrimitiveType::Char || p.character_encoding.is_some() {
            let enc = p
                .character_encoding
                .clone()
                .or(s.meta.character_encoding.clone())
                .unwrap_or_else(|| "US-ASCII".to_owned());
            doc(
                w,
                &format!("The character encoding of {}.\n\n@return {enc}.", s.name),
            );
            w.open_brace(format!("public static String {name}CharacterEncoding()"));
            w.line(format!("return {};", string_literal(&enc)));
            w.end("}");
            w.blank();
        }
        if p.is_array() {
            doc(
                w,
                &format!("Elements in {}.\n\n@return {}.", s.name, p.length),
            );
            w.open_brace(format!("public static int {name}Length()"));
            w.line(format!("return {};", p.length));
            w.end("}");
            w.blank();
        }
    }

    /// An encoder's check of `value` against the slot's declared minValue and maxValue
    /// (valueOutOfRange); nothing when the schema declares neither (the primitive type's own
    /// range is not checked) and for chars. The null value always passes.
    fn range_check(&self, w: &mut CodeWriter, s: &Slot, p: &Primitive, ctx: &Ctx) {
        let t = p.primitive_type;
        let declared_min = !same_value(&p.min_value, &t.min_value());
        let declared_max = !same_value(&p.max_value, &t.max_value());
        if t == PrimitiveType::Char || !(declared_min || declared_max) {
            return;
        }
        let (min, max, null) = (
            literal(t, &p.min_value),
            literal(t, &p.max_value),
            literal(t, &p.null_value),
        );
        let mut outside = Vec::new();
        if t == PrimitiveType::UInt64 {
            if declared_min {
                outside.push(format!("Long.compareUnsigned(value, {min}) < 0"));
            }
            if declared_max {
                outside.push(format!("Long.compareUnsigned(value, {max}) > 0"));
            }
        } else {
            if declared_min {
                outside.push(format!("value < {min}"));
            }
            if declared_max {
                outside.push(format!("value > {max}"));
            }
        }
        // NaN, the floats' null, fails every comparison already.
        let condition = match t {
            PrimitiveType::Float | PrimitiveType::Double => outside.join(" || "),
            _ => format!("value != {null} && ({})", outside.join(" || ")),
        };
        w.open_brace(format!("if ({condition})"));
        w.line(format!(
            "throw new SbeEncodeException(SbeEncodeException.Kind.VALUE_OUT_OF_RANGE, {}, \"value \" + value + \" outside [{}, {}]\");",
            ctx.slot_path(s.name),
            min.replace(['(', ')'], ""),
            max.replace(['(', ')'], "")
        ));
        w.end("}");
    }

    /// Setters of one slot in an encoder.
    pub(super) fn encoder_accessors(&self, w: &mut CodeWriter, s: &Slot, ctx: &Ctx) {
        if s.is_var_length() {
            return;
        }
        self.metadata(w, s, ctx);
        let b = self.buffer;
        let buf = &ctx.buf;
        let name = prop(s.name);
        let cls = &ctx.class;
        let at = ctx.at(s.offset);
        let description = s.describe();
        let desc = description.as_deref();
        match s.type_ref {
            TypeRef::Primitive(p) => self.primitive_setters(w, s, p, ctx),
            TypeRef::Enum(e) => {
                let et = self.schema.enum_type(e);
                let ename = class_name(e);
                let t = et.encoding_type;
                if s.is_constant() {
                    if let Some(v) = s.const_enum_value {
                        doc(
                            w,
                            &format!("The constant value of {}.\n\n@return {ename}.{v}.", s.name),
                        );
                        w.open_brace(format!("public static {ename} {name}()"));
                        w.line(format!("return {ename}.{};", super::syntax::ident(v)));
                        w.end("}");
                        w.blank();
                    }
                    return;
                }
                javadoc(
                    w,
                    desc,
                    &[param("value the value."), "@return this.".to_owned()],
                );
                w.open_brace(format!("public {cls} {name}(final {ename} value)"));
                w.line(b.put_in_block(
                    buf,
                    t,
                    et.byte_order,
                    &at,
                    "value.value()",
                    ctx.merged_stores,
                ));
                w.line("return this;");
                w.end("}");
                w.blank();
                javadoc(
                    w,
                    Some(&format!(
                        "Writes {} as a number, named by the enum or not.",
                        s.name
                    )),
                    &[
                        param("value the encoded value."),
                        "@return this.".to_owned(),
                    ],
                );
                w.open_brace(format!(
                    "public {cls} {name}Raw(final {} value)",
                    java_type(t)
                ));
                w.line(b.put_in_block(buf, t, et.byte_order, &at, "value", ctx.merged_stores));
                w.line("return this;");
                w.end("}");
                w.blank();
            }
            TypeRef::Set(set) => {
                let c = format!("{}Encoder", class_name(set));
                javadoc(
                    w,
                    desc,
                    &[format!("@return the {c} flyweight over {}.", s.name)],
                );
                w.open_brace(format!("public {c} {name}()"));
                w.line(format!(
                    "{name}.{}({buf}, {at});",
                    self.buffer.internal_wrap()
                ));
                w.line(format!("return {name};"));
                w.end("}");
                w.blank();
            }
            TypeRef::Composite(comp) => {
                let c = format!("{}Encoder", class_name(comp));
                javadoc(
                    w,
                    desc,
                    &[format!("@return the {c} flyweight over {}.", s.name)],
                );
                w.open_brace(format!("public {c} {name}()"));
                w.line(format!(
                    "{name}.{}({buf}, {at});",
                    self.buffer.internal_wrap()
                ));
                w.line(format!("return {name};"));
                w.end("}");
                w.blank();
            }
        }
    }

    /// The setters of a primitive slot (its value limits, or a constant's getter).
    fn primitive_setters(&self, w: &mut CodeWriter, s: &Slot, p: &Primitive, ctx: &Ctx) {
        let b = self.buffer;
        let buf = &ctx.buf;
        let name = prop(s.name);
        let cls = &ctx.class;
        let at = ctx.at(s.offset);
        let description = s.describe();
        let desc = description.as_deref();
        self.value_limits(w, s, p);
        if p.is_constant() {
            self.constant_getter(w, s, p);
            return;
        }
        let t = p.primitive_type;
        let jt = java_type(t);
        let order = p.byte_order;
        if !p.is_array() {
            javadoc(
                w,
                desc,
                &[param("value the value."), "@return this.".to_owned()],
            );
            w.open_brace(format!("public {cls} {name}(final {jt} value)"));
            self.range_check(w, s, p, ctx);
            w.line(b.put_in_block(buf, t, order, &at, "value", ctx.merged_stores));
            w.line("return this;");
            w.end("}");
            w.blank();
            return;
        }
        let n = p.length;
        let size = t.size();
        javadoc(
            w,
            desc,
            &[
                param("index the element, from 0."),
                param("value the value."),
                "@return this.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public {cls} {name}(final int index, final {jt} value)"
        ));
        encoder_index_check(w, n, &ctx.slot_path(s.name));
        self.range_check(w, s, p, ctx);
        let elem = if size == 1 {
            format!("{at} + index")
        } else {
            format!("{at} + index * {size}")
        };
        w.line(b.put_in_block(buf, t, order, &elem, "value", ctx.merged_stores));
        w.line("return this;");
        w.end("}");
        w.blank();
        if n <= 32 {
            let params: Vec<String> = (0..n).map(|i| format!("final {jt} value{i}")).collect();
            javadoc(
                w,
                Some(&format!("Writes every element of {}.", s.name)),
                &(0..n)
                    .map(|i| param(&format!("value{i} element {i}.")))
                    .chain(["@return this.".to_owned()])
                    .collect::<Vec<_>>(),
            );
            w.open_brace(format!(
                "public {cls} put{}({})",
                class_name(s.name),
                params.join(", ")
            ));
            for i in 0..n {
                let elem = if i == 0 {
                    at.clone()
                } else {
                    format!("{} + {}", ctx.base, s.offset + i * size)
                };
                w.line(b.put_in_block(
                    buf,
                    t,
                    order,
                    &elem,
                    &format!("value{i}"),
                    ctx.merged_stores,
                ));
            }
            w.line("return this;");
            w.end("}");
            w.blank();
        }
        if size == 1 {
            self.byte_array_setters(w, s, p, ctx);
        }
    }

    /// Byte-wise setters of a 1-byte element array: from byte[], a buffer, and text.
    fn byte_array_setters(&self, w: &mut CodeWriter, s: &Slot, p: &Primitive, ctx: &Ctx) {
        let b = self.buffer;
        let buf = &ctx.buf;
        let cls = &ctx.class;
        let upper = class_name(s.name);
        let name = prop(s.name);
        let n = p.length;
        let at = ctx.at(s.offset);
        javadoc(
            w,
            Some(&format!(
                "Copies all {n} bytes of {} from an array.",
                s.name
            )),
            &[
                param("src the bytes."),
                param(&format!(
                    "srcOffset where they start in src ({n} are copied)."
                )),
                "@return this.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public {cls} put{upper}(final byte[] src, final int srcOffset)"
        ));
        w.line(b.put_bytes(buf, &at, "src", "srcOffset", &n.to_string()));
        w.line("return this;");
        w.end("}");
        w.blank();
        javadoc(
            w,
            Some(&format!(
                "Copies all {n} bytes of {} from a buffer.",
                s.name
            )),
            &[
                param("src the buffer."),
                param(&format!(
                    "srcOffset where they start in src ({n} are copied)."
                )),
                "@return this.".to_owned(),
            ],
        );
        w.open_brace(format!(
            "public {cls} put{upper}(final {} src, final {} srcOffset)",
            b.source_type(),
            b.off()
        ));
        w.line(b.copy_from(buf, &at, "src", "srcOffset", &n.to_string()));
        w.line("return this;");
        w.end("}");
        w.blank();
        if p.primitive_type != PrimitiveType::Char {
            return;
        }
        let utf8 = is_utf8(p.character_encoding.as_deref());
        let how = if utf8 {
            "encoded as UTF-8"
        } else {
            "one byte per character (characters above U+00FF are written as '?')"
        };
        for ty in ["String", "CharSequence"] {
            javadoc(
                w,
                Some(&format!(
                    "Writes {} as text, {how}, padded with NUL bytes; without allocating.",
                    s.name
                )),
                &[
                    param(&format!("value the text, at most {n} bytes once encoded.")),
                    "@return this.".to_owned(),
                    "@throws SbeEncodeException (textTooLong) when the text is too long; nothing is written then.".to_owned(),
                ],
            );
            w.open_brace(format!("public {cls} {name}(final {ty} value)"));
            let write = if utf8 { "putUtf8" } else { "putLatin1" };
            w.open_brace(format!(
                "if (!SbeSupport.{write}({buf}, {at}, {n}, value, true))"
            ));
            w.line(format!(
                "throw new SbeEncodeException(SbeEncodeException.Kind.TEXT_TOO_LONG, {}, \"text of \" + value.length() + \" characters does not fit in {n} bytes\");",
                ctx.slot_path(s.name)
            ));
            w.end("}");
            w.line("return this;");
            w.end("}");
            w.blank();
        }
    }

    fn constant_getter(&self, w: &mut CodeWriter, s: &Slot, p: &Primitive) {
        let name = prop(s.name);
        let t = p.primitive_type;
        match &p.const_value {
            Some(PrimitiveValue::Bytes { bytes, .. }) if p.length > 1 || bytes.len() > 1 => {
                let text: String = bytes.iter().map(|&b| char::from(b)).collect();
                doc(
                    w,
                    &format!("The constant value of {}.\n\n@return the text.", s.name),
                );
                w.open_brace(format!("public static String {name}()"));
                w.line(format!("return {};", string_literal(&text)));
                w.end("}");
                w.blank();
            }
            Some(v) => {
                doc(
                    w,
                    &format!("The constant value of {}.\n\n@return the value.", s.name),
                );
                w.open_brace(format!("public static {} {name}()", java_type(t)));
                w.line(format!("return {};", literal(t, v)));
                w.end("}");
                w.blank();
            }
            None => {}
        }
    }

    /// Getters of one slot in a decoder.
    pub(super) fn decoder_accessors(&self, w: &mut CodeWriter, s: &Slot, ctx: &Ctx) {
        if s.is_var_length() {
            return;
        }
        self.metadata(w, s, ctx);
        let b = self.buffer;
        let buf = &ctx.buf;
        let name = prop(s.name);
        let at = ctx.at(s.offset);
        let absent = ctx.absent(s);
        let description = s.describe();
        let desc = description.as_deref();
        let absent_note = if absent.is_some() {
            " (its null value when the field is not on the wire: newer than the acting version, or beyond the acting block length)"
        } else {
            ""
        };
        match s.type_ref {
            TypeRef::Primitive(p) => self.primitive_getters(w, s, p, ctx),
            TypeRef::Enum(e) => {
                let et = self.schema.enum_type(e);
                let ename = class_name(e);
                let t = et.encoding_type;
                let jt = java_type(t);
                if s.is_constant() {
                    if let Some(v) = s.const_enum_value {
                        let vv = et
                            .values
                            .iter()
                            .find(|x| x.name == v)
                            .map_or_else(|| literal(t, &et.null_value), |x| literal(t, &x.value));
                        doc(
                            w,
                            &format!(
                                "The constant value of {}, as on the wire.\n\n@return its value.",
                                s.name
                            ),
                        );
                        w.open_brace(format!("public static {jt} {name}Raw()"));
                        w.line(format!("return {vv};"));
                        w.end("}");
                        w.blank();
                        doc(
                            w,
                            &format!("The constant value of {}.\n\n@return {ename}.{v}.", s.name),
                        );
                        w.open_brace(format!("public static {ename} {name}()"));
                        w.line(format!("return {ename}.{};", super::syntax::ident(v)));
                        w.end("}");
                        w.blank();
                    }
                    return;
                }
                javadoc(
                    w,
                    Some(&format!("{} as on the wire.", s.name)),
                    &[format!("@return the encoded value{absent_note}.")],
                );
                w.open_brace(format!("public {jt} {name}Raw()"));
                if let Some(a) = &absent {
                    w.open_brace(format!("if ({a})"));
                    w.line(format!("return {};", literal(t, &et.null_value)));
                    w.end("}");
                }
                w.line(format!("return {};", b.get(buf, t, et.byte_order, &at)));
                w.end("}");
                w.blank();
                let unknown = if self.unknown_enum {
                    "SBE_UNKNOWN for a value with no name"
                } else {
                    "throws IllegalArgumentException for a value with no name"
                };
                javadoc(
                    w,
                    desc,
                    &[format!(
                        "@return the value: NULL_VAL when null{absent_note}; {unknown}."
                    )],
                );
                w.open_brace(format!("public {ename} {name}()"));
                w.line(format!("return {ename}.get({name}Raw());"));
                w.end("}");
                w.blank();
            }
            // A flyweight over the field's bytes, or over its type's null values when absent.
            TypeRef::Set(flyweight) | TypeRef::Composite(flyweight) => {
                let c = format!("{}Decoder", class_name(flyweight));
                javadoc(
                    w,
                    desc,
                    &[format!(
                        "@return the {c} flyweight over {}{absent_note}.",
                        s.name
                    )],
                );
                w.open_brace(format!("public {c} {name}()"));
                if let Some(a) = &absent {
                    w.open_brace(format!("if ({a})"));
                    w.line(format!(
                        "return {name}.{}({c}.{NULL_VALUES}, 0);",
                        self.buffer.internal_wrap()
                    ));
                    w.end("}");
                }
                w.line(format!(
                    "{name}.{}({buf}, {at});",
                    self.buffer.internal_wrap()
                ));
                w.line(format!("return {name};"));
                w.end("}");
                w.blank();
            }
        }
    }

    /// The getters of a primitive slot (its value limits, or a constant's getter).
    fn primitive_getters(&self, w: &mut CodeWriter, s: &Slot, p: &Primitive, ctx: &Ctx) {
        let b = self.buffer;
        let buf = &ctx.buf;
        let name = prop(s.name);
        let at = ctx.at(s.offset);
        let absent = ctx.absent(s);
        let description = s.describe();
        let desc = description.as_deref();
        let absent_note = if absent.is_some() {
            " (its null value when the field is not on the wire: newer than the acting version, or beyond the acting block length)"
        } else {
            ""
        };
        self.value_limits(w, s, p);
        if p.is_constant() {
            self.constant_getter(w, s, p);
            return;
        }
        let t = p.primitive_type;
        let jt = java_type(t);
        let order = p.byte_order;
        if !p.is_array() {
            javadoc(w, desc, &[format!("@return the value{absent_note}.")]);
            w.open_brace(format!("public {jt} {name}()"));
            if let Some(a) = &absent {
                w.open_brace(format!("if ({a})"));
                w.line(format!("return {};", literal(t, &p.null_value)));
                w.end("}");
            }
            w.line(format!("return {};", b.get(buf, t, order, &at)));
            w.end("}");
            w.blank();
            return;
        }
        let n = p.length;
        let size = t.size();
        javadoc(
            w,
            desc,
            &[
                param("index the element, from 0."),
                format!("@return the element{absent_note}."),
            ],
        );
        w.open_brace(format!("public {jt} {name}(final int index)"));
        index_check(w, n);
        if let Some(a) = &absent {
            w.open_brace(format!("if ({a})"));
            w.line(format!("return {};", literal(t, &p.null_value)));
            w.end("}");
        }
        let elem = if size == 1 {
            format!("{at} + index")
        } else {
            format!("{at} + index * {size}")
        };
        w.line(format!("return {};", b.get(buf, t, order, &elem)));
        w.end("}");
        w.blank();
        if size == 1 {
            self.byte_array_getters(w, s, p, ctx, absent.as_deref());
        }
    }

    /// Byte-wise getters of a 1-byte element array: to byte[], a buffer, text.
    fn byte_array_getters(
        &self,
        w: &mut CodeWriter,
        s: &Slot,
        p: &Primitive,
        ctx: &Ctx,
        absent: Option<&str>,
    ) {
        let b = self.buffer;
        let buf = &ctx.buf;
        let upper = class_name(s.name);
        let name = prop(s.name);
        let n = p.length;
        let at = ctx.at(s.offset);
        let guard = |w: &mut CodeWriter, ret: &str| {
            if let Some(a) = absent {
                w.open_brace(format!("if ({a})"));
                w.line(format!("return {ret};"));
                w.end("}");
            }
        };
        javadoc(
            w,
            Some(&format!("Copies all {n} bytes of {} to an array.", s.name)),
            &[
                param("dst the destination."),
                param("dstOffset where to write in dst."),
                format!("@return the bytes copied: {n} (0 when the field is not on the wire)."),
            ],
        );
        w.open_brace(format!(
            "public int get{upper}(final byte[] dst, final int dstOffset)"
        ));
        guard(w, "0");
        w.line(b.get_bytes(buf, &at, "dst", "dstOffset", &n.to_string()));
        w.line(format!("return {n};"));
        w.end("}");
        w.blank();
        javadoc(
            w,
            Some(&format!("Copies all {n} bytes of {} to a buffer.", s.name)),
            &[
                param("dst the destination."),
                param("dstOffset where to write in dst."),
                format!("@return the bytes copied: {n} (0 when the field is not on the wire)."),
            ],
        );
        w.open_brace(format!(
            "public int get{upper}(final {} dst, final {} dstOffset)",
            b.dest_type(),
            b.off()
        ));
        guard(w, "0");
        w.line(b.copy_to(buf, &at, "dst", "dstOffset", &n.to_string()));
        w.line(format!("return {n};"));
        w.end("}");
        w.blank();
        if p.primitive_type != PrimitiveType::Char {
            return;
        }
        let utf8 = is_utf8(p.character_encoding.as_deref());
        let how = if utf8 {
            "decoded as UTF-8"
        } else {
            "one character per byte (U+0000 to U+00FF)"
        };
        javadoc(
            w,
            Some(&format!(
                "{} as text, up to the first NUL byte, {how}. Allocates a String.",
                s.name
            )),
            &["@return the text (\"\" when the field is not on the wire).".to_owned()],
        );
        w.open_brace(format!("public String {name}()"));
        guard(w, "\"\"");
        let read = if utf8 { "stringUtf8" } else { "stringLatin1" };
        w.line(format!(
            "return SbeSupport.{read}({buf}, {at}, SbeSupport.untilNul({buf}, {at}, {n}));"
        ));
        w.end("}");
        w.blank();
        javadoc(
            w,
            Some(&format!(
                "Appends {} as text, up to the first NUL byte, {how}, without allocating.",
                s.name
            )),
            &[
                param("dst the destination."),
                "@return the bytes read (up to the first NUL).".to_owned(),
            ],
        );
        w.open_brace(format!("public int get{upper}(final Appendable dst)"));
        guard(w, "0");
        w.line(format!(
            "final int length = SbeSupport.untilNul({buf}, {at}, {n});"
        ));
        let app = if utf8 { "appendUtf8" } else { "appendLatin1" };
        w.line(format!("SbeSupport.{app}({buf}, {at}, length, dst);"));
        w.line("return length;");
        w.end("}");
        w.blank();
    }
}

/// Whether two values are the same number (whatever their variants).
fn same_value(a: &PrimitiveValue, b: &PrimitiveValue) -> bool {
    match (a.as_i128(), b.as_i128()) {
        (Some(x), Some(y)) => x == y,
        _ => a.as_f64() == b.as_f64(),
    }
}

/// An encoder's array index check: indexOutOfRange with the field's path.
fn encoder_index_check(w: &mut CodeWriter, n: usize, path: &str) {
    w.open_brace(format!("if (index < 0 || index >= {n})"));
    w.line(format!(
        "throw new SbeEncodeException(SbeEncodeException.Kind.INDEX_OUT_OF_RANGE, {path}, \"index \" + index + \" outside 0..{}\");",
        n - 1
    ));
    w.end("}");
}

/// The Java expression of `name`'s path under the block path `base` (a Java expression): one
/// string literal when `base` is one.
pub(super) fn join_path(base: &str, name: &str) -> String {
    match base.strip_suffix('"') {
        Some(literal) if base.starts_with('"') => format!("{literal}.{name}\""),
        _ => format!("{base} + \".{name}\""),
    }
}

fn index_check(w: &mut CodeWriter, n: usize) {
    w.open_brace(format!("if (index < 0 || index >= {n})"));
    w.line("throw new IndexOutOfBoundsException(\"index out of range: \" + index);");
    w.end("}");
}

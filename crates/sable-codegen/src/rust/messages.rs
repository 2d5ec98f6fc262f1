//! Messages: their decoders (header checks, root block, `Display`), encoders, and `decode_any`.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Gen<'_> {
    pub(super) fn message(&mut self, msg: &model::Message) {
        let name = camel(&msg.name);
        let modname = snake(&msg.name);
        let mut names = GroupNames::default();
        names.collect(&msg.body, "");
        let mut o = String::new();
        let _ = writeln!(
            o,
            "/// The groups of `{}` (entry decoders and iterators, group and entry encoders).\n#[allow(clippy::module_inception)]\npub mod {modname} {{\n#[allow(unused_imports)]\nuse super::*;\n",
            msg.name
        );
        // Decoder.
        let dn = format!("{name}Decoder");
        let en = format!("{name}Encoder");
        let hs = self.header_size();
        let d = doc(msg.description.as_deref());
        let n = elements(&msg.body);
        let mut fields = format!("hdr: [u8; {hs}],\nblock: &'a [u8],\nversion: u16,\n");
        if n > 0 {
            fields.push_str(&format!(
                "buf: &'a [u8],\nmarks: sbe_support::Marks<{}>,\n",
                n + 1
            ));
        } else {
            fields.push_str("end: usize,\n");
        }
        let _ = writeln!(
            o,
            "{d}///\n/// A decoded `{}` message: its header and root block checked against the buffer when \
             decoded, so its fields' reads never fail; its groups and var data are found and checked as they are read \
             (in any order: each read returns a `Result`, and where a group or var data starts is kept once found).\n\
             #[derive(Debug, Clone)]\npub struct {dn}<'a> {{\n{fields}}}\n",
            msg.name
        );
        let _ = writeln!(o, "impl<'a> {dn}<'a> {{");
        let _ = writeln!(
            o,
            "/// The message's name in the schema.\npub const NAME: &'static str = {};\n/// The template id.\npub const TEMPLATE_ID: u16 = {};\n/// The root block length at the schema's version.\npub const BLOCK_LENGTH: u16 = {};\n",
            str_lit(&msg.name),
            msg.id,
            msg.block_length
        );
        if let Some(st) = &msg.semantic_type {
            let _ = writeln!(
                o,
                "/// The message's semantic type.\npub const SEMANTIC_TYPE: &'static str = {};\n",
                str_lit(st)
            );
        }
        o.push_str(&self.message_decode_fns(msg));
        let names_ref = &names;
        let (body_code, json) =
            self.body_decoder(&msg.body, &BodyAt::message(names_ref), msg.block_length);
        o.push_str(&body_code);
        o.push_str("}\n\n");
        // A message whose groups or var data do not fit prints as its error (the reads below
        // then all succeed).
        let check = if n > 0 {
            "if let Err(e) = self.encoded_length() {\nreturn write!(f, \"{}\", e.json());\n}\n"
        } else {
            ""
        };
        let _ = writeln!(o, "/// The canonical JSON form of the message (docs/json.md of Sable); a message whose groups or var data \
            do not fit in the buffer prints as its error, `{{\"error\":{{\"offset\":N,...}}}}` (`DecodeError::json`).\nimpl core::fmt::Display for {dn}<'_> {{\nfn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{\n{check}f.write_str({})?;\nwrite!(f, \"{{}}\", self.header())?;\nf.write_str(\",\\\"fields\\\":{{\")?;\n{json}f.write_str(\"}}}}\")\n}}\n}}\n",
            str_lit(&format!("{{\"message\":{},\"header\":", json_str(&msg.name))));
        // Group types (decoders) for the body.
        o.push_str(&self.group_types(&msg.body, &BodyAt::message(names_ref)));
        // Encoder.
        o.push_str(&self.message_encoder(msg, &name, &en, names_ref));
        o.push_str("}\n\n");
        let _ = writeln!(
            o,
            "#[allow(unused_imports)]\npub use {modname}::{{{dn}, {en}}};"
        );
        self.w(o);
    }

    /// A message decoder's constructors (`decode`, `decode_body`, `sbe_new`) and accessors of its
    /// header, acting version and length.
    fn message_decode_fns(&self, msg: &model::Message) -> String {
        let hs = self.header_size();
        let hc = self.s.header_composite();
        let n = elements(&msg.body);
        let needs = min_block(&msg.body);
        let hdr_read = |member: &str| member_u64(hc, member, "&hdr");
        let mut dec = String::new();
        let _ = writeln!(dec, "/// Decodes the message at the start of `buf`, header first: checks the template id \
            (and schema id), then reads the message at the block length and version the header gives.\n\
            ///\n/// # Errors\n///\n/// A header or message that does not fit in `buf`, another template or schema id, \
            a block length shorter than the fields need, group entries or var data running past the end.\n\
            #[inline]\npub fn decode(buf: &'a [u8]) -> Result<Self, DecodeError> {{");
        let _ = writeln!(
            dec,
            "let Some(hdr) = sbe_support::get::<{hs}>(buf, 0) else {{\nsbe_support::cold();\nreturn Err(sbe_support::truncated(0, FieldPath::new(\"header\"), {hs}, buf.len()));\n}};"
        );
        // Template id and schema id side by side: one test of both bytes against the
        // message's, the two tests (and their errors) only when it fails.
        let ids = match (hc.primitive("templateId"), hc.primitive("schemaId")) {
            (Some((tm, tp)), Some((sm, sp)))
                if !tp.is_constant()
                    && !sp.is_constant()
                    && !tp.is_array()
                    && !sp.is_array()
                    && sm.offset == tm.offset + tp.size() =>
            {
                let mut bytes = int_bytes(i128::from(msg.id), tp.size(), tp.byte_order);
                bytes.extend(int_bytes(i128::from(self.s.id), sp.size(), sp.byte_order));
                Some((tm.offset, bytes))
            }
            _ => None,
        };
        if let Some((off, bytes)) = &ids {
            let _ = writeln!(
                dec,
                "if sbe_support::get::<{}>(buf, {off}) != Some(*{}) {{\nsbe_support::cold();",
                bytes.len(),
                bytes_lit(bytes)
            );
        }
        // The contract's order: the schema id first, then the template id.
        if let Some(e) = hdr_read("schemaId") {
            let off = hc.member("schemaId").map_or(0, |m| m.offset);
            let _ = writeln!(dec, "let schema_id = {e};\nif schema_id != u64::from(SCHEMA_ID) {{\nreturn Err(sbe_support::header_error({off}, \"header.schemaId\", DecodeErrorKind::SchemaIdMismatch(schema_id)));\n}}");
        }
        if let Some(e) = hdr_read("templateId") {
            let off = hc.member("templateId").map_or(0, |m| m.offset);
            let _ = writeln!(dec, "let template_id = {e};\nif template_id != u64::from(Self::TEMPLATE_ID) {{\nreturn Err(sbe_support::header_error({off}, \"header.templateId\", DecodeErrorKind::UnknownTemplate(template_id)));\n}}");
        }
        if ids.is_some() {
            dec.push_str("}\n");
        }
        let bl = hdr_read("blockLength").unwrap_or_else(|| format!("{}_u64", msg.block_length));
        let ver = hdr_read("version").unwrap_or_else(|| "0_u64".into());
        let bl_off = hc.member("blockLength").map_or(0, |m| m.offset);
        let _ = writeln!(dec, "let block_length = sbe_support::to_usize({bl});\nlet version = sbe_support::to_version({ver});\nSelf::sbe_new(buf, {hs}, block_length, version, hdr, {bl_off})\n}}");
        // decode_body
        let _ = writeln!(dec, "\n/// Decodes a message body (no header) at the start of `buf`, written with `block_length` \
            and at `acting_version`; error offsets are from the start of `buf`.\n///\n/// # Errors\n///\n/// As [`Self::decode`], without the header checks.\n\
            #[inline]\npub fn decode_body(\nbuf: &'a [u8],\nblock_length: usize,\nacting_version: u16,\n) -> Result<Self, DecodeError> {{\nlet mut hdr = [0u8; {hs}];");
        for m in &hc.members {
            if let TypeRef::Primitive(p) = &m.type_ref {
                if p.is_constant() {
                    continue;
                }
                let t = rtype(p.primitive_type);
                let v = match m.name.as_str() {
                    "blockLength" => format!("block_length as {t}"),
                    "templateId" => int_lit(i128::from(msg.id), p.primitive_type),
                    "schemaId" => int_lit(i128::from(self.s.id), p.primitive_type),
                    "version" if t == "u16" => "acting_version".to_owned(),
                    "version" => format!("acting_version as {t}"),
                    _ => lit(&p.null_value, p.primitive_type),
                };
                if p.is_array() {
                    continue;
                }
                dec.push_str(&write("&mut hdr", &m.offset.to_string(), &v, p.byte_order));
                dec.push('\n');
            }
        }
        let _ = writeln!(
            dec,
            "Self::sbe_new(buf, 0, block_length, acting_version, hdr, 0)\n}}"
        );
        // sbe_new
        let _ = writeln!(dec, "\n#[inline]\nfn sbe_new(\nbuf: &'a [u8],\nstart: usize,\nblock_length: usize,\nversion: u16,\nhdr: [u8; {hs}],\nbl_at: usize,\n) -> Result<Self, DecodeError> {{");
        if needs > 0 {
            let cond = if self.s.version > 0 {
                format!("version >= SCHEMA_VERSION && block_length < {needs}")
            } else {
                format!("block_length < {needs}")
            };
            let _ = writeln!(dec, "if {cond} {{\nsbe_support::cold();\nreturn Err(sbe_support::block_too_short(bl_at, FieldPath::new(\"header.blockLength\"), block_length, {needs}));\n}}");
        } else {
            dec.push_str("let _ = bl_at;\n");
        }
        let _ = writeln!(dec, "let block_end = sbe_support::span(buf, start, block_length, || FieldPath::new(\"fields\"))?;\nlet block = buf.get(start..block_end).unwrap_or(&[]);");
        if n > 0 {
            let _ = writeln!(dec, "Ok(Self {{\nhdr,\nblock,\nversion,\nbuf,\nmarks: sbe_support::Marks::new(block_end),\n}})\n}}");
        } else {
            let _ = writeln!(
                dec,
                "Ok(Self {{\nhdr,\nblock,\nversion,\nend: block_end,\n}})\n}}"
            );
        }
        let _ = writeln!(dec, "\n/// The acting version (the writer's).\n#[must_use]\npub fn acting_version(&self) -> u16 {{\nself.version\n}}\n\n\
            /// The acting block length (the writer's).\n#[must_use]\npub fn acting_block_length(&self) -> usize {{\nself.block.len()\n}}\n\n\
            /// The message's length in bytes: header (when decoded with it), block, groups and var data \
            (found, and checked, as far as not read yet).\n///\n/// # Errors\n///\n/// A group or var data running past the end \
            of the buffer, or a group's block length shorter than its fields need.\n#[inline]\npub fn encoded_length(&self) -> Result<usize, DecodeError> {{\n{}\n}}\n\n\
            /// The message header as read (or, after `decode_body`, as made from its arguments).\n#[must_use]\npub fn header(&self) -> {}Decoder<'_> {{\n{}Decoder::wrap(&self.hdr, SCHEMA_VERSION)\n}}",
            if n > 0 { format!("self.sbe_start({n})") } else { "Ok(self.end)".to_owned() },
            camel(&hc.name), camel(&hc.name));
        dec
    }

    pub(super) fn message_encoder(
        &self,
        msg: &model::Message,
        _name: &str,
        en: &str,
        names: &GroupNames,
    ) -> String {
        let hs = self.header_size();
        let hc = self.s.header_composite();
        let bl = msg.block_length;
        let mut o = String::new();
        let d = doc(msg.description.as_deref());
        let _ = writeln!(o, "{d}///\n/// Writes a `{}` message: fixed fields in any order, then groups and var data in schema order.\n#[derive(Debug)]\npub struct {en}<'a> {{\nbuf: &'a mut [u8],\n#[allow(dead_code)]\nstart: usize,\nlimit: usize,\n}}\n", msg.name);
        let _ = writeln!(o, "impl<'a> {en}<'a> {{\n/// The template id.\npub const TEMPLATE_ID: u16 = {};\n/// The root block length.\npub const BLOCK_LENGTH: u16 = {bl};\n", msg.id);
        let mut hdr = String::new();
        for m in &hc.members {
            if let TypeRef::Primitive(p) = &m.type_ref {
                if p.is_constant() || p.is_array() {
                    continue;
                }
                let v = match m.name.as_str() {
                    "blockLength" => int_lit(bl as i128, p.primitive_type),
                    "templateId" => int_lit(msg.id as i128, p.primitive_type),
                    "schemaId" => int_lit(self.s.id as i128, p.primitive_type),
                    "version" => int_lit(self.s.version as i128, p.primitive_type),
                    _ => lit(&p.null_value, p.primitive_type),
                };
                hdr.push_str(&write("h", &m.offset.to_string(), &v, p.byte_order));
                hdr.push('\n');
            }
        }
        let gaps = zero_gaps(&msg.body, bl, "buf", "start");
        let _ = writeln!(o, "/// Starts the message at the start of `buf`: writes the header (block length, template id, schema id, version).\n///\n/// # Errors\n///\n/// `buf` too small for the header and the root block.\n#[inline]\npub fn new(buf: &'a mut [u8]) -> Result<Self, EncodeError> {{\nlet limit = sbe_support::room(buf.len(), 0, {}, || FieldPath::new(\"header\"))?;\nif let Some(h) = buf.first_chunk_mut::<{hs}>() {{\n{hdr}}}\nlet start = {hs};\n{gaps}Ok(Self {{ buf, start, limit }})\n}}\n", hs + bl);
        let _ = writeln!(o, "/// Starts the message body (no header) at the start of `buf`.\n///\n/// # Errors\n///\n/// `buf` too small for the root block.\n#[inline]\npub fn new_body(buf: &'a mut [u8]) -> Result<Self, EncodeError> {{\nlet limit = sbe_support::room(buf.len(), 0, {bl}, || FieldPath::new(\"fields\"))?;\nlet start = 0;\n{gaps}Ok(Self {{ buf, start, limit }})\n}}\n");
        let _ = writeln!(o, "/// The bytes written so far: header (with `new`), block, groups and var data.\n#[must_use]\n#[inline]\npub fn encoded_length(&self) -> usize {{\nself.limit\n}}\n\n/// The message written so far.\n#[must_use]\npub fn as_bytes(&self) -> &[u8] {{\nself.buf.get(..self.limit).unwrap_or(&[])\n}}");
        o.push_str(&self.body_encoder(
            &msg.body,
            &BodyAt::message(names),
            "self.start",
            "self.limit",
        ));
        o.push_str("}\n");
        o.push_str(&self.group_encoders(&msg.body, &BodyAt::message(names)));
        o
    }

    pub(super) fn any_message(&mut self) {
        let mut o = String::new();
        let _ = writeln!(o, "/// Any message of the schema, decoded.\n#[derive(Debug, Clone)]\n#[allow(clippy::large_enum_variant)]\npub enum AnyMessage<'a> {{");
        let mut used = Vec::new();
        let mut variants = Vec::new();
        for m in &self.s.messages {
            let mut v = camel(&m.name);
            while used.contains(&v) {
                v.push('_');
            }
            used.push(v.clone());
            let _ = writeln!(
                o,
                "/// A `{}` message.\n{v}({}Decoder<'a>),",
                m.name,
                camel(&m.name)
            );
            variants.push((v, m));
        }
        o.push_str("}\n\n");
        let hc = self.s.header_composite();
        let hs = self.header_size();
        let header_read = |name: &str| member_u64(hc, name, "buf");
        let offset = |name: &str| hc.member(name).map_or(0, |m| m.offset);
        let _ = writeln!(o, "/// Decodes the message at the start of `buf` by the template id in its header, and checks it whole: the schema-level entry point (`Display` of the result prints its canonical JSON).\n///\n/// # Errors\n///\n/// The codec contract's first error in reading order: the header truncated, another schema id, a template id of no message, a block length too short, then the root block, groups and var data running past the end.\npub fn decode_any(buf: &[u8]) -> Result<AnyMessage<'_>, DecodeError> {{\nif buf.len() < {hs} {{\nsbe_support::cold();\nreturn Err(sbe_support::truncated(0, FieldPath::new(\"header\"), {hs}, buf.len()));\n}}");
        if let Some(sid) = header_read("schemaId") {
            let _ = writeln!(o, "let schema_id = {sid};\nif schema_id != u64::from(SCHEMA_ID) {{\nreturn Err(sbe_support::header_error({}, \"header.schemaId\", DecodeErrorKind::SchemaIdMismatch(schema_id)));\n}}", offset("schemaId"));
        }
        let tid = header_read("templateId").unwrap_or_else(|| "0_u64".into());
        let _ = writeln!(o, "let template_id = {tid};\nmatch template_id {{");
        for (v, m) in &variants {
            let _ = writeln!(
                o,
                "{} => {{\nlet m = {}Decoder::decode(buf)?;\nm.encoded_length()?;\nOk(AnyMessage::{v}(m))\n}}",
                m.id,
                camel(&m.name)
            );
        }
        let _ = writeln!(o, "other => Err(sbe_support::header_error({}, \"header.templateId\", DecodeErrorKind::UnknownTemplate(other))),\n}}\n}}\n", offset("templateId"));
        let _ = writeln!(o, "impl AnyMessage<'_> {{\n/// The message's length in bytes.\n///\n/// # Errors\n///\n/// As the message decoders' `encoded_length` (none for a message from `decode_any`, which checked it).\npub fn encoded_length(&self) -> Result<usize, DecodeError> {{\nmatch self {{");
        for (v, _) in &variants {
            let _ = writeln!(o, "Self::{v}(m) => m.encoded_length(),");
        }
        if variants.is_empty() {
            o.push_str("_ => Ok(0),\n");
        }
        let _ = writeln!(o, "}}\n}}\n}}\n\n/// The canonical JSON form of the message.\nimpl core::fmt::Display for AnyMessage<'_> {{\nfn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{\nmatch self {{");
        for (v, _) in &variants {
            let _ = writeln!(o, "Self::{v}(m) => write!(f, \"{{m}}\"),");
        }
        if variants.is_empty() {
            o.push_str("_ => Ok(()),\n");
        }
        o.push_str("}\n}\n}\n");
        self.w(o);
    }
}

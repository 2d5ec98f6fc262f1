//! Messages: decoders (header checks, JSON), encoders, and the schema-level entry point.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Gen<'_> {
    fn header_size(&self) -> usize {
        self.s.header_composite().encoded_length.max(0) as usize
    }

    /// An expression reading header member `name` of the buffer `buf` as a long.
    fn header_read(&self, name: &str, buf: &str) -> Option<String> {
        let hc = self.s.header_composite();
        let (m, p) = hc.primitive(name)?;
        if p.is_constant() || p.is_array() {
            return None;
        }
        Some(format!(
            "(long){}",
            read(buf, &m.offset.to_string(), p.primitive_type, p.byte_order)
        ))
    }

    /// Like `header_read`, from the header read whole into word variable `h` when it is a word.
    fn header_get(&self, name: &str, buf: &str) -> Option<String> {
        let hc = self.s.header_composite();
        let Some(word) = Word::of(hc) else {
            return self.header_read(name, buf);
        };
        let (m, p) = hc.primitive(name)?;
        if p.is_constant() || p.is_array() {
            return None;
        }
        Some(format!(
            "(long){}",
            word.get("h", m.offset, p.primitive_type)
        ))
    }

    fn header_offset(&self, name: &str) -> usize {
        self.s
            .header_composite()
            .member(name)
            .map_or(0, |m| m.offset)
    }

    pub(super) fn message(&mut self, msg: &model::Message) {
        let x = pascal(&msg.name);
        let dn = format!("{x}Decoder");
        let en = format!("{x}Encoder");
        let hs = self.header_size();
        let hc = self.ty(&self.s.header_composite().name);
        let at = At {
            dec: dn.clone(),
            template: "fields".into(),
            depth: 0,
        };
        let (members, json, fields) = self.body_decoder(&msg.body, &at, &en);
        let needs = msg.body.min_block();
        let d = doc(msg.description.as_deref(), &msg.name);
        let consts = format!("/// <summary>The message's name in the schema.</summary>\npublic const string MessageName = {};\n/// <summary>The template id.</summary>\npublic const int TemplateId = {};\n/// <summary>The schema id.</summary>\npublic const int SchemaId = {};\n/// <summary>The schema's version.</summary>\npublic const int SchemaVersion = {};\n/// <summary>The root block's length at the schema's version.</summary>\npublic const int BlockLength = {};\n/// <summary>The size of the message header.</summary>\npublic const int HeaderSize = {hs};\n", str_lit(&msg.name), msg.id, self.s.id, self.s.version, msg.block_length);
        let sid = self.header_get("schemaId", "buffer").map(|e| format!("if ({e} != SchemaId)\n{{\nthrow SbeSupport.SchemaIdMismatch({}, {e}, SchemaId);\n}}\n", self.header_offset("schemaId"))).unwrap_or_default();
        let tid = self.header_get("templateId", "buffer").map(|e| format!("if ({e} != TemplateId)\n{{\nthrow SbeSupport.UnknownTemplate({}, {e}, TemplateId);\n}}\n", self.header_offset("templateId"))).unwrap_or_default();
        let bl = self
            .header_get("blockLength", "buffer")
            .unwrap_or_else(|| "BlockLength".into());
        let ver = self
            .header_get("version", "buffer")
            .unwrap_or_else(|| "SchemaVersion".into());
        let hword = Word::of(self.s.header_composite())
            .map(|w| format!("{} h = {};\n", w.ty(), w.read("buffer", "0")))
            .unwrap_or_default();
        let too_short = |bl: &str, ver: &str, at: &str| -> String {
            if needs == 0 {
                return String::new();
            }
            let cond = if self.s.version > 0 {
                format!("{ver} >= SchemaVersion && ")
            } else {
                String::new()
            };
            format!("if ({cond}{bl} < {needs})\n{{\nthrow SbeSupport.BlockTooShort({at}, {bl}, {needs}, \"header.blockLength\");\n}}\n")
        };
        let header_json = format!("if (_offset > 0)\n{{\nnew {hc}Decoder(_buffer, 0, SchemaVersion).AppendJson(sb);\n}}\nelse\n{{\nsb.Append(\"{{\\\"blockLength\\\":\");\nSbeJson.Int(sb, _blockLength);\nsb.Append(\",\\\"templateId\\\":{}\");\nsb.Append(\",\\\"schemaId\\\":{}\");\nsb.Append(\",\\\"version\\\":\");\nSbeJson.Int(sb, _version);\nsb.Append('}}');\n}}", msg.id, self.s.id);
        let msg_json = str_lit(&format!(
            "{{\"message\":{},\"header\":",
            json_str(&msg.name)
        ));
        let n = msg.body.groups.len() + msg.body.var_data.len();
        // A message whose codecs keep notes takes an owner number (see keeps_owner, SbeWalks).
        let (owner_field, owner_init) = if !super::body::keeps_owner(&msg.body, 0) {
            ("", "")
        } else {
            ("private long _owner;\n", "_owner = SbeWalks.Owner();\n")
        };
        let (walk_fields, walk_init, walk_init_h, dec_len, enc_len) = if n > 0 {
            (
                "private int _known;\nprivate int _at;\n",
                "_known = 0;\n_at = offset + actingBlockLength;\n",
                "_known = 0;\n_at = HeaderSize + bl;\n",
                format!("SbeStart({n})"),
                format!("SbeStart({n})"),
            )
        } else {
            (
                "",
                "",
                "",
                "_offset + _blockLength".to_owned(),
                "_offset + BlockLength".to_owned(),
            )
        };
        let ts_h = too_short(
            "bl",
            "version",
            &self.header_offset("blockLength").to_string(),
        );
        let ts_b = too_short("actingBlockLength", "actingVersion", "0");
        let o = format!("{d}\n/// <remarks>Reads a <c>{name}</c> message over a caller's buffer: fields in any order; groups and var data in any order too (each found, checked, from the last one read).</remarks>\npublic ref struct {dn}\n{{\n{consts}\nprivate ReadOnlySpan<byte> _buffer;\nprivate int _offset;\nprivate int _blockLength;\nprivate int _version;\n{owner_field}{walk_fields}\n/// <summary>Reads the message at the start of <paramref name=\"buffer\"/>, header first: checks the header (schema id, template id, block length) and that the root block fits.</summary>\n/// <exception cref=\"SbeDecodeException\">The contract's errors, at offsets from the message's first byte.</exception>\npublic {dn}(ReadOnlySpan<byte> buffer)\n{{\nif (buffer.Length < HeaderSize)\n{{\nthrow SbeSupport.Truncated(buffer.Length, 0, HeaderSize, \"header\");\n}}\n{hword}{sid}{tid}int bl = (int){bl};\nint version = (int){ver};\n{ts_h}if (HeaderSize + bl > buffer.Length)\n{{\nthrow SbeSupport.Truncated(buffer.Length, HeaderSize, bl, \"fields\");\n}}\n_buffer = buffer;\n_offset = HeaderSize;\n_blockLength = bl;\n_version = version;\n{owner_init}{walk_init_h}}}\n\n/// <summary>Reads a message body (no header) at the start of <paramref name=\"buffer\"/>, written with <paramref name=\"actingBlockLength\"/> at <paramref name=\"actingVersion\"/>.</summary>\npublic static {dn} WithoutHeader(ReadOnlySpan<byte> buffer, int actingBlockLength, int actingVersion)\n{{\nreturn new {dn}(buffer, 0, actingBlockLength, actingVersion);\n}}\n\nprivate {dn}(ReadOnlySpan<byte> buffer, int offset, int actingBlockLength, int actingVersion)\n{{\n{ts_b}if (offset + actingBlockLength > buffer.Length)\n{{\nthrow SbeSupport.Truncated(buffer.Length, offset, actingBlockLength, \"fields\");\n}}\n_buffer = buffer;\n_offset = offset;\n_blockLength = actingBlockLength;\n_version = actingVersion;\n{owner_init}{walk_init}}}\n\n/// <summary>The acting version (the writer's).</summary>\npublic int {acting_version} => _version;\n\n/// <summary>The root block's length (the writer's).</summary>\npublic int {acting_block_length} => _blockLength;\n\n/// <summary>The message header (read with the message).</summary>\npublic {hc}Decoder {header}\n{{\nget\n{{\nif (_offset == 0)\n{{\nreturn new {hc}Decoder({hc}Decoder.SbeNulls, 0, -1);\n}}\nreturn new {hc}Decoder(_buffer, 0, SchemaVersion);\n}}\n}}\n\n/// <summary>The message's length, from its first byte to the end of its last var data (walked, checked).</summary>\npublic int {encoded_length} => {dec_len};\n{members}\n/// <summary>Appends the message's canonical JSON (docs/json.md of Sable).</summary>\n/// <exception cref=\"SbeDecodeException\">A group or var data that does not fit.</exception>\npublic StringBuilder AppendJson(StringBuilder sb)\n{{\nsb.Append({msg_json});\n{header_json}\nsb.Append(\",\\\"fields\\\":{{\");\n{json}sb.Append(\"}}}}\");\nreturn sb;\n}}\n\n/// <summary>The message's canonical JSON.</summary>\npublic override string ToString() => AppendJson(new StringBuilder()).ToString();\n}}", name = msg.name, header = own(&msg.body, "Header"), acting_version = own(&msg.body, "ActingVersion"), acting_block_length = own(&msg.body, "ActingBlockLength"), encoded_length = own(&msg.body, "EncodedLength"));
        self.w(o);
        let mut hdr = String::new();
        let hcomp = self.s.header_composite();
        let word = Word::of(hcomp);
        let mut bits = 0u64;
        for m in &hcomp.members {
            if let (Some(w), TypeRef::Primitive(p)) = (&word, &m.type_ref) {
                if p.is_constant() {
                    continue;
                }
                let v = match m.name.as_str() {
                    "blockLength" => msg.block_length as i128,
                    "templateId" => i128::from(msg.id),
                    "schemaId" => i128::from(self.s.id),
                    "version" => i128::from(self.s.version),
                    _ => p.null_value.as_i128().unwrap_or(0),
                };
                bits |= w.put_const(m.offset, p.primitive_type, v);
                continue;
            }
            if let TypeRef::Primitive(p) = &m.type_ref {
                if p.is_constant() || p.is_array() {
                    continue;
                }
                let t = cs_type(p.primitive_type);
                let v = match m.name.as_str() {
                    "blockLength" => "BlockLength".to_owned(),
                    "templateId" => "TemplateId".to_owned(),
                    "schemaId" => "SchemaId".to_owned(),
                    "version" => "SchemaVersion".to_owned(),
                    _ => lit(&p.null_value, p.primitive_type),
                };
                hdr.push_str(&write(
                    "buffer",
                    &m.offset.to_string(),
                    p.primitive_type,
                    p.byte_order,
                    &format!("unchecked(({t}){v})"),
                ));
                hdr.push('\n');
            }
        }
        if let Some(w) = &word {
            let lit = if w.size == 8 {
                format!("0x{bits:x}UL")
            } else {
                format!("0x{bits:x}U")
            };
            hdr = format!("{}\n", w.write("buffer", "0", &lit));
        }
        let body = self.body_encoder(&msg.body, &at, &en, &fields.encoder);
        let o = format!("{d}\n/// <remarks>Writes a <c>{name}</c> message into a caller's buffer: fixed fields in any order, then groups and var data in schema order.</remarks>\npublic ref struct {en}\n{{\n{consts}\n{buf_field}private int _offset;\n{owner_field}{walk_fields}\n/// <summary>Starts the message at the start of <paramref name=\"buffer\"/>: writes its header.</summary>\n/// <exception cref=\"SbeEncodeException\"><c>bufferTooShort</c>: no room for the header and the root block.</exception>\npublic {en}(Span<byte> buffer)\n{{\nif (buffer.Length < HeaderSize + BlockLength)\n{{\nthrow SbeSupport.BufferTooShort(buffer.Length, 0, HeaderSize + BlockLength, \"header\");\n}}\n{buf_assign}_offset = HeaderSize;\n{owner_init}{walk_init_e}{hdr}}}\n\n/// <summary>Starts a message body (no header) at the start of <paramref name=\"buffer\"/>.</summary>\npublic static {en} WithoutHeader(Span<byte> buffer)\n{{\nreturn new {en}(buffer, 0);\n}}\n\nprivate {en}(Span<byte> buffer, int offset)\n{{\nif (buffer.Length < offset + BlockLength)\n{{\nthrow SbeSupport.BufferTooShort(buffer.Length, 0, offset + BlockLength, offset > 0 ? \"header\" : \"fields\");\n}}\n{buf_assign}_offset = offset;\n{owner_init}{walk_init_o}}}\n\n/// <summary>The message's length once written whole: header (when written), block, groups and var data.</summary>\npublic int {encoded_length} => {enc_len};\n{body}}}", name = msg.name, encoded_length = own(&msg.body, "EncodedLength"), buf_field = if super::body::on_wire(&msg.body) { "private Span<byte> _buffer;\n" } else { "" }, buf_assign = if super::body::on_wire(&msg.body) { "_buffer = buffer;\n" } else { "" }, walk_init_e = if n > 0 { "_known = 0;\n_at = HeaderSize + BlockLength;\n" } else { "" }, walk_init_o = if n > 0 { "_known = 0;\n_at = offset + BlockLength;\n" } else { "" });
        self.w(o);
    }

    /// `SbeSchema`: decode any message of the schema and print its JSON.
    pub(super) fn schema_entry(&mut self) {
        let s = self.s;
        let hs = self.header_size();
        let sid = self.header_read("schemaId", "buffer").map(|e| format!("if ({e} != SchemaId)\n{{\nthrow SbeSupport.SchemaIdMismatch({}, {e}, SchemaId);\n}}\n", self.header_offset("schemaId"))).unwrap_or_default();
        let tid = self
            .header_read("templateId", "buffer")
            .unwrap_or_else(|| "0L".into());
        let paths = if self.uses.paths.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = self.uses.paths.iter().map(|p| str_lit(p)).collect();
            format!("\n/// <summary>The paths of composite fields whose encoders can fail (errors name them), by id.</summary>\ninternal static readonly string[] SbeCompositePaths =\n{{\n{},\n}};\n", list.join(",\n"))
        };
        let mut cases = String::new();
        for m in &s.messages {
            let x = pascal(&m.name);
            let _ = writeln!(cases, "case {}:\n{{\nvar m = new {x}Decoder(buffer);\nint unused = m.{};\nreturn m.AppendJson(sb);\n}}", m.id, own(&m.body, "EncodedLength"));
        }
        let o = format!("/// <summary>The schema's entry point: any of its messages, decoded and printed as canonical JSON.</summary>\npublic static class SbeSchema\n{{\n/// <summary>The schema id.</summary>\npublic const int SchemaId = {};\n/// <summary>The schema's version.</summary>\npublic const int SchemaVersion = {};\n/// <summary>The schema's semantic version.</summary>\npublic const string SemanticVersion = {};\n/// <summary>The schema's package.</summary>\npublic const string Package = {};\n{paths}\n/// <summary>Decodes the message at the start of <paramref name=\"buffer\"/> by its header's template id, checks it whole, and appends its canonical JSON.</summary>\n/// <exception cref=\"SbeDecodeException\">The contract's first error in reading order (nothing is appended then).</exception>\npublic static StringBuilder AppendJson(ReadOnlySpan<byte> buffer, StringBuilder sb)\n{{\nif (buffer.Length < {hs})\n{{\nthrow SbeSupport.Truncated(buffer.Length, 0, {hs}, \"header\");\n}}\n{sid}long templateId = {tid};\nswitch (templateId)\n{{\n{cases}default:\nthrow new SbeDecodeException({}, \"header.templateId\", SbeErrorKind.UnknownTemplate, \"template id \" + templateId + \" names no message of the schema\");\n}}\n}}\n\n/// <summary>The canonical JSON of the message at the start of <paramref name=\"buffer\"/>, or <c>{{\"error\":{{...}}}}</c>.</summary>\npublic static string ToJson(ReadOnlySpan<byte> buffer)\n{{\nvar sb = new StringBuilder();\ntry\n{{\nAppendJson(buffer, sb);\n}}\ncatch (SbeDecodeException e)\n{{\nsb.Clear();\ne.AppendJson(sb.Append(\"{{\\\"error\\\":\")).Append('}}');\n}}\nreturn sb.ToString();\n}}\n}}", s.id, s.version, str_lit(s.semantic_version.as_deref().unwrap_or("")), str_lit(&s.package), self.header_offset("templateId"), paths = paths);
        self.w(o);
    }
}

/// What the generator appends to a field's, group's or var data's PascalCase name for the
/// codec's members derived from it (`ModelYear`, `ModelYearNullValue`, ...).
pub(super) const DERIVED_SUFFIXES: [&str; 10] = [
    "",
    "Id",
    "SinceVersion",
    "Offset",
    "Bytes",
    "NullValue",
    "MinValue",
    "MaxValue",
    "Length",
    "Count",
];

/// The name of a codec's own member `name`, or `Sbe` and it when one of the body's fields, groups
/// or var data (or the names derived from them) is called that.
pub(super) fn own(body: &Body, name: &str) -> String {
    let taken = body
        .fields
        .iter()
        .map(|f| &f.name)
        .chain(body.groups.iter().map(|g| &g.name))
        .chain(body.var_data.iter().map(|v| &v.name))
        .any(|n| {
            let x = pascal(n);
            DERIVED_SUFFIXES
                .iter()
                .any(|suffix| format!("{x}{suffix}") == name)
        });
    if taken {
        format!("Sbe{name}")
    } else {
        name.to_owned()
    }
}

//! Bodies (a message's, a group entry's): their blocks, groups and var data, decoded and
//! encoded; where each group and var data starts is found by walking the ones before it
//! (checked), and remembered while the codec is used through one variable.

#[allow(clippy::wildcard_imports)]
use super::*;

/// A body's place: its decoder and encoder types (qualified), its fields' path template.
pub(super) struct At {
    /// The qualified name of the body's decoder type (`CarDecoder`, `CarDecoder.FuelFiguresDecoder`).
    pub dec: String,
    /// Its path template: `fields`, `fields.fuelFigures[]`.
    pub template: String,
    pub entry: bool,
}

impl Gen<'_> {
    fn slots<'b>(&self, body: &'b Body) -> Vec<Slot<'b>> {
        body.fields
            .iter()
            .map(|f| Slot {
                name: &f.name,
                desc: f.description.as_deref(),
                type_ref: &f.type_ref,
                presence: f.presence,
                const_enum: f.const_enum_value.as_deref(),
                offset: f.offset,
                since: f.since_version,
                id: Some(f.id),
            })
            .collect()
    }

    /// The members a body's decoder has beyond its constructors: fields, groups, var data, the
    /// walks, and the JSON of its fields (`fields`: statements appending each member).
    pub(super) fn body_decoder(
        &self,
        body: &Body,
        at: &At,
        enc: &str,
    ) -> (String, String, Members) {
        let place = Place::Block {
            template: at.template.clone(),
            entry: at.entry,
        };
        let slots = self.slots(body);
        let members = self.members(&slots, &place, enc);
        let mut o = members.decoder.clone();
        let mut json = members.json.clone();
        let mut nested = String::new();
        let n = body.groups.len() + body.var_data.len();
        let mut skips = Vec::new();
        for (k, g) in body.groups.iter().enumerate() {
            let gx = pascal(&g.name);
            let d = doc(g.description.as_deref(), &g.name);
            let _ = writeln!(o, "\n{d}\n/// <remarks>Its entries, usable with <c>foreach</c>; empty when absent at the acting version.</remarks>\npublic {gx}GroupDecoder {gx} => new {gx}GroupDecoder(_buffer, _version >= {} ? SbeStart({k}) : -1, _version, _path);", g.since_version);
            let _ = writeln!(o, "/// <summary>The id of group <c>{}</c>.</summary>\npublic const int {gx}Id = {};\n/// <summary>The version group <c>{}</c> appeared in.</summary>\npublic const int {gx}SinceVersion = {};", g.name, g.id, g.name, g.since_version);
            json.push(format!("{}\nif (_version < {})\n{{\nsb.Append(\"null\");\n}}\nelse\n{{\nsb.Append('[');\nbool first{k} = true;\nforeach (var e in {gx})\n{{\nif (!first{k})\n{{\nsb.Append(',');\n}}\nfirst{k} = false;\ne.AppendJson(sb);\n}}\nsb.Append(']');\n}}", append(&format!("{}:", json_str(&g.name))), g.since_version));
            skips.push(format!("case {k}:\nreturn version >= {} ? {gx}GroupDecoder.SbeSkip(b, p, version, path) : p;", g.since_version));
            nested.push_str(&self.group_decoder(g, at));
        }
        for (k, v) in (body.groups.len()..).zip(&body.var_data) {
            let vx = pascal(&v.name);
            let d = doc(v.description.as_deref(), &v.name);
            let ls = v.length_size();
            let big = v.length.byte_order == sable_ir::ByteOrder::BigEndian;
            let path = str_lit(&format!("{}.{}", at.template, v.name));
            let utf8 = if is_utf8(v.character_encoding.as_deref()) {
                "true"
            } else {
                "false"
            };
            let bytes = if v.is_text() {
                format!("{vx}Bytes")
            } else {
                vx.clone()
            };
            let _ = writeln!(o, "\n{d}\n/// <remarks>The bytes, without copying (empty when absent at the acting version).</remarks>\npublic ReadOnlySpan<byte> {bytes}\n{{\nget\n{{\nif (_version < {since})\n{{\nreturn default(ReadOnlySpan<byte>);\n}}\nint p = SbeStart({k});\nint end = SbeSupport.SkipVarData(_buffer, p, {ls}, {big}, {path}, _path);\n_known = {k1};\n_at = end;\nreturn _buffer.Slice(p + {ls}, end - p - {ls});\n}}\n}}", since = v.since_version, k1 = k + 1);
            let _ = writeln!(o, "/// <summary>The id of var data <c>{}</c>.</summary>\npublic const int {vx}Id = {};\n/// <summary>The version var data <c>{}</c> appeared in.</summary>\npublic const int {vx}SinceVersion = {};", v.name, v.id, v.name, v.since_version);
            let value = if v.is_text() {
                let _ = writeln!(o, "\n{d}\n/// <remarks>As text (allocates a string; <see cref=\"{bytes}\"/> does not).</remarks>\npublic string {vx} => SbeSupport.Text({bytes}, {utf8});");
                format!("var b{k} = {bytes};\nSbeJson.Text(sb, b{k}, b{k}, {utf8});")
            } else {
                format!("SbeJson.Hex(sb, {bytes});")
            };
            json.push(format!(
                "{}\nif (_version < {})\n{{\nsb.Append(\"null\");\n}}\nelse\n{{\n{value}\n}}",
                append(&format!("{}:", json_str(&v.name))),
                v.since_version
            ));
            skips.push(format!("case {k}:\nreturn version >= {} ? SbeSupport.SkipVarData(b, p, {ls}, {big}, {path}, path) : p;", v.since_version));
        }
        let _ = writeln!(o, "\n/// <summary>Where group or var data <paramref name=\"k\"/> (in schema order; {n}: the end) starts: found by walking, checked, from the last one known.</summary>\nprivate int SbeStart(int k)\n{{\nif (k < _known)\n{{\n_known = 0;\n_at = _offset + _blockLength;\n}}\nwhile (_known < k)\n{{\n_at = SbeSkip(_buffer, _at, _known, _version, _path);\n_known++;\n}}\nreturn _at;\n}}");
        let _ = writeln!(o, "\n/// <summary>Where group or var data <paramref name=\"k\"/>, starting at <paramref name=\"p\"/>, ends (checked).</summary>\ninternal static int SbeSkip(ReadOnlySpan<byte> b, int p, int k, int version, in SbePath path)\n{{\nswitch (k)\n{{\n{}default:\nreturn p;\n}}\n}}", skips.iter().map(|s| format!("{s}\n")).collect::<String>());
        let _ = writeln!(o, "\n/// <summary>Where the groups and var data starting at <paramref name=\"p\"/> end (checked).</summary>\ninternal static int SbeSkipAll(ReadOnlySpan<byte> b, int p, int version, in SbePath path)\n{{\nfor (int k = 0; k < {n}; k++)\n{{\np = SbeSkip(b, p, k, version, path);\n}}\nreturn p;\n}}");
        o.push_str(&nested);
        let mut js = String::new();
        for (i, j) in json.iter().enumerate() {
            if i > 0 {
                js.push_str("sb.Append(',');\n");
            }
            js.push_str(j);
            js.push('\n');
        }
        (o, js, members)
    }

    /// A group's decoder types, nested in its parent's decoder: the group (an enumerator of
    /// its entries) and the entry.
    fn group_decoder(&self, g: &Group, parent: &At) -> String {
        let gx = pascal(&g.name);
        let dim = self.s.composite(&g.dimension);
        let dim_len = dim.encoded_length.max(0);
        let gpath = str_lit(&format!("{}.{}", parent.template, g.name));
        let epath = format!("{}.{}[]", parent.template, g.name);
        let bl_read =
            dim_member(dim, "blockLength", "b", "p").unwrap_or_else(|| g.block_length.to_string());
        let count_read = dim_member(dim, "numInGroup", "b", "p").unwrap_or_else(|| "0".into());
        let bl_off = dim.member("blockLength").map_or(0, |m| m.offset);
        let needs = g.body.min_block();
        let at = At {
            dec: format!("{}.{gx}Decoder", parent.dec),
            template: epath.clone(),
            entry: true,
        };
        let n = g.body.groups.len() + g.body.var_data.len();
        let epath_lit = str_lit(&epath);
        let too_short = if needs > 0 {
            let cond = if self.s.version > 0 {
                format!("version >= {} && ", self.s.version)
            } else {
                String::new()
            };
            format!("if ({cond}bl < {needs})\n{{\nthrow SbeSupport.BlockTooShort(p + {bl_off}, bl, {needs}, {gpath}, path);\n}}\n")
        } else {
            String::new()
        };
        let walk = if n == 0 {
            format!("long end = (long)q + count * bl;\nif (end > b.Length)\n{{\nlong i = bl == 0 ? 0 : (b.Length - q) / bl;\nthrow SbeSupport.Truncated(b.Length, (int)(q + i * bl), bl, {epath_lit}, path.With((int)i));\n}}\nreturn (int)end;")
        } else {
            format!("for (int i = 0; i < count; i++)\n{{\nvar entry = path.With(i);\nSbeSupport.Fits(b.Length, q, bl, {epath_lit}, entry);\nq = {gx}Decoder.SbeSkipAll(b, q + bl, version, entry);\n}}\nreturn q;")
        };
        let header = format!("SbeSupport.Fits(b.Length, p, {dim_len}, {gpath}, path);\nint bl = (int){bl_read};\nlong count = (long){count_read};\n{too_short}");
        let (entry_members, entry_json, _) =
            self.body_decoder(&g.body, &at, &format!("{gx}Encoder"));
        let d = doc(g.description.as_deref(), &g.name);
        format!("\n{d}\n/// <remarks>The entries of group <c>{name}</c>: <c>foreach (var e in decoder.{gx})</c>.</remarks>\npublic ref struct {gx}GroupDecoder\n{{\nprivate readonly ReadOnlySpan<byte> _buffer;\nprivate readonly int _version;\nprivate readonly int _blockLength;\nprivate readonly int _count;\nprivate readonly SbePath _path;\nprivate int _index;\nprivate int _entry;\n\n/// <summary>Reads the group's header at <paramref name=\"at\"/> (-1: the group is absent, no entries).</summary>\npublic {gx}GroupDecoder(ReadOnlySpan<byte> buffer, int at, int version, SbePath path)\n{{\n_buffer = buffer;\n_version = version;\n_path = path;\n_index = -1;\nif (at < 0)\n{{\n_blockLength = 0;\n_count = 0;\n_entry = 0;\nreturn;\n}}\nReadOnlySpan<byte> b = buffer;\nint p = at;\n{header}_blockLength = bl;\n_count = (int)Math.Min(count, int.MaxValue);\n_entry = p + {dim_len};\n}}\n\n/// <summary>The number of entries.</summary>\npublic int Count => _count;\n\n/// <summary>The entries' block length (the writer's).</summary>\npublic int ActingBlockLength => _blockLength;\n\n/// <summary>The enumerator of the entries (the group itself).</summary>\npublic {gx}GroupDecoder GetEnumerator() => this;\n\n/// <summary>Moves to the next entry (checked: an entry that does not fit is <c>truncated</c>).</summary>\npublic bool MoveNext()\n{{\nif (_index + 1 >= _count)\n{{\n_index = _count;\nreturn false;\n}}\nint next = _index < 0 ? _entry : {gx}Decoder.SbeSkipAll(_buffer, _entry + _blockLength, _version, _path.With(_index));\n_index++;\nSbeSupport.Fits(_buffer.Length, next, _blockLength, {epath_lit}, _path.With(_index));\n_entry = next;\nreturn true;\n}}\n\n/// <summary>The current entry.</summary>\npublic {gx}Decoder Current => new {gx}Decoder(_buffer, _entry, _blockLength, _version, _path.With(_index));\n\n/// <summary>Where the group starting at <paramref name=\"p\"/> ends (checked).</summary>\ninternal static int SbeSkip(ReadOnlySpan<byte> b, int p, int version, in SbePath path)\n{{\n{header}int q = p + {dim_len};\n{walk}\n}}\n}}\n\n{d}\n/// <remarks>An entry of group <c>{name}</c>.</remarks>\npublic ref struct {gx}Decoder\n{{\n/// <summary>The entry's block length at the schema's version.</summary>\npublic const int BlockLength = {bl};\n\nprivate readonly ReadOnlySpan<byte> _buffer;\nprivate readonly int _offset;\nprivate readonly int _blockLength;\nprivate readonly int _version;\nprivate readonly SbePath _path;\nprivate int _known;\nprivate int _at;\n\n/// <summary>Reads the entry whose block (checked by the group) is at <paramref name=\"offset\"/>.</summary>\npublic {gx}Decoder(ReadOnlySpan<byte> buffer, int offset, int blockLength, int actingVersion, SbePath path)\n{{\n_buffer = buffer;\n_offset = offset;\n_blockLength = blockLength;\n_version = actingVersion;\n_path = path;\n_known = 0;\n_at = offset + blockLength;\n}}\n\n/// <summary>The acting version (the writer's).</summary>\npublic int {av} => _version;\n\n/// <summary>The entry's block length (the writer's).</summary>\npublic int {abl} => _blockLength;\n{entry_members}\n/// <summary>Appends the entry's canonical JSON object.</summary>\npublic StringBuilder AppendJson(StringBuilder sb)\n{{\nsb.Append('{{');\n{entry_json}sb.Append('}}');\nreturn sb;\n}}\n\n/// <summary>The entry's canonical JSON object.</summary>\npublic override string ToString() => AppendJson(new StringBuilder()).ToString();\n}}\n", name = g.name, bl = g.block_length, av = super::messages::own(&g.body, "ActingVersion"), abl = super::messages::own(&g.body, "ActingBlockLength"))
    }

    /// The members of a body's encoder beyond its constructors: setters, groups, var data.
    pub(super) fn body_encoder(&self, body: &Body, at: &At, enc: &str, fields: &str) -> String {
        let mut o = fields.to_owned();
        let n = body.groups.len() + body.var_data.len();
        let mut nested = String::new();
        for (k, g) in body.groups.iter().enumerate() {
            let gx = pascal(&g.name);
            let d = doc(g.description.as_deref(), &g.name);
            let dim = self.s.composite(&g.dimension);
            let dim_len = dim.encoded_length.max(0);
            let gpath = str_lit(&format!("{}.{}", at.template, g.name));
            let gfield = if at.entry {
                format!("_path.Format({gpath})")
            } else {
                gpath.clone()
            };
            let (max, count_type) = match dim.primitive("numInGroup") {
                Some((_, p)) => (
                    p.max_value
                        .as_i128()
                        .unwrap_or(0)
                        .clamp(0, i128::from(i32::MAX)),
                    p.primitive_type,
                ),
                None => (0, PrimitiveType::UInt16),
            };
            let mut hdr = String::new();
            for m in &dim.members {
                if let TypeRef::Primitive(p) = &m.type_ref {
                    if p.is_constant() || p.is_array() {
                        continue;
                    }
                    let t = cs_type(p.primitive_type);
                    let v = match m.name.as_str() {
                        "blockLength" => format!("({t}){}", g.block_length),
                        "numInGroup" => format!("({t})count"),
                        _ => lit(&p.null_value, p.primitive_type),
                    };
                    hdr.push_str(&write(
                        "_buffer",
                        &format!("p + {}", m.offset),
                        p.primitive_type,
                        p.byte_order,
                        &v,
                    ));
                    hdr.push('\n');
                }
            }
            let _ = count_type;
            let _ = writeln!(o, "\n{d}\n/// <remarks>Writes the group's header for <paramref name=\"count\"/> entries (at most {max}: else <c>countTooLarge</c>); then call <c>Next()</c> once per entry.</remarks>\npublic {gx}Encoder {gx}Count(int count)\n{{\nint p = SbeStart({k});\nif (count < 0 || count > {max})\n{{\nthrow SbeSupport.EncodeError(p, {gfield}, SbeErrorKind.CountTooLarge, \"count \" + count + \" outside 0..{max}\");\n}}\nSbeSupport.Room(_buffer.Length, p, {dim_len}, {gpath}, _path);\n{hdr}_known = {k};\n_at = p;\nreturn new {gx}Encoder(_buffer, p + {dim_len}, count, _path);\n}}");
            nested.push_str(&self.group_encoder(g, at));
        }
        for (k, v) in (body.groups.len()..).zip(&body.var_data) {
            let vx = pascal(&v.name);
            let d = doc(v.description.as_deref(), &v.name);
            let ls = v.length_size();
            let lp = &v.length;
            let max = lp
                .max_value
                .as_i128()
                .unwrap_or(0)
                .clamp(0, i128::from(i32::MAX) - 16);
            let vpath = str_lit(&format!("{}.{}", at.template, v.name));
            let vfield = if at.entry {
                format!("_path.Format({vpath})")
            } else {
                vpath.clone()
            };
            let t = cs_type(lp.primitive_type);
            let wl = write(
                "_buffer",
                "p",
                lp.primitive_type,
                lp.byte_order,
                &format!("({t})value.Length"),
            );
            let utf8 = if is_utf8(v.character_encoding.as_deref()) {
                "true"
            } else {
                "false"
            };
            let want = if utf8 == "true" {
                "Encoding.UTF8.GetByteCount(value)"
            } else {
                "value.Length"
            };
            let _ = writeln!(o, "\n{d}\n/// <remarks>Writes the length and the bytes (at most {max}: else <c>lengthTooLarge</c>).</remarks>\npublic {enc} {vx}(ReadOnlySpan<byte> value)\n{{\nint p = SbeStart({k});\nif (value.Length > {max})\n{{\nthrow SbeSupport.EncodeError(p, {vfield}, SbeErrorKind.LengthTooLarge, \"length \" + value.Length + \" above {max}\");\n}}\nSbeSupport.Room(_buffer.Length, p, {ls} + value.Length, {vpath}, _path);\n{wl}\nvalue.CopyTo(_buffer.Slice(p + {ls}));\n_known = {k1};\n_at = p + {ls} + value.Length;\nreturn this;\n}}", k1 = k + 1);
            if v.is_text() {
                let _ = writeln!(o, "\n{d}\n/// <remarks>Writes text (UTF-8, or a byte a character up to U+00FF) without allocating.</remarks>\npublic {enc} {vx}(string value)\n{{\nint p = SbeStart({k});\nint room = Math.Min(_buffer.Length - p - {ls}, {max});\nint n = room < 0 ? -1 : SbeSupport.PutText(value, _buffer.Slice(p + {ls}, room), {utf8}, false);\nif (n < 0)\n{{\nint want = {want};\nif (want > {max})\n{{\nthrow SbeSupport.EncodeError(p, {vfield}, SbeErrorKind.LengthTooLarge, \"length \" + want + \" above {max}\");\n}}\nSbeSupport.Room(_buffer.Length, p, {ls} + want, {vpath}, _path);\n}}\n{}\n_known = {k1};\n_at = p + {ls} + n;\nreturn this;\n}}", write("_buffer", "p", lp.primitive_type, lp.byte_order, &format!("({t})n")), k1 = k + 1);
            }
        }
        let _ = writeln!(o, "\n/// <summary>Where group or var data <paramref name=\"k\"/> starts: after the ones before it, as written (walked, checked, from the last one known).</summary>\nprivate int SbeStart(int k)\n{{\nif (k < _known)\n{{\n_known = 0;\n_at = _offset + BlockLength;\n}}\nwhile (_known < k)\n{{\n_at = {}.SbeSkip(_buffer, _at, _known, SchemaVersion, _path);\n_known++;\n}}\nreturn _at;\n}}", at.dec);
        let _ = n;
        o.push_str(&nested);
        o
    }

    fn group_encoder(&self, g: &Group, parent: &At) -> String {
        let gx = pascal(&g.name);
        let epath = format!("{}.{}[]", parent.template, g.name);
        let at = At {
            dec: format!("{}.{gx}Decoder", parent.dec),
            template: epath.clone(),
            entry: true,
        };
        let enc = format!("{gx}Encoder");
        let place = Place::Block {
            template: epath.clone(),
            entry: true,
        };
        let members = self.members(&self.slots(&g.body), &place, &enc);
        let body = self.body_encoder(&g.body, &at, &enc, &members.encoder);
        let n = g.body.groups.len() + g.body.var_data.len();
        let d = doc(g.description.as_deref(), &g.name);
        let gpath = str_lit(&format!("{}.{}", parent.template, g.name));
        format!("\n{d}\n/// <remarks>Writes the entries of group <c>{name}</c>: <c>Next()</c> before each, then its fields (any order), groups and var data (in schema order).</remarks>\npublic ref struct {enc}\n{{\n/// <summary>The entry's block length.</summary>\npublic const int BlockLength = {bl};\n/// <summary>The schema's version.</summary>\npublic const int SchemaVersion = {sv};\n\nprivate Span<byte> _buffer;\nprivate readonly int _count;\nprivate readonly SbePath _parent;\nprivate int _index;\nprivate int _offset;\nprivate SbePath _path;\nprivate int _known;\nprivate int _at;\n\n/// <summary>Writes <paramref name=\"count\"/> entries from <paramref name=\"first\"/>.</summary>\npublic {enc}(Span<byte> buffer, int first, int count, SbePath parent)\n{{\n_buffer = buffer;\n_count = count;\n_parent = parent;\n_index = -1;\n_offset = first;\n_path = parent;\n_known = 0;\n_at = first;\n}}\n\n/// <summary>The entries the group holds (its header's count).</summary>\npublic int Count => _count;\n\n/// <summary>Moves to the next entry (after the current one's groups and var data) and returns the encoder.</summary>\npublic {enc} Next()\n{{\nif (_index + 1 >= _count)\n{{\nthrow SbeSupport.EncodeError(_offset, _parent.Format({gpath}), SbeErrorKind.IndexOutOfRange, \"more entries than the count \" + _count);\n}}\nint p = _index < 0 ? _offset : SbeStart({n});\n_index++;\n_path = _parent.With(_index);\nSbeSupport.Room(_buffer.Length, p, BlockLength, {epath_lit}, _path);\n_offset = p;\n_known = 0;\n_at = p + BlockLength;\nreturn this;\n}}\n{body}}}\n", name = g.name, bl = g.block_length, sv = self.s.version, epath_lit = str_lit(&epath))
    }
}

/// An expression reading member `name` of dimension composite `dim` at `buf[at + offset]`.
fn dim_member(dim: &Composite, name: &str, buf: &str, at: &str) -> Option<String> {
    let (m, p) = dim.primitive(name)?;
    if p.is_constant() {
        return Some(lit(p.const_value.as_ref()?, p.primitive_type));
    }
    Some(read(
        buf,
        &format!("{at} + {}", m.offset),
        p.primitive_type,
        p.byte_order,
    ))
}

//! Enums, sets and composites.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Gen<'_> {
    pub(super) fn enum_type(&mut self, e: &EnumType) {
        let en = pascal(&e.name);
        let t = cs_type(e.encoding_type);
        let mut o = format!(
            "{}\npublic enum {en} : {t}\n{{\n",
            doc(e.description.as_deref(), &e.name)
        );
        for v in &e.values {
            let _ = writeln!(
                o,
                "{}\n{} = {},",
                doc(v.description.as_deref(), &v.name),
                pascal(&v.name),
                lit(&v.value, e.encoding_type)
            );
        }
        let _ = writeln!(
            o,
            "/// <summary>The null value: no value.</summary>\n{NULL_MEMBER} = {},\n}}\n",
            lit(&e.null_value, e.encoding_type)
        );
        let _ = writeln!(o, "/// <summary>Names and JSON of <see cref=\"{en}\"/> values.</summary>\npublic static class {en}Extensions\n{{\n/// <summary>The value's name in the schema; <c>null</c> for the null value and values with no name.</summary>\npublic static string SbeName(this {en} value)\n{{\nswitch (value)\n{{");
        for v in &e.values {
            let _ = writeln!(
                o,
                "case {en}.{}:\nreturn {};",
                pascal(&v.name),
                str_lit(&v.name)
            );
        }
        let _ = writeln!(o, "default:\nreturn null;\n}}\n}}\n");
        let _ = writeln!(o, "/// <summary>Appends the value's canonical JSON: its name, <c>null</c> (the null value or none), or <c>{{\"unknown\":N}}</c>.</summary>\npublic static void AppendJson(StringBuilder sb, {en}? value)\n{{\nif (!value.HasValue || value.Value == {en}.{NULL_MEMBER})\n{{\nsb.Append(\"null\");\nreturn;\n}}\nswitch (value.Value)\n{{");
        for v in &e.values {
            let _ = writeln!(
                o,
                "case {en}.{}:\n{}\nreturn;",
                pascal(&v.name),
                append(&json_str(&v.name))
            );
        }
        let _ = writeln!(o, "default:\nsb.Append(\"{{\\\"unknown\\\":\");\nSbeJson.Int(sb, ({t})value.Value);\nsb.Append('}}');\nreturn;\n}}\n}}\n}}");
        self.w(o);
    }

    pub(super) fn set_type(&mut self, st: &SetType) {
        let sn = pascal(&st.name);
        let t = cs_type(st.encoding_type);
        let bits = st.encoding_type.size() * 8;
        let mut o = format!(
            "{}\n[Flags]\npublic enum {sn} : {t}\n{{\n",
            doc(st.description.as_deref(), &st.name)
        );
        for c in &st.choices {
            let _ = writeln!(
                o,
                "{}\n{} = ({t})(1UL << {}),",
                doc(c.description.as_deref(), &c.name),
                pascal(&c.name),
                c.bit
            );
        }
        o.push_str("}\n\n");
        let _ = writeln!(o, "/// <summary>The JSON of <see cref=\"{sn}\"/> values.</summary>\npublic static class {sn}Extensions\n{{\n/// <summary>Appends the set's canonical JSON: its choices' names in order, then the numbers of set bits that name no choice.</summary>\npublic static void AppendJson(StringBuilder sb, {sn} value)\n{{\nulong bits = (ulong)value;\nbool first = true;\nsb.Append('[');");
        for c in &st.choices {
            let _ = writeln!(o, "if ((bits & (1UL << {})) != 0)\n{{\nif (!first)\n{{\nsb.Append(',');\n}}\nfirst = false;\n{}\n}}", c.bit, append(&json_str(&c.name)));
        }
        let known: u64 = st
            .choices
            .iter()
            .filter(|c| c.bit < 64)
            .fold(0, |a, c| a | (1u64 << c.bit));
        let _ = writeln!(o, "for (int i = 0; i < {bits}; i++)\n{{\nif ((bits & (1UL << i)) != 0 && ({known}UL & (1UL << i)) == 0)\n{{\nif (!first)\n{{\nsb.Append(',');\n}}\nfirst = false;\nSbeJson.Int(sb, i);\n}}\n}}\nsb.Append(']');\n}}\n}}");
        self.w(o);
    }

    pub(super) fn composite(&mut self, c: &Composite) {
        let cn = pascal(&c.name);
        let len = c.encoded_length.max(0);
        let d = doc(c.description.as_deref(), &c.name);
        let slots: Vec<Slot<'_>> = c
            .members
            .iter()
            .map(|m| Slot {
                name: &m.name,
                desc: m.description.as_deref(),
                type_ref: &m.type_ref,
                presence: member_presence(self.s, m),
                const_enum: None,
                offset: m.offset,
                since: m.since_version,
                id: None,
            })
            .collect();
        let enc = format!("{cn}Encoder");
        let members = self.members(&slots, &Place::Composite(c.name.clone()), &enc);
        let mut json = String::new();
        for (i, j) in members.json.iter().enumerate() {
            if i > 0 {
                json.push_str("sb.Append(',');\n");
            }
            json.push_str(j);
            json.push('\n');
        }
        let depth = self.comp_depth(&c.name);
        // Only an encoder that can fail carries where it lies (its path's id, entry indices).
        let (ctx_fields, ctx_doc, ctx_params, ctx_assign, ctx_alone, field_fn) = if self
            .comp_fallible(&c.name)
        {
            let alone = self.uses.type_ids.get(&c.name).copied().unwrap_or(0);
            (
                    format!("private int _path;\n{}", super::body::idx_fields(depth)),
                    "; errors name the path <paramref name=\"path\"/> of <c>SbeSchema.SbeCompositePaths</c>, <c>[]</c> filled from the entry indices",
                    format!(", int path{}", super::body::idx_params(depth)),
                    format!("_path = path;\n{}", super::body::idx_assign(depth)),
                    format!("_path = {alone};\n{}", (0..depth).map(|i| format!("_i{i} = 0;\n")).collect::<String>()),
                    format!("\nprivate string SbeField(string member) => SbeSupport.Path(SbeSchema.SbeCompositePaths[_path] + \".\" + member{});\n", super::body::idx_args("_i", depth)),
                )
        } else {
            (
                String::new(),
                "",
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            )
        };
        let o = format!("{d}\n/// <remarks>Reads the composite over a caller's buffer.</remarks>\npublic ref struct {cn}Decoder\n{{\n/// <summary>The composite's size in bytes.</summary>\npublic const int EncodedLength = {len};\n\n/// <summary>The composite's bytes when it is absent: each member's null value (each element's for an array, no choice for a set, padding zero), so that its getters read an absent composite without a test.</summary>\ninternal static readonly byte[] SbeNulls = {nulls};\n\nprivate ReadOnlySpan<byte> _buffer;\nprivate int _offset;\nprivate int _version;\n\n/// <summary>Reads the composite at <paramref name=\"offset\"/> of <paramref name=\"buffer\"/>; <paramref name=\"present\"/> false: every member absent.</summary>\n/// <exception cref=\"ArgumentOutOfRangeException\">A present composite that does not fit in the buffer.</exception>\npublic {cn}Decoder(ReadOnlySpan<byte> buffer, int offset, bool present, int actingVersion)\n{{\nif (present && (offset < 0 || offset + EncodedLength > buffer.Length))\n{{\nthrow SbeSupport.CompositeOutside(offset, EncodedLength, buffer.Length);\n}}\n_buffer = buffer;\n_offset = offset;\n_version = present ? Math.Max(actingVersion, 0) : -1;\nif (!present)\n{{\n_buffer = SbeNulls;\n_offset = 0;\n}}\n}}\n\n/// <summary>Reads the composite at <paramref name=\"offset\"/> (within a block its codec checked) at <paramref name=\"version\"/>; an absent one (-1) is read from <see cref=\"SbeNulls\"/>.</summary>\ninternal {cn}Decoder(ReadOnlySpan<byte> buffer, int offset, int version)\n{{\n_buffer = buffer;\n_offset = offset;\n_version = version;\n}}\n\n/// <summary>Whether the composite is on the wire.</summary>\npublic bool IsPresent => _version >= 0;\n\n/// <summary>The acting version (the writer's); -1 when the composite is absent.</summary>\npublic int ActingVersion => _version;\n{}\n/// <summary>Appends the composite's canonical JSON object.</summary>\npublic StringBuilder AppendJson(StringBuilder sb)\n{{\nsb.Append('{{');\n{json}sb.Append('}}');\nreturn sb;\n}}\n\n/// <summary>The composite's canonical JSON object.</summary>\npublic override string ToString() => AppendJson(new StringBuilder()).ToString();\n}}\n\n{d}\n/// <remarks>Writes the composite into a caller's buffer (each setter as a statement, <c>SetX</c>, or fluent, returning the encoder).</remarks>\npublic ref struct {enc}\n{{\n/// <summary>The composite's size in bytes.</summary>\npublic const int EncodedLength = {len};\n\nprivate Span<byte> _buffer;\nprivate int _offset;\n{ctx_fields}\n/// <summary>Writes the composite at <paramref name=\"offset\"/> (within a block that fits){ctx_doc}.</summary>\ninternal {enc}(Span<byte> buffer, int offset{ctx_params})\n{{\n_buffer = buffer;\n_offset = offset;\n{ctx_assign}}}\n\n/// <summary>Writes the composite at the start of <paramref name=\"buffer\"/>.</summary>\n/// <exception cref=\"SbeEncodeException\"><c>bufferTooShort</c>: the buffer is shorter than the composite.</exception>\npublic {enc}(Span<byte> buffer)\n{{\nif (buffer.Length < EncodedLength)\n{{\nthrow SbeSupport.BufferTooShort(buffer.Length, 0, EncodedLength, {name_lit});\n}}\n_buffer = buffer;\n_offset = 0;\n{ctx_alone}}}\n{field_fn}{}}}", members.decoder, members.encoder, name_lit = str_lit(&c.name), nulls = byte_array(&self.s.composite_null(c)));
        self.w(o);
    }
}

/// A C# `byte[]` initializer of `bytes`.
fn byte_array(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "new byte[0]".to_owned();
    }
    let items: Vec<String> = bytes.iter().map(|b| format!("0x{b:02X}")).collect();
    format!("{{ {} }}", items.join(", "))
}

/// A composite member's presence: an enum member's encoding presence decides.
fn member_presence(s: &Schema, m: &Member) -> Presence {
    match &m.type_ref {
        TypeRef::Primitive(p) if p.is_constant() => Presence::Constant,
        TypeRef::Enum(_) | TypeRef::Set(_) => m.presence,
        _ => {
            let _ = s;
            m.presence
        }
    }
}

//! Bodies (a message's, a group entry's): their blocks, groups and var data, decoded and
//! encoded; where each group and var data starts is found by walking the ones before it
//! (checked), and remembered while the codec is used through one variable.
//!
//! Codecs of a group entry carry the indices of the entries they lie in (outermost first) as
//! plain `int` fields `_i0`, `_i1`, ... (as many as the entry's depth, known when generating),
//! and build a field path from them only to report an error: mono's JIT copies a codec at every
//! chained call, so every byte a codec carries costs on every setter.

#[allow(clippy::wildcard_imports)]
use super::*;

/// A body's place: its decoder and encoder types (qualified), its fields' path template.
pub(super) struct At {
    /// The qualified name of the body's decoder type (`CarDecoder`, `CarDecoder.FuelFiguresDecoder`).
    pub dec: String,
    /// Its path template: `fields`, `fields.fuelFigures[]`.
    pub template: String,
    /// The entry indices its codecs carry: 0 for a message, the nesting depth for an entry.
    pub depth: usize,
}

/// `, int i0, int i1` for `n` indices.
pub(super) fn idx_params(n: usize) -> String {
    (0..n).map(|i| format!(", int i{i}")).collect()
}

/// `, {p}0, {p}1` for `n` indices.
pub(super) fn idx_args(p: &str, n: usize) -> String {
    (0..n).map(|i| format!(", {p}{i}")).collect()
}

/// The fields `_i0` ... of `n` indices.
pub(super) fn idx_fields(n: usize) -> String {
    (0..n).map(|i| format!("private int _i{i};\n")).collect()
}

/// `_i0 = i0;` ... for `n` indices.
pub(super) fn idx_assign(n: usize) -> String {
    (0..n).map(|i| format!("_i{i} = i{i};\n")).collect()
}

/// The C# expression of path `template` (a literal) with the indices `{p}0` ... filled in.
pub(super) fn path_expr(template: &str, p: &str, n: usize) -> String {
    let t = str_lit(template);
    if n == 0 {
        t
    } else {
        format!("SbeSupport.Path({t}{})", idx_args(p, n))
    }
}

/// Whether a codec of `body` reads or writes its buffer: not when nothing of it is on the wire
/// (only constants), and then it has no buffer field (mcs warns of a field never read, CS0414).
pub(super) fn on_wire(body: &Body) -> bool {
    body.fields.iter().any(|f| !f.is_constant())
        || !body.groups.is_empty()
        || !body.var_data.is_empty()
}

/// Whether a body's codecs carry their message codec's owner number (see `SbeWalks`): an entry
/// with groups (it notes where they end, for its group's walk), and a message with a group whose
/// entries are not all the same size (noted when read or written whole). Nothing is ever noted
/// for a message whose groups all have same-size entries: its codecs take no number.
pub(super) fn keeps_owner(body: &Body, depth: usize) -> bool {
    if depth > 0 {
        !body.groups.is_empty()
    } else {
        body.groups.iter().any(|g| !fixed_entries(g))
    }
}

/// Whether a group's entries are all the same size (no groups or var data of their own).
pub(super) fn fixed_entries(g: &Group) -> bool {
    g.body.groups.is_empty() && g.body.var_data.is_empty()
}

/// The body of `SbeNotedEnd` for a body of groups only: where they end, each looked up in what
/// is noted (`SbeWalks`), -1 when one is not; one return (mono inlines it with fewer copies).
fn noted_groups(body: &Body) -> String {
    let mut o = "int q = p;\n".to_owned();
    for (k, g) in body.groups.iter().enumerate() {
        let mut cond = Vec::new();
        if k > 0 {
            cond.push("q >= 0".to_owned());
        }
        if g.since_version > 0 {
            cond.push(format!("version >= {}", g.since_version));
        }
        if cond.is_empty() {
            o.push_str("q = SbeWalks.End(owner, q);\n");
        } else {
            let _ = write!(
                o,
                "if ({})\n{{\nq = SbeWalks.End(owner, q);\n}}\n",
                cond.join(" && ")
            );
        }
    }
    o.push_str("return q;");
    o
}

/// Statements reading a var data's length at `{q}` of `b` into `long {n}`, checked (`truncated`).
fn var_data_length(v: &VarData, b: &str, q: &str, n: &str, path: &str, idx: &str) -> String {
    let ls = v.length_size();
    let big = v.length.byte_order == sable_ir::ByteOrder::BigEndian;
    let read_len = if ls == 8 {
        format!("SbeSupport.VarDataLength({b}, {q}, 8, {big})")
    } else {
        format!(
            "(long){}",
            read(b, q, v.length.primitive_type, v.length.byte_order)
        )
    };
    format!("if ({q} + {ls} > {b}.Length)\n{{\nthrow SbeSupport.Truncated({b}.Length, {q}, {ls}, {path}{idx});\n}}\nlong {n} = {read_len};\nif ({q} + {ls} + {n} > {b}.Length)\n{{\nthrow SbeSupport.Truncated({b}.Length, {q}, {ls} + {n}, {path}{idx});\n}}\n")
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

    /// Statements reading group `g`'s dimension at `{at}` of span `b` into `int {bl}` and
    /// `long {count}`, checked (`truncated`, `blockLengthTooShort`; `version` is in scope);
    /// `gpath` the group's path literal, `idx` the indices of the body it lies in (`, i0`).
    #[allow(clippy::too_many_arguments)]
    fn dim_read(
        &self,
        g: &Group,
        at: &str,
        bl: &str,
        count: &str,
        w: &str,
        gpath: &str,
        idx: &str,
    ) -> String {
        let dim = self.s.composite(&g.dimension);
        let dim_len = dim.encoded_length.max(0);
        let bl_off = dim.member("blockLength").map_or(0, |m| m.offset);
        let needs = g.body.min_block();
        let member = |name: &str, fallback: &str| -> (String, bool) {
            match dim.primitive(name) {
                Some((_, p)) if p.is_constant() => (
                    p.const_value
                        .as_ref()
                        .map_or_else(|| fallback.to_owned(), |v| lit(v, p.primitive_type)),
                    false,
                ),
                Some((m, p)) => (
                    read(
                        "b",
                        &format!("{at} + {}", m.offset),
                        p.primitive_type,
                        p.byte_order,
                    ),
                    true,
                ),
                None => (fallback.to_owned(), false),
            }
        };
        let (mut bl_read, _) = member("blockLength", &g.block_length.to_string());
        let (mut count_read, _) = member("numInGroup", "0");
        let mut word_read = String::new();
        if let Some(word) = Word::of(dim) {
            word_read = format!("{} {w} = {};\n", word.ty(), word.read("b", at));
            if let Some((m, p)) = dim
                .primitive("blockLength")
                .filter(|(_, p)| !p.is_constant())
            {
                bl_read = word.get(w, m.offset, p.primitive_type);
            }
            if let Some((m, p)) = dim
                .primitive("numInGroup")
                .filter(|(_, p)| !p.is_constant())
            {
                count_read = word.get(w, m.offset, p.primitive_type);
            }
        }
        let too_short = if needs > 0 {
            let cond = if self.s.version > 0 {
                format!("version >= {} && ", self.s.version)
            } else {
                String::new()
            };
            format!("if ({cond}{bl} < {needs})\n{{\nthrow SbeSupport.BlockTooShort({at} + {bl_off}, {bl}, {needs}, {gpath}{idx});\n}}\n")
        } else {
            String::new()
        };
        format!("if ({at} + {dim_len} > b.Length)\n{{\nthrow SbeSupport.Truncated(b.Length, {at}, {dim_len}, {gpath}{idx});\n}}\n{word_read}int {bl} = (int){bl_read};\nlong {count} = (long){count_read};\n{too_short}")
    }

    /// Statements moving int `q` (where group `g` starts, in a body whose path is `template` and
    /// indices `idx`) past the group, checked; `level` names the locals of this nesting level.
    fn walk_group(&self, g: &Group, template: &str, idx: &str, level: usize) -> String {
        let dim_len = self.s.composite(&g.dimension).encoded_length.max(0);
        let gpath = str_lit(&format!("{template}.{}", g.name));
        let etemplate = format!("{template}.{}[]", g.name);
        let epath = str_lit(&etemplate);
        let (bl, c, w) = (
            format!("bl{level}"),
            format!("c{level}"),
            format!("w{level}"),
        );
        // A group noted by the codec that read or wrote it is not walked again.
        let mut o = format!("{{\nint h{level} = SbeWalks.End(owner, q);\nif (h{level} >= 0)\n{{\nq = h{level};\n}}\nelse\n{{\n{}q += {dim_len};\n", self.dim_read(g, "q", &bl, &c, &w, &gpath, idx));
        if fixed_entries(g) {
            let _ = write!(o, "long e{level} = (long)q + {c} * {bl};\nif (e{level} > b.Length)\n{{\nlong j = {bl} == 0 ? 0 : (b.Length - q) / {bl};\nthrow SbeSupport.Truncated(b.Length, (int)(q + j * {bl}), {bl}, {epath}{idx}, (int)j);\n}}\nq = (int)e{level};\n");
        } else {
            let j = format!("j{level}");
            let inner = self.walk_items(&g.body, &etemplate, &format!("{idx}, {j}"), level + 1);
            let _ = write!(o, "for (int {j} = 0; {j} < {c}; {j}++)\n{{\nif (q + {bl} > b.Length)\n{{\nthrow SbeSupport.Truncated(b.Length, q, {bl}, {epath}{idx}, {j});\n}}\nq += {bl};\n{inner}}}\n");
        }
        o.push_str("}\n}\n");
        o
    }

    /// Statements moving int `q` past the groups and var data of `body` (its path `template`,
    /// its indices `idx`), checked: the walks written out flat, one loop per group.
    fn walk_items(&self, body: &Body, template: &str, idx: &str, level: usize) -> String {
        let mut o = String::new();
        for g in &body.groups {
            let walk = self.walk_group(g, template, idx, level);
            if g.since_version > 0 {
                let _ = write!(o, "if (version >= {})\n{walk}", g.since_version);
            } else {
                o.push_str(&walk);
            }
        }
        for v in &body.var_data {
            let path = str_lit(&format!("{template}.{}", v.name));
            let n = format!("n{level}");
            let walk = format!(
                "{{\n{}q += {} + (int){n};\n}}\n",
                var_data_length(v, "b", "q", &n, &path, idx),
                v.length_size()
            );
            if v.since_version > 0 {
                let _ = write!(o, "if (version >= {})\n{walk}", v.since_version);
            } else {
                o.push_str(&walk);
            }
        }
        o
    }

    /// Statements moving int `q` past the groups and var data of `body` from what is noted
    /// (`SbeWalks`), returning -1 when a group's end is not noted or a var data does not fit.
    fn known_items(&self, body: &Body) -> String {
        let mut o = String::new();
        for g in &body.groups {
            let cond = if g.since_version > 0 {
                format!("version >= {} && ", g.since_version)
            } else {
                String::new()
            };
            let _ = write!(
                o,
                "if ({cond}(q = SbeWalks.End(owner, q)) < 0)\n{{\nreturn -1;\n}}\n"
            );
        }
        for v in &body.var_data {
            let ls = v.length_size();
            let big = v.length.byte_order == sable_ir::ByteOrder::BigEndian;
            let read_len = if ls == 8 {
                format!("SbeSupport.VarDataLength(b, q, 8, {big})")
            } else {
                format!(
                    "(long){}",
                    read("b", "q", v.length.primitive_type, v.length.byte_order)
                )
            };
            let walk = format!("{{\nif (q + {ls} > b.Length)\n{{\nreturn -1;\n}}\nlong n = {read_len};\nif (q + {ls} + n > b.Length)\n{{\nreturn -1;\n}}\nq += {ls} + (int)n;\n}}\n");
            if v.since_version > 0 {
                let _ = write!(o, "if (version >= {})\n{walk}", v.since_version);
            } else {
                o.push_str(&walk);
            }
        }
        o
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
            depth: at.depth,
        };
        let d = at.depth;
        let slots = self.slots(body);
        let mut members = self.members(&slots, &place, enc);
        self.flat_members(body, &place, enc, &mut members);
        let mut o = members.decoder.clone();
        let mut json = members.json.clone();
        let mut nested = String::new();
        let n = body.groups.len() + body.var_data.len();
        let mut skips = Vec::new();
        let my_idx = idx_args("_i", d);
        let pi = idx_args("i", d);
        // See keeps_owner and SbeWalks.
        let has_owner = keeps_owner(body, d);
        let owner = if has_owner { "_owner" } else { "0" };
        // A group's end noted by the codec that read it (see SbeWalks) spares the walk; no
        // other item starts where a group does, so the note is looked up for any item.
        let noted = if !has_owner {
            ""
        } else {
            "int e = SbeWalks.End(_owner, _at);\nif (e >= 0)\n{\n_at = e;\n_known++;\ncontinue;\n}\n"
        };
        // Where item k starts: known, else (after a group of varying entries) its end noted by
        // the loop that read it, looked up inline (a call to SbeFind costs mono more than the
        // lookup), else walked.
        let start = |k: usize| -> String {
            match k.checked_sub(1).and_then(|j| body.groups.get(j)) {
                Some(prev) if has_owner && !fixed_entries(prev) => format!("int p = _at;\nif (_known != {k})\n{{\np = _known == {j} ? SbeWalks.End(_owner, _at) : -1;\nif (p >= 0)\n{{\n_known = {k};\n_at = p;\n}}\nelse\n{{\np = SbeFind({k});\n}}\n}}\n", j = k - 1),
                _ => format!("int p = SbeStart({k});\n"),
            }
        };
        for (k, g) in body.groups.iter().enumerate() {
            let gx = pascal(&g.name);
            let doc_ = doc(g.description.as_deref(), &g.name);
            let go = if fixed_entries(g) { "" } else { ", _owner" };
            let absent = if g.since_version > 0 {
                format!("if (_version < {})\n{{\nreturn new {gx}Decoder(_buffer, -1, _version{go}{my_idx});\n}}\n", g.since_version)
            } else {
                String::new()
            };
            // A group of fixed-size entries ends where its header says: the decoder learns that
            // end when the group is opened (if it fits), so what follows is found without a walk.
            // In an entry, the end is noted too, for the entry's group walking past it.
            let learn = if fixed_entries(g) {
                let note = if d > 0 {
                    "SbeWalks.Note(_owner, p, (int)end);\n"
                } else {
                    ""
                };
                format!("long end = g.SbeEnd;\nif (end <= _buffer.Length)\n{{\n_known = {};\n_at = (int)end;\n{note}}}\n", k + 1)
            } else {
                String::new()
            };
            let _ = writeln!(o, "\n{doc_}\n/// <remarks>Its entries, usable with <c>foreach</c>; empty when absent at the acting version.</remarks>\npublic {gx}Decoder {gx}\n{{\nget\n{{\n{absent}{start_k}var g = new {gx}Decoder(_buffer, p, _version{go}{my_idx});\n{learn}return g;\n}}\n}}", start_k = start(k));
            let _ = writeln!(o, "/// <summary>The id of group <c>{}</c>.</summary>\npublic const int {gx}Id = {};\n/// <summary>The version group <c>{}</c> appeared in.</summary>\npublic const int {gx}SinceVersion = {};", g.name, g.id, g.name, g.since_version);
            json.push(format!("{}\nif (_version < {})\n{{\nsb.Append(\"null\");\n}}\nelse\n{{\nsb.Append('[');\nbool first{k} = true;\nforeach (var e in {gx})\n{{\nif (!first{k})\n{{\nsb.Append(',');\n}}\nfirst{k} = false;\ne.AppendJson(sb);\n}}\nsb.Append(']');\n}}", append(&format!("{}:", json_str(&g.name))), g.since_version));
            skips.push(format!("case {k}:\nreturn version >= {} ? {gx}Decoder.SbeSkipGroup(b, p, version, owner{pi}) : p;", g.since_version));
            nested.push_str(&self.group_decoder(g, at));
        }
        for (k, v) in (body.groups.len()..).zip(&body.var_data) {
            let vx = pascal(&v.name);
            let doc_ = doc(v.description.as_deref(), &v.name);
            let ls = v.length_size();
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
            let absent = if v.since_version > 0 {
                format!(
                    "if (_version < {})\n{{\nreturn default(ReadOnlySpan<byte>);\n}}\n",
                    v.since_version
                )
            } else {
                String::new()
            };
            let check = var_data_length(v, "_buffer", "p", "n", &path, &my_idx);
            let _ = writeln!(o, "\n{doc_}\n/// <remarks>The bytes, without copying (empty when absent at the acting version).</remarks>\npublic ReadOnlySpan<byte> {bytes}\n{{\nget\n{{\n{absent}{start_k}{check}_known = {k1};\n_at = p + {ls} + (int)n;\nreturn _buffer.Slice(p + {ls}, (int)n);\n}}\n}}", k1 = k + 1, start_k = start(k));
            let _ = writeln!(o, "/// <summary>The id of var data <c>{}</c>.</summary>\npublic const int {vx}Id = {};\n/// <summary>The version var data <c>{}</c> appeared in.</summary>\npublic const int {vx}SinceVersion = {};", v.name, v.id, v.name, v.since_version);
            let value = if v.is_text() {
                let _ = writeln!(o, "\n{doc_}\n/// <remarks>As text (allocates a string; <see cref=\"{bytes}\"/> does not).</remarks>\npublic string {vx} => SbeSupport.Text({bytes}, {utf8});");
                format!("var b{k} = {bytes};\nSbeJson.Text(sb, b{k}, b{k}, {utf8});")
            } else {
                format!("SbeJson.Hex(sb, {bytes});")
            };
            json.push(format!(
                "{}\nif (_version < {})\n{{\nsb.Append(\"null\");\n}}\nelse\n{{\n{value}\n}}",
                append(&format!("{}:", json_str(&v.name))),
                v.since_version
            ));
            let skip_check = var_data_length(v, "b", "p", "n", &path, &pi);
            skips.push(format!("case {k}:\nif (version < {})\n{{\nreturn p;\n}}\nelse\n{{\n{skip_check}return p + {ls} + (int)n;\n}}", v.since_version));
        }
        if n > 0 {
            let _ = writeln!(o, "\n/// <summary>Where group or var data <paramref name=\"k\"/> (in schema order; {n}: the end) starts: known, or found by walking (<see cref=\"SbeFind\"/>).</summary>\nprivate int SbeStart(int k)\n{{\nreturn _known == k ? _at : SbeFind(k);\n}}\n\n/// <summary>Where group or var data <paramref name=\"k\"/> starts, found by walking, checked, from the last one known.</summary>\nprivate int SbeFind(int k)\n{{\nif (k < _known)\n{{\n_known = 0;\n_at = _offset + _blockLength;\n}}\nwhile (_known < k)\n{{\n{noted}_at = SbeSkip(_buffer, _at, _known, _version, {owner}{my_idx});\n_known++;\n}}\nreturn _at;\n}}");
        }
        let _ = writeln!(o, "\n/// <summary>Where group or var data <paramref name=\"k\"/>, starting at <paramref name=\"p\"/>, ends (checked).</summary>\ninternal static int SbeSkip(ReadOnlySpan<byte> b, int p, int k, int version, long owner{})\n{{\nswitch (k)\n{{\n{}default:\nreturn p;\n}}\n}}", idx_params(d), skips.iter().map(|s| format!("{s}\n")).collect::<String>());
        let _ = writeln!(o, "\n/// <summary>Where the groups and var data starting at <paramref name=\"p\"/> end (checked).</summary>\ninternal static int SbeSkipAll(ReadOnlySpan<byte> b, int p, int version, long owner{})\n{{\nint q = p;\n{}return q;\n}}", idx_params(d), self.walk_items(body, &at.template, &pi, 0));
        if d > 0 && n > 0 {
            // Without var data, only notes are looked up: no span to pass, inlined.
            let (name, buffer) = if body.var_data.is_empty() {
                ("SbeNotedEnd", "")
            } else {
                ("SbeSkipKnown", "ReadOnlySpan<byte> b, ")
            };
            let known = if body.var_data.is_empty() {
                noted_groups(body)
            } else {
                format!("int q = p;\n{}return q;", self.known_items(body))
            };
            let _ = writeln!(o, "\n/// <summary>Where the groups and var data starting at <paramref name=\"p\"/> end, when every group's end was noted (<see cref=\"SbeWalks\"/>) and the var data fit; else -1.</summary>\ninternal static int {name}({buffer}int p, int version, long owner)\n{{\n{known}\n}}");
        }
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

    /// A group's decoder, nested in its parent's decoder: one type, the group (an enumerator of
    /// its entries, `Count`) and its current entry (the entry's fields, groups and var data), as
    /// `Current` gives the group itself. mono's JIT keeps structs in memory and copies them at
    /// each call: an entry decoder made per entry cost about 17 instructions an entry.
    fn group_decoder(&self, g: &Group, parent: &At) -> String {
        let gx = pascal(&g.name);
        let d = parent.depth;
        let e = d + 1;
        let dim = self.s.composite(&g.dimension);
        let dim_len = dim.encoded_length.max(0);
        let gpath = str_lit(&format!("{}.{}", parent.template, g.name));
        let epath = format!("{}.{}[]", parent.template, g.name);
        let epath_lit = str_lit(&epath);
        let at = At {
            dec: format!("{}.{gx}Decoder", parent.dec),
            template: epath.clone(),
            depth: e,
        };
        let fixed = fixed_entries(g);
        let pi = idx_args("i", d);
        let header = self.dim_read(g, "p", "bl", "count", "w", &gpath, &pi);
        // Counts of up to 32 bits signed fit an int as they are.
        let small_count = dim.primitive("numInGroup").map_or(true, |(_, p)| {
            matches!(
                p.primitive_type,
                PrimitiveType::UInt8
                    | PrimitiveType::Int8
                    | PrimitiveType::UInt16
                    | PrimitiveType::Int16
                    | PrimitiveType::Int32
            )
        });
        let count = if small_count {
            "(int)count"
        } else {
            "(int)Math.Min(count, int.MaxValue)"
        };
        let (entry_members, entry_json, _) =
            self.body_decoder(&g.body, &at, &format!("{gx}Encoder"));
        let doc_ = doc(g.description.as_deref(), &g.name);
        // The entry's indices: its parents' (`_i0` ...), then its own (`_i{d}`, -1 before the
        // first `MoveNext`).
        let own = format!("_i{d}");
        let pa = idx_assign(d);
        let pp = idx_params(d);
        let mine = idx_args("_i", d);
        let n_entry = g.body.groups.len() + g.body.var_data.len();
        // Fixed-size entries: the entries that fit are counted once, when the group is read, so
        // moving to the next one tests its index only.
        // Where the current entry ends: known to this variable when its last group or var data
        // was read through it (a `MoveNext` loop), else from what is noted (a `foreach` reads
        // each entry through a copy; -1: not noted; see body_decoder).
        let known = |p: &str| {
            let noted = if g.body.var_data.is_empty() {
                format!("SbeNotedEnd({p}, _version, _owner)")
            } else {
                format!("SbeSkipKnown(_buffer, {p}, _version, _owner)")
            };
            format!("_known == {n_entry} ? _at : {noted}")
        };
        let (group_fields, limit_absent, limit_init, end, move_next) = if fixed {
            (
                "private int _limit;\n",
                "_limit = 0;\n",
                // Statements, not `?:` (mono's JIT copies the span less).
                format!("_offset = p + {dim_len} - bl;\n_limit = _count;\nif ((long)p + {dim_len} + (long)_count * bl > b.Length && bl != 0)\n{{\n_limit = (b.Length - p - {dim_len}) / bl;\n}}\n"),
                "\n/// <summary>Where the group ends, all its entries counted (before the first <c>MoveNext</c>).</summary>\ninternal long SbeEnd => (long)_offset + ((long)_count + 1) * _blockLength;\n".to_owned(),
                format!("public bool MoveNext()\n{{\nint i = {own} + 1;\nif (i < _limit)\n{{\n{own} = i;\n_offset += _blockLength;\nreturn true;\n}}\nif (i >= _count)\n{{\n{own} = _count;\nreturn false;\n}}\nthrow SbeTruncated(i);\n}}\n\n/// <summary>The error of entry <paramref name=\"i\"/>, the first that does not fit.</summary>\nprivate SbeDecodeException SbeTruncated(int i)\n{{\nreturn SbeSupport.Truncated(_buffer.Length, _offset + _blockLength, _blockLength, {epath_lit}{mine}, i);\n}}"),
            )
        } else {
            (
                "private long _owner;\nprivate int _start;\n",
                "_owner = owner;\n_start = 0;\n",
                format!("_owner = owner;\n_start = p;\n_offset = p + {dim_len};\n"),
                String::new(),
                format!("public bool MoveNext()\n{{\nint i = {own} + 1;\nif (i >= _count)\n{{\nif ({own} < _count)\n{{\nSbeNoteEnd();\n}}\n{own} = _count;\nreturn false;\n}}\nint next = _offset;\nif (i > 0)\n{{\nint q = _offset + _blockLength;\nnext = {known_q};\nif (next < 0)\n{{\nnext = SbeSkipAll(_buffer, q, _version, _owner{mine}, {own});\n}}\n}}\nif (next + _blockLength > _buffer.Length)\n{{\nthrow SbeSupport.Truncated(_buffer.Length, next, _blockLength, {epath_lit}{mine}, i);\n}}\n{own} = i;\n_offset = next;\n_known = 0;\n_at = next + _blockLength;\nreturn true;\n}}\n\n/// <summary>Notes where the group ends (<see cref=\"SbeWalks\"/>), if what follows the last entry's block is known.</summary>\n[MethodImpl(MethodImplOptions.AggressiveInlining)]\nprivate void SbeNoteEnd()\n{{\nint end = {own} < 0 ? _offset : {known_end};\nif (end >= 0)\n{{\nSbeWalks.Note(_owner, _start, end);\n}}\n}}", known_q = known("q"), known_end = known("_offset + _blockLength")),
            )
        };
        // The walk through the current entry's groups and var data (see body_decoder).
        let (walk_fields, walk_init) = if n_entry > 0 {
            (
                "private int _known;\nprivate int _at;\n",
                "_known = 0;\n_at = 0;\n",
            )
        } else {
            ("", "")
        };
        let owner_param = if fixed { "" } else { ", long owner" };
        // A message's group of same-size entries has a short constructor, run once: inlined, it
        // saves instructions on both runtimes. Not a nested group's, inlined into its outer
        // group's loop (more locals there: RyuJIT 3.1 ran the Car decode 10% slower), nor the
        // others (see NOT_INLINED).
        let ctor_inlining = if fixed && d == 0 { INLINE } else { NOT_INLINED };
        let skip = format!(
            "int q = p;\n{}return q;",
            self.walk_group(g, &parent.template, &pi, 0)
        );
        let absent = if g.since_version > 0 {
            format!("if (at < 0)\n{{\n_blockLength = 0;\n_count = 0;\n_offset = 0;\n{limit_absent}{walk_init}return;\n}}\n")
        } else {
            String::new()
        };
        let (count_name, av, abl) = (
            super::messages::own(&g.body, "Count"),
            super::messages::own(&g.body, "ActingVersion"),
            super::messages::own(&g.body, "ActingBlockLength"),
        );
        format!("\n{doc_}\n/// <remarks>The entries of group <c>{name}</c>, and the current one: <c>foreach (var e in decoder.{gx})</c> gives this decoder at each entry, its fields read from that entry.</remarks>\npublic ref struct {gx}Decoder\n{{\n/// <summary>The entry's block length at the schema's version.</summary>\npublic const int BlockLength = {bl};\n\nprivate ReadOnlySpan<byte> _buffer;\nprivate int _offset;\nprivate int _blockLength;\nprivate int _version;\nprivate int _count;\n{group_fields}{walk_fields}{ef}\n/// <summary>Reads the group's header at <paramref name=\"at\"/> (-1: the group is absent, no entries).</summary>\n{ctor_inlining}\ninternal {gx}Decoder(ReadOnlySpan<byte> buffer, int at, int version{owner_param}{pp})\n{{\n_buffer = buffer;\n_version = version;\n{own} = -1;\n{pa}{absent}ReadOnlySpan<byte> b = buffer;\nint p = at;\n{header}_blockLength = bl;\n_count = {count};\n{limit_init}{walk_init}}}\n\n/// <summary>The number of entries.</summary>\npublic int {count_name} => _count;\n\n/// <summary>The acting version (the writer's).</summary>\npublic int {av} => _version;\n\n/// <summary>The entries' block length (the writer's).</summary>\npublic int {abl} => _blockLength;\n{end}\n/// <summary>The enumerator of the entries (the group itself).</summary>\npublic {gx}Decoder GetEnumerator() => this;\n\n/// <summary>Moves to the next entry (checked: an entry that does not fit is <c>truncated</c>).</summary>\n{move_next}\n\n/// <summary>The current entry: the group itself, read at that entry.</summary>\npublic {gx}Decoder Current => this;\n\n/// <summary>Where the group starting at <paramref name=\"p\"/> ends (checked).</summary>\ninternal static int SbeSkipGroup(ReadOnlySpan<byte> b, int p, int version, long owner{pp})\n{{\n{skip}\n}}\n{entry_members}\n/// <summary>Appends the current entry's canonical JSON object.</summary>\npublic StringBuilder AppendJson(StringBuilder sb)\n{{\nsb.Append('{{');\n{entry_json}sb.Append('}}');\nreturn sb;\n}}\n\n/// <summary>The current entry's canonical JSON object.</summary>\npublic override string ToString() => AppendJson(new StringBuilder()).ToString();\n}}\n", name = g.name, bl = g.block_length, ef = idx_fields(e))
    }

    /// The members of a body's encoder beyond its constructors: setters, groups, var data.
    pub(super) fn body_encoder(&self, body: &Body, at: &At, enc: &str, fields: &str) -> String {
        let mut o = fields.to_owned();
        let d = at.depth;
        let my_idx = idx_args("_i", d);
        let mut nested = String::new();
        let n = body.groups.len() + body.var_data.len();
        // Every entry with groups or var data carries the owner number, and a message when
        // keeps_owner says (see SbeWalks); writing a group's count or a var data forgets the
        // note, and the last entry of a group notes the group's end once its last item is
        // written.
        let has_owner = d > 0 || keeps_owner(body, d);
        let owner = if has_owner { "_owner" } else { "0" };
        let noted = if !has_owner || body.groups.is_empty() {
            ""
        } else {
            "int e = SbeWalks.End(_owner, _at);\nif (e >= 0)\n{\n_at = e;\n_known++;\ncontinue;\n}\n"
        };
        let forget = if has_owner {
            "SbeWalks.Forget();\n"
        } else {
            ""
        };
        let note_if_last = |k1: usize, end: &str| -> String {
            if d > 0 && k1 == n {
                format!(
                    "if (_i{} == _count - 1)\n{{\nSbeWalks.Note(_owner, _start, {end});\n}}\n",
                    d - 1
                )
            } else {
                String::new()
            }
        };
        for (k, g) in body.groups.iter().enumerate() {
            let gx = pascal(&g.name);
            let doc_ = doc(g.description.as_deref(), &g.name);
            let dim = self.s.composite(&g.dimension);
            let dim_len = dim.encoded_length.max(0);
            let gtemplate = format!("{}.{}", at.template, g.name);
            let gpath = str_lit(&gtemplate);
            let gfield = path_expr(&gtemplate, "_i", d);
            let max = match dim.primitive("numInGroup") {
                Some((_, p)) => p
                    .max_value
                    .as_i128()
                    .unwrap_or(0)
                    .clamp(0, i128::from(i32::MAX)),
                None => 0,
            };
            let mut hdr = String::new();
            let word = Word::of(dim);
            let mut bits = 0u64;
            let mut parts = Vec::new();
            for m in &dim.members {
                if let (Some(w), TypeRef::Primitive(p)) = (&word, &m.type_ref) {
                    if p.is_constant() {
                        continue;
                    }
                    match m.name.as_str() {
                        "blockLength" => {
                            bits |= w.put_const(m.offset, p.primitive_type, g.block_length as i128);
                        }
                        "numInGroup" => parts.push(w.put(m.offset, p.primitive_type, "count")),
                        _ => {
                            bits |= w.put_const(
                                m.offset,
                                p.primitive_type,
                                p.null_value.as_i128().unwrap_or(0),
                            );
                        }
                    }
                    continue;
                }
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
            if let Some(w) = &word {
                let suffix = if w.size == 8 { "UL" } else { "U" };
                parts.insert(0, format!("0x{bits:x}{suffix}"));
                hdr = format!("{}\n", w.write("_buffer", "p", &parts.join(" | ")));
            }
            // Fixed-size entries end where the count says: what follows the group is known
            // now (when it fits the buffer), without walking the entries once written.
            let learn = if fixed_entries(g) {
                format!("long end = (long)p + {dim_len} + (long)count * {};\nif (end <= _buffer.Length)\n{{\n_known = {};\n_at = (int)end;\n{}}}\nelse\n{{\n_known = {k};\n_at = p;\n}}\n", g.block_length, k + 1, note_if_last(k + 1, "_at"))
            } else {
                // An empty group ends at its header.
                format!("if (count == 0)\n{{\n_known = {};\n_at = p + {dim_len};\n{}}}\nelse\n{{\n_known = {k};\n_at = p;\n}}\n", k + 1, note_if_last(k + 1, "_at"))
            };
            let go = if fixed_entries(g) {
                String::new()
            } else {
                ", _owner, p".to_owned()
            };
            let _ = writeln!(o, "\n{doc_}\n/// <remarks>Writes the group's header for <paramref name=\"count\"/> entries (at most {max}: else <c>countTooLarge</c>); then call <c>MoveNext()</c> (or <c>Next()</c>) once per entry.</remarks>\n{NOT_INLINED}\npublic {gx}Encoder {gx}Count(int count)\n{{\nint p = SbeStart({k});\n{forget}if (count < 0 || count > {max})\n{{\nthrow SbeSupport.EncodeError(p, {gfield}, SbeErrorKind.CountTooLarge, \"count \" + count + \" outside 0..{max}\");\n}}\nif (p + {dim_len} > _buffer.Length)\n{{\nthrow SbeSupport.BufferTooShort(_buffer.Length, p, {dim_len}, {gpath}{my_idx});\n}}\n{hdr}{learn}return new {gx}Encoder(_buffer, p + {dim_len}, count{go}{my_idx});\n}}");
            nested.push_str(&self.group_encoder(g, at));
        }
        for (k, v) in (body.groups.len()..).zip(&body.var_data) {
            let vx = pascal(&v.name);
            let doc_ = doc(v.description.as_deref(), &v.name);
            let ls = v.length_size();
            let lp = &v.length;
            let max = lp
                .max_value
                .as_i128()
                .unwrap_or(0)
                .clamp(0, i128::from(i32::MAX) - 16);
            let vtemplate = format!("{}.{}", at.template, v.name);
            let vpath = str_lit(&vtemplate);
            let vfield = path_expr(&vtemplate, "_i", d);
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
            let _ = writeln!(o, "\n{doc_}\n/// <remarks>Writes the length and the bytes (at most {max}: else <c>lengthTooLarge</c>).</remarks>\npublic {enc} {vx}(ReadOnlySpan<byte> value)\n{{\nint p = SbeStart({k});\n{forget}if (value.Length > {max})\n{{\nthrow SbeSupport.EncodeError(p, {vfield}, SbeErrorKind.LengthTooLarge, \"length \" + value.Length + \" above {max}\");\n}}\nif ((long)p + {ls} + value.Length > _buffer.Length)\n{{\nthrow SbeSupport.BufferTooShort(_buffer.Length, p, {ls} + value.Length, {vpath}{my_idx});\n}}\n{wl}\nvalue.CopyTo(_buffer.Slice(p + {ls}));\n_known = {k1};\n_at = p + {ls} + value.Length;\n{note}return this;\n}}", k1 = k + 1, note = note_if_last(k + 1, "_at"));
            if v.is_text() {
                let _ = writeln!(o, "\n{doc_}\n/// <remarks>Writes text (UTF-8, or a byte a character up to U+00FF) without allocating.</remarks>\npublic {enc} {vx}(string value)\n{{\nint p = SbeStart({k});\n{forget}int room = Math.Min(_buffer.Length - p - {ls}, {max});\nint n = room < 0 ? -1 : SbeSupport.PutText(value, _buffer.Slice(p + {ls}, room), {utf8}, false);\nif (n < 0)\n{{\nint want = {want};\nif (want > {max})\n{{\nthrow SbeSupport.EncodeError(p, {vfield}, SbeErrorKind.LengthTooLarge, \"length \" + want + \" above {max}\");\n}}\nthrow SbeSupport.BufferTooShort(_buffer.Length, p, {ls} + want, {vpath}{my_idx});\n}}\n{}\n_known = {k1};\n_at = p + {ls} + n;\n{note}return this;\n}}", write("_buffer", "p", lp.primitive_type, lp.byte_order, &format!("({t})n")), k1 = k + 1, note = note_if_last(k + 1, "_at"));
            }
        }
        if n > 0 {
            let _ = writeln!(o, "\n/// <summary>Where group or var data <paramref name=\"k\"/> starts: known, or found by walking (<see cref=\"SbeFind\"/>).</summary>\nprivate int SbeStart(int k)\n{{\nreturn _known == k ? _at : SbeFind(k);\n}}\n\n/// <summary>Where group or var data <paramref name=\"k\"/> starts: after the ones before it, as written (walked, checked, from the last one known).</summary>\nprivate int SbeFind(int k)\n{{\nif (k < _known)\n{{\n_known = 0;\n_at = _offset + BlockLength;\n}}\nwhile (_known < k)\n{{\n{noted}_at = {}.SbeSkip(_buffer, _at, _known, SchemaVersion, {owner}{my_idx});\n_known++;\n}}\nreturn _at;\n}}", at.dec);
        }
        o.push_str(&nested);
        o
    }

    fn group_encoder(&self, g: &Group, parent: &At) -> String {
        let gx = pascal(&g.name);
        let d = parent.depth;
        let e = d + 1;
        let epath = format!("{}.{}[]", parent.template, g.name);
        let at = At {
            dec: format!("{}.{gx}Decoder", parent.dec),
            template: epath.clone(),
            depth: e,
        };
        let enc = format!("{gx}Encoder");
        let place = Place::Block {
            template: epath.clone(),
            depth: e,
        };
        let mut members = self.members(&self.slots(&g.body), &place, &enc);
        self.flat_members(&g.body, &place, &enc, &mut members);
        let body = self.body_encoder(&g.body, &at, &enc, &members.encoder);
        let n = g.body.groups.len() + g.body.var_data.len();
        let doc_ = doc(g.description.as_deref(), &g.name);
        let gfield = path_expr(&format!("{}.{}", parent.template, g.name), "_i", d);
        let own = format!("_i{d}");
        let owner_params = if n > 0 { ", long owner, int start" } else { "" };
        let ef = idx_fields(e);
        let pa = idx_assign(d);
        let pp = idx_params(d);
        let all = idx_args("_i", d);
        let dim = self.s.composite(&g.dimension);
        let dim_len = dim.encoded_length.max(0);
        let (fields, init, next, count) = if n > 0 {
            (
                "private int _count;\nprivate long _owner;\nprivate int _start;\nprivate int _known;\nprivate int _at;\n",
                "_count = count;\n_owner = owner;\n_start = start;\n_offset = first;\n_known = 0;\n_at = first;\n".to_owned(),
                format!("public {enc} Next()\n{{\nint i = {own} + 1;\nif (i >= _count)\n{{\nthrow SbeSupport.EncodeError(_offset, {gfield}, SbeErrorKind.IndexOutOfRange, \"more entries than the count \" + _count);\n}}\nint p = i == 0 ? _offset : SbeStart({n});\nif (p + BlockLength > _buffer.Length)\n{{\nthrow SbeSupport.BufferTooShort(_buffer.Length, p, BlockLength, {epath_lit}{all}, i);\n}}\n{own} = i;\n_offset = p;\n_known = 0;\n_at = p + BlockLength;\nreturn this;\n}}", epath_lit = str_lit(&epath)),
                "_count".to_owned(),
            )
        } else {
            // Fixed-size entries: the entries that fit are counted once, when the group starts,
            // so moving to the next one tests its index only.
            // The count is read back from the header, when needed (an error, Count): one int
            // less to copy at every chained setter.
            let first = if g.block_length == 0 {
                "_offset".to_owned()
            } else {
                format!("(_offset - {own} * BlockLength)")
            };
            let count = match dim.primitive("numInGroup") {
                Some((m, p)) if !p.is_constant() => format!(
                    "(int){}",
                    read(
                        "_buffer",
                        &format!("{first} - {} + {}", dim_len, m.offset),
                        p.primitive_type,
                        p.byte_order
                    )
                ),
                _ => "0".to_owned(),
            };
            (
                "private int _limit;\n",
                if g.block_length == 0 {
                    "_offset = first;\n_limit = count;\n".to_owned()
                } else {
                    "_offset = first - BlockLength;\n_limit = (long)first + (long)count * BlockLength <= buffer.Length ? count : (buffer.Length - first) / BlockLength;\n".to_owned()
                },
                format!("public {enc} Next()\n{{\nint i = {own} + 1;\nif (i >= _limit)\n{{\nthrow SbeNextError(i);\n}}\n{own} = i;\n_offset += BlockLength;\nreturn this;\n}}\n\n/// <summary>The error of moving to entry <paramref name=\"i\"/>: beyond the count, or not fitting in the buffer.</summary>\nprivate SbeEncodeException SbeNextError(int i)\n{{\nint count = {count};\nif (i >= count)\n{{\nreturn SbeSupport.EncodeError({own} < 0 ? _offset + BlockLength : _offset, {gfield}, SbeErrorKind.IndexOutOfRange, \"more entries than the count \" + count);\n}}\nreturn SbeSupport.BufferTooShort(_buffer.Length, _offset + BlockLength, BlockLength, {epath_lit}{all}, i);\n}}", epath_lit = str_lit(&epath)),
                count,
            )
        };
        format!("\n{doc_}\n/// <remarks>Writes the entries of group <c>{name}</c>: <c>MoveNext()</c> (or <c>Next()</c>) before each, then its fields (any order), groups and var data (in schema order).</remarks>\npublic ref struct {enc}\n{{\n/// <summary>The entry's block length.</summary>\npublic const int BlockLength = {bl};\n/// <summary>The schema's version.</summary>\npublic const int SchemaVersion = {sv};\n\nprivate Span<byte> _buffer;\nprivate int _offset;\n{fields}{ef}\n/// <summary>Writes <paramref name=\"count\"/> entries from <paramref name=\"first\"/>.</summary>\ninternal {enc}(Span<byte> buffer, int first, int count{owner_params}{pp})\n{{\n_buffer = buffer;\n{init}{pa}{own} = -1;\n}}\n\n/// <summary>The entries the group holds (its header's count).</summary>\npublic int Count => {count};\n\n/// <summary>Moves to the next entry (after the current one's groups and var data) and returns the encoder.</summary>\n{next}\n{body}}}\n", name = g.name, bl = g.block_length, sv = self.s.version)
    }
}

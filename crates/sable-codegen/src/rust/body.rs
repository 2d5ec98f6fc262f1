//! A body (a message's or a group entry's): its fields, groups and var data, decoded and encoded, and where it lies in its message.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Gen<'_> {
    /// Decoder methods for a body's fields (in a block of `block_length` bytes at the schema's
    /// version), groups and var data; and the JSON statements of its members (comma separated).
    /// A message's body (`top`) finds its groups and var data as they are read, each read
    /// checked (`sbe_start`); a group entry's were found and checked when its iterator made it
    /// (`sbe_walk`).
    pub(super) fn body_decoder(
        &self,
        body: &Body,
        at: &BodyAt<'_>,
        block_length: usize,
    ) -> (String, String) {
        let top = at.depth == 0;
        let mut o = String::new();
        let mut jsons = Vec::new();
        for fd in &body.fields {
            let kind = self.kind(&fd.type_ref);
            let (g, j) = self.getter(&Slot {
                name: &fd.name,
                desc: fd.description.as_deref(),
                kind,
                presence: fd.presence,
                const_enum: fd.const_enum_value.as_deref(),
                off: fd.offset,
                since: fd.since_version,
                slice: "block",
                full: block_length,
                path: format!("FieldPath::new({})", at.element(&fd.name)),
            });
            o.push_str(&field_meta(fd));
            o.push_str(&g);
            jsons.push(j);
        }
        let mut idx = 0;
        // `e`: the index among the body's groups and var data, in schema order; `idx` the
        // first of their slots in an entry's positions.
        for (e, g) in body.groups.iter().enumerate() {
            let (code, json) = self.group_reads(g, e, idx, at);
            o.push_str(&code);
            jsons.push(json);
            idx += 3;
        }
        for (e, v) in (body.groups.len()..).zip(&body.var_data) {
            let (code, json) = self.var_data_reads(v, e, idx, at);
            o.push_str(&code);
            jsons.push(json);
            idx += 2;
        }
        if top {
            o.push_str(&self.sbe_find(body, at));
        } else {
            o.push_str(&self.sbe_walk(body, at));
        }
        let mut json = String::new();
        for (i, j) in jsons.iter().enumerate() {
            if i > 0 {
                json.push_str(&ws(","));
            }
            json.push_str(j);
            json.push('\n');
        }
        (o, json)
    }

    /// A message's `sbe_start` and `sbe_find`: where its groups and var data start, found as
    /// they are read.
    pub(super) fn sbe_find(&self, body: &Body, at: &BodyAt<'_>) -> String {
        let (path, names, top) = (at.path.as_str(), at.names, at.depth == 0);
        let mut o = String::new();
        let n = elements(body);
        if top && n > 0 {
            let _ = writeln!(o, "\n/// Where group or var data `i` (in schema order; `{n}`: the end of the message) starts: found before, or found now \
                by skipping (checked) the ones between the last found and it.\n#[inline(always)]\nfn sbe_start(&self, i: usize) -> Result<usize, DecodeError> {{\nmatch self.marks.get(i) {{\nSome(p) => Ok(p),\nNone => {{\nlet mut m = self.marks.load();\nlet r = Self::sbe_find(self.buf, self.version, i, &mut m);\nself.marks.store(&m);\nr\n}}\n}}\n}}\n\n\
                /// Finds where group or var data `i` starts, skipping (checked) the ones between the last found and it (recorded in `m`). Out of line, and given copies rather than `self`, so that the decoder's address is never taken.\n#[inline(never)]\nfn sbe_find(\nbuf: &[u8],\nversion: u16,\ni: usize,\nm: &mut sbe_support::Found<{n1}>,\n) -> Result<usize, DecodeError> {{\nlet _ = version;\nloop {{\nif let Some(p) = m.get(i) {{\nreturn Ok(p);\n}}\nlet (j, p) = m.last();\nlet end = match j {{", n1 = n + 1);
            let mut e = 0;
            for g in &body.groups {
                let gname = names.name(path, &g.name);
                let step = format!("{gname}Iter::sbe_skip::<true>(buf, p, version)?.3");
                if g.since_version > 0 {
                    let _ = writeln!(
                        o,
                        "{e} => {{\nif version >= {} {{\n{step}\n}} else {{\np\n}}\n}}",
                        g.since_version
                    );
                } else {
                    let _ = writeln!(o, "{e} => {step},");
                }
                e += 1;
            }
            for v in &body.var_data {
                let (len, end) = var_data_end(v, "buf", &at.element(&v.name));
                let step = format!("{len}{end}");
                if v.since_version > 0 {
                    let _ = writeln!(
                        o,
                        "{e} => {{\nif version >= {} {{\n{step}\n}} else {{\np\n}}\n}}",
                        v.since_version
                    );
                } else {
                    let _ = writeln!(o, "{e} => {{\n{step}\n}}");
                }
                e += 1;
            }
            let _ = writeln!(o, "_ => return Ok(p),\n}};\nm.found(j + 1, end);\n}}\n}}");
        }
        o
    }

    /// An entry's `sbe_walk`: its groups and var data found, and checked, when it is made.
    pub(super) fn sbe_walk(&self, body: &Body, at: &BodyAt<'_>) -> String {
        let (path, names, top) = (at.path.as_str(), at.names, at.depth == 0);
        let mut o = String::new();
        let k = slots(body);
        if !top && k > 0 {
            let _ = writeln!(o, "\n/// Finds the groups and var data from `p` (checked against `buf`; block lengths too with `CHECK`): their positions and the end.\n#[inline]\nfn sbe_walk<const CHECK: bool>(\nbuf: &[u8],\np: usize,\nversion: u16,\n) -> Result<([usize; {k}], usize), DecodeError> {{\nlet mut pos = [0usize; {k}];\nlet mut p = p;\nlet _ = version;");
            let mut i = 0;
            for g in &body.groups {
                let gname = names.name(path, &g.name);
                let step = format!("let (start, count, bl, end) = {gname}Iter::sbe_skip::<CHECK>(buf, p, version)?;\npos[{i}] = start;\npos[{}] = count;\npos[{}] = bl;\np = end;", i + 1, i + 2);
                if g.since_version > 0 {
                    let _ = writeln!(o, "if version >= {} {{\n{step}\n}}", g.since_version);
                } else {
                    let _ = writeln!(o, "{step}");
                }
                i += 3;
            }
            for v in &body.var_data {
                let ls = v.length_size();
                let (len, end) = var_data_end(v, "buf", &at.element(&v.name));
                let step = format!(
                    "{len}let end = {end};\npos[{i}] = p + {ls};\npos[{}] = end;\np = end;",
                    i + 1
                );
                if v.since_version > 0 {
                    let _ = writeln!(
                        o,
                        "if version >= {} {{\n{step}\n}} else {{\npos[{i}] = p;\npos[{}] = p;\n}}",
                        v.since_version,
                        i + 1
                    );
                } else {
                    let _ = writeln!(o, "{step}");
                }
                i += 2;
            }
            let _ = writeln!(o, "Ok((pos, p))\n}}");
        }
        o
    }

    /// Encoder methods for a body: setters at `base`, groups and var data at `limit` (an
    /// lvalue expression).
    pub(super) fn body_encoder(
        &self,
        body: &Body,
        at: &BodyAt<'_>,
        base: &str,
        limit: &str,
    ) -> String {
        let mut o = String::new();
        for fd in &body.fields {
            let slot = Slot {
                name: &fd.name,
                desc: fd.description.as_deref(),
                kind: self.kind(&fd.type_ref),
                presence: fd.presence,
                const_enum: None,
                off: fd.offset,
                since: fd.since_version,
                slice: "block",
                full: 0,
                path: at.path_expr(&fd.name),
            };
            o.push_str(&self.setter(&slot, base, "'_"));
        }
        let idx = if at.depth == 0 {
            "[usize::MAX; PATH_DEPTH]"
        } else {
            "self.idx"
        };
        for g in &body.groups {
            let gname = at.type_name(g);
            let gpath = at.path_expr(&g.name);
            let m = method(&g.name);
            let d = doc(g.description.as_deref());
            let dim = self.s.composite(&g.dimension);
            let dim_len = dim.encoded_length.max(0) as usize;
            let mut hdr = String::new();
            for mem in &dim.members {
                if let TypeRef::Primitive(p) = &mem.type_ref {
                    if p.is_constant() || p.is_array() {
                        continue;
                    }
                    let v = match mem.name.as_str() {
                        "blockLength" => int_lit(g.block_length as i128, p.primitive_type),
                        "numInGroup" => int_lit(0, p.primitive_type),
                        _ => lit(&p.null_value, p.primitive_type),
                    };
                    hdr.push_str(&write("self.buf", &add("at", mem.offset), &v, p.byte_order));
                    hdr.push('\n');
                }
            }
            let _ = writeln!(o, "\n{d}///\n/// Starts the group (with no entries): add them with `next_entry`.\n///\n/// # Errors\n///\n/// No room for the group's header.\n#[inline]\npub fn {m}(&mut self) -> Result<{gname}GroupEncoder<'_>, EncodeError> {{\nlet at = {limit};\n{limit} = sbe_support::room(self.buf.len(), at, {dim_len}, || {gpath})?;\n{hdr}Ok({gname}GroupEncoder {{\nbuf: &mut *self.buf,\nlimit: &mut {limit},\nheader: at,\ncount: 0,\nidx: {idx},\n}})\n}}");
        }
        for v in &body.var_data {
            let m = method(&v.name);
            let vpath = at.path_expr(&v.name);
            let d = doc(v.description.as_deref());
            let ls = v.length_size();
            let lp = &v.length;
            let max = lp
                .max_value
                .as_i128()
                .unwrap_or(0)
                .min(match lp.primitive_type.size() {
                    1 => 255,
                    2 => 65535,
                    4 => u32::MAX as i128,
                    _ => i64::MAX as i128,
                })
                .max(0);
            let t = rtype(lp.primitive_type);
            let wl = write(
                "self.buf",
                "at",
                &format!("value.len() as {t}"),
                lp.byte_order,
            );
            let _ = writeln!(o, "\n{d}///\n/// # Errors\n///\n/// `LengthTooLarge`: longer than its length allows ({max} bytes); `BufferTooShort`: no room.\n#[inline]\npub fn {m}(&mut self, value: &[u8]) -> Result<&mut Self, EncodeError> {{\nlet at = {limit};\nif value.len() as u64 > {max}_u64 {{\nreturn Err(sbe_support::length_too_large(at, {vpath}, value.len(), {max}));\n}}\nlet end = sbe_support::room(self.buf.len(), at, {ls} + value.len(), || {vpath})?;\n{wl}\nif let Some(d) = self.buf.get_mut(at + {ls}..end) {{\nd.copy_from_slice(value);\n}}\n{limit} = end;\nOk(self)\n}}");
        }
        o
    }
}

/// The deepest nesting of groups in a body (0: none).
pub(crate) fn depth(body: &Body) -> usize {
    body.groups
        .iter()
        .map(|g| 1 + depth(&g.body))
        .max()
        .unwrap_or(0)
}

/// The number of a message body's groups and var data.
pub(super) fn elements(body: &Body) -> usize {
    body.groups.len() + body.var_data.len()
}

/// The bytes of block the fields need at the schema's version.
pub(crate) fn min_block(body: &Body) -> usize {
    body.min_block()
}

/// Statements zeroing the bytes of a block no field covers (padding).
pub(super) fn zero_gaps(body: &Body, block_length: usize, buf: &str, base: &str) -> String {
    let mut covered = vec![false; block_length];
    for f in &body.fields {
        if f.is_constant() {
            continue;
        }
        for c in covered.iter_mut().skip(f.offset).take(f.size) {
            *c = true;
        }
    }
    let mut o = String::new();
    let mut i = 0;
    while i < block_length {
        if covered[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < block_length && !covered[i] {
            i += 1;
        }
        let _ = writeln!(
            o,
            "sbe_support::zero({buf}, {}, {});",
            add(base, start),
            i - start
        );
    }
    o
}

/// Where a body lies in its message: for its group types' names and its errors' paths.
pub(super) struct BodyAt<'n> {
    pub(super) names: &'n GroupNames,
    /// The groups above it, `/`-separated (as [`GroupNames`] keys them).
    pub(super) path: String,
    /// Its [`FieldPath`] template: `fields`, `fields.G[]`, `fields.G[].H[]` ...
    pub(super) json: String,
    /// The group entries above it: the nesting depth its groups' entry indices go at.
    pub(super) depth: usize,
}

impl<'n> BodyAt<'n> {
    /// A message's body.
    pub(super) fn message(names: &'n GroupNames) -> Self {
        Self {
            names,
            path: String::new(),
            json: "fields".to_owned(),
            depth: 0,
        }
    }

    /// The body of group `g`'s entries.
    pub(super) fn entry(&self, g: &Group) -> Self {
        Self {
            names: self.names,
            path: format!("{}/{}", self.path, g.name),
            json: format!("{}.{}[]", self.json, g.name),
            depth: self.depth + 1,
        }
    }

    /// The path of an element of the body (group `g`'s header, a var data): `fields.name`.
    pub(super) fn element(&self, name: &str) -> String {
        str_lit(&format!("{}.{name}", self.json))
    }

    /// The Rust expression of the [`FieldPath`] of element `name` in an encoder of the body
    /// (an entry encoder's indices in `self.idx`).
    pub(super) fn path_expr(&self, name: &str) -> String {
        if self.depth == 0 {
            format!("FieldPath::new({})", self.element(name))
        } else {
            format!(
                "FieldPath::new({}).with_indices(self.idx)",
                self.element(name)
            )
        }
    }

    /// The Rust type name of group `g` of the body.
    pub(super) fn type_name(&self, g: &Group) -> String {
        self.names.name(&self.path, &g.name)
    }
}

/// Rust type names of a message's groups: the group's own name, or its path when two groups
/// of the message share a name.
#[derive(Default)]
pub(super) struct GroupNames {
    pub(super) all: Vec<(String, String)>,
}

impl GroupNames {
    pub(super) fn collect(&mut self, body: &Body, path: &str) {
        for g in &body.groups {
            let p = format!("{path}/{}", g.name);
            self.all.push((p.clone(), g.name.clone()));
            self.collect(&g.body, &p);
        }
    }

    pub(super) fn name(&self, path: &str, name: &str) -> String {
        let dup = self
            .all
            .iter()
            .filter(|(_, n)| camel(n) == camel(name))
            .count()
            > 1;
        if dup {
            let full = format!("{path}/{name}");
            full.split('/')
                .filter(|s| !s.is_empty())
                .map(camel)
                .collect::<String>()
        } else {
            camel(name)
        }
    }
}

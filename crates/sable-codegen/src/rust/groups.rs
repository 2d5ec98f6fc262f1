//! Repeating groups: iterators, entry decoders, group and entry encoders.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Gen<'_> {
    /// A message's or an entry's reads of group `g` (the `e`th of its groups and var data; in
    /// an entry, its slots from `idx`): the accessor, and the JSON member's statements.
    pub(super) fn group_reads(
        &self,
        g: &Group,
        e: usize,
        idx: usize,
        at: &BodyAt<'_>,
    ) -> (String, String) {
        let (path, names, top) = (at.path.as_str(), at.names, at.depth == 0);
        let mut o = String::new();
        let gname = names.name(path, &g.name);
        let m = method(&g.name);
        let u = upper(&g.name);
        let d = doc(g.description.as_deref());
        let _ = writeln!(o, "\n/// The id of group `{}`.\npub const {u}_ID: u16 = {};\n/// The version group `{}` appeared in.\npub const {u}_SINCE_VERSION: u16 = {};", g.name, g.id, g.name, g.since_version);
        let absent = if g.since_version > 0 {
            format!(
                " (none when the group is newer than the acting version {})",
                g.since_version
            )
        } else {
            String::new()
        };
        if top {
            let fixed = slots(&g.body) == 0;
            let none = if fixed {
                format!("{gname}Iter {{\nentries: &[],\nremaining: 0,\nblock_length: 0,\nversion: self.version,\n}}")
            } else {
                format!("{gname}Iter {{\nbuf: self.buf,\npos: 0,\ncount: 0,\nremaining: 0,\nblock_length: 0,\nversion: self.version,\nmark: None,\n}}")
            };
            let absent_check = if g.since_version > 0 {
                format!(
                    "if self.version < {} {{\nreturn Ok({none});\n}}\n",
                    g.since_version
                )
            } else {
                String::new()
            };
            if fixed {
                // The header read checks the group whole: its entries are one slice, cut
                // as the iterator goes.
                let _ = writeln!(o, "\n{d}///\n/// An iterator over the entries{absent}.\n///\n/// # Errors\n///\n/// The group's header or entries running past the end of the buffer, or a block length shorter than the entries' fields need (and the same of the groups and var data before it, when not read yet).\n#[inline]\npub fn {m}(&self) -> Result<{gname}Iter<'a>, DecodeError> {{\n{absent_check}let p = self.sbe_start({e})?;\nlet (start, count, bl, end) = {gname}Iter::sbe_skip::<true>(self.buf, p, self.version)?;\nself.marks.found({}, end);\nOk({gname}Iter {{\nentries: self.buf.get(start..end).unwrap_or(&[]),\nremaining: count,\nblock_length: bl,\nversion: self.version,\n}})\n}}", e + 1);
            } else {
                // Entries with groups or var data are checked one by one as the iterator
                // makes them; the iterator records where the group ends once it gets there.
                let _ = writeln!(o, "\n{d}///\n/// An iterator over the entries{absent}, each checked as it is made.\n///\n/// # Errors\n///\n/// The group's header running past the end of the buffer, or a block length shorter than the entries' fields need (and the same of the groups and var data before it, when not read yet).\n#[inline]\npub fn {m}(&self) -> Result<{gname}Iter<'_>, DecodeError> {{\n{absent_check}let p = self.sbe_start({e})?;\nlet (start, count, bl) = {gname}Iter::sbe_open::<true>(self.buf, p, self.version)?;\nOk({gname}Iter {{\nbuf: self.buf,\npos: start,\ncount,\nremaining: count,\nblock_length: bl,\nversion: self.version,\nmark: Some(self.marks.mark({})),\n}})\n}}", e + 1);
            }
            let key = json_str(&g.name);
            let inner = format!(
                "let Ok(it) = self.{m}() else {{\nreturn Err(core::fmt::Error);\n}};\n{}",
                entries_json("it")
            );
            return (o, versioned_member(&key, g.since_version, &inner));
        }
        // The walk checked the group whole: the entries of a group of fixed-size entries are
        // one slice, cut as the iterator goes.
        let storage = if slots(&g.body) == 0 {
            format!("entries: self.buf.get(self.pos[{idx}]..self.pos[{idx}].wrapping_add(self.pos[{}].wrapping_mul(self.pos[{}]))).unwrap_or(&[]),", idx + 1, idx + 2)
        } else {
            format!("buf: self.buf,\npos: self.pos[{idx}],")
        };
        let _ = writeln!(o, "\n{d}///\n/// An iterator over the entries{absent}.\n#[must_use]\n#[inline]\npub fn {m}(&self) -> {gname}Iter<'a> {{\n{gname}Iter {{\n{storage}\nremaining: self.pos[{}],\nblock_length: self.pos[{}],\nversion: self.version,\n}}\n}}", idx + 1, idx + 2);
        let key = json_str(&g.name);
        let inner = entries_json(&format!("self.{m}()"));
        (o, versioned_member(&key, g.since_version, &inner))
    }

    /// The decoder types of a body's groups (recursively): iterators and entry decoders.
    pub(super) fn group_types(&self, body: &Body, at: &BodyAt<'_>) -> String {
        let mut o = String::new();
        for g in &body.groups {
            o.push_str(&self.group_decoder(g, at));
            o.push_str(&self.group_types(&g.body, &at.entry(g)));
        }
        o
    }

    pub(super) fn group_decoder(&self, g: &Group, at: &BodyAt<'_>) -> String {
        let gname = at.type_name(g);
        let path = at.path.as_str();
        let (group_path, entry_path, depth) = (
            at.element(&g.name),
            str_lit(&format!("{}.{}[]", at.json, g.name)),
            at.depth,
        );
        let it = format!("{gname}Iter");
        let dn = format!("{gname}Decoder");
        let dim = self.s.composite(&g.dimension);
        let dim_len = dim.encoded_length.max(0) as usize;
        let k = slots(&g.body);
        let needs = min_block(&g.body);
        let mut o = String::new();
        let dimread =
            |member: &str| member_u64(dim, member, "dim").unwrap_or_else(|| "0_u64".into());
        let d = doc(g.description.as_deref());
        // A message's group of entries with groups or var data checks each entry as it makes
        // it (`checked`), and records in the message where the group ends.
        let checked = path.is_empty() && k > 0;
        let storage = if k == 0 {
            "entries: &'a [u8],"
        } else if checked {
            "buf: &'a [u8],\npos: usize,\ncount: usize,\nmark: Option<sbe_support::Mark<'a>>,"
        } else {
            "buf: &'a [u8],\npos: usize,"
        };
        let _ = writeln!(o, "{d}///\n/// An iterator over the entries of group `{}`.\n#[derive(Debug, Clone)]\npub struct {it}<'a> {{\n{storage}\nremaining: usize,\nblock_length: usize,\nversion: u16,\n}}\n", g.name);
        let bl_off = dim.member("blockLength").map_or(0, |m| m.offset);
        let needs_check = if needs > 0 {
            let cond = if self.s.version > 0 {
                format!("version >= SCHEMA_VERSION && block_length < {needs}")
            } else {
                format!("block_length < {needs}")
            };
            format!("if CHECK && {cond} {{\nsbe_support::cold();\nreturn Err(Self::sbe_too_short({}, block_length));\n}}\n", add("p", bl_off))
        } else {
            String::new()
        };
        let _ = writeln!(o, "impl<'a> {it}<'a> {{\n/// The block length of an entry at the schema's version.\npub const BLOCK_LENGTH: u16 = {};\n/// The size of the group's header (its dimensions).\npub const HEADER_SIZE: usize = {dim_len};", g.block_length);
        o.push_str(&group_errors(
            &group_path,
            &entry_path,
            dim_len,
            needs,
            checked,
        ));
        let _ = writeln!(o, "\n/// Reads and checks the group's header at `p`: (first entry, count, block length).\n#[inline]\nfn sbe_open<const CHECK: bool>(\nbuf: &[u8],\np: usize,\nversion: u16,\n) -> Result<(usize, usize, usize), DecodeError> {{\nlet Some(dim) = sbe_support::get_ref::<{dim_len}>(buf, p) else {{\nsbe_support::cold();\nreturn Err(Self::sbe_header_truncated(p, buf.len()));\n}};\nlet block_length = sbe_support::to_usize({});\nlet count = sbe_support::to_usize({});\nlet _ = version;\n{needs_check}Ok((p + {dim_len}, count, block_length))\n}}",
            dimread("blockLength"), dimread("numInGroup"));
        if k == 0 {
            let _ = writeln!(o, "\n/// Checks the group at `p`: (first entry, count, block length, end).\n#[inline]\npub(super) fn sbe_skip<const CHECK: bool>(\nbuf: &[u8],\np: usize,\nversion: u16,\n) -> Result<(usize, usize, usize, usize), DecodeError> {{\nlet (start, count, bl) = Self::sbe_open::<CHECK>(buf, p, version)?;\nlet end = sbe_support::entries_end(buf, start, bl, count, || FieldPath::new({entry_path}), {depth})?;\nOk((start, count, bl, end))\n}}");
        } else {
            let _ = writeln!(o, "\n/// Checks the group at `p`: (first entry, count, block length, end).\n#[inline]\npub(super) fn sbe_skip<const CHECK: bool>(\nbuf: &[u8],\np: usize,\nversion: u16,\n) -> Result<(usize, usize, usize, usize), DecodeError> {{\nlet (start, count, bl) = Self::sbe_open::<CHECK>(buf, p, version)?;\nlet mut q = start;\nfor i in 0..count {{\nq = sbe_support::span(buf, q, bl, || FieldPath::new({entry_path}).with_index({depth}, i))?;\nq = {dn}::sbe_walk::<CHECK>(buf, q, version).map_err(|e| sbe_support::in_entry(e, {depth}, i))?.1;\n}}\nOk((start, count, bl, q))\n}}");
        }
        let _ = writeln!(o, "\n/// The entries' block length (the writer's).\n#[must_use]\npub fn acting_block_length(&self) -> usize {{\nself.block_length\n}}\n}}\n");
        let next_body = if checked {
            "if self.remaining == 0 {\nif let Some(m) = self.mark.take() {\nm.found(self.pos);\n}\nreturn None;\n}\nmatch self.sbe_entry() {\nOk(e) => Some(Ok(e)),\nErr(e) => {\nself.remaining = 0;\nself.mark = None;\nSome(Err(e))\n}\n}".to_owned()
        } else if k == 0 {
            "if self.block_length == 0 {\nif self.remaining == 0 {\nreturn None;\n}\nself.remaining -= 1;\nreturn Some(Ok(ENTRY {\nblock: &[],\nversion: self.version,\n}));\n}\nlet (block, rest) = self.entries.split_at_checked(self.block_length)?;\nself.entries = rest;\nSome(Ok(ENTRY {\nblock,\nversion: self.version,\n}))".replace("ENTRY", &dn)
        } else {
            "if self.remaining == 0 {\nreturn None;\n}\nlet block = self.buf.get(self.pos..)?.get(..self.block_length)?;\nlet block_end = self.pos + block.len();\nlet (pos, end) = ENTRY::sbe_walk::<false>(self.buf, block_end, self.version).ok()?;\nself.pos = end;\nself.remaining -= 1;\nSome(Ok(ENTRY {\nblock,\nversion: self.version,\nbuf: self.buf,\npos,\n}))".replace("ENTRY", &dn)
        };
        // Entries of a fixed size are counted by the bytes left (the walk checked that the
        // group holds its count of them exactly), so the loop keeps one counter; empty ones
        // by `remaining`.
        let len = if checked {
            "let n = self.remaining;\n(n.min(1), Some(n))"
        } else if k == 0 {
            "let n = self.entries.len().checked_div(self.block_length).unwrap_or(self.remaining);"
        } else {
            "let n = self.remaining;"
        };
        if checked {
            let _ = writeln!(o, "impl<'a> {it}<'a> {{\n/// Checks and makes the next entry (its block, groups and var data).\n#[inline]\nfn sbe_entry(&mut self) -> Result<{dn}<'a>, DecodeError> {{\nlet index = self.count - self.remaining;\nlet Some(block) = self.buf.get(self.pos..).and_then(|b| b.get(..self.block_length)) else {{\nsbe_support::cold();\nreturn Err(Self::sbe_entry_truncated(self.pos, index, self.block_length, self.buf.len()));\n}};\nlet block_end = self.pos + block.len();\nlet (pos, end) = {dn}::sbe_walk::<true>(self.buf, block_end, self.version).map_err(|e| sbe_support::in_entry(e, 0, index))?;\nself.pos = end;\nself.remaining -= 1;\nOk({dn} {{\nblock,\nversion: self.version,\nbuf: self.buf,\npos,\n}})\n}}\n}}\n");
            let _ = writeln!(o, "/// Each entry checked as it is made: an entry that does not fit is an error, and the last item.\nimpl<'a> Iterator for {it}<'a> {{\ntype Item = Result<{dn}<'a>, DecodeError>;\n\n#[inline]\nfn next(&mut self) -> Option<Self::Item> {{\n{next_body}\n}}\n\nfn size_hint(&self) -> (usize, Option<usize>) {{\n{len}\n}}\n}}\n\nimpl core::iter::FusedIterator for {it}<'_> {{}}\n");
        } else {
            let _ = writeln!(o, "impl<'a> Iterator for {it}<'a> {{\ntype Item = Result<{dn}<'a>, DecodeError>;\n\n#[inline]\nfn next(&mut self) -> Option<Self::Item> {{\n{next_body}\n}}\n\nfn size_hint(&self) -> (usize, Option<usize>) {{\n{len}\n(n, Some(n))\n}}\n}}\n\nimpl ExactSizeIterator for {it}<'_> {{}}\n\nimpl core::iter::FusedIterator for {it}<'_> {{}}\n");
        }
        let mut fields = "block: &'a [u8],\nversion: u16,\n".to_owned();
        if k > 0 {
            fields.push_str(&format!("buf: &'a [u8],\npos: [usize; {k}],\n"));
        }
        let _ = writeln!(o, "{d}///\n/// An entry of group `{}`.\n#[derive(Debug, Clone, Copy)]\npub struct {dn}<'a> {{\n{fields}}}\n", g.name);
        let _ = writeln!(o, "impl<'a> {dn}<'a> {{\n/// The acting version (the writer's).\n#[must_use]\npub fn acting_version(&self) -> u16 {{\nself.version\n}}\n\n/// The entry's block length (the writer's).\n#[must_use]\npub fn acting_block_length(&self) -> usize {{\nself.block.len()\n}}");
        let (code, json) = self.body_decoder(&g.body, &at.entry(g), g.block_length);
        o.push_str(&code);
        o.push_str("}\n\n");
        let _ = writeln!(o, "/// The canonical JSON object of the entry.\nimpl core::fmt::Display for {dn}<'_> {{\nfn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{\nf.write_str(\"{{\")?;\n{json}f.write_str(\"}}\")\n}}\n}}\n");
        o
    }

    pub(super) fn group_encoders(&self, body: &Body, at: &BodyAt<'_>) -> String {
        let mut o = String::new();
        for g in &body.groups {
            let gname = at.type_name(g);
            let entry = at.entry(g);
            let (gpath, epath, depth) = (at.element(&g.name), str_lit(&entry.json), at.depth);
            let ge = format!("{gname}GroupEncoder");
            let ee = format!("{gname}Encoder");
            let dim = self.s.composite(&g.dimension);
            let (cm, cp) = match dim.primitive("numInGroup") {
                Some((m, p)) => (m.offset, p.clone()),
                None => continue,
            };
            let ct = rtype(cp.primitive_type);
            let max = cp.max_value.as_i128().unwrap_or(0).max(0);
            let max_lit = int_lit(max, cp.primitive_type);
            let bl = g.block_length;
            let wc = write(
                "self.buf",
                &add("self.header", cm),
                "self.count",
                cp.byte_order,
            );
            let gaps = zero_gaps(&g.body, bl, "self.buf", "at");
            let k = g.body.groups.len() + g.body.var_data.len();
            let (limit_field, limit_init) = if k > 0 {
                ("limit: &'b mut usize,\n", "limit: &mut *self.limit,\n")
            } else {
                ("", "")
            };

            let _ = writeln!(o, "/// Writes the entries of group `{}`; the count in its header follows the entries added.\n#[derive(Debug)]\npub struct {ge}<'b> {{\nbuf: &'b mut [u8],\nlimit: &'b mut usize,\nheader: usize,\ncount: {ct},\nidx: [usize; PATH_DEPTH],\n}}\n", g.name);
            let _ = writeln!(o, "impl {ge}<'_> {{\n/// The most entries the group may hold.\npub const MAX_COUNT: {ct} = {max_lit};\n\n/// Adds an entry and returns its encoder.\n///\n/// # Errors\n///\n/// The group is full, or no room for the entry's block.\n#[inline]\npub fn next_entry(&mut self) -> Result<{ee}<'_>, EncodeError> {{\nlet at = *self.limit;\nif self.count >= Self::MAX_COUNT {{\nreturn Err(sbe_support::count_too_large(at, FieldPath::new({gpath}).with_indices(self.idx), u64::from(Self::MAX_COUNT)));\n}}\nlet mut idx = self.idx;\nif let Some(i) = idx.get_mut({depth}) {{\n*i = self.count as usize;\n}}\n*self.limit = sbe_support::room(self.buf.len(), at, {bl}, || FieldPath::new({epath}).with_indices(idx))?;\nself.count += 1;\n{wc}\n{gaps}Ok({ee} {{\nbuf: &mut *self.buf,\n{limit_init}block: at,\nidx,\n}})\n}}\n\n/// The entries added so far.\n#[must_use]\npub fn count(&self) -> {ct} {{\nself.count\n}}\n}}\n");
            let _ = writeln!(o, "/// Writes an entry of group `{}`: fixed fields in any order, then nested groups and var data in schema order.\n#[derive(Debug)]\npub struct {ee}<'b> {{\n#[allow(dead_code)]\nbuf: &'b mut [u8],\n{limit_field}#[allow(dead_code)]\nblock: usize,\n#[allow(dead_code)]\nidx: [usize; PATH_DEPTH],\n}}\n", g.name);
            let _ = writeln!(o, "impl {ee}<'_> {{");
            o.push_str(&self.body_encoder(&g.body, &entry, "self.block", "*self.limit"));
            o.push_str("}\n\n");
            o.push_str(&self.group_encoders(&g.body, &entry));
        }
        o
    }
}

/// A group iterator's errors, made in functions of their own (`#[cold]`) from the values known
/// only at run time: their paths and other constants are then not kept in registers through
/// the hot loops (Car decode-opaque: 397 -> 386 instructions a decode, callgrind).
fn group_errors(
    group_path: &str,
    entry_path: &str,
    dim_len: usize,
    needs: usize,
    checked: bool,
) -> String {
    let mut o = format!("\n/// The group's header does not fit at `p`.\n#[cold]\nfn sbe_header_truncated(p: usize, len: usize) -> DecodeError {{\nsbe_support::truncated(p, FieldPath::new({group_path}), {dim_len}, len)\n}}\n");
    if needs > 0 {
        let _ = write!(o, "\n/// The group's block length (at `at`) is shorter than its fields.\n#[cold]\nfn sbe_too_short(at: usize, block_length: usize) -> DecodeError {{\nsbe_support::block_too_short(at, FieldPath::new({group_path}), block_length, {needs})\n}}\n");
    }
    if checked {
        let _ = write!(o, "\n/// Entry `index`'s block does not fit at `p`.\n#[cold]\nfn sbe_entry_truncated(p: usize, index: usize, block_length: usize, len: usize) -> DecodeError {{\nsbe_support::truncated(p, FieldPath::new({entry_path}).with_index(0, index), block_length, len)\n}}\n");
    }
    o
}

/// Statements writing the entries of the group iterator `it` (an expression) as a JSON array.
fn entries_json(it: &str) -> String {
    format!("f.write_str(\"[\")?;\nfor (i, e) in {it}.enumerate() {{\nlet e = e.map_err(|_| core::fmt::Error)?;\nif i > 0 {{\nf.write_str(\",\")?;\n}}\nwrite!(f, \"{{e}}\")?;\n}}\nf.write_str(\"]\")?;")
}

/// The decoder's position slots for a body: 3 per group (first entry, count, block length), 2
/// per var data (start and end of the bytes).
pub(super) fn slots(body: &Body) -> usize {
    3 * body.groups.len() + 2 * body.var_data.len()
}

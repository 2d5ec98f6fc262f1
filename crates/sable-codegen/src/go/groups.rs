//! Bodies (a message's or a group entry's fields, groups and var data) and groups: decoders
//! that iterate with `for g.Next() { ... }`, encoders that add entries with `Next()`.

use std::fmt::Write as _;

use sable_ir::{ByteOrder, PrimitiveType};

use super::code::{
    byte_array, doc, exported, go_str, gotype, lit, method, private, read, read_sized,
    split_method, write,
};
use super::slots::{key, Slot};
use super::Gen;
use crate::model::{Body, Composite, Group, TypeRef, VarData};

pub(super) use crate::rust::body::{depth, min_block};

/// Where a body lies: its Go type name prefix, its error path template and nesting.
pub(super) struct At {
    /// `Car`, `CarFuelFigures`, ...
    pub(super) prefix: String,
    /// `fields`, `fields.fuelFigures[]`, ...
    pub(super) json: String,
    /// The group entries above it.
    pub(super) depth: usize,
}

impl At {
    pub(super) fn entry(&self, g: &Group) -> At {
        At {
            prefix: format!("{}{}", self.prefix, exported(&g.name)),
            json: format!("{}.{}[]", self.json, g.name),
            depth: self.depth + 1,
        }
    }

    /// The Go string literal of element `name`'s path template.
    pub(super) fn path(&self, name: &str) -> String {
        go_str(&format!("{}.{name}", self.json))
    }

    fn top(&self) -> bool {
        self.depth == 0
    }

    /// The Go expression of the level of a body's encoder or decoder `e`/`d` (for its errors'
    /// paths and its groups): nil at the message's.
    pub(super) fn level(&self) -> &'static str {
        if self.top() {
            "nil"
        } else {
            "&e.lv"
        }
    }
}

/// A var data's length: its size, byte order and the most it may hold.
fn var_len(v: &VarData) -> (usize, bool, u64) {
    let lp = &v.length;
    let ls = v.length_size();
    let type_max: u64 = match ls {
        1 => 255,
        2 => 65535,
        4 => u64::from(u32::MAX),
        _ => i64::MAX as u64,
    };
    let max = lp.max_value.as_i128().map_or(type_max, |m| {
        u64::try_from(m.max(0)).unwrap_or(type_max).min(type_max)
    });
    (ls, lp.byte_order == ByteOrder::BigEndian, max)
}

/// The fast path's reading of var data `v`'s length at `p` in `buf` (which holds its length
/// field) into `n`, and the condition that its bytes fit: `n := ...\nif COND`.
fn var_fast(v: &VarData, p: &str, n: &str) -> String {
    let (ls, _, _) = var_len(v);
    let lt = v.length.primitive_type;
    let r = read_sized("buf", p, lt, v.length.byte_order);
    let neg = if lt.is_unsigned() && ls < 8 {
        String::new()
    } else {
        format!("{n} >= 0 && ")
    };
    format!("{n} := int({r})\nif {neg}{n} <= len(buf)-{p}-{ls}")
}

/// The Go name of the null image of the block of the body at `at` (`carNulls`).
pub(super) fn nulls_name(at: &At) -> String {
    format!("{}Nulls", private(&at.prefix))
}

/// A decoder's struct fields of its block of `n` bytes: `block`, and `scratch` for an older
/// writer's shorter one.
pub(super) fn block_fields(n: usize) -> String {
    let scratch = if n > 0 {
        format!("// scratch holds a copy of an older writer's shorter block (allocated once: see prepareScratch).\nscratch *[{n}]byte\n")
    } else {
        String::new()
    };
    format!("block *[{n}]byte\n{scratch}")
}

/// The statements pointing `d.block` (a `*[n]byte`) at the block at `p` of `buf`, `bl` bytes
/// as written (checked to fit): in place when at least the schema's `n` (sliced to `n` bytes,
/// so that no pointer masking is needed: see `read_sized`), else its whole fields copied into
/// the scratch block (`prepareScratch`).
pub(super) fn block_at(at: &At, n: usize, buf: &str, p: &str, bl: &str) -> String {
    if n == 0 {
        return format!("d.block = &{}", nulls_name(at));
    }
    format!("if {bl} >= {n} {{\nd.block = (*[{n}]byte)({buf}[{p} : {p}+{n}])\n}} else {{\nw := d.prepareScratch({bl})\ncopy(d.scratch[:w], {buf}[{p}:])\nd.block = d.scratch\n}}")
}

/// A member of a dimension composite by name: its offset and primitive.
fn dim_member<'c>(dim: &'c Composite, name: &str) -> Option<(usize, &'c crate::model::Primitive)> {
    dim.primitive(name)
        .filter(|(_, p)| !p.is_constant() && !p.is_array())
        .map(|(m, p)| (m.offset, p))
}

impl Gen<'_> {
    /// A body's null image (`var carNulls = [N]byte{...}`, `n` its block length) and, on its
    /// decoder type `t`, `prepareScratch`, which readies the copy of an older writer's shorter
    /// block.
    pub(super) fn null_block(&self, body: &Body, at: &At, t: &str, n: usize) -> String {
        let name = nulls_name(at);
        let image = byte_array(&self.s.null_block(&body.fields, n));
        let mut o = format!("// {name} is the block of `{}` with every field null: what an older writer's shorter block reads as beyond the fields it holds.\nvar {name} = {image}\n\n", at.json.trim_start_matches("fields.").trim_start_matches("fields"));
        if n > 0 {
            let mut ends: Vec<usize> = body
                .fields
                .iter()
                .filter(|f| !f.is_constant() && f.size > 0)
                .map(|f| f.offset + f.size)
                .collect();
            ends.sort_unstable();
            ends.dedup();
            let ends: Vec<String> = ends.iter().map(usize::to_string).collect();
            // The copy is allocated on the heap, once: an array inside the decoder, pointed
            // at by d.block, would make every decoder escape to the heap.
            let _ = writeln!(o, "// prepareScratch readies d.scratch for blocks of bl bytes, shorter than the schema's (an older writer's): the null image (allocated the first time, then reused), into which the caller copies the block's first bytes, as many as it returns: those of the fields it holds whole.\nfunc (d *{t}) prepareScratch(bl int) int {{\nif d.scratch == nil {{\nd.scratch = new([{n}]byte)\n}}\n*d.scratch = {name}\nreturn wholeFields(bl, {})\n}}\n", ends.join(", "));
        }
        o
    }

    /// The decoder methods of a body on type `t` (receiver `d`), and its JSON statements (the
    /// members of its object, appended to `dst`; a statement may return `dst, err`).
    pub(super) fn body_decoder(&mut self, body: &Body, at: &At, t: &str) -> (String, String) {
        let mut o = String::new();
        let mut json = String::new();
        let mut first = true;
        for f in &body.fields {
            let kind = self.kind(&f.type_ref);
            let slot = Slot {
                name: &f.name,
                desc: f.description.as_deref(),
                kind,
                presence: f.presence,
                const_enum: f.const_enum_value.as_deref(),
                off: f.offset,
                block: min_block(body),
                since: f.since_version,
                path: at.path(&f.name),
                lv: at.level(),
                nulls: Some(nulls_name(at)),
            };
            let (g, j) = self.getter(&slot, &format!("*{t}"));
            o.push_str(&meta(t, &f.name, f.id, f.since_version));
            o.push_str(&g);
            json.push_str(&key(&f.name, first));
            json.push_str(&j);
            first = false;
        }
        for (j, g) in body.groups.iter().enumerate() {
            let gt = format!("{}Decoder", at.entry(g).prefix);
            let m = method(&g.name);
            let fname = private_field(&g.name);
            let d = doc(&m, &format!("returns the decoder of group `{}`, at its first entry's start: iterate with `for g.Next() {{ ... }}`, then check Err", g.name), g.description.as_deref());
            let since = if g.since_version > 0 {
                format!(" && d.version >= {}", g.since_version)
            } else {
                String::new()
            };
            let locate = if at.top() {
                // The first group starts where the block ends: nothing to find.
                let find = if j == 0 {
                    "d.pos[0]".to_owned()
                } else {
                    format!(
                        "d.pos[{j}]\n{}if d.found < {j} {{\np = d.start({j})\n}}",
                        past_group(body, j, true)
                    )
                };
                let fast = self.open_fast(g, at);
                format!("p := -1\nif d.ok{since} {{\np = {find}\n{fast}}}\ng.wrap(d.buf, p, d.version, nil)")
            } else {
                let fast = self.open_fast(g, at);
                let find = if j > 0 && lazy(body) {
                    format!("d.pos[{j}]\nif d.found < {j} {{\np = d.find({j})\n}}")
                } else {
                    format!("d.pos[{j}]")
                };
                format!("p := -1\nif d.entry{since} {{\np = {find}\n{fast}}}\ng.wrap(d.buf, p, d.version, &d.idx)")
            };
            o.push_str(&meta(t, &g.name, g.id, g.since_version));
            let _ = writeln!(
                o,
                "{d}func (d *{t}) {m}() *{gt} {{\ng := &d.{fname}\n{locate}\nreturn g\n}}\n"
            );
            let errs = if at.top() || lazy(body) {
                "if d.err != nil {\nreturn dst, d.err\n}\n"
            } else {
                ""
            };
            let stmts = format!("g := d.{m}()\n{errs}if g.err != nil {{\nreturn dst, g.err\n}}\ndst = append(dst, '[')\nfor i := 0; g.Next(); i++ {{\nif i > 0 {{\ndst = append(dst, ',')\n}}\nvar err error\nif dst, err = g.appendJSON(dst); err != nil {{\nreturn dst, err\n}}\n}}\nif g.err != nil {{\nreturn dst, g.err\n}}\ndst = append(dst, ']')");
            json.push_str(&key(&g.name, first));
            json.push_str(&since_guard(g.since_version, &stmts));
            first = false;
        }
        for (j, v) in (body.groups.len()..).zip(&body.var_data) {
            let (ls, big, _) = var_len(v);
            let m = method(&v.name);
            let x = exported(&v.name);
            let gate = if v.since_version > 0 {
                format!("if d.version < {} {{\nreturn nil\n}}\n", v.since_version)
            } else {
                String::new()
            };
            let find = if at.top() {
                // Found already (the usual order): its length read inline.
                let fast = var_fast(v, "p", "n");
                let fast = past_group(body, j, false) + &format!("if d.found >= {j} {{\nif buf, p := d.buf, d.pos[{j}]; p >= 0 && p+{ls} <= len(buf) {{\n{fast} {{\nend := p + {ls} + n\nif d.found == {j} {{\nd.found, d.pos[{}] = {}, end\n}}\nreturn buf[p+{ls} : end : end]\n}}\n}}\n}}\n", j + 1, j + 1);
                fast + &format!("p := d.start({j})\nif p < 0 {{\nreturn nil\n}}\nend, ok := varDataEnd(d.buf, p, {ls}, {big})\nif !ok {{\nd.fail(truncated(p, {}, nil, \"var data\", {ls}, len(d.buf)-p))\nreturn nil\n}}\nif d.found == {j} {{\nd.found, d.pos[{}] = {}, end\n}}", at.path(&v.name), j + 1, j + 1)
            } else if lazy(body) {
                format!(
                    "if !d.entry {{\nreturn nil\n}}\nend := d.find({})\nif end < 0 {{\nreturn nil\n}}\np := d.pos[{j}]",
                    j + 1
                )
            } else {
                format!(
                    "if !d.entry {{\nreturn nil\n}}\np, end := d.pos[{j}], d.pos[{}]",
                    j + 1
                )
            };
            o.push_str(&meta(t, &v.name, v.id, v.since_version));
            // A message's accessor reads the var data after the one before it inline (the usual
            // order); anything else is a call.
            let (find, checked) = if at.top() && var_inline(body, j) {
                // After var data, with no test of `found` (its start is the buffer's length
                // until found: see `var_inline`), small enough to inline, passing its checked
                // path in (sbe.go, "Fast paths").
                let low = private(&m);
                let lt = v.length.primitive_type;
                let fast = format!("// {low}Fast is {m} with its checked path passed in (see sbe.go, \"Fast paths\").\nfunc (d *{t}) {low}Fast(checked func(*{t}) []byte) []byte {{\nif b, p := d.buf, d.pos[{j}]; p+{ls} <= len(b) {{\nif end := p + {ls} + int({}); end <= len(b) {{\nd.found, d.pos[{}] = {}, end\nreturn b[p+{ls} : end : end]\n}}\n}}\nreturn checked(d)\n}}\n\n", read("b", "p", lt, v.length.byte_order), j + 1, j + 1);
                let checked = format!("{fast}// {low}Checked is {m} off its fast path: found by skipping what comes before it.\nfunc (d *{t}) {low}Checked() []byte {{\n{find}\nreturn d.buf[p+{ls} : end : end]\n}}\n\n");
                (format!("return d.{low}Fast((*{t}).{low}Checked)"), checked)
            } else if at.top() {
                let low = private(&format!("{m}Checked"));
                // (Its start is in the buffer once found; before a wrap that failed, the first's
                // is not.)
                let found = if j == 0 {
                    "d.ok && d.found == 0".to_owned()
                } else {
                    format!("d.found == {j}")
                };
                let lt = v.length.primitive_type;
                let neg = if lt.is_unsigned() && ls < 8 {
                    ""
                } else {
                    "n >= 0 && "
                };
                let fast_find = past_group(body, j, false) + &format!("if {found} {{\nif b := d.buf[d.pos[{j}]:]; len(b) >= {ls} {{\nif n := int({}); {neg}n <= len(b)-{ls} {{\nd.found, d.pos[{}] = {}, d.pos[{j}]+{ls}+n\nreturn b[{ls} : {ls}+n : {ls}+n]\n}}\n}}\n}}\nreturn d.{low}()", read("b", "0", lt, v.length.byte_order), j + 1, j + 1);
                let checked = format!("// {low} is {m} off its fast path: found by skipping what comes before it.\nfunc (d *{t}) {low}() []byte {{\n{find}\nreturn d.buf[p+{ls} : end : end]\n}}\n\n");
                (fast_find, checked)
            } else {
                (
                    format!("{find}\nreturn d.buf[p+{ls} : end : end]"),
                    String::new(),
                )
            };
            let d = doc(
                &m,
                &format!(
                    "returns the bytes of var data `{}` (a view of the buffer; nil when absent{})",
                    v.name,
                    if at.top() {
                        " or when it does not fit: see Err"
                    } else {
                        ""
                    }
                ),
                v.description.as_deref(),
            );
            let _ = writeln!(
                o,
                "{d}func (d *{t}) {m}() []byte {{\n{gate}{find}\n}}\n\n{checked}"
            );
            let _ = writeln!(o, "// {x}Length returns the length of var data `{}`.\nfunc (d *{t}) {x}Length() int {{\nreturn len(d.{m}())\n}}\n", v.name);
            let item = if v.is_text() {
                let _ = writeln!(o, "// {x}String returns var data `{}` as a string (a copy).\nfunc (d *{t}) {x}String() string {{\nreturn string(d.{m}())\n}}\n", v.name);
                let utf8 = super::code::is_utf8(v.character_encoding.as_deref());
                format!("dst = appendText(dst, b, b, {utf8})")
            } else {
                "dst = appendHex(dst, b)".to_owned()
            };
            let errs = if at.top() || lazy(body) {
                "if d.err != nil {\nreturn dst, d.err\n}\n"
            } else {
                ""
            };
            json.push_str(&key(&v.name, first));
            json.push_str(&since_guard(
                v.since_version,
                &format!("b := d.{m}()\n{errs}{item}"),
            ));
            first = false;
        }
        (o, json)
    }

    /// The encoder methods of a body on type `t` (receiver `e`).
    pub(super) fn body_encoder(&mut self, body: &Body, at: &At, t: &str) -> String {
        let mut o = String::new();
        for f in &body.fields {
            let kind = self.kind(&f.type_ref);
            let slot = Slot {
                name: &f.name,
                desc: f.description.as_deref(),
                kind,
                presence: f.presence,
                const_enum: None,
                off: f.offset,
                block: min_block(body),
                since: f.since_version,
                path: at.path(&f.name),
                lv: at.level(),
                nulls: None,
            };
            o.push_str(&self.setter(&slot, &format!("*{t}")));
        }
        for g in &body.groups {
            let gt = format!("{}Encoder", at.entry(g).prefix);
            let x = exported(&g.name);
            let d = doc(&format!("{x}Count"), &format!("starts group `{}` with n entries, and returns its encoder: call Next before each entry. A count above the group's maximum is KindCountTooLarge", g.name), g.description.as_deref());
            let _ = writeln!(o, "{d}func (e *{t}) {x}Count(n int) *{gt} {{\ng := &e.{}\ng.begin(e.st, {}, n)\nreturn g\n}}\n", private_field(&g.name), at.level());
        }
        for v in &body.var_data {
            let (ls, big, max) = var_len(v);
            let x = exported(&v.name);
            let path = at.path(&v.name);
            let lv = at.level();
            let d = doc(&format!("Set{x}"), &format!("writes var data `{}` after what is written so far; longer than {max} bytes is KindLengthTooLarge (nothing written)", v.name), v.description.as_deref());
            // The length and bytes written inline when they fit; putVarData for its errors.
            let lt = v.length.primitive_type;
            let put_len = write(
                "st.buf",
                "at",
                lt,
                v.length.byte_order,
                &format!("{}(len(v))", gotype(lt)),
            );
            // (The limit is never negative. A maximum beyond int32's is compared as uint64, for
            // 32-bit platforms.)
            let fits = if max <= i32::MAX as u64 {
                format!("len(v) <= {max}")
            } else {
                format!("uint64(len(v)) <= {max}")
            };
            let fast = |failed: &str| {
                format!("st := e.st\nat := st.limit\nif {fits} && at+{ls}+len(v) <= len(st.buf) {{\n{put_len}\nst.limit = at + {ls} + copy(st.buf[at+{ls}:], v)\nreturn e\n}}\nreturn {failed}")
            };
            let failed = format!("putVarData(e.st, v, {ls}, {big}, {max}, {path}, {lv})\nreturn e");
            let rt = format!("*{t}");
            for (ty, name, d) in [
                ("[]byte", format!("Set{x}"), d),
                (
                    "string",
                    format!("Set{x}String"),
                    format!(
                        "// Set{x}String writes var data `{}` from a string, as Set{x}.\n",
                        v.name
                    ),
                ),
            ] {
                o.push_str(&split_method(
                    &d,
                    ("e", &rt),
                    &name,
                    &[("v", ty)],
                    &rt,
                    fast,
                    &failed,
                    true,
                ));
                o.push('\n');
            }
        }
        o
    }

    /// The nested group codecs a body's type holds, as struct fields.
    pub(super) fn group_fields(&self, body: &Body, at: &At, suffix: &str) -> String {
        body.groups
            .iter()
            .map(|g| {
                format!(
                    "{} {}{suffix}\n",
                    private_field(&g.name),
                    at.entry(g).prefix
                )
            })
            .collect()
    }

    /// The fast path of a group accessor, in the scope of the parent decoder `d`, the group's
    /// decoder `g` and its start `p` (>= 0): the dimension read inline and, when it passes
    /// every check of `wrap` (and for entries of a fixed size, all of them fit), the group
    /// opened and returned; else nothing happens, and `wrap` (its checks one by one, and their
    /// errors) follows.
    fn open_fast(&self, g: &Group, at: &At) -> String {
        let depth = at.depth;
        let dim = self.s.composite(&g.dimension);
        let dim_len = dim.encoded_length.max(0) as usize;
        let (bl_off, bl_p) = dim_member(dim, "blockLength").unwrap_or((0, &DEFAULT_U16));
        let (n_off, n_p) = dim_member(dim, "numInGroup").unwrap_or((2, &DEFAULT_U16));
        let (blt, nt) = (bl_p.primitive_type, n_p.primitive_type);
        let fixed = g.body.groups.is_empty() && g.body.var_data.is_empty();
        // Entries at least the schema's block long (so read in place: an older writer's
        // shorter ones take `wrap`).
        let needs = g.block_length;
        let mut conds = Vec::new();
        if needs > 0 {
            conds.push(format!("bl >= {needs}"));
        } else if !blt.is_unsigned() {
            conds.push("bl >= 0".to_owned());
        }
        if fixed {
            if !nt.is_unsigned() {
                conds.push("n >= 0".to_owned());
            }
            // Within 16 bits each, the product cannot overflow (and a count above 65535 of
            // entries of no bytes, an error, takes the checked path).
            if blt.size() > 2 {
                conds.push("uint(bl) <= 0xffff".to_owned());
            }
            if nt.size() > 2 {
                conds.push("uint(n) <= 0xffff".to_owned());
            }
            conds.push(format!("n*bl <= len(buf)-p-{dim_len}"));
        }

        // Entries of a fixed size, all fitting, raise no error once open: the indices of the
        // entries above (for errors' paths) are not needed, nor the acting version unless a
        // field reads it (a field since a later version, a composite).
        let nulls = nulls_name(&at.entry(g));
        // (The group's buffer and acting version are the message's, set when it is wrapped:
        // `shares`.)
        // Entries of a fixed size (at least the schema's block, of more than no bytes) are
        // stepped by position alone (`end`), the index derived from it: no index nor `fit`.
        let by_pos = by_position(g);
        let open = if by_pos {
            format!("g.start = p\ng.block, g.err = &{nulls}, nil\n")
        } else if fixed {
            format!("g.start, g.idx[{depth}] = p, -1\ng.block, g.err = &{nulls}, nil\ng.fit = n\n")
        } else {
            let copy_up: String = (0..depth)
                .map(|k| format!("g.idx[{k}] = d.idx[{k}]\n"))
                .collect();
            format!("{copy_up}g.start, g.idx[{depth}] = p, -1\ng.block, g.err = &{nulls}, nil\ng.entry = false\n")
        };
        let open = if by_pos {
            format!("{open}g.blockLength, g.count, g.next, g.end = bl, n, p+{dim_len}, p+{dim_len}+n*bl\nreturn g")
        } else {
            format!("{open}g.blockLength, g.count, g.next = bl, n, p+{dim_len}\nreturn g")
        };
        let open = if conds.is_empty() {
            open
        } else {
            format!("if {} {{\n{open}\n}}", conds.join(" && "))
        };
        format!("if buf := d.buf; p >= 0 && p+{dim_len} <= len(buf) {{\ndim := buf[p : p+{dim_len} : p+{dim_len}]\nbl, n := int({}), int({})\n{open}\n}}\n", read("dim", &bl_off.to_string(), blt, bl_p.byte_order), read("dim", &n_off.to_string(), nt, n_p.byte_order))
    }

    /// Group `g` of a body at `at`: its decoder and encoder, and those of its nested groups.
    pub(super) fn group(&mut self, g: &Group, at: &At) {
        let inner = at.entry(g);
        let (dt, et) = (
            format!("{}Decoder", inner.prefix),
            format!("{}Encoder", inner.prefix),
        );
        let dim = self.s.composite(&g.dimension);
        let dim_len = dim.encoded_length.max(0) as usize;
        let n_el = g.body.groups.len() + g.body.var_data.len();
        let entry_path = go_str(&format!("{}.{}[]", at.json, g.name));
        let depth = at.depth;
        let copy_up: String = (0..depth)
            .map(|k| format!("d.idx[{k}] = up[{k}]\n"))
            .collect();
        let group_path = at.path(&g.name);
        let s = self.s;

        // The dimension: read and checked.
        let (bl_off, bl_p) = dim_member(dim, "blockLength").unwrap_or((0, &DEFAULT_U16));
        let (n_off, n_p) = dim_member(dim, "numInGroup").unwrap_or((2, &DEFAULT_U16));
        let needs = min_block(&g.body);
        let mut dimf = format!("// dim{0} reads and checks the dimension of group `{1}` at p: the entries' block length and count.\nfunc dim{0}(buf []byte, p, version int, idx *[pathDepth]int) (int, int, error) {{\nif p < 0 || p+{dim_len} > len(buf) {{\nreturn 0, 0, truncated(p, {group_path}, idx[:], \"group dimension\", {dim_len}, len(buf)-p)\n}}\nbl := int({2})\nn := int({3})\n", inner.prefix, g.name, read("buf", &format!("p+{bl_off}"), bl_p.primitive_type, bl_p.byte_order), read("buf", &format!("p+{n_off}"), n_p.primitive_type, n_p.byte_order));
        if needs > 0 {
            let _ = writeln!(dimf, "if version >= SchemaVersion && bl < {needs} {{\nreturn 0, 0, decodeError(p+{bl_off}, {group_path}, idx[:], KindBlockLengthTooShort, \"group block length \"+strconv.Itoa(bl)+\" is below its fields' {needs}\")\n}}");
        } else {
            dimf.push_str("_ = version\n");
        }
        if n_el == 0 && n_p.primitive_type.size() > 2 {
            let _ = writeln!(dimf, "if bl == 0 && n > 65535 {{\nreturn 0, 0, decodeError(p+{n_off}, {group_path}, idx[:], KindCountTooLarge, \"group of entries of no bytes claims \"+strconv.Itoa(n)+\" of them\")\n}}");
        }
        dimf.push_str("return bl, n, nil\n}\n");
        self.w(dimf);

        // An entry's groups and var data from q, checked: the statements of the walk.
        let mut walk = String::new();
        for (j, ng) in g.body.groups.iter().enumerate() {
            let step = format!(
                "if q, err = skip{}(buf, q, version, idx); err != nil {{\nreturn q, err\n}}",
                inner.entry(ng).prefix
            );
            let _ = writeln!(walk, "pos[{j}] = q\n{}", since_if(ng.since_version, &step));
        }
        for (j, v) in (g.body.groups.len()..).zip(&g.body.var_data) {
            let (ls, big, _) = var_len(v);
            let step = format!("end, ok := varDataEnd(buf, q, {ls}, {big})\nif !ok {{\nreturn q, truncated(q, {}, idx[:], \"var data\", {ls}, len(buf)-q)\n}}\nq = end", inner.path(&v.name));
            let step = if v.since_version > 0 {
                step
            } else {
                format!("{{\n{step}\n}}")
            };
            let _ = writeln!(walk, "pos[{j}] = q\n{}", since_if(v.since_version, &step));
        }
        let _ = writeln!(walk, "pos[{n_el}] = q");
        let walk_fn = if n_el > 0 {
            format!("// walk{0} finds, checked, the groups and var data of an entry of `{1}` from q: their starts and the entry's end in pos.\nfunc walk{0}(buf []byte, q, version int, idx *[pathDepth]int, pos *[{2}]int) (int, error) {{\n{decl}{walk}return q, nil\n}}\n", inner.prefix, g.name, n_el + 1, decl = if g.body.groups.is_empty() { "" } else { "var err error\n" })
        } else {
            String::new()
        };
        self.w(walk_fn.clone());
        let walk_call = |buf: &str, version: &str, idx: &str, pos: &str, on_err: &str| -> String {
            if n_el > 0 {
                format!("if q, err = walk{}({buf}, q, {version}, {idx}, {pos}); err != nil {{\n{on_err}\n}}", inner.prefix)
            } else {
                String::new()
            }
        };
        let skip = if n_el > 0 {
            format!("// skip{0} is where group `{1}` at p ends, its entries checked.\nfunc skip{0}(buf []byte, p, version int, idx *[pathDepth]int) (int, error) {{\nbl, n, err := dim{0}(buf, p, version, idx)\nif err != nil {{\nreturn 0, err\n}}\nq := p + {dim_len}\nvar pos [{3}]int\nfor i := 0; i < n; i++ {{\nidx[{depth}] = i\nif q+bl > len(buf) {{\nreturn 0, truncated(q, {entry_path}, idx[:], \"group entry\", bl, len(buf)-q)\n}}\nq += bl\n{2}\n}}\nreturn q, nil\n}}", inner.prefix, g.name, walk_call("buf", "version", "idx", "&pos", "return 0, err"), n_el + 1)
        } else {
            // Entries of a fixed size: the first that does not fit is found by a division.
            format!("// skip{0} is where group `{1}` at p ends, its entries checked.\nfunc skip{0}(buf []byte, p, version int, idx *[pathDepth]int) (int, error) {{\nbl, n, err := dim{0}(buf, p, version, idx)\nif err != nil {{\nreturn 0, err\n}}\nq := p + {dim_len}\nif fit := fits(len(buf)-q, bl, n); fit < n {{\nidx[{depth}] = fit\nq += fit * bl\nreturn 0, truncated(q, {entry_path}, idx[:], \"group entry\", bl, len(buf)-q)\n}}\nreturn q + n*bl, nil\n}}", inner.prefix, g.name)
        };
        self.w(skip);

        // The decoder.
        let (methods, json) = self.body_decoder(&g.body, &inner, &dt);
        let pos_field = if n_el > 0 {
            format!("pos [{}]int\n", n_el + 1)
        } else {
            String::new()
        };
        let d = doc(&dt, &format!("reads the entries of group `{}`: `for g.Next() {{ ... }}`, then Err. It is also the entry it is at", g.name), g.description.as_deref());
        let nested = self.group_fields(&g.body, &inner, "Decoder");
        let bl = g.block_length;
        let nulls = nulls_name(&inner);
        let block = block_fields(bl);
        // Entries shorter than the schema's: how many of their bytes Next copies.
        let short = if bl > 0 {
            format!("if bl < {bl} {{\nd.whole = d.prepareScratch(bl)\n}}\n")
        } else {
            String::new()
        };
        // Entries with groups or var data are walked one by one (`entry`: Next is at one);
        // entries of a fixed size are counted once, when the group starts (`fit`: how many fit
        // in the buffer), so that Next tests only its index; those of more than no bytes are
        // stepped by position alone (`end`) when the group's accessor opened them all fitting.
        let by_position = by_position(g);
        let (state_field, reset, fit) = if lazy(&g.body) {
            (
                "entry bool\n// found is how many of the entry's groups and var data have their starts in pos.\nfound int\n".to_owned(),
                "d.entry = false\n",
                String::new(),
            )
        } else if n_el > 0 {
            (
                "entry bool\n".to_owned(),
                "d.entry = false\n",
                String::new(),
            )
        } else {
            let (end_field, reset) = if by_position {
                ("// end is where the entries end when they were opened all fitting, each at least the schema's block long: Next then steps by position alone, the index derived from it; -1 otherwise (Next counts in idx).\nend int\n", "d.fit, d.end = 0, -1\n")
            } else {
                ("", "d.fit = 0\n")
            };
            (
                format!("{end_field}// fit is how many entries fit in the buffer.\nfit int\n// whole is, for entries shorter than the schema's, how many of their bytes Next copies into scratch.\nwhole int\n// cut is the error of the first entry that does not fit, for Next to give (set when fit < count).\ncut error\n"),
                reset,
                format!("d.fit = fits(len(buf)-d.next, bl, n)\n{short}if d.fit < n {{\nq := d.next + d.fit*bl\nidx := d.idx\nidx[{depth}] = d.fit\nd.cut = truncated(q, {entry_path}, idx[:], \"group entry\", bl, len(buf)-q)\n}}\n"),
            )
        };
        let mut o = format!("{d}type {dt} struct {{\nbuf []byte\n{block}version int\nstart int\nblockLength int\ncount int\nnext int\n{state_field}{pos_field}// idx holds the indices of the entries above and, at {depth}, of the entry Next moved to.\nidx [pathDepth]int\nerr error\n{nested}}}\n\n");
        let _ = writeln!(o, "// wrap starts the group at p (none when p < 0).\nfunc (d *{dt}) wrap(buf []byte, p, version int, up *[pathDepth]int) {{\n{copy_up}d.buf, d.version, d.start, d.idx[{depth}] = buf, version, p, -1\nd.count, d.block, d.err = 0, &{nulls}, nil\n{reset}if p < 0 {{\nreturn\n}}\nbl, n, err := dim{}(buf, p, version, &d.idx)\nif err != nil {{\nd.err = err\nreturn\n}}\nd.blockLength, d.count, d.next = bl, n, p+{dim_len}\n{fit}}}\n", inner.prefix);
        if lazy(&g.body) {
            // In three parts, so that done inlines (the last entry's end is a call).
            let _ = writeln!(o, "// done reports whether the group was read to its end from p: then next is where it ends (the last entry's end found, checked, if need be).\nfunc (d *{dt}) done(p int) bool {{\nreturn d.doneFast(p, (*{dt}).doneEntry)\n}}\n\n// doneFast is done with its call of doneEntry passed in (see sbe.go, \"Fast paths\").\nfunc (d *{dt}) doneFast(p int, entry func(*{dt}) bool) bool {{\nif d.start != p || d.err != nil || d.idx[{depth}]+1 < d.count {{\nreturn false\n}}\nreturn !d.entry || entry(d)\n}}\n\n// doneEntry finds, checked, where the entry Next is at (the last) ends: the group's end, in next.\nfunc (d *{dt}) doneEntry() bool {{\nend := d.find({n_el})\nif end < 0 {{\nreturn false\n}}\nd.next = end\nreturn true\n}}\n");
            let cases = find_cases(&g.body, &inner, "d.idx[:]");
            let _ = writeln!(o, "// find returns where group or var data i of the entry starts (in schema order; {n_el}: the entry's end), found by skipping, checked, those between the last found and it (a group the caller read to its end is not read again); -1 after an error.\nfunc (d *{dt}) find(i int) int {{\nfor d.found < i {{\nif d.err != nil {{\nreturn -1\n}}\np := d.pos[d.found]\nvar end int\nvar err error\nswitch d.found {{\n{cases}}}\nif err != nil {{\nd.err = err\nreturn -1\n}}\nd.found++\nd.pos[d.found] = end\n}}\nreturn d.pos[i]\n}}\n");
        } else if by_position {
            let _ = writeln!(o, "// done reports whether the group was read to its end from p: then next is where it ends.\nfunc (d *{dt}) done(p int) bool {{\nreturn d.start == p && (d.next == d.end || d.end < 0 && d.err == nil && d.idx[{depth}]+1 >= d.count)\n}}\n");
        } else {
            let _ = writeln!(o, "// done reports whether the group was read to its end from p: then next is where it ends.\nfunc (d *{dt}) done(p int) bool {{\nreturn d.start == p && d.err == nil && d.idx[{depth}]+1 >= d.count\n}}\n");
        }
        let index = if by_position {
            format!("if d.end >= 0 {{\nreturn (d.next-d.start-{dim_len})/d.blockLength - 1\n}}\nreturn d.idx[{depth}]")
        } else {
            format!("return d.idx[{depth}]")
        };
        let _ = writeln!(o, "// Count returns the number of entries.\nfunc (d *{dt}) Count() int {{\nreturn d.count\n}}\n\n// Index returns the index of the entry Next moved to (-1 before the first).\nfunc (d *{dt}) Index() int {{\n{index}\n}}\n\n// Err returns the error that stopped Next, if any.\nfunc (d *{dt}) Err() error {{\nreturn d.err\n}}\n\n// ActingBlockLength returns the entries' block length as written.\nfunc (d *{dt}) ActingBlockLength() int {{\nreturn d.blockLength\n}}\n");
        let walk_here = walk_call(
            "d.buf",
            "d.version",
            "&d.idx",
            "&d.pos",
            &format!("d.err, d.block = err, &{nulls}\nreturn false"),
        );
        let next_doc = "// Next moves to the next entry, and reports whether there is one that could be read: at the end, or on an error (see Err), it returns false.";
        let var_only =
            g.body.groups.is_empty() && g.body.var_data.iter().all(|v| v.since_version == 0);
        if n_el > 0 && var_only {
            // Entries of a block and var data: their lengths read inline, one by one; the
            // walk, with its errors, only when one does not fit (or the block is an older
            // writer's shorter one, copied by nextChecked).
            let mut reads = String::new();
            for (j, v) in g.body.var_data.iter().enumerate() {
                let (ls, _, _) = var_len(v);
                let n = format!("n{j}");
                let _ = write!(
                    reads,
                    "d.pos[{j}] = q\nif q+{ls} > len(buf) {{\nreturn d.nextChecked()\n}}\n{}",
                    var_fast(v, "q", &n)
                );
                let _ = writeln!(
                    reads,
                    " {{\nq += {ls} + {n}\n}} else {{\nreturn d.nextChecked()\n}}"
                );
            }
            let (whole, block) = if bl > 0 {
                (
                    format!(" || bl < {bl}"),
                    format!("d.block = (*[{bl}]byte)(buf[p : p+{bl} : p+{bl}])"),
                )
            } else {
                (String::new(), format!("d.block = &{nulls}"))
            };
            // The end tested inline (Next inlines), the entries read by a call.
            let _ = writeln!(o, "{next_doc}\nfunc (d *{dt}) Next() bool {{\nif d.idx[{depth}]+1 >= d.count {{\nd.entry = false\nreturn false\n}}\nreturn d.nextEntry()\n}}\n\n// nextEntry is Next short of the end (p + bl cannot overflow: p is within the buffer, bl at most 32 bits).\nfunc (d *{dt}) nextEntry() bool {{\nbuf, p, bl := d.buf, d.next, d.blockLength\nif d.err != nil{whole} {{\nreturn d.nextChecked()\n}}\nq := p + bl\n{reads}d.pos[{n_el}] = q\n{block}\nd.idx[{depth}]++\nd.next, d.entry = q, true\nreturn true\n}}\n");
            let _ = writeln!(o, "// nextChecked is Next walking the entry with its checks, for the error of the first item that does not fit.\nfunc (d *{dt}) nextChecked() bool {{\nd.entry = false\nif d.err != nil || d.idx[{depth}]+1 >= d.count {{\nreturn false\n}}\nd.idx[{depth}]++\np := d.next\nif p+d.blockLength > len(d.buf) {{\nd.err, d.block = truncated(p, {entry_path}, d.idx[:], \"group entry\", d.blockLength, len(d.buf)-p), &{nulls}\nreturn false\n}}\n{}\nq := p + d.blockLength\nvar err error\n{walk_here}\nd.next, d.entry = q, true\nreturn true\n}}\n", block_at(&inner, bl, "d.buf", "p", "d.blockLength"));
        } else if n_el > 0 {
            // The entry's groups and var data are found when asked for (find); its end, when
            // Next moves on, from the groups the caller read to their ends.
            // When the entry's last element is a group the caller read to its end (the usual
            // order), its end is taken from its decoder inline, as find would.
            let last = n_el - 1;
            // Next tests the error first: the entry's end is found only when there is none.
            let stop = format!("d.entry, d.block = false, &{nulls}");
            let find_end = format!("if end := d.find({n_el}); end >= 0 {{\nd.next = end\n}} else {{\n{stop}\nreturn false\n}}");
            let find_end = match g.body.groups.get(last) {
                Some(ng) if g.body.var_data.is_empty() && ng.since_version == 0 => format!("if g := &d.{}; d.found == {last} && g.done(d.pos[{last}]) {{\nd.next = g.next\n}} else {find_end}", private_field(&ng.name)),
                _ => find_end,
            };
            // An entry at least the schema's block long that fits is read inline; any other
            // (and its error) by nextChecked.
            let (whole, block) = if bl > 0 {
                (
                    format!("bl >= {bl} && "),
                    format!("d.block = (*[{bl}]byte)(d.buf[p : p+{bl} : p+{bl}])"),
                )
            } else {
                (String::new(), format!("d.block = &{nulls}"))
            };
            let _ = writeln!(o, "{next_doc}\nfunc (d *{dt}) Next() bool {{\nif d.err != nil {{\nif d.entry {{\n{stop}\n}}\nreturn false\n}}\nif d.entry {{\n{find_end}\n}}\nif d.idx[{depth}]+1 >= d.count {{\nd.entry = false\nreturn false\n}}\nif p, bl := d.next, d.blockLength; {whole}p+bl <= len(d.buf) {{\n{block}\nd.idx[{depth}]++\nd.pos[0], d.found, d.entry = p+bl, 0, true\nreturn true\n}}\nd.entry = false\nreturn d.nextChecked()\n}}\n\n// nextChecked is Next at an entry's start off its fast path: an entry that does not fit, or an older writer's shorter block.\nfunc (d *{dt}) nextChecked() bool {{\nd.idx[{depth}]++\np := d.next\nif p+d.blockLength > len(d.buf) {{\nd.err, d.block = truncated(p, {entry_path}, d.idx[:], \"group entry\", d.blockLength, len(d.buf)-p), &{nulls}\nreturn false\n}}\n{}\nd.pos[0], d.found, d.entry = p+d.blockLength, 0, true\nreturn true\n}}\n", block_at(&inner, bl, "d.buf", "p", "d.blockLength"));
        } else {
            // Small enough for the compiler to inline (cost 79 of 80): the loop of `for
            // g.Next()` then holds no call (the error of an entry that does not fit was made by
            // wrap, and an older writer's shorter entries are copied by the builtin copy). The
            // block is sliced to its length, `buf[p : p+N]`, which needs no pointer masking as
            // `buf[p:]` would (an entry that fits has p+N within the buffer). At the end, the
            // error is given (again, the same) only when not all the entries fit. With a
            // block of more than no bytes, that is `nextCounted`, taken only for a group `wrap`
            // opened (entries cut short, an older writer's shorter ones); a group opened by its
            // accessor's fast path (all fitting, at least the schema's block) is stepped by
            // position alone, to `end`, with no index to keep (`Index` derives it): an entry
            // block of 0 bytes never takes that path (its position would not advance).
            let step = if bl > 0 {
                format!("p := d.next\nd.next += d.blockLength\nif d.blockLength >= {bl} {{\nd.block = (*[{bl}]byte)(d.buf[p : p+{bl}])\n}} else {{\nd.block = d.scratch\ncopy(d.block[:d.whole], d.buf[p:])\n}}\n")
            } else {
                "d.next += d.blockLength\n".to_owned()
            };
            let counted = format!("if d.idx[{depth}]+1 >= d.fit {{\nif d.fit < d.count {{\nd.idx[{depth}], d.err = d.fit, d.cut\n}}\nreturn false\n}}\nd.idx[{depth}]++\n{step}return true");
            if by_position {
                // Next and nextFast inline (cost 60), nextCounted passed in (see sbe.go).
                let _ = writeln!(o, "{next_doc}\nfunc (d *{dt}) Next() bool {{\nreturn d.nextFast((*{dt}).nextCounted)\n}}\n\n// nextFast is Next with its call of nextCounted passed in (see sbe.go, \"Fast paths\").\nfunc (d *{dt}) nextFast(counted func(*{dt}) bool) bool {{\nif p := d.next; p < d.end {{\nd.next = p + d.blockLength\nd.block = (*[{bl}]byte)(d.buf[p : p+{bl}])\nreturn true\n}}\nreturn d.end < 0 && counted(d)\n}}\n\n// nextCounted is Next when the group was not opened by position (wrap): some entries do not fit, or they are an older writer's shorter ones.\nfunc (d *{dt}) nextCounted() bool {{\n{counted}\n}}\n");
            } else {
                let _ = writeln!(
                    o,
                    "{next_doc}\nfunc (d *{dt}) Next() bool {{\n{counted}\n}}\n"
                );
            }
        }
        o.push_str(&self.null_block(&g.body, &inner, &dt, bl));
        o.push_str(&methods);
        let _ = writeln!(o, "// appendJSON appends the entry's canonical JSON.\nfunc (d *{dt}) appendJSON(dst []byte) ([]byte, error) {{\ndst = append(dst, '{{')\n{json}return append(dst, '}}'), nil\n}}");
        self.w(o);

        // The encoder.
        let max_count = n_p.max_value.as_i128().unwrap_or(65535).max(0);
        let mut hdr = String::new();
        for mem in &dim.members {
            if let TypeRef::Primitive(p) = &mem.type_ref {
                if p.is_constant() || p.is_array() {
                    continue;
                }
                let gt = gotype(p.primitive_type);
                let v = match mem.name.as_str() {
                    "blockLength" => format!("{gt}({})", g.block_length),
                    "numInGroup" => format!("{gt}(n)"),
                    _ => format!("null{}", lit(&p.null_value, p.primitive_type)),
                };
                hdr.push_str(&match v.strip_prefix("null") {
                    Some(null) => format!(
                        "{{\nv := {gt}({null})\n{}\n}}",
                        write(
                            "b",
                            &mem.offset.to_string(),
                            p.primitive_type,
                            p.byte_order,
                            "v"
                        )
                    ),
                    None => write(
                        "b",
                        &mem.offset.to_string(),
                        p.primitive_type,
                        p.byte_order,
                        &v,
                    ),
                });
                hdr.push('\n');
            }
        }
        let bl = g.block_length;
        let nested = self.group_fields(&g.body, &inner, "Encoder")
            + &self.comp_fields(g.body.fields.iter().map(|f| (f.name.as_str(), &f.type_ref)));
        let d = doc(&et, &format!("writes the entries of group `{}`: Next before each entry, then its fields, groups and var data", g.name), g.description.as_deref());
        let mut o = format!("{d}type {et} struct {{\nst *encoderState\nblock *[{bl}]byte\nat int\nlv level\ncount int\n{nested}}}\n\n");
        let _ = writeln!(o, "// begin writes the group's dimension at the limit, for n entries.\nfunc (e *{et}) begin(st *encoderState, up *level, n int) {{\ne.st, e.lv, e.block = st, level{{-1, up}}, nil\nat := st.limit\nif uint(n) <= {max_count} && at >= 0 && at+{dim_len} <= len(st.buf) {{\nb := st.buf[at : at+{dim_len}]\n{hdr}st.limit = at + {dim_len}\ne.count = n\nreturn\n}}\ne.count = 0\nif n < 0 || n > {max_count} {{\nst.setErr(encodeError(at, {group_path}, up, KindCountTooLarge))\nreturn\n}}\nif at < 0 || at+{dim_len} > len(st.buf) {{\nst.setErr(encodeError(at, {group_path}, up, KindBufferTooShort))\n}}\n}}\n");
        o.push_str(&split_method(
            "// Next starts the next entry (at the end of what is written so far) and returns its encoder. More entries than the count given is KindCountTooLarge, no room KindBufferTooShort: the entry's writes then go nowhere.\n",
            ("e", &format!("*{et}")),
            "Next",
            &[],
            &format!("*{et}"),
            |failed| format!("st := e.st\nat := st.limit\ne.lv.index++\ne.at = at\nif e.lv.index < e.count && at+{bl} <= len(st.buf) {{\ne.block = (*[{bl}]byte)(st.buf[at:])\nst.limit = at + {bl}\nreturn e\n}}\nreturn {failed}"),
            &format!("if e.lv.index >= e.count {{\ne.st.setErr(encodeError(e.at, {group_path}, &e.lv, KindCountTooLarge))\n}} else {{\ne.st.setErr(encodeError(e.at, {entry_path}, &e.lv, KindBufferTooShort))\n}}\ne.block = new([{bl}]byte)\nreturn e"),
            false,
        ));
        o.push('\n');
        o.push_str(&self.body_encoder(&g.body, &inner, &et));
        self.w(o);

        for ng in &g.body.groups {
            self.group(ng, &inner);
        }
        let _ = s;
    }
}

static DEFAULT_U16: crate::model::Primitive = crate::model::Primitive {
    primitive_type: PrimitiveType::UInt16,
    length: 1,
    presence: sable_ir::Presence::Required,
    byte_order: ByteOrder::LittleEndian,
    null_value: sable_ir::PrimitiveValue::UInt(65535),
    min_value: sable_ir::PrimitiveValue::UInt(0),
    max_value: sable_ir::PrimitiveValue::UInt(65534),
    const_value: None,
    character_encoding: None,
    range_declared: false,
};

/// The cases of a body's `start` (a message's) or `find` (an entry's) loop: where element j
/// ends, found, checked, from its start `p`; `idx` is the entry indices its errors take.
pub(super) fn find_cases(body: &Body, at: &At, idx: &str) -> String {
    let mut cases = String::new();
    for (j, g) in body.groups.iter().enumerate() {
        let f = private_field(&g.name);
        let step = format!("if g := &d.{f}; g.done(p) {{\nend = g.next\n}} else {{\nend, err = skip{}(d.buf, p, d.version, &d.idx)\n}}", at.entry(g).prefix);
        let _ = writeln!(cases, "case {j}:\n{}", since_end(g.since_version, &step));
    }
    for (j, v) in (body.groups.len()..).zip(&body.var_data) {
        let (ls, big, _) = var_len(v);
        let step = format!("var ok bool\nif end, ok = varDataEnd(d.buf, p, {ls}, {big}); !ok {{\nerr = truncated(p, {}, {idx}, \"var data\", {ls}, len(d.buf)-p)\n}}", at.path(&v.name));
        let _ = writeln!(cases, "case {j}:\n{}", since_end(v.since_version, &step));
    }
    cases
}

/// A `find_cases` step for an element since version `since`: before it, it ends where it
/// starts.
fn since_end(since: i32, step: &str) -> String {
    if since > 0 {
        format!("end = p\nif d.version >= {since} {{\n{step}\n}}")
    } else {
        step.to_owned()
    }
}

/// In a message's accessor of element `j` (with `set_p`, its start `p` too): when element j-1 is a
/// group the caller read to its end (the usual order), its end taken from its decoder
/// inline, as `start` would, so that `start` is not called.
fn past_group(body: &Body, j: usize, set_p: bool) -> String {
    match j.checked_sub(1).and_then(|k| body.groups.get(k)) {
        Some(g) if g.since_version == 0 => format!("if g := &d.{}; d.err == nil && d.found == {} && g.done(d.pos[{}]) {{\nd.found, d.pos[{j}] = {j}, g.next\n{}}}\n", private_field(&g.name), j - 1, j - 1, if set_p { "p = g.next\n" } else { "" }),
        _ => String::new(),
    }
}

/// Whether a message's accessor of its element `j`, var data, reads it inline with no test of
/// `found`, so that it is small enough to inline: var data after var data, since version 0,
/// its length unsigned and at most 32 bits. Its start, `pos[j]`, is then the buffer's length
/// until it is found (`open`, `WrapBody` and `wrapChecked` set it so): no var data fits there.
/// (Any other `pos[j]` is its start: `found` may go down, to `j + 1`, but no further.)
pub(super) fn var_inline(body: &Body, j: usize) -> bool {
    let Some(k) = j.checked_sub(body.groups.len() + 1) else {
        return false;
    };
    body.var_data.get(k + 1).is_some_and(|v| {
        let lt = v.length.primitive_type;
        v.since_version == 0 && lt.is_unsigned() && lt.size() <= 4
    })
}

/// Whether the entries of a group with body `body` find their groups and var data lazily
/// (`find`): entries with groups, or var data newer than version 0. (Entries of a block and
/// var data read the lengths in Next; entries of a block alone have nothing to find.)
fn lazy(body: &Body) -> bool {
    !body.groups.is_empty() || body.var_data.iter().any(|v| v.since_version > 0)
}

/// Whether group `g`'s entries are stepped by position (`end`) when its accessor opens them all
/// fitting: entries of a block of more than no bytes, with no groups or var data. The accessor
/// (`open_fast`) sets `end` exactly when the decoder type has it.
fn by_position(g: &Group) -> bool {
    g.block_length > 0 && g.body.groups.is_empty() && g.body.var_data.is_empty()
}

/// Whether the decoder of group `g` reads its acting version: entries with groups or var data
/// (their checks), or fields since a later version or composites (entries of a fixed size).
fn reads_version(g: &Group) -> bool {
    !g.body.groups.is_empty()
        || !g.body.var_data.is_empty()
        || g.body
            .fields
            .iter()
            .any(|f| f.since_version > 0 || matches!(f.type_ref, TypeRef::Composite(_)))
}

/// The statements giving the decoders of the groups of a message's `body` (in decoder `d`),
/// and of theirs, the message's buffer and acting version: set when the message is wrapped,
/// once, so that no group's accessor stores them (their `wrap`s do again, for their checks).
/// The buffers in one assignment (their write barrier tested once).
pub(super) fn shares(body: &Body, d: &str, buf: &str, version: &str) -> String {
    fn decoders(body: &Body, d: &str, out: &mut Vec<(String, bool)>) {
        for g in &body.groups {
            let f = format!("{d}.{}", private_field(&g.name));
            out.push((f.clone(), reads_version(g)));
            decoders(&g.body, &f, out);
        }
    }
    let mut all = Vec::new();
    decoders(body, d, &mut all);
    let assign = |fields: Vec<String>, value: &str| -> String {
        if fields.is_empty() {
            return String::new();
        }
        let values = vec![value; fields.len()].join(", ");
        format!("{} = {values}\n", fields.join(", "))
    };
    let bufs = all.iter().map(|(f, _)| format!("{f}.buf")).collect();
    let versions = all
        .iter()
        .filter(|(_, v)| *v)
        .map(|(f, _)| format!("{f}.version"))
        .collect();
    assign(bufs, buf) + &assign(versions, version)
}

/// The struct field holding a group's codec (unexported: the group's name with `g` before it).
pub(super) fn private_field(name: &str) -> String {
    format!("g{}", exported(name))
}

/// `stmts` only from version `since` on.
fn since_if(since: i32, stmts: &str) -> String {
    if since > 0 {
        format!("if version >= {since} {{\n{stmts}\n}}")
    } else {
        stmts.to_owned()
    }
}

/// JSON statements of an element since version `since`: `null` before it.
fn since_guard(since: i32, stmts: &str) -> String {
    if since > 0 {
        format!(
            "if d.version >= {since} {{\n{stmts}\n}} else {{\ndst = append(dst, \"null\"...)\n}}\n"
        )
    } else {
        format!("{{\n{stmts}\n}}\n")
    }
}

/// A member's metadata methods: its id and the version it appeared in.
pub(super) fn meta(t: &str, name: &str, id: i32, since: i32) -> String {
    let x = exported(name);
    format!("// {x}ID returns the id of `{name}` in the schema.\nfunc (d *{t}) {x}ID() int {{\nreturn {id}\n}}\n\n// {x}SinceVersion returns the schema version `{name}` appeared in.\nfunc (d *{t}) {x}SinceVersion() int {{\nreturn {since}\n}}\n\n")
}

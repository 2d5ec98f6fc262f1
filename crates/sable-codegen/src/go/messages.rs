//! Messages: a decoder (Wrap, fields, groups and var data found in any order, AppendJSON) and
//! an encoder (Wrap writes the header); and the schema-level entry point, AppendJSON.

use std::fmt::Write as _;

use crate::model::{Message, TypeRef};

use super::code::{doc, exported, go_str, gotype, lit, read, write};
use super::groups::{
    block_at, block_fields, find_cases, min_block, nulls_name, private_field, shares, var_inline,
    At,
};
use super::Gen;

impl Gen<'_> {
    /// The header member `name`'s value as an int expression over `b`, or `0` without one.
    fn header_read(&self, name: &str, b: &str) -> String {
        match self.s.header_composite().primitive(name) {
            Some((m, p)) if !p.is_array() && !p.is_constant() => {
                format!(
                    "int({})",
                    read(b, &m.offset.to_string(), p.primitive_type, p.byte_order)
                )
            }
            Some((_, p)) if p.is_constant() => p
                .const_value
                .as_ref()
                .map_or("0".to_owned(), |v| lit(v, p.primitive_type)),
            _ => "0".to_owned(),
        }
    }

    fn header_offset(&self, name: &str) -> usize {
        self.s
            .header_composite()
            .member(name)
            .map_or(0, |m| m.offset)
    }

    /// `putHeader` and `readHeader`, shared by the messages.
    fn header_functions(&self) -> String {
        let h = self.s.header_composite();
        let mut put = String::new();
        for m in &h.members {
            if let TypeRef::Primitive(p) = &m.type_ref {
                if p.is_constant() || p.is_array() {
                    continue;
                }
                let gt = gotype(p.primitive_type);
                let v = match m.name.as_str() {
                    "blockLength" => format!("{gt}(blockLength)"),
                    "templateId" => format!("{gt}(templateID)"),
                    "schemaId" => format!("{gt}(SchemaID)"),
                    "version" => format!("{gt}(SchemaVersion)"),
                    _ => format!("null{}", lit(&p.null_value, p.primitive_type)),
                };
                let _ = writeln!(
                    put,
                    "{}",
                    match v.strip_prefix("null") {
                        Some(null) => format!(
                            "{{\nv := {gt}({null})\n{}\n}}",
                            write(
                                "b",
                                &m.offset.to_string(),
                                p.primitive_type,
                                p.byte_order,
                                "v"
                            )
                        ),
                        None => write(
                            "b",
                            &m.offset.to_string(),
                            p.primitive_type,
                            p.byte_order,
                            &v
                        ),
                    }
                );
            }
        }
        let schema_id = self.header_read("schemaId", "buf");
        format!("// putHeader writes a message header at b[0:] for the schema's version.\nfunc putHeader(b []byte, blockLength, templateID int) {{\n{put}}}\n\n// readHeader reads the message header at buf[0:], checked: the template id, block length and version.\nfunc readHeader(buf []byte) (templateID, blockLength, version int, err error) {{\nif len(buf) < HeaderSize {{\nreturn 0, 0, 0, truncated(0, \"header\", nil, \"message header\", HeaderSize, len(buf))\n}}\nif id := {schema_id}; id != SchemaID {{\nreturn 0, 0, 0, decodeError({}, \"header.schemaId\", nil, KindSchemaIDMismatch, \"schema id \"+strconv.Itoa(id)+\", expected \"+strconv.Itoa(SchemaID))\n}}\nreturn {}, {}, {}, nil\n}}", self.header_offset("schemaId"), self.header_read("templateId", "buf"), self.header_read("blockLength", "buf"), self.header_read("version", "buf"))
    }

    pub(super) fn message(&mut self, m: &Message) {
        let x = exported(&m.name);
        let (dt, et) = (format!("{x}Decoder"), format!("{x}Encoder"));
        let at = At {
            prefix: x.clone(),
            json: "fields".into(),
            depth: 0,
        };
        let body = &m.body;
        let n_el = body.groups.len() + body.var_data.len();
        let bl = m.block_length;
        let needs = min_block(body);
        let hdr_t = format!("{}Decoder", exported(&self.s.header));
        let nulls = nulls_name(&at);
        let block = block_fields(bl);
        self.w(format!("// The ids and size of message {x}.\nconst (\n// {x}TemplateID is the template id of message `{0}`.\n{x}TemplateID = {1}\n// {x}BlockLength is the block length of message `{0}`.\n{x}BlockLength = {bl}\n)", m.name, m.id));

        // The decoder.
        let (methods, json) = self.body_decoder(body, &at, &dt);
        let nested = self.group_fields(body, &at, "Decoder");
        let mut o = doc(&dt, &format!("reads message `{}` from a buffer, without copying: Wrap it, then read its fields in any order and its groups and var data in any order", m.name), m.description.as_deref());
        let _ = writeln!(o, "type {dt} struct {{\nbuf []byte\n// hdr says whether the message was wrapped with its header, at buf[0:]; ok whether it was wrapped.\nhdr bool\nok bool\n{block}version int\nblockLength int\npos [{}]int\nfound int\nerr error\n// idx is where skipping a group notes the entry it is at (for its errors).\nidx [pathDepth]int\n{nested}}}\n", n_el + 1);
        let bl_check = if needs > 0 {
            format!("if version >= SchemaVersion && blockLength < {needs} {{\nreturn d.failWith(decodeError({}, \"header.blockLength\", nil, KindBlockLengthTooShort, \"block length \"+strconv.Itoa(blockLength)+\" is below the fields' {needs}\"))\n}}\n", self.header_offset("blockLength"))
        } else {
            String::new()
        };
        // Wrap's fast path: a header that passes every check, tested by one condition; the
        // checks one by one, and their errors, only when it does not.
        let fits_block = if needs > 0 {
            format!(" && blockLength >= {needs}")
        } else {
            String::new()
        };
        // The groups not found yet; their decoders are given the buffer and version (`shares`).
        let resets = |d: &str| -> String {
            body.groups
                .iter()
                .map(|g| format!("{d}.{}.start = -1\n", private_field(&g.name)))
                .collect()
        };
        // The starts of the var data read with no test of `found` (var_inline): not found.
        let unfound = |buf: &str| -> String {
            (0..n_el)
                .filter(|&j| var_inline(body, j))
                .map(|j| format!("d.pos[{j}] = len({buf})\n"))
                .collect()
        };
        // The statements of `open`: the body at buf[offset:] wrapped (`hdr`: with its header),
        // its block pointed at by `block`.
        let opens = |hdr: bool, offset: &str, version: &str, block: &str| -> String {
            format!("d.buf, d.hdr, d.ok, d.version, d.blockLength, d.found, d.err = buf, {hdr}, true, {version}, blockLength, 0, nil\n{}{block}\n{}d.pos[0] = {offset} + blockLength\n{}", resets("d"), shares(body, "d", "buf", "d.version"), unfound("buf"))
        };
        // When the header's block length passes the check only if it is at least the schema's
        // (no older writer's shorter block to copy), Wrap opens the body itself, with no call.
        let wrap_open = if needs >= bl {
            let block = if bl > 0 {
                format!("d.block = (*[{bl}]byte)(buf[HeaderSize : HeaderSize+{bl}])")
            } else {
                format!("d.block = &{nulls}")
            };
            opens(
                true,
                "HeaderSize",
                &self.header_read("version", "buf"),
                &block,
            )
        } else {
            format!(
                "d.open(buf, HeaderSize, blockLength, {})\nd.hdr = true\n",
                self.header_read("version", "buf")
            )
        };
        let _ = writeln!(o, "// Wrap reads and checks the message header at buf[0:] (the message's first byte: every offset an error reports is from it) and wraps the message.\nfunc (d *{dt}) Wrap(buf []byte) error {{\nif len(buf) >= HeaderSize {{\nblockLength := {}\nif {} == {x}TemplateID && {} == SchemaID{fits_block} && blockLength <= len(buf)-HeaderSize {{\n{wrap_open}return nil\n}}\n}}\nreturn d.wrapChecked(buf)\n}}\n", self.header_read("blockLength", "buf"), self.header_read("templateId", "buf"), self.header_read("schemaId", "buf"));
        let _ = writeln!(o, "// wrapChecked is Wrap checking the header item by item, for the error of the first that fails.\nfunc (d *{dt}) wrapChecked(buf []byte) error {{\nd.block, d.hdr, d.ok, d.found = &{nulls}, false, false, 0\n{}templateID, blockLength, version, err := readHeader(buf)\nif err != nil {{\nreturn d.failWith(err)\n}}\nif templateID != {x}TemplateID {{\nreturn d.failWith(decodeError({}, \"header.templateId\", nil, KindUnknownTemplate, \"template id \"+strconv.Itoa(templateID)+\" is not {}'s\"))\n}}\n{bl_check}if err := d.WrapBody(buf, HeaderSize, blockLength, version); err != nil {{\nreturn err\n}}\nd.hdr = true\nreturn nil\n}}\n", unfound("d.buf"), self.header_offset("templateId"), m.name);
        let _ = writeln!(o, "// WrapBody wraps the message's body at buf[offset:], written with block length blockLength at version version (from a header read elsewhere).\nfunc (d *{dt}) WrapBody(buf []byte, offset, blockLength, version int) error {{\nif offset < 0 || blockLength < 0 || offset > len(buf) || blockLength > len(buf)-offset {{\nd.buf, d.hdr, d.ok, d.version, d.blockLength, d.found, d.block = buf, false, false, version, blockLength, 0, &{nulls}\n{}{}return d.failWith(truncated(offset, \"fields\", nil, \"root block\", blockLength, len(buf)-offset))\n}}\nd.open(buf, offset, blockLength, version)\nreturn nil\n}}\n", resets("d") + &shares(body, "d", "buf", "version"), unfound("buf"));
        let _ = writeln!(o, "// open wraps the body at buf[offset:], its block checked to fit.\nfunc (d *{dt}) open(buf []byte, offset, blockLength, version int) {{\n{}}}\n", opens(false, "offset", "version", &block_at(&at, bl, "buf", "offset", "blockLength")));
        let _ = writeln!(o, "func (d *{dt}) failWith(err error) error {{\nd.err = err\nreturn err\n}}\n\n// fail records err unless an error came before it.\nfunc (d *{dt}) fail(err error) {{\nif d.err == nil {{\nd.err = err\n}}\n}}\n\n// Err returns the first error met: wrapping, or finding a group or var data.\nfunc (d *{dt}) Err() error {{\nreturn d.err\n}}\n\n// ActingVersion returns the version the message was written at.\nfunc (d *{dt}) ActingVersion() int {{\nreturn d.version\n}}\n\n// ActingBlockLength returns the block length the message was written with.\nfunc (d *{dt}) ActingBlockLength() int {{\nreturn d.blockLength\n}}\n");
        // start(i): where element i starts, found (checked) by skipping those before it.
        let cases = find_cases(body, &at, "nil");
        if n_el > 0 {
            let _ = writeln!(o, "// start returns where group or var data i (in schema order; {n_el}: the message's end) starts, found by skipping, checked, those between the last found and it; -1 after an error.\nfunc (d *{dt}) start(i int) int {{\nif !d.ok {{\nreturn -1\n}}\nfor d.found < i {{\nif d.err != nil {{\nreturn -1\n}}\np := d.pos[d.found]\nvar end int\nvar err error\nswitch d.found {{\n{cases}}}\nif err != nil {{\nd.err = err\nreturn -1\n}}\nd.found++\nd.pos[d.found] = end\n}}\nreturn d.pos[i]\n}}\n");
        } else {
            let _ = writeln!(o, "// start returns where the message ends; -1 after an error.\nfunc (d *{dt}) start(i int) int {{\nif !d.ok {{\nreturn -1\n}}\nreturn d.pos[i]\n}}\n");
        }
        let _ = writeln!(o, "// EncodedLength returns the length of the whole message, from its first byte (its header) to the end of its last var data, found (checked) without moving the decoder.\nfunc (d *{dt}) EncodedLength() (int, error) {{\nend := d.start({n_el})\nif end < 0 {{\nreturn 0, d.err\n}}\nstart := d.pos[0] - d.blockLength - HeaderSize\nreturn end - start, nil\n}}\n");
        o.push_str(&self.null_block(body, &at, &dt, bl));
        o.push_str(&methods);
        let hdr_json = format!("if d.hdr {{\ndst = {hdr_t}{{block: (*[HeaderSize]byte)(d.buf)}}.appendJSON(dst)\n}} else {{\nvar h [HeaderSize]byte\nputHeader(h[:], d.blockLength, {x}TemplateID)\ndst = {hdr_t}{{block: &h}}.appendJSON(dst)\n}}");
        let _ = writeln!(o, "// AppendJSON appends the message's canonical JSON (docs/json.md) to dst, and returns the error met on the way, if any. It does not allocate (but to grow dst, and for an older writer's shorter group entries, a copy the first time) and may be called at any point of reading the message: it reads with decoders of its own.\nfunc (d *{dt}) AppendJSON(dst []byte) ([]byte, error) {{\nc := {dt}{{buf: d.buf, hdr: d.hdr, ok: d.ok, block: d.block, version: d.version, blockLength: d.blockLength, pos: d.pos, found: d.found, err: d.err}}\n{}return c.appendJSON(dst)\n}}\n\nfunc (d *{dt}) appendJSON(dst []byte) ([]byte, error) {{\nif !d.ok {{\nreturn dst, d.err\n}}\ndst = append(dst, {}...)\n{hdr_json}\ndst = append(dst, `,\"fields\":{{`...)\n{json}return append(dst, \"}}}}\"...), nil\n}}\n", resets("c") + &shares(body, "c", "d.buf", "d.version"), go_str(&format!("{{\"message\":{},\"header\":", crate::rust::json::text_json(m.name.as_bytes(), Some("UTF-8")))));
        let _ = writeln!(o, "// String gives the message's canonical JSON, or the error that stopped it.\nfunc (d *{dt}) String() string {{\nb, err := d.AppendJSON(nil)\nif err != nil {{\nreturn err.Error()\n}}\nreturn string(b)\n}}\n\n// MarshalJSON gives the message's canonical JSON (encoding/json.Marshaler).\nfunc (d *{dt}) MarshalJSON() ([]byte, error) {{\nreturn d.AppendJSON(nil)\n}}");
        self.w(o);

        // The encoder.
        let nested = self.group_fields(body, &at, "Encoder")
            + &self.comp_fields(body.fields.iter().map(|f| (f.name.as_str(), &f.type_ref)));
        let mut o = doc(&et, &format!("writes message `{}` into a buffer: Wrap it, set its fields in any order, then its groups and var data in schema order; check Err at the end", m.name), m.description.as_deref());
        let _ = writeln!(o, "type {et} struct {{\nstate encoderState\nst *encoderState\nblock *[{bl}]byte\nat int\nfirst int\n{nested}}}\n");
        // The body started at buf[offset:] (the header at `first`). The state is set field by
        // field: assigned as a struct literal it was zeroed first (three more stores, and a
        // second write barrier test).
        let start = |offset: &str, first: &str| -> String {
            format!("e.state.buf, e.state.limit, e.state.err = buf, {offset}+{bl}, nil\ne.st, e.at, e.first = &e.state, {offset}, {first}\n")
        };
        // When the block fits, Wrap starts the body itself, with no call of WrapBody.
        let _ = writeln!(o, "// Wrap starts a message at buf[0:], writing its header; too short a buffer is KindBufferTooShort (and the writes that follow go nowhere).\nfunc (e *{et}) Wrap(buf []byte) error {{\nif len(buf) < HeaderSize {{\ne.WrapBody(buf[:0], 0)\ne.state.err = encodeError(0, \"header\", nil, KindBufferTooShort)\nreturn e.state.err\n}}\nputHeader(buf, {x}BlockLength, {x}TemplateID)\nif {bl} <= len(buf)-HeaderSize {{\n{}e.block = (*[{bl}]byte)(buf[HeaderSize : HeaderSize+{bl}])\nreturn nil\n}}\nreturn e.WrapBody(buf, HeaderSize)\n}}\n", start("HeaderSize", "0"));
        let _ = writeln!(o, "// WrapBody starts the message's body at buf[offset:], without a header.\nfunc (e *{et}) WrapBody(buf []byte, offset int) error {{\n{}if offset < 0 || offset > len(buf) || {bl} > len(buf)-offset {{\ne.block = new([{bl}]byte)\ne.state.limit = max(offset, 0)\ne.state.err = encodeError(offset, \"fields\", nil, KindBufferTooShort)\nreturn e.state.err\n}}\ne.block = (*[{bl}]byte)(buf[offset : offset+{bl}])\nreturn nil\n}}\n", start("offset", "offset-HeaderSize"));
        let _ = writeln!(o, "// Err returns the first error met writing the message.\nfunc (e *{et}) Err() error {{\nreturn e.state.err\n}}\n\n// EncodedLength returns the length of the message written so far, from its header.\nfunc (e *{et}) EncodedLength() int {{\nreturn e.state.limit - max(e.first, 0)\n}}\n\n// Bytes returns the message written so far, from its header (a view of the buffer).\nfunc (e *{et}) Bytes() []byte {{\nreturn e.state.buf[max(e.first, 0):e.state.limit]\n}}\n");
        o.push_str(&self.body_encoder(body, &at, &et));
        self.w(o);
        for g in &body.groups {
            self.group(g, &at);
        }
    }

    /// The schema-level entry point.
    pub(super) fn any_message(&mut self) {
        let h = self.header_functions();
        self.w(h);
        let mut cases = String::new();
        for m in &self.s.messages {
            let x = exported(&m.name);
            let _ = writeln!(cases, "case {x}TemplateID:\nvar d {x}Decoder\nif err := d.Wrap(buf); err != nil {{\nreturn dst, err\n}}\nreturn d.appendJSON(dst)");
        }
        self.w(format!("// AppendJSON appends the canonical JSON (docs/json.md) of the message at buf[0:], any message of the schema: it reads the header, checks the schema id and dispatches on the template id. The error, if any, is a *DecodeError with the codec contract's offset, field and kind.\nfunc AppendJSON(dst, buf []byte) ([]byte, error) {{\ntemplateID, _, _, err := readHeader(buf)\nif err != nil {{\nreturn dst, err\n}}\nswitch templateID {{\n{cases}}}\nreturn dst, decodeError({}, \"header.templateId\", nil, KindUnknownTemplate, \"no message of the schema has template id \"+strconv.Itoa(templateID))\n}}", self.header_offset("templateId")));
    }
}

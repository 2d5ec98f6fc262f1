//! An independent walk of one message by its IR's tokens: the items a decoder reads, in reading
//! order (docs/codecs.md, "Errors"), or the contract's error for the first one it cannot read.
//!
//! Written for the malformed vectors only, straight from the token list and the contract's
//! rules, so that their expected offsets do not come from `sable_otf`'s decoder (whose plan is
//! compiled differently) but are checked against it.

use sable_ir::{ByteOrder, Ir, PrimitiveType, Signal, Token};

/// One item read: where it starts, its bytes, its field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub start: usize,
    pub len: usize,
    pub path: String,
    pub what: ItemKind,
}

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    Header,
    Block,
    /// A group's dimensions: where its blockLength and numInGroup lie (offsets in the
    /// dimensions) and their types.
    Dimensions {
        block_length: (usize, PrimitiveType),
        count: (usize, PrimitiveType),
    },
    /// A var data: where its length lies and its type.
    VarData {
        length: (usize, PrimitiveType),
    },
}

/// The contract's report of a message that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub offset: usize,
    pub field: String,
    pub kind: &'static str,
}

/// The header members the walk reads: (offset, type) of each.
#[derive(Debug, Clone, Copy)]
pub struct HeaderLayout {
    pub size: usize,
    pub block_length: (usize, PrimitiveType),
    pub template_id: (usize, PrimitiveType),
    pub schema_id: (usize, PrimitiveType),
    pub version: (usize, PrimitiveType),
}

impl HeaderLayout {
    pub fn of(ir: &Ir) -> HeaderLayout {
        let member = |name: &str| {
            let t = ir
                .header_field(name)
                .unwrap_or_else(|| panic!("the header has no {name}"));
            (offset(t), primitive(t))
        };
        HeaderLayout {
            size: usize::try_from(ir.header_tokens[0].encoded_length).expect("a fixed header"),
            block_length: member("blockLength"),
            template_id: member("templateId"),
            schema_id: member("schemaId"),
            version: member("version"),
        }
    }
}

/// The offset and type of the member `name` among `members` (of `owner`'s composite).
fn member(members: &[Token], name: &str, owner: &Token) -> (usize, PrimitiveType) {
    let m = members
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("'{}' has no member {name}", owner.name));
    (offset(m), primitive(m))
}

fn offset(t: &Token) -> usize {
    usize::try_from(t.offset).unwrap_or_else(|_| panic!("'{}' has no offset", t.name))
}

fn primitive(t: &Token) -> PrimitiveType {
    t.encoding
        .primitive_type
        .unwrap_or_else(|| panic!("'{}' has no primitive type", t.name))
}

/// Reads the unsigned integer of `ty` at `at` (in bounds).
pub fn read(bytes: &[u8], at: usize, ty: PrimitiveType, big: bool) -> u64 {
    let raw = &bytes[at..at + ty.size()];
    let mut v = 0u64;
    for i in 0..raw.len() {
        let b = if big { raw[i] } else { raw[raw.len() - 1 - i] };
        v = (v << 8) | u64::from(b);
    }
    v
}

/// Writes `value` as `ty` at `at` (in bounds).
pub fn write(bytes: &mut [u8], at: usize, ty: PrimitiveType, big: bool, value: u64) {
    let n = ty.size();
    for i in 0..n {
        let b = (value >> (8 * i)) as u8;
        let j = if big { n - 1 - i } else { i };
        bytes[at + j] = b;
    }
}

/// The walk of one message.
struct Walk<'a> {
    bytes: &'a [u8],
    big: bool,
    acting: i64,
    schema_version: i64,
    items: Vec<Item>,
}

/// Walks the message in `bytes` (from its header) with the schema of `ir`: the items read, or
/// the first failure.
pub fn walk(ir: &Ir, bytes: &[u8]) -> Result<Vec<Item>, Failure> {
    let h = HeaderLayout::of(ir);
    let big = ir.byte_order == ByteOrder::BigEndian;
    let fail = |offset: usize, field: &str, kind: &'static str| Failure {
        offset,
        field: field.to_owned(),
        kind,
    };
    if bytes.len() < h.size {
        return Err(fail(0, "header", "truncated"));
    }
    let get = |(at, ty): (usize, PrimitiveType)| read(bytes, at, ty, big);
    if get(h.schema_id) != u64::try_from(ir.id).unwrap_or(u64::MAX) {
        return Err(fail(h.schema_id.0, "header.schemaId", "schemaIdMismatch"));
    }
    let template = get(h.template_id);
    let Some(tokens) = ir
        .messages
        .iter()
        .find(|m| u64::try_from(m[0].id).ok() == Some(template))
    else {
        return Err(fail(
            h.template_id.0,
            "header.templateId",
            "unknownTemplate",
        ));
    };
    let acting = i64::try_from(get(h.version)).unwrap_or(i64::MAX);
    let block_length = usize::try_from(get(h.block_length)).unwrap_or(usize::MAX);
    let schema_block = usize::try_from(tokens[0].encoded_length).expect("a message block length");
    let schema_version = i64::from(ir.version);
    if block_length < schema_block && acting >= schema_version {
        return Err(fail(
            h.block_length.0,
            "header.blockLength",
            "blockLengthTooShort",
        ));
    }
    let mut w = Walk {
        bytes,
        big,
        acting,
        schema_version,
        items: vec![Item {
            start: 0,
            len: h.size,
            path: "header".into(),
            what: ItemKind::Header,
        }],
    };
    w.item(h.size, block_length, "fields".into(), ItemKind::Block)?;
    w.tail(
        &tokens[1..tokens.len() - 1],
        h.size + block_length,
        "fields.",
    )?;
    Ok(w.items)
}

impl Walk<'_> {
    /// Records the item, or fails when it does not fit.
    fn item(
        &mut self,
        start: usize,
        len: usize,
        path: String,
        what: ItemKind,
    ) -> Result<usize, Failure> {
        match start.checked_add(len) {
            Some(end) if end <= self.bytes.len() => {
                self.items.push(Item {
                    start,
                    len,
                    path,
                    what,
                });
                Ok(end)
            }
            _ => Err(Failure {
                offset: start,
                field: path,
                kind: "truncated",
            }),
        }
    }

    /// Walks the groups and var data among `tokens` (a block's fields, groups and var data),
    /// starting at `pos`; returns where they end.
    fn tail(&mut self, tokens: &[Token], mut pos: usize, prefix: &str) -> Result<usize, Failure> {
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            let span = usize::try_from(t.component_token_count).expect("a token count");
            let inner = &tokens[i + 1..i + span - 1];
            i += span;
            let present = i64::from(t.version) <= self.acting;
            match t.signal {
                Signal::BeginGroup if present => pos = self.group(t, inner, pos, prefix)?,
                Signal::BeginVarData if present => pos = self.var_data(t, inner, pos, prefix)?,
                _ => {}
            }
        }
        Ok(pos)
    }

    fn group(
        &mut self,
        t: &Token,
        inner: &[Token],
        pos: usize,
        prefix: &str,
    ) -> Result<usize, Failure> {
        let dim = &inner[0];
        let dn = usize::try_from(dim.component_token_count).expect("a token count");
        let members = &inner[1..dn - 1];
        let (bl_at, count_at) = (
            member(members, "blockLength", t),
            member(members, "numInGroup", t),
        );
        let size = usize::try_from(dim.encoded_length).expect("a fixed dimension");
        let path = format!("{prefix}{}", t.name);
        let what = ItemKind::Dimensions {
            block_length: bl_at,
            count: count_at,
        };
        let mut pos = self.item(pos, size, path.clone(), what)?;
        let at = pos - size;
        let bl = read(self.bytes, at + bl_at.0, bl_at.1, self.big) as usize;
        let count = read(self.bytes, at + count_at.0, count_at.1, self.big);
        let body = &inner[dn..];
        if bl < fields_extent(body) && self.acting >= self.schema_version {
            return Err(Failure {
                offset: at + bl_at.0,
                field: path,
                kind: "blockLengthTooShort",
            });
        }
        for index in 0..count {
            let entry = format!("{path}[{index}]");
            pos = self.item(pos, bl, entry.clone(), ItemKind::Block)?;
            pos = self.tail(body, pos, &format!("{entry}."))?;
        }
        Ok(pos)
    }

    fn var_data(
        &mut self,
        t: &Token,
        inner: &[Token],
        pos: usize,
        prefix: &str,
    ) -> Result<usize, Failure> {
        let (at, ty) = member(inner, "length", t);
        let (data_at, _) = member(inner, "varData", t);
        let path = format!("{prefix}{}", t.name);
        let fail = Failure {
            offset: pos,
            field: path.clone(),
            kind: "truncated",
        };
        if pos + data_at > self.bytes.len() {
            return Err(fail);
        }
        let n = usize::try_from(read(self.bytes, pos + at, ty, self.big)).map_err(|_| fail)?;
        self.item(
            pos,
            data_at + n,
            path,
            ItemKind::VarData { length: (at, ty) },
        )
    }
}

/// The bytes the fields of a group's entry take (the end of the last one), at the schema's
/// version: what a writer at that version must write at least.
fn fields_extent(body: &[Token]) -> usize {
    let mut end = 0;
    let mut i = 0;
    while i < body.len() {
        let t = &body[i];
        let span = usize::try_from(t.component_token_count).expect("a token count");
        if t.signal == Signal::BeginField {
            let ty = &body[i + 1];
            if let (Ok(off), Ok(len)) = (
                usize::try_from(t.offset),
                usize::try_from(ty.encoded_length),
            ) {
                let constant = [t, ty]
                    .iter()
                    .any(|t| t.encoding.presence == sable_ir::Presence::Constant);
                if !constant {
                    end = end.max(off + len);
                }
            }
        }
        i += span;
    }
    end
}

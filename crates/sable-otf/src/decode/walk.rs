//! The walk of a block by its plan, reported to a [`Visitor`]; the bounds checks of blocks,
//! groups and var data.

use super::error::{DecodeError, DecodeErrorKind};
use super::plan::{number_of, DataCheck, GroupCheck, Kind, Node, NullCheck};
use super::value::{
    is_nan, read_raw, scalar, Array, FieldInfo, GroupHeader, Header, MessageInfo, Value,
};

/// What the decoder reports, in wire order. Every method does nothing by default.
///
/// A message is: [`begin_message`](Visitor::begin_message), a [`field`](Visitor::field) per
/// header field, [`end_header`](Visitor::end_header), then its fields (composites between
/// [`begin_composite`](Visitor::begin_composite) and
/// [`end_composite`](Visitor::end_composite)), groups (entries between
/// [`begin_entry`](Visitor::begin_entry) and [`end_entry`](Visitor::end_entry)) and var data in
/// schema order, then [`end_message`](Visitor::end_message). When decoding fails, no more calls
/// are made (and `end_message` is not called).
#[allow(unused_variables)]
pub trait Visitor {
    /// A message starts; its header's fields follow.
    fn begin_message(&mut self, message: &MessageInfo, header: &Header) {}
    /// The header's fields are done; the message's fields follow.
    fn end_header(&mut self) {}
    /// A field or composite member holding a value (a constant's value, [`Value::Null`],
    /// [`Value::Absent`] for an element newer than the acting version, composites included).
    fn field(&mut self, field: &FieldInfo, value: Value<'_>) {}
    /// A composite field or member starts; its members follow.
    fn begin_composite(&mut self, field: &FieldInfo) {}
    /// A composite ends.
    fn end_composite(&mut self, field: &FieldInfo) {}
    /// A group starts.
    fn begin_group(&mut self, group: &FieldInfo, header: GroupHeader) {}
    /// Entry `index` of a group starts.
    fn begin_entry(&mut self, group: &FieldInfo, index: u64) {}
    /// Entry `index` of a group ends.
    fn end_entry(&mut self, group: &FieldInfo, index: u64) {}
    /// A group ends.
    fn end_group(&mut self, group: &FieldInfo) {}
    /// A group newer than the acting version (absent from the wire).
    fn absent_group(&mut self, group: &FieldInfo) {}
    /// Var data: [`Value::Text`], [`Value::Bytes`] or [`Value::Absent`].
    fn var_data(&mut self, data: &FieldInfo, value: Value<'_>) {}
    /// The message ends.
    fn end_message(&mut self, message: &MessageInfo) {}
    /// The bytes of a block whose fields come next: the message header's (after
    /// `begin_message`), the root block's (after `end_header`), each group entry's (after
    /// `begin_entry`). `bytes` holds every field present at the `acting` version that lies
    /// within the block (a field newer than `acting`, or past the end of an older writer's
    /// shorter block, is absent). A visitor that reads the fields itself, by their offsets in
    /// the [`layouts`](Decoder::layouts), returns `true`: the block's `field`,
    /// `begin_composite` and `end_composite` calls are then not made. By default it returns
    /// `false`.
    fn block(&mut self, bytes: &[u8], acting: i64) -> bool {
        false
    }
    /// Every entry of a group whose entries hold fields alone (no groups, no var data), after
    /// `begin_group`: `count` blocks of `block_length` bytes back to back in `bytes`, each as
    /// [`block`](Visitor::block) would be given it. A visitor that reads them itself returns
    /// `true`: `begin_entry`, the entries' fields and `end_entry` are then not reported
    /// (`end_group` is). By default it returns `false`. Not called when the entries run past
    /// the end of the message (they are then reported one by one, up to the error).
    fn entries(
        &mut self,
        group: &FieldInfo,
        bytes: &[u8],
        count: u64,
        block_length: usize,
        acting: i64,
    ) -> bool {
        false
    }
}

/// How the decoder reports a block's fields: one by one to the [`Visitor`] by default; a
/// printer of the crate may walk the plan itself (the JSON printer does, writing each field in
/// one step), as long as it reports what the visitor calls would.
pub(crate) trait Walk: Visitor + Sized {
    /// Reports `fields` of a block (`block` its bytes, long enough for every field present at
    /// `acting`).
    #[inline(always)]
    fn fields<const BIG: bool>(&mut self, fields: &[Node], block: &[u8], acting: i64) {
        for n in fields {
            visit_node::<BIG, Self>(n, block, acting, self);
        }
    }
}

impl Walk for () {}

/// Any visitor, walked field by field.
pub(crate) struct Plain<'v, V>(pub(crate) &'v mut V);

impl<V: Visitor> Walk for Plain<'_, V> {
    #[inline(always)]
    fn fields<const BIG: bool>(&mut self, fields: &[Node], block: &[u8], acting: i64) {
        if self.0.block(block, acting) {
            return;
        }
        for n in fields {
            visit_node::<BIG, Self>(n, block, acting, self);
        }
    }
}

impl<V: Visitor> Visitor for Plain<'_, V> {
    #[inline(always)]
    fn begin_message(&mut self, message: &MessageInfo, header: &Header) {
        self.0.begin_message(message, header)
    }
    #[inline(always)]
    fn end_header(&mut self) {
        self.0.end_header()
    }
    #[inline(always)]
    fn field(&mut self, field: &FieldInfo, value: Value<'_>) {
        self.0.field(field, value)
    }
    #[inline(always)]
    fn begin_composite(&mut self, field: &FieldInfo) {
        self.0.begin_composite(field)
    }
    #[inline(always)]
    fn end_composite(&mut self, field: &FieldInfo) {
        self.0.end_composite(field)
    }
    #[inline(always)]
    fn begin_group(&mut self, group: &FieldInfo, header: GroupHeader) {
        self.0.begin_group(group, header)
    }
    #[inline(always)]
    fn begin_entry(&mut self, group: &FieldInfo, index: u64) {
        self.0.begin_entry(group, index)
    }
    #[inline(always)]
    fn end_entry(&mut self, group: &FieldInfo, index: u64) {
        self.0.end_entry(group, index)
    }
    #[inline(always)]
    fn end_group(&mut self, group: &FieldInfo) {
        self.0.end_group(group)
    }
    #[inline(always)]
    fn absent_group(&mut self, group: &FieldInfo) {
        self.0.absent_group(group)
    }
    #[inline(always)]
    fn var_data(&mut self, data: &FieldInfo, value: Value<'_>) {
        self.0.var_data(data, value)
    }
    #[inline(always)]
    fn end_message(&mut self, message: &MessageInfo) {
        self.0.end_message(message)
    }
    #[inline(always)]
    fn block(&mut self, bytes: &[u8], acting: i64) -> bool {
        self.0.block(bytes, acting)
    }
    #[inline(always)]
    fn entries(
        &mut self,
        group: &FieldInfo,
        bytes: &[u8],
        count: u64,
        block_length: usize,
        acting: i64,
    ) -> bool {
        self.0.entries(group, bytes, count, block_length, acting)
    }
}

/// A visitor that does nothing.
impl Visitor for () {}

/// Where the block of `len` bytes at `start` ends, or the error of a block (`what`) running
/// past the end of a buffer of `buf_len` bytes.
#[inline(always)]
pub(crate) fn block_end(
    start: usize,
    len: usize,
    buf_len: usize,
    what: &str,
) -> Result<usize, DecodeError> {
    match start.checked_add(len) {
        Some(end) if end <= buf_len => Ok(end),
        _ => Err(DecodeError::truncated(start, what, "", len, buf_len)),
    }
}

/// A present group's dimensions, read and checked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dims {
    /// The number of entries.
    pub(crate) count: u64,
    /// Each entry's block length as read.
    pub(crate) block_length: u64,
    /// The same as a length.
    pub(crate) len: usize,
    /// Where the first entry starts.
    pub(crate) start: usize,
}

impl GroupCheck {
    /// Reads and checks the dimensions of the group at `buf[pos..]` (present at `acting`).
    #[inline(always)]
    pub(crate) fn dims<const BIG: bool>(
        &self,
        buf: &[u8],
        pos: usize,
        acting: i64,
        schema_version: i64,
    ) -> Result<Dims, DecodeError> {
        let g = self;
        if let Some(head) = pos
            .checked_add(g.header_size)
            .filter(|&end| end <= buf.len())
            .and_then(|end| buf.get(pos..end))
        {
            let block_length = read_raw(head, g.block_length.0, g.block_length.1.size(), BIG);
            let count = read_raw(head, g.count.0, g.count.1.size(), BIG);
            if let (Some(block_length), Some(count), Ok(bl)) = (
                block_length,
                count,
                usize::try_from(block_length.unwrap_or(0)),
            ) {
                let start = pos + g.header_size;
                let left = (buf.len() - start) as u64;
                if acting >= g.shape.all_since
                    && bl >= g.shape.needs_all
                    && (bl as u64)
                        .checked_add(g.shape.min_tail_all as u64)
                        .filter(|&m| m > 0)
                        .and_then(|m| m.checked_mul(count))
                        .is_some_and(|b| b <= left)
                {
                    return Ok(Dims {
                        count,
                        block_length,
                        len: bl,
                        start,
                    });
                }
            }
        }
        self.dims_slow::<BIG>(buf, pos, acting, schema_version)
    }

    /// [`GroupCheck::dims`] for every case (older writers, entries of no bytes, errors).
    #[cold]
    #[inline(never)]
    fn dims_slow<const BIG: bool>(
        &self,
        buf: &[u8],
        pos: usize,
        acting: i64,
        schema_version: i64,
    ) -> Result<Dims, DecodeError> {
        let g = self;
        if buf.len() < pos || buf.len() - pos < g.header_size {
            return Err(DecodeError::truncated(
                pos,
                "group header",
                &g.name,
                g.header_size,
                buf.len(),
            ));
        }
        let block_length =
            read_raw(buf, pos + g.block_length.0, g.block_length.1.size(), BIG).unwrap_or(0);
        let count = read_raw(buf, pos + g.count.0, g.count.1.size(), BIG).unwrap_or(0);
        let needs = g.shape.needs(acting);
        let bl = usize::try_from(block_length).unwrap_or(usize::MAX);
        if bl < needs && acting >= schema_version {
            return Err(DecodeError::new(
                pos + g.block_length.0,
                DecodeErrorKind::BlockLengthTooShort,
                &g.name,
                format!(
                    "block length {block_length} of group '{}' is less than the {needs} bytes its fields take",
                    g.name
                ),
            ));
        }
        let start = pos + g.header_size;
        // A count too large for the bytes left is not an error here: the entries are walked, and
        // the first one that does not fit is reported (docs/codecs.md). Entries of no bytes
        // never run out, so their count is bounded instead.
        if bl == 0 && g.shape.min_tail(acting) == 0 && count > u64::from(u16::MAX) {
            return Err(DecodeError::new(
                pos + g.count.0,
                DecodeErrorKind::GroupCountTooLarge,
                &g.name,
                format!(
                    "group '{}' claims {count} entries of no bytes (at most 65535)",
                    g.name
                ),
            ));
        }
        Ok(Dims {
            count,
            block_length,
            len: bl,
            start,
        })
    }
}

impl DataCheck {
    /// Reads and checks the length of the var data at `buf[pos..]` (present): where its bytes
    /// start, and how many there are.
    #[inline(always)]
    pub(crate) fn span<const BIG: bool>(
        &self,
        buf: &[u8],
        pos: usize,
    ) -> Result<(usize, usize), DecodeError> {
        let d = self;
        if let Some(head) = pos
            .checked_add(d.data_offset)
            .filter(|&end| end <= buf.len())
            .and_then(|end| buf.get(pos..end))
        {
            if let Some(n) = read_raw(head, d.length.0, d.length.1.size(), BIG) {
                let data_start = pos + d.data_offset;
                if let Ok(n) = usize::try_from(n) {
                    if n <= buf.len() - data_start {
                        return Ok((data_start, n));
                    }
                }
            }
        }
        self.span_slow::<BIG>(buf, pos)
    }

    /// [`DataCheck::span`] for every case (errors).
    #[cold]
    #[inline(never)]
    fn span_slow<const BIG: bool>(
        &self,
        buf: &[u8],
        pos: usize,
    ) -> Result<(usize, usize), DecodeError> {
        let d = self;
        if buf.len() < pos || buf.len() - pos < d.data_offset {
            return Err(DecodeError::truncated(
                pos,
                "var data length",
                &d.name,
                d.data_offset,
                buf.len(),
            ));
        }
        let n = read_raw(buf, pos + d.length.0, d.length.1.size(), BIG).unwrap_or(0);
        let data_start = pos + d.data_offset;
        let left = buf.len() - data_start;
        match usize::try_from(n) {
            Ok(n) if n <= left => Ok((data_start, n)),
            _ => Err(DecodeError::new(
                pos,
                DecodeErrorKind::Truncated,
                &d.name,
                format!(
                    "truncated message: var data '{}' at offset {pos} says {n} bytes, {left} left",
                    d.name
                ),
            )
            .needing(data_start.saturating_add(usize::try_from(n).unwrap_or(usize::MAX)))),
        }
    }
}

#[inline]
pub(crate) fn visit_node<const BIG: bool, V: Visitor>(
    n: &Node,
    block: &[u8],
    acting: i64,
    v: &mut V,
) {
    if n.since > acting {
        v.field(&n.info, Value::Absent);
        return;
    }
    let off = n.offset;
    let value = match &n.kind {
        Kind::Scalar { ty, null } => match read_raw(block, off, ty.size(), BIG) {
            Some(raw) => match null {
                NullCheck::Bits(b) if raw == *b => Value::Null,
                NullCheck::NaN if is_nan(*ty, raw) => Value::Null,
                _ => scalar(*ty, raw),
            },
            None => Value::Absent,
        },
        Kind::Text { len, charset, null } => match block.get(off..off.saturating_add(*len)) {
            Some(bytes) => match null {
                NullCheck::Bits(b) if bytes.first().map(|&c| u64::from(c)) == Some(*b) => {
                    Value::Null
                }
                _ => Value::Text {
                    bytes,
                    charset: *charset,
                },
            },
            None => Value::Absent,
        },
        Kind::Bytes { len } => match block.get(off..off.saturating_add(*len)) {
            Some(bytes) => Value::Bytes(bytes),
            None => Value::Absent,
        },
        Kind::Array { ty, len } => match block.get(off..off.saturating_add(*len)) {
            Some(bytes) => Value::Array(Array {
                bytes,
                primitive_type: *ty,
                big_endian: BIG,
            }),
            None => Value::Absent,
        },
        Kind::Enum {
            ty, values, null, ..
        } => match read_raw(block, off, ty.size(), BIG) {
            Some(raw) => {
                if matches!(null, NullCheck::Bits(b) if raw == *b) {
                    Value::Null
                } else {
                    let name = values.iter().find(|(b, _)| *b == raw).map(|(_, n)| &**n);
                    Value::Enum {
                        name,
                        raw: number_of(raw, *ty),
                    }
                }
            }
            None => Value::Absent,
        },
        Kind::Set { ty, choices } => match read_raw(block, off, ty.size(), BIG) {
            Some(bits) => Value::Set { bits, choices },
            None => Value::Absent,
        },
        Kind::Composite(members) => {
            v.begin_composite(&n.info);
            for m in members.iter() {
                visit_node::<BIG, V>(m, block, acting, v);
            }
            v.end_composite(&n.info);
            return;
        }
        Kind::Const(c) => c.value(),
    };
    v.field(&n.info, value);
}

//! The IR-driven decoder: walks an encoded message by a plan compiled from the IR and reports what
//! it finds to a [`Visitor`].
//!
//! [`Decoder::new`] compiles, once per schema, a compact plan of every message (absolute offsets,
//! primitive types, null values, enum and set tables, group and var-data layouts), so decoding a
//! message never looks at the token list. [`Decoder::decode`] then reads one message starting at
//! its message header; [`Decoder::message_length`] sizes one without visiting its fields.
//!
//! Decoding honours the acting version and block length in the header (and each group's block
//! length): elements newer than the acting version are reported as [`Value::Absent`] (or
//! [`Visitor::absent_group`]), longer blocks written by a newer writer are skipped. A writer at
//! the schema's version or newer must write blocks holding every field the schema knows (else
//! [`DecodeErrorKind::BlockLengthTooShort`]); from an older writer, a field that lies beyond the
//! block it wrote is absent too, even without a `sinceVersion` saying so (schemas that added
//! fields without marking them, such as the shared `versioned-message-v2.xml`). Every read is
//! bounds checked; a malformed message gives a [`DecodeError`] with the contract's offset, field
//! path and kind (docs/codecs.md, "Errors": the first item, in reading order, that does not
//! fit), never a panic. A group count or var-data length larger than the bytes left is found
//! at the first entry, or the var data, that does not fit.

use sable_ir::{ByteOrder, Ir, PrimitiveType, Signal};

mod error;
mod plan;
mod value;
mod walk;

pub use error::{DecodeError, DecodeErrorKind, Error};
pub(crate) use plan::*;
pub(crate) use value::read_raw;
pub use value::*;
pub use walk::Visitor;
pub(crate) use walk::*;

/// A decoder for the messages of one schema, compiled from its IR.
#[derive(Debug)]
pub struct Decoder {
    big_endian: bool,
    schema_id: u64,
    schema_version: i64,
    header: HeaderPlan,
    /// By template id, ascending.
    index: Vec<(u64, usize)>,
    messages: Vec<MessagePlan>,
    depth: usize,
}

impl Decoder {
    /// Compiles the plan of every message of `ir`.
    pub fn new(ir: &Ir) -> Result<Decoder, Error> {
        let mut builder = Builder { depth: 0 };
        let header_tokens = &ir.header_tokens;
        let composite = header_tokens
            .first()
            .filter(|t| t.signal == Signal::BeginComposite)
            .ok_or_else(|| Error::new("the message header is not a composite"))?;
        let size = usize::try_from(composite.encoded_length)
            .map_err(|_| Error::new("the message header has no fixed length"))?;
        let mut needs = Vec::new();
        let node = builder.node(header_tokens, composite, 0, 0, false, &mut needs, 0)?;
        if needs.iter().any(|&(_, end)| end > size) {
            return Err(Error::new("a message header field lies outside the header"));
        }
        let Kind::Composite(fields) = node.kind else {
            return Err(Error::new("the message header is not a composite"));
        };
        let fields = fields.into_vec();
        let find = |name: &str| -> Option<(usize, PrimitiveType)> {
            fields.iter().find_map(|n| match n.kind {
                Kind::Scalar { ty, .. } if n.info.name() == name => Some((n.offset, ty)),
                _ => None,
            })
        };
        let block_length = find("blockLength")
            .ok_or_else(|| Error::new("the message header has no blockLength"))?;
        let template_id =
            find("templateId").ok_or_else(|| Error::new("the message header has no templateId"))?;
        let schema_id = find("schemaId");
        let version = find("version");
        let header = HeaderPlan {
            size,
            block_length,
            template_id,
            schema_id,
            version,
            fields,
        };

        let mut messages = Vec::new();
        let mut index = Vec::new();
        for tokens in &ir.messages {
            let m = tokens
                .first()
                .filter(|t| t.signal == Signal::BeginMessage)
                .ok_or_else(|| Error::new("a message does not start with BEGIN_MESSAGE"))?;
            if tokens.len() < 2 || tokens.last().map(|t| t.signal) != Some(Signal::EndMessage) {
                return Err(Error::new(format!(
                    "message '{}' does not end with END_MESSAGE",
                    m.name
                )));
            }
            let template_id = u64::try_from(m.id)
                .map_err(|_| Error::new(format!("message '{}' has a negative id", m.name)))?;
            let block = builder.block(&tokens[1..tokens.len() - 1], 2)?;
            let mut json_prefix = b"{\"message\":".to_vec();
            crate::write::write_json_str(&mut json_prefix, m.name.as_bytes(), Charset::Utf8);
            json_prefix.extend_from_slice(b",\"header\":{");
            index.push((template_id, messages.len()));
            messages.push(MessagePlan {
                info: MessageInfo {
                    name: m.name.as_str().into(),
                    template_id,
                    since_version: m.version,
                    json_prefix_chunk: (json_prefix.len() <= 48).then(|| {
                        let mut chunk = [0u8; 48];
                        chunk[..json_prefix.len()].copy_from_slice(&json_prefix);
                        chunk
                    }),
                    json_prefix: json_prefix.into(),
                },
                block,
            });
        }
        index.sort_unstable();
        if let Some(w) = index.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(Error::new(format!(
                "two messages have template id {}",
                w[0].0
            )));
        }
        Ok(Decoder {
            big_endian: ir.byte_order == ByteOrder::BigEndian,
            schema_id: u64::try_from(ir.id).unwrap_or(u64::MAX),
            schema_version: i64::from(ir.version),
            header,
            index,
            messages,
            depth: builder.depth,
        })
    }

    /// The message header's plan.
    pub(crate) fn header_plan(&self) -> &HeaderPlan {
        &self.header
    }

    /// Every message's plan (as indexed by [`Start::message`]).
    pub(crate) fn message_plans(&self) -> &[MessagePlan] {
        &self.messages
    }

    /// Whether the schema is big-endian.
    pub(crate) fn is_big_endian(&self) -> bool {
        self.big_endian
    }

    /// The schema's version.
    pub(crate) fn schema_version(&self) -> i64 {
        self.schema_version
    }

    /// The size of the message header.
    pub fn header_length(&self) -> usize {
        self.header.size
    }

    /// How deeply the schema's values nest (composites in groups in groups...).
    pub fn max_depth(&self) -> usize {
        self.depth
    }

    /// Decodes the message whose header starts at `buf[0]`, reporting it to `visitor`; returns
    /// the bytes it takes (header included). Bytes after it are ignored.
    pub fn decode<V: Visitor>(&self, buf: &[u8], visitor: &mut V) -> Result<usize, DecodeError> {
        self.walk(buf, &mut Plain(visitor))
    }

    /// [`decode`](Decoder::decode) with a crate printer's own walk of the fields.
    #[inline]
    pub(crate) fn walk<V: Walk>(&self, buf: &[u8], visitor: &mut V) -> Result<usize, DecodeError> {
        if self.big_endian {
            self.run::<true, true, V>(buf, visitor)
        } else {
            self.run::<false, true, V>(buf, visitor)
        }
    }

    /// The bytes the message whose header starts at `buf[0]` takes (header included), found by
    /// walking its groups and var data without visiting its fields. Fails as
    /// [`decode`](Decoder::decode) would.
    pub fn message_length(&self, buf: &[u8]) -> Result<usize, DecodeError> {
        if self.big_endian {
            self.run::<true, false, ()>(buf, &mut ())
        } else {
            self.run::<false, false, ()>(buf, &mut ())
        }
    }

    /// Reads and checks the header of the message at `buf[0]`: which message it is, where its
    /// block ends, its acting version. Fails before anything of the message is known.
    #[inline]
    pub(crate) fn start<const BIG: bool>(&self, buf: &[u8]) -> Result<Start, DecodeError> {
        let h = &self.header;
        if buf.len() < h.size {
            return Err(DecodeError::truncated(
                0,
                "the message header",
                "header",
                h.size,
                buf.len(),
            ));
        }
        let read =
            |(off, ty): (usize, PrimitiveType)| read_raw(buf, off, ty.size(), BIG).unwrap_or(0);
        let block_length = read(h.block_length);
        let template_id = read(h.template_id);
        let schema_id = h.schema_id.map(read);
        let version = h.version.map_or(0, read);
        if let Some(id) = schema_id {
            if id != self.schema_id {
                return Err(DecodeError::new(
                    h.schema_id.map_or(0, |s| s.0),
                    DecodeErrorKind::SchemaIdMismatch,
                    "header.schemaId",
                    format!(
                        "schema id {id} in the header is not the schema's ({})",
                        self.schema_id
                    ),
                ));
            }
        }
        let Ok(found) = self.index.binary_search_by_key(&template_id, |e| e.0) else {
            return Err(DecodeError::new(
                h.template_id.0,
                DecodeErrorKind::UnknownTemplateId,
                "header.templateId",
                format!("unknown template id {template_id}"),
            ));
        };
        let message = self.index[found].1;
        let msg = &self.messages[message];
        let acting = i64::try_from(version).unwrap_or(i64::MAX);
        let needs = msg.block.shape.needs(acting);
        let bl = usize::try_from(block_length).unwrap_or(usize::MAX);
        if bl < needs && acting >= self.schema_version {
            return Err(DecodeError::new(
                h.block_length.0,
                DecodeErrorKind::BlockLengthTooShort,
                "header.blockLength",
                format!(
                    "block length {block_length} of message '{}' is less than the {needs} bytes its fields take at version {version}",
                    msg.info.name()
                ),
            ));
        }
        Ok(Start {
            message,
            header: Header {
                block_length,
                template_id,
                schema_id,
                version,
            },
            block_length: bl,
            acting,
        })
    }

    fn run<const BIG: bool, const VISIT: bool, V: Walk>(
        &self,
        buf: &[u8],
        v: &mut V,
    ) -> Result<usize, DecodeError> {
        let Start {
            message,
            header,
            block_length: bl,
            acting,
        } = self.start::<BIG>(buf)?;
        let h = &self.header;
        let msg = &self.messages[message];
        if VISIT {
            v.begin_message(&msg.info, &header);
            v.fields::<BIG>(&h.fields, &buf[..h.size], i64::MAX);
            v.end_header();
        }
        let end = self
            .block::<BIG, VISIT, V>(&msg.block, buf, h.size, bl, acting, "message block", v)
            .map_err(DecodeError::in_root)?;
        if VISIT {
            v.end_message(&msg.info);
        }
        Ok(end)
    }

    /// Walks the block at `buf[start..]` of `len` bytes (its length already checked against
    /// what its fields need), then its groups and var data; returns where it ends.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn block<const BIG: bool, const VISIT: bool, V: Walk>(
        &self,
        plan: &Block,
        buf: &[u8],
        start: usize,
        len: usize,
        acting: i64,
        what: &str,
        v: &mut V,
    ) -> Result<usize, DecodeError> {
        let end = block_end(start, len, buf.len(), what)?;
        if VISIT {
            v.fields::<BIG>(&plan.fields, &buf[start..end], acting);
        }
        let mut pos = end;
        for t in &plan.tail {
            match t {
                Tail::Group(g) => {
                    pos = self.group::<BIG, VISIT, V>(g, buf, pos, acting, v)?;
                }
                Tail::Data(d) => {
                    if d.since > acting {
                        if VISIT {
                            v.var_data(&d.info, Value::Absent);
                        }
                        continue;
                    }
                    let (data_start, n) = d.check.span::<BIG>(buf, pos)?;
                    if VISIT {
                        let bytes = &buf[data_start..data_start + n];
                        let value = match d.charset {
                            Some(charset) => Value::Text { bytes, charset },
                            None => Value::Bytes(bytes),
                        };
                        v.var_data(&d.info, value);
                    }
                    pos = data_start + n;
                }
            }
        }
        Ok(pos)
    }

    fn group<const BIG: bool, const VISIT: bool, V: Walk>(
        &self,
        g: &GroupPlan,
        buf: &[u8],
        pos: usize,
        acting: i64,
        v: &mut V,
    ) -> Result<usize, DecodeError> {
        if g.since > acting {
            if VISIT {
                v.absent_group(&g.info);
            }
            return Ok(pos);
        }
        let dims = g.check.dims::<BIG>(buf, pos, acting, self.schema_version)?;
        if VISIT {
            v.begin_group(
                &g.info,
                GroupHeader {
                    count: dims.count,
                    block_length: dims.block_length,
                },
            );
        }
        if VISIT && g.block.tail.is_empty() {
            // Entries of fields alone, all there: offered to the visitor at once.
            let end = usize::try_from(dims.count)
                .ok()
                .and_then(|n| n.checked_mul(dims.len))
                .and_then(|total| dims.start.checked_add(total))
                .filter(|&end| end <= buf.len());
            if let Some(end) = end {
                let bytes = &buf[dims.start..end];
                if v.entries(&g.info, bytes, dims.count, dims.len, acting) {
                    v.end_group(&g.info);
                    return Ok(end);
                }
            }
        }
        let mut pos = dims.start;
        // The entries from `i` on, starting at `at`, take at least this many bytes in all.
        let rest = |at: usize, i: u64| {
            let least = dims.len.saturating_add(g.check.shape.min_tail(acting)) as u64;
            let rest = (dims.count - i).saturating_mul(least);
            at.saturating_add(usize::try_from(rest).unwrap_or(usize::MAX))
        };
        for i in 0..dims.count {
            if VISIT {
                // An entry whose block does not fit is not begun: what is reported holds the
                // entries read, each whole.
                block_end(pos, dims.len, buf.len(), "group entry")
                    .map_err(|e| e.in_entry(g.info.name(), i).needing(rest(pos, i)))?;
                v.begin_entry(&g.info, i);
            }
            pos = self
                .block::<BIG, VISIT, V>(&g.block, buf, pos, dims.len, acting, "group entry", v)
                .map_err(|e| e.in_entry(g.info.name(), i).needing(rest(pos, i)))?;
            if VISIT {
                v.end_entry(&g.info, i);
            }
        }
        if VISIT {
            v.end_group(&g.info);
        }
        Ok(pos)
    }
}

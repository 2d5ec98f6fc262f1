//! SBE messages to Apache Arrow, one table per message template, driven by the IR alone.
//!
//! [`Columnar`] decodes each message it is given (with `sable-otf`'s decoder and a visitor)
//! into the column builders of its template's table: every field a typed column, composites as
//! structs (mantissa/exponent composites as decimals), groups as lists of structs, var data as
//! text or bytes, and per-message columns for where the message was found. Tables are cut into
//! [`RecordBatch`]es as they fill (by rows and by bytes), so memory stays bounded however long
//! the input; [`files::DirWriter`] writes them to Arrow IPC or Parquet files, one per template.
//! docs/columnar.md gives the mapping.

mod columns;
pub mod files;
mod parquet_chunk;
mod parquet_delta;
mod parquet_file;
mod parquet_hybrid;
mod reader;

use std::collections::HashMap;
use std::sync::Arc;

pub use arrow_array::RecordBatch;
pub use arrow_schema::SchemaRef;

use arrow_schema::{DataType, Field, Schema};
use sable_ir::Ir;
use sable_otf::decode::{
    DecodeError, Decoder, FieldInfo, GroupHeader, Header, MessageInfo, Value, Visitor,
};
use sable_otf::layout::{BlockLayout, TailLayout};

use crate::columns::{dict_type, timestamp_ns, Columns, Dict, Kind};
use crate::reader::BlockReader;

/// When a table's rows so far are cut into a batch.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// At most this many rows in a batch.
    pub batch_rows: usize,
    /// A batch is cut once its messages took this many bytes on the wire (their columns take a
    /// few times more).
    pub batch_bytes: usize,
    /// Each block's fields are read straight into their columns (compiled once per block); with
    /// `false`, field by field through the decoder's visitor calls, which gives the same tables
    /// more slowly (the path the block readers are tested against).
    pub read_blocks: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            batch_rows: 16 * 1024,
            batch_bytes: 4 << 20,
            read_blocks: true,
        }
    }
}

/// Which per-message columns the tables have beside `_offset`, from where messages come.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extras {
    /// From a capture: `_timestamp`, `_packetOffset`, `_flow`.
    pub capture: bool,
    /// From MDP 3.0 packets: `_sequenceNumber`, `_sendingTime`.
    pub mdp3: bool,
}

/// Where a message was found (its per-message columns).
#[derive(Debug, Clone, Copy, Default)]
pub struct RowMeta<'a> {
    /// The message's byte offset in the input (or in its UDP payload or TCP stream).
    pub offset: u64,
    /// The capture packet holding its last byte.
    pub capture: Option<CaptureMeta<'a>>,
    /// Its MDP 3.0 packet header.
    pub mdp3: Option<Mdp3Meta>,
}

/// A capture packet's facts.
#[derive(Debug, Clone, Copy)]
pub struct CaptureMeta<'a> {
    /// The packet's time, nanoseconds since the UNIX epoch.
    pub timestamp_ns: u64,
    /// The packet's offset in the capture file.
    pub packet_offset: u64,
    /// The flow, as `sable decode` prints it (`udp 10.0.0.1:5000 -> 239.1.1.1:14310`).
    pub flow: &'a str,
}

/// An MDP 3.0 packet header's facts.
#[derive(Debug, Clone, Copy)]
pub struct Mdp3Meta {
    /// The packet's MsgSeqNum.
    pub sequence_number: u32,
    /// Its SendingTime, nanoseconds since the UNIX epoch.
    pub sending_time_ns: u64,
}

/// The per-message columns' nodes in a table.
#[derive(Debug, Default)]
struct MetaNodes {
    offset: usize,
    timestamp: Option<usize>,
    packet_offset: Option<usize>,
    flow: Option<usize>,
    sequence_number: Option<usize>,
    sending_time: Option<usize>,
    /// The last flow seen and its dictionary key.
    last_flow: Option<(String, i32)>,
}

/// One message template's table.
#[derive(Debug)]
struct Table {
    name: String,
    template_id: u64,
    schema: SchemaRef,
    columns: Columns,
    /// The reader of each struct node that holds a block (by node; the row and group entries).
    readers: Vec<Option<BlockReader>>,
    meta: MetaNodes,
    /// How many of the row's columns are per-message (the message's own start after them).
    meta_count: usize,
    rows: usize,
    bytes: usize,
    total_rows: u64,
}

/// A table's name, template and Arrow schema.
#[derive(Debug, Clone)]
pub struct TableInfo {
    /// The message's name in the schema.
    pub name: String,
    /// Its template id.
    pub template_id: u64,
    /// The table's Arrow schema.
    pub schema: SchemaRef,
}

/// A schema that cannot be turned into tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// Decodes SBE messages into one Arrow table per template.
pub struct Columnar {
    decoder: Decoder,
    tables: Vec<Table>,
    /// Template id to table, ascending.
    index: Vec<(u64, usize)>,
    options: Options,
    /// Tables whose batch is full, waiting for [`Columnar::take_full`].
    full: Vec<usize>,
    stack: Vec<Frame>,
    big_endian: bool,
}

/// A struct (the row, a composite, a group entry), list or decimal being filled.
#[derive(Debug, Clone, Copy)]
struct Frame {
    node: usize,
    cursor: usize,
    decimal: bool,
}

impl Columnar {
    /// The tables of every message of `ir`, with the per-message columns `extras` asks.
    pub fn new(ir: &Ir, extras: Extras, options: Options) -> Result<Columnar, Error> {
        let decoder =
            Decoder::new(ir).map_err(|e| Error(format!("cannot decode with this schema: {e}")))?;
        let version = decoder.version();
        let mut tables = Vec::new();
        let mut index = Vec::new();
        for layout in decoder.layouts() {
            let mut columns = Columns::new();
            let mut meta = MetaNodes::default();
            let add = |columns: &mut Columns, name: &str, data_type: DataType, kind| {
                let n = columns.add(Field::new(name, data_type, false), kind);
                columns.adopt(0, n);
                n
            };
            let u64_col = || Kind::Prim {
                values: columns::Values::U64(Vec::new()),
                convert: columns::Convert::Exact,
                decimal: None,
            };
            let ts_col = || Kind::Prim {
                values: columns::Values::I64(Vec::new()),
                convert: columns::Convert::Exact,
                decimal: None,
            };
            meta.offset = add(&mut columns, "_offset", DataType::UInt64, u64_col());
            if extras.capture {
                meta.timestamp = Some(add(&mut columns, "_timestamp", timestamp_ns(), ts_col()));
                meta.packet_offset = Some(add(
                    &mut columns,
                    "_packetOffset",
                    DataType::UInt64,
                    u64_col(),
                ));
                meta.flow = Some(add(
                    &mut columns,
                    "_flow",
                    dict_type(),
                    Kind::Dict(Dict::new(&[], u64::MAX)),
                ));
            }
            if extras.mdp3 {
                meta.sequence_number = Some(add(
                    &mut columns,
                    "_sequenceNumber",
                    DataType::UInt32,
                    Kind::Prim {
                        values: columns::Values::U32(Vec::new()),
                        convert: columns::Convert::Exact,
                        decimal: None,
                    },
                ));
                meta.sending_time =
                    Some(add(&mut columns, "_sendingTime", timestamp_ns(), ts_col()));
            }
            let meta_count = columns.fields().len();
            columns.block(0, &layout.block, version);
            let mut readers = Vec::new();
            if options.read_blocks {
                readers.resize_with(columns.nodes.len(), || None);
                block_readers(&columns, 0, meta_count, &layout.block, &mut readers);
            }
            let fields = columns.fields();
            let mut seen = std::collections::HashSet::new();
            if let Some(dup) = fields.iter().find(|f| !seen.insert(f.name().as_str())) {
                return Err(Error(format!(
                    "message '{}' has two columns named '{}'",
                    layout.info.name(),
                    dup.name()
                )));
            }
            let metadata = HashMap::from([
                ("sable.message".to_owned(), layout.info.name().to_owned()),
                (
                    "sable.templateId".to_owned(),
                    layout.info.template_id().to_string(),
                ),
                ("sable.schemaId".to_owned(), ir.id.to_string()),
                ("sable.schemaVersion".to_owned(), ir.version.to_string()),
            ]);
            let schema = Arc::new(Schema::new_with_metadata(fields, metadata));
            index.push((layout.info.template_id(), tables.len()));
            tables.push(Table {
                name: layout.info.name().to_owned(),
                template_id: layout.info.template_id(),
                schema,
                columns,
                readers,
                meta,
                meta_count,
                rows: 0,
                bytes: 0,
                total_rows: 0,
            });
        }
        index.sort_unstable();
        Ok(Columnar {
            big_endian: decoder.big_endian(),
            decoder,
            tables,
            index,
            options,
            full: Vec::new(),
            stack: Vec::with_capacity(8),
        })
    }

    /// The decoder the tables are filled with.
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Every table (one per message of the schema), in schema order.
    pub fn tables(&self) -> Vec<TableInfo> {
        self.tables.iter().map(|t| self.info(t)).collect()
    }

    fn info(&self, t: &Table) -> TableInfo {
        TableInfo {
            name: t.name.clone(),
            template_id: t.template_id,
            schema: t.schema.clone(),
        }
    }

    /// The table of `template_id`, if the schema has that message (its index in
    /// [`Columnar::tables`]).
    pub fn table_of(&self, template_id: u64) -> Option<usize> {
        self.index
            .binary_search_by_key(&template_id, |e| e.0)
            .ok()
            .map(|i| self.index[i].1)
    }

    /// Decodes the message at the start of `bytes` into its table as one row; returns the
    /// bytes it takes. A message that fails to decode adds no row (its error is returned, as
    /// the decoder reports it).
    pub fn push(&mut self, bytes: &[u8], meta: &RowMeta<'_>) -> Result<usize, DecodeError> {
        if !self.options.read_blocks {
            // Sized first, without visiting: a message that fails leaves no half row behind.
            self.decoder.message_length(bytes)?;
        }
        let mut visit = Visit {
            tables: &mut self.tables,
            index: &self.index,
            stack: &mut self.stack,
            table: usize::MAX,
            in_header: false,
            big_endian: self.big_endian,
            unrepresentable: 0,
        };
        let used = match self.decoder.decode(bytes, &mut visit) {
            Ok(used) => used,
            Err(e) => {
                // What the message appended before it failed is taken back: no half row.
                let (t, unrepresentable) = (visit.table, visit.unrepresentable);
                if let Some(table) = self.tables.get_mut(t) {
                    table.undo(unrepresentable);
                }
                return Err(e);
            }
        };
        let t = visit.table;
        let table = &mut self.tables[t];
        table.columns.commit();
        table.meta_row(meta);
        table.rows += 1;
        table.total_rows += 1;
        table.bytes += used;
        if table.rows >= self.options.batch_rows || table.bytes >= self.options.batch_bytes {
            self.full.push(t);
        }
        Ok(used)
    }

    /// A batch of a table that filled up (its index in [`Columnar::tables`]), if any.
    pub fn take_full(&mut self) -> Option<(usize, RecordBatch)> {
        let t = self.full.pop()?;
        Some((t, self.tables[t].batch()))
    }

    /// The rows left in every table, as batches (tables without rows give none).
    pub fn finish(&mut self) -> Vec<(usize, RecordBatch)> {
        self.full.clear();
        let mut batches = Vec::new();
        for (t, table) in self.tables.iter_mut().enumerate() {
            if table.rows > 0 {
                batches.push((t, table.batch()));
            }
        }
        batches
    }

    /// Rows written to each table so far (batches taken or not).
    pub fn rows(&self) -> Vec<u64> {
        self.tables.iter().map(|t| t.total_rows).collect()
    }

    /// Values that had no Arrow form (a timestamp beyond its range, a decimal that does not
    /// fit its column) and were written as null, over every table.
    pub fn unrepresentable(&self) -> u64 {
        self.tables.iter().map(|t| t.columns.unrepresentable).sum()
    }
}

impl Table {
    /// Takes back what a message that failed appended (the batch's rows stay), and the values
    /// it counted as unrepresentable (the count was `unrepresentable` before it).
    fn undo(&mut self, unrepresentable: u64) {
        let children = self.columns.children(0).to_vec();
        for c in children {
            self.columns.truncate(c, self.rows);
        }
        self.columns.undo_dicts();
        self.columns.unrepresentable = unrepresentable;
    }

    fn batch(&mut self) -> RecordBatch {
        let arrays = self.columns.finish();
        self.rows = 0;
        self.bytes = 0;
        RecordBatch::try_new(self.schema.clone(), arrays).expect("columns match the schema")
    }

    fn meta_row(&mut self, meta: &RowMeta<'_>) {
        let c = &mut self.columns;
        let m = &mut self.meta;
        c.push_raw(m.offset, meta.offset);
        if let (Some(ts), Some(po), Some(flow)) = (m.timestamp, m.packet_offset, m.flow) {
            match &meta.capture {
                Some(cap) => {
                    c.push_raw(ts, cap.timestamp_ns);
                    c.push_raw(po, cap.packet_offset);
                    let key = match &m.last_flow {
                        Some((text, key)) if text == cap.flow => *key,
                        _ => {
                            let key = c.dict(flow).map_or(0, |d| d.key_of_text(cap.flow));
                            m.last_flow = Some((cap.flow.to_owned(), key));
                            key
                        }
                    };
                    if let Some(d) = c.dict(flow) {
                        d.push_key(key);
                    }
                    c.pushed(flow);
                }
                None => {
                    c.push(ts, Value::Null);
                    c.push(po, Value::Null);
                    c.push(flow, Value::Null);
                }
            }
        }
        if let (Some(seq), Some(sent)) = (m.sequence_number, m.sending_time) {
            match &meta.mdp3 {
                Some(p) => {
                    c.push_raw(seq, u64::from(p.sequence_number));
                    c.push_raw(sent, p.sending_time_ns);
                }
                None => {
                    c.push(seq, Value::Null);
                    c.push(sent, Value::Null);
                }
            }
        }
    }
}

/// The readers of `block` (whose fields are the children of the struct `node` from `skip` on,
/// as `Columns::block` made them) and of its groups' entries, by node.
fn block_readers(
    columns: &Columns,
    node: usize,
    skip: usize,
    block: &BlockLayout<'_>,
    readers: &mut [Option<BlockReader>],
) {
    let children = columns.children(node)[skip..].to_vec();
    readers[node] = Some(BlockReader::new(columns, node, skip, block));
    for (t, &child) in block.tail.iter().zip(&children[block.fields.len()..]) {
        if let (TailLayout::Group { block, .. }, Kind::List { entry, .. }) =
            (t, &columns.nodes[child].kind)
        {
            block_readers(columns, *entry, 0, block, readers);
        }
    }
}

/// The visitor filling a table from one message.
struct Visit<'a> {
    tables: &'a mut [Table],
    index: &'a [(u64, usize)],
    stack: &'a mut Vec<Frame>,
    table: usize,
    in_header: bool,
    big_endian: bool,
    /// The table's count of unrepresentable values when the message began.
    unrepresentable: u64,
}

impl Visit<'_> {
    fn columns(&mut self) -> &mut Columns {
        &mut self.tables[self.table].columns
    }

    /// The next column of the struct being filled.
    fn next(&mut self) -> Option<usize> {
        let frame = self.stack.last_mut()?;
        let cursor = frame.cursor;
        frame.cursor += 1;
        match &self.tables[self.table].columns.nodes[frame.node].kind {
            Kind::Struct { children } => children.get(cursor).copied(),
            _ => None,
        }
    }
}

impl Visitor for Visit<'_> {
    fn begin_message(&mut self, message: &MessageInfo, _header: &Header) {
        let id = message.template_id();
        self.table = match self.index.binary_search_by_key(&id, |e| e.0) {
            Ok(i) => self.index[i].1,
            Err(_) => unreachable!("the decoder knows only the schema's templates"),
        };
        self.stack.clear();
        let table = &self.tables[self.table];
        self.unrepresentable = table.columns.unrepresentable;
        self.stack.push(Frame {
            node: 0,
            cursor: table.meta_count,
            decimal: false,
        });
        self.in_header = true;
    }

    fn end_header(&mut self) {
        self.in_header = false;
    }

    fn field(&mut self, field: &FieldInfo, value: Value<'_>) {
        if self.in_header {
            return;
        }
        if let Some(&Frame {
            node,
            decimal: true,
            ..
        }) = self.stack.last()
        {
            self.columns().decimal_member(node, field.name(), value);
            return;
        }
        if let Some(n) = self.next() {
            self.columns().push(n, value);
        }
    }

    fn begin_composite(&mut self, _field: &FieldInfo) {
        if self.in_header {
            return;
        }
        if let Some(&Frame { decimal: true, .. }) = self.stack.last() {
            // (A decimal's members are integers: nothing nests in it.)
            return;
        }
        let Some(n) = self.next() else { return };
        let decimal = self.columns().is_decimal(n);
        if !decimal {
            self.columns().begin_struct(n);
        }
        self.stack.push(Frame {
            node: n,
            cursor: 0,
            decimal,
        });
    }

    fn end_composite(&mut self, _field: &FieldInfo) {
        if self.in_header {
            return;
        }
        if let Some(frame) = self.stack.pop() {
            if frame.decimal {
                self.columns().end_decimal(frame.node);
            }
        }
    }

    fn begin_group(&mut self, _group: &FieldInfo, _header: GroupHeader) {
        if let Some(n) = self.next() {
            self.stack.push(Frame {
                node: n,
                cursor: 0,
                decimal: false,
            });
        }
    }

    fn begin_entry(&mut self, _group: &FieldInfo, _index: u64) {
        let Some(&Frame { node, .. }) = self.stack.last() else {
            return;
        };
        let entry = match &self.columns().nodes[node].kind {
            Kind::List { entry, .. } => *entry,
            _ => return,
        };
        self.columns().begin_struct(entry);
        self.stack.push(Frame {
            node: entry,
            cursor: 0,
            decimal: false,
        });
    }

    fn end_entry(&mut self, _group: &FieldInfo, _index: u64) {
        self.stack.pop();
    }

    fn end_group(&mut self, _group: &FieldInfo) {
        if let Some(frame) = self.stack.pop() {
            self.columns().end_list(frame.node);
        }
    }

    fn absent_group(&mut self, _group: &FieldInfo) {
        if let Some(n) = self.next() {
            self.columns().push_null(n);
        }
    }

    fn var_data(&mut self, _data: &FieldInfo, value: Value<'_>) {
        if let Some(n) = self.next() {
            self.columns().push(n, value);
        }
    }

    #[inline]
    fn block(&mut self, bytes: &[u8], acting: i64) -> bool {
        if self.in_header {
            // The header's fields are no columns.
            return true;
        }
        let Some(frame) = self.stack.last_mut() else {
            return false;
        };
        let table = &mut self.tables[self.table];
        let Some(Some(reader)) = table.readers.get(frame.node) else {
            return false;
        };
        reader.read(&mut table.columns, bytes, acting, self.big_endian);
        frame.cursor += reader.fields;
        true
    }

    #[inline]
    fn entries(
        &mut self,
        _group: &FieldInfo,
        bytes: &[u8],
        count: u64,
        block_length: usize,
        acting: i64,
    ) -> bool {
        let Some(&Frame { node, .. }) = self.stack.last() else {
            return false;
        };
        let table = &mut self.tables[self.table];
        let Kind::List { entry, .. } = table.columns.nodes[node].kind else {
            return false;
        };
        let Some(Some(reader)) = table.readers.get(entry) else {
            return false;
        };
        reader.read_entries(
            &mut table.columns,
            entry,
            bytes,
            count as usize,
            block_length,
            acting,
            self.big_endian,
        );
        true
    }
}

//! A Parquet file written through parquet's column-level API rather than its `ArrowWriter`:
//! the same file (the Arrow schema stored in its metadata, one `ArrowColumnWriter` per leaf
//! column, row groups closed at the same limits), so that some columns can later be written by
//! column chunk writers of our own beside arrow-rs's (docs/benchmarks.md, "Columnar output"):
//! dictionary and `DELTA_BINARY_PACKED` integer leaves at the top level or in a list (of
//! structs) go to [`LeafChunk`], the others to arrow-rs.

use std::io::Write;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, SchemaRef};
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnWriter, ArrowRowGroupWriterFactory};
use parquet::arrow::{add_encoded_arrow_schema_to_metadata, ArrowSchemaConverter};
use parquet::basic::Encoding;
use parquet::errors::{ParquetError, Result};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::SchemaDescriptor;

use crate::parquet_chunk::{self, LeafChunk, ListLevels};

/// A Parquet file being written, batch by batch.
pub struct ParquetFile<W: Write + Send> {
    file: SerializedFileWriter<W>,
    columns: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    /// The leaves written by [`LeafChunk`].
    ours: Vec<OurLeaf>,
    max_rows: Option<usize>,
    max_bytes: Option<usize>,
    /// The row group being filled, if any.
    group: Option<RowGroup>,
}

/// A row group's column writers, one per leaf, and its rows so far.
struct RowGroup {
    writers: Vec<Column>,
    rows: usize,
    /// By top-level field: the levels its list leaves share.
    levels: Vec<ListLevels>,
}

/// A leaf column's writer (boxed: arrow-rs's takes 1.5 kB, ours a quarter of that).
enum Column {
    Arrow(Box<ArrowColumnWriter>),
    Ours(Box<LeafChunk>, Place),
}

/// A leaf written by [`LeafChunk`]: its leaf column index, its place in its top-level field,
/// its Arrow type.
#[derive(Debug, Clone)]
struct OurLeaf {
    leaf: usize,
    place: Place,
    data_type: DataType,
}

/// Where a leaf written by [`LeafChunk`] is in its top-level field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// It is the field.
    Top,
    /// The field is a list of it.
    InList,
    /// The field is a list of structs; it is their field of this index.
    InListStruct(usize),
}

impl Column {
    fn estimated_bytes(&self) -> usize {
        match self {
            Column::Arrow(w) => w.get_estimated_total_bytes(),
            Column::Ours(c, _) => c.estimated_bytes(),
        }
    }
}

impl RowGroup {
    /// Encodes `batch` into the columns' pages (held until the group is flushed).
    fn write(&mut self, schema: &SchemaRef, batch: &RecordBatch) -> Result<()> {
        self.rows += batch.num_rows();
        self.levels
            .resize_with(schema.fields().len(), ListLevels::default);
        let mut leaf = 0;
        for (f, (field, column)) in schema.fields().iter().zip(batch.columns()).enumerate() {
            let count = leaf_count(field.data_type());
            let Some(writers) = self.writers.get_mut(leaf..leaf + count) else {
                return Err(ParquetError::General(
                    "more leaf columns than the schema has".into(),
                ));
            };
            leaf += count;
            // arrow-rs's levels, for its columns only.
            let leaves = if writers.iter().any(|w| matches!(w, Column::Arrow(_))) {
                compute_leaves(field, column)?
            } else {
                Vec::new()
            };
            // The levels of the field's list leaves, made once for those without nulls.
            let shared = &mut self.levels[f];
            shared.next_batch();
            for (i, writer) in writers.iter_mut().enumerate() {
                match writer {
                    Column::Arrow(w) => match leaves.get(i) {
                        Some(leaf) => w.write(leaf)?,
                        None => {
                            return Err(ParquetError::General(format!(
                                "field {}: fewer leaves than columns",
                                field.name()
                            )));
                        }
                    },
                    Column::Ours(chunk, place) => write_ours(chunk, *place, field, column, shared)?,
                }
            }
        }
        Ok(())
    }

    /// What the row group's pages will take once encoded, as arrow-rs estimates it.
    fn estimated_bytes(&self) -> usize {
        self.writers.iter().map(Column::estimated_bytes).sum()
    }
}

/// The leaf columns' writers of row group `index`: [`LeafChunk`]s for the leaves [`places`]
/// finds, arrow-rs's for the others.
fn column_writers<W: Write + Send>(
    columns: &ArrowRowGroupWriterFactory,
    index: usize,
    ours: &[OurLeaf],
    file: &SerializedFileWriter<W>,
) -> Result<Vec<Column>> {
    let mut writers: Vec<Column> = columns
        .create_column_writers(index)?
        .into_iter()
        .map(|w| Column::Arrow(Box::new(w)))
        .collect();
    for our in ours {
        let descr = file.schema_descr().column(our.leaf);
        let props = file.properties();
        let compression = props.compression(descr.path());
        let statistics = props.statistics_enabled(descr.path()) != EnabledStatistics::None;
        writers[our.leaf] = Column::Ours(
            Box::new(LeafChunk::new(
                descr,
                &our.data_type,
                compression,
                statistics,
            )?),
            our.place,
        );
    }
    Ok(writers)
}

/// The leaves of `schema` (stored as `descr` with `props`) that [`LeafChunk`] writes
/// ([`parquet_chunk::writes`]): top-level fields, a list's items and the fields of a list's
/// structs.
fn places(schema: &SchemaRef, descr: &SchemaDescriptor, props: &WriterProperties) -> Vec<OurLeaf> {
    let mut found = Vec::new();
    let mut leaf = 0;
    let mut consider = |leaf: usize, place: Place, data_type: &DataType| {
        let Some(column) = (leaf < descr.num_columns()).then(|| descr.column(leaf)) else {
            return;
        };
        let path = column.path();
        // DELTA_BINARY_PACKED is what arrow-rs writes integers as in format 2 without a
        // dictionary, unless told otherwise.
        let delta = props.writer_version() == WriterVersion::PARQUET_2_0
            && !props.dictionary_enabled(path)
            && matches!(
                props.encoding(path),
                None | Some(Encoding::DELTA_BINARY_PACKED)
            );
        // Text the way arrow-rs writes it when dictionary-encoded without statistics
        // (our chunks keep no byte-array statistics).
        let text = props.dictionary_enabled(path)
            && props.statistics_enabled(path) == EnabledStatistics::None
            && props.encoding(path).is_none();
        if parquet_chunk::writes(data_type, &column, delta, text) {
            found.push(OurLeaf {
                leaf,
                place,
                data_type: data_type.clone(),
            });
        }
    };
    for field in schema.fields() {
        match field.data_type() {
            DataType::List(item) => match item.data_type() {
                DataType::Struct(fields) => {
                    let mut at = leaf;
                    for (k, f) in fields.iter().enumerate() {
                        consider(at, Place::InListStruct(k), f.data_type());
                        at += leaf_count(f.data_type());
                    }
                }
                t => consider(leaf, Place::InList, t),
            },
            t => consider(leaf, Place::Top, t),
        }
        leaf += leaf_count(field.data_type());
    }
    found
}

/// Writes the leaf at `place` of `column` (of top-level `field`) to `chunk`.
/// (`shared`: the levels the field's list leaves share.)
fn write_ours(
    chunk: &mut LeafChunk,
    place: Place,
    field: &Field,
    column: &ArrayRef,
    shared: &mut ListLevels,
) -> Result<()> {
    let nested = || ParquetError::General(format!("field {}: not the list it was", field.name()));
    if place == Place::Top {
        return chunk.write(column);
    }
    let (Some(list), DataType::List(item)) = (column.as_list_opt::<i32>(), field.data_type())
    else {
        return Err(nested());
    };
    match place {
        Place::InListStruct(k) => {
            let entries = list.values().as_struct_opt().ok_or_else(nested)?;
            let leaf = entries.columns().get(k).ok_or_else(nested)?;
            chunk.write_in_list(
                list,
                field.is_nullable(),
                entries.nulls(),
                item.is_nullable(),
                leaf,
                shared,
            )
        }
        _ => chunk.write_in_list(
            list,
            field.is_nullable(),
            None,
            false,
            list.values(),
            shared,
        ),
    }
}

/// The Parquet leaf columns of an Arrow column of `data_type`.
fn leaf_count(data_type: &DataType) -> usize {
    match data_type {
        DataType::Struct(fields) => fields.iter().map(|f| leaf_count(f.data_type())).sum(),
        DataType::List(item)
        | DataType::LargeList(item)
        | DataType::FixedSizeList(item, _)
        | DataType::Map(item, _) => leaf_count(item.data_type()),
        _ => 1,
    }
}

impl<W: Write + Send> ParquetFile<W> {
    /// Starts a file of `schema` on `out`, with the Arrow schema in its metadata (what readers
    /// restore dictionary, timestamp and decimal types from), as `ArrowWriter` would.
    pub fn new(out: W, schema: SchemaRef, mut props: WriterProperties) -> Result<Self> {
        let descr = ArrowSchemaConverter::new()
            .with_coerce_types(props.coerce_types())
            .convert(&schema)?;
        add_encoded_arrow_schema_to_metadata(&schema, &mut props);
        let max_rows = props.max_row_group_row_count();
        let max_bytes = props.max_row_group_bytes();
        let file = SerializedFileWriter::new(out, descr.root_schema_ptr(), Arc::new(props))?;
        let columns = ArrowRowGroupWriterFactory::new(&file, schema.clone());
        let ours = places(&schema, &descr, file.properties());
        Ok(ParquetFile {
            file,
            columns,
            schema,
            ours,
            max_rows,
            max_bytes,
            group: None,
        })
    }

    /// Writes `batch`, splitting it across row groups where the row or byte limit falls (as
    /// `ArrowWriter::write` does, so that the files come out the same).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        let mut remaining = batch.clone();
        loop {
            let group = match &mut self.group {
                Some(group) => group,
                none => none.insert(RowGroup {
                    writers: column_writers(
                        &self.columns,
                        self.file.flushed_row_groups().len(),
                        &self.ours,
                        &self.file,
                    )?,
                    rows: 0,
                    levels: Vec::new(),
                }),
            };
            let buffered = group.rows;
            let mut split_at = match self.max_rows {
                Some(max) if buffered + remaining.num_rows() > max => Some(max - buffered),
                _ => None,
            };
            let candidate_rows = split_at.unwrap_or_else(|| remaining.num_rows());
            if let (Some(max_bytes), true) = (self.max_bytes, buffered > 0) {
                let bytes = group.estimated_bytes();
                if bytes >= max_bytes {
                    self.flush()?;
                    continue;
                }
                let fit = (max_bytes - bytes).checked_div(bytes / buffered);
                if let Some(fit) = fit.filter(|&fit| candidate_rows > fit) {
                    if fit == 0 {
                        self.flush()?;
                        continue;
                    }
                    split_at = Some(fit);
                }
            }
            let rest = split_at.map(|at| {
                let rest = remaining.slice(at, remaining.num_rows() - at);
                remaining = remaining.slice(0, at);
                rest
            });
            let Some(group) = self.group.as_mut() else {
                unreachable!("created above")
            };
            group.write(&self.schema, &remaining)?;
            let full = self.max_rows.is_some_and(|max| group.rows >= max)
                || self
                    .max_bytes
                    .is_some_and(|max| group.estimated_bytes() >= max);
            if full {
                self.flush()?;
            }
            match rest {
                Some(rest) => remaining = rest,
                None => return Ok(()),
            }
        }
    }

    /// Closes the row group being filled, if any, writing its column chunks to the file.
    fn flush(&mut self) -> Result<()> {
        let Some(group) = self.group.take() else {
            return Ok(());
        };
        let mut out = self.file.next_row_group()?;
        for writer in group.writers {
            match writer {
                Column::Arrow(w) => w.close()?.append_to_row_group(&mut out)?,
                Column::Ours(c, _) => c.append_to_row_group(&mut out)?,
            }
        }
        out.close()?;
        Ok(())
    }

    /// Writes the last row group and the footer.
    pub fn close(mut self) -> Result<()> {
        self.flush()?;
        self.file.close()?;
        Ok(())
    }

    /// Writes the last row group and the footer; returns the output.
    #[cfg(test)]
    fn into_inner(mut self) -> Result<W> {
        self.flush()?;
        self.file.into_inner()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::types::Int32Type;
    use arrow_array::{ArrayRef, DictionaryArray, Int64Array, StringArray};
    use arrow_schema::{Field, Schema};
    use bytes::Bytes;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    fn dictionary(keys: Vec<Option<i32>>, values: &[&str]) -> ArrayRef {
        let keys = arrow_array::Int32Array::from(keys);
        Arc::new(
            DictionaryArray::<Int32Type>::try_new(
                keys,
                Arc::new(StringArray::from(values.to_vec())),
            )
            .expect("keys within the values"),
        )
    }

    /// Dictionary columns written by `DictChunk` read back as written: nulls, a dictionary
    /// that grows from batch to batch, one that is not an extension of the last, row groups
    /// closed by the row limit in the middle of a batch.
    #[test]
    fn dictionary_columns_read_back() {
        let dict = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
        let schema = Arc::new(Schema::new(vec![
            Field::new("id", DataType::Int64, false),
            Field::new("state", dict.clone(), true),
            Field::new("side", dict, false),
        ]));
        let batches = [
            (
                vec![Some(0), None, Some(1)],
                &["Open", "Closed"][..],
                vec![Some(0), Some(0), Some(0)],
            ),
            (
                vec![Some(2), Some(2), None],
                &["Open", "Closed", "Halt"][..],
                vec![Some(1), Some(0), Some(1)],
            ),
            (
                vec![Some(0), Some(1), Some(1)],
                &["Halt", "Open"][..],
                vec![Some(1), Some(1), Some(0)],
            ),
        ];
        let sides = ["Buy", "Sell"];
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(4))
            .build();
        let mut file = ParquetFile::new(Vec::new(), schema.clone(), props).expect("a writer");
        let mut written = Vec::new();
        for (n, (state, values, side)) in batches.iter().enumerate() {
            let batch = RecordBatch::try_new(
                schema.clone(),
                vec![
                    Arc::new(Int64Array::from_iter_values(
                        (0..3).map(|i| n as i64 * 3 + i),
                    )),
                    dictionary(state.clone(), values),
                    dictionary(side.clone(), &sides),
                ],
            )
            .expect("a batch");
            file.write(&batch).expect("written");
            written.push(batch);
        }
        let bytes = Bytes::from(file.into_inner().expect("closed"));
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes)
            .expect("a Parquet file")
            .build()
            .expect("a reader");
        let read: Vec<RecordBatch> = reader.map(|b| b.expect("a batch")).collect();
        let strings = |batches: &[RecordBatch], column: usize| -> Vec<Option<String>> {
            batches
                .iter()
                .flat_map(|b| {
                    let c = arrow_cast_strings(b.column(column));
                    c.into_iter()
                })
                .collect()
        };
        for column in 0..3 {
            assert_eq!(
                strings(&read, column),
                strings(&written, column),
                "column {column}"
            );
        }
        assert_eq!(read.iter().map(RecordBatch::num_rows).sum::<usize>(), 9);
        assert_eq!(read[0].schema(), schema, "the stored Arrow schema");
    }

    /// Dictionary leaves in lists (a list's items, a field of a list's structs) read back as
    /// written: null lists, empty lists, null values, several entries a row, row groups split.
    #[test]
    fn dictionary_leaves_in_lists_read_back() {
        use arrow_array::builder::Int64Builder;
        use arrow_array::builder::{ListBuilder, StringDictionaryBuilder, StructBuilder};
        let dict = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
        let entry = arrow_schema::Fields::from(vec![
            Field::new("size", DataType::Int64, true),
            Field::new("action", dict.clone(), true),
        ]);
        let schema = Arc::new(Schema::new(vec![
            Field::new_list(
                "entries",
                Field::new_struct("item", entry.clone(), false),
                true,
            ),
            Field::new_list("tags", Field::new("item", dict, true), true),
        ]));
        // Rows: entries as (size, action) lists, None for a null list; tags likewise.
        type Row = (
            Option<Vec<(i64, Option<&'static str>)>>,
            Option<Vec<Option<&'static str>>>,
        );
        let rows: Vec<Row> = vec![
            (
                Some(vec![(1, Some("New")), (2, None), (3, Some("Delete"))]),
                Some(vec![Some("a")]),
            ),
            (None, None),
            (Some(vec![]), Some(vec![])),
            (
                Some(vec![(4, Some("Change"))]),
                Some(vec![None, Some("b"), Some("a")]),
            ),
            (Some(vec![(5, Some("New")), (6, Some("New"))]), None),
        ];
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(3))
            .build();
        let mut file = ParquetFile::new(Vec::new(), schema.clone(), props).expect("a writer");
        let mut written = Vec::new();
        for part in rows.chunks(2) {
            let mut entries = ListBuilder::new(StructBuilder::new(
                entry.clone(),
                vec![
                    Box::new(Int64Builder::new()),
                    Box::new(StringDictionaryBuilder::<Int32Type>::new()),
                ],
            ))
            .with_field(Arc::new(Field::new_struct("item", entry.clone(), false)));
            let mut tags = ListBuilder::new(StringDictionaryBuilder::<Int32Type>::new());
            for (e, t) in part {
                match e {
                    Some(e) => {
                        for &(size, action) in e {
                            let s = entries.values();
                            s.field_builder::<Int64Builder>(0)
                                .expect("size")
                                .append_value(size);
                            s.field_builder::<StringDictionaryBuilder<Int32Type>>(1)
                                .expect("action")
                                .append_option(action);
                            s.append(true);
                        }
                        entries.append(true);
                    }
                    None => entries.append(false),
                }
                match t {
                    Some(t) => {
                        for &tag in t {
                            tags.values().append_option(tag);
                        }
                        tags.append(true);
                    }
                    None => tags.append(false),
                }
            }
            let batch = RecordBatch::try_new(
                schema.clone(),
                vec![Arc::new(entries.finish()), Arc::new(tags.finish())],
            )
            .expect("a batch");
            file.write(&batch).expect("written");
            written.push(batch);
        }
        let bytes = Bytes::from(file.into_inner().expect("closed"));
        let read: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(bytes)
            .expect("a Parquet file")
            .build()
            .expect("a reader")
            .map(|b| b.expect("a batch"))
            .collect();
        let text = |batches: &[RecordBatch]| -> Vec<String> {
            batches
                .iter()
                .flat_map(|b| {
                    (0..b.num_rows()).map(move |i| {
                        let row = b.slice(i, 1);
                        format!("{:?}", arrow_cast_lists(&row))
                    })
                })
                .collect()
        };
        assert_eq!(text(&read), text(&written));
        assert_eq!(
            read.iter().map(RecordBatch::num_rows).sum::<usize>(),
            rows.len()
        );
    }

    /// Integer leaves written by `LeafChunk` (top level and in a list of structs; signed,
    /// unsigned past the signed range, timestamps, dates, decimals; nulls, null and empty
    /// lists; row groups split in a batch) read back as arrow-rs's own writer's file does,
    /// with the same min/max statistics.
    #[test]
    fn integer_leaves_read_back_as_arrow_rs_writes_them() {
        use arrow_array::builder::{Decimal128Builder, Int32Builder, ListBuilder};
        use arrow_array::builder::{StructBuilder, UInt64Builder};
        use arrow_array::{
            Date32Array, Decimal128Array, Int8Array, TimestampNanosecondArray, UInt32Array,
            UInt64Array, UInt8Array,
        };
        use parquet::basic::Compression;
        use parquet::file::properties::{EnabledStatistics, WriterVersion};
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let entry = arrow_schema::Fields::from(vec![
            Field::new("qty", DataType::Int32, false),
            Field::new("px", DataType::Decimal128(18, 9), true),
            Field::new("id", DataType::UInt64, false),
        ]);
        let item = Field::new_struct("item", entry.clone(), false);
        let schema = Arc::new(Schema::new(vec![
            Field::new("i8", DataType::Int8, false),
            Field::new("u8", DataType::UInt8, false),
            Field::new("u32", DataType::UInt32, true),
            Field::new("u64", DataType::UInt64, false),
            Field::new(
                "ts",
                DataType::Timestamp(arrow_schema::TimeUnit::Nanosecond, Some("UTC".into())),
                true,
            ),
            Field::new("day", DataType::Date32, false),
            Field::new("px", DataType::Decimal128(9, 2), true),
            Field::new_list("entries", item.clone(), true),
        ]));
        let mut batches = Vec::new();
        for n in 0..3i64 {
            let rows = 700 + 300 * n as usize;
            let r = |i: usize| (i as i64 * 7919 + n * 104_729) % 1000;
            let mut entries = ListBuilder::new(StructBuilder::new(
                entry.clone(),
                vec![
                    Box::new(Int32Builder::new()),
                    Box::new(
                        Decimal128Builder::new()
                            .with_precision_and_scale(18, 9)
                            .unwrap(),
                    ),
                    Box::new(UInt64Builder::new()),
                ],
            ))
            .with_field(Arc::new(item.clone()));
            for i in 0..rows {
                match r(i) % 5 {
                    0 => entries.append(false),
                    1 => entries.append(true),
                    k => {
                        for e in 0..k as usize {
                            let s = entries.values();
                            s.field_builder::<Int32Builder>(0)
                                .unwrap()
                                .append_value([i32::MIN, i32::MAX, -3, 17][(i + e) % 4]);
                            s.field_builder::<Decimal128Builder>(1)
                                .unwrap()
                                .append_option((e != 1).then_some(r(i + e) as i128 * 1_000_000));
                            s.field_builder::<UInt64Builder>(2)
                                .unwrap()
                                .append_value(u64::MAX - (i * e) as u64);
                            s.append(true);
                        }
                        entries.append(true);
                    }
                }
            }
            let columns: Vec<ArrayRef> = vec![
                Arc::new(Int8Array::from_iter_values(
                    (0..rows).map(|i| (r(i) - 500) as i8),
                )),
                Arc::new(UInt8Array::from_iter_values(
                    (0..rows).map(|i| (r(i) * 3) as u8),
                )),
                Arc::new(UInt32Array::from_iter(
                    (0..rows).map(|i| (i % 7 != 3).then_some(u32::MAX - r(i) as u32 * 9)),
                )),
                Arc::new(UInt64Array::from_iter_values(
                    (0..rows).map(|i| (1u64 << 63) + r(i) as u64),
                )),
                Arc::new(
                    TimestampNanosecondArray::from_iter((0..rows).map(|i| {
                        (i % 11 != 0).then_some(1_700_000_000_000_000_000 + r(i) * 1_000)
                    }))
                    .with_timezone("UTC"),
                ),
                Arc::new(Date32Array::from_iter_values(
                    (0..rows).map(|i| 19_000 + r(i) as i32),
                )),
                Arc::new(
                    Decimal128Array::from_iter(
                        (0..rows).map(|i| (i % 5 != 0).then_some(r(i) as i128 - 400)),
                    )
                    .with_precision_and_scale(9, 2)
                    .unwrap(),
                ),
                Arc::new(entries.finish()),
            ];
            batches.push(RecordBatch::try_new(schema.clone(), columns).expect("a batch"));
        }
        let props = || {
            WriterProperties::builder()
                .set_writer_version(WriterVersion::PARQUET_2_0)
                .set_dictionary_enabled(false)
                .set_compression(Compression::SNAPPY)
                .set_statistics_enabled(EnabledStatistics::Chunk)
                .set_max_row_group_row_count(Some(1500))
                .build()
        };
        let (ours, theirs) = write_both(&schema, &batches, props, 10);
        assert_eq!(read(&ours), read(&theirs));
        assert_eq!(
            read(&ours).iter().map(RecordBatch::num_rows).sum::<usize>(),
            3000
        );
        let ours = SerializedFileReader::new(ours).expect("a file");
        let theirs = SerializedFileReader::new(theirs).expect("a file");
        let (ours, theirs) = (ours.metadata(), theirs.metadata());
        assert_eq!(ours.num_row_groups(), theirs.num_row_groups());
        for (a, b) in ours.row_groups().iter().zip(theirs.row_groups()) {
            assert_eq!(a.num_rows(), b.num_rows());
            for (x, y) in a.columns().iter().zip(b.columns()) {
                let (x, y) = (x.statistics(), y.statistics());
                let p = |s: Option<&parquet::file::statistics::Statistics>| {
                    s.map(|s| {
                        (
                            s.min_bytes_opt().map(<[u8]>::to_vec),
                            s.max_bytes_opt().map(<[u8]>::to_vec),
                            s.null_count_opt(),
                        )
                    })
                };
                assert_eq!(p(x), p(y));
            }
        }
    }

    /// Text leaves in lists (a set's items, a field of a group's entries, with nulls) written
    /// by `LeafChunk` read back as arrow-rs's own writer's file does.
    #[test]
    fn text_leaves_in_lists_read_back_as_arrow_rs_writes_them() {
        use arrow_array::builder::{ListBuilder, StringBuilder, StructBuilder};
        use parquet::file::properties::{EnabledStatistics, WriterVersion};
        let entry = arrow_schema::Fields::from(vec![Field::new("side", DataType::Utf8, true)]);
        let item = Field::new_struct("item", entry.clone(), false);
        let schema = Arc::new(Schema::new(vec![
            Field::new_list("flags", Field::new("item", DataType::Utf8, false), true),
            Field::new_list("entries", item.clone(), false),
        ]));
        let names = ["LastTradeMsg", "EndOfEvent", "Recovery", "", "Ünïcode"];
        let mut batches = Vec::new();
        for n in 0..3usize {
            let mut flags = ListBuilder::new(StringBuilder::new())
                .with_field(Arc::new(Field::new("item", DataType::Utf8, false)));
            let mut entries = ListBuilder::new(StructBuilder::new(
                entry.clone(),
                vec![Box::new(StringBuilder::new())],
            ))
            .with_field(Arc::new(item.clone()));
            for i in 0..(500 + 200 * n) {
                let r = (i * 7 + n * 3) % 11;
                if r == 0 {
                    flags.append(false);
                } else {
                    for k in 0..r % 4 {
                        flags
                            .values()
                            .append_value(names[(i + k + n) % names.len()]);
                    }
                    flags.append(true);
                }
                for k in 0..r % 3 {
                    let s = entries.values();
                    let side = (k != 1).then(|| format!("side{}", (i * k + n) % 5));
                    s.field_builder::<StringBuilder>(0)
                        .unwrap()
                        .append_option(side);
                    s.append(true);
                }
                entries.append(true);
            }
            let columns: Vec<ArrayRef> = vec![Arc::new(flags.finish()), Arc::new(entries.finish())];
            batches.push(RecordBatch::try_new(schema.clone(), columns).expect("a batch"));
        }
        let props = || {
            WriterProperties::builder()
                .set_writer_version(WriterVersion::PARQUET_2_0)
                .set_statistics_enabled(EnabledStatistics::None)
                .set_max_row_group_row_count(Some(1000))
                .build()
        };
        let (ours, theirs) = write_both(&schema, &batches, props, 2);
        let ours = read(&ours);
        assert_eq!(ours, read(&theirs));
        assert_eq!(ours.iter().map(RecordBatch::num_rows).sum::<usize>(), 2100);
    }

    /// `batches` written by `ParquetFile` (with `ours` leaves of its own) and by arrow-rs's
    /// `ArrowWriter`, each with `props`: the two files.
    fn write_both(
        schema: &SchemaRef,
        batches: &[RecordBatch],
        props: impl Fn() -> WriterProperties,
        ours: usize,
    ) -> (Bytes, Bytes) {
        use parquet::arrow::ArrowWriter;
        let mut file = ParquetFile::new(Vec::new(), schema.clone(), props()).expect("a writer");
        assert_eq!(file.ours.len(), ours, "the leaves of our own");
        let mut theirs = ArrowWriter::try_new(Vec::new(), schema.clone(), Some(props())).unwrap();
        for batch in batches {
            file.write(batch).expect("written");
            theirs.write(batch).expect("written");
        }
        (
            Bytes::from(file.into_inner().expect("closed")),
            Bytes::from(theirs.into_inner().expect("closed")),
        )
    }

    /// A file's batches as the reader cuts them (by row group, so two files of the same row
    /// groups give the same batches).
    fn read(bytes: &Bytes) -> Vec<RecordBatch> {
        ParquetRecordBatchReaderBuilder::try_new(bytes.clone())
            .expect("a Parquet file")
            .build()
            .expect("a reader")
            .map(|b| b.expect("a batch"))
            .collect()
    }

    /// A one-row batch of the lists above as text: each list's entries with enums looked up.
    fn arrow_cast_lists(row: &RecordBatch) -> Vec<Option<Vec<String>>> {
        use arrow_array::cast::AsArray;
        row.columns()
            .iter()
            .map(|c| {
                let list = c.as_list::<i32>();
                (!list.is_null(0)).then(|| {
                    let values = list.value(0);
                    match values.as_struct_opt() {
                        Some(s) => (0..s.len())
                            .map(|i| {
                                format!(
                                    "{:?} {:?}",
                                    arrow_cast_strings(s.column(0))[i],
                                    arrow_cast_strings(s.column(1))[i]
                                )
                            })
                            .collect(),
                        None => arrow_cast_strings(&values)
                            .into_iter()
                            .map(|v| format!("{v:?}"))
                            .collect(),
                    }
                })
            })
            .collect()
    }

    /// A column's values as text (dictionaries looked up), to compare whatever the dictionary.
    fn arrow_cast_strings(array: &ArrayRef) -> Vec<Option<String>> {
        use arrow_array::cast::AsArray;
        match array.as_dictionary_opt::<Int32Type>() {
            Some(dict) => {
                let values = dict.values().as_string::<i32>();
                dict.keys()
                    .iter()
                    .map(|k| k.map(|k| values.value(k as usize).to_owned()))
                    .collect()
            }
            None => (0..array.len())
                .map(|i| {
                    (!array.is_null(i)).then(|| {
                        array
                            .as_primitive::<arrow_array::types::Int64Type>()
                            .value(i)
                            .to_string()
                    })
                })
                .collect(),
        }
    }
}

//! A Parquet file written through parquet's column-level API rather than its `ArrowWriter`:
//! the same file (the Arrow schema stored in its metadata, one `ArrowColumnWriter` per leaf
//! column, row groups closed at the same limits), so that some columns can later be written by
//! column chunk writers of our own beside arrow-rs's (docs/benchmarks.md, "Columnar output"):
//! top-level `Dictionary(Int32, Utf8)` columns go to [`DictChunk`], the others to arrow-rs.

use std::io::Write;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, SchemaRef};
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnWriter, ArrowRowGroupWriterFactory};
use parquet::arrow::{add_encoded_arrow_schema_to_metadata, ArrowSchemaConverter};
use parquet::errors::{ParquetError, Result};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

use crate::parquet_dict::DictChunk;

/// A Parquet file being written, batch by batch.
pub struct ParquetFile<W: Write + Send> {
    file: SerializedFileWriter<W>,
    columns: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    /// The leaves written by [`DictChunk`] (leaf column index, place in its field).
    dictionary: Vec<(usize, Place)>,
    max_rows: Option<usize>,
    max_bytes: Option<usize>,
    /// The row group being filled, if any.
    group: Option<RowGroup>,
}

/// A row group's column writers, one per leaf, and its rows so far.
struct RowGroup {
    writers: Vec<Column>,
    rows: usize,
}

/// A leaf column's writer (boxed: arrow-rs's takes 1.5 kB, ours a quarter of that).
enum Column {
    Arrow(Box<ArrowColumnWriter>),
    Dictionary(Box<DictChunk>, Place),
}

/// Where a dictionary leaf written by [`DictChunk`] is in its top-level field.
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
            Column::Dictionary(c, _) => c.estimated_bytes(),
        }
    }
}

impl RowGroup {
    /// Encodes `batch` into the columns' pages (held until the group is flushed).
    fn write(&mut self, schema: &SchemaRef, batch: &RecordBatch) -> Result<()> {
        self.rows += batch.num_rows();
        let mut leaf = 0;
        for (field, column) in schema.fields().iter().zip(batch.columns()) {
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
                    Column::Dictionary(chunk, place) => {
                        write_dictionary(chunk, *place, field, column)?
                    }
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

/// The leaf columns' writers of row group `index`: [`DictChunk`]s for the dictionary leaves
/// [`places`] finds, arrow-rs's for the others.
fn column_writers<W: Write + Send>(
    columns: &ArrowRowGroupWriterFactory,
    index: usize,
    dictionary: &[(usize, Place)],
    file: &SerializedFileWriter<W>,
) -> Result<Vec<Column>> {
    let mut writers: Vec<Column> = columns
        .create_column_writers(index)?
        .into_iter()
        .map(|w| Column::Arrow(Box::new(w)))
        .collect();
    for &(leaf, place) in dictionary {
        let descr = file.schema_descr().column(leaf);
        let compression = file.properties().compression(descr.path());
        writers[leaf] = Column::Dictionary(Box::new(DictChunk::new(descr, compression)?), place);
    }
    Ok(writers)
}

/// The leaves of `schema` that [`DictChunk`] writes, by leaf column index: top-level
/// `Dictionary(Int32, Utf8)` fields, and those that are a list's items or a field of a list's
/// structs.
fn places(schema: &SchemaRef) -> Vec<(usize, Place)> {
    let mut found = Vec::new();
    let mut leaf = 0;
    for field in schema.fields() {
        match field.data_type() {
            t if ours(t) => found.push((leaf, Place::Top)),
            DataType::List(item) if ours(item.data_type()) => found.push((leaf, Place::InList)),
            DataType::List(item) => {
                if let DataType::Struct(fields) = item.data_type() {
                    let mut at = leaf;
                    for (k, f) in fields.iter().enumerate() {
                        if ours(f.data_type()) {
                            found.push((at, Place::InListStruct(k)));
                        }
                        at += leaf_count(f.data_type());
                    }
                }
            }
            _ => {}
        }
        leaf += leaf_count(field.data_type());
    }
    found
}

/// Writes the dictionary leaf at `place` of `column` (of top-level `field`) to `chunk`.
fn write_dictionary(
    chunk: &mut DictChunk,
    place: Place,
    field: &Field,
    column: &ArrayRef,
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
            )
        }
        _ => chunk.write_in_list(list, field.is_nullable(), None, false, list.values()),
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

/// Whether a top-level field of `data_type` is written by [`DictChunk`].
fn ours(data_type: &DataType) -> bool {
    matches!(data_type, DataType::Dictionary(key, value)
        if **key == DataType::Int32 && **value == DataType::Utf8)
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
        let dictionary = places(&schema);
        Ok(ParquetFile {
            file,
            columns,
            schema,
            dictionary,
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
                        &self.dictionary,
                        &self.file,
                    )?,
                    rows: 0,
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
                Column::Dictionary(c, _) => c.append_to_row_group(&mut out)?,
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

//! A Parquet column chunk writer of our own for the leaves Sable's tables have most of (the
//! `_flow` column, enums, integers, timestamps and 64-bit decimals, at the top level or as a
//! field of a group's entries), in place of arrow-rs's column writers, which work out every
//! value's levels from the Arrow arrays (`compute_leaves`) and go through a generic
//! per-value path (docs/benchmarks.md, "Columnar output").
//!
//! - `Dictionary(Int32, Utf8)` leaves: the Arrow dictionary's keys are written as the Parquet
//!   dictionary indices, instead of arrow-rs interning every value again into a page
//!   dictionary of its own (about 140 instructions a value). The chunk's dictionary page
//!   (`PLAIN`) holds the values used, in the order first used: a batch's keys are mapped onto
//!   it through a table filled on a key's first use, so the indices are as wide as the names
//!   used need.
//! - Integer leaves (`INT32`/`INT64`: integers, timestamps, dates, decimals of up to 18
//!   digits): `DELTA_BINARY_PACKED` (crate::parquet_delta) in the layout arrow-rs's writer has
//!   from `files::properties`, with min/max statistics where the properties ask for them.
//!
//! One format 2 data page (`DataPageV2`) per batch of up to [`PAGE_ROWS`] rows: repetition
//! levels (inside a list), definition levels (when nullable), then the values, the levels in
//! the RLE/bit-packed hybrid (crate::parquet_hybrid).

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Decimal128Type, Int16Type, Int32Type, Int64Type, Int8Type,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, GenericListArray};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, TimeUnit};
use bytes::Bytes;
use parquet::basic::{Compression, Encoding, EncodingMask, PageType, SortOrder, Type};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::{ColumnChunkMetaData, PageEncodingStats};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::file::writer::{SerializedPageWriter, SerializedRowGroupWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

use crate::parquet_delta;
use crate::parquet_hybrid::{hybrid, index_width};

/// The most rows in a data page (arrow-rs's default page row limit).
pub const PAGE_ROWS: usize = 20_000;

/// Whether [`LeafChunk`] writes a leaf of Arrow type `data_type` stored as `descr`: a
/// `Dictionary(Int32, Utf8)`; text (`Utf8`) to be dictionary-encoded without statistics
/// (`text`); or an integer, timestamp, date or decimal stored as `INT32` or `INT64` and
/// (`delta`) to be written `DELTA_BINARY_PACKED`.
pub fn writes(data_type: &DataType, descr: &ColumnDescPtr, delta: bool, text: bool) -> bool {
    match data_type {
        DataType::Utf8 => text && descr.physical_type() == Type::BYTE_ARRAY,
        DataType::Dictionary(key, value) => **key == DataType::Int32 && **value == DataType::Utf8,
        DataType::Int8
        | DataType::Int16
        | DataType::Int32
        | DataType::UInt8
        | DataType::UInt16
        | DataType::UInt32
        | DataType::Date32 => delta && descr.physical_type() == Type::INT32,
        DataType::Int64 | DataType::UInt64 | DataType::Timestamp(..) => {
            delta && descr.physical_type() == Type::INT64
        }
        DataType::Decimal128(precision, _) => {
            delta
                && matches!(
                    (descr.physical_type(), precision),
                    (Type::INT32, 1..=9) | (Type::INT64, 1..=18)
                )
        }
        _ => false,
    }
}

/// What a chunk's values are and how they are encoded.
enum Values {
    Dictionary(Dictionary),
    Delta(Delta),
}

/// A dictionary chunk's dictionary, and the mapping of the batch's keys onto it.
struct Dictionary {
    /// The dictionary page's body so far (`PLAIN`: each value's length, `u32` little-endian,
    /// then its bytes) and its values' count.
    page: Vec<u8>,
    entries: usize,
    /// Each value of `page`'s index.
    index: HashMap<Box<[u8]>, u32, ahash::RandomState>,
    /// Text leaves (`Utf8`, each value looked up) rather than an Arrow dictionary's keys.
    text: bool,
    /// The batch's dictionary values (or text), and each key's index in `page` once used
    /// ([`UNMAPPED`] before).
    batch: Option<arrow_array::StringArray>,
    mapping: Vec<u32>,
    /// Scratch: a page's indices.
    indices: Vec<u32>,
}

/// A key of the batch not used yet.
const UNMAPPED: u32 = u32::MAX;

/// An integer chunk's physical type and statistics.
struct Delta {
    /// `INT32` (values sign-extended into `i64`) rather than `INT64`.
    int32: bool,
    /// Min/max statistics, if kept.
    stats: Option<MinMax>,
    /// Scratch: a page's values.
    values: Vec<i64>,
}

/// A chunk's least and greatest value (in the column's sort order) and nulls so far.
struct MinMax {
    unsigned: bool,
    range: Option<(i64, i64)>,
    nulls: u64,
}

impl MinMax {
    fn add(&mut self, values: &[i64], int32: bool) {
        let Some((&first, _)) = values.split_first() else {
            return;
        };
        // Unsigned values compare as such once their sign bit is flipped.
        let flip = match (self.unsigned, int32) {
            (false, _) => 0,
            (true, true) => i64::from(i32::MIN),
            (true, false) => i64::MIN,
        };
        let (mut lo, mut hi) = match self.range {
            Some((lo, hi)) => (lo ^ flip, hi ^ flip),
            None => (first ^ flip, first ^ flip),
        };
        for &v in values {
            lo = lo.min(v ^ flip);
            hi = hi.max(v ^ flip);
        }
        self.range = Some((lo ^ flip, hi ^ flip));
    }

    fn statistics(&self, int32: bool) -> Statistics {
        let (min, max) = self.range.unzip();
        let nulls = Some(self.nulls);
        let signed = !self.unsigned;
        if int32 {
            Statistics::Int32(
                ValueStatistics::new(
                    min.map(|v| v as i32),
                    max.map(|v| v as i32),
                    None,
                    nulls,
                    false,
                )
                .with_backwards_compatible_min_max(signed),
            )
        } else {
            Statistics::Int64(
                ValueStatistics::new(min, max, None, nulls, false)
                    .with_backwards_compatible_min_max(signed),
            )
        }
    }
}

/// A leaf column's chunk in one row group, being filled batch by batch.
pub struct LeafChunk {
    descr: ColumnDescPtr,
    snappy: bool,
    values: Values,
    /// The data pages so far.
    pages: Vec<CompressedPage>,
    /// Bytes of the pages so far (for the row group's size limit).
    bytes: usize,
    rows: u64,
    /// Scratch: the batch's leaf values by slot (dictionary keys, or integers as the column
    /// stores them); a page's levels and value slots, then encoded; a page's values.
    slots: Vec<i64>,
    raw: RawLevels,
    encoded: PageLevels,
    values_scratch: Vec<u8>,
}

impl LeafChunk {
    /// A chunk of column `descr` (one leaf, at most one repetition level and three
    /// definition levels) holding Arrow values of `data_type` (as [`writes`] accepts),
    /// Snappy-compressed or not, with min/max statistics or not.
    pub fn new(
        descr: ColumnDescPtr,
        data_type: &DataType,
        compression: Compression,
        statistics: bool,
    ) -> Result<LeafChunk> {
        let snappy = match compression {
            Compression::SNAPPY => true,
            Compression::UNCOMPRESSED => false,
            other => {
                return Err(ParquetError::NYI(format!(
                    "columns compressed with {other}"
                )));
            }
        };
        if descr.max_rep_level() > 1 || descr.max_def_level() > 3 {
            return Err(ParquetError::General(format!(
                "column {} is nested deeper than a list of structs",
                descr.path()
            )));
        }
        let values = if matches!(data_type, DataType::Dictionary(..) | DataType::Utf8) {
            Values::Dictionary(Dictionary {
                page: Vec::new(),
                entries: 0,
                index: HashMap::default(),
                text: *data_type == DataType::Utf8,
                batch: None,
                mapping: Vec::new(),
                indices: Vec::new(),
            })
        } else {
            Values::Delta(Delta {
                int32: descr.physical_type() == Type::INT32,
                stats: statistics.then(|| MinMax {
                    unsigned: descr.sort_order() == SortOrder::UNSIGNED,
                    range: None,
                    nulls: 0,
                }),
                values: Vec::new(),
            })
        };
        Ok(LeafChunk {
            descr,
            snappy,
            values,
            pages: Vec::new(),
            bytes: 0,
            rows: 0,
            slots: Vec::new(),
            raw: RawLevels::default(),
            encoded: PageLevels::default(),
            values_scratch: Vec::new(),
        })
    }

    /// What the chunk's pages take so far (the row group's size limit counts it).
    pub fn estimated_bytes(&self) -> usize {
        let dictionary = match &self.values {
            Values::Dictionary(d) => d.page.len(),
            Values::Delta(_) => 0,
        };
        self.bytes + dictionary
    }

    /// Takes `leaf`'s values into the slots (a dictionary's keys, with its values kept for
    /// mapping them when used; integers as the column stores them); returns its validity.
    fn take(&mut self, leaf: &ArrayRef) -> Result<Option<NullBuffer>> {
        self.slots.clear();
        match &mut self.values {
            Values::Dictionary(d) if d.text => {
                let Some(text) = leaf.as_string_opt::<i32>() else {
                    return Err(self.mismatch(leaf.data_type()));
                };
                d.batch = Some(text.clone());
                Ok(text.nulls().cloned())
            }
            Values::Dictionary(d) => {
                let Some(dict) = leaf.as_dictionary_opt::<Int32Type>() else {
                    return Err(self.mismatch(leaf.data_type()));
                };
                let Some(values) = dict.values().as_string_opt::<i32>() else {
                    return Err(self.mismatch(leaf.data_type()));
                };
                if values.null_count() > 0 {
                    return Err(ParquetError::General(format!(
                        "column {}: null dictionary values",
                        self.descr.path()
                    )));
                }
                d.mapping.clear();
                d.mapping.resize(values.len(), UNMAPPED);
                d.batch = Some(values.clone());
                self.slots
                    .extend(dict.keys().values().iter().map(|&k| i64::from(k)));
                Ok(dict.keys().nulls().cloned())
            }
            Values::Delta(delta) => {
                let int32 = delta.int32;
                let out = &mut self.slots;
                let taken = match leaf.data_type() {
                    DataType::Int8 => integers::<Int8Type>(leaf, int32, out, |v| v.into()),
                    DataType::Int16 => integers::<Int16Type>(leaf, int32, out, |v| v.into()),
                    DataType::Int32 => integers::<Int32Type>(leaf, int32, out, |v| v.into()),
                    DataType::Int64 => integers::<Int64Type>(leaf, int32, out, |v| v),
                    DataType::UInt8 => integers::<UInt8Type>(leaf, int32, out, |v| v.into()),
                    DataType::UInt16 => integers::<UInt16Type>(leaf, int32, out, |v| v.into()),
                    DataType::UInt32 => integers::<UInt32Type>(leaf, int32, out, |v| v.into()),
                    DataType::UInt64 => integers::<UInt64Type>(leaf, int32, out, |v| v as i64),
                    DataType::Date32 => integers::<Date32Type>(leaf, int32, out, |v| v.into()),
                    DataType::Decimal128(..) => {
                        integers::<Decimal128Type>(leaf, int32, out, |v| v as i64)
                    }
                    DataType::Timestamp(unit, _) => match unit {
                        TimeUnit::Second => {
                            integers::<TimestampSecondType>(leaf, int32, out, |v| v)
                        }
                        TimeUnit::Millisecond => {
                            integers::<TimestampMillisecondType>(leaf, int32, out, |v| v)
                        }
                        TimeUnit::Microsecond => {
                            integers::<TimestampMicrosecondType>(leaf, int32, out, |v| v)
                        }
                        TimeUnit::Nanosecond => {
                            integers::<TimestampNanosecondType>(leaf, int32, out, |v| v)
                        }
                    },
                    _ => false,
                };
                if !taken {
                    return Err(self.mismatch(leaf.data_type()));
                }
                Ok(leaf.logical_nulls())
            }
        }
    }

    /// The error for a leaf of a type the chunk does not hold.
    fn mismatch(&self, data_type: &DataType) -> ParquetError {
        ParquetError::General(format!(
            "column {}: {data_type} is not the type it was",
            self.descr.path()
        ))
    }

    /// Appends `array` (a top-level column) as data pages of up to [`PAGE_ROWS`] rows.
    pub fn write(&mut self, array: &ArrayRef) -> Result<()> {
        let nulls = self.take(array)?.filter(|n| n.null_count() > 0);
        if nulls.is_some() && self.descr.max_def_level() == 0 {
            return Err(self.not_nullable());
        }
        let max_def = self.descr.max_def_level();
        self.in_pages(array.len(), |raw, range| match &nulls {
            Some(nulls) => {
                for i in range {
                    let valid = nulls.is_valid(i);
                    raw.defs.push(u32::from(valid));
                    if valid {
                        raw.positions.push(i as u32);
                    }
                }
            }
            None => {
                if max_def > 0 {
                    raw.defs.resize(range.len(), 1);
                }
                raw.positions.extend(range.start as u32..range.end as u32);
            }
        })
    }

    /// Appends the leaf `leaf` of the entries of `list` (directly its values, or a field of
    /// its struct values whose validity is `entry_nulls`), as data pages of up to
    /// [`PAGE_ROWS`] rows. `list_nullable` and `entry_nullable` say which of the list and its
    /// entries are optional in the Parquet schema (their definition levels). A leaf without
    /// nulls of its own takes its pages' levels from `shared` (made by the list's first such
    /// leaf), as its list's other leaves do.
    pub fn write_in_list(
        &mut self,
        list: &GenericListArray<i32>,
        list_nullable: bool,
        entry_nulls: Option<&NullBuffer>,
        entry_nullable: bool,
        leaf: &ArrayRef,
        shared: &mut ListLevels,
    ) -> Result<()> {
        let leaf_nulls = self.take(leaf)?.filter(|n| n.null_count() > 0);
        let list_there = u32::from(list_nullable);
        let entry_there = list_there + 1;
        let struct_there = entry_there + u32::from(entry_nullable);
        let max_def = self.descr.max_def_level() as u32;
        if self.descr.max_rep_level() != 1 || max_def < struct_there {
            return Err(ParquetError::General(format!(
                "column {}: levels {}/{} do not fit a list of values",
                self.descr.path(),
                self.descr.max_rep_level(),
                max_def
            )));
        }
        if leaf_nulls.is_some() && max_def == struct_there {
            return Err(self.not_nullable());
        }
        let walk = ListWalk {
            offsets: list.value_offsets(),
            list_nulls: list.nulls().filter(|n| n.null_count() > 0),
            entry_nulls: entry_nulls.filter(|n| n.null_count() > 0),
            leaf_nulls: leaf_nulls.as_ref(),
            list_there,
            entry_there,
            struct_there,
            max_def,
        };
        if leaf_nulls.is_some() {
            return self.in_pages(list.len(), |raw, range| walk.levels(range, raw));
        }
        for page in shared.pages(max_def, &walk, list.len()) {
            self.page(page)?;
        }
        self.rows += list.len() as u64;
        Ok(())
    }

    /// Appends `rows` rows as data pages of up to [`PAGE_ROWS`] rows each: `fill` puts a
    /// range of rows' levels and the slots of their values into the (cleared) scratch
    /// levels, then they become a page.
    fn in_pages(
        &mut self,
        rows: usize,
        mut fill: impl FnMut(&mut RawLevels, std::ops::Range<usize>),
    ) -> Result<()> {
        let max_rep = self.descr.max_rep_level();
        let max_def = self.descr.max_def_level() as u32;
        for range in page_ranges(rows) {
            self.raw.clear();
            fill(&mut self.raw, range.clone());
            let mut page = std::mem::take(&mut self.encoded);
            self.raw.encode(range.len(), max_rep, max_def, &mut page);
            let written = self.page(&page);
            self.encoded = page;
            written?;
        }
        self.rows += rows as u64;
        Ok(())
    }

    /// The error for a null in a column whose values are required.
    fn not_nullable(&self) -> ParquetError {
        ParquetError::General(format!(
            "column {}: nulls in a column that is not nullable",
            self.descr.path()
        ))
    }

    /// A data page of `levels`' rows: its levels, then the values in the slots it gives.
    fn page(&mut self, levels: &PageLevels) -> Result<()> {
        let mut values = std::mem::take(&mut self.values_scratch);
        values.clear();
        let num_nulls = (levels.count - levels.positions.len()) as u32;
        let encoding = match &mut self.values {
            Values::Dictionary(d) => {
                if let Err(k) = d.encode(&self.slots, &levels.positions, &mut values) {
                    return Err(ParquetError::General(format!(
                        "column {}: key {k} outside its dictionary",
                        self.descr.path()
                    )));
                }
                Encoding::RLE_DICTIONARY
            }
            Values::Delta(delta) => {
                delta.values.clear();
                let slots = &self.slots;
                delta
                    .values
                    .extend(levels.positions.iter().map(|&p| slots[p as usize]));
                if let Some(stats) = &mut delta.stats {
                    stats.add(&delta.values, delta.int32);
                    stats.nulls += u64::from(num_nulls);
                }
                parquet_delta::encode(&delta.values, delta.int32, &mut values);
                Encoding::DELTA_BINARY_PACKED
            }
        };
        let levels_len = levels.reps.len() + levels.defs.len();
        // Room for the values compressed too (at most snap's bound), so that the page's
        // buffer is allocated once.
        let room = if self.snappy {
            snap::raw::max_compress_len(values.len()).max(values.len())
        } else {
            values.len()
        };
        let mut buf = Vec::with_capacity(levels_len + room);
        buf.extend_from_slice(&levels.reps);
        buf.extend_from_slice(&levels.defs);
        let uncompressed = levels_len + values.len();
        let is_compressed = self.snappy && {
            buf.resize(levels_len + snap::raw::max_compress_len(values.len()), 0);
            let n = snap::raw::Encoder::new()
                .compress(&values, &mut buf[levels_len..])
                .map_err(|e| ParquetError::External(Box::new(e)))?;
            // As arrow-rs: kept only if it saves something.
            buf.truncate(levels_len + n);
            let smaller = n < values.len();
            if !smaller {
                buf.truncate(levels_len);
            }
            smaller
        };
        if !is_compressed {
            buf.extend_from_slice(&values);
        }
        self.values_scratch = values;
        self.bytes += buf.len();
        self.pages.push(CompressedPage::new(
            Page::DataPageV2 {
                buf: Bytes::from(buf),
                num_values: levels.count as u32,
                encoding,
                num_nulls,
                num_rows: levels.rows as u32,
                def_levels_byte_len: levels.defs.len() as u32,
                rep_levels_byte_len: levels.reps.len() as u32,
                is_compressed,
                statistics: None,
            },
            uncompressed,
        ));
        Ok(())
    }

    /// Writes the chunk (the dictionary page if any, then the data pages) into the row group.
    pub fn append_to_row_group<W: std::io::Write + Send>(
        self,
        row_group: &mut SerializedRowGroupWriter<'_, W>,
    ) -> Result<()> {
        let mut sink = TrackedWrite::new(Vec::new());
        let mut uncompressed = 0;
        let mut num_values = 0;
        let mut data_offset = None;
        let data_pages = self.pages.len() as i32;
        let (encoding, statistics) = match &self.values {
            Values::Dictionary(_) => (Encoding::RLE_DICTIONARY, None),
            Values::Delta(d) => (
                Encoding::DELTA_BINARY_PACKED,
                d.stats.as_ref().map(|s| s.statistics(d.int32)),
            ),
        };
        let mut stats = Vec::new();
        let mut encodings = vec![Encoding::RLE, encoding];
        {
            let mut pages = SerializedPageWriter::new(&mut sink);
            if let Values::Dictionary(d) = self.values {
                let dictionary_len = d.page.len();
                let body = if self.snappy {
                    snap::raw::Encoder::new()
                        .compress_vec(&d.page)
                        .map_err(|e| ParquetError::External(Box::new(e)))?
                } else {
                    d.page
                };
                let spec = pages.write_page(CompressedPage::new(
                    Page::DictionaryPage {
                        buf: Bytes::from(body),
                        num_values: d.entries as u32,
                        encoding: Encoding::PLAIN,
                        is_sorted: false,
                    },
                    dictionary_len,
                ))?;
                uncompressed += spec.uncompressed_size;
                encodings.push(Encoding::PLAIN);
                stats.push(PageEncodingStats {
                    page_type: PageType::DICTIONARY_PAGE,
                    encoding: Encoding::PLAIN,
                    count: 1,
                });
            }
            for page in self.pages {
                let spec = pages.write_page(page)?;
                uncompressed += spec.uncompressed_size;
                num_values += spec.num_values as i64;
                data_offset.get_or_insert(spec.offset);
            }
            pages.close()?;
        }
        let dictionary_offset = (!stats.is_empty()).then_some(0);
        let bytes = sink.into_inner()?;
        let total = bytes.len() as i64;
        if data_pages > 0 {
            stats.push(PageEncodingStats {
                page_type: PageType::DATA_PAGE_V2,
                encoding,
                count: data_pages,
            });
        }
        let mut metadata = ColumnChunkMetaData::builder(Arc::clone(&self.descr))
            .set_compression(if self.snappy {
                Compression::SNAPPY
            } else {
                Compression::UNCOMPRESSED
            })
            .set_encodings_mask(EncodingMask::new_from_encodings(encodings.iter()))
            .set_page_encoding_stats(stats)
            .set_total_compressed_size(total)
            .set_total_uncompressed_size(uncompressed as i64)
            .set_num_values(num_values)
            .set_dictionary_page_offset(dictionary_offset)
            .set_data_page_offset(data_offset.unwrap_or(0) as i64);
        if let Some(statistics) = statistics {
            metadata = metadata.set_statistics(statistics);
        }
        let close = ColumnCloseResult {
            bytes_written: total as u64,
            rows_written: self.rows,
            metadata: metadata.build()?,
            bloom_filter: None,
            column_index: None,
            offset_index: None,
        };
        row_group.append_column(&Bytes::from(bytes), close)
    }
}

impl Dictionary {
    /// The indices of the page's values (`slots` at `positions`), as the chunk's dictionary
    /// has them (a value first used added to it), after their bit width; `Err` with a key
    /// outside the batch's dictionary.
    fn encode(
        &mut self,
        slots: &[i64],
        positions: &[u32],
        out: &mut Vec<u8>,
    ) -> std::result::Result<(), i64> {
        self.indices.clear();
        if self.text {
            let Some(batch) = self.batch.take() else {
                return Err(-1);
            };
            for &p in positions {
                let at = self.intern(batch.value(p as usize).as_bytes());
                self.indices.push(at);
            }
            self.batch = Some(batch);
        } else {
            for &p in positions {
                let k = slots[p as usize];
                let at = match self.mapping.get(k as usize) {
                    Some(&at) if at != UNMAPPED => at,
                    Some(_) => self.add(k as usize),
                    None => return Err(k),
                };
                self.indices.push(at);
            }
        }
        let width = index_width(self.entries);
        out.push(width);
        hybrid(&self.indices, width, out);
        Ok(())
    }

    /// Maps key `k` of the batch onto the chunk's dictionary, adding its value if new.
    #[cold]
    fn add(&mut self, k: usize) -> u32 {
        let Some(batch) = self.batch.take() else {
            return 0;
        };
        let at = self.intern(batch.value(k).as_bytes());
        self.batch = Some(batch);
        self.mapping[k] = at;
        at
    }
}

/// The row ranges of the data pages of `rows` rows: [`PAGE_ROWS`] each, the last fewer.
fn page_ranges(rows: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    (0..rows)
        .step_by(PAGE_ROWS)
        .map(move |start| start..(start + PAGE_ROWS).min(rows))
}

/// A page's levels as numbers, and the slots of its values.
#[derive(Default)]
struct RawLevels {
    reps: Vec<u32>,
    defs: Vec<u32>,
    positions: Vec<u32>,
}

impl RawLevels {
    fn clear(&mut self) {
        self.reps.clear();
        self.defs.clear();
        self.positions.clear();
    }

    /// The levels of a page of `rows` rows in the RLE/bit-packed hybrid, for a column of
    /// `max_rep` and `max_def` (no repetition levels when `max_rep` is 0, no definition levels
    /// when `max_def` is 0: then one value a row).
    fn encode(&self, rows: usize, max_rep: i16, max_def: u32, out: &mut PageLevels) {
        out.rows = rows;
        out.reps.clear();
        out.defs.clear();
        if max_rep > 0 {
            hybrid(&self.reps, index_width(max_rep as usize + 1), &mut out.reps);
        }
        if max_def > 0 {
            hybrid(&self.defs, index_width(max_def as usize + 1), &mut out.defs);
        }
        out.count = if max_def > 0 { self.defs.len() } else { rows };
        out.positions.clone_from(&self.positions);
    }
}

/// A page's levels, encoded, and the slots of its values.
#[derive(Default)]
pub struct PageLevels {
    rows: usize,
    /// Levels: a value's, a null's, or a null or empty list's.
    count: usize,
    reps: Vec<u8>,
    defs: Vec<u8>,
    positions: Vec<u32>,
}

/// The pages' levels of a list's leaves without nulls of their own, which are the same for
/// each (by the leaf's greatest definition level: whether the leaf is optional): made by the
/// first such leaf of a batch, taken by the others; the buffers kept from batch to batch.
#[derive(Default)]
pub struct ListLevels {
    sets: Vec<LevelSet>,
}

#[derive(Default)]
struct LevelSet {
    max_def: u32,
    /// Made for this batch.
    current: bool,
    raw: RawLevels,
    pages: Vec<PageLevels>,
}

impl ListLevels {
    /// Forgets the last batch's levels (keeping their buffers).
    pub fn next_batch(&mut self) {
        for set in &mut self.sets {
            set.current = false;
        }
    }

    /// The levels of the pages of `rows` rows for leaves of `max_def`, walked the first time.
    fn pages(&mut self, max_def: u32, walk: &ListWalk, rows: usize) -> &[PageLevels] {
        let at = match self.sets.iter().position(|s| s.max_def == max_def) {
            Some(at) => at,
            None => {
                self.sets.push(LevelSet {
                    max_def,
                    ..LevelSet::default()
                });
                self.sets.len() - 1
            }
        };
        let set = &mut self.sets[at];
        if !set.current {
            set.pages
                .resize_with(rows.div_ceil(PAGE_ROWS), PageLevels::default);
            for (range, page) in page_ranges(rows).zip(&mut set.pages) {
                set.raw.clear();
                walk.levels(range.clone(), &mut set.raw);
                set.raw.encode(range.len(), 1, max_def, page);
            }
            set.current = true;
        }
        &set.pages
    }
}

/// How a list's leaf's levels come from the list: its offsets, the validity of the lists,
/// their entries and the leaf's values, and the definition levels each means.
struct ListWalk<'a> {
    offsets: &'a [i32],
    list_nulls: Option<&'a NullBuffer>,
    entry_nulls: Option<&'a NullBuffer>,
    leaf_nulls: Option<&'a NullBuffer>,
    /// Definition levels: the list there (if it is optional), an entry there, the entry's
    /// struct there (if optional), the value there (if optional).
    list_there: u32,
    entry_there: u32,
    struct_there: u32,
    max_def: u32,
}

impl ListWalk<'_> {
    /// The levels and value slots of `rows`: a null list one level 0, an empty list one
    /// level, each entry a level (repetition 0 at a row's first entry, 1 after).
    fn levels(&self, rows: std::ops::Range<usize>, raw: &mut RawLevels) {
        let (first, last) = (
            self.offsets[rows.start] as usize,
            self.offsets[rows.end] as usize,
        );
        // At most a level per entry and per row.
        raw.reps.reserve(last - first + rows.len());
        raw.defs.reserve(last - first + rows.len());
        if self.list_nulls.is_none() && self.entry_nulls.is_none() && self.leaf_nulls.is_none() {
            // Every entry a value.
            for row in rows {
                let entries = (self.offsets[row + 1] - self.offsets[row]) as usize;
                raw.reps.push(0);
                if entries == 0 {
                    raw.defs.push(self.list_there);
                } else {
                    raw.reps.extend(std::iter::repeat_n(1, entries - 1));
                    raw.defs.extend(std::iter::repeat_n(self.max_def, entries));
                }
            }
            raw.positions.extend(first as u32..last as u32);
            return;
        }
        for row in rows {
            if self.list_nulls.is_some_and(|n| n.is_null(row)) {
                raw.reps.push(0);
                raw.defs.push(0);
                continue;
            }
            let (from, to) = (self.offsets[row] as usize, self.offsets[row + 1] as usize);
            if from == to {
                raw.reps.push(0);
                raw.defs.push(self.list_there);
                continue;
            }
            raw.reps.push(0);
            raw.reps.resize(raw.reps.len() + (to - from - 1), 1);
            if self.entry_nulls.is_none() && self.leaf_nulls.is_none() {
                raw.defs.resize(raw.defs.len() + (to - from), self.max_def);
                raw.positions.extend(from as u32..to as u32);
                continue;
            }
            for entry in from..to {
                if self.entry_nulls.is_some_and(|n| n.is_null(entry)) {
                    raw.defs.push(self.entry_there);
                } else if self.leaf_nulls.is_some_and(|n| n.is_null(entry)) {
                    raw.defs.push(self.struct_there);
                } else {
                    raw.defs.push(self.max_def);
                    raw.positions.push(entry as u32);
                }
            }
        }
    }
}

impl Dictionary {
    /// `value`'s index in the chunk's dictionary, added if new.
    #[inline]
    fn intern(&mut self, value: &[u8]) -> u32 {
        if let Some(&at) = self.index.get(value) {
            return at;
        }
        let at = self.entries as u32;
        self.page
            .extend_from_slice(&(value.len() as u32).to_le_bytes());
        self.page.extend_from_slice(value);
        self.entries += 1;
        self.index.insert(value.into(), at);
        at
    }
}

/// Appends the values of `leaf` (an Arrow array of `T`) to `out`, each made `i64` by `wide`
/// and, for an `INT32` column, cut to 32 bits (sign-extended) as arrow-rs stores them; false
/// if `leaf` is not of `T`.
fn integers<T: ArrowPrimitiveType>(
    leaf: &ArrayRef,
    int32: bool,
    out: &mut Vec<i64>,
    wide: impl Fn(T::Native) -> i64,
) -> bool {
    let Some(array) = leaf.as_primitive_opt::<T>() else {
        return false;
    };
    let values = array.values().iter();
    if int32 {
        out.extend(values.map(|&v| i64::from(wide(v) as i32)));
    } else {
        out.extend(values.map(|&v| wide(v)));
    }
    true
}

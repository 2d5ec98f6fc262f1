//! A Parquet column chunk writer of our own for Arrow `Dictionary(Int32, Utf8)` leaves (the
//! `_flow` column, enums of a message's root block and of groups' entries): the Arrow
//! dictionary's keys are written as the Parquet dictionary indices, instead of arrow-rs
//! interning every value again into a page dictionary of its own (about 140 instructions a
//! value; docs/benchmarks.md, "Columnar output").
//!
//! The chunk is a `PLAIN` dictionary page (the values of every batch's dictionary, each once, in
//! the order first seen) and one format 2 data page (`DataPageV2`) per batch of up to
//! [`PAGE_ROWS`] rows: repetition levels (inside a list), definition levels (when nullable)
//! and the indices (`RLE_DICTIONARY`), all in the RLE/bit-packed hybrid ([`hybrid`]). No
//! statistics (what `files::properties` asks of enums). The builders' dictionaries only grow
//! from batch to batch, so a batch's keys index the chunk's dictionary as they are; when they
//! do not (a batch's dictionary is not an extension of what the chunk holds), the mapping of
//! the batch's dictionary onto the chunk's puts them right.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{Array, ArrayRef, GenericListArray, Int32Array};
use arrow_buffer::NullBuffer;
use bytes::Bytes;
use parquet::basic::{Compression, Encoding, EncodingMask, PageType};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::{ColumnChunkMetaData, PageEncodingStats};
use parquet::file::writer::{SerializedPageWriter, SerializedRowGroupWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

/// The most rows in a data page (arrow-rs's default page row limit).
pub const PAGE_ROWS: usize = 20_000;

/// The most values in one bit-packed run of [`hybrid`]: 63 groups of 8, so that the run's
/// header is one byte (as other writers do; some readers expect no more).
const MAX_PACKED: usize = 63 * 8;

/// Appends `values` (each below `1 << bit_width`) to `out` in Parquet's RLE/bit-packed hybrid
/// encoding, without a length prefix: runs of 8 or more equal values as RLE runs (a varint
/// header `count << 1`, then the value in `ceil(bit_width / 8)` bytes, little-endian), the rest
/// bit-packed in groups of 8 (a varint header `groups << 1 | 1`, then the values' bits, least
/// significant first). Only the last bit-packed run may be padded (with zeros): readers stop at
/// the page's count of values.
pub fn hybrid(values: &[u32], bit_width: u8, out: &mut Vec<u8>) {
    let mut literal_start = 0;
    let mut i = 0;
    while i < values.len() {
        let value = values[i];
        let run = values[i..].iter().take_while(|&&v| v == value).count();
        // A bit-packed run ends only on a group of 8: the run lends it values to fill it.
        let pad = (8 - (i - literal_start) % 8) % 8;
        if run >= pad + 8 {
            packed(&values[literal_start..i + pad], bit_width, out);
            rle(value, run - pad, bit_width, out);
            literal_start = i + run;
        }
        i += run;
    }
    packed(&values[literal_start..], bit_width, out);
}

/// One RLE run of `count` times `value`.
fn rle(value: u32, count: usize, bit_width: u8, out: &mut Vec<u8>) {
    varint((count as u64) << 1, out);
    let bytes = usize::from(bit_width).div_ceil(8);
    out.extend_from_slice(&value.to_le_bytes()[..bytes]);
}

/// `values` bit-packed, in runs of at most [`MAX_PACKED`] values, the last group padded.
fn packed(values: &[u32], bit_width: u8, out: &mut Vec<u8>) {
    for run in values.chunks(MAX_PACKED) {
        let groups = run.len().div_ceil(8);
        varint(((groups as u64) << 1) | 1, out);
        let mut acc: u64 = 0;
        let mut bits = 0u32;
        for &v in run {
            acc |= u64::from(v) << bits;
            bits += u32::from(bit_width);
            while bits >= 8 {
                out.push(acc as u8);
                acc >>= 8;
                bits -= 8;
            }
        }
        // The padding values (zeros) of the last group.
        let total_bits = groups * 8 * usize::from(bit_width);
        let written_bits = run.len() * usize::from(bit_width);
        let mut missing = total_bits - written_bits + bits as usize;
        while missing >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            missing -= 8;
        }
    }
}

/// An unsigned LEB128 varint (Parquet's ULEB128).
fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The bits an index below `len` takes (at least 1).
fn index_width(len: usize) -> u8 {
    (usize::BITS - len.saturating_sub(1).leading_zeros()).max(1) as u8
}

/// A dictionary column's chunk in one row group, being filled batch by batch.
pub struct DictChunk {
    descr: ColumnDescPtr,
    snappy: bool,
    /// The dictionary page's body so far (`PLAIN`: each value's length, `u32` little-endian,
    /// then its bytes) and its values' count.
    dictionary: Vec<u8>,
    entries: usize,
    /// Each value of `dictionary`'s index, to map batches whose dictionary differs.
    index: HashMap<Box<[u8]>, u32>,
    /// The data pages so far.
    pages: Vec<CompressedPage>,
    /// Bytes of the pages so far (for the row group's size limit).
    bytes: usize,
    rows: u64,
    /// Scratch: a batch's indices, definition levels, a page's buffers.
    indices: Vec<u32>,
    levels: Vec<u32>,
    reps: Vec<u32>,
    mapping: Vec<u32>,
}

impl DictChunk {
    /// A chunk of column `descr` (one leaf, no repetition, at most one definition level),
    /// Snappy-compressed or not.
    pub fn new(descr: ColumnDescPtr, compression: Compression) -> Result<DictChunk> {
        let snappy = match compression {
            Compression::SNAPPY => true,
            Compression::UNCOMPRESSED => false,
            other => {
                return Err(ParquetError::NYI(format!(
                    "dictionary columns compressed with {other}"
                )));
            }
        };
        if descr.max_rep_level() > 1 || descr.max_def_level() > 3 {
            return Err(ParquetError::General(format!(
                "column {} is nested deeper than a list of structs",
                descr.path()
            )));
        }
        Ok(DictChunk {
            descr,
            snappy,
            dictionary: Vec::new(),
            entries: 0,
            index: HashMap::new(),
            pages: Vec::new(),
            bytes: 0,
            rows: 0,
            indices: Vec::new(),
            levels: Vec::new(),
            reps: Vec::new(),
            mapping: Vec::new(),
        })
    }

    /// What the chunk's pages take so far (the row group's size limit counts it).
    pub fn estimated_bytes(&self) -> usize {
        self.bytes + self.dictionary.len()
    }

    /// Maps `array`'s dictionary (a `Dictionary(Int32, Utf8)` array) onto the chunk's, adding
    /// what is new; returns its keys.
    fn map_dictionary<'a>(&mut self, array: &'a ArrayRef) -> Result<&'a Int32Array> {
        let Some(dict) = array.as_dictionary_opt::<Int32Type>() else {
            return Err(ParquetError::General(format!(
                "column {}: {} is not a dictionary of Int32 keys",
                self.descr.path(),
                array.data_type()
            )));
        };
        let Some(values) = dict.values().as_string_opt::<i32>() else {
            return Err(ParquetError::General(format!(
                "column {}: dictionary values {} are not Utf8",
                self.descr.path(),
                dict.values().data_type()
            )));
        };
        if values.null_count() > 0 {
            return Err(ParquetError::General(format!(
                "column {}: null dictionary values",
                self.descr.path()
            )));
        }
        // Map the batch's dictionary onto the chunk's, adding what is new.
        self.mapping.clear();
        for value in values.iter() {
            let value = value.unwrap_or_default().as_bytes();
            let at = match self.index.get(value) {
                Some(&at) => at,
                None => {
                    let at = self.entries as u32;
                    self.dictionary
                        .extend_from_slice(&(value.len() as u32).to_le_bytes());
                    self.dictionary.extend_from_slice(value);
                    self.entries += 1;
                    self.index.insert(value.into(), at);
                    at
                }
            };
            self.mapping.push(at);
        }
        Ok(dict.keys())
    }

    /// Appends `array`, a `Dictionary(Int32, Utf8)` array, as data pages of up to
    /// [`PAGE_ROWS`] rows.
    pub fn write(&mut self, array: &ArrayRef) -> Result<()> {
        let keys = self.map_dictionary(array)?;
        let nulls = keys.nulls().filter(|n| n.null_count() > 0);
        if nulls.is_some() && self.descr.max_def_level() == 0 {
            return Err(self.not_nullable());
        }
        let max_def = self.descr.max_def_level();
        self.in_pages(array.len(), |chunk, range| {
            match nulls {
                Some(nulls) => {
                    for i in range {
                        let valid = nulls.is_valid(i);
                        chunk.levels.push(u32::from(valid));
                        if valid {
                            chunk.indices.push(chunk.key(keys.value(i))?);
                        }
                    }
                }
                None => {
                    if max_def > 0 {
                        chunk.levels.resize(range.len(), 1);
                    }
                    for &k in &keys.values()[range] {
                        let index = chunk.key(k)?;
                        chunk.indices.push(index);
                    }
                }
            }
            Ok(())
        })
    }

    /// Appends the dictionary leaf `leaf` of the entries of `list` (directly its values, or a
    /// field of its struct values whose validity is `entry_nulls`), as data pages of up to
    /// [`PAGE_ROWS`] rows. `list_nullable` and `entry_nullable` say which of the list and its
    /// entries are optional in the Parquet schema (their definition levels).
    pub fn write_in_list(
        &mut self,
        list: &GenericListArray<i32>,
        list_nullable: bool,
        entry_nulls: Option<&NullBuffer>,
        entry_nullable: bool,
        leaf: &ArrayRef,
    ) -> Result<()> {
        let keys = self.map_dictionary(leaf)?;
        // Definition levels: the list there (if it is optional), an entry there, the entry's
        // struct there (if optional), the value there (if optional).
        let list_there = u32::from(list_nullable);
        let entry_there = list_there + 1;
        let struct_there = entry_there + u32::from(entry_nullable);
        let max_def = self.descr.max_def_level() as u32;
        if self.descr.max_rep_level() != 1 || max_def < struct_there {
            return Err(ParquetError::General(format!(
                "column {}: levels {}/{} do not fit a list of dictionary values",
                self.descr.path(),
                self.descr.max_rep_level(),
                max_def
            )));
        }
        let leaf_nullable = max_def > struct_there;
        let offsets = list.value_offsets();
        let list_nulls = list.nulls();
        let key_nulls = keys.nulls();
        if key_nulls.is_some_and(|n| n.null_count() > 0) && !leaf_nullable {
            return Err(self.not_nullable());
        }
        self.in_pages(list.len(), |chunk, range| {
            for row in range {
                if list_nulls.is_some_and(|n| n.is_null(row)) {
                    chunk.reps.push(0);
                    chunk.levels.push(0);
                    continue;
                }
                let (from, to) = (offsets[row] as usize, offsets[row + 1] as usize);
                if from == to {
                    chunk.reps.push(0);
                    chunk.levels.push(list_there);
                    continue;
                }
                for entry in from..to {
                    chunk.reps.push(u32::from(entry != from));
                    if entry_nulls.is_some_and(|n| n.is_null(entry)) {
                        chunk.levels.push(entry_there);
                    } else if key_nulls.is_some_and(|n| n.is_null(entry)) {
                        chunk.levels.push(struct_there);
                    } else {
                        chunk.levels.push(max_def);
                        let index = chunk.key(keys.value(entry))?;
                        chunk.indices.push(index);
                    }
                }
            }
            Ok(())
        })
    }

    /// Appends `rows` rows as data pages of up to [`PAGE_ROWS`] rows each: `fill` puts a
    /// range of rows' indices and levels into the (cleared) scratch vectors, then they become
    /// a page.
    fn in_pages(
        &mut self,
        rows: usize,
        mut fill: impl FnMut(&mut Self, std::ops::Range<usize>) -> Result<()>,
    ) -> Result<()> {
        let mut start = 0;
        while start < rows {
            let end = (start + PAGE_ROWS).min(rows);
            self.indices.clear();
            self.levels.clear();
            self.reps.clear();
            fill(self, start..end)?;
            self.page(end - start)?;
            start = end;
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

    /// The chunk's index of a batch's key `k`.
    #[inline]
    fn key(&self, k: i32) -> Result<u32> {
        match self.mapping.get(k as usize) {
            Some(&at) => Ok(at),
            None => Err(ParquetError::General(format!(
                "column {}: key {k} outside its dictionary",
                self.descr.path()
            ))),
        }
    }

    /// A data page of `rows` rows from the scratch indices and levels (repetition levels when
    /// the column is in a list: then a row has as many levels as entries, or one if none).
    fn page(&mut self, rows: usize) -> Result<()> {
        let mut buf = Vec::new();
        let max_rep = self.descr.max_rep_level();
        if max_rep > 0 {
            hybrid(&self.reps, index_width(max_rep as usize + 1), &mut buf);
        }
        let reps_len = buf.len();
        let max_def = self.descr.max_def_level();
        if max_def > 0 {
            hybrid(&self.levels, index_width(max_def as usize + 1), &mut buf);
        }
        let levels = if max_def > 0 { self.levels.len() } else { rows };
        let levels_len = buf.len();
        let width = index_width(self.entries);
        let mut values = vec![width];
        hybrid(&self.indices, width, &mut values);
        let uncompressed = levels_len + values.len();
        let is_compressed = self.snappy && {
            let mut compressed = vec![0; snap::raw::max_compress_len(values.len())];
            let n = snap::raw::Encoder::new()
                .compress(&values, &mut compressed)
                .map_err(|e| ParquetError::External(Box::new(e)))?;
            // As arrow-rs: kept only if it saves something.
            let smaller = n < values.len();
            if smaller {
                buf.extend_from_slice(&compressed[..n]);
            }
            smaller
        };
        if !is_compressed {
            buf.extend_from_slice(&values);
        }
        let num_nulls = (levels - self.indices.len()) as u32;
        self.bytes += buf.len();
        self.pages.push(CompressedPage::new(
            Page::DataPageV2 {
                buf: Bytes::from(buf),
                num_values: levels as u32,
                encoding: Encoding::RLE_DICTIONARY,
                num_nulls,
                num_rows: rows as u32,
                def_levels_byte_len: (levels_len - reps_len) as u32,
                rep_levels_byte_len: reps_len as u32,
                is_compressed,
                statistics: None,
            },
            uncompressed,
        ));
        Ok(())
    }

    /// Writes the chunk (dictionary page first, then the data pages) into the row group.
    pub fn append_to_row_group<W: std::io::Write + Send>(
        self,
        row_group: &mut SerializedRowGroupWriter<'_, W>,
    ) -> Result<()> {
        let mut sink = TrackedWrite::new(Vec::new());
        let mut uncompressed = 0;
        let mut num_values = 0;
        let mut data_offset = None;
        let data_pages = self.pages.len() as i32;
        {
            let mut pages = SerializedPageWriter::new(&mut sink);
            let dictionary_len = self.dictionary.len();
            let body = if self.snappy {
                snap::raw::Encoder::new()
                    .compress_vec(&self.dictionary)
                    .map_err(|e| ParquetError::External(Box::new(e)))?
            } else {
                self.dictionary
            };
            let spec = pages.write_page(CompressedPage::new(
                Page::DictionaryPage {
                    buf: Bytes::from(body),
                    num_values: self.entries as u32,
                    encoding: Encoding::PLAIN,
                    is_sorted: false,
                },
                dictionary_len,
            ))?;
            uncompressed += spec.uncompressed_size;
            for page in self.pages {
                let spec = pages.write_page(page)?;
                uncompressed += spec.uncompressed_size;
                num_values += spec.num_values as i64;
                data_offset.get_or_insert(spec.offset);
            }
            pages.close()?;
        }
        let bytes = sink.into_inner()?;
        let total = bytes.len() as i64;
        let encodings = [Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY];
        let mut stats = vec![PageEncodingStats {
            page_type: PageType::DICTIONARY_PAGE,
            encoding: Encoding::PLAIN,
            count: 1,
        }];
        if data_pages > 0 {
            stats.push(PageEncodingStats {
                page_type: PageType::DATA_PAGE_V2,
                encoding: Encoding::RLE_DICTIONARY,
                count: data_pages,
            });
        }
        let metadata = ColumnChunkMetaData::builder(Arc::clone(&self.descr))
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
            .set_dictionary_page_offset(Some(0))
            .set_data_page_offset(data_offset.unwrap_or(0) as i64)
            .build()?;
        let close = ColumnCloseResult {
            bytes_written: total as u64,
            rows_written: self.rows,
            metadata,
            bloom_filter: None,
            column_index: None,
            offset_index: None,
        };
        row_group.append_column(&Bytes::from(bytes), close)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(values: &[u32], bit_width: u8) -> Vec<u8> {
        let mut out = Vec::new();
        hybrid(values, bit_width, &mut out);
        out
    }

    #[test]
    fn a_long_run_is_one_rle_run() {
        // Header 10 << 1 = 0x14, then the value in one byte.
        assert_eq!(encoded(&[1; 10], 1), [0x14, 0x01]);
        // Widths past 8 bits take two bytes of value.
        assert_eq!(encoded(&[0x0123; 8], 9), [0x10, 0x23, 0x01]);
    }

    #[test]
    fn distinct_values_are_bit_packed() {
        // The Parquet format's own example: 0 to 7 in 3 bits.
        assert_eq!(
            encoded(&[0, 1, 2, 3, 4, 5, 6, 7], 3),
            [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010]
        );
    }

    #[test]
    fn a_run_then_a_padded_tail() {
        // Nine 1s as a run, then 2 and 3 bit-packed in 2 bits, padded to a group of 8.
        assert_eq!(
            encoded(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3], 2),
            [0x12, 0x01, 0x03, 0x0E, 0x00]
        );
    }

    #[test]
    fn a_run_lends_values_to_fill_the_group_before_it() {
        // 0, 1, 2 and five of the sixteen 5s fill a group of 8; the eleven other 5s are a run.
        let mut values = vec![0, 1, 2];
        values.extend([5; 16]);
        assert_eq!(encoded(&values, 3), [0x03, 0x88, 0xDA, 0xB6, 0x16, 0x05]);
    }

    #[test]
    fn a_short_run_after_values_stays_packed() {
        // 3 values, then 12 of 1: filling the group takes 5, leaving 7 (< 8) for a run, so all
        // 15 are packed in 2 groups of 1 bit: 0,1,0 then twelve 1s then a zero of padding.
        let mut values = vec![0, 1, 0];
        values.extend([1; 12]);
        assert_eq!(encoded(&values, 1), [0x05, 0b1111_1010, 0b0111_1111]);
    }

    #[test]
    fn long_literals_split_at_63_groups() {
        let values: Vec<u32> = (0..(MAX_PACKED as u32 + 8)).map(|i| i % 2).collect();
        let out = encoded(&values, 1);
        // 63 groups (header 0x7F, 63 bytes), then 1 group (header 0x03, 1 byte).
        assert_eq!(out.len(), 1 + 63 + 1 + 1);
        assert_eq!(out[0], 0x7F);
        assert_eq!(out[64], 0x03);
        assert!(out[1..64]
            .iter()
            .chain(&out[65..])
            .all(|&b| b == 0b1010_1010));
    }

    #[test]
    fn index_widths() {
        assert_eq!(index_width(0), 1);
        assert_eq!(index_width(1), 1);
        assert_eq!(index_width(2), 1);
        assert_eq!(index_width(3), 2);
        assert_eq!(index_width(256), 8);
        assert_eq!(index_width(257), 9);
    }
}

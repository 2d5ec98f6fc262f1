//! Tables to files in a directory, one per message template: Arrow IPC files (`NAME.arrow`) or
//! Parquet files (`NAME.parquet`, Snappy-compressed but for plain integers), each created when
//! its first batch comes and written batch by batch.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_ipc::writer::{DictionaryHandling, FileWriter, IpcWriteOptions};
use arrow_schema::DataType;
use parquet::arrow::ArrowSchemaConverter;
use parquet::basic::{Compression, Type as PhysicalType};
use parquet::file::properties::{
    DeltaBinaryPackedEncoderOptions, EnabledStatistics, WriterProperties, WriterVersion,
};

use crate::parquet_delta;
use crate::parquet_file::ParquetFile;
use crate::TableInfo;

/// The file format of a [`DirWriter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Arrow IPC files (the "Feather v2" file format), uncompressed.
    Arrow,
    /// Parquet files, Snappy-compressed but for plain integers.
    Parquet,
}

impl Format {
    /// The files' extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Arrow => "arrow",
            Format::Parquet => "parquet",
        }
    }
}

/// The most rows in a Parquet row group.
pub const ROW_GROUP_ROWS: usize = 1 << 20;
/// A Parquet row group is closed once its encoded size reaches this (what a writer holds in
/// memory per table).
pub const ROW_GROUP_BYTES: usize = 32 << 20;

enum Writer {
    Ipc(FileWriter<BufWriter<File>>),
    Parquet(ParquetFile<BufWriter<File>>),
}

/// The Parquet writer's settings for `table`: format 2 data pages (`DataPageV2`), row
/// groups of at most [`ROW_GROUP_ROWS`] rows and [`ROW_GROUP_BYTES`] bytes; dictionary
/// encoding for text columns (enums, sets, strings, whose values repeat) and
/// `DELTA_BINARY_PACKED` (blocks as [`delta_blocks`] says) for integers (times, ids and
/// sequence numbers rarely repeat, so a dictionary costs more than it saves, while their
/// differences are small);
/// min/max statistics per column chunk for the columns outside groups that are not enums (what
/// query engines skip row groups by: times, sequence numbers, ids), none for enums and the
/// columns of groups' entries; Snappy for all but plain integers, whose bit-packed differences
/// it finds nothing in (timestamps and decimals keep it: prices that are multiples of a tick
/// leave it repeats to find).
pub fn properties(table: &TableInfo) -> WriterProperties {
    let mut props = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_max_row_group_bytes(Some(ROW_GROUP_BYTES))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_delta_binary_packed_encoder_options(delta_blocks());
    let Ok(descr) = ArrowSchemaConverter::new().convert(&table.schema) else {
        return props.build();
    };
    let mut leaves = Vec::new();
    for f in table.schema.fields() {
        arrow_leaves(f.data_type(), false, &mut leaves);
    }
    if leaves.len() != descr.num_columns() {
        return props.build();
    }
    for (c, leaf) in descr.columns().iter().zip(leaves) {
        let path = c.path().clone();
        if c.physical_type() != PhysicalType::BYTE_ARRAY {
            props = props.set_column_dictionary_enabled(path.clone(), false);
        }
        if leaf.integer {
            props = props.set_column_compression(path.clone(), Compression::UNCOMPRESSED);
        }
        if leaf.enumerated || leaf.in_list || c.max_rep_level() > 0 {
            props = props.set_column_statistics_enabled(path, EnabledStatistics::None);
        }
    }
    props.build()
}

/// `DELTA_BINARY_PACKED` in blocks of 1,024 values in 8 mini blocks of 128 (arrow-rs's default
/// is 128 in 4 of 32): fewer block headers and bit widths to work out. (The chunk writer of our
/// own, `parquet_chunk`, writes most integer columns in the same layout.) On the benchmark's
/// capture, 200 fewer instructions a message and files 1.8 % smaller (docs/benchmarks.md,
/// "Columnar output").
fn delta_blocks() -> DeltaBinaryPackedEncoderOptions {
    DeltaBinaryPackedEncoderOptions::try_new(parquet_delta::BLOCK, parquet_delta::MINI_BLOCKS)
        .expect("a multiple of 128 in mini blocks of 128")
}

/// What [`properties`] goes by in a Parquet leaf column.
struct Leaf {
    /// An enum (an Arrow dictionary).
    enumerated: bool,
    /// Inside a list (a group's entries, a set's items).
    in_list: bool,
    /// A plain integer: not a timestamp, date or decimal.
    integer: bool,
}

/// Each Parquet leaf column of an Arrow column of `data_type`, in order.
fn arrow_leaves(data_type: &DataType, in_list: bool, out: &mut Vec<Leaf>) {
    match data_type {
        DataType::Struct(fields) => {
            for f in fields {
                arrow_leaves(f.data_type(), in_list, out);
            }
        }
        DataType::List(item) | DataType::LargeList(item) | DataType::FixedSizeList(item, _) => {
            arrow_leaves(item.data_type(), true, out)
        }
        _ => out.push(Leaf {
            enumerated: matches!(data_type, DataType::Dictionary(..)),
            in_list,
            integer: data_type.is_integer(),
        }),
    }
}

/// One file per table in a directory.
pub struct DirWriter {
    dir: PathBuf,
    format: Format,
    /// By table index.
    writers: Vec<Option<(PathBuf, Writer)>>,
}

/// A file written: its path and rows.
#[derive(Debug, Clone)]
pub struct Written {
    pub path: PathBuf,
    pub rows: u64,
}

impl DirWriter {
    /// Writes into `dir`, created if missing.
    pub fn new(dir: &Path, format: Format) -> Result<DirWriter, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(DirWriter {
            dir: dir.to_owned(),
            format,
            writers: Vec::new(),
        })
    }

    /// The file of `table`.
    pub fn path_of(&self, table: &TableInfo) -> PathBuf {
        let name: String = table
            .name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.dir.join(format!("{name}.{}", self.format.extension()))
    }

    /// Writes `batch` of table `index` (described by `table`).
    pub fn write(
        &mut self,
        index: usize,
        table: &TableInfo,
        batch: &RecordBatch,
    ) -> Result<(), String> {
        if self.writers.len() <= index {
            self.writers.resize_with(index + 1, || None);
        }
        if self.writers[index].is_none() {
            let path = self.path_of(table);
            let file =
                File::create(&path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            let out = BufWriter::with_capacity(1 << 20, file);
            let writer = match self.format {
                Format::Arrow => {
                    let options = IpcWriteOptions::default()
                        .with_dictionary_handling(DictionaryHandling::Delta);
                    Writer::Ipc(
                        FileWriter::try_new_with_options(out, &table.schema, options)
                            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
                    )
                }
                Format::Parquet => Writer::Parquet(
                    ParquetFile::new(out, table.schema.clone(), properties(table))
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
                ),
            };
            self.writers[index] = Some((path, writer));
        }
        let Some((path, writer)) = self.writers[index].as_mut() else {
            unreachable!("created above")
        };
        let result = match writer {
            Writer::Ipc(w) => w.write(batch).map_err(|e| e.to_string()),
            Writer::Parquet(w) => w.write(batch).map_err(|e| e.to_string()),
        };
        result.map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Closes every file; returns them, in table order.
    pub fn finish(self) -> Result<Vec<PathBuf>, String> {
        let mut done = Vec::new();
        for (path, writer) in self.writers.into_iter().flatten() {
            let result = match writer {
                Writer::Ipc(mut w) => w.finish().map_err(|e| e.to_string()),
                Writer::Parquet(w) => w.close().map_err(|e| e.to_string()),
            };
            result.map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            done.push(path);
        }
        Ok(done)
    }
}

//! `sable._engine`: Sable's engine for Python (docs/python.md, "The engine package"). A schema
//! (SBE XML or `.sbeir`) decodes one buffer to canonical JSON's values and encodes them back,
//! iterates over the messages of a file or capture with the CLI's framings, and reads a file or
//! capture into Arrow tables, one per template, handed to pyarrow through the Arrow C stream
//! interface (no copies). The Python side (`python/sable/`) wraps it.

mod stream;

use std::ffi::CStr;
use std::path::Path;
use std::sync::Arc;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyDict};
use sable_columnar::{Columnar, Extras, Options};
use sable_framing::capture::{Capture, ErrorKind, Filter, Flow};
use sable_framing::{FrameMeta, Framing};
use sable_ir::Ir;
use sable_otf::decode::{DecodeError, Decoder};
use sable_otf::encode::Encoder;
use sable_otf::json::JsonPrinter;

/// Raises `sable.NAME(*args)` (the exception classes live in `sable/_errors.py`).
fn error<'py>(py: Python<'py>, name: &str, args: impl pyo3::call::PyCallArgs<'py>) -> PyErr {
    let made = py
        .import("sable._errors")
        .and_then(|m| m.getattr(name))
        .and_then(|class| class.call1(args));
    match made {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// The Python value of JSON text.
fn json_value<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let text = std::str::from_utf8(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.import("json")?.getattr("loads")?.call1((text,))
}

/// A decode error as `sable.DecodeError`: the CLI's words, the contract's offset, field and
/// kind, what was decoded before it (`partial`, or None), and where the message was found.
fn decode_error(
    py: Python<'_>,
    e: &DecodeError,
    partial: Option<Bound<'_, PyAny>>,
    place: Option<&str>,
) -> PyErr {
    let text = match place {
        Some(place) => format!(
            "{place}, message byte {} ({}, {}): {}",
            e.offset(),
            e.field(),
            e.kind().name(),
            e.message()
        ),
        None => format!(
            "at byte {} ({}, {}): {}",
            e.offset(),
            e.field(),
            e.kind().name(),
            e.message()
        ),
    };
    error(
        py,
        "DecodeError",
        (
            text,
            e.offset(),
            e.field().to_owned(),
            e.kind().name(),
            e.message().to_owned(),
            partial,
        ),
    )
}

/// How to read a file or buffer of messages.
#[derive(Clone)]
struct ReadOptions {
    framing: Framing,
    pcap: bool,
    filter: Filter,
    templates: Option<Vec<u64>>,
}

impl ReadOptions {
    fn new(
        framing: &str,
        pcap: bool,
        port: Option<u16>,
        templates: Option<Vec<u64>>,
    ) -> PyResult<ReadOptions> {
        let framing: Framing = framing.parse().map_err(PyValueError::new_err)?;
        Ok(ReadOptions {
            framing,
            pcap,
            filter: Filter {
                port,
                ..Filter::default()
            },
            templates,
        })
    }
}

/// Where a message was found.
#[derive(Clone, Copy)]
struct Place {
    offset: u64,
    capture: Option<(u64, u64, Flow)>,
    meta: Option<FrameMeta>,
}

impl Place {
    /// As `sable decode` names it in its reports.
    fn describe(&self) -> String {
        let mut text = String::new();
        if let Some((ts, packet_offset, flow)) = &self.capture {
            text.push_str(&format!(
                "packet at byte {packet_offset} ({}, {flow}), ",
                sable_otf::utc_timestamp_ns(*ts)
            ));
        }
        if let Some(FrameMeta::Mdp3 {
            sequence_number,
            sending_time_ns,
        }) = self.meta
        {
            text.push_str(&format!(
                "sequence number {sequence_number} sent {}, ",
                sable_otf::utc_timestamp_ns(sending_time_ns)
            ));
        }
        match self.capture {
            Some(_) => text.push_str(&format!("stream byte {}", self.offset)),
            None => text.push_str(&format!("at byte {}", self.offset)),
        }
        text
    }

    /// The keys `sable decode` writes before a message's own: `{"timestamp":...,"offset":N,`.
    fn json_keys(&self, out: &mut Vec<u8>) {
        use std::io::Write;
        out.push(b'{');
        if let Some((ts, packet_offset, flow)) = &self.capture {
            out.extend_from_slice(b"\"timestamp\":\"");
            sable_otf::write_utc_timestamp_ns(out, *ts);
            let _ = write!(
                out,
                "\",\"packetOffset\":{packet_offset},\"flow\":\"{flow}\","
            );
        }
        if let Some(FrameMeta::Mdp3 {
            sequence_number,
            sending_time_ns,
        }) = self.meta
        {
            let _ = write!(
                out,
                "\"sequenceNumber\":{sequence_number},\"sendingTime\":\""
            );
            sable_otf::write_utc_timestamp_ns(out, sending_time_ns);
            out.extend_from_slice(b"\",");
        }
        let _ = write!(out, "\"offset\":{},", self.offset);
    }
}

/// What [`scan`] hands each message to.
type OnMessage<'a, E> = dyn FnMut(&[u8], Place) -> Result<(), E> + 'a;

/// Calls `message` with each message of `data` (a file's bytes, or a capture's with `pcap`)
/// and where it was found, and `problem` with each framing or capture problem, in the CLI's
/// words. A sequence gap or repeat of MDP 3.0 is no problem (a note, left out).
fn scan<E>(
    data: &[u8],
    options: &ReadOptions,
    decoder: &Decoder,
    message: &mut OnMessage<'_, E>,
    problem: &mut dyn FnMut(String) -> Result<(), E>,
) -> Result<(), E> {
    let message_length = |bytes: &[u8]| decoder.message_length(bytes).map_err(|e| e.to_string());
    let wanted = |bytes: &[u8]| match &options.templates {
        None => true,
        Some(ids) => decoder
            .template_id_of(bytes)
            .is_some_and(|id| ids.contains(&id)),
    };
    if options.pcap {
        let capture = match Capture::parse(data) {
            Ok(c) => c,
            Err(e) => return problem(e.to_string()),
        };
        for item in capture.messages(options.filter.clone(), options.framing, message_length) {
            match item {
                Ok(m) => {
                    if wanted(&m.bytes) {
                        let place = Place {
                            offset: m.offset,
                            capture: Some((m.timestamp_ns, m.packet_offset as u64, m.flow)),
                            meta: m.meta,
                        };
                        message(&m.bytes, place)?;
                    }
                }
                Err(e) if e.kind == ErrorKind::Sequence => {}
                Err(e) => problem(e.to_string())?,
            }
        }
    } else {
        for item in options.framing.frames(data, message_length) {
            match item {
                Ok(frame) => {
                    if wanted(frame.bytes) {
                        let place = Place {
                            offset: frame.offset as u64,
                            capture: None,
                            meta: frame.meta,
                        };
                        message(frame.bytes, place)?;
                    }
                }
                Err(e) => problem(format!("at byte {}: {}", e.offset, e.message))?,
            }
        }
    }
    Ok(())
}

/// Reads the file at `path`.
fn read_file(path: &Path) -> PyResult<Vec<u8>> {
    std::fs::read(path)
        .map_err(|e| PyOSError::new_err(format!("cannot read {}: {e}", path.display())))
}

/// A message schema, compiled: decodes and encodes messages by it.
#[pyclass(module = "sable._engine")]
struct Schema {
    ir: Ir,
    printer: JsonPrinter,
    readable: JsonPrinter,
    encoder: Encoder,
}

impl Schema {
    fn of(ir: Ir) -> PyResult<Schema> {
        let cannot = |e: sable_otf::decode::Error| {
            PyValueError::new_err(format!("cannot decode with this schema: {e}"))
        };
        Ok(Schema {
            printer: JsonPrinter::new(&ir).map_err(cannot)?,
            readable: JsonPrinter::new(&ir).map_err(cannot)?.readable(true),
            encoder: Encoder::new(&ir).map_err(|e| PyValueError::new_err(e.to_string()))?,
            ir,
        })
    }
}

/// Compiles SBE XML text (`origin` names it in diagnostics and anchors XIncludes).
fn compile(py: Python<'_>, text: &str, origin: &Path) -> PyResult<Ir> {
    let compiled = sable_schema::compile_str(text, origin);
    let errors: Vec<String> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == sable_schema::Severity::Error)
        .map(|d| d.to_string())
        .collect();
    match compiled.ir {
        Some(ir) if errors.is_empty() => Ok(ir),
        _ => Err(error(
            py,
            "SchemaError",
            (
                format!(
                    "{}: the schema has errors:\n{}",
                    origin.display(),
                    errors.join("\n")
                ),
                errors,
            ),
        )),
    }
}

#[pymethods]
impl Schema {
    /// Loads a schema file: SBE XML (compiled; XIncludes resolved from its directory) or a
    /// `.sbeir` file (as `sable ir -o` writes).
    #[staticmethod]
    fn load(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Schema> {
        let bytes = read_file(&path)?;
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        let xml = body
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b'<');
        let ir = if xml {
            let text = std::str::from_utf8(body).map_err(|e| {
                error(
                    py,
                    "SchemaError",
                    (
                        format!("{}: not UTF-8 text: {e}", path.display()),
                        Vec::<String>::new(),
                    ),
                )
            })?;
            compile(py, text, &path)?
        } else {
            sable_ir::sbeir::read(&bytes).map_err(|e| {
                error(
                    py,
                    "SchemaError",
                    (
                        format!(
                            "{}: neither SBE XML nor a valid .sbeir file: {e}",
                            path.display()
                        ),
                        Vec::<String>::new(),
                    ),
                )
            })?
        };
        Schema::of(ir)
    }

    /// Compiles a schema given as SBE XML text.
    #[staticmethod]
    fn from_xml(py: Python<'_>, text: &str) -> PyResult<Schema> {
        Schema::of(compile(py, text, Path::new("<string>"))?)
    }

    /// Reads a schema from the bytes of a `.sbeir` file.
    #[staticmethod]
    fn from_sbeir(py: Python<'_>, data: &[u8]) -> PyResult<Schema> {
        let ir = sable_ir::sbeir::read(data).map_err(|e| {
            error(
                py,
                "SchemaError",
                (
                    format!("not a valid .sbeir file: {e}"),
                    Vec::<String>::new(),
                ),
            )
        })?;
        Schema::of(ir)
    }

    /// The schema's id, version and package.
    #[getter]
    fn id(&self) -> i64 {
        i64::from(self.ir.id)
    }

    #[getter]
    fn version(&self) -> i64 {
        i64::from(self.ir.version)
    }

    #[getter]
    fn package(&self) -> String {
        self.ir.package_name.clone()
    }

    /// The messages: template id to name.
    #[getter]
    fn messages(&self) -> Vec<(u64, String)> {
        self.printer
            .decoder()
            .layouts()
            .iter()
            .map(|l| (l.info.template_id(), l.info.name().to_owned()))
            .collect()
    }

    /// Decodes the message at the start of `data` to canonical JSON's values.
    #[pyo3(signature = (data, readable = false))]
    fn decode<'py>(
        &self,
        py: Python<'py>,
        data: &[u8],
        readable: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let printer = if readable {
            &self.readable
        } else {
            &self.printer
        };
        let mut out = Vec::with_capacity(data.len() * 4 + 64);
        match printer.print(data, &mut out) {
            Ok(used) if used < data.len() => Err(error(
                py,
                "DecodeError",
                (
                    format!(
                        "at byte {used}: the message takes {used} bytes of the {}-byte buffer; {} bytes are left over",
                        data.len(),
                        data.len() - used
                    ),
                    used,
                    "",
                    "trailingBytes",
                    format!("{} bytes are left over", data.len() - used),
                    json_value(py, &out).ok(),
                ),
            )),
            Ok(_) => json_value(py, &out),
            Err(e) => Err(decode_error(py, &e, json_value(py, &out).ok(), None)),
        }
    }

    /// Encodes a message given as canonical JSON's values (a dict, or JSON text).
    fn encode<'py>(
        &self,
        py: Python<'py>,
        message: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let text: String = if let Ok(s) = message.extract::<String>() {
            s
        } else if message.is_instance_of::<PyDict>() {
            py.import("json")?
                .getattr("dumps")?
                .call1((message,))?
                .extract()?
        } else {
            return Err(PyTypeError::new_err("encode takes a dict or JSON text"));
        };
        let mut out = Vec::new();
        match self.encoder.encode_json(&text, &mut out) {
            Ok(_) => Ok(PyBytes::new(py, &out)),
            Err(e) => Err(error(
                py,
                "EncodeError",
                (e.to_string(), e.path.clone(), e.kind.to_string()),
            )),
        }
    }

    /// Frames a file or capture; the messages as `sable decode` prints them, one at a time.
    #[pyo3(signature = (path, framing = "raw", pcap = false, port = None, templates = None, readable = false))]
    fn iter_messages(
        &self,
        path: std::path::PathBuf,
        framing: &str,
        pcap: bool,
        port: Option<u16>,
        templates: Option<Vec<u64>>,
        readable: bool,
    ) -> PyResult<MessageIterator> {
        let data = read_file(&path)?;
        self.iter_data(data, framing, pcap, port, templates, readable)
    }

    /// [`iter_messages`] of bytes in memory.
    #[pyo3(signature = (data, framing = "raw", pcap = false, port = None, templates = None, readable = false))]
    fn iter_buffer(
        &self,
        data: Vec<u8>,
        framing: &str,
        pcap: bool,
        port: Option<u16>,
        templates: Option<Vec<u64>>,
        readable: bool,
    ) -> PyResult<MessageIterator> {
        self.iter_data(data, framing, pcap, port, templates, readable)
    }

    /// Decodes a file or capture into one Arrow stream per template that occurs in it.
    #[pyo3(signature = (path, framing = "raw", pcap = false, port = None, templates = None, strict = true))]
    #[allow(clippy::too_many_arguments)]
    fn read_streams(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        framing: &str,
        pcap: bool,
        port: Option<u16>,
        templates: Option<Vec<u64>>,
        strict: bool,
    ) -> PyResult<(Vec<ArrowStream>, Vec<String>)> {
        let options = ReadOptions::new(framing, pcap, port, templates)?;
        let file = open(&path)?;
        self.streams(py, Box::new(file), &options, strict)
    }

    /// [`read_streams`] of bytes in memory.
    #[pyo3(signature = (data, framing = "raw", pcap = false, port = None, templates = None, strict = true))]
    #[allow(clippy::too_many_arguments)]
    fn buffer_streams(
        &self,
        py: Python<'_>,
        data: &[u8],
        framing: &str,
        pcap: bool,
        port: Option<u16>,
        templates: Option<Vec<u64>>,
        strict: bool,
    ) -> PyResult<(Vec<ArrowStream>, Vec<String>)> {
        let options = ReadOptions::new(framing, pcap, port, templates)?;
        self.streams(py, Box::new(data), &options, strict)
    }

    /// Decodes a file or capture as it reads it, in pieces: an iterator of each table's batches
    /// as they fill up (memory bounded however large the file).
    #[pyo3(signature = (path, framing = "raw", pcap = false, port = None, templates = None, strict = true))]
    #[allow(clippy::too_many_arguments)]
    fn read_batches(
        &self,
        path: std::path::PathBuf,
        framing: &str,
        pcap: bool,
        port: Option<u16>,
        templates: Option<Vec<u64>>,
        strict: bool,
    ) -> PyResult<BatchReader> {
        let options = ReadOptions::new(framing, pcap, port, templates)?;
        let file = open(&path)?;
        Ok(BatchReader {
            reading: std::sync::Mutex::new(self.reading(Box::new(file), &options, strict)?),
        })
    }
}

/// Opens a file to read.
fn open(path: &Path) -> PyResult<std::fs::File> {
    std::fs::File::open(path)
        .map_err(|e| PyOSError::new_err(format!("cannot read {}: {e}", path.display())))
}

/// The batches of a file or capture, each as its table fills up: `(name, stream)` pairs, each
/// stream of one batch.
#[pyclass(module = "sable._engine")]
struct BatchReader {
    reading: std::sync::Mutex<Box<dyn stream::Step>>,
}

#[pymethods]
impl BatchReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<(String, ArrowStream)>> {
        let reading = self
            .reading
            .get_mut()
            .map_err(|_| PyValueError::new_err("the reader is poisoned"))?;
        match py.detach(|| reading.step()) {
            Ok(Some((t, batch))) => {
                let table = &reading.tables()[t];
                Ok(Some((
                    table.name.clone(),
                    ArrowStream::new(table.name.clone(), table.schema.clone(), vec![batch]),
                )))
            }
            Ok(None) => Ok(None),
            Err(stop) => Err(stop.raise(py)),
        }
    }

    /// Problems met so far (with `strict` false: messages left out, framing problems), in the
    /// words of `sable decode`.
    #[getter]
    fn problems(&self) -> Vec<String> {
        self.reading
            .lock()
            .map(|r| r.problems().to_vec())
            .unwrap_or_default()
    }
}

/// What stopped a strict read: a message that did not decode, a framing problem, or the
/// source failing.
enum Stop {
    Decode(DecodeError, String),
    Problem(String),
    Io(String),
}

impl Stop {
    /// The Python exception.
    fn raise(self, py: Python<'_>) -> PyErr {
        match self {
            Stop::Decode(e, place) => decode_error(py, &e, None, Some(&place)),
            Stop::Problem(p) => error(
                py,
                "DecodeError",
                (p.clone(), py.None(), "", "framing", p, py.None()),
            ),
            Stop::Io(e) => PyOSError::new_err(e),
        }
    }
}

impl Schema {
    fn iter_data(
        &self,
        data: Vec<u8>,
        framing: &str,
        pcap: bool,
        port: Option<u16>,
        templates: Option<Vec<u64>>,
        readable: bool,
    ) -> PyResult<MessageIterator> {
        let options = ReadOptions::new(framing, pcap, port, templates)?;
        let decoder = self.printer.decoder();
        // Framed now (where each message is), printed one at a time as they are asked for.
        let mut found = Vec::new();
        let mut problems = Vec::new();
        let base = data.as_ptr() as usize;
        let _ = scan::<()>(
            &data,
            &options,
            decoder,
            &mut |bytes, place| {
                let at = (bytes.as_ptr() as usize).wrapping_sub(base);
                let bytes = if at <= data.len() && at + bytes.len() <= data.len() {
                    Found::Range(at, bytes.len())
                } else {
                    Found::Owned(bytes.to_vec())
                };
                found.push((bytes, place));
                Ok(())
            },
            &mut |p| {
                problems.push(p);
                Ok(())
            },
        );
        Ok(MessageIterator {
            printer: JsonPrinter::new(&self.ir)
                .map_err(|e| PyValueError::new_err(e.to_string()))?
                .readable(readable),
            data,
            found: found.into_iter(),
            problems,
        })
    }

    /// The tables of a source read in pieces (see [`stream`]), made and checked here.
    fn reading<'s>(
        &self,
        source: Box<dyn std::io::Read + Send + 's>,
        options: &ReadOptions,
        strict: bool,
    ) -> PyResult<Box<dyn stream::Step + 's>> {
        let extras = Extras {
            capture: options.pcap,
            mdp3: options.framing == Framing::Mdp3,
        };
        let columnar = Columnar::new(&self.ir, extras, Options::default())
            .map_err(|e| PyValueError::new_err(e.0))?;
        let decoder = Decoder::new(&self.ir)
            .map_err(|e| PyValueError::new_err(format!("cannot decode with this schema: {e}")))?;
        Ok(Box::new(stream::Reading::new(
            source,
            options,
            columnar,
            stream::sizer(Arc::new(decoder)),
            strict,
        )))
    }

    /// Every batch of a source, by table (in schema order, tables without rows left out).
    fn streams(
        &self,
        py: Python<'_>,
        source: Box<dyn std::io::Read + Send + '_>,
        options: &ReadOptions,
        strict: bool,
    ) -> PyResult<(Vec<ArrowStream>, Vec<String>)> {
        let mut reading = self.reading(source, options, strict)?;
        let result = py.detach(|| {
            let mut batches: Vec<Vec<RecordBatch>> = vec![Vec::new(); reading.tables().len()];
            while let Some((t, b)) = reading.step()? {
                batches[t].push(b);
            }
            Ok::<_, Stop>(batches)
        });
        let batches = result.map_err(|stop| stop.raise(py))?;
        let streams = reading
            .tables()
            .iter()
            .zip(batches)
            .filter(|(_, b)| !b.is_empty())
            .map(|(t, b)| ArrowStream::new(t.name.clone(), t.schema.clone(), b))
            .collect();
        Ok((streams, reading.problems().to_vec()))
    }
}

enum Found {
    Range(usize, usize),
    Owned(Vec<u8>),
}

/// The messages of a file or capture, as `sable decode` prints them (dicts of canonical JSON's
/// values, with the keys saying where each was found; a message that fails to decode has an
/// `error` key, as in the CLI's JSON).
#[pyclass(module = "sable._engine")]
struct MessageIterator {
    printer: JsonPrinter,
    data: Vec<u8>,
    found: std::vec::IntoIter<(Found, Place)>,
    /// Framing and capture problems, in the CLI's words.
    problems: Vec<String>,
}

#[pymethods]
impl MessageIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some((found, place)) = self.found.next() else {
            return Ok(None);
        };
        let bytes = match &found {
            Found::Range(at, len) => &self.data[*at..*at + *len],
            Found::Owned(b) => b.as_slice(),
        };
        let mut out = Vec::with_capacity(256);
        place.json_keys(&mut out);
        let mut message = Vec::with_capacity(bytes.len() * 4);
        let _ = self.printer.print(bytes, &mut message);
        out.extend_from_slice(message.get(1..).unwrap_or_default());
        json_value(py, &out).map(Some)
    }

    /// Problems met while framing (a truncated frame, a capture record cut short...), in the
    /// words of `sable decode`.
    #[getter]
    fn problems(&self) -> Vec<String> {
        self.problems.clone()
    }
}

/// One table's record batches, for pyarrow through the Arrow C stream interface
/// (`pyarrow.RecordBatchReader.from_stream(stream)`, `pyarrow.table(stream)`): the buffers are
/// handed over, not copied.
#[pyclass(module = "sable._engine")]
struct ArrowStream {
    #[pyo3(get)]
    name: String,
    stream: std::sync::Mutex<Option<FFI_ArrowArrayStream>>,
}

const STREAM_NAME: &CStr = c"arrow_array_stream";

impl ArrowStream {
    fn new(
        name: String,
        schema: arrow_schema::SchemaRef,
        batches: Vec<RecordBatch>,
    ) -> ArrowStream {
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
        ArrowStream {
            name,
            stream: std::sync::Mutex::new(Some(FFI_ArrowArrayStream::new(Box::new(reader)))),
        }
    }
}

#[pymethods]
impl ArrowStream {
    /// The Arrow PyCapsule interface: the stream, once.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &mut self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let stream = self
            .stream
            .lock()
            .map_err(|_| PyValueError::new_err("the stream is poisoned"))?
            .take()
            .ok_or_else(|| PyValueError::new_err("the stream was already consumed"))?;
        PyCapsule::new_with_value(py, stream, STREAM_NAME)
    }
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Schema>()?;
    m.add_class::<MessageIterator>()?;
    m.add_class::<ArrowStream>()?;
    m.add_class::<BatchReader>()?;
    Ok(())
}

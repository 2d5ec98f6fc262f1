//! The columnar path's two halves timed apart, on one thread, over a capture held in memory:
//! decoding messages into Arrow record batches (`Columnar::push`), then writing those batches
//! to Parquet or Arrow IPC files (`files::DirWriter`). For profiling and for trying changes;
//! scripts/bench-columnar.sh times the whole `sable decode` instead.
//!
//! ```text
//! cargo run --release -p sable-columnar --example columnar_throughput -- \
//!     examples/mdp3.xml CAPTURE.pcap [FRAMING] [parquet|arrow|none] [OUT_DIR]
//! ```
//!
//! The capture's messages are framed first (untimed, `FRAMING` default `mdp3`), then decoded
//! once (timed), then the batches are written to `OUT_DIR` (default a scratch directory under
//! the system's temporary one; timed). Prints messages/s of each half.

use std::path::{Path, PathBuf};
use std::time::Instant;

use sable_columnar::files::{DirWriter, Format};
use sable_columnar::{CaptureMeta, Columnar, Extras, Mdp3Meta, Options, RowMeta};
use sable_framing::capture::{Capture, Filter};
use sable_framing::{FrameMeta, Framing};

/// Time this thread has run on a CPU so far, in seconds (Linux's schedstat; 0 elsewhere): what
/// a loaded machine does not inflate, unlike wall time.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!(
            "usage: columnar_throughput SCHEMA CAPTURE [FRAMING] [parquet|arrow|none] [OUT_DIR]"
        );
        std::process::exit(2);
    }
    let framing: Framing = args
        .get(2)
        .map_or("mdp3", String::as_str)
        .parse()
        .expect("a framing");
    let format = match args.get(3).map_or("parquet", String::as_str) {
        "parquet" => Some(Format::Parquet),
        "arrow" => Some(Format::Arrow),
        _ => None,
    };
    let out: PathBuf = args.get(4).map_or_else(
        || std::env::temp_dir().join("sable-columnar-throughput"),
        PathBuf::from,
    );
    let compiled = sable_schema::compile_file(Path::new(&args[0]));
    let Some(ir) = compiled.ir else {
        for d in &compiled.diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    };
    let data = std::fs::read(&args[1]).expect("the capture");
    let mut columnar = Columnar::new(
        &ir,
        Extras {
            capture: true,
            mdp3: framing == Framing::Mdp3,
        },
        Options::default(),
    )
    .expect("tables");
    let capture = Capture::parse(&data).expect("a capture");
    let decoder = columnar.decoder();
    let messages: Vec<_> = capture
        .messages(Filter::default(), framing, |b: &[u8]| {
            decoder.message_length(b).map_err(|e| e.to_string())
        })
        .filter_map(Result::ok)
        .collect();
    let bytes: usize = messages.iter().map(|m| m.bytes.len()).sum();
    let flow = messages
        .first()
        .map(|m| m.flow.to_string())
        .unwrap_or_default();

    let start = Instant::now();
    let cpu = cpu_seconds();
    let mut batches = Vec::new();
    for m in &messages {
        let meta = RowMeta {
            offset: m.offset,
            capture: Some(CaptureMeta {
                timestamp_ns: m.timestamp_ns,
                packet_offset: m.packet_offset as u64,
                flow: &flow,
            }),
            mdp3: match m.meta {
                Some(FrameMeta::Mdp3 {
                    sequence_number,
                    sending_time_ns,
                }) => Some(Mdp3Meta {
                    sequence_number,
                    sending_time_ns,
                }),
                _ => None,
            },
        };
        columnar
            .push(&m.bytes, &meta)
            .expect("a message that decodes");
        while let Some(b) = columnar.take_full() {
            batches.push(b);
        }
    }
    batches.extend(columnar.finish());
    let decoded = start.elapsed().as_secs_f64();
    let decoded_cpu = cpu_seconds() - cpu;
    let n = messages.len() as f64;
    println!(
        "decode to batches: {} messages ({} bytes of SBE) in {decoded:.3} s ({decoded_cpu:.3} s CPU): {:.0} msg/s ({:.0} per CPU second), {:.1} MB/s",
        messages.len(),
        bytes,
        n / decoded,
        n / decoded_cpu,
        bytes as f64 / decoded / 1e6
    );
    let Some(format) = format else { return };
    let tables = columnar.tables();
    let _ = std::fs::remove_dir_all(&out);
    let start = Instant::now();
    let cpu = cpu_seconds();
    let mut writer = DirWriter::new(&out, format).expect("the directory");
    for (t, batch) in &batches {
        writer.write(*t, &tables[*t], batch).expect("written");
    }
    writer.finish().expect("closed");
    let written = start.elapsed().as_secs_f64();
    let written_cpu = cpu_seconds() - cpu;
    println!(
        "write {format:?}: {written:.3} s ({written_cpu:.3} s CPU): {:.0} msg/s ({:.0} per CPU second); both: {:.0} msg/s ({:.0} per CPU second)",
        n / written,
        n / written_cpu,
        n / (decoded + written),
        n / (decoded_cpu + written_cpu)
    );
}

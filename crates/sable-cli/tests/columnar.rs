//! `sable decode --format arrow|parquet --output DIR`: one file per template, the per-message
//! columns of files and captures, errors, and memory bounded far below the input's size.
#![cfg(feature = "columnar")]

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use arrow_array::cast::AsArray;
use arrow_array::types::{TimestampNanosecondType, UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use common::{car_lines, car_schema, encode, sable};
use sable_framing::capture::write::{ipv4_udp, PcapWriter};

fn read_parquet(path: &Path) -> Vec<RecordBatch> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("a Parquet file")
        .build()
        .expect("reader")
        .map(|b| b.expect("batch"))
        .collect()
}

fn rows(batches: &[RecordBatch]) -> usize {
    batches.iter().map(|b| b.num_rows()).sum()
}

#[test]
fn parquet_and_arrow_files_hold_a_row_per_message_with_its_offset() {
    let dir = sable_testkit::ScratchDir::new("cli-columnar");
    let lines = car_lines();
    let input = dir.join("cars.bin");
    std::fs::write(&input, encode("raw", &lines)).unwrap();
    for format in ["parquet", "arrow"] {
        let out = dir.join(format);
        sable()
            .args(["decode", "--schema"])
            .arg(car_schema())
            .args(["--format", format, "--output"])
            .arg(&out)
            .arg(&input)
            .assert()
            .success();
        let names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, [format!("Car.{format}")]);
        let path = out.join(format!("Car.{format}"));
        let batches = match format {
            "parquet" => read_parquet(&path),
            _ => arrow_ipc::reader::FileReader::try_new(std::fs::File::open(&path).unwrap(), None)
                .unwrap()
                .map(|b| b.unwrap())
                .collect(),
        };
        assert_eq!(rows(&batches), lines.len());
        let offsets = batches[0]
            .column_by_name("_offset")
            .unwrap()
            .as_primitive::<UInt64Type>()
            .values()
            .to_vec();
        assert_eq!(offsets[0], 0);
        assert!(offsets.windows(2).all(|w| w[0] < w[1]), "{offsets:?}");
        let serial = batches[0]
            .column_by_name("serialNumber")
            .unwrap()
            .as_primitive::<UInt64Type>()
            .value(0);
        assert_eq!(serial, 1234);
    }
}

#[test]
fn the_output_directory_is_required_and_bad_messages_are_reported_and_left_out() {
    sable()
        .args(["decode", "--schema"])
        .arg(car_schema())
        .args(["--format", "parquet"])
        .write_stdin(Vec::new())
        .assert()
        .failure()
        .stderr(predicates::str::contains("--output DIR"));
    let dir = sable_testkit::ScratchDir::new("cli-columnar-bad");
    let lines = car_lines();
    let mut bytes = encode("u32le", &lines[..1]);
    let good = bytes.clone();
    // A second message cut short inside its frame: reported with its offsets, left out.
    let cut = &good[4..good.len() - 3];
    bytes.extend_from_slice(&(cut.len() as u32).to_le_bytes());
    bytes.extend_from_slice(cut);
    bytes.extend_from_slice(&good);
    let out = dir.join("out");
    let assert = sable()
        .args(["decode", "--framing", "u32le", "--schema"])
        .arg(car_schema())
        .args(["--format", "parquet", "-o"])
        .arg(&out)
        .write_stdin(bytes)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains(&format!("at byte {}, message byte", good.len() + 4)),
        "{stderr}"
    );
    assert!(stderr.contains("truncated"), "{stderr}");
    assert_eq!(rows(&read_parquet(&out.join("Car.parquet"))), 2);
}

/// A capture of `packets` UDP datagrams, each an MDP 3.0 packet (sequence number i + 1, sent at
/// i microseconds) of the Car messages; packet i captured at i milliseconds.
fn mdp3_capture(packets: u32) -> Vec<u8> {
    let body = &encode("mdp3", &car_lines())[12..];
    let mut pcap = PcapWriter::new(Vec::new()).expect("header");
    for i in 0..packets {
        let mut packet = sable_framing::mdp3_packet_header(i + 1, u64::from(i) * 1000).to_vec();
        packet.extend_from_slice(body);
        let frame = ipv4_udp(
            "10.0.0.1:5000".parse().unwrap(),
            "239.1.1.1:14310".parse().unwrap(),
            &packet,
        );
        pcap.packet(u64::from(i) * 1_000_000, &frame)
            .expect("record");
    }
    pcap.into_inner()
}

#[test]
fn a_capture_gives_each_row_its_packet_time_sequence_number_and_sending_time() {
    let dir = sable_testkit::ScratchDir::new("cli-columnar-pcap");
    let capture = dir.join("md.pcap");
    std::fs::write(&capture, mdp3_capture(3)).unwrap();
    let out = dir.join("out");
    sable()
        .args(["decode", "--pcap", "--framing", "mdp3", "--schema"])
        .arg(car_schema())
        .args(["--format", "parquet", "--output"])
        .arg(&out)
        .arg(&capture)
        .assert()
        .success();
    let batches = read_parquet(&out.join("Car.parquet"));
    let per_packet = car_lines().len();
    assert_eq!(rows(&batches), 3 * per_packet);
    let b = &batches[0];
    let schema = b.schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(
        names[..6],
        [
            "_offset",
            "_timestamp",
            "_packetOffset",
            "_flow",
            "_sequenceNumber",
            "_sendingTime"
        ]
    );
    let times = b.column_by_name("_timestamp").unwrap();
    let times = times.as_primitive::<TimestampNanosecondType>();
    let seq = b.column_by_name("_sequenceNumber").unwrap();
    let seq = seq.as_primitive::<UInt32Type>();
    let sent = b.column_by_name("_sendingTime").unwrap();
    let sent = sent.as_primitive::<TimestampNanosecondType>();
    for row in 0..b.num_rows() {
        let packet = (row / per_packet) as i64;
        assert_eq!(times.value(row), packet * 1_000_000);
        assert_eq!(i64::from(seq.value(row)), packet + 1);
        assert_eq!(sent.value(row), packet * 1000);
    }
    let flow = arrow_cast_dictionary_string(b.column_by_name("_flow").unwrap().as_ref(), 0);
    assert_eq!(flow, "udp 10.0.0.1:5000 -> 239.1.1.1:14310");
}

fn arrow_cast_dictionary_string(array: &dyn Array, row: usize) -> String {
    let d = array.as_dictionary::<arrow_array::types::Int32Type>();
    let key = d.keys().value(row) as usize;
    d.values().as_string::<i32>().value(key).to_owned()
}

/// 160 MiB of address space: the program, one table's batch and Parquet row group.
const LIMIT_KB: u64 = 160 << 10;
/// A capture several times that.
const BIG: usize = 600 << 20;

#[test]
fn memory_stays_bounded_far_below_a_large_capture() {
    let dir = sable_testkit::ScratchDir::new("cli-columnar-big");
    let capture = mdp3_capture(1);
    let (head, record) = capture.split_at(24);
    let mut chunk = Vec::new();
    while chunk.len() < 1 << 20 {
        chunk.extend_from_slice(record);
    }
    let out = dir.join("out");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_sable"))
        .args([
            "decode",
            "--pcap",
            "--framing",
            "mdp3",
            "--format",
            "parquet",
        ])
        .arg("--schema")
        .arg(car_schema())
        .arg("--output")
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sable");
    let mut stdin = child.stdin.take().unwrap();
    let head = head.to_vec();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&head)?;
        let mut sent = 0;
        while sent < BIG {
            stdin.write_all(&chunk)?;
            sent += chunk.len();
        }
        Ok::<_, std::io::Error>(sent)
    });
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    let sent = writer.join().unwrap();
    // Every packet repeats sequence number 1: noted, not an error.
    assert!(
        status.success() && sent.is_ok(),
        "a {BIG}-byte capture to Parquet under ulimit -v {LIMIT_KB}: {stderr}"
    );
    let packets = sent.unwrap() / record.len();
    let meta = parquet::file::reader::FileReader::metadata(
        &parquet::file::serialized_reader::SerializedFileReader::new(
            std::fs::File::open(out.join("Car.parquet")).unwrap(),
        )
        .unwrap(),
    )
    .file_metadata()
    .num_rows();
    assert_eq!(meta as usize, packets * car_lines().len());
}

//! `sable decode` and `sable encode` on live and large inputs: each message printed as soon as
//! its bytes arrive, `--follow`, memory bounded far below the input's size. Captures are written
//! by sable-framing's own pcap writer.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddrV4;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use common::{car_lines, car_schema, encode};
use sable_framing::capture::write::{ipv4_udp, PcapWriter};

/// How long a line may take to come out once its message is in.
const PATIENCE: Duration = Duration::from_secs(20);

fn sable_bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sable"))
}

/// Each Car vector encoded on its own with `framing`.
fn messages(framing: &str) -> Vec<Vec<u8>> {
    car_lines()
        .iter()
        .map(|l| encode(framing, std::slice::from_ref(l)))
        .collect()
}

/// Starts `sable ARGS` with piped standard input and output.
fn spawn(args: &[&str]) -> Child {
    sable_bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sable")
}

/// The lines of `stdout` (or stderr), as they come.
fn lines_of(stdout: impl Read + Send + 'static) -> Receiver<String> {
    let (send, receive) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if send.send(line).is_err() {
                return;
            }
        }
    });
    receive
}

fn next_line(lines: &Receiver<String>, what: &str) -> serde_json::Value {
    let line = lines
        .recv_timeout(PATIENCE)
        .unwrap_or_else(|e| panic!("{what}: no line while the writer keeps the pipe open ({e})"));
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{what}: {e}: {line}"))
}

fn schema() -> String {
    car_schema().display().to_string()
}

#[test]
fn a_live_pipe_shows_each_message_before_the_writer_closes_it() {
    for framing in ["raw", "sofh", "u16le"] {
        let schema = schema();
        let mut child = spawn(&["decode", "--framing", framing, "--schema", &schema]);
        let mut stdin = child.stdin.take().expect("stdin");
        let lines = lines_of(child.stdout.take().expect("stdout"));
        for (i, message) in messages(framing).iter().enumerate() {
            // Byte by byte for the first: a message split across reads.
            if i == 0 {
                for b in message {
                    stdin.write_all(&[*b]).expect("write");
                    stdin.flush().expect("flush");
                }
            } else {
                stdin.write_all(message).expect("write");
            }
            stdin.flush().expect("flush");
            let v = next_line(&lines, framing);
            assert_eq!(v["message"], "Car", "{framing}: {v}");
        }
        drop(stdin);
        assert!(child.wait().expect("wait").success(), "{framing}");
    }
}

#[test]
fn a_live_raw_pipe_reports_a_lying_group_count_before_the_writer_closes_it() {
    // The first Car up to its fuelFigures dimensions (bytes 57..61), the count (at 59) saying
    // 60,000 entries: at least 10 bytes each (a 6-byte block and a 4-byte text length), so
    // 600,061 bytes in all.
    let mut start = messages("raw")[0][..61].to_vec();
    start[59..61].copy_from_slice(&60_000u16.to_le_bytes());
    let schema = schema();
    let mut child = spawn(&["decode", "--max-message-size", "64K", "--schema", &schema]);
    let mut stdin = child.stdin.take().expect("stdin");
    let out = lines_of(child.stdout.take().expect("stdout"));
    let err = lines_of(child.stderr.take().expect("stderr"));
    stdin.write_all(&start).expect("write");
    stdin.flush().expect("flush");
    let said = |what: &str| {
        err.recv_timeout(PATIENCE).unwrap_or_else(|e| {
            panic!("{what}: no line while the writer keeps the pipe open ({e})")
        })
    };
    let note = said("the size");
    assert_eq!(
        note,
        "sable: <stdin>: at byte 0: the message declares at least 600061 bytes, more than \
         --max-message-size allows"
    );
    let error = said("the contract's error");
    assert!(
        error.starts_with(
            "sable: <stdin>: at byte 0, message byte 61 (fields.fuelFigures[0], truncated): "
        ),
        "{error}"
    );
    let v = next_line(&out, "the message as far as it goes");
    assert_eq!(v["fields"]["serialNumber"], 1234, "{v}");
    assert_eq!(v["error"]["offset"], 61, "{v}");
    assert!(said("the end").ends_with("decoding stops"));
    // Raw framing cannot find the next message: decoding has ended, the pipe still open.
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(1));
    drop(stdin);

    // Within the bound (the default, 1 MiB) the message may still come: decode waits for it,
    // and reports it truncated when the input ends.
    let mut child = spawn(&["decode", "--schema", &schema]);
    let mut stdin = child.stdin.take().expect("stdin");
    let out = lines_of(child.stdout.take().expect("stdout"));
    stdin.write_all(&start).expect("write");
    stdin.flush().expect("flush");
    assert!(out.recv_timeout(Duration::from_millis(500)).is_err());
    drop(stdin);
    let v = next_line(&out, "at the end");
    assert_eq!(v["error"]["field"], "fields.fuelFigures[0]", "{v}");
    assert_eq!(child.wait().expect("wait").code(), Some(1));
}

#[test]
fn a_live_capture_shows_each_message_as_its_packet_arrives() {
    let schema = schema();
    let mut child = spawn(&[
        "decode",
        "--pcap",
        "--framing",
        "mdp3",
        "--schema",
        &schema,
        "-",
    ]);
    let stdin = child.stdin.take().expect("stdin");
    let lines = lines_of(child.stdout.take().expect("stdout"));
    let mut pcap = PcapWriter::new(stdin).expect("header");
    let (src, dst) = (
        "10.0.0.1:5000".parse::<SocketAddrV4>().unwrap(),
        "239.1.1.1:14310".parse().unwrap(),
    );
    for (i, line) in car_lines().iter().enumerate() {
        let mut packet = encode("mdp3", std::slice::from_ref(line));
        packet[..12].copy_from_slice(&sable_framing::mdp3_packet_header(i as u32 + 1, 7));
        pcap.packet(
            1_700_000_000_000_000_000 + i as u64,
            &ipv4_udp(src, dst, &packet),
        )
        .expect("write");
        pcap.get_mut().flush().expect("flush");
        let v = next_line(&lines, "capture");
        assert_eq!(v["sequenceNumber"], i + 1, "{v}");
        assert_eq!(v["flow"], "udp 10.0.0.1:5000 -> 239.1.1.1:14310", "{v}");
    }
    drop(pcap.into_inner());
    assert!(child.wait().expect("wait").success());
}

#[test]
fn encode_writes_each_message_before_its_input_closes() {
    let schema = schema();
    let mut child = spawn(&["encode", "--schema", &schema]);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    for (line, expected) in car_lines().iter().zip(messages("raw")) {
        writeln!(stdin, "{line}").expect("write");
        stdin.flush().expect("flush");
        let mut got = vec![0; expected.len()];
        let (send, receive) = channel();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let read = stdout.read_exact(&mut got);
                let _ = send.send(read.is_ok());
            });
            assert_eq!(
                receive.recv_timeout(PATIENCE),
                Ok(true),
                "the message's bytes while the input is open"
            );
        });
        assert_eq!(got, expected);
    }
    drop(stdin);
    assert!(child.wait().expect("wait").success());
}

#[test]
fn follow_prints_what_is_appended_to_the_file() {
    let dir = std::env::temp_dir().join(format!("sable-follow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("growing.bin");
    let messages = messages("sofh");
    std::fs::write(&path, &messages[0]).expect("write");
    let schema = schema();
    let file = path.display().to_string();
    let mut child = spawn(&[
        "decode",
        "--follow",
        "--framing",
        "sofh",
        "--schema",
        &schema,
        &file,
    ]);
    let lines = lines_of(child.stdout.take().expect("stdout"));
    assert_eq!(next_line(&lines, "first")["offset"], 6);
    let mut append = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .expect("open");
    // Half a message, then the rest: nothing until it is whole.
    let (a, b) = messages[1].split_at(10);
    append.write_all(a).expect("append");
    append.flush().expect("flush");
    assert!(lines.recv_timeout(Duration::from_millis(500)).is_err());
    append.write_all(b).expect("append");
    append.flush().expect("flush");
    let v = next_line(&lines, "appended");
    assert_eq!(v["offset"], messages[0].len() + 6, "{v}");
    child.kill().expect("kill");
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn follow_needs_a_file() {
    let schema = schema();
    let output = sable_bin()
        .args(["decode", "--follow", "--schema", &schema])
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--follow reads a FILE"));
}

/// Runs `sh -c 'ulimit -v LIMIT_KB; exec sable ARGS'` with `size` bytes of `pattern` repeated on
/// standard input, output discarded; returns whether it succeeded, and its stderr.
fn under_ulimit(
    limit_kb: u64,
    args: &[&str],
    head: &[u8],
    pattern: &[u8],
    size: usize,
) -> (bool, String) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {limit_kb} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_sable"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sable");
    let mut stdin = child.stdin.take().expect("stdin");
    let head = head.to_vec();
    let pattern = pattern.to_vec();
    let writer = std::thread::spawn(move || {
        let mut chunk = Vec::new();
        while chunk.len() < 1 << 20 {
            chunk.extend_from_slice(&pattern);
        }
        stdin.write_all(&head)?;
        let mut sent = 0;
        while sent < size {
            stdin.write_all(&chunk)?;
            sent += chunk.len();
        }
        Ok::<_, std::io::Error>(())
    });
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    let status = child.wait().expect("wait");
    let written = writer.join().expect("writer");
    (status.success() && written.is_ok(), stderr)
}

/// 100 MiB of address space: the program itself and its compiled printers take about 80 of it.
const LIMIT_KB: u64 = 100 << 10;
/// Inputs several times that.
const BIG: usize = 400 << 20;

#[test]
fn decode_memory_stays_bounded_far_below_the_input() {
    let schema = schema();
    let car = messages("raw").concat();
    let (ok, stderr) = under_ulimit(LIMIT_KB, &["decode", "--schema", &schema], &[], &car, BIG);
    assert!(
        ok,
        "a {BIG}-byte input under ulimit -v {LIMIT_KB}: {stderr}"
    );
    // A capture too: UDP packets, each an MDP 3.0 packet of Car messages.
    let mut packet = sable_framing::mdp3_packet_header(1, 0).to_vec();
    packet.extend_from_slice(&encode("mdp3", &car_lines())[12..]);
    let frame = ipv4_udp(
        "10.0.0.1:5000".parse().unwrap(),
        "239.1.1.1:14310".parse().unwrap(),
        &packet,
    );
    let mut record = Vec::new();
    let mut pcap = PcapWriter::new(Vec::new()).expect("header");
    pcap.packet(0, &frame).expect("record");
    let file = pcap.into_inner();
    record.extend_from_slice(&file[24..]);
    let args = ["decode", "--pcap", "--framing", "mdp3", "--schema", &schema];
    let (ok, stderr) = under_ulimit(LIMIT_KB, &args, &file[..24], &record, BIG / 2);
    // Every packet repeats sequence number 1: reported, not an error.
    assert!(ok, "a capture under ulimit -v {LIMIT_KB}: {stderr}");
    assert!(stderr.contains("repeated"), "{stderr}");
}

#[test]
fn encode_memory_stays_bounded_far_below_the_input() {
    let schema = schema();
    let lines: String = car_lines().iter().map(|l| format!("{l}\n")).collect();
    let (ok, stderr) = under_ulimit(
        LIMIT_KB,
        &["encode", "--schema", &schema],
        &[],
        lines.as_bytes(),
        BIG / 4,
    );
    assert!(ok, "encode under ulimit -v {LIMIT_KB}: {stderr}");
}

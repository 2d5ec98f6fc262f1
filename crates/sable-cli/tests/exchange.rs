//! Exchange framings and what `sable decode` tells about a capture: CME's SOFH over TCP, MDP 3.0
//! packet headers with sequence gaps and repeats, packets skipped by reason, hints when the input
//! does not fit the options, and the complete messages of a cut last record. Captures are written
//! by sable-framing's own pcap writer.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddrV4;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use common::{car_lines, car_schema, encode};
use sable_framing::capture::write::{ipv4_tcp, ipv4_udp, tcp_flags, PcapWriter};

fn client() -> SocketAddrV4 {
    "10.0.0.1:40000".parse().unwrap()
}
fn exchange() -> SocketAddrV4 {
    "10.0.0.2:9000".parse().unwrap()
}
fn feed() -> SocketAddrV4 {
    "239.1.1.1:14310".parse().unwrap()
}

/// `sable SUBCOMMAND --schema CAR ARGS` with `input` on standard input.
fn run(subcommand: &str, args: &[&str], input: Vec<u8>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
        .args([subcommand, "--schema"])
        .arg(car_schema())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sable");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("wait");
    let _ = writer.join();
    output
}

/// `sable decode --schema CAR ARGS` of `input`.
fn decode(args: &[&str], input: &[u8]) -> Output {
    run("decode", args, input.to_vec())
}

fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Each Car vector, encoded on its own (raw).
fn cars() -> Vec<Vec<u8>> {
    car_lines()
        .iter()
        .map(|l| encode("raw", std::slice::from_ref(l)))
        .collect()
}

/// CME's SOFH: a 2-byte little-endian length counting the 4-byte header, then 0xCAFE
/// little-endian.
fn cme_sofh(message: &[u8]) -> Vec<u8> {
    let mut out = ((message.len() + 4) as u16).to_le_bytes().to_vec();
    out.extend_from_slice(&[0xFE, 0xCA]);
    out.extend_from_slice(message);
    out
}

/// A capture of `stream` sent from the client to the exchange over TCP in `segment`-byte
/// segments, after a SYN.
fn tcp_capture(stream: &[u8], segment: usize) -> Vec<u8> {
    let mut pcap = PcapWriter::new(Vec::new()).expect("header");
    let isn = 1000u32;
    pcap.packet(1, &ipv4_tcp(client(), exchange(), isn, tcp_flags::SYN, &[]))
        .expect("write");
    for (i, piece) in stream.chunks(segment).enumerate() {
        let seq = isn + 1 + (i * segment) as u32;
        let frame = ipv4_tcp(client(), exchange(), seq, tcp_flags::ACK, piece);
        pcap.packet(2 + i as u64, &frame).expect("write");
    }
    pcap.into_inner()
}

#[test]
fn cme_sofh_over_tcp_decodes() {
    let cars = cars();
    let stream: Vec<u8> = cars.iter().flat_map(|m| cme_sofh(m)).collect();
    let output = decode(&["--pcap", "--framing", "sofh"], &tcp_capture(&stream, 50));
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), cars.len());
    assert_eq!(lines[0]["flow"], "tcp 10.0.0.1:40000 -> 10.0.0.2:9000");
    assert_eq!(lines[0]["offset"], 4, "after CME's 4-byte header");
    assert_eq!(lines[0]["fields"]["serialNumber"], 1234);
}

/// `sable encode --schema CAR ARGS` of `lines`.
fn encode_with(args: &[&str], lines: &[String]) -> Output {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    run("encode", args, input.into_bytes())
}

#[test]
fn encode_writes_cmes_sofh_form_and_decode_reads_it_back() {
    let output = encode_with(&["--framing", "sofh", "--sofh-form", "cme"], &car_lines());
    assert!(output.status.success(), "{}", stderr(&output));
    let stream = output.stdout;
    // Each message after CME's 4-byte header: the same bytes as the hand-made one.
    let expected: Vec<u8> = cars().iter().flat_map(|m| cme_sofh(m)).collect();
    assert_eq!(stream, expected);
    // Decoded back, from a file and from a TCP capture.
    for (args, input) in [
        (&["--framing", "sofh"][..], stream.clone()),
        (
            &["--pcap", "--framing", "sofh"][..],
            tcp_capture(&stream, 100),
        ),
    ] {
        let output = decode(args, &input);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        let decoded: Vec<serde_json::Value> = json_lines(&output)
            .into_iter()
            .map(|mut v| {
                let object = v.as_object_mut().expect("object");
                for key in ["offset", "timestamp", "packetOffset", "flow"] {
                    object.remove(key);
                }
                v
            })
            .collect();
        let lines: Vec<serde_json::Value> = car_lines().iter().map(|l| json_value(l)).collect();
        assert_eq!(decoded, lines, "{args:?}");
    }
    // The standard form stays the default.
    let standard = encode_with(&["--framing", "sofh"], &car_lines()[..1]).stdout;
    assert_eq!(standard[4..6], [0x5B, 0xE0]);
}

#[test]
fn the_sofh_form_is_checked() {
    let output = encode_with(&["--sofh-form", "cme"], &car_lines()[..1]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--sofh-form applies to --framing sofh only"),
        "{}",
        stderr(&output)
    );
    // A message CME's 2-byte length cannot count is refused, with its line number.
    let mut big: serde_json::Value = json_value(&car_lines()[0]);
    big["fields"]["activationCode"] = "x".repeat(70_000).into();
    let output = encode_with(
        &["--framing", "sofh", "--sofh-form", "cme"],
        &[big.to_string()],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains("<stdin>:1: a message of 70"),
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("too long for cme SOFH framing (at most 65531)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn cme_sofh_checks_the_encoding_type_and_resynchronises() {
    let cars = cars();
    let mut stream = cme_sofh(&cars[0]);
    // A frame of another encoding type, skipped whole...
    stream.extend_from_slice(&((cars[1].len() + 6) as u32).to_be_bytes());
    stream.extend_from_slice(&[0x12, 0x34]);
    stream.extend_from_slice(&cars[1]);
    // ...a length smaller than the header, after which framing finds the next header...
    stream.extend_from_slice(&[1, 0, 0xFE, 0xCA, 0, 0, 0]);
    stream.extend_from_slice(&cme_sofh(&cars[2]));
    // One segment: a frame of an unknown type is skipped whole when it is all there (when only
    // its start is, framing looks for the next header instead).
    let output = decode(
        &["--pcap", "--framing", "sofh"],
        &tcp_capture(&stream, 4096),
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let serials: Vec<_> = json_lines(&output)
        .iter()
        .map(|l| l["fields"]["serialNumber"].clone())
        .collect();
    assert_eq!(
        serials,
        vec![
            json_value(&car_lines()[0])["fields"]["serialNumber"].clone(),
            json_value(&car_lines()[2])["fields"]["serialNumber"].clone()
        ]
    );
    assert!(
        err.contains("SOFH encoding type 0x1234 is not SBE 1.0"),
        "{err}"
    );
    assert!(
        err.contains("SOFH message length 1 is smaller than the 4-byte header"),
        "{err}"
    );
}

fn json_value(line: &str) -> serde_json::Value {
    serde_json::from_str(line).expect("JSON")
}

/// An MDP 3.0 packet of the Car vectors, numbered `seq`, sent at `seq` seconds past 2026-01-01.
fn mdp3_packet(seq: u32) -> Vec<u8> {
    let mut packet = encode("mdp3", &car_lines()[..1]);
    let sent = 1_767_225_600_000_000_000 + u64::from(seq) * 1_000_000_000;
    packet[..12].copy_from_slice(&sable_framing::mdp3_packet_header(seq, sent));
    packet
}

fn udp_record(pcap: &mut PcapWriter<impl Write>, seq: u32) {
    let frame = ipv4_udp("10.0.0.1:5000".parse().unwrap(), feed(), &mdp3_packet(seq));
    pcap.packet(u64::from(seq), &frame).expect("write");
}

#[test]
fn mdp3_packet_headers_are_printed_and_gaps_and_repeats_reported_as_seen() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
        .args(["decode", "--pcap", "--framing", "mdp3", "--schema"])
        .arg(car_schema())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sable");
    let mut pcap = PcapWriter::new(child.stdin.take().expect("stdin")).expect("header");
    let (send, errors) = channel();
    let stderr = child.stderr.take().expect("stderr");
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    for seq in [1, 2, 5] {
        udp_record(&mut pcap, seq);
    }
    pcap.get_mut().flush().expect("flush");
    // Every record takes the same room.
    let record = 16 + ipv4_udp(client(), feed(), &mdp3_packet(1)).len();
    // Reported as soon as the packet is read, while the capture goes on.
    let gap = errors
        .recv_timeout(Duration::from_secs(20))
        .expect("the gap reported while the pipe is open");
    assert_eq!(
        gap,
        format!(
            "sable: <stdin>: at file offset {} (udp 10.0.0.1:5000 -> 239.1.1.1:14310): MDP 3.0 \
             sequence gap: 2 packets missing (expected 3, got 5)",
            24 + 2 * record
        )
    );
    for seq in [5, 6] {
        udp_record(&mut pcap, seq);
    }
    drop(pcap);
    let output = child.wait_with_output().expect("wait");
    assert!(output.status.success(), "gaps and repeats are not errors");
    let rest: Vec<String> = errors.iter().collect();
    assert_eq!(
        rest,
        vec![
            format!(
                "sable: <stdin>: at file offset {} (udp 10.0.0.1:5000 -> 239.1.1.1:14310): MDP \
                 3.0 sequence number 5 repeated",
                24 + 3 * record
            ),
            "sable: <stdin>: MDP 3.0 sequence numbers: 1 gap (2 packets missing), 1 repeated or \
             out of order"
                .to_owned(),
        ]
    );
    let lines = json_lines(&output);
    let numbers: Vec<_> = lines.iter().map(|l| l["sequenceNumber"].clone()).collect();
    assert_eq!(numbers, [1, 2, 5, 5, 6]);
    assert_eq!(lines[0]["sendingTime"], "2026-01-01T00:00:01.000000000Z");
    let first = String::from_utf8_lossy(&output.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    assert!(
        first.starts_with(
            "{\"timestamp\":\"1970-01-01T00:00:00.000000001Z\",\"packetOffset\":24,\"flow\":\"udp \
             10.0.0.1:5000 -> 239.1.1.1:14310\",\"sequenceNumber\":1,\"sendingTime\":\
             \"2026-01-01T00:00:01.000000000Z\",\"offset\":14,\"message\":\"Car\""
        ),
        "{first}"
    );
}

#[test]
fn mdp3_packet_headers_show_in_text_too() {
    let output = decode(&["--framing", "mdp3", "--format", "text"], &mdp3_packet(7));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.starts_with(
            "# sequence number 7 sent 2026-01-01T00:00:07.000000000Z, at byte 14\nmessage: Car\n"
        ),
        "{text}"
    );
}

#[test]
fn skipped_packets_are_counted_by_reason_in_the_summary() {
    let mut pcap = PcapWriter::new(Vec::new()).expect("header");
    let mut arp = vec![0xFF; 12];
    arp.extend_from_slice(&[0x08, 0x06]);
    arp.extend_from_slice(&[0; 28]);
    pcap.packet(1, &arp).expect("write");
    let mut icmp = ipv4_udp(client(), feed(), b"ping");
    icmp[23] = 1; // the IPv4 protocol field: ICMP
    pcap.packet(2, &icmp).expect("write");
    let other = ipv4_udp(client(), "239.1.1.1:999".parse().unwrap(), &mdp3_packet(1));
    pcap.packet(3, &other).expect("write");
    pcap.packet(4, &ipv4_udp(client(), feed(), &mdp3_packet(1)))
        .expect("write");
    let output = decode(
        &["--pcap", "--framing", "mdp3", "--port", "14310"],
        &pcap.into_inner(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(json_lines(&output).len(), 1);
    assert_eq!(
        stderr(&output),
        "sable: <stdin>: 3 packets skipped: 1 of flows the filter rejects (--port), 1 not IP \
         (ARP, LLDP, ...), 1 neither UDP nor TCP (ICMP, ...)\n"
    );
}

#[test]
fn a_capture_without_pcap_gets_a_hint() {
    let mut pcap = PcapWriter::new(Vec::new()).expect("header");
    pcap.packet(4, &ipv4_udp(client(), feed(), &mdp3_packet(1)))
        .expect("write");
    let output = decode(&["--framing", "mdp3"], &pcap.into_inner());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with(
            "sable: <stdin>: hint: this looks like a pcap or pcapng capture: decode it with --pcap"
        ),
        "{err}"
    );
}

#[test]
fn a_framing_that_does_not_fit_gets_a_suggestion() {
    let sofh = encode("sofh", &car_lines()[..2]);
    let output = decode(&[], &sofh);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "hint: the input does not start as --framing raw expects; its first bytes read as \
             --framing sofh"
        ),
        "{err}"
    );
    let raw = encode("raw", &car_lines()[..2]);
    let err = stderr(&decode(&["--framing", "u32be"], &raw));
    assert!(
        err.contains("its first bytes read as --framing raw"),
        "{err}"
    );
    // From a capture: the first payload's bytes.
    let mut pcap = PcapWriter::new(Vec::new()).expect("header");
    pcap.packet(4, &ipv4_udp(client(), feed(), &mdp3_packet(1)))
        .expect("write");
    let err = stderr(&decode(
        &["--pcap", "--framing", "sofh"],
        &pcap.into_inner(),
    ));
    assert!(
        err.contains("its first bytes read as --framing mdp3"),
        "{err}"
    );
    // Once only, and not when the input fits.
    assert_eq!(err.matches("hint").count(), 1, "{err}");
    let err = stderr(&decode(&["--framing", "sofh"], &sofh));
    assert_eq!(err, "");
}

#[test]
fn the_complete_messages_of_a_cut_last_record_are_decoded() {
    let mut pcap = PcapWriter::new(Vec::new()).expect("header");
    let packet = encode("mdp3", &car_lines()[..3]);
    // A packet cut by the snapshot length, then the file cut inside its last record.
    let frame = ipv4_udp(client(), feed(), &packet);
    pcap.record(1, &frame[..frame.len() - 10], frame.len())
        .expect("write");
    pcap.packet(2, &frame).expect("write");
    let file = pcap.into_inner();
    let output = decode(&["--pcap", "--framing", "mdp3"], &file[..file.len() - 10]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert_eq!(
        json_lines(&output).len(),
        4,
        "two whole messages of each: {err}"
    );
    assert!(
        err.contains("pcap record cut short at the end of the file"),
        "{err}"
    );
}

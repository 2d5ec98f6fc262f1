//! `sable decode` and `sable encode` end to end, on the Car conformance vectors.

mod common;

use common::{car_lines, car_schema, encode, sable};
use predicates::prelude::*;

/// Decoded JSON lines, less the keys decode adds (`offset`, and the MDP 3.0 packet header's).
fn decode(args: &[&str], bytes: &[u8]) -> (Vec<String>, String, i32) {
    let output = sable()
        .args(["decode", "--schema"])
        .arg(car_schema())
        .args(args)
        .write_stdin(bytes.to_vec())
        .output()
        .expect("run sable");
    let lines = String::from_utf8(output.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("each line is JSON");
            let object = v.as_object_mut().expect("object");
            for key in ["offset", "sequenceNumber", "sendingTime"] {
                object.remove(key);
            }
            v.to_string()
        })
        .collect();
    (
        lines,
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

#[test]
fn encode_then_decode_gives_the_json_back_in_every_framing() {
    let lines = car_lines();
    assert!(lines.len() >= 2, "need Car vectors");
    for framing in ["raw", "sofh", "u16le", "u32be+inclusive+skip2", "mdp3"] {
        let bytes = encode(framing, &lines);
        let (decoded, stderr, code) = decode(&["--framing", framing], &bytes);
        assert_eq!(code, 0, "{framing}: {stderr}");
        assert_eq!(decoded, lines, "{framing}");
    }
}

#[test]
fn decode_filters_by_template_and_limits() {
    let lines = car_lines();
    let bytes = encode("raw", &lines);
    assert_eq!(decode(&["--template", "1"], &bytes).0.len(), lines.len());
    assert!(decode(&["--template", "7"], &bytes).0.is_empty());
    assert_eq!(decode(&["--limit", "1"], &bytes).0, lines[..1]);
}

#[test]
fn decode_adds_each_messages_offset() {
    let lines = car_lines();
    let bytes = encode("raw", &lines);
    let out = sable()
        .args(["decode", "--schema"])
        .arg(car_schema())
        .write_stdin(bytes.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).expect("UTF-8");
    assert!(
        text.starts_with(r#"{"offset":0,"message":"Car","#),
        "{text}"
    );
    let second: serde_json::Value =
        serde_json::from_str(text.lines().nth(1).expect("two messages")).expect("JSON");
    let first_len = encode("raw", &lines[..1]).len();
    assert_eq!(second["offset"], first_len);
}

#[test]
fn a_truncated_message_is_printed_as_far_as_it_goes_with_its_error() {
    let lines = car_lines();
    let bytes = encode("raw", &lines[..1]);
    let cut = &bytes[..bytes.len() - 5];
    let (decoded, stderr, code) = decode(&[], cut);
    assert_eq!(code, 1);
    assert_eq!(decoded.len(), 1);
    let v: serde_json::Value = serde_json::from_str(&decoded[0]).expect("JSON");
    assert_eq!(
        v["fields"]["serialNumber"], 1234,
        "what was decoded is kept: {v}"
    );
    // The Car ends in activationCode (a 4-byte length and its bytes): the cut is inside it.
    let at = v["error"]["offset"].as_u64().expect("an offset") as usize;
    assert!(at < cut.len() && at + 4 <= bytes.len(), "{v}");
    assert_eq!(v["error"]["field"], "fields.activationCode", "{v}");
    assert_eq!(v["error"]["kind"], "truncated", "{v}");
    assert!(
        stderr.contains(&format!(
            "at byte 0, message byte {at} (fields.activationCode, truncated)"
        )),
        "{stderr}"
    );
}

#[test]
fn raw_framing_stops_at_a_message_it_cannot_size() {
    // An unknown template id, then more than a read's worth (64 KiB) of good messages: nothing
    // says where the next message starts, so nothing after the bad one is decoded.
    let lines = car_lines();
    let good = encode("raw", &lines);
    let mut bytes = good[..20].to_vec();
    bytes[2] = 99;
    while bytes.len() < 200_000 {
        bytes.extend_from_slice(&good);
    }
    let (decoded, stderr, code) = decode(&[], &bytes);
    assert_eq!(code, 1);
    assert_eq!(decoded.len(), 1, "{stderr}");
    assert!(
        decoded[0].contains(r#""kind":"unknownTemplate""#),
        "{}",
        decoded[0]
    );
    assert_eq!(
        stderr,
        "sable: <stdin>: at byte 0, message byte 2 (header.templateId, unknownTemplate): unknown \
         template id 99\n\
         sable: <stdin>: at byte 0: raw framing cannot tell where the next message would start: \
         decoding stops\n\
         sable: 1 message done, 1 with problems (reported above)\n"
    );
}

#[test]
fn a_lying_sofh_length_is_reported_and_decoding_resumes() {
    let lines = car_lines();
    let mut bytes = encode("sofh", &lines[..1]);
    let good = bytes.clone();
    bytes[1] = 0xff; // the first frame claims more than there is...
    bytes.extend_from_slice(&good); // ...and a good frame follows
    let (decoded, stderr, code) = decode(&["--framing", "sofh"], &bytes);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("at byte 0"), "{stderr}");
    assert_eq!(decoded.last(), lines.first(), "{stderr}");
}

#[test]
fn a_frame_longer_than_its_message_is_reported() {
    let lines = car_lines();
    let mut bytes = encode("sofh", &lines[..1]);
    bytes[3] += 3;
    bytes.extend_from_slice(&[0, 0, 0]);
    let (decoded, stderr, code) = decode(&["--framing", "sofh"], &bytes);
    assert_eq!(code, 1);
    assert_eq!(decoded, lines[..1]);
    assert!(stderr.contains("3 bytes are left over"), "{stderr}");
}

#[test]
fn text_format_prints_names_and_values() {
    let bytes = encode("raw", &car_lines()[..1]);
    sable()
        .args(["decode", "--format", "text", "--schema"])
        .arg(car_schema())
        .write_stdin(bytes)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("# at byte 0\nmessage: Car\n")
                .and(predicate::str::contains("serialNumber: 1234")),
        );
}

#[test]
fn bad_json_lines_are_reported_by_line_and_the_rest_encoded() {
    let lines = car_lines();
    let text = format!(
        "{}\n{{\"message\":\"Nope\"}}\n\n{}\n",
        lines[0],
        lines[0].replace("1234", "-1")
    );
    let assert = sable()
        .args(["encode", "--schema"])
        .arg(car_schema())
        .write_stdin(text)
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("<stdin>:2:")
                .and(predicate::str::contains("<stdin>:4: fields.serialNumber")),
        );
    let bytes = assert.get_output().stdout.clone();
    assert_eq!(
        bytes,
        encode("raw", &lines[..1]),
        "the good line is still written"
    );
}

/// A classic pcap (microsecond) of one Ethernet/IPv4/UDP packet per payload.
fn pcap(payloads: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0xa1b2c3d4u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&4u16.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&65535u32.to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes()); // Ethernet
    for (i, payload) in payloads.iter().enumerate() {
        let mut frame = vec![0u8; 12];
        frame.extend_from_slice(&[0x08, 0x00]);
        let total = (20 + 8 + payload.len()) as u16;
        let mut ip = vec![
            0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 239, 1, 1, 1,
        ];
        ip[2..4].copy_from_slice(&total.to_be_bytes());
        frame.extend_from_slice(&ip);
        frame.extend_from_slice(&5000u16.to_be_bytes());
        frame.extend_from_slice(&14310u16.to_be_bytes());
        frame.extend_from_slice(&((8 + payload.len()) as u16).to_be_bytes());
        frame.extend_from_slice(&[0, 0]);
        frame.extend_from_slice(payload);
        out.extend_from_slice(&(1_700_000_000u32 + i as u32).to_le_bytes());
        out.extend_from_slice(&250_000u32.to_le_bytes());
        out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        out.extend_from_slice(&frame);
    }
    out
}

#[test]
fn decode_reads_udp_payloads_from_a_capture_with_their_times() {
    let lines = car_lines();
    let packets: Vec<Vec<u8>> = lines
        .iter()
        .map(|l| encode("mdp3", std::slice::from_ref(l)))
        .collect();
    let capture = pcap(&packets);
    let out = sable()
        .args([
            "decode",
            "--pcap",
            "--framing",
            "mdp3",
            "--port",
            "14310",
            "--schema",
        ])
        .arg(car_schema())
        .write_stdin(capture)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).expect("UTF-8");
    let first: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("a message")).expect("JSON");
    assert_eq!(
        first["timestamp"], "2023-11-14T22:13:20.250000000Z",
        "{first}"
    );
    assert_eq!(
        first["flow"], "udp 10.0.0.1:5000 -> 239.1.1.1:14310",
        "{first}"
    );
    assert_eq!(first["fields"]["serialNumber"], 1234);
    assert_eq!(text.lines().count(), lines.len());
}

/// `sable encode` of `text` with the Car schema: its stderr, which must report every line bad.
fn encode_errors(text: &str) -> String {
    let assert = sable()
        .args(["encode", "--schema"])
        .arg(car_schema())
        .write_stdin(text.to_owned())
        .assert()
        .code(1);
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

/// What `sable encode` says of the first Car vector with `pointer` set to `value`.
fn car_errors(pointer: &str, value: serde_json::Value) -> String {
    encode_errors(&format!("{}\n", car_with(pointer, value)))
}

/// The first Car vector with `pointer` set to `value`.
fn car_with(pointer: &str, value: serde_json::Value) -> String {
    let mut car: serde_json::Value = serde_json::from_str(&car_lines()[0]).expect("JSON");
    *car.pointer_mut(pointer).expect("the vector has it") = value;
    car.to_string()
}

#[test]
fn encode_messages_give_real_ranges_short_values_and_escaped_control_characters() {
    use serde_json::json;
    // An integer written with a fraction is not an integer (docs/json.md); beyond 64 bits it is
    // out of range with the type's range, never an empty one.
    let stderr = car_errors("/fields/serialNumber", json!(1.0));
    assert!(
        stderr.contains(
            "fields.serialNumber: 1.0 is not an integer (write integers without a fraction or exponent)"
        ),
        "{stderr}"
    );
    let stderr = car_errors("/fields/serialNumber", json!(1e30));
    assert!(
        stderr.contains(
            "sable: <stdin>:1: fields.serialNumber: 1e+30 is out of range for uint64 (0 to 18446744073709551614)"
        ),
        "{stderr}"
    );
    // Float ranges as floats.
    let stderr = car_errors("/fields/fuelFigures/0/mpg", json!(1e39));
    assert!(
        stderr.contains("1e+39 is out of range for float (-3.4028235e38 to 3.4028235e38)"),
        "{stderr}"
    );
    // A long value is cut short.
    let stderr = car_errors("/fields/engine/maxRpm", json!(vec![7; 1000]));
    let line = stderr.lines().next().unwrap_or_default();
    assert!(
        line.contains("constant is 9000, found [7,7,7") && line.contains("…") && line.len() < 200,
        "{line}"
    );
    // Control characters are escaped, never written raw.
    let stderr = car_errors("/fields/available", json!("\u{1b}[31mRED\u{7}"));
    assert!(
        stderr.contains("'\\u{1b}[31mRED\\u{7}' is not a valid value name"),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_the_rest_encoded() {
    let lines = car_lines();
    let mut text = format!("{}\n", lines[0]).into_bytes();
    text.extend_from_slice(b"{\"message\":\"Car\xff\"}\n");
    text.extend_from_slice(format!("{}\n", lines[1]).as_bytes());
    let assert = sable()
        .args(["encode", "--schema"])
        .arg(car_schema())
        .write_stdin(text)
        .assert()
        .code(1)
        .stderr(
            "sable: <stdin>:2: not UTF-8 text (byte 0xFF at column 16)\n\
             sable: 2 messages done, 1 with problems (reported above)\n",
        );
    assert_eq!(assert.get_output().stdout, encode("raw", &lines[..2]));
}

#[test]
fn decoding_a_template_the_schema_lacks_is_a_usage_error() {
    sable()
        .args(["decode", "--template", "1", "--template", "77", "--schema"])
        .arg(car_schema())
        .write_stdin(encode("raw", &car_lines()))
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "sable: --template 77: the schema has no message with that id; its template ids \
             are 1 (Car)\n",
        );
}

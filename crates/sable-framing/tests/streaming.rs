//! Captures read as they arrive (`CaptureStream`), records cut short, MDP 3.0 sequence numbers,
//! packets skipped by reason, and the TCP reassembler's bound across streams.

mod common;

use common::*;
use sable_framing::capture::{
    Capture, CaptureStream, ErrorKind, Filter, Flow, Skipped, StreamEvent, TcpReassembler,
    TcpSegment,
};
use sable_framing::Framing;

const A: [u8; 4] = [10, 0, 0, 1];
const B: [u8; 4] = [239, 1, 2, 3];

fn udp_frame(src_port: u16, dst_port: u16, payload: &[u8]) -> Vec<u8> {
    ethernet(
        &[],
        0x0800,
        &ipv4(A, B, 17, &udp(src_port, dst_port, payload)),
    )
}

/// An MDP 3.0 packet of `messages`.
fn mdp3_packet(seq: u32, messages: &[Vec<u8>]) -> Vec<u8> {
    let mut packet = sable_framing::mdp3_packet_header(seq, 1000 + u64::from(seq)).to_vec();
    for m in messages {
        packet.extend_from_slice(&((m.len() + 2) as u16).to_le_bytes());
        packet.extend_from_slice(m);
    }
    packet
}

/// (offset, timestamp, data) of every packet, or the error's kind.
type Seen = Vec<Result<(usize, u64, Vec<u8>), ErrorKind>>;

fn from_memory(file: &[u8]) -> Seen {
    Capture::parse(file)
        .unwrap()
        .packets()
        .map(|p| {
            p.map(|p| (p.offset, p.timestamp_ns, p.data.to_vec()))
                .map_err(|e| e.kind)
        })
        .collect()
}

fn from_stream(pieces: &[&[u8]]) -> Seen {
    let mut stream = CaptureStream::new();
    let mut seen = Vec::new();
    let mut take = |item: Result<sable_framing::capture::Packet<'_>, _>| {
        seen.push(
            item.map(|p| (p.offset, p.timestamp_ns, p.data.to_vec()))
                .map_err(|e: sable_framing::capture::CaptureError| e.kind),
        )
    };
    for piece in pieces {
        stream.extend(piece);
        while let Some(item) = stream.next_packet() {
            take(item);
        }
    }
    while let Some(item) = stream.finish() {
        take(item);
    }
    seen
}

#[test]
fn a_capture_in_pieces_gives_the_packets_of_the_whole_file() {
    let pcap = Pcap::new(1)
        .packet(5, udp_frame(1, 2, b"one"))
        .packet(6, udp_frame(1, 2, b"two, longer"))
        .build();
    let mut ng = PcapNg::new(false);
    ng.interface(1, Some(9));
    ng.enhanced(0, 7, &udp_frame(1, 2, b"three"));
    ng.unknown();
    ng.simple(&udp_frame(1, 2, b"four"));
    for file in [pcap, ng.out] {
        let whole = from_memory(&file);
        assert_eq!(whole.iter().filter(|p| p.is_ok()).count(), 2);
        for i in 0..=file.len() {
            for j in i..=file.len() {
                let pieces = [&file[..i], &file[i..j], &file[j..]];
                assert_eq!(from_stream(&pieces), whole, "split at {i} and {j}");
            }
        }
    }
    // Too short for any capture, and not a capture.
    assert_eq!(
        from_stream(&[b"\xD4\xC3\xB2\xA1\x02\x00"]),
        vec![Err(ErrorKind::Format)]
    );
    assert_eq!(from_stream(&[&[7; 100]]), vec![Err(ErrorKind::Format)]);
    assert_eq!(from_stream(&[]), vec![Err(ErrorKind::Format)]);
}

#[test]
fn a_record_bigger_than_the_bound_stops_reading() {
    let file = Pcap::new(1).packet(5, udp_frame(1, 2, &[0; 3000])).build();
    let mut stream = CaptureStream::new().with_max_record_len(1024);
    stream.extend(&file[..100]);
    let item = stream.next_packet().expect("an error");
    let error = item.unwrap_err();
    assert_eq!((error.kind, error.offset), (ErrorKind::Format, 24));
    assert!(error.message.contains("larger than"), "{}", error.message);
    assert!(stream.is_done());
}

#[test]
fn the_complete_messages_of_a_cut_last_record_are_decoded() {
    let messages = [message(20, 1), message(30, 2), message(40, 3)];
    let packet = mdp3_packet(9, &messages);
    let file = Pcap::new(1).packet(5, udp_frame(1, 2, &packet)).build();
    // Cut inside the third message.
    let cut = &file[..file.len() - 10];
    let got: Vec<_> = Capture::parse(cut)
        .unwrap()
        .messages(
            Filter::default(),
            Framing::Mdp3,
            sable_framing::framing::no_length,
        )
        .map(|m| m.map(|m| m.bytes.into_owned()).map_err(|e| e.kind))
        .collect();
    assert_eq!(
        got,
        vec![
            Ok(messages[0].clone()),
            Ok(messages[1].clone()),
            Err(ErrorKind::Frame),
            Err(ErrorKind::Format)
        ]
    );
    // The same from a stream: the packet's captured bytes, then the error.
    let seen = from_stream(&[cut]);
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].as_ref().unwrap().2.len(), cut.len() - 24 - 16);
    assert_eq!(seen[1], Err(ErrorKind::Format));
}

#[test]
fn mdp3_sequence_gaps_and_repeats_are_reported_per_flow() {
    let m = message(4, 1);
    let mut file = Pcap::new(1);
    // Flow 1 -> 2: 1, 2, 5 (a gap of 2), 5 (a repeat), 3 (out of order), 6.
    // Flow 3 -> 2: 1, 2 (its own numbers: no gap).
    for (ts, (port, seq)) in [
        (1, 1),
        (1, 2),
        (3, 1),
        (1, 5),
        (1, 5),
        (3, 2),
        (1, 3),
        (1, 6),
    ]
    .into_iter()
    .enumerate()
    {
        let frame = udp_frame(port, 2, &mdp3_packet(seq, std::slice::from_ref(&m)));
        file = file.packet(ts as u64, frame);
    }
    let file = file.build();
    let capture = Capture::parse(&file).unwrap();
    let mut messages = capture.messages(
        Filter::default(),
        Framing::Mdp3,
        sable_framing::framing::no_length,
    );
    let mut problems = Vec::new();
    let mut decoded = 0;
    for item in messages.by_ref() {
        match item {
            Ok(_) => decoded += 1,
            Err(e) => {
                assert_eq!(e.kind, ErrorKind::Sequence);
                problems.push(e.message);
            }
        }
    }
    assert_eq!(decoded, 8, "every packet's message is still decoded");
    assert_eq!(
        problems,
        vec![
            "MDP 3.0 sequence gap: 2 packets missing (expected 3, got 5)",
            "MDP 3.0 sequence number 5 repeated",
            "MDP 3.0 sequence number 3 comes after 5: a repeat or out of order",
        ]
    );
    let counts = messages.sequence();
    assert_eq!((counts.gaps, counts.missing, counts.repeats), (1, 2, 2));
}

#[test]
fn skipped_packets_are_counted_by_reason() {
    let arp = ethernet(&[], 0x0806, &[0; 28]);
    let icmp = ethernet(&[], 0x0800, &ipv4(A, B, 1, &[8, 0, 0, 0]));
    let fragment = ethernet(
        &[],
        0x0800,
        &ipv4_full(A, B, 17, &[], 0x2000, &udp(1, 2, b"x")),
    );
    let malformed = ethernet(&[], 0x0800, &[0x4F, 0, 0, 20]); // a 60-byte IPv4 header in 46
    let file = Pcap::new(1)
        .packet(1, arp)
        .packet(2, icmp)
        .packet(3, udp_frame(1, 9, b"other port"))
        .packet(4, udp_frame(1, 2, b"kept"))
        .packet(5, fragment)
        .packet(6, malformed)
        .build();
    let filter = Filter {
        port: Some(2),
        ..Filter::default()
    };
    let capture = Capture::parse(&file).unwrap();
    let mut payloads = capture.payloads(filter);
    let kept: Vec<_> = payloads.by_ref().filter_map(Result::ok).collect();
    assert_eq!(kept.len(), 1);
    let skipped = payloads.skipped();
    assert_eq!(
        skipped,
        Skipped {
            not_ip: 1,
            other_protocol: 1,
            filtered: 1,
            fragment: 1,
            malformed: 1,
            unsupported: 0
        }
    );
    assert_eq!(skipped.total(), 5);
    assert_eq!(
        skipped.reasons()[0],
        (1, "of flows the filter rejects (--port)")
    );
}

#[test]
fn waiting_tcp_segments_are_bounded_across_streams() {
    let mut reassembler = TcpReassembler::new().with_total_bound(1000);
    let mut gaps = 0;
    // Many connections, each with a hole before 400 waiting bytes.
    for port in 0..10u16 {
        let flow = Flow {
            protocol: sable_framing::capture::Protocol::Tcp,
            src: std::net::SocketAddr::from((A, 1000 + port)),
            dst: std::net::SocketAddr::from((B, 80)),
        };
        for (seq, data) in [(100u32, &[1u8; 10][..]), (200, &[2; 400][..])] {
            let events = reassembler.push(TcpSegment {
                flow,
                seq,
                syn: false,
                data,
                timestamp_ns: 0,
                packet_offset: 0,
            });
            gaps += events
                .iter()
                .filter(|e| matches!(e, StreamEvent::Gap { .. }))
                .count();
        }
    }
    // At most 1000 bytes wait: two streams' 400 each; the others gave up their holes.
    assert_eq!(gaps, 8);
}

mod common;

use common::*;
use sable_framing::capture::{link_type, Capture, ErrorKind, Filter, Format, Protocol};
use sable_framing::{FrameMeta, Framing};

const A: [u8; 4] = [10, 0, 0, 1];
const B: [u8; 4] = [239, 1, 2, 3];
const A6: [u8; 16] = [0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
const B6: [u8; 16] = [0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2];

/// UDP payloads of a capture, as (timestamp, payload), with errors' kinds.
fn udp_payloads(file: &[u8]) -> Vec<Result<(u64, Vec<u8>), ErrorKind>> {
    Capture::parse(file)
        .unwrap()
        .payloads(Filter::default())
        .map(|p| {
            p.map(|p| (p.timestamp_ns, p.data.to_vec()))
                .map_err(|e| e.kind)
        })
        .collect()
}

#[test]
fn every_link_type_and_ip_version() {
    let payload = b"hello sbe".to_vec();
    let v4 = ipv4_full(
        A,
        B,
        17,
        &[1, 1, 1, 0, 0x94, 4, 0, 0],
        0x4000,
        &udp(1, 2, &payload),
    );
    let v6 = ipv6(A6, B6, 17, &udp(1, 2, &payload));
    let cases: Vec<(u32, Vec<u8>)> = vec![
        (1, ethernet(&[], 0x0800, &v4)),
        (1, ethernet(&[], 0x86DD, &v6)),
        (1, ethernet(&[(0x8100, 5)], 0x0800, &v4)),
        (1, ethernet(&[(0x88A8, 5), (0x8100, 6)], 0x86DD, &v6)),
        (113, sll(0x0800, &v4)),
        (113, sll(0x86DD, &v6)),
        (276, sll2(0x0800, &v4)),
        (276, sll2(0x86DD, &v6)),
        (101, v4.clone()),
        (101, v6.clone()),
        (228, v4.clone()),
        (229, v6.clone()),
        (0, [2u32.to_le_bytes().to_vec(), v4.clone()].concat()),
        (108, [30u32.to_be_bytes().to_vec(), v6.clone()].concat()),
    ];
    for (lt, frame) in cases {
        let file = Pcap::new(lt)
            .packet(1_500_000_000_000_001_000, frame)
            .build();
        assert_eq!(
            udp_payloads(&file),
            vec![Ok((1_500_000_000_000_001_000, payload.clone()))],
            "link type {lt}"
        );
    }
    // The flow is decoded.
    let file = Pcap::new(1).packet(0, ethernet(&[], 0x86DD, &v6)).build();
    let p = Capture::parse(&file)
        .unwrap()
        .payloads(Filter::default())
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(p.flow.to_string(), "udp [fe80::1]:1 -> [ff02::2]:2");
    assert_eq!(p.packet_offset, 24);
    assert_eq!(p.stream_offset, None);
}

#[test]
fn non_ip_unsupported_malformed_and_fragments() {
    let good = ethernet(&[], 0x0800, &ipv4(A, B, 17, &udp(1, 2, b"x")));
    let file = Pcap::new(1)
        .packet(1, ethernet(&[], 0x0806, &[0; 28])) // ARP: ignored
        .packet(2, ethernet(&[], 0x0800, &ipv4(A, B, 1, &[8, 0, 0, 0]))) // ICMP: ignored
        .packet(
            3,
            ethernet(
                &[],
                0x0800,
                &ipv4_full(A, B, 17, &[], 0x2000, &udp(1, 2, b"frag")),
            ),
        )
        .packet(
            4,
            ethernet(&[], 0x0800, &ipv4_full(A, B, 17, &[], 0x0010, b"rest")),
        )
        .packet(5, ethernet(&[], 0x0800, &[0x4F, 0, 0, 60])) // IPv4 header past the end
        .packet(6, good.clone())
        .build();
    assert_eq!(
        udp_payloads(&file),
        vec![
            Err(ErrorKind::Fragment),
            Err(ErrorKind::Fragment),
            Err(ErrorKind::Packet),
            Ok((6, b"x".to_vec()))
        ]
    );
    // IPv6 fragment header.
    let mut frag = vec![17, 0, 0, 1, 0, 0, 0, 7]; // offset 0, more fragments
    frag.extend_from_slice(&udp(1, 2, b"frag"));
    let v6 = ipv6(A6, B6, 44, &frag);
    let file = Pcap::new(101).packet(0, v6).build();
    assert_eq!(udp_payloads(&file), vec![Err(ErrorKind::Fragment)]);
    // An unsupported link type.
    let file = Pcap::new(147).packet(0, good).build();
    assert_eq!(udp_payloads(&file), vec![Err(ErrorKind::Unsupported)]);
}

#[test]
fn pcap_byte_orders_and_resolutions() {
    let frame = ethernet(&[], 0x0800, &ipv4(A, B, 17, &udp(1, 2, b"abc")));
    for big_endian in [false, true] {
        for nanosecond in [false, true] {
            let mut pcap = Pcap::new(1).packet(1_000_000_123_456_789, frame.clone());
            pcap.big_endian = big_endian;
            pcap.nanosecond = nanosecond;
            let file = pcap.build();
            let capture = Capture::parse(&file).unwrap();
            assert_eq!(
                capture.format(),
                Format::Pcap {
                    big_endian,
                    nanosecond,
                    link_type: 1
                }
            );
            let ts = if nanosecond {
                1_000_000_123_456_789
            } else {
                1_000_000_123_456_000
            };
            assert_eq!(udp_payloads(&file), vec![Ok((ts, b"abc".to_vec()))]);
        }
    }
    assert_eq!(Capture::parse(b"nope").unwrap_err().kind, ErrorKind::Format);
    assert!(Capture::parse(&[]).is_err());
}

#[test]
fn pcapng_sections_interfaces_and_blocks() {
    let frame = |s: &[u8]| ethernet(&[], 0x0800, &ipv4(A, B, 17, &udp(1, 2, s)));
    for big_endian in [false, true] {
        let mut ng = PcapNg::new(big_endian);
        ng.interface(1, None); // microseconds
        ng.interface(101, Some(9)); // nanoseconds
        ng.interface(113, Some(0x80 | 10)); // 1/1024 s
        ng.unknown();
        ng.enhanced(0, 5_000_001, &frame(b"one"));
        ng.enhanced(1, 7_000_000_002, &ipv4(A, B, 17, &udp(1, 2, b"two")));
        ng.enhanced(
            2,
            3 * 1024 + 512,
            &sll(0x0800, &ipv4(A, B, 17, &udp(1, 2, b"three"))),
        );
        ng.simple(&frame(b"four"));
        // A second section in the other byte order, with its own interfaces.
        let mut other = PcapNg::new(!big_endian);
        other.interface(228, Some(3));
        other.enhanced(0, 9, &ipv4(A, B, 17, &udp(1, 2, b"five")));
        ng.out.extend_from_slice(&other.out);
        assert_eq!(Capture::parse(&ng.out).unwrap().format(), Format::PcapNg);
        assert_eq!(
            udp_payloads(&ng.out),
            vec![
                Ok((5_000_001_000, b"one".to_vec())),
                Ok((7_000_000_002, b"two".to_vec())),
                Ok((3_500_000_000, b"three".to_vec())),
                Ok((3_500_000_000, b"four".to_vec())),
                Ok((9_000_000, b"five".to_vec())),
            ],
            "big endian {big_endian}"
        );
    }
    // A packet on an interface that does not exist.
    let mut ng = PcapNg::new(false);
    ng.enhanced(0, 0, &frame(b"x"));
    assert_eq!(udp_payloads(&ng.out), vec![Err(ErrorKind::Packet)]);
}

#[test]
fn truncation_at_every_offset_never_panics() {
    let frame = |s: &[u8]| ethernet(&[(0x8100, 1)], 0x0800, &ipv4(A, B, 17, &udp(1, 2, s)));
    let tcp_frame = |seq, s: &[u8]| ethernet(&[], 0x0800, &ipv4(A, B, 6, &tcp(1, 2, seq, ACK, s)));
    let pcap = Pcap::new(1)
        .packet(1, frame(b"first"))
        .packet(2, tcp_frame(100, b"abc"))
        .packet(3, tcp_frame(110, b"def"))
        .packet(
            4,
            ethernet(&[], 0x86DD, &ipv6(A6, B6, 17, &udp(1, 2, b"v6"))),
        );
    let file = pcap.build();
    let boundaries = pcap.boundaries();
    for cut in 0..=file.len() {
        match Capture::parse(&file[..cut]) {
            Err(_) => assert!(cut < 24),
            Ok(capture) => {
                let items: Vec<_> = capture.payloads(Filter::default()).collect();
                let messages: Vec<_> = capture
                    .messages(Filter::default(), Framing::Sofh, |_: &[u8]| Ok(1))
                    .collect();
                let format_error = items
                    .iter()
                    .any(|i| matches!(i, Err(e) if e.kind == ErrorKind::Format));
                assert_eq!(format_error, !boundaries.contains(&cut), "cut {cut}");
                let format_errors = |kinds: Vec<ErrorKind>| {
                    kinds.iter().filter(|&&k| k == ErrorKind::Format).count()
                };
                assert_eq!(
                    format_errors(
                        messages
                            .iter()
                            .filter_map(|m| m.as_ref().err())
                            .map(|e| e.kind)
                            .collect()
                    ),
                    usize::from(format_error),
                    "cut {cut}"
                );
            }
        }
    }
    // Corrupting every byte never panics either.
    for at in 0..file.len() {
        let mut bad = file.clone();
        bad[at] ^= 0xFF;
        if let Ok(capture) = Capture::parse(&bad) {
            let _ = capture.payloads(Filter::default()).count();
            let _ = capture
                .messages(Filter::default(), Framing::Raw, message_length)
                .count();
        }
    }
    let mut ng = PcapNg::new(true);
    ng.interface(1, Some(6));
    ng.enhanced(0, 1, &frame(b"first"));
    ng.simple(&tcp_frame(100, b"abc"));
    for cut in 0..ng.out.len() {
        if let Ok(capture) = Capture::parse(&ng.out[..cut]) {
            let items: Vec<_> = capture.payloads(Filter::default()).collect();
            if !ng.boundaries.contains(&cut) {
                assert!(items.iter().any(Result::is_err), "cut {cut}");
            }
        }
        let mut bad = ng.out.clone();
        bad[cut] ^= 0xFF;
        if let Ok(capture) = Capture::parse(&bad) {
            let _ = capture.payloads(Filter::default()).count();
        }
    }
}

/// A TCP conversation (client 10.0.0.1:40000 -> server 239.1.2.3:9000, both directions) as
/// Ethernet frames.
fn tcp_frame(from_client: bool, seq: u32, flags: u8, payload: &[u8]) -> Vec<u8> {
    let (src, dst, sp, dp) = if from_client {
        (A, B, 40000, 9000)
    } else {
        (B, A, 9000, 40000)
    };
    ethernet(
        &[],
        0x0800,
        &ipv4(src, dst, 6, &tcp(sp, dp, seq, flags, payload)),
    )
}

fn sofh_stream(n: u8) -> (Vec<Vec<u8>>, Vec<u8>) {
    let msgs: Vec<Vec<u8>> = (0..n).map(|i| message(10 + i as u16, i)).collect();
    let stream = msgs.iter().flat_map(|m| sofh(m)).collect();
    (msgs, stream)
}

type Got = Vec<Result<(u64, Vec<u8>), ErrorKind>>;

fn tcp_messages(file: &[u8], filter: Filter) -> Got {
    Capture::parse(file)
        .unwrap()
        .messages(filter, Framing::Sofh, framing_no_length)
        .map(|m| {
            m.map(|m| (m.timestamp_ns, m.bytes.into_owned()))
                .map_err(|e| e.kind)
        })
        .collect()
}

fn framing_no_length(_: &[u8]) -> Result<usize, String> {
    Err("unused".into())
}

#[test]
fn tcp_segments_split_mid_message() {
    let (msgs, stream) = sofh_stream(4);
    let isn = u32::MAX - 20; // sequence numbers wrap inside the stream
    let mut pcap = Pcap::new(1).packet(1, tcp_frame(true, isn, SYN, b""));
    pcap = pcap.packet(2, tcp_frame(false, 7, SYN | ACK, b""));
    let cuts = [0, 5, 17, 40, stream.len()];
    for (i, w) in cuts.windows(2).enumerate() {
        let seq = isn.wrapping_add(1 + w[0] as u32);
        pcap = pcap.packet(
            10 + i as u64,
            tcp_frame(true, seq, ACK | PSH, &stream[w[0]..w[1]]),
        );
        // Server replies interleave: a different flow.
        pcap = pcap.packet(10 + i as u64, tcp_frame(false, 8, ACK, b""));
    }
    let file = pcap.build();
    let got = tcp_messages(&file, Filter::default());
    // Each message has the timestamp of the segment where it ends.
    let ends: Vec<usize> = msgs
        .iter()
        .scan(0, |at, m| {
            *at += m.len() + 6;
            Some(*at - 1)
        })
        .collect();
    let expected: Got = msgs
        .iter()
        .zip(&ends)
        .map(|(m, &end)| {
            let segment = cuts
                .windows(2)
                .position(|w| end >= w[0] && end < w[1])
                .unwrap();
            Ok((10 + segment as u64, m.clone()))
        })
        .collect();
    assert_eq!(got, expected);
    // The payloads carry stream offsets.
    let payloads: Vec<_> = Capture::parse(&file)
        .unwrap()
        .payloads(Filter {
            protocol: Some(Protocol::Tcp),
            port: Some(9000),
            host: None,
        })
        .map(Result::unwrap)
        .map(|p| p.stream_offset.unwrap())
        .collect();
    assert_eq!(payloads, vec![0, 5, 17, 40]);
    // A filter that matches nothing.
    let none = Filter {
        protocol: Some(Protocol::Udp),
        ..Filter::default()
    };
    assert!(tcp_messages(&file, none).is_empty());
}

#[test]
fn tcp_out_of_order_and_retransmitted() {
    let (msgs, stream) = sofh_stream(3);
    let seg = |at: usize, end: usize| tcp_frame(true, 1000 + at as u32, ACK, &stream[at..end]);
    let n = stream.len();
    let file = Pcap::new(1)
        .packet(1, seg(0, 10))
        .packet(2, seg(30, n)) // early
        .packet(3, seg(20, 35)) // early, overlapping the one before
        .packet(4, seg(0, 10)) // duplicate
        .packet(5, seg(5, 20)) // fills the hole, partly a retransmission
        .packet(6, seg(30, n)) // retransmission of delivered bytes
        .build();
    let got = tcp_messages(&file, Filter::default());
    // Message ends: msgs[0] ends at 16+6-1 = 21, in segment 20..35 (ts 3); msgs[1] (17 bytes
    // + 6) ends at 45, in segment 30..n (ts 2); msgs[2] ends at n-1 (ts 2).
    assert_eq!(
        got,
        vec![
            Ok((3, msgs[0].clone())),
            Ok((2, msgs[1].clone())),
            Ok((2, msgs[2].clone()))
        ]
    );
    let data: Vec<u8> = Capture::parse(&file)
        .unwrap()
        .payloads(Filter::default())
        .flat_map(|p| p.unwrap().data.to_vec())
        .collect();
    assert_eq!(data, stream);
}

#[test]
fn tcp_gap_is_reported_then_resumed() {
    let (msgs, stream) = sofh_stream(3);
    let b0 = msgs[0].len() + 6;
    let b1 = b0 + msgs[1].len() + 6;
    let seg = |at: usize, end: usize| tcp_frame(true, 5000 + at as u32, ACK, &stream[at..end]);
    // The middle of the second message is never captured.
    let file = Pcap::new(1)
        .packet(1, seg(0, b0 + 4))
        .packet(2, seg(b0 + 8, b1))
        .packet(3, seg(b1, stream.len()))
        .build();
    let got = tcp_messages(&file, Filter::default());
    assert_eq!(got[0], Ok((1, msgs[0].clone())));
    assert!(got.contains(&Err(ErrorKind::Gap)), "{got:?}");
    assert_eq!(got.last(), Some(&Ok((3, msgs[2].clone()))), "{got:?}");
    // With a small bound, the gap is reported before the end of the capture.
    let capture = Capture::parse(&file).unwrap();
    let reassembler = sable_framing::capture::TcpReassembler::new().with_bounds(1, 1 << 20);
    let items: Vec<_> = capture
        .payloads_with(Filter::default(), reassembler)
        .collect();
    assert!(matches!(&items[1], Err(e) if e.kind == ErrorKind::Gap && e.offset > 24));
    let offsets: Vec<_> = items
        .iter()
        .filter_map(|i| i.as_ref().ok())
        .map(|p| p.stream_offset)
        .collect();
    assert_eq!(offsets, vec![Some(0), Some(b0 as u64 + 8), Some(b1 as u64)]);
}

#[test]
fn udp_messages_with_mdp3_and_tcp_unsupported() {
    let (a, b) = (message(3, 1), message(4, 2));
    let mut packet = 77u32.to_le_bytes().to_vec();
    packet.extend_from_slice(&123u64.to_le_bytes());
    for m in [&a, &b] {
        packet.extend_from_slice(&((m.len() + 2) as u16).to_le_bytes());
        packet.extend_from_slice(m);
    }
    let file = Pcap::new(1)
        .packet(
            9,
            ethernet(&[], 0x0800, &ipv4(A, B, 17, &udp(1, 2, &packet))),
        )
        .packet(10, tcp_frame(true, 1, ACK, b"xx"))
        .packet(11, tcp_frame(true, 3, ACK, b"yy"))
        .build();
    let got: Vec<_> = Capture::parse(&file)
        .unwrap()
        .messages(Filter::default(), Framing::Mdp3, framing_no_length)
        .collect();
    assert_eq!(got.len(), 3);
    let m = got[1].as_ref().unwrap();
    assert_eq!(
        (m.timestamp_ns, &m.bytes[..], m.offset),
        (9, &b[..], 16 + a.len() as u64)
    );
    assert_eq!(
        m.meta,
        Some(FrameMeta::Mdp3 {
            sequence_number: 77,
            sending_time_ns: 123
        })
    );
    assert_eq!(got[2].as_ref().unwrap_err().kind, ErrorKind::Unsupported);
    let _ = link_type::ETHERNET;
}

#[test]
fn reassembler_used_directly() {
    use sable_framing::capture::{Flow, StreamEvent, TcpReassembler, TcpSegment};
    let flow = Flow {
        protocol: Protocol::Tcp,
        src: "10.0.0.1:1".parse().unwrap(),
        dst: "10.0.0.2:2".parse().unwrap(),
    };
    let seg = |seq, syn, data: &'static [u8], ts| TcpSegment {
        flow,
        seq,
        syn,
        data,
        timestamp_ns: ts,
        packet_offset: ts as usize,
    };
    let mut r = TcpReassembler::new();
    let data = |events: Vec<StreamEvent<'_>>| -> Vec<(Vec<u8>, u64)> {
        events
            .into_iter()
            .map(|e| match e {
                StreamEvent::Data(p) => (p.data.to_vec(), p.timestamp_ns),
                StreamEvent::Gap { missing, .. } => (b"gap".to_vec(), missing),
            })
            .collect()
    };
    // SYN carrying data (TCP fast open): the data starts after the SYN's sequence number.
    assert_eq!(
        data(r.push(seg(99, true, b"ab", 1))),
        vec![(b"ab".to_vec(), 1)]
    );
    assert!(r.push(seg(104, false, b"ef", 2)).is_empty());
    assert_eq!(
        data(r.push(seg(102, false, b"cd", 3))),
        vec![(b"cd".to_vec(), 3), (b"ef".to_vec(), 2)]
    );
    assert!(r.push(seg(100, false, b"abcd", 4)).is_empty());
    assert!(r.push(seg(110, false, b"kl", 5)).is_empty());
    // A new SYN on the same flow: the waiting bytes are flushed behind a gap, then a new stream.
    assert_eq!(
        data(r.push(seg(5000, true, b"", 6))),
        vec![(b"gap".to_vec(), 4), (b"kl".to_vec(), 5)]
    );
    let events = r.push(seg(5001, false, b"new", 7));
    assert!(matches!(&events[0], StreamEvent::Data(p) if p.stream_offset == Some(0)));
    assert!(r.finish().is_empty());
}

mod common;

use common::{message, message_length, sofh};
use sable_framing::framing::{self, no_length, StreamFramer};
use sable_framing::{Endian, FrameMeta, Framing, LengthPrefix};

fn oks<'a, I: Iterator<Item = Result<sable_framing::Frame<'a>, sable_framing::FrameError>>>(
    it: I,
) -> Vec<Result<(usize, Vec<u8>), usize>> {
    it.map(|r| {
        r.map(|f| (f.offset, f.bytes.to_vec()))
            .map_err(|e| e.offset)
    })
    .collect()
}

#[test]
fn raw_frames_back_to_back_and_stops_at_an_error() {
    let (a, b) = (message(3, 0xAA), message(0, 0xBB));
    let mut data = [a.clone(), b.clone()].concat();
    let frames = oks(framing::raw(&data, message_length));
    assert_eq!(frames, vec![Ok((0, a.clone())), Ok((11, b.clone()))]);
    // A length past the end: an error at that message, then nothing.
    data.extend_from_slice(&message(100, 1)[..20]);
    data.extend_from_slice(&a);
    let frames = oks(framing::raw(&data, message_length));
    assert_eq!(frames.len(), 3);
    assert_eq!(frames[2], Err(19));
    // Too short to size: an error at the end of the input.
    let frames: Vec<_> = framing::raw(&[1, 2, 3], message_length).collect();
    assert_eq!(frames.len(), 1);
    assert!(frames[0]
        .as_ref()
        .unwrap_err()
        .message
        .contains("needs 8 bytes but only 3 remain"));
    // A length function error.
    let frames: Vec<_> =
        framing::raw(&[1, 2, 3], |_: &[u8]| Err("not a message".to_owned())).collect();
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0].as_ref().unwrap_err().message, "not a message");
    // A zero length never loops.
    let frames: Vec<_> = framing::raw(&[0; 10], |_: &[u8]| Ok(0)).collect();
    assert_eq!(frames.len(), 1);
    assert!(frames[0].is_err());
}

#[test]
fn sofh_frames_with_encoding_type() {
    let (a, b) = (message(2, 1), message(4, 2));
    let mut data = sofh(&a);
    let mut big = sofh(&b);
    big[4..6].copy_from_slice(&0xEB50u16.to_be_bytes());
    data.extend_from_slice(&big);
    let frames: Vec<_> = framing::sofh(&data).map(Result::unwrap).collect();
    assert_eq!(frames.len(), 2);
    assert_eq!((frames[0].offset, frames[0].bytes), (6, &a[..]));
    assert_eq!(
        frames[0].meta,
        Some(FrameMeta::Sofh {
            encoding_type: 0x5BE0
        })
    );
    assert_eq!(
        (frames[1].offset, frames[1].bytes),
        (6 + a.len() + 6, &b[..])
    );
    assert_eq!(
        frames[1].meta,
        Some(FrameMeta::Sofh {
            encoding_type: 0xEB50
        })
    );
}

#[test]
fn sofh_skips_unknown_encodings_and_resynchronises_after_lying_lengths() {
    let (a, b, c) = (message(2, 1), message(4, 2), message(1, 3));
    let mut other = sofh(&b);
    other[4..6].copy_from_slice(&0x1234u16.to_be_bytes());
    let data = [sofh(&a), other.clone(), sofh(&c)].concat();
    let frames = oks(framing::sofh(&data));
    let c_at = sofh(&a).len() + other.len();
    assert_eq!(
        frames,
        vec![
            Ok((6, a.clone())),
            Err(sofh(&a).len()),
            Ok((c_at + 6, c.clone()))
        ]
    );
    let error = framing::sofh(&data).nth(1).unwrap().unwrap_err();
    assert!(error.message.contains("0x1234"), "{error}");

    // A length smaller than the header, then one past the end: each an error, then the next
    // plausible header.
    let mut lying = sofh(&a);
    lying[..4].copy_from_slice(&3u32.to_be_bytes());
    let data = [lying.clone(), sofh(&c)].concat();
    assert_eq!(
        oks(framing::sofh(&data)),
        vec![Err(0), Ok((lying.len() + 6, c.clone()))]
    );
    let mut lying = sofh(&a);
    lying[..4].copy_from_slice(&1000u32.to_be_bytes());
    let data = [lying.clone(), sofh(&c)].concat();
    assert_eq!(
        oks(framing::sofh(&data)),
        vec![Err(0), Ok((lying.len() + 6, c.clone()))]
    );
    // Truncated at every length: never a panic, an error when incomplete.
    let data = [sofh(&a), sofh(&c)].concat();
    for cut in 0..data.len() {
        let frames = oks(framing::sofh(&data[..cut]));
        if cut != 0 && cut != sofh(&a).len() {
            assert!(frames.iter().any(Result::is_err), "cut {cut}");
        }
    }
}

#[test]
fn length_prefix_parsing() {
    let p: LengthPrefix = "u16le".parse().unwrap();
    assert_eq!(
        (p.width, p.endian, p.inclusive, p.skip),
        (2, Endian::Little, false, 0)
    );
    let p: LengthPrefix = "u32be+inclusive".parse().unwrap();
    assert_eq!(
        (p.width, p.endian, p.inclusive, p.skip),
        (4, Endian::Big, true, 0)
    );
    let p: LengthPrefix = "U64LE+skip3+inclusive".parse().unwrap();
    assert_eq!(
        (p.width, p.endian, p.inclusive, p.skip),
        (8, Endian::Little, true, 3)
    );
    assert_eq!(p.to_string(), "u64le+inclusive+skip3");
    assert_eq!("u8".parse::<LengthPrefix>().unwrap().width, 1);
    for bad in ["u24le", "u16", "u16le+exclusive", "u16le+skipx", ""] {
        assert!(bad.parse::<LengthPrefix>().is_err(), "{bad}");
    }
    for (s, f) in [
        ("raw", Framing::Raw),
        ("sofh", Framing::Sofh),
        ("mdp3", Framing::Mdp3),
        ("u16le", Framing::LengthPrefixed("u16le".parse().unwrap())),
        (
            "length-prefixed:u32be",
            Framing::LengthPrefixed("u32be".parse().unwrap()),
        ),
    ] {
        assert_eq!(s.parse::<Framing>().unwrap(), f);
        assert_eq!(f.to_string().parse::<Framing>().unwrap(), f);
    }
    assert!("nope".parse::<Framing>().is_err());
}

fn prefixed(prefix: &LengthPrefix, msg: &[u8]) -> Vec<u8> {
    let mut len = msg.len() as u64;
    if prefix.inclusive {
        len += prefix.header_len() as u64;
    }
    let bytes = len.to_le_bytes();
    let mut field = bytes[..prefix.width as usize].to_vec();
    if prefix.endian == Endian::Big {
        field.reverse();
    }
    field.extend(std::iter::repeat(0xEE).take(prefix.skip));
    field.extend_from_slice(msg);
    field
}

#[test]
fn length_prefixed_every_width_endianness_and_option() {
    let (a, b) = (message(5, 1), message(0, 2));
    for spec in [
        "u8",
        "u16le",
        "u16be",
        "u32le",
        "u32be",
        "u64le",
        "u64be",
        "u16le+inclusive",
        "u32be+inclusive+skip2",
        "u16be+skip4",
    ] {
        let prefix: LengthPrefix = spec.parse().unwrap();
        let h = prefix.header_len();
        let data = [prefixed(&prefix, &a), prefixed(&prefix, &b)].concat();
        assert_eq!(
            oks(framing::length_prefixed(&data, prefix)),
            vec![Ok((h, a.clone())), Ok((2 * h + a.len(), b.clone()))],
            "{spec}"
        );
        // A length past the end stops framing with an error at its offset.
        let mut lying = prefixed(&prefix, &a);
        lying[if prefix.endian == Endian::Big {
            prefix.width as usize - 1
        } else {
            0
        }] = 200;
        let data = [prefixed(&prefix, &b), lying, prefixed(&prefix, &b)].concat();
        assert_eq!(
            oks(framing::length_prefixed(&data, prefix)),
            vec![Ok((h, b.clone())), Err(h + b.len())],
            "{spec}"
        );
        for cut in 1..data.len() {
            let _ = oks(framing::length_prefixed(&data[..cut], prefix));
        }
    }
    // Inclusive length smaller than the prefix: an error, and framing stops.
    let prefix: LengthPrefix = "u16le+inclusive".parse().unwrap();
    let frames = oks(framing::length_prefixed(&[1, 0, 9, 9, 9], prefix));
    assert_eq!(frames, vec![Err(0)]);
    // An empty message is reported and skipped.
    let prefix: LengthPrefix = "u16le".parse().unwrap();
    let data = [vec![0, 0], prefixed(&prefix, &a)].concat();
    assert_eq!(
        oks(framing::length_prefixed(&data, prefix)),
        vec![Err(0), Ok((4, a.clone()))]
    );
    // The largest u64 length never overflows.
    let prefix: LengthPrefix = "u64le".parse().unwrap();
    let frames = oks(framing::length_prefixed(&[0xFF; 12], prefix));
    assert_eq!(frames, vec![Err(0)]);
}

fn mdp3_packet(seq: u32, time: u64, messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = seq.to_le_bytes().to_vec();
    out.extend_from_slice(&time.to_le_bytes());
    for m in messages {
        out.extend_from_slice(&((m.len() + 2) as u16).to_le_bytes());
        out.extend_from_slice(m);
    }
    out
}

#[test]
fn mdp3_packets() {
    let (a, b) = (message(3, 1), message(7, 2));
    let packet = mdp3_packet(42, 1_700_000_000_123_456_789, &[a.clone(), b.clone()]);
    let frames: Vec<_> = framing::mdp3(&packet).map(Result::unwrap).collect();
    assert_eq!(frames.len(), 2);
    assert_eq!((frames[0].offset, frames[0].bytes), (14, &a[..]));
    assert_eq!((frames[1].offset, frames[1].bytes), (16 + a.len(), &b[..]));
    let meta = Some(FrameMeta::Mdp3 {
        sequence_number: 42,
        sending_time_ns: 1_700_000_000_123_456_789,
    });
    assert!(frames.iter().all(|f| f.meta == meta));
    // Short packet, lying sizes.
    assert_eq!(oks(framing::mdp3(&packet[..11])), vec![Err(0)]);
    assert!(oks(framing::mdp3(&packet[..12])).is_empty());
    let mut lying = packet.clone();
    lying[12] = 1; // smaller than the size field itself
    assert_eq!(oks(framing::mdp3(&lying)), vec![Err(12)]);
    let mut lying = packet.clone();
    lying[12] = 0xF0; // past the end
    assert_eq!(oks(framing::mdp3(&lying)), vec![Err(12)]);
    for cut in 0..packet.len() {
        let frames = oks(framing::mdp3(&packet[..cut]));
        let complete = [12, 14 + a.len()].contains(&cut);
        assert_eq!(frames.iter().any(Result::is_err), !complete, "cut {cut}");
    }
}

#[test]
fn framing_frames_dispatches() {
    let a = message(3, 1);
    let data = sofh(&a);
    let frames: Vec<_> = Framing::Sofh.frames(&data, no_length).collect();
    assert_eq!(frames.len(), 1);
    let frames: Vec<_> = Framing::Raw.frames(&a, message_length).collect();
    assert_eq!(frames[0].as_ref().unwrap().bytes, &a[..]);
}

/// Pushing a stream in chunks split at every pair of positions gives the slice framing's frames,
/// with the timestamp of the chunk where each ends.
#[test]
fn stream_framer_matches_slice_framing_at_every_split() {
    let msgs = [message(3, 1), message(0, 2), message(9, 3)];
    for framing in [
        Framing::Raw,
        Framing::Sofh,
        "u16be+inclusive+skip1".parse().unwrap(),
    ] {
        let data: Vec<u8> = match framing {
            Framing::Raw => msgs.concat(),
            Framing::Sofh => msgs.iter().flat_map(|m| sofh(m)).collect(),
            Framing::LengthPrefixed(p) => msgs.iter().flat_map(|m| prefixed(&p, m)).collect(),
            Framing::Mdp3 => unreachable!(),
        };
        let expected: Vec<_> = framing
            .frames(&data, message_length)
            .map(|f| f.unwrap())
            .map(|f| {
                (
                    f.offset as u64,
                    f.bytes.to_vec(),
                    f.offset + f.bytes.len() - 1,
                )
            })
            .collect();
        assert_eq!(expected.len(), 3);
        for i in 0..=data.len() {
            for j in i..=data.len() {
                let mut framer = StreamFramer::new(framing, message_length).unwrap();
                let mut got = Vec::new();
                let chunks = [(&data[..i], 0usize), (&data[i..j], i), (&data[j..], j)];
                for (chunk, start) in chunks {
                    got.extend(framer.push(chunk, start as u64, start));
                }
                got.extend(framer.finish());
                let got: Vec<_> = got.into_iter().map(Result::unwrap).collect();
                assert_eq!(got.len(), 3, "{framing} split {i} {j}");
                for (g, (offset, bytes, last)) in got.iter().zip(&expected) {
                    assert_eq!((g.stream_offset, &g.bytes), (*offset, bytes));
                    let chunk_start = if *last < i {
                        0
                    } else if *last < j {
                        i
                    } else {
                        j
                    };
                    assert_eq!(g.timestamp_ns, chunk_start as u64, "{framing} {i} {j}");
                    assert_eq!(g.position, chunk_start);
                }
            }
        }
    }
}

#[test]
fn stream_framer_errors() {
    assert!(StreamFramer::new(Framing::Mdp3, no_length).is_err());
    // Leftover bytes at the end are an error.
    let mut framer = StreamFramer::new(Framing::Sofh, no_length).unwrap();
    let data = sofh(&message(4, 1));
    assert!(framer.push(&data[..7], 1, 1).is_empty());
    let end = framer.finish();
    assert_eq!(end.len(), 1);
    assert_eq!(end[0].as_ref().unwrap_err().stream_offset, 0);
    // A declared length over the bound.
    let prefix: LengthPrefix = "u32le".parse().unwrap();
    let mut framer = StreamFramer::new(Framing::LengthPrefixed(prefix), no_length)
        .unwrap()
        .with_max_frame_len(100);
    let out = framer.push(&[0xFF, 0xFF, 0, 0, 1, 2, 3], 0, 0);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].as_ref().unwrap_err().declared_len, Some(65_539));
    // After it stopped, bytes are dropped until a reset.
    assert!(framer.push(&[4, 0, 0, 0, 1, 2, 3, 4], 0, 0).is_empty());
    framer.reset(100);
    let out = framer.push(&[4, 0, 0, 0, 1, 2, 3, 4], 0, 0);
    assert_eq!(out[0].as_ref().unwrap().stream_offset, 104);
    // A raw message whose length function says it takes more than the bound fails at once,
    // its bytes not yet in; framing stops, keeping them.
    let mut raw = StreamFramer::new(Framing::Raw, |b: &[u8]| Ok(usize::from(b[0]) * 10))
        .unwrap()
        .with_max_frame_len(100);
    assert!(raw.push(&[5, 1, 2], 0, 0).is_empty(), "50 bytes: waits");
    let mut raw = StreamFramer::new(Framing::Raw, |b: &[u8]| Ok(usize::from(b[0]) * 10))
        .unwrap()
        .with_max_frame_len(100);
    let out = raw.push(&[11, 1, 2], 0, 0);
    let error = out[0].as_ref().unwrap_err();
    assert_eq!((error.stream_offset, error.declared_len), (0, Some(110)));
    assert!(error.message.contains("at least 110 bytes"), "{error}");
    assert!(raw.stopped());
    assert_eq!(raw.pending(), (0, &[11, 1, 2][..]));
    // SOFH resynchronises in a stream too.
    let mut framer = StreamFramer::new(Framing::Sofh, no_length).unwrap();
    let good = sofh(&message(2, 7));
    let out = framer.push(&[0, 0, 0, 2, 0x5B, 0xE0, 9, 9], 0, 0);
    assert_eq!(out.len(), 1);
    let out = framer.push(&good, 5, 5);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].as_ref().unwrap().bytes, message(2, 7));
}

/// Prefixes `msg` with CME's SOFH: a 2-byte little-endian length counting the 4-byte header,
/// then the encoding type 0xCAFE little-endian.
fn cme_sofh(msg: &[u8]) -> Vec<u8> {
    let mut out = ((msg.len() + 4) as u16).to_le_bytes().to_vec();
    out.extend_from_slice(&[0xFE, 0xCA]);
    out.extend_from_slice(msg);
    out
}

#[test]
fn sofh_reads_cmes_four_byte_little_endian_form_too() {
    let (a, b, c) = (message(3, 1), message(0, 2), message(9, 3));
    // CME's form, the standard's, CME's again: each told by its encoding type.
    let data = [cme_sofh(&a), sofh(&b), cme_sofh(&c)].concat();
    let frames: Vec<_> = framing::sofh(&data).map(Result::unwrap).collect();
    let got: Vec<_> = frames
        .iter()
        .map(|f| (f.offset, f.bytes.to_vec(), f.meta))
        .collect();
    let cme = Some(FrameMeta::Sofh {
        encoding_type: 0xCAFE,
    });
    let standard = Some(FrameMeta::Sofh {
        encoding_type: 0x5BE0,
    });
    let second = 4 + a.len();
    let third = second + 6 + b.len();
    assert_eq!(
        got,
        vec![
            (4, a.clone(), cme),
            (second + 6, b.clone(), standard),
            (third + 4, c.clone(), cme)
        ]
    );
    // The same through a stream, split at every point.
    for i in 0..=data.len() {
        let mut framer = StreamFramer::new(Framing::Sofh, no_length).unwrap();
        let mut got = framer.push(&data[..i], 0, 0);
        got.extend(framer.push(&data[i..], 0, 0));
        got.extend(framer.finish());
        let got: Vec<_> = got.into_iter().map(|f| f.unwrap().bytes).collect();
        assert_eq!(got, vec![a.clone(), b.clone(), c.clone()], "split at {i}");
    }
}

#[test]
fn cme_sofh_checks_the_encoding_type_and_resynchronises_after_a_bad_length() {
    let (a, b) = (message(5, 1), message(6, 2));
    // A header whose length is smaller than itself, then a good frame.
    let mut data = vec![2, 0, 0xFE, 0xCA, 9, 9, 9];
    data.extend_from_slice(&cme_sofh(&a));
    // A length past the end of the next frame, then another good frame.
    let mut lying = cme_sofh(&b);
    lying[0] = 200;
    data.extend_from_slice(&lying);
    data.extend_from_slice(&cme_sofh(&b));
    let frames: Vec<_> = framing::sofh(&data).collect();
    let oks: Vec<_> = frames
        .iter()
        .filter_map(|f| f.as_ref().ok())
        .map(|f| f.bytes.to_vec())
        .collect();
    assert_eq!(oks, vec![a.clone(), b.clone()], "{frames:?}");
    let errors: Vec<_> = frames.iter().filter_map(|f| f.as_ref().err()).collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].message.contains("smaller than the 4-byte header"));
    // An encoding type that is neither form: reported with both forms named.
    let mut data = cme_sofh(&a);
    data[3] = 0xCB;
    let frames: Vec<_> = framing::sofh(&data).collect();
    let error = frames[0].as_ref().unwrap_err();
    assert!(
        error.message.contains("nor CME's 0xCAFE"),
        "{}",
        error.message
    );
}

#[test]
fn guess_names_a_framing_that_fits_the_first_bytes() {
    let m = message(7, 1);
    assert_eq!(
        sable_framing::guess(&sofh(&m), message_length, Framing::Raw),
        Some(Framing::Sofh)
    );
    assert_eq!(
        sable_framing::guess(&cme_sofh(&m), message_length, Framing::Raw),
        Some(Framing::Sofh)
    );
    assert_eq!(
        sable_framing::guess(&m, message_length, Framing::Sofh),
        Some(Framing::Raw)
    );
    let u16le: LengthPrefix = "u16le".parse().unwrap();
    assert_eq!(
        sable_framing::guess(&prefixed(&u16le, &m), message_length, Framing::Sofh),
        Some(Framing::LengthPrefixed(u16le))
    );
    assert_eq!(
        sable_framing::guess(&[0xFF; 40], message_length, Framing::Raw),
        None
    );
}

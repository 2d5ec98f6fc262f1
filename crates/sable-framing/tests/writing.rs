//! What `Framing::message_prefix` writes, the framing reads back.

use sable_framing::framing::no_length;
use sable_framing::{mdp3_packet_header, FrameMeta, Framing, SofhForm};

fn messages() -> Vec<Vec<u8>> {
    vec![vec![1; 8], vec![2; 300], vec![3; 9]]
}

#[test]
fn every_stream_framing_reads_back_what_it_wrote() {
    for spec in [
        "sofh",
        "u8",
        "u16le",
        "u16be+inclusive",
        "u32le+skip2",
        "u64be+inclusive+skip3",
    ] {
        let framing: Framing = spec.parse().unwrap();
        let messages: Vec<Vec<u8>> = if spec == "u8" {
            vec![vec![1; 8], vec![2; 200]]
        } else {
            messages()
        };
        let mut stream = Vec::new();
        for m in &messages {
            framing.message_prefix(m.len(), false, &mut stream).unwrap();
            stream.extend_from_slice(m);
        }
        let read: Vec<Vec<u8>> = framing
            .frames(&stream, no_length)
            .map(|f| f.unwrap_or_else(|e| panic!("{spec}: {e}")).bytes.to_vec())
            .collect();
        assert_eq!(read, messages, "{spec}");
    }
}

#[test]
fn sofh_says_which_byte_order() {
    let mut out = Vec::new();
    Framing::Sofh.message_prefix(10, true, &mut out).unwrap();
    assert_eq!(out, [0, 0, 0, 16, 0xEB, 0x50]);
}

#[test]
fn cme_sofh_is_written_little_endian_with_cafe_and_reads_back() {
    let mut out = Vec::new();
    SofhForm::Cme.write(10, false, &mut out).unwrap();
    assert_eq!(out, [14, 0, 0xFE, 0xCA]);
    // Both forms in one stream: reading tells them apart frame by frame.
    let mut stream = Vec::new();
    for (i, m) in messages().iter().enumerate() {
        let form = if i % 2 == 0 {
            SofhForm::Cme
        } else {
            SofhForm::Standard
        };
        form.write(m.len(), false, &mut stream).unwrap();
        stream.extend_from_slice(m);
    }
    let frames: Vec<_> = Framing::Sofh
        .frames(&stream, no_length)
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        frames.iter().map(|f| f.bytes.to_vec()).collect::<Vec<_>>(),
        messages()
    );
    let types: Vec<_> = frames.iter().map(|f| f.meta).collect();
    assert_eq!(
        types,
        [0xCAFE, 0x5BE0, 0xCAFE].map(|encoding_type| Some(FrameMeta::Sofh { encoding_type }))
    );
}

#[test]
fn cme_sofh_refuses_a_message_its_two_byte_length_cannot_count() {
    let mut out = Vec::new();
    SofhForm::Cme.write(65_531, false, &mut out).unwrap();
    assert_eq!(out, [0xFF, 0xFF, 0xFE, 0xCA]);
    out.clear();
    let err = SofhForm::Cme.write(65_532, false, &mut out).unwrap_err();
    assert!(
        err.contains("too long for cme SOFH framing (at most 65531)"),
        "{err}"
    );
    assert!(out.is_empty());
    assert_eq!("CME".parse(), Ok(SofhForm::Cme));
    assert_eq!("fix".parse(), Ok(SofhForm::Standard));
    assert!("ilink".parse::<SofhForm>().is_err());
}

#[test]
fn an_mdp3_packet_reads_back() {
    let mut packet = mdp3_packet_header(7, 123).to_vec();
    for m in messages() {
        Framing::Mdp3
            .message_prefix(m.len(), false, &mut packet)
            .unwrap();
        packet.extend_from_slice(&m);
    }
    let frames: Vec<_> = Framing::Mdp3
        .frames(&packet, no_length)
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        frames.iter().map(|f| f.bytes.to_vec()).collect::<Vec<_>>(),
        messages()
    );
    assert!(matches!(
        frames[0].meta,
        Some(FrameMeta::Mdp3 {
            sequence_number: 7,
            sending_time_ns: 123
        })
    ));
}

#[test]
fn a_message_too_long_for_its_length_field_is_refused() {
    let mut out = Vec::new();
    let err = "u8"
        .parse::<Framing>()
        .unwrap()
        .message_prefix(256, false, &mut out)
        .unwrap_err();
    assert!(err.contains("too long"), "{err}");
    assert!(Framing::Mdp3
        .message_prefix(70_000, false, &mut out)
        .is_err());
    assert!(out.is_empty());
}

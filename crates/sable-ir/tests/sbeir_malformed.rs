//! Malformed `.sbeir` input: every defect reads as an error that says where and what, and no
//! input makes the reader panic.

mod common;

use common::*;
use sable_ir::{sbeir, Ir, PrimitiveType, PrimitiveValue, Signal, Token};

fn sample() -> Vec<u8> {
    sbeir::write(&rich_ir())
}

/// Offsets where a cut leaves a valid file: right after the header or after a whole message.
fn whole_message_ends(ir: &Ir) -> Vec<usize> {
    let mut prefix = ir.clone();
    prefix.messages.clear();
    let mut ends = vec![sbeir::write(&prefix).len()];
    for message in &ir.messages {
        prefix.messages.push(message.clone());
        ends.push(sbeir::write(&prefix).len());
    }
    ends
}

#[test]
fn truncated_at_every_offset_is_an_error_unless_after_a_whole_message() {
    let ir = rich_ir();
    let bytes = sbeir::write(&ir);
    let ends = whole_message_ends(&ir);
    for cut in 0..bytes.len() {
        match sbeir::read(&bytes[..cut]) {
            Ok(back) => {
                let messages = ends
                    .iter()
                    .position(|e| *e == cut)
                    .unwrap_or_else(|| panic!("cut at {cut} of {} reads as valid", bytes.len()));
                assert_eq!(back.messages.len(), messages, "cut at {cut}");
            }
            Err(e) => {
                assert!(!ends.contains(&cut), "cut at {cut}: {e}");
                assert!(
                    e.offset() <= cut,
                    "cut at {cut}: error offset {}",
                    e.offset()
                );
            }
        }
    }
}

#[test]
fn truncation_errors_say_what_runs_out() {
    let bytes = sample();
    let e = sbeir::read(&bytes[..5]).unwrap_err();
    assert_eq!(e.offset(), 0);
    assert!(e.to_string().contains("truncated"), "{e}");
    let lay = layout(&bytes);
    let e = sbeir::read(&bytes[..lay.frame_end]).unwrap_err();
    assert_eq!(e.offset(), lay.frame_end);
    assert!(e.message().contains("no tokens"), "{e}");
    let t = &lay.tokens[3];
    let e = sbeir::read(&bytes[..t.start + 10]).unwrap_err();
    assert_eq!(e.offset(), t.start);
    assert!(e.message().contains("fixed fields"), "{e}");
    let e = sbeir::read(&bytes[..t.var_data[0] + 1]).unwrap_err();
    assert_eq!(e.offset(), t.var_data[0]);
    assert!(e.message().contains("name"), "{e}");
}

#[test]
fn lengths_that_run_past_the_end_are_errors() {
    let bytes = sample();
    let lay = layout(&bytes);
    let fields = lay
        .frame_var_data
        .iter()
        .copied()
        .chain(lay.tokens.iter().flat_map(|t| t.var_data.iter().copied()));
    for at in fields {
        for lie in [u16::MAX, u16::MAX - 1] {
            let mut corrupt = bytes.clone();
            corrupt[at..at + 2].copy_from_slice(&lie.to_le_bytes());
            if usize::from(lie) <= bytes.len() - at - 2 {
                continue; // Would not run past the end; the next test covers those.
            }
            let e = sbeir::read(&corrupt).expect_err("a lying length");
            assert_eq!(e.offset(), at, "{e}");
            assert!(
                e.message().contains(&format!("says it is {lie} bytes")),
                "{e}"
            );
        }
        let mut corrupt = bytes.clone();
        let past = u16::try_from(bytes.len() - at - 1).unwrap_or(u16::MAX);
        corrupt[at..at + 2].copy_from_slice(&past.to_le_bytes());
        assert!(sbeir::read(&corrupt).is_err(), "length {past} at {at}");
    }
}

#[test]
fn any_length_anywhere_never_panics() {
    let bytes = sample();
    let lay = layout(&bytes);
    let fields: Vec<usize> = lay
        .frame_var_data
        .iter()
        .copied()
        .chain(lay.tokens.iter().flat_map(|t| t.var_data.iter().copied()))
        .collect();
    for at in fields {
        let length = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        for lie in [
            0,
            1,
            2,
            3,
            4,
            8,
            27,
            28,
            length.wrapping_sub(1),
            length.wrapping_add(1),
        ] {
            let mut corrupt = bytes.clone();
            corrupt[at..at + 2].copy_from_slice(&lie.to_le_bytes());
            let _ = sbeir::read(&corrupt);
        }
    }
}

#[test]
fn every_byte_overwritten_never_panics() {
    let bytes = sbeir::write(&minimal_ir());
    for at in 0..bytes.len() {
        for value in [0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff] {
            let mut corrupt = bytes.clone();
            corrupt[at] = value;
            let _ = sbeir::read(&corrupt);
        }
    }
}

#[test]
fn unknown_enum_codes_are_errors_at_their_byte() {
    let bytes = sample();
    for token in layout(&bytes).tokens {
        for (field, bad) in [
            (SIGNAL, &[0u8, 18, 254, 255][..]),
            (PRIMITIVE_TYPE, &[12, 100, 255][..]),
            (BYTE_ORDER, &[2, 255][..]),
            (PRESENCE, &[3, 255][..]),
        ] {
            for &code in bad {
                let at = token.start + field;
                let mut corrupt = bytes.clone();
                corrupt[at] = code;
                let e = sbeir::read(&corrupt).expect_err("an unknown code");
                assert_eq!(e.offset(), at, "{e}");
                assert!(e.message().contains(&format!("code {code}")), "{e}");
            }
        }
    }
}

#[test]
fn an_unknown_ir_version_is_an_error() {
    let mut bytes = sample();
    bytes[4] = 1;
    let e = sbeir::read(&bytes).unwrap_err();
    assert_eq!(e.offset(), 4);
    assert_eq!(
        e.to_string(),
        "at byte 4: irVersion is 1; only 0 is supported"
    );
}

#[test]
fn trailing_bytes_are_an_error() {
    let bytes = sample();
    for extra in 1..=40 {
        let mut longer = bytes.clone();
        longer.extend(std::iter::repeat(0).take(extra));
        let e = sbeir::read(&longer).expect_err("trailing bytes");
        // Short of a token's fixed block it is a truncated token; past it, a token with
        // signal code 0.
        assert!(e.offset() >= bytes.len(), "{e}");
    }
}

/// The file of `ir` with the `field` byte of its `token`-th token (counting from the header's
/// first) set to `code`.
fn patched(ir: &Ir, token: usize, field: usize, code: u8) -> Vec<u8> {
    let mut bytes = sbeir::write(ir);
    let start = layout(&bytes).tokens[token].start;
    bytes[start + field] = code;
    bytes
}

#[test]
fn a_value_whose_length_does_not_suit_its_type_is_an_error() {
    let mut ir = minimal_ir();
    ir.header_tokens[1].encoding.primitive_type = Some(PrimitiveType::Int32);
    ir.header_tokens[1].encoding.min_value = Some(PrimitiveValue::Int(5));
    // Now a 4-byte value on an int16 token.
    let bytes = patched(&ir, 1, PRIMITIVE_TYPE, PrimitiveType::Int16 as u8);
    let e = sbeir::read(&bytes).unwrap_err();
    assert_eq!(e.offset(), layout(&bytes).tokens[1].var_data[2]);
    assert!(
        e.message()
            .contains("minValue of token 'blockLength': 4 bytes, but a int16 value is 2"),
        "{e}"
    );
    // And on a token with no primitive type at all.
    let bytes = patched(&ir, 1, PRIMITIVE_TYPE, 0);
    let e = sbeir::read(&bytes).unwrap_err();
    assert!(e.message().contains("no primitive type"), "{e}");
}

fn with_tokens(header: Vec<Token>, messages: Vec<Vec<Token>>) -> Vec<u8> {
    sbeir::write(&Ir {
        package_name: "p".into(),
        header_tokens: header,
        messages,
        ..Ir::default()
    })
}

fn t(signal: Signal, name: &str) -> Token {
    Token::new(signal, name)
}

#[track_caller]
fn assert_error(bytes: &[u8], token: usize, text: &str) {
    let e = sbeir::read(bytes).expect_err(text);
    assert_eq!(e.offset(), layout(bytes).tokens[token].start, "{e}");
    assert!(e.message().contains(text), "expected '{text}' in: {e}");
}

#[test]
fn structural_defects_are_errors_at_the_offending_token() {
    use Signal::*;
    let header = header();
    let message = |id: i32| {
        let mut m = vec![t(BeginMessage, "M"), t(EndMessage, "M")];
        m[0].id = id;
        m
    };
    let h = header.len();

    // The header must come first, as a composite of type tokens, and be closed.
    let bytes = with_tokens(vec![], vec![message(1)]);
    assert_error(&bytes, 0, "must begin the message header composite");
    let bytes = with_tokens(header[..h - 1].to_vec(), vec![]);
    assert_error(&bytes, 0, "BEGIN_COMPOSITE 'messageHeader' is never closed");
    let mut with_field = header.clone();
    with_field.insert(1, t(BeginField, "f"));
    let bytes = with_tokens(with_field, vec![]);
    assert_error(
        &bytes,
        1,
        "BEGIN_FIELD 'f' cannot appear in the message header",
    );

    // The header has the four fields, with primitive types.
    let mut without = header.clone();
    without.remove(2);
    let bytes = with_tokens(without, vec![]);
    assert_error(&bytes, 0, "the message header has no 'templateId'");
    let mut untyped = header.clone();
    untyped[4].encoding.primitive_type = None;
    let bytes = with_tokens(untyped, vec![]);
    assert_error(
        &bytes,
        4,
        "the message header's 'version' has no primitive type",
    );

    // After the header, only messages.
    let bytes = with_tokens(header.clone(), vec![vec![t(Encoding, "stray")]]);
    assert_error(&bytes, h, "expected BEGIN_MESSAGE");
    let mut unclosed = message(1);
    unclosed.pop();
    unclosed.push(t(BeginField, "f"));
    unclosed.push(t(EndField, "f"));
    let bytes = with_tokens(header.clone(), vec![unclosed]);
    assert_error(&bytes, h, "BEGIN_MESSAGE 'M' is never closed");

    // Pairs nest: an END must close the innermost open BEGIN.
    let interleaved = vec![
        t(BeginMessage, "M"),
        t(BeginField, "f"),
        t(BeginComposite, "c"),
        t(EndField, "f"),
        t(EndComposite, "c"),
        t(EndMessage, "M"),
    ];
    let bytes = with_tokens(header.clone(), vec![interleaved]);
    assert_error(
        &bytes,
        h + 3,
        "END_FIELD 'f' where BEGIN_COMPOSITE 'c' (at byte",
    );
    let nested = vec![
        t(BeginMessage, "M"),
        t(BeginMessage, "N"),
        t(EndMessage, "N"),
        t(EndMessage, "M"),
    ];
    let bytes = with_tokens(header.clone(), vec![nested]);
    assert_error(
        &bytes,
        h + 1,
        "BEGIN_MESSAGE 'N' cannot appear in a message",
    );

    // Template ids are unique.
    let bytes = with_tokens(header.clone(), vec![message(7), message(8), message(7)]);
    assert_error(
        &bytes,
        h + 4,
        "has template id 7, as does the message at byte",
    );
}

#[test]
fn errors_display_their_offset_and_message() {
    let e = sbeir::read(&[1, 2, 3]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at byte 0: truncated: the frame (irId, irVersion, schemaVersion) needs 12 bytes, but only 3 remain"
    );
    let _: &dyn std::error::Error = &e;
}

#[test]
fn random_corruption_never_panics() {
    let bytes = sample();
    // xorshift64: deterministic, so a failure reproduces.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let mut corrupt = bytes.clone();
        for _ in 0..=(next() % 4) {
            let at = (next() % corrupt.len() as u64) as usize;
            corrupt[at] = next() as u8;
        }
        let cut = (next() % (corrupt.len() as u64 + 1)) as usize;
        if let Ok(ir) = sbeir::read(&corrupt[..cut.max(corrupt.len() / 2)]) {
            // What reads, writes and reads back the same.
            let again = sbeir::read(&sbeir::write(&ir)).expect("reading what was written");
            assert_eq!(sable_ir::dump(&again), sable_ir::dump(&ir));
        }
    }
}

#[test]
fn text_that_is_not_utf8_is_an_error() {
    let bytes = sample();
    let lay = layout(&bytes);
    let name = lay.tokens[2].var_data[0];
    let mut corrupt = bytes.clone();
    corrupt[name + 3] = 0xff;
    let e = sbeir::read(&corrupt).unwrap_err();
    assert_eq!(e.offset(), name + 3);
    assert_eq!(e.message(), "name is not valid UTF-8");
    let package = lay.frame_var_data[0];
    let mut corrupt = bytes;
    corrupt[package + 2] = 0xc3;
    let e = sbeir::read(&corrupt).unwrap_err();
    assert_eq!(e.message(), "packageName is not valid UTF-8");
}

#[test]
fn the_longest_texts_and_values_read_and_write_back_unchanged() {
    let mut ir = minimal_ir();
    ir.messages[0][0].description = Some("d".repeat(65535));
    ir.header_tokens[1].encoding.primitive_type = Some(PrimitiveType::Char);
    ir.header_tokens[1].encoding.const_value = Some(PrimitiveValue::Bytes {
        bytes: vec![b'x'; 65535],
        character_encoding: "US-ASCII".into(),
    });
    let bytes = sbeir::write(&ir);
    let back = sbeir::read(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, ir);
    assert_eq!(sbeir::write(&back), bytes);
}

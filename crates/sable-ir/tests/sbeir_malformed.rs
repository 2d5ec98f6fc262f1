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

/// The file of an IR with these tokens, each `BEGIN_x`/`END_x` pair counted (unpaired tokens
/// keep their counts): the defects under test are structural, not miscounts.
fn with_tokens(mut header: Vec<Token>, mut messages: Vec<Vec<Token>>) -> Vec<u8> {
    count_pairs(&mut header);
    messages.iter_mut().for_each(|m| count_pairs(m));
    sbeir::write(&Ir {
        package_name: "p".into(),
        header_tokens: header,
        messages,
        ..Ir::default()
    })
}

/// Sets `componentTokenCount` on every `BEGIN_x` and the `END_x` that closes it.
fn count_pairs(tokens: &mut [Token]) {
    let mut open = Vec::new();
    for i in 0..tokens.len() {
        if tokens[i].signal.end().is_some() {
            open.push(i);
        } else if tokens[i].signal.is_end() {
            if let Some(begin) = open.pop() {
                let count = (i - begin + 1) as i32;
                tokens[begin].component_token_count = count;
                tokens[i].component_token_count = count;
            }
        }
    }
}

fn t(signal: Signal, name: &str) -> Token {
    Token::new(signal, name)
}

#[track_caller]
fn assert_error(bytes: &[u8], token: usize, text: &str) {
    let e = sbeir::read(bytes).expect_err(text);
    assert!(e.message().contains(text), "expected '{text}' in: {e}");
    assert_eq!(e.offset(), layout(bytes).tokens[token].start, "{e}");
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
    assert_error(
        &bytes,
        0,
        "BEGIN_MESSAGE 'M' where BEGIN_COMPOSITE (the message header composite) was expected",
    );
    let bytes = with_tokens(header[..h - 1].to_vec(), vec![]);
    assert_error(
        &bytes,
        0,
        "BEGIN_COMPOSITE 'messageHeader' is never closed: the tokens end first",
    );
    let mut with_field = header.clone();
    with_field.insert(1, t(BeginField, "f"));
    let bytes = with_tokens(with_field, vec![]);
    assert_error(&bytes, 1, "BEGIN_FIELD 'f' where a type was expected");

    // The header has the four fields, with integer types.
    let mut without = header.clone();
    without.remove(2);
    let bytes = with_tokens(without, vec![]);
    assert_error(&bytes, 0, "the message header has no 'templateId' member");
    let mut untyped = header.clone();
    untyped[4].encoding.primitive_type = None;
    let bytes = with_tokens(untyped, vec![]);
    assert_error(&bytes, 4, "ENCODING 'version' has no primitive type");
    let mut floating = header.clone();
    floating[1].encoding.primitive_type = Some(PrimitiveType::Float);
    floating[1].encoded_length = 4;
    floating[0].encoded_length = 10;
    let bytes = with_tokens(floating, vec![]);
    assert_error(
        &bytes,
        1,
        "the message header's 'blockLength' is not an integer",
    );

    // After the header, only messages.
    let bytes = with_tokens(header.clone(), vec![vec![t(Encoding, "stray")]]);
    assert_error(
        &bytes,
        h,
        "ENCODING 'stray' where BEGIN_MESSAGE (a message) was expected",
    );
    let mut unclosed = message(1);
    unclosed.pop();
    let bytes = with_tokens(header.clone(), vec![unclosed]);
    assert_error(
        &bytes,
        h,
        "BEGIN_MESSAGE 'M' is never closed: the tokens end first",
    );

    // Pairs nest: an END must close the innermost open BEGIN.
    let interleaved = vec![
        message(1)[0].clone(),
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
        &format!(
            "END_FIELD 'f' where END_COMPOSITE 'c' (closing token {}) was expected",
            h + 2
        ),
    );
    let nested = vec![
        message(1)[0].clone(),
        t(BeginMessage, "N"),
        t(EndMessage, "N"),
        t(EndMessage, "M"),
    ];
    let bytes = with_tokens(header.clone(), vec![nested]);
    assert_error(
        &bytes,
        h + 1,
        "BEGIN_MESSAGE 'N' cannot appear in BEGIN_MESSAGE 'M'",
    );

    // Template ids are unique.
    let bytes = with_tokens(header.clone(), vec![message(7), message(8), message(7)]);
    assert_error(
        &bytes,
        h + 4,
        &format!("message 'M' has template id 7, as does the message at token {h}"),
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
    let mut constant = t(Signal::Encoding, "text");
    constant.encoding.presence = sable_ir::Presence::Constant;
    constant.encoding.primitive_type = Some(PrimitiveType::Char);
    constant.encoding.const_value = Some(PrimitiveValue::Bytes {
        bytes: vec![b'x'; 65535],
        character_encoding: "US-ASCII".into(),
    });
    let message = &mut ir.messages[0];
    message.splice(
        1..1,
        [
            t(Signal::BeginField, "f"),
            constant,
            t(Signal::EndField, "f"),
        ],
    );
    sable_ir::update_component_token_counts(message);
    let bytes = sbeir::write(&ir);
    let back = sbeir::read(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, ir);
    assert_eq!(sbeir::write(&back), bytes);
}

/// The position of the first `signal` token named `name` in `ir`'s header-then-messages order.
fn find(ir: &Ir, signal: Signal, name: &str) -> usize {
    ir.header_tokens
        .iter()
        .chain(ir.messages.iter().flatten())
        .position(|t| t.signal == signal && t.name == name)
        .unwrap_or_else(|| panic!("no {signal} '{name}'"))
}

/// The token at `index` in `ir`'s header-then-messages order.
fn token_mut(ir: &mut Ir, index: usize) -> &mut Token {
    ir.header_tokens
        .iter_mut()
        .chain(ir.messages.iter_mut().flatten())
        .nth(index)
        .expect("an index in range")
}

/// `rich_ir` changed by `change`, written, must read as an error at the `signal` token named
/// `name` whose message contains `text`.
#[track_caller]
fn assert_rich_error(signal: Signal, name: &str, change: impl FnOnce(&mut Ir), text: &str) {
    let mut ir = rich_ir();
    let at = find(&ir, signal, name);
    change(&mut ir);
    assert_error(&sbeir::write(&ir), at, text);
}

#[test]
fn a_component_token_count_off_by_one_either_way_is_an_error() {
    use Signal::*;
    let ir = rich_ir();
    let price = find(&ir, BeginField, "price");
    let end = find(&ir, EndComposite, "Price");
    for delta in [-1, 1] {
        // A token that is no pair's: the issue's `maxRpm` case, which made `generate` panic.
        let exponent = find(&ir, Encoding, "exponent");
        assert_rich_error(
            Encoding,
            "exponent",
            |ir| token_mut(ir, exponent).component_token_count += delta,
            &format!(
                "componentTokenCount of ENCODING 'exponent' is {}, but a token that begins or \
                 ends nothing counts 1",
                1 + delta
            ),
        );
        // Either end of a pair.
        assert_rich_error(
            BeginField,
            "price",
            |ir| token_mut(ir, price).component_token_count += delta,
            &format!(
                "componentTokenCount of BEGIN_FIELD 'price' is {}, but the pair spans 6 tokens \
                 (tokens {price} to {})",
                6 + delta,
                price + 5
            ),
        );
        assert_rich_error(
            EndComposite,
            "Price",
            |ir| token_mut(ir, end).component_token_count += delta,
            &format!(
                "componentTokenCount of END_COMPOSITE 'Price' is {}, but the pair spans 4 tokens",
                4 + delta
            ),
        );
    }
}

#[test]
fn mismatched_and_missing_ends_are_errors() {
    use Signal::*;
    let ir = rich_ir();
    let end = find(&ir, EndField, "price");
    assert_rich_error(
        EndField,
        "price",
        |ir| token_mut(ir, end).name = "prize".into(),
        &format!(
            "END_FIELD 'prize' where END_FIELD 'price' (closing token {}) was expected",
            end - 5
        ),
    );
    assert_rich_error(
        EndField,
        "price",
        |ir| token_mut(ir, end).signal = EndGroup,
        "END_GROUP 'price' where END_FIELD 'price'",
    );
    // A truncated token list: the first message's END_MESSAGE gone, the next message begins
    // inside it; the last one's gone, the list ends inside it.
    let mut cut = ir.clone();
    cut.messages[0].pop();
    assert_error(
        &sbeir::write(&cut),
        find(&cut, BeginMessage, "Empty"),
        "BEGIN_MESSAGE 'Empty' cannot appear in BEGIN_MESSAGE 'Everything'",
    );
    assert_rich_error(
        BeginMessage,
        "Empty",
        |ir| {
            ir.messages[1].pop();
        },
        "BEGIN_MESSAGE 'Empty' is never closed: the tokens end first",
    );
}

#[test]
fn fields_groups_and_var_data_must_be_in_place_and_in_order() {
    use Signal::*;
    let ir = rich_ir();
    let m = &ir.messages[0];
    let field_at = m.iter().position(|t| t.name == "f0").expect("f0");
    let field: Vec<Token> = m[field_at..field_at + 3].to_vec();
    let data_at = m.iter().position(|t| t.name == "text").expect("text");
    let data: Vec<Token> = m[data_at..data_at + 6].to_vec();

    // A field outside a message.
    let mut outside = ir.clone();
    outside.messages.insert(1, field.clone());
    let at = ir.header_tokens.len() + m.len();
    assert_error(
        &sbeir::write(&outside),
        at,
        "BEGIN_FIELD 'f0' where BEGIN_MESSAGE (a message) was expected",
    );
    // A field after var data.
    let mut late = ir.clone();
    let empty = &mut late.messages[1];
    empty[0].encoded_length = 8;
    empty.splice(1..1, data.into_iter().chain(field));
    sable_ir::update_component_token_counts(empty);
    let at = ir.header_tokens.len() + m.len() + 7;
    assert_error(
        &sbeir::write(&late),
        at,
        "BEGIN_FIELD 'f0' comes after var data in BEGIN_MESSAGE 'Empty'",
    );
    // A type token where a field should be.
    assert_rich_error(
        BeginField,
        "f0",
        |ir| {
            let m = &mut ir.messages[0];
            m.remove(field_at);
            m.remove(field_at + 1);
            sable_ir::update_component_token_counts(m);
        },
        "ENCODING 'v0' cannot appear in BEGIN_MESSAGE 'Everything'",
    );
}

#[test]
fn lengths_offsets_and_values_that_consumers_cannot_use_are_errors() {
    use Signal::*;
    let ir = rich_ir();
    let index = |signal, name| find(&ir, signal, name);
    let block = ir.messages[0][0].encoded_length;
    let price = index(BeginField, "price");
    assert_rich_error(
        BeginField,
        "price",
        |ir| token_mut(ir, price).offset += 100,
        &format!(
            "BEGIN_FIELD 'price' at offset {} (9 bytes) lies outside its block of {block} bytes",
            ir.messages[0][price - ir.header_tokens.len()].offset + 100
        ),
    );
    let mantissa = index(Encoding, "mantissa");
    assert_rich_error(
        Encoding,
        "mantissa",
        |ir| token_mut(ir, mantissa).offset = 2,
        "ENCODING 'mantissa' at offset 2 (8 bytes) lies outside its composite of 9 bytes",
    );
    let v2 = index(Encoding, "v2");
    assert_rich_error(
        Encoding,
        "v2",
        |ir| token_mut(ir, v2).encoded_length = 3,
        "ENCODING 'v2' is 3 bytes long, not a whole number of int16s",
    );
    let f2 = index(BeginField, "f2");
    assert_rich_error(
        BeginField,
        "f2",
        |ir| token_mut(ir, f2).encoded_length = 4,
        "BEGIN_FIELD 'f2' is 4 bytes long, but its type ENCODING 'v2' is 2",
    );
    let b = index(Choice, "b");
    assert_rich_error(
        Choice,
        "b",
        |ir| token_mut(ir, b).encoding.const_value = Some(PrimitiveValue::UInt(16)),
        "CHOICE 'b' must have a bit number below 16",
    );
    let buy = index(ValidValue, "Buy");
    assert_rich_error(
        ValidValue,
        "Buy",
        |ir| token_mut(ir, buy).encoding.const_value = None,
        "VALID_VALUE 'Buy' must have a value",
    );
    assert_rich_error(
        BeginMessage,
        "Everything",
        |ir| ir.messages[0][0].id = 70000,
        "template id 70000 of message 'Everything' does not fit the header's templateId (uint16)",
    );
    assert_rich_error(
        BeginMessage,
        "Everything",
        |ir| ir.messages[0][0].encoded_length = 70000,
        "block length 70000 of message 'Everything' does not fit the header's blockLength (uint16)",
    );
    let f0 = index(BeginField, "f0");
    assert_rich_error(
        BeginField,
        "f0",
        |ir| token_mut(ir, f0).version = -1,
        "BEGIN_FIELD 'f0' has version -1 and deprecated 0; neither may be negative",
    );
}

#[test]
fn groups_and_var_data_need_their_members() {
    use Signal::*;
    let ir = rich_ir();
    let count = find(&ir, Encoding, "numInGroup");
    assert_rich_error(
        BeginComposite,
        "groupSizeEncoding",
        |ir| token_mut(ir, count).name = "count".into(),
        "the dimension of group 'entries' has no 'numInGroup' member",
    );
    let data = find(&ir, Encoding, "varData");
    assert_rich_error(
        BeginComposite,
        "varDataEncoding",
        |ir| {
            let data = token_mut(ir, data);
            data.name = "bytes".into();
            data.encoded_length = 1;
        },
        "the composite of var data 'note' has no 'varData' member",
    );
    let group = find(&ir, BeginGroup, "entries");
    assert_rich_error(
        BeginGroup,
        "entries",
        |ir| token_mut(ir, group).encoded_length = 65536,
        "block length 65536 of group 'entries' does not fit its blockLength (uint16)",
    );
}

#[test]
fn nesting_deeper_than_the_limit_is_an_error() {
    use Signal::*;
    let depth = sable_ir::MAX_NESTING_DEPTH + 1;
    let mut message = vec![t(BeginMessage, "M"), t(BeginField, "f")];
    message[0].id = 1;
    for i in 0..depth {
        message.push(t(BeginComposite, &format!("c{i}")));
    }
    for i in (0..depth).rev() {
        message.push(t(EndComposite, &format!("c{i}")));
    }
    message.push(t(EndField, "f"));
    message.push(t(EndMessage, "M"));
    let mut header = header();
    count_pairs(&mut header);
    let h = header.len();
    let bytes = with_tokens(header, vec![message]);
    // The field is at depth 1, its type at 2: the composite at depth 129 is c127.
    assert_error(
        &bytes,
        h + 2 + sable_ir::MAX_NESTING_DEPTH - 1,
        &format!(
            "BEGIN_COMPOSITE 'c127' nests deeper than {} levels",
            sable_ir::MAX_NESTING_DEPTH
        ),
    );
}

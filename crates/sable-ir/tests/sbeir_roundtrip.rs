//! `.sbeir` writing and reading on hand-built IRs: everything the format holds comes back, the
//! layout is the one `sbe-ir.xml` describes, and reading mirrors the reference's decoder.

mod common;

use common::*;
use sable_ir::{sbeir, ByteOrder, Ir, PrimitiveType, PrimitiveValue, Signal};

#[test]
fn a_rich_ir_survives_write_and_read() {
    let ir = rich_ir();
    let bytes = sbeir::write(&ir);
    let back = sbeir::read(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let expected = as_read_back(&ir);
    assert!(
        same_ir(&back, &expected),
        "read back differs:\n{}",
        first_difference(&sable_ir::dump(&expected), &sable_ir::dump(&back))
    );
    // Writing what was read gives the same bytes, but for the deprecated fields now zero.
    let again = sbeir::write(&back);
    assert_eq!(again.len(), bytes.len());
    let mut masked = bytes.clone();
    for t in layout(&bytes).tokens {
        masked[t.start + DEPRECATED..t.start + DEPRECATED + 4].fill(0);
    }
    assert_eq!(again, masked);
}

fn first_difference(a: &str, b: &str) -> String {
    a.lines()
        .zip(b.lines())
        .find(|(x, y)| x != y)
        .map(|(x, y)| format!("expected: {x}\n  actual: {y}"))
        .unwrap_or_else(|| "(dumps equal; a field outside the dump differs)".into())
}

#[test]
fn the_frame_and_a_token_are_laid_out_as_sbe_ir_xml_says() {
    let mut ir = minimal_ir();
    ir.id = 0x0102_0304;
    ir.version = 7;
    ir.package_name = "pk".into();
    ir.namespace_name = None;
    ir.semantic_version = Some("1.0".into());
    let bytes = sbeir::write(&ir);
    let mut frame = Vec::new();
    frame.extend_from_slice(&0x0102_0304i32.to_le_bytes()); // irId
    frame.extend_from_slice(&0i32.to_le_bytes()); // irVersion
    frame.extend_from_slice(&7i32.to_le_bytes()); // schemaVersion
    frame.extend_from_slice(&[2, 0, b'p', b'k']); // packageName
    frame.extend_from_slice(&[0, 0]); // namespaceName
    frame.extend_from_slice(&[3, 0, b'1', b'.', b'0']); // semanticVersion
    assert_eq!(&bytes[..frame.len()], &frame[..]);

    // The header's second token: ENCODING blockLength, uint16 at offset 0.
    let t = &bytes[layout(&bytes).tokens[1].start..];
    let int = |at: usize| i32::from_le_bytes([t[at], t[at + 1], t[at + 2], t[at + 3]]);
    assert_eq!(int(0), 0, "tokenOffset");
    assert_eq!(int(4), 2, "tokenSize");
    assert_eq!(int(8), -1, "fieldId");
    assert_eq!(int(12), 0, "tokenVersion");
    assert_eq!(int(16), 1, "componentTokenCount");
    assert_eq!(t[SIGNAL], Signal::Encoding as u8);
    assert_eq!(t[PRIMITIVE_TYPE], PrimitiveType::UInt16 as u8);
    assert_eq!(t[BYTE_ORDER], 0, "little-endian");
    assert_eq!(t[PRESENCE], 0, "required");
    assert_eq!(int(DEPRECATED), 0, "not deprecated");
    let name = b"blockLength";
    assert_eq!(
        &t[TOKEN_BLOCK..TOKEN_BLOCK + 2],
        &(name.len() as u16).to_le_bytes()
    );
    assert_eq!(&t[TOKEN_BLOCK + 2..TOKEN_BLOCK + 2 + name.len()], name);
    // Then ten empty var-data fields.
    let rest = &t[TOKEN_BLOCK + 2 + name.len()..TOKEN_BLOCK + 2 + name.len() + 20];
    assert!(rest.iter().all(|b| *b == 0), "{rest:?}");
}

#[test]
fn values_are_binary_little_endian_in_the_types_size() {
    let cases: Vec<(PrimitiveType, PrimitiveValue, Vec<u8>)> = vec![
        (PrimitiveType::Char, PrimitiveValue::Int(65), vec![65]),
        (PrimitiveType::Int8, PrimitiveValue::Int(-2), vec![0xfe]),
        (
            PrimitiveType::Int16,
            PrimitiveValue::Int(-2),
            vec![0xfe, 0xff],
        ),
        (
            PrimitiveType::Int32,
            PrimitiveValue::Int(0x0102_0304),
            vec![4, 3, 2, 1],
        ),
        (PrimitiveType::Int64, PrimitiveValue::Int(-1), vec![0xff; 8]),
        (PrimitiveType::UInt8, PrimitiveValue::UInt(255), vec![0xff]),
        (
            PrimitiveType::UInt16,
            PrimitiveValue::UInt(0x0102),
            vec![2, 1],
        ),
        (
            PrimitiveType::UInt32,
            PrimitiveValue::UInt(u32::MAX.into()),
            vec![0xff; 4],
        ),
        (
            PrimitiveType::UInt64,
            PrimitiveValue::UInt(u64::MAX),
            vec![0xff; 8],
        ),
        (
            PrimitiveType::Float,
            PrimitiveValue::Float(1.5),
            1.5f32.to_le_bytes().to_vec(),
        ),
        (
            PrimitiveType::Double,
            PrimitiveValue::Float(-2.25),
            (-2.25f64).to_le_bytes().to_vec(),
        ),
        (
            PrimitiveType::Char,
            PrimitiveValue::Bytes {
                bytes: b"abc".to_vec(),
                character_encoding: "US-ASCII".into(),
            },
            b"abc".to_vec(),
        ),
    ];
    for (t, value, expected) in cases {
        let mut ir = minimal_ir();
        let enc = &mut ir.header_tokens[5];
        enc.encoding.primitive_type = Some(t);
        enc.encoding.const_value = Some(value.clone());
        let bytes = sbeir::write(&ir);
        let at = layout(&bytes).tokens[5].var_data[1];
        let length = usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
        assert_eq!(
            &bytes[at + 2..at + 2 + length],
            &expected[..],
            "{t} {value}"
        );
        let back = sbeir::read(&bytes).unwrap_or_else(|e| panic!("{t} {value}: {e}"));
        assert_eq!(
            back.header_tokens[5].encoding.const_value,
            Some(value),
            "{t}"
        );
    }
}

#[test]
fn deprecated_is_written_but_read_as_zero_as_the_reference_does() {
    let mut ir = minimal_ir();
    ir.messages[0][0].deprecated = 5;
    ir.messages[0][1].deprecated = 5;
    let bytes = sbeir::write(&ir);
    let lay = layout(&bytes);
    for (i, t) in lay.tokens.iter().enumerate() {
        let field = &bytes[t.start + DEPRECATED..t.start + DEPRECATED + 4];
        let expected: i32 = if i >= ir.header_tokens.len() { 5 } else { 0 };
        assert_eq!(field, expected.to_le_bytes(), "token {i}");
    }
    let back = sbeir::read(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert!(back.messages[0].iter().all(|t| t.deprecated == 0));
    // Whatever is in the field (the reference leaves stale bytes there) is ignored.
    let mut stale = bytes.clone();
    for t in &lay.tokens {
        stale[t.start + DEPRECATED..t.start + DEPRECATED + 4].copy_from_slice(b"ecat");
    }
    assert_eq!(sbeir::read(&stale), Ok(back));
}

#[test]
fn the_schema_byte_order_is_the_first_header_encodings() {
    // Composite tokens are little-endian even in a big-endian schema (the reference's decoder
    // reads that, and so a little-endian IR); the header's encodings carry the schema's order.
    let mut ir = rich_ir();
    assert_eq!(ir.byte_order, ByteOrder::BigEndian);
    assert_eq!(
        ir.header_tokens[0].encoding.byte_order,
        ByteOrder::LittleEndian
    );
    let back = sbeir::read(&sbeir::write(&ir)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.byte_order, ByteOrder::BigEndian);
    for t in ir.header_tokens.iter_mut() {
        t.encoding.byte_order = ByteOrder::LittleEndian;
    }
    let back = sbeir::read(&sbeir::write(&ir)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.byte_order, ByteOrder::LittleEndian);
}

#[test]
fn wrong_component_token_counts_are_errors_not_recomputed() {
    // The reference's decoder recomputes the counts of BEGIN/END pairs and keeps others' as
    // read; every file it writes has them right, and consumers walk by them: Sable refuses a
    // wrong one.
    let mut ir = rich_ir();
    ir.header_tokens[0].component_token_count = 999;
    let e = sbeir::read(&sbeir::write(&ir)).unwrap_err();
    assert!(
        e.message()
            .contains("componentTokenCount of BEGIN_COMPOSITE 'messageHeader' is 999"),
        "{e}"
    );
    let mut ir = rich_ir();
    ir.messages[0][2].component_token_count = 7;
    assert_eq!(ir.messages[0][2].signal, Signal::Encoding);
    let e = sbeir::read(&sbeir::write(&ir)).unwrap_err();
    assert!(
        e.message()
            .contains("is 7, but a token that begins or ends nothing counts 1"),
        "{e}"
    );
}

#[test]
fn a_one_character_array_reads_back_as_a_character_code() {
    let mut ir = minimal_ir();
    ir.header_tokens[5].encoding.primitive_type = Some(PrimitiveType::Char);
    ir.header_tokens[5].encoding.const_value = Some(PrimitiveValue::Bytes {
        bytes: b"Z".to_vec(),
        character_encoding: "US-ASCII".into(),
    });
    ir.header_tokens[6].encoding.primitive_type = Some(PrimitiveType::Char);
    ir.header_tokens[6].encoding.const_value = Some(PrimitiveValue::Int(-16));
    let back = sbeir::read(&sbeir::write(&ir)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        back.header_tokens[5].encoding.const_value,
        Some(PrimitiveValue::Int(90))
    );
    // Java's byte is signed, so is the code of a byte above 0x7f.
    assert_eq!(
        back.header_tokens[6].encoding.const_value,
        Some(PrimitiveValue::Int(-16))
    );
}

#[test]
fn a_character_array_takes_the_tokens_character_encoding() {
    let mut ir = minimal_ir();
    let tok = &mut ir.header_tokens[5];
    tok.encoding.primitive_type = Some(PrimitiveType::Char);
    tok.encoding.const_value = Some(PrimitiveValue::Bytes {
        bytes: "h\u{e9}".as_bytes().to_vec(),
        character_encoding: "whatever".into(),
    });
    let back = sbeir::read(&sbeir::write(&ir)).unwrap_or_else(|e| panic!("{e}"));
    let value = back.header_tokens[5].encoding.const_value.clone();
    assert_eq!(
        value,
        Some(PrimitiveValue::Bytes {
            bytes: "h\u{e9}".as_bytes().to_vec(),
            character_encoding: "US-ASCII".into(),
        }),
        "no character encoding on the token: US-ASCII, as the reference labels it"
    );
    ir.header_tokens[5].encoding.character_encoding = Some("UTF-8".into());
    let back = sbeir::read(&sbeir::write(&ir)).unwrap_or_else(|e| panic!("{e}"));
    let value = back.header_tokens[5].encoding.const_value.clone().unwrap();
    assert_eq!(value.to_string(), "h\u{e9}");
}

#[test]
fn empty_texts_read_back_absent() {
    let mut ir = minimal_ir();
    ir.namespace_name = Some(String::new());
    ir.semantic_version = Some(String::new());
    let t = &mut ir.messages[0][0];
    t.description = Some(String::new());
    t.referenced_name = Some(String::new());
    t.encoding.semantic_type = Some(String::new());
    let back = sbeir::read(&sbeir::write(&ir)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.namespace_name, None);
    assert_eq!(back.semantic_version, None);
    let t = &back.messages[0][0];
    assert_eq!((&t.description, &t.referenced_name), (&None, &None));
    assert_eq!(t.encoding.semantic_type, None);
}

#[test]
fn oversized_texts_are_cut_at_a_character_boundary() {
    let mut ir = minimal_ir();
    // 'é' is two bytes: 40000 of them cannot all fit in 65535 bytes, nor can a half.
    ir.messages[0][0].description = Some("\u{e9}".repeat(40000));
    ir.header_tokens[5].encoding.primitive_type = Some(PrimitiveType::Char);
    ir.header_tokens[5].encoding.const_value = Some(PrimitiveValue::Bytes {
        bytes: vec![b'x'; 70000],
        character_encoding: "US-ASCII".into(),
    });
    let back = sbeir::read(&sbeir::write(&ir)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        back.messages[0][0].description,
        Some("\u{e9}".repeat(32767))
    );
    match &back.header_tokens[5].encoding.const_value {
        Some(PrimitiveValue::Bytes { bytes, .. }) => assert_eq!(bytes.len(), 65535),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_ir_without_messages_round_trips() {
    let mut ir = minimal_ir();
    ir.messages.clear();
    assert_eq!(sbeir::read(&sbeir::write(&ir)), Ok(ir));
}

#[test]
fn messages_keep_their_order() {
    let mut ir = minimal_ir();
    let mut second = ir.messages[0].clone();
    for t in &mut second {
        t.id = 0;
        t.name = "First".into();
    }
    ir.messages.push(second);
    let back: Ir = sbeir::read(&sbeir::write(&ir)).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<i32> = back.messages.iter().map(|m| m[0].id).collect();
    assert_eq!(ids, [1, 0]);
}

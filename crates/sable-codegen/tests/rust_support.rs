//! The support code every generated Rust module carries (src/rust/support/, from its root
//! codec_support.rs), compiled and tested on its own, as the generator copies it: with the
//! `PATH_DEPTH` and `MEMBER_DEPTH` it writes first.

#[allow(dead_code)]
mod support {
    /// As a schema whose messages nest groups two deep.
    pub const PATH_DEPTH: usize = 2;
    /// As a schema with a composite in a composite.
    pub const MEMBER_DEPTH: usize = 2;

    include!("../src/rust/support/codec_support.rs");

    #[cfg(test)]
    mod tests {
        use super::*;

        const ENTRY: &str = "fields.performanceFigures[].acceleration[]";

        #[test]
        fn a_path_prints_its_indices_once_known() {
            let path = FieldPath::new(ENTRY);
            assert_eq!(
                path.to_string(),
                "fields.performanceFigures[].acceleration[]"
            );
            let path = path.with_index(1, 2).with_index(0, 0);
            assert_eq!(
                path.to_string(),
                "fields.performanceFigures[0].acceleration[2]"
            );
            assert_eq!(
                (path.index(0), path.index(1), path.index(2)),
                (Some(0), Some(2), None)
            );
            assert_eq!(path.template(), ENTRY);
            let member = FieldPath::new("fields.engine").member("efficiency");
            assert_eq!(member.to_string(), "fields.engine.efficiency");
            let nested = FieldPath::new("fields.engine")
                .member("booster")
                .member("horsePower");
            assert_eq!(nested.to_string(), "fields.engine.booster.horsePower");
            // No deeper than the schema's composites: a third member is not kept.
            assert_eq!(
                nested.member("x").to_string(),
                "fields.engine.booster.horsePower"
            );
        }

        #[test]
        fn an_error_inside_an_entry_gets_its_index_on_the_way_out() {
            let inner = sbe_support::truncated(86, FieldPath::new(ENTRY).with_index(1, 1), 6, 90);
            let e = sbe_support::in_entry(inner, 0, 0);
            assert_eq!(e.offset, 86);
            assert_eq!(
                e.to_string(),
                "fields.performanceFigures[0].acceleration[1] at byte 86: needs 6 bytes, the buffer has 4 left"
            );
            assert_eq!(e.kind.name(), "truncated");
        }

        #[test]
        fn entries_that_do_not_fit_report_the_first_one() {
            // Entries of 6 bytes from 53 in a buffer of 60: the second (at 59) does not fit.
            let e = sbe_support::entries_truncated(53, 6, 60, FieldPath::new("fields.G[]"), 0);
            assert_eq!(
                (e.offset, e.field.to_string()),
                (59, "fields.G[1]".to_owned())
            );
            assert_eq!(
                sbe_support::entries_end(&[0; 60], 53, 6, 1, || FieldPath::new("fields.G[]"), 0),
                Ok(59)
            );
            assert_eq!(
                sbe_support::entries_end(&[0; 60], 53, 6, 2, || FieldPath::new("fields.G[]"), 0),
                Err(e)
            );
        }

        #[test]
        fn the_error_json_is_the_contracts() {
            let e = sbe_support::header_error(
                4,
                "header.schemaId",
                DecodeErrorKind::SchemaIdMismatch(77),
            );
            assert_eq!(
                e.json().to_string(),
                r#"{"error":{"offset":4,"field":"header.schemaId","kind":"schemaIdMismatch","message":"header.schemaId at byte 4: schema id 77 is not the schema's"}}"#
            );
            let e = sbe_support::block_too_short(0, FieldPath::new("a\"b"), 1, 2);
            assert!(e.json().to_string().contains(r#""field":"a\"b""#));
            assert_eq!(e.kind.name(), "blockLengthTooShort");
            assert_eq!(
                DecodeErrorKind::UnknownTemplate(9).name(),
                "unknownTemplate"
            );
        }

        #[test]
        fn text_longer_than_its_array_is_an_error_and_writes_nothing() {
            let mut b = [7u8; 8];
            let e = sbe_support::put_padded(&mut b, 2, 3, b"abcd", FieldPath::new("fields.t"))
                .unwrap_err();
            assert_eq!(e.kind, EncodeErrorKind::TextTooLong { length: 4, max: 3 });
            assert_eq!(b, [7; 8]);
            sbe_support::put_padded(&mut b, 2, 3, b"a", FieldPath::new("fields.t")).unwrap();
            assert_eq!(b, [7, 7, b'a', 0, 0, 7, 7, 7]);
            assert_eq!(sbe_support::until_nul(&b[2..5]), b"a");
        }

        #[test]
        fn encoder_checks_report_each_kind() {
            let path = || FieldPath::new("fields.x");
            assert_eq!(sbe_support::element(10, 2, 3, 4, path()), Ok(18));
            let e = sbe_support::element(10, 3, 3, 4, path()).unwrap_err();
            assert_eq!(e.kind.name(), "indexOutOfRange");
            let e = sbe_support::room(10, 8, 4, path).unwrap_err();
            assert_eq!(
                (e.offset, e.kind),
                (
                    8,
                    EncodeErrorKind::BufferTooShort {
                        needed: 4,
                        available: 2
                    }
                )
            );
            assert_eq!(sbe_support::room(10, 6, 4, path), Ok(10));
            assert_eq!(
                sbe_support::out_of_range(3, path()).kind.name(),
                "valueOutOfRange"
            );
            assert_eq!(
                sbe_support::count_too_large(3, path(), 254).kind.name(),
                "countTooLarge"
            );
            let e = sbe_support::length_too_large(3, path(), 300, 254);
            assert_eq!(e.kind.name(), "lengthTooLarge");
            assert_eq!(
                e.to_string(),
                "fields.x at byte 3: var data of 300 bytes is longer than 254"
            );
        }

        #[test]
        fn a_span_past_the_end_is_truncated_at_its_start() {
            let buf = [0u8; 10];
            assert_eq!(
                sbe_support::span(&buf, 4, 6, || FieldPath::new("v")),
                Ok(10)
            );
            let e = sbe_support::span(&buf, 4, usize::MAX, || FieldPath::new("v")).unwrap_err();
            assert_eq!(
                (e.offset, e.kind),
                (
                    4,
                    DecodeErrorKind::Truncated {
                        needed: usize::MAX,
                        available: 6
                    }
                )
            );
        }
    }
}

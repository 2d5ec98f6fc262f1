//! Arbitrary bytes as an SBE message of a few fixed schemas (little- and big-endian, groups, var
//! data, versions): decoding and printing must not panic, and when both `decode` and
//! `message_length` succeed they must agree on the message's length; the JSON printer must
//! report the same outcome as `decode`.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use sable_otf::decode::Decoder;
use sable_otf::json::{Jit, JsonPrinter, JsonVisitor};
use sable_otf::text::TextPrinter;

const SCHEMAS: [&str; 5] = [
    "example-schema.xml",
    "example-bigendian-test-schema.xml",
    "example-extension-schema.xml",
    "versioned-message-v2.xml",
    "bench-fix-message-samples.xml",
];

struct Schema {
    decoder: Decoder,
    json: JsonPrinter,
    text: TextPrinter,
}

fn schemas() -> &'static [Schema] {
    static S: OnceLock<Vec<Schema>> = OnceLock::new();
    S.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/schemas/valid");
        SCHEMAS
            .iter()
            .map(|name| {
                let ir = sable_schema::compile_file(&dir.join(name))
                    .ir
                    .unwrap_or_else(|| panic!("{name} does not compile"));
                Schema {
                    decoder: Decoder::new(&ir).unwrap(),
                    json: JsonPrinter::with_jit(&ir, Jit::Eager).unwrap(),
                    text: TextPrinter::new(&ir).unwrap(),
                }
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the schema; the rest is the message.
    let Some((&pick, buf)) = data.split_first() else {
        return;
    };
    let s = &schemas()[usize::from(pick) % SCHEMAS.len()];
    let decoded = s.decoder.decode(buf, &mut ());
    let length = s.decoder.message_length(buf);
    if let (Ok(a), Ok(b)) = (&decoded, &length) {
        assert_eq!(a, b, "decode and message_length disagree");
    }
    if let Ok(n) = decoded {
        assert!(n <= buf.len());
    }
    let mut out = Vec::new();
    let printed = s.json.print(buf, &mut out);
    assert_eq!(printed, decoded, "the JSON printer and decode disagree");
    assert!(std::str::from_utf8(&out).is_ok(), "JSON is not UTF-8");
    // The same bytes as the generic visitor path (the printer's program, or its compiled code
    // with the feature `jit`, against the `Visitor`).
    let mut generic = Vec::new();
    {
        let mut w = JsonVisitor::new(&mut generic);
        if let Err(e) = s.decoder.decode(buf, &mut w) {
            w.finish_with_error(&e);
        }
    }
    assert!(out == generic, "the JSON printer and the JsonVisitor disagree");
    out.clear();
    let _ = s.text.print(buf, &mut out);
});

//! Arbitrary bytes through Sable's generated Rust decoders (five schemas: little- and
//! big-endian, groups, var data, versions): decoding never panics; a message that decodes has a
//! length within the input, prints as canonical JSON (walking every group and var data), and
//! reads the same when decoded again from exactly its own bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code, unused_imports)]
mod example {
    include!(concat!(env!("OUT_DIR"), "/example.rs"));
}
#[allow(dead_code, unused_imports)]
mod bigendian {
    include!(concat!(env!("OUT_DIR"), "/bigendian.rs"));
}
#[allow(dead_code, unused_imports)]
mod extension {
    include!(concat!(env!("OUT_DIR"), "/extension.rs"));
}
#[allow(dead_code, unused_imports)]
mod versioned {
    include!(concat!(env!("OUT_DIR"), "/versioned.rs"));
}
#[allow(dead_code, unused_imports)]
mod fix {
    include!(concat!(env!("OUT_DIR"), "/fix.rs"));
}

macro_rules! check {
    ($module:ident, $data:expr) => {
        match $module::decode_any($data) {
            Ok(m) => {
                // decode_any checked the whole message: its length is known.
                let n = m.encoded_length().expect("checked by decode_any");
                assert!(n <= $data.len());
                let text = m.to_string();
                assert!(text.starts_with("{\"message\":"), "{text}");
                let again = $module::decode_any(&$data[..n]).expect("its own bytes decode");
                assert_eq!(again.to_string(), text);
            }
            Err(e) => assert!(e.offset <= $data.len().max(8), "{e}"),
        }
    };
}

fuzz_target!(|data: &[u8]| {
    check!(example, data);
    check!(bigendian, data);
    check!(extension, data);
    check!(versioned, data);
    check!(fix, data);
});

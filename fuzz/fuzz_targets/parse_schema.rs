//! Arbitrary bytes into the schema compiler and the `.sbeir` reader: neither may panic, IR that
//! compiles must read back from the `.sbeir` it writes, and what a `.sbeir` file holds must
//! survive being written and read again unchanged. (The first trip may drop what the format
//! cannot hold, such as `deprecated`; see `sable_ir::sbeir`.)
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use sable_ir::{sbeir, Ir};

/// `ir` written as `.sbeir` and read back; panics if it does not read.
fn round_trip(ir: &Ir) -> Ir {
    match sbeir::read(&sbeir::write(ir)) {
        Ok(back) => back,
        Err(e) => panic!("cannot read back what sbeir::write wrote: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    // As schema text: unchanged when the bytes are UTF-8, else with U+FFFD for the invalid
    // sequences. Relative XIncludes resolve against a directory that does not exist.
    let text = String::from_utf8_lossy(data);
    let compiled =
        sable_schema::compile_str(&text, Path::new("/nonexistent/sable-fuzz/schema.xml"));
    if let Some(ir) = &compiled.ir {
        assert!(!compiled.has_errors(), "IR despite errors");
        let _ = sable_ir::dump(ir);
        let once = round_trip(ir);
        let twice = round_trip(&once);
        assert_eq!(sable_ir::dump(&twice), sable_ir::dump(&once));
    }

    // As a .sbeir file.
    if let Ok(ir) = sbeir::read(data) {
        let again = round_trip(&ir);
        assert_eq!(sable_ir::dump(&again), sable_ir::dump(&ir));
    }
});

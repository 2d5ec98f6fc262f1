//! Arbitrary bytes into the schema compiler and the `.sbeir` reader: neither may panic, and IR
//! that compiles must survive a `.sbeir` round trip unchanged.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // As text: unchanged when the bytes are UTF-8, else with U+FFFD for the invalid sequences.
    // Relative XIncludes resolve against a directory that does not exist.
    let text = String::from_utf8_lossy(data);
    let compiled = sable_schema::compile_str(&text, Path::new("/nonexistent/sable-fuzz/schema.xml"));
    if let Some(ir) = &compiled.ir {
        assert!(!compiled.has_errors(), "IR despite errors");
        let bytes = sable_ir::sbeir::write(ir);
        match sable_ir::sbeir::read(&bytes) {
            Ok(back) => assert_eq!(sable_ir::dump(&back), sable_ir::dump(ir)),
            Err(e) => panic!("cannot read back what sbeir::write wrote: {e}"),
        }
    }

    // As a .sbeir file.
    if let Ok(ir) = sable_ir::sbeir::read(data) {
        let _ = sable_ir::dump(&ir);
        let _ = sable_ir::sbeir::write(&ir);
    }
});

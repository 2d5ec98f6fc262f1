//! Arbitrary bytes as a `.sbeir` file: whatever `sable_ir::sbeir::read` accepts must generate
//! Java (both buffer flavours), C++, Rust, C#, Go and Python codecs without a panic, as `sable generate` would.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sable_codegen::{cpp, csharp, go, java, python, rust, typescript};

fuzz_target!(|data: &[u8]| {
    let Ok(ir) = sable_ir::sbeir::read(data) else {
        return;
    };
    for buffer in [
        java::Buffer::Segment,
        java::Buffer::Agrona,
        java::Buffer::AgronaUnsafe,
    ] {
        let options = java::Options {
            buffer,
            ..java::Options::default()
        };
        java::generate(&ir, &options);
    }
    cpp::generate(&ir, &cpp::Options::default());
    rust::generate(&ir);
    csharp::generate(&ir, &csharp::Options::default());
    go::generate(&ir, &go::Options::default());
    python::generate(&ir, &python::Options::default());
    typescript::generate(&ir, &typescript::Options::default());
});

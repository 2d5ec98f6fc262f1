//! Generates Sable's Rust codecs of the schemas the `rust_codecs` target decodes (sable-build,
//! into OUT_DIR). The other targets do not use them.

fn main() {
    let valid = "../../shared/schemas/valid";
    let mut config = sable_build::Config::new();
    for (schema, module) in [
        ("example-schema.xml", "example"),
        ("example-bigendian-test-schema.xml", "bigendian"),
        ("example-extension-schema.xml", "extension"),
        ("versioned-message-v2.xml", "versioned"),
        ("bench-fix-message-samples.xml", "fix"),
    ] {
        config.schema_as(format!("{valid}/{schema}"), module);
    }
    config.compile().unwrap_or_else(|e| panic!("{e}"));
}

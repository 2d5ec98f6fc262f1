//! Generates the example schema's codecs with sable-build, as a user's build script would
//! (tests/build_rs.rs includes them), and those of the Rust tests' own schemas
//! (tests/composite_errors.rs).

fn main() {
    sable_build::Config::new()
        .schema("../../../shared/schemas/valid/example-schema.xml")
        .schema("schemas/nested-composite-errors.xml")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}

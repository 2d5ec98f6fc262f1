//! Code generation for SBE codecs.
//!
//! The shared pieces every language's generator uses: a typed [`model`] of the schema built
//! from the IR's token lists, [`naming`] helpers and an indenting [`writer`]; and one module per
//! target language ([`java`]).

pub mod cpp;
pub mod java;
pub mod model;
pub mod rust;
pub mod writer;

/// Case conversion and identifier cleaning (each language's rules are in sable-names).
pub use sable_names::common as naming;

/// A generated source file: its path relative to the output directory, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    pub path: std::path::PathBuf,
    pub text: String,
}

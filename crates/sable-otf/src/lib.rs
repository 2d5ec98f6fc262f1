//! On-the-fly SBE decoding and encoding, driven by the IR alone (no generated code).
//!
//! - [`decode`]: walks an encoded message by its IR and reports what it finds to a visitor;
//! - [`json`] and [`text`]: printers of the canonical JSON form (`docs/json.md`) and a readable
//!   text form, on top of the decoder;
//! - [`encode`]: canonical JSON to SBE bytes.

pub mod decode;
pub mod encode;
pub mod json;
mod json_program;
mod shown;
pub mod text;

pub use shown::shown;

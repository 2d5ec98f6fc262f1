//! On-the-fly SBE decoding and encoding, driven by the IR alone (no generated code).
//!
//! - [`decode`]: walks an encoded message by its IR and reports what it finds to a visitor;
//! - [`json`] and [`text`]: printers of the canonical JSON form (`docs/json.md`) and a readable
//!   text form, on top of the decoder;
//! - [`encode`]: canonical JSON to SBE bytes.
//!
//! # Layers
//!
//! Modules import one way, each only from the layers below it (`tests/layering.rs` reads the
//! sources and fails on an import upwards or a cycle):
//!
//! 1. writers: `write` (numbers, text and JSON strings into a sink), `shown`, `readable`
//!    (timestamps, dates and decimals as people read them);
//! 2. the decoder: `decode`, its plan compiled from the IR (the plan's JSON keys made by the
//!    writers) and its walk, reporting to a [`decode::Visitor`]; `layout`, the plan described
//!    for callers that need a message's shape before decoding one (columnar writers);
//! 3. `json_value`: decoded values as JSON;
//! 4. the program: `program`, the JSON printer's operations laid out from the plan, and the
//!    value of one operation; it keeps slots for machine code but never calls it;
//! 5. the JIT (feature `jit`): `jit` compiles programs to machine code and fills their slots;
//! 6. the printers: [`json`] (the [`json::JsonPrinter`], whose interpreter runs programs and
//!    their machine code, and the [`json::JsonVisitor`]) and [`text`]; the encoder, [`encode`].
//!
//! `unsafe` is forbidden in the crate but for one module, `jit::runtime` (feature `jit`):
//! running the compiled code and the helpers it calls (docs/jit.md).

#![cfg_attr(not(feature = "jit"), forbid(unsafe_code))]
#![cfg_attr(feature = "jit", deny(unsafe_code))]

pub mod decode;
pub mod encode;
#[cfg(feature = "jit")]
mod jit;
pub mod json;
mod json_value;
pub mod layout;
mod program;
mod readable;
mod shown;
pub mod text;
mod write;

pub use readable::{utc_timestamp_ns, write_utc_timestamp_ns};
pub use shown::shown;

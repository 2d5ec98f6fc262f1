//! The JSON printer's compiled program: per message, the JSON it prints laid out as a list of
//! operations, each "copy this constant text, then write the value at this offset".
//!
//! The constant text between two values (keys, commas, braces, a composite's opening, the
//! closing of the composites before, constants' values) is one [`Text`], copied by one
//! fixed-size copy. A block's fields are one flat list of operations (composites flattened into
//! it); values newer than their block are behind one version test per run of them
//! ([`K::Since`]). Its groups and var data follow, walked beside the decoder's plan (whose
//! checks, shared with [`crate::decode::Decoder::decode`], give the same errors at the same offsets); the
//! entries of groups of common shapes (fields only; fields then var data; fields then groups of
//! fields only) are printed by loops of their own, without a call per entry. Output goes to a
//! scratch buffer kept per thread, each block's operations writing into room reserved for the
//! most they can write (so that the cursor stays in registers), then to the caller's `Vec` in
//! one copy.
//!
//! When a message fails midway, what is open at the failing point is known statically, so each
//! place that can fail carries the text that closes everything (after what was written), and the
//! printer adds the `error` key: the same bytes as [`crate::json::JsonVisitor`] writes through
//! the generic [`crate::decode::Visitor`] path (the tests compare the two on every conformance
//! vector, every truncation of each, and random messages of every shared schema).
//!
//! The program is data: `build.rs` lays it out, `value.rs` runs one operation, and the JSON
//! printer's interpreter (`json/run.rs`) walks it beside the decoder's plan; the JIT
//! (`crate::jit`, feature `jit`) compiles its blocks and messages into the slots it keeps for
//! them. Nothing here depends on either.

mod build;
mod ops;
mod out;
mod value;

#[cfg(feature = "jit")]
pub(crate) use ops::{BlockFn, CompiledBlock, CompiledMessage, EnumOp, MessageFn, K, NULL};
pub(crate) use ops::{
    BlockProgram, MessageProgram, Op, Programs, Tables, TailProgram, Text, MAX_DATA,
};
pub(crate) use out::{Cursor, Slice};
pub(crate) use value::ops_in;
#[cfg(feature = "jit")]
pub(crate) use value::value;

//! Schema evolution checks (`sable compat OLD NEW`): every difference between two SBE schemas
//! that matters, each judged in three senses (wire backward, wire forward, source) and located
//! in both schemas, and the proof of those verdicts by encoding and decoding messages.
//!
//! Modules import one way: `model` (the IR as a tree) and `finding` below `diff` (what the rules
//! share), below the rules (`types`, `body`, `schema`), below `report` and `prove`.
//! The rules are described, with examples, in docs/compat.md.

#![forbid(unsafe_code)]

mod body;
mod diff;
mod finding;
mod model;
pub mod report;
mod schema;
mod types;

pub use finding::{Finding, Sense, Verdict};

use sable_ir::Ir;

/// Every difference between OLD and NEW that matters.
pub fn compare(old: &Ir, new: &Ir) -> Vec<Finding> {
    schema::compare(&model::Schema::of(old), &model::Schema::of(new))
}

//! Schema evolution checks (`sable compat OLD NEW`): every difference between two SBE schemas
//! that matters, each judged in three senses (wire backward, wire forward, source) and located
//! in both schemas, and the proof of those verdicts by encoding and decoding messages.
//!
//! Modules import one way: `model` (the IR as a tree) and `finding` below `diff` (what the rules
//! share), below the rules (`types`, `body`, `schema`), below `report`; `sample` (random
//! messages of a model) below `prove` (encoding with one schema, decoding with the other).
//! The rules are described, with examples, in docs/compat.md.

#![forbid(unsafe_code)]

mod body;
mod diff;
mod finding;
mod model;
pub mod prove;
pub mod report;
mod sample;
mod schema;
mod types;

pub use finding::{Finding, Sense, Verdict};

use sable_ir::Ir;

/// Every difference between OLD and NEW that matters.
pub fn compare(old: &Ir, new: &Ir) -> Vec<Finding> {
    schema::compare(&model::Schema::of(old), &model::Schema::of(new))
}

/// Whether a proof contradicts the findings: it shows a message that decodes wrongly in a
/// direction where no finding about its template (or the whole schema) breaks.
pub fn contradicts(findings: &[Finding], proof: &prove::Proof) -> bool {
    proof.evidence.is_some()
        && !findings
            .iter()
            .any(|f| f.breaks(proof.sense) && !matches!(f.template, Some(t) if t != proof.template))
}

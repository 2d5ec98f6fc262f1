//! The shared conformance vectors of `conformance/` (format in `conformance/README.md`).
//!
//! The library derives the malformed vectors (`conformance/malformed/`) from the valid ones
//! ([`malformed`], through an independent walk of each message by its IR: [`walk`]); the tests
//! (`tests/`) check the vectors against the reference implementation's decoder (through
//! `interop/ConformanceCheck.java`) and against Sable's encoder and canonical JSON printer; the
//! examples are the generator's command line (`malformed`) and Sable's codec driver (`driver`,
//! run by `scripts/drivers/sable.sh`).

pub mod malformed;
pub mod walk;

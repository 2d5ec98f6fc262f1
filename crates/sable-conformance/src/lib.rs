//! The shared conformance vectors of `conformance/` (format in `conformance/README.md`).
//!
//! The library derives the malformed vectors (`conformance/malformed/`) from the valid ones
//! ([`malformed`], through an independent walk of each message by its IR: [`walk`]); the tests
//! (`tests/`) check the vectors against the reference implementation's decoder (through
//! `interop/ConformanceCheck.java`) and against Sable's encoder and canonical JSON printer; the
//! examples are the generator's command line (`malformed`) and Sable's codec driver (`driver`,
//! run by `scripts/drivers/sable.sh`).

#![forbid(unsafe_code)]

pub mod malformed;
pub mod walk;

use std::path::{Path, PathBuf};

/// The vector files (`*.jsonl`) of `dir`, sorted; panics when there is none (a test set-up
/// error, not a test result).
pub fn jsonl_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no vector files in {}", dir.display());
    files
}

//! Tests only (`tests/`): the shared conformance vectors of `conformance/` (format in
//! `conformance/README.md`) checked against the reference implementation's decoder (through
//! `interop/ConformanceCheck.java`) and against Sable's encoder and canonical JSON printer.

#![forbid(unsafe_code)]

//! Tests and benchmarks only: see tests/ and benches/.

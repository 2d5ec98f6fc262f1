// The items every generated Rust module carries (the module depends on nothing): the error
// types and the private `sbe_support` module, split by concern into the files included below:
// errors.rs (the error types), bytes.rs (byte reads and writes that never panic), checks.rs (the
// checks and the errors they make), marks.rs (where groups and var data start) and json.rs
// (text, and the canonical JSON value writers). The generator copies this file into each module,
// each `include!` line replaced by the file it names (indented as the line), every file's
// leading comment left out; it writes `PATH_DEPTH` (the deepest nesting of groups in the
// schema, at least 1) and `MEMBER_DEPTH` (of composites) before it.
// Compiled and tested on its own by sable-codegen's tests/rust_support.rs.

include!("errors.rs");

#[allow(dead_code)]
mod sbe_support {
    use core::fmt::{self, Write as _};

    use super::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, FieldPath};

    include!("bytes.rs");

    include!("checks.rs");

    include!("marks.rs");

    include!("json.rs");
}

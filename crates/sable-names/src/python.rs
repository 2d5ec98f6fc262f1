//! Python: the names the Python generator (issue 19) is to give schema names, as PEP 8 has
//! them: snake_case fields and modules, PascalCase classes, UPPER_SNAKE constants, enum
//! members and set flags; a keyword gets `_` appended.

use crate::common;

/// Python's keywords (soft keywords such as `match` are usable as names).
pub const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Fields, methods and modules: `bidPx` -> `bid_px`.
pub fn snake(name: &str) -> String {
    escape(common::lower_snake(name))
}

/// Classes: `bid_px` -> `BidPx`.
pub fn class_name(name: &str) -> String {
    escape(common::pascal(name))
}

/// Constants, enum members and set flags: `bidPx` -> `BID_PX`.
pub fn constant(name: &str) -> String {
    escape(common::screaming_snake(name))
}

/// The module (file) name for a dotted package: `uk.co.sbe` -> `uk_co_sbe`.
pub fn module(package: &str) -> String {
    snake(&package.replace('.', "_"))
}

fn escape(name: String) -> String {
    common::escape_keyword(&name, KEYWORDS, "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake("bidPx"), "bid_px");
        assert_eq!(snake("class"), "class_");
        assert_eq!(class_name("new_order"), "NewOrder");
        assert_eq!(constant("none"), "NONE");
        assert_eq!(class_name("none"), "None_");
        assert_eq!(module("uk.co.sbe"), "uk_co_sbe");
    }
}

//! Go: the names the Go generator (issue 18) is to give schema names, as Go's style has them:
//! exported identifiers in PascalCase with initialisms kept in one case (`MDEntryID`), and a
//! package name in lower case. Exported names cannot be keywords (those are lower case).

use crate::common;

/// Go's keywords.
pub const KEYWORDS: &[&str] = &[
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

/// Words Go writes all in capitals wherever they appear (from the Go style guide's list).
const INITIALISMS: &[&str] = &[
    "ACL", "API", "ASCII", "CPU", "CSS", "DNS", "EOF", "GUID", "HTML", "HTTP", "HTTPS", "ID", "IP",
    "JSON", "LHS", "QPS", "RAM", "RHS", "RPC", "SLA", "SMTP", "SQL", "SSH", "TCP", "TLS", "TTL",
    "UDP", "UI", "UID", "UUID", "URI", "URL", "UTF8", "VM", "XML", "XMPP", "XSRF", "XSS",
];

/// An exported identifier: `bid_px` -> `BidPx`, `MDEntryPx` -> `MDEntryPx`, `orderId` ->
/// `OrderID`. A word already all in capitals stays so. `V` goes in front of a leading digit.
pub fn exported(name: &str) -> String {
    let mut out = String::new();
    for word in common::words(name) {
        let upper = word.to_uppercase();
        if INITIALISMS.contains(&upper.as_str()) || (word == upper && word.len() > 1) {
            out.push_str(&upper);
        } else {
            out.push_str(&common::upper_first(&word));
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit() || c == '_') {
        out.insert(0, 'V');
    }
    out
}

/// The methods the generated codecs declare themselves (docs/go.md): a member whose accessor
/// would be one of them gets `_` after it (`count` -> `Count_`).
pub const CODEC_METHODS: &[&str] = &[
    "ActingBlockLength",
    "ActingVersion",
    "AppendJSON",
    "Bytes",
    "Count",
    "EncodedLength",
    "Err",
    "Index",
    "MarshalJSON",
    "Next",
    "String",
    "Wrap",
    "WrapBody",
];

/// A member's accessor: [`exported`], with `_` after one of the [`CODEC_METHODS`].
pub fn method(name: &str) -> String {
    common::escape_keyword(&exported(name), CODEC_METHODS, "_")
}

/// The package name: the package's last part, lower case, letters and digits only
/// (`uk.co.car_example` -> `carexample`).
pub fn package(package: &str) -> String {
    let last = package.rsplit('.').find(|p| !p.is_empty()).unwrap_or("");
    let mut out: String = common::identifier(last)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .flat_map(char::to_lowercase)
        .collect();
    if out.is_empty()
        || out.starts_with(|c: char| c.is_ascii_digit())
        || KEYWORDS.contains(&out.as_str())
    {
        out.insert(0, 'x');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(exported("bid_px"), "BidPx");
        assert_eq!(exported("MDEntryPx"), "MDEntryPx");
        assert_eq!(exported("orderId"), "OrderID");
        assert_eq!(exported("9x"), "V9x");
        assert_eq!(method("count"), "Count_");
        assert_eq!(method("counter"), "Counter");
        assert_eq!(package("uk.co.car_example"), "carexample");
        assert_eq!(package("a.type"), "xtype");
    }
}

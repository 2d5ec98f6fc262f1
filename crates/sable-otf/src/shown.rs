//! User-supplied text echoed in a message: control characters escaped, so that nothing written
//! to a terminal can drive it, and long text cut short.

/// `text` with control characters escaped (`\n`, `\u{1b}`) and cut after `max_chars`
/// characters with "…".
pub fn shown(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max_chars {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn escapes_control_characters_and_cuts_long_text() {
        assert_eq!(shown("a\x1b[31mb\n", 40), "a\\u{1b}[31mb\\n");
        assert_eq!(shown("\"quoted\" ünïcode", 40), "\"quoted\" ünïcode");
        assert_eq!(shown(&"x".repeat(50), 40), format!("{}…", "x".repeat(40)));
        assert_eq!(shown(&"x".repeat(40), 40), "x".repeat(40));
    }
}

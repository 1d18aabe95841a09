//! JSON text for the reports the command line prints (`hayate analyze --json`, `hayate tsume
//! check --json`): what they need of it, a string literal, with no parser behind it.

/// `s` as a JSON string literal, quotes included.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_backslashes_and_control_characters_are_escaped() {
        assert_eq!(quote("a \"b\" \\ c"), r#""a \"b\" \\ c""#);
        assert_eq!(quote("x\ty\nz\u{1}"), r#""x\ty\nz\u0001""#);
        assert_eq!(quote("▲7六歩"), "\"▲7六歩\"");
    }
}

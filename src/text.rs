//! Quoting untrusted input in error messages.

/// Longest stretch of input quoted in an error message.
const QUOTE_CHARS: usize = 60;

/// At most 60 characters of `text` (then `...`), so that an error about a
/// huge line stays one readable line.
pub fn shorten(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_and_long_text_cut_at_a_char_boundary() {
        assert_eq!(shorten("7g7f"), "7g7f");
        let long = "歩".repeat(100);
        let cut = shorten(&long);
        assert_eq!(cut.chars().count(), QUOTE_CHARS + 3);
        assert!(cut.ends_with("..."));
    }
}

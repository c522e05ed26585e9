//! Whether an opened file is text at all. A binary file (an image, an archive, a compiled module)
//! decoded as UTF-8 gives tens of thousands of syntax errors that say nothing: the page names it as
//! not text instead of parsing it.

/// Why `text` is not a Python source file, or `None` when it reads as text.
///
/// - any NUL character (no Python source holds one: CPython refuses it);
/// - replacement characters (U+FFFD, what a browser puts for invalid UTF-8): at least 4 making up more than 1%
///   of the characters, or more than 64 of them;
/// - control characters other than tab, newline, carriage return and form feed making up more than
///   5% of the characters.
///
/// Only the first MiB is read for the ratios (a NUL is looked for everywhere).
pub fn not_text(text: &str) -> Option<String> {
    let nuls = text.bytes().filter(|&b| b == 0).count();
    if nuls > 0 {
        return Some(format!(
            "it holds {nuls} NUL {}: no Python source does",
            if nuls == 1 { "byte" } else { "bytes" }
        ));
    }
    let mut end = text.len().min(1 << 20);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let mut chars = 0usize;
    let mut replaced = 0usize;
    let mut control = 0usize;
    for c in head.chars() {
        chars += 1;
        if c == '\u{FFFD}' {
            replaced += 1;
        } else if c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c') {
            control += 1;
        }
    }
    if chars == 0 {
        return None;
    }
    if replaced > 64 || (replaced >= 4 && replaced * 100 > chars) {
        return Some(format!(
            "it is not valid UTF-8 ({replaced} invalid sequences replaced in the first {} characters)",
            chars
        ));
    }
    if control * 20 > chars {
        return Some(format!(
            "it is mostly not printable ({control} control characters in the first {chars})"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_source_is_text() {
        assert_eq!(not_text(""), None);
        assert_eq!(
            not_text("def test_a():\n\tassert f('é\u{FFFD}') == 1\r\n\x0c\n"),
            None
        );
    }

    #[test]
    fn nul_bytes_are_not_text() {
        let why = not_text("def test_a():\n    assert 1\n\0").unwrap();
        assert!(why.contains("1 NUL byte"), "{why}");
    }

    #[test]
    fn invalid_utf8_is_not_text() {
        let bytes: Vec<u8> = (0..4000u32)
            .map(|i| (i * 37 % 256) as u8)
            .filter(|&b| b != 0)
            .collect();
        let text = String::from_utf8_lossy(&bytes);
        let why = not_text(&text).unwrap();
        assert!(why.contains("not valid UTF-8"), "{why}");
        // A few replaced characters in a long file are a stray byte, not a binary file.
        let mostly = format!("{}\u{FFFD}", "x = 1\n".repeat(200));
        assert_eq!(not_text(&mostly), None);
    }

    #[test]
    fn control_characters_are_not_text() {
        let text: String = (0..1000)
            .map(|i| if i % 3 == 0 { '\x01' } else { 'a' })
            .collect();
        let why = not_text(&text).unwrap();
        assert!(why.contains("not printable"), "{why}");
    }
}

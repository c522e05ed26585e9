//! A stand-in for the `unicode-normalization` crate (a `[patch.crates-io]` in the root Cargo.toml)
//! with only what `ruff_python_parser` uses: `UnicodeNormalization::nfkc` on a `&str`, which its
//! parser calls for every identifier that contains a non-ASCII character (CPython normalizes
//! identifiers to NFKC: `ﬁle` and `file` are the same name).
//!
//! The real crate compiles its Unicode tables in: 60 KB of the page's gzipped wasm, for a path
//! that almost no test file takes. In `wasm32` the JavaScript engine normalizes instead
//! (`String.prototype.normalize("NFKC")`, which every engine implements from ICU's data); natively
//! ICU4X's normalizer (`icu_normalizer`, compiled data) does. Both follow the Unicode standard's
//! NFKC; like the real crate, their Unicode version need not be the one of the Python that runs the
//! test (an identifier made of characters assigned after it is the only case that can differ).

use std::vec::IntoIter;

/// NFKC of a string, as `unicode_normalization::UnicodeNormalization::nfkc` gives it.
pub trait UnicodeNormalization {
    /// The string's characters in Normalization Form KC.
    fn nfkc(self) -> Recompositions;
}

impl UnicodeNormalization for &str {
    fn nfkc(self) -> Recompositions {
        Recompositions(nfkc(self).chars().collect::<Vec<char>>().into_iter())
    }
}

/// The characters of a normalized string (the real crate's iterator type has this name).
#[derive(Clone, Debug)]
pub struct Recompositions(IntoIter<char>);

impl Iterator for Recompositions {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        self.0.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

#[cfg(target_arch = "wasm32")]
fn nfkc(text: &str) -> String {
    // An ASCII string is its own NFKC.
    if text.is_ascii() {
        return text.to_string();
    }
    js_sys::JsString::from(text)
        .normalize("NFKC")
        .as_string()
        .unwrap_or_else(|| text.to_string())
}

#[cfg(not(target_arch = "wasm32"))]
fn nfkc(text: &str) -> String {
    icu_normalizer::ComposingNormalizerBorrowed::new_nfkc()
        .normalize(text)
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::UnicodeNormalization;

    fn n(s: &str) -> String {
        s.nfkc().collect()
    }

    #[test]
    fn identifiers_normalize_as_python_normalizes_them() {
        // Each pair checked with CPython: `unicodedata.normalize("NFKC", a) == b`.
        for (a, b) in [
            ("file", "file"),
            ("ﬁle", "file"),
            ("ℌello", "Hello"),
            ("𝐱", "x"),
            ("ｆｕｌｌ", "full"),
            ("x²", "x2"),
            ("µ", "μ"),
            ("Å", "Å"),
            ("e\u{301}", "é"),
            ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"),
            ("ﾊﾟ", "パ"),
            ("Ⅸ", "IX"),
        ] {
            assert_eq!(n(a), b, "{a:?}");
        }
    }

    #[test]
    fn the_iterator_reports_its_length() {
        let it = "ﬁ".nfkc();
        assert_eq!(it.size_hint(), (2, Some(2)));
    }
}

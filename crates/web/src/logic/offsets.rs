//! UTF-8 byte offsets (the extractor's, from ruff) to UTF-16 code-unit offsets (JavaScript's and
//! CodeMirror's), and 1-based line numbers to offsets.
//!
//! Built once per extracted text. An ASCII-only text needs no table: every byte offset is its own
//! UTF-16 offset. Otherwise one entry per non-ASCII character, found by binary search.

/// One non-ASCII character: where it starts in bytes and in UTF-16 units, and its lengths in both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Wide {
    byte: u32,
    utf16: u32,
    byte_len: u8,
    utf16_len: u8,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OffsetMap {
    wide: Vec<Wide>,
    /// Byte offset of the start of each line (line 1 at index 0).
    line_starts: Vec<u32>,
    /// Byte offset where each line's break begins (the text's length for the last line).
    line_ends: Vec<u32>,
    len: u32,
}

impl OffsetMap {
    pub fn new(text: &str) -> OffsetMap {
        let mut wide = Vec::new();
        let mut line_starts = vec![0u32];
        let mut line_ends = Vec::new();
        let bytes = text.as_bytes();
        let mut utf16 = 0u32;
        let mut i = 0usize;
        // Fast path over ASCII runs; decode only the non-ASCII characters.
        while i < bytes.len() {
            let b = bytes[i];
            if b < 0x80 {
                if b == b'\n' {
                    if i == 0 || bytes[i - 1] != b'\r' {
                        line_ends.push(i as u32);
                    }
                    line_starts.push(i as u32 + 1);
                } else if b == b'\r' {
                    line_ends.push(i as u32);
                    if bytes.get(i + 1) != Some(&b'\n') {
                        line_starts.push(i as u32 + 1);
                    }
                }
                utf16 += 1;
                i += 1;
                continue;
            }
            let ch = text[i..]
                .chars()
                .next()
                .expect("a char starts at a char boundary");
            let byte_len = ch.len_utf8();
            let utf16_len = ch.len_utf16();
            wide.push(Wide {
                byte: i as u32,
                utf16,
                byte_len: byte_len as u8,
                utf16_len: utf16_len as u8,
            });
            utf16 += utf16_len as u32;
            i += byte_len;
        }
        line_ends.push(bytes.len() as u32);
        OffsetMap {
            wide,
            line_starts,
            line_ends,
            len: bytes.len() as u32,
        }
    }

    /// The UTF-16 offset of a byte offset. Offsets past the end clamp to the end; an offset inside a
    /// multi-byte character maps to that character's start.
    pub fn utf16(&self, byte: u32) -> u32 {
        let byte = byte.min(self.len);
        // The last wide character starting at or before `byte`.
        let idx = self.wide.partition_point(|w| w.byte <= byte);
        if idx == 0 {
            return byte;
        }
        let w = self.wide[idx - 1];
        let end = w.byte + w.byte_len as u32;
        if byte < end {
            w.utf16
        } else {
            w.utf16 + w.utf16_len as u32 + (byte - end)
        }
    }

    /// A compact binary form (little-endian `u32`s), for the extraction worker's reply: a 10 MB
    /// file has 300,000 lines, whose offsets as JSON took the page's main thread a long task to
    /// decode; these bytes are copied, not parsed. Layout: `len`, the three counts, then each wide
    /// character as `byte, utf16, byte_len | utf16_len << 8`, the line starts, the line ends.
    pub fn to_bytes(&self) -> Vec<u8> {
        let words = 4 + 3 * self.wide.len() + self.line_starts.len() + self.line_ends.len();
        let mut out = Vec::with_capacity(words * 4);
        let mut put = |x: u32| out.extend_from_slice(&x.to_le_bytes());
        put(self.len);
        put(self.wide.len() as u32);
        put(self.line_starts.len() as u32);
        put(self.line_ends.len() as u32);
        for w in &self.wide {
            put(w.byte);
            put(w.utf16);
            put(w.byte_len as u32 | (w.utf16_len as u32) << 8);
        }
        self.line_starts.iter().for_each(|&x| put(x));
        self.line_ends.iter().for_each(|&x| put(x));
        out
    }

    /// The inverse of `to_bytes`; an error for bytes of the wrong length.
    pub fn from_bytes(bytes: &[u8]) -> Result<OffsetMap, String> {
        let bad = || {
            format!(
                "offset map: {} bytes do not match their counts",
                bytes.len()
            )
        };
        if !bytes.len().is_multiple_of(4) || bytes.len() < 16 {
            return Err(bad());
        }
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let (len, n_wide, n_starts, n_ends) = (
            words[0],
            words[1] as usize,
            words[2] as usize,
            words[3] as usize,
        );
        if words.len() != 4 + 3 * n_wide + n_starts + n_ends || n_starts == 0 || n_ends == 0 {
            return Err(bad());
        }
        let wide_end = 4 + 3 * n_wide;
        let wide = words[4..wide_end]
            .chunks_exact(3)
            .map(|w| Wide {
                byte: w[0],
                utf16: w[1],
                byte_len: (w[2] & 0xff) as u8,
                utf16_len: (w[2] >> 8 & 0xff) as u8,
            })
            .collect();
        Ok(OffsetMap {
            wide,
            line_starts: words[wide_end..wide_end + n_starts].to_vec(),
            line_ends: words[wide_end + n_starts..].to_vec(),
            len,
        })
    }

    /// The text's length in UTF-16 units.
    pub fn utf16_len(&self) -> u32 {
        self.utf16(self.len)
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }

    /// Byte range `[start, end)` of a 1-based line, without its line break. Lines past the end
    /// clamp to the last line; line 0 is treated as line 1.
    pub fn line_bytes(&self, line: u32) -> (u32, u32) {
        let idx = (line.max(1) as usize - 1).min(self.line_starts.len() - 1);
        (self.line_starts[idx], self.line_ends[idx])
    }

    /// UTF-16 range of a 1-based line, without its line break.
    pub fn line_utf16(&self, line: u32) -> (u32, u32) {
        let (s, e) = self.line_bytes(line);
        (self.utf16(s), self.utf16(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_form_round_trips() {
        for text in ["", "a", "x = 'é'\r\ny = '😀'\rz\n", "\n\n\u{10FFFF}\n"] {
            let m = OffsetMap::new(text);
            assert_eq!(OffsetMap::from_bytes(&m.to_bytes()), Ok(m), "{text:?}");
        }
        let bytes = OffsetMap::new("ab\ncd").to_bytes();
        assert!(OffsetMap::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        assert!(OffsetMap::from_bytes(&bytes[..7]).is_err());
    }

    #[test]
    fn ascii_is_identity() {
        let m = OffsetMap::new("assert f(1) == 2\n");
        assert_eq!(m.utf16(0), 0);
        assert_eq!(m.utf16(7), 7);
        assert_eq!(m.utf16(1000), 17);
        assert_eq!(m.utf16_len(), 17);
    }

    #[test]
    fn non_ascii_shifts_later_offsets() {
        // "é" is 2 bytes / 1 unit, "€" 3 bytes / 1 unit, "😀" 4 bytes / 2 units.
        let text = "é€😀x";
        let m = OffsetMap::new(text);
        assert_eq!(m.utf16(0), 0);
        assert_eq!(m.utf16(2), 1);
        assert_eq!(m.utf16(5), 2);
        assert_eq!(m.utf16(9), 4);
        assert_eq!(m.utf16(10), 5);
        assert_eq!(m.utf16_len(), text.encode_utf16().count() as u32);
    }

    #[test]
    fn inside_a_character_maps_to_its_start() {
        let m = OffsetMap::new("a😀b");
        assert_eq!(m.utf16(2), 1);
        assert_eq!(m.utf16(4), 1);
        assert_eq!(m.utf16(5), 3);
    }

    #[test]
    fn every_char_boundary_agrees_with_std() {
        let text = "def test_ü():\n    s = 'naïve 日本 🐍'\n    assert f(s) == '✓'\n";
        let m = OffsetMap::new(text);
        for (byte, _) in text
            .char_indices()
            .chain(std::iter::once((text.len(), ' ')))
        {
            let expect = text[..byte].encode_utf16().count() as u32;
            assert_eq!(m.utf16(byte as u32), expect, "at byte {byte}");
        }
    }

    #[test]
    fn lines() {
        let text = "a\nbé\n\nlast";
        let m = OffsetMap::new(text);
        assert_eq!(m.line_count(), 4);
        assert_eq!(m.line_bytes(1), (0, 1));
        assert_eq!(m.line_bytes(2), (2, 5));
        assert_eq!(m.line_utf16(2), (2, 4));
        assert_eq!(m.line_bytes(3), (6, 6));
        assert_eq!(m.line_bytes(4), (7, 11));
        assert_eq!(m.line_bytes(99), (7, 11));
        assert_eq!(m.line_bytes(0), (0, 1));
    }

    #[test]
    fn crlf_and_cr_breaks() {
        let m = OffsetMap::new("a\r\nbb\rc");
        assert_eq!(m.line_count(), 3);
        assert_eq!(m.line_bytes(1), (0, 1));
        assert_eq!(m.line_bytes(2), (3, 5));
        assert_eq!(m.line_bytes(3), (6, 7));
    }

    #[test]
    fn trailing_newline_gives_an_empty_last_line() {
        let m = OffsetMap::new("x\n");
        assert_eq!(m.line_count(), 2);
        assert_eq!(m.line_bytes(2), (2, 2));
    }
}

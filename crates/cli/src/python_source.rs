//! Reading a Python file as Python reads it: the library's PEP 263 reading
//! (`bench_explorer::encoding`), with `encoding_rs` decoding what it leaves to the caller.

use bench_explorer::encoding::{self, Decoder};

struct EncodingRs;

impl Decoder for EncodingRs {
    fn decode(&self, label: &'static str, bytes: &[u8]) -> Option<String> {
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes())?;
        encoding
            .decode_without_bom_handling_and_without_replacement(bytes)
            .map(|text| text.into_owned())
    }
}

/// The text of a Python file's bytes, or why Python would refuse them (`name`: the file as the
/// message names it).
pub fn decode(name: &str, bytes: &[u8]) -> Result<String, String> {
    encoding::decode(bytes, &EncodingRs)
        .map_err(|e| format!("{name}, line {}: {}", e.line, e.message))
}

/// Read and decode a Python file; `None` when it does not exist or cannot be read.
pub fn read(path: &std::path::Path) -> Option<Result<String, String>> {
    let bytes = std::fs::read(path).ok()?;
    Some(decode(&path.display().to_string(), &bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_encodings_decode_as_python_does() {
        // Each text, encoded by Python's codec of that name (the bytes are what Python wrote).
        let cases: [(&str, &[u8], &str); 4] = [
            ("cp1252", b"# coding: cp1252\nx = '\x80'\n", "x = '€'"),
            (
                "koi8-r",
                b"# coding: koi8-r\nx = '\xd0\xd2\xc9'\n",
                "x = 'при'",
            ),
            (
                "shift_jis",
                b"# coding: shift_jis\nx = '\x82\xa0'\n",
                "x = 'あ'",
            ),
            (
                "iso8859-9",
                b"# coding: iso8859-9\nx = '\xfd\x80'\n",
                "x = 'ı\u{80}'",
            ),
        ];
        for (name, bytes, line) in cases {
            let text = decode("t.py", bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(text.lines().nth(1), Some(line), "{name}");
        }
        let err = decode("t.py", b"# coding: shift_jis\nx = '\x82'\n").unwrap_err();
        assert!(err.starts_with("t.py, line 1: "), "{err}");
    }
}

//! Reading a Python source file's bytes as Python does (PEP 263): UTF-8 unless a UTF-8 byte-order
//! mark or an encoding declaration (`# -*- coding: latin-1 -*-` on the first line, or on the second
//! when the first is blank or a comment) says otherwise.
//!
//! The declaration is found and its name normalised here, as CPython's tokenizer and
//! `codecs.lookup` do; UTF-8, Latin-1 and ASCII are decoded here. Other encodings are decoded by
//! the caller's [`Decoder`] under their WHATWG label (the CLI uses `encoding_rs`, the page the
//! browser's `TextDecoder`), so the page's wasm carries no encoding tables. The library stays pure.

use std::fmt;

/// Decodes bytes in an encoding the library does not decode itself, by its WHATWG label; `None`
/// when the bytes are malformed in it.
pub trait Decoder {
    fn decode(&self, label: &'static str, bytes: &[u8]) -> Option<String>;
}

/// Why the bytes are not a Python source file, in Python's words where Python has them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodingError {
    pub line: u32,
    pub message: String,
}

impl fmt::Display for EncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// How a codec Python knows is decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Codec {
    Utf8,
    Latin1,
    Ascii,
    /// A WHATWG label whose decoder gives what Python's codec gives for every byte sequence Python
    /// accepts.
    Label(&'static str),
    /// A Windows code page: as the WHATWG decoder, except that the bytes Python's codec leaves
    /// undefined (which WHATWG maps to C1 controls) are errors.
    Windows(&'static str),
    /// ISO-8859-9 and -11, which WHATWG reads as their Windows supersets: bytes 0x80–0x9F are C1
    /// controls in Python's codec.
    IsoViaWindows(&'static str),
    /// Python knows it, but it cannot hold a declaration readable as ASCII (UTF-16, UTF-32) or no
    /// decoder here reproduces it.
    Unsupported,
}

/// Python's codec for a declared name: `codecs.lookup` after the tokenizer's own normalisation.
fn codec(name: &str) -> Option<(Codec, String)> {
    // The tokenizer's `get_normal_name`: the first 12 characters, lowercased, `_` read as `-`.
    let head: String = name
        .chars()
        .take(12)
        .map(|c| {
            if c == '_' {
                '-'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    let starts = |p: &str| head == p || head.starts_with(&format!("{p}-"));
    if starts("utf-8") {
        return Some((Codec::Utf8, "utf-8".into()));
    }
    if starts("latin-1") || starts("iso-8859-1") || starts("iso-latin-1") {
        return Some((Codec::Latin1, "iso-8859-1".into()));
    }
    // `encodings.normalize_encoding`, then the alias table.
    let mut norm = String::new();
    let mut gap = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            if gap && !norm.is_empty() {
                norm.push('_');
            }
            gap = false;
            norm.push(c.to_ascii_lowercase());
        } else {
            gap = true;
        }
    }
    let canonical = ALIASES
        .iter()
        .find(|(alias, _)| *alias == norm)
        .map_or(norm.as_str(), |(_, c)| c);
    let codec = match canonical {
        "utf_8" | "utf_8_sig" => Codec::Utf8,
        "latin_1" => Codec::Latin1,
        "ascii" => Codec::Ascii,
        "cp1250" => Codec::Windows("windows-1250"),
        "cp1251" => Codec::Windows("windows-1251"),
        "cp1252" => Codec::Windows("windows-1252"),
        "cp1253" => Codec::Windows("windows-1253"),
        "cp1254" => Codec::Windows("windows-1254"),
        "cp1255" => Codec::Windows("windows-1255"),
        "cp1256" => Codec::Windows("windows-1256"),
        "cp1257" => Codec::Windows("windows-1257"),
        "cp1258" => Codec::Windows("windows-1258"),
        "cp874" => Codec::Windows("windows-874"),
        "iso8859_2" => Codec::Label("iso-8859-2"),
        "iso8859_3" => Codec::Label("iso-8859-3"),
        "iso8859_4" => Codec::Label("iso-8859-4"),
        "iso8859_5" => Codec::Label("iso-8859-5"),
        "iso8859_6" => Codec::Label("iso-8859-6"),
        "iso8859_7" => Codec::Label("iso-8859-7"),
        "iso8859_8" => Codec::Label("iso-8859-8"),
        "iso8859_9" => Codec::IsoViaWindows("windows-1254"),
        "iso8859_10" => Codec::Label("iso-8859-10"),
        "iso8859_11" => Codec::IsoViaWindows("windows-874"),
        "iso8859_13" => Codec::Label("iso-8859-13"),
        "iso8859_14" => Codec::Label("iso-8859-14"),
        "iso8859_15" => Codec::Label("iso-8859-15"),
        "iso8859_16" => Codec::Label("iso-8859-16"),
        "koi8_r" => Codec::Label("koi8-r"),
        "koi8_u" => Codec::Label("koi8-u"),
        "cp866" => Codec::Label("ibm866"),
        "mac_roman" => Codec::Label("macintosh"),
        "mac_cyrillic" => Codec::Label("x-mac-cyrillic"),
        "shift_jis" | "cp932" => Codec::Label("shift_jis"),
        "euc_jp" => Codec::Label("euc-jp"),
        "iso2022_jp" => Codec::Label("iso-2022-jp"),
        "gbk" | "gb2312" => Codec::Label("gbk"),
        "gb18030" => Codec::Label("gb18030"),
        "big5" => Codec::Label("big5"),
        "euc_kr" | "cp949" => Codec::Label("euc-kr"),
        "utf_16" | "utf_16_le" | "utf_16_be" | "utf_32" | "utf_32_le" | "utf_32_be" | "utf_7"
        | "cp037" | "cp500" | "cp1140" | "big5hkscs" | "hz" | "johab" | "cp437" | "cp850"
        | "cp852" | "cp855" | "cp857" | "cp858" | "cp860" | "cp861" | "cp862" | "cp863"
        | "cp864" | "cp865" | "cp869" | "mac_greek" | "mac_iceland" | "mac_latin2"
        | "mac_turkish" | "iso2022_kr" | "euc_jis_2004" | "shift_jis_2004" => Codec::Unsupported,
        _ => return None,
    };
    Some((codec, canonical.to_string()))
}

/// Python's aliases (`encodings.aliases`) for the codecs above: normalised alias → codec.
const ALIASES: &[(&str, &str)] = &[
    ("utf8", "utf_8"),
    ("u8", "utf_8"),
    ("utf", "utf_8"),
    ("cp65001", "utf_8"),
    ("utf8_sig", "utf_8_sig"),
    ("latin", "latin_1"),
    ("latin1", "latin_1"),
    ("l1", "latin_1"),
    ("iso8859", "latin_1"),
    ("iso8859_1", "latin_1"),
    ("iso_8859_1", "latin_1"),
    ("8859", "latin_1"),
    ("cp819", "latin_1"),
    ("ibm819", "latin_1"),
    ("us_ascii", "ascii"),
    ("us", "ascii"),
    ("646", "ascii"),
    ("ansi_x3.4_1968", "ascii"),
    ("windows_1250", "cp1250"),
    ("windows_1251", "cp1251"),
    ("windows_1252", "cp1252"),
    ("windows_1253", "cp1253"),
    ("windows_1254", "cp1254"),
    ("windows_1255", "cp1255"),
    ("windows_1256", "cp1256"),
    ("windows_1257", "cp1257"),
    ("windows_1258", "cp1258"),
    ("1250", "cp1250"),
    ("1251", "cp1251"),
    ("1252", "cp1252"),
    ("1253", "cp1253"),
    ("1254", "cp1254"),
    ("1255", "cp1255"),
    ("1256", "cp1256"),
    ("1257", "cp1257"),
    ("1258", "cp1258"),
    ("iso_8859_2", "iso8859_2"),
    ("latin2", "iso8859_2"),
    ("l2", "iso8859_2"),
    ("iso_8859_5", "iso8859_5"),
    ("cyrillic", "iso8859_5"),
    ("iso_8859_7", "iso8859_7"),
    ("greek", "iso8859_7"),
    ("iso_8859_9", "iso8859_9"),
    ("latin5", "iso8859_9"),
    ("l5", "iso8859_9"),
    ("iso_8859_11", "iso8859_11"),
    ("thai", "iso8859_11"),
    ("iso_8859_15", "iso8859_15"),
    ("latin9", "iso8859_15"),
    ("l9", "iso8859_15"),
    ("cskoi8r", "koi8_r"),
    ("866", "cp866"),
    ("ibm866", "cp866"),
    ("macintosh", "mac_roman"),
    ("macroman", "mac_roman"),
    ("sjis", "shift_jis"),
    ("s_jis", "shift_jis"),
    ("shiftjis", "shift_jis"),
    ("ms932", "cp932"),
    ("932", "cp932"),
    ("mskanji", "cp932"),
    ("ms_kanji", "cp932"),
    ("eucjp", "euc_jp"),
    ("ujis", "euc_jp"),
    ("u_jis", "euc_jp"),
    ("iso2022jp", "iso2022_jp"),
    ("iso_2022_jp", "iso2022_jp"),
    ("936", "gbk"),
    ("cp936", "gbk"),
    ("ms936", "gbk"),
    ("chinese", "gb2312"),
    ("euc_cn", "gb2312"),
    ("euccn", "gb2312"),
    ("gb18030_2000", "gb18030"),
    ("big5_tw", "big5"),
    ("csbig5", "big5"),
    ("euckr", "euc_kr"),
    ("korean", "euc_kr"),
    ("ksc5601", "euc_kr"),
    ("ks_c_5601", "euc_kr"),
    ("ks_c_5601_1987", "euc_kr"),
    ("949", "cp949"),
    ("ms949", "cp949"),
    ("uhc", "cp949"),
    ("u16", "utf_16"),
    ("utf16", "utf_16"),
    ("u32", "utf_32"),
    ("utf32", "utf_32"),
];

/// The name an encoding declaration on this line gives (CPython's `get_coding_spec`): the line is a
/// comment (only blanks before `#`), and holds `coding` followed by `:` or `=`, blanks, then a name.
fn declaration(line: &[u8]) -> Option<String> {
    let hash = line.iter().position(|&b| b == b'#')?;
    if !line[..hash]
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\x0c'))
    {
        return None;
    }
    let mut i = hash;
    while i + 6 <= line.len() {
        if &line[i..i + 6] == b"coding" {
            let mut t = i + 6;
            if matches!(line.get(t), Some(b':' | b'=')) {
                t += 1;
                while matches!(line.get(t), Some(b' ' | b'\t')) {
                    t += 1;
                }
                let begin = t;
                while line
                    .get(t)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
                {
                    t += 1;
                }
                if t > begin {
                    return Some(String::from_utf8_lossy(&line[begin..t]).into_owned());
                }
            }
        }
        i += 1;
    }
    None
}

/// Whether a line holds nothing but blanks or a comment.
fn blank_or_comment(line: &[u8]) -> bool {
    match line
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\x0c' | b'\r' | b'\n'))
    {
        None => true,
        Some(i) => line[i] == b'#',
    }
}

/// The first two lines of the file (with their ends).
fn first_lines(bytes: &[u8]) -> (&[u8], &[u8]) {
    let end = |from: usize| {
        bytes[from..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| from + i + 1)
    };
    let one = end(0);
    let two = end(one);
    (&bytes[..one], &bytes[one..two])
}

/// Whether a file whose first bytes are `head` is read as UTF-8 (no declaration, or one that names
/// UTF-8; a UTF-8 byte-order mark or not): then its text is exactly what a UTF-8 decoder gives
/// without the mark, and [`decode`] only adds Python's words for a malformed byte. `head` must hold
/// the file's first two lines whole (or the whole file): the declaration is on one of them. A
/// caller with a large file (the page) decodes such a file with its own streaming decoder and calls
/// [`decode`] for the rest, or for the error.
pub fn reads_as_utf8(head: &[u8]) -> bool {
    let body = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    match declared(body) {
        None => true,
        Some((_, name)) => matches!(codec(&name), Some((Codec::Utf8, _))),
    }
}

/// The encoding declaration of a file (without its BOM), with its line (1 or 2).
fn declared(body: &[u8]) -> Option<(u32, String)> {
    let (one, two) = first_lines(body);
    declaration(one)
        .map(|n| (1, n))
        .or_else(|| blank_or_comment(one).then(|| declaration(two).map(|n| (2, n)))?)
}

/// The file's text, read as Python reads it; the error says why Python would refuse it.
pub fn decode(bytes: &[u8], other: &dyn Decoder) -> Result<String, EncodingError> {
    let (bom, body) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (true, rest),
        None => (false, bytes),
    };
    let declared = declared(body);
    let (codec, line, name) = match &declared {
        None => (Codec::Utf8, 0, "utf-8".to_string()),
        Some((line, name)) => match codec(name) {
            Some((c, _)) => (c, *line, name.clone()),
            None => {
                return Err(EncodingError {
                    line: *line,
                    message: format!("unknown encoding: {name}"),
                })
            }
        },
    };
    if bom && codec != Codec::Utf8 {
        return Err(EncodingError {
            line,
            message: format!("encoding problem: {name} with BOM"),
        });
    }
    let bad_byte = |at: usize| {
        let line = 1 + body[..at].iter().filter(|&&b| b == b'\n').count() as u32;
        (line, body[at])
    };
    match codec {
        Codec::Utf8 => std::str::from_utf8(body).map(str::to_string).map_err(|e| {
            let (line, byte) = bad_byte(e.valid_up_to());
            EncodingError {
                line,
                message: if declared.is_some() {
                    format!("(unicode error) 'utf-8' codec can't decode byte 0x{byte:02x}")
                } else {
                    format!(
                        "Non-UTF-8 code starting with '\\x{byte:02x}', but no encoding declared; see https://peps.python.org/pep-0263/ for details"
                    )
                },
            }
        }),
        Codec::Latin1 => Ok(body.iter().map(|&b| char::from(b)).collect()),
        Codec::Ascii => match body.iter().position(|b| !b.is_ascii()) {
            None => Ok(String::from_utf8_lossy(body).into_owned()),
            Some(at) => {
                let (line, byte) = bad_byte(at);
                Err(EncodingError {
                    line,
                    message: format!("(unicode error) 'ascii' codec can't decode byte 0x{byte:02x}"),
                })
            }
        },
        Codec::Label(label) => other.decode(label, body).ok_or_else(|| EncodingError {
            line,
            message: format!("(unicode error) the file is not valid {name}"),
        }),
        Codec::Windows(label) => match other.decode(label, body) {
            Some(text) if !text.chars().any(|c| ('\u{80}'..='\u{9f}').contains(&c)) => Ok(text),
            _ => Err(EncodingError {
                line,
                message: format!("(unicode error) the file is not valid {name}: a byte {name} does not define"),
            }),
        },
        Codec::IsoViaWindows(label) => {
            let mut out = String::with_capacity(body.len());
            for &b in body {
                if (0x80..=0x9f).contains(&b) || b < 0x80 {
                    out.push(char::from(b));
                } else {
                    out.push_str(&other.decode(label, &[b]).ok_or_else(|| EncodingError {
                        line,
                        message: format!("(unicode error) the file is not valid {name}"),
                    })?);
                }
            }
            Ok(out)
        }
        Codec::Unsupported => Err(EncodingError {
            line,
            message: format!(
                "the file declares the encoding {name}, which Python knows and bench-explorer does not read"
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A decoder for the tests: Windows-1252 for the bytes the tests use, else nothing.
    struct Cp1252;
    impl Decoder for Cp1252 {
        fn decode(&self, label: &'static str, bytes: &[u8]) -> Option<String> {
            (label == "windows-1252").then(|| {
                bytes
                    .iter()
                    .map(|&b| match b {
                        0x80 => '€',
                        0x81 => '\u{81}',
                        b => char::from(b),
                    })
                    .collect()
            })
        }
    }

    fn read(bytes: &[u8]) -> Result<String, EncodingError> {
        decode(bytes, &Cp1252)
    }

    #[test]
    fn utf8_by_default_and_after_a_bom() {
        assert_eq!(read("x = 'é'\n".as_bytes()).unwrap(), "x = 'é'\n");
        assert_eq!(read(b"\xEF\xBB\xBFx = 1\n").unwrap(), "x = 1\n");
        let err = read(b"x = '\xe9'\n").unwrap_err();
        assert!(
            err.message
                .starts_with("Non-UTF-8 code starting with '\\xe9'"),
            "{err}"
        );
    }

    #[test]
    fn reads_as_utf8_exactly_when_decode_is_a_utf8_decoder() {
        let files: [&[u8]; 9] = [
            b"x = 1\n",
            b"\xEF\xBB\xBFx = 1\n",
            b"# -*- coding: utf-8 -*-\nx = '\xc3\xa9'\n",
            b"#!/usr/bin/env python\n# coding=UTF_8\nx = 1\n",
            b"# coding: latin-1\nx = '\xe9'\n",
            b"\n# vim: set fileencoding=cp1252 :\nx = '\x80'\n",
            b"\xEF\xBB\xBF# coding: latin-1\nx = 1\n",
            b"# coding: no-such-codec\nx = 1\n",
            b"x = 1\n# coding: latin-1\n",
        ];
        for bytes in files {
            let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            let as_utf8 = std::str::from_utf8(body).ok().map(str::to_string);
            let decoded = read(bytes).ok();
            assert_eq!(
                reads_as_utf8(bytes),
                decoded.is_some() && decoded == as_utf8,
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        // A declaration on line 2 is seen only when `head` holds line 2.
        assert!(!reads_as_utf8(b"#!python\n# coding: latin-1\n"));
    }

    #[test]
    fn a_declaration_on_the_first_or_second_line() {
        assert_eq!(
            read(b"# -*- coding: latin-1 -*-\nx = '\xe9'\n").unwrap(),
            "# -*- coding: latin-1 -*-\nx = 'é'\n"
        );
        assert_eq!(
            read(b"#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-1 :\nx = '\xe9'\n")
                .unwrap()
                .lines()
                .nth(2),
            Some("x = 'é'")
        );
        // Not on the second line when the first is code, nor on the third.
        assert!(read(b"x = 1\n# coding: latin-1\ny = '\xe9'\n").is_err());
        assert!(read(b"#\n#\n# coding: latin-1\ny = '\xe9'\n").is_err());
        // Not after code on the same line.
        assert!(read(b"x = 1  # coding: latin-1\ny = '\xe9'\n").is_err());
    }

    #[test]
    fn names_are_normalised_as_python_does() {
        for spelling in [
            "latin-1",
            "LATIN_1",
            "iso-8859-1-foo",
            "latin1",
            "l1",
            "ISO8859-1",
        ] {
            let text = format!("# coding={spelling}\nx = '");
            let mut bytes = text.into_bytes();
            bytes.extend_from_slice(b"\xe9'\n");
            assert!(read(&bytes).unwrap().ends_with("x = 'é'\n"), "{spelling}");
        }
        assert_eq!(
            read(b"# coding: cp1252\nx = '\x80'\n").unwrap(),
            "# coding: cp1252\nx = '€'\n"
        );
        assert_eq!(
            read(b"# coding: windows-1252\nx = '\x80'\n").unwrap(),
            "# coding: windows-1252\nx = '€'\n"
        );
    }

    #[test]
    fn what_python_refuses_is_refused() {
        assert_eq!(
            read(b"# coding: klingon\n").unwrap_err().message,
            "unknown encoding: klingon"
        );
        assert!(read(b"\xEF\xBB\xBF# coding: latin-1\n")
            .unwrap_err()
            .message
            .contains("with BOM"));
        // A byte Windows-1252 leaves undefined.
        assert!(read(b"# coding: cp1252\nx = '\x81'\n").is_err());
        assert!(read(b"# coding: ascii\nx = '\xe9'\n").is_err());
        assert!(read(b"# coding: utf-16\n")
            .unwrap_err()
            .message
            .contains("does not read"));
    }
}

//! `unicode_names2::character(name)`, as the real crate 1.3.0 answers it, for ruff's parser (which
//! calls it to decode `"\N{...}"` escapes, and nothing else of the crate).
//!
//! The root Cargo.toml's `[patch.crates-io]` puts this crate in the real one's place. Natively the
//! names table is compiled in and `character` answers every name at once. In the page's wasm
//! (`wasm32-unknown-unknown`) the table is a separate file (`TABLE_FILE`, which the page's build
//! writes next to the wasm): until it is registered with [`register_table`], `character` answers
//! the algorithmic names (Hangul syllables, CJK unified ideographs) and returns `None` for the
//! others, which the parser reports as an unknown name; [`table_loaded`] says which case applies.
//!
//! `build.rs` builds the table from the real crate (its names, its perfect hash, its aliases); the
//! tests compare the two on every name and on millions of strings that are not names.

#![forbid(unsafe_code)]

mod table;

use std::sync::OnceLock;

pub use table::Table;

mod consts {
    include!(concat!(env!("OUT_DIR"), "/consts.rs"));
}
pub use consts::{MAX_NAME_LENGTH, TABLE_FILE};

/// Whether this build compiles the table in (everything but the page's wasm).
pub const EMBEDDED: bool = !cfg!(all(target_arch = "wasm32", target_os = "unknown"));

/// The table's bytes, as the page's build writes them to `TABLE_FILE` (natively only).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub static TABLE_BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/table.bin"));

static TABLE: OnceLock<Table> = OnceLock::new();

fn table() -> Option<&'static Table> {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        Some(TABLE.get_or_init(|| Table::decode(TABLE_BYTES).expect("the compiled-in table")))
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        TABLE.get()
    }
}

/// Register the table (the bytes of `TABLE_FILE`). An error if they are not this build's table;
/// registering again is a no-op.
pub fn register_table(bytes: &[u8]) -> Result<(), String> {
    if TABLE.get().is_some() {
        return Ok(());
    }
    let t = Table::decode(bytes).map_err(|e| format!("{TABLE_FILE}: {e}"))?;
    let _ = TABLE.set(t);
    Ok(())
}

/// Whether `character` can answer every name (always, natively).
pub fn table_loaded() -> bool {
    table().is_some()
}

/// Whether parsing `text` may need the table: it has a `\N` (Python's `\N{name}` escape). A cheap
/// over-approximation (the escape in a comment or a raw string counts too).
pub fn may_need_table(text: &str) -> bool {
    text.contains("\\N")
}

const HANGUL_SYLLABLE_PREFIX: &[u8] = b"HANGUL SYLLABLE ";
const CJK_UNIFIED_IDEOGRAPH_PREFIX: &[u8] = b"CJK UNIFIED IDEOGRAPH-";

static CHOSEONG: &[&str] = &[
    "G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P",
    "H",
];
static JUNGSEONG: &[&str] = &[
    "A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE",
    "WI", "YU", "EU", "YI", "I",
];
static JONGSEONG: &[&str] = &[
    "", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M",
    "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H",
];

/// The longest jamo of `list` that starts `s` (the real crate reads a syllable's parts greedily),
/// its index and the rest of `s`.
fn longest<'a>(list: &[&str], s: &'a [u8]) -> Option<(u32, &'a [u8])> {
    list.iter()
        .enumerate()
        .filter(|(_, j)| s.starts_with(j.as_bytes()))
        .max_by_key(|(_, j)| j.len())
        .map(|(i, j)| (i as u32, &s[j.len()..]))
}

fn is_cjk_unified_ideograph(cp: u32) -> bool {
    consts::CJK_RANGES
        .iter()
        .any(|&(lo, hi)| lo <= cp && cp <= hi)
}

/// The character called `name` (ASCII case does not matter), or `None`: the real crate's answer.
pub fn character(search_name: &str) -> Option<char> {
    if search_name.len() > MAX_NAME_LENGTH + 1 {
        return None;
    }
    let upper = search_name.as_bytes().to_ascii_uppercase();
    let upper = upper.as_slice();

    if let Some(rest) = upper.strip_prefix(HANGUL_SYLLABLE_PREFIX) {
        let (l, rest) = longest(CHOSEONG, rest)?;
        let (v, rest) = longest(JUNGSEONG, rest)?;
        let (t, rest) = longest(JONGSEONG, rest)?;
        if !rest.is_empty() {
            return None;
        }
        return char::from_u32(0xAC00 + (l * 21 + v) * 28 + t);
    }

    if let Some(rest) = upper.strip_prefix(CJK_UNIFIED_IDEOGRAPH_PREFIX) {
        if rest.len() > 5 {
            return None;
        }
        let mut v = 0u32;
        for &c in rest {
            v = (v << 4)
                | match c {
                    b'0'..=b'9' => u32::from(c - b'0'),
                    b'A'..=b'F' => u32::from(c - b'A' + 10),
                    _ => return None,
                };
        }
        return if is_cjk_unified_ideograph(v) {
            char::from_u32(v)
        } else {
            None
        };
    }

    table()?.lookup(upper)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The whole comparison with the real crate is in reference/ (a workspace of its own); these are
    // facts of Unicode 16 that this crate must know without it.
    #[test]
    fn names_aliases_and_computed_names() {
        assert_eq!(character("DIGIT ONE"), Some('1'));
        assert_eq!(character("digit one"), Some('1'));
        assert_eq!(character("LATIN SMALL LETTER A"), Some('a'));
        assert_eq!(character("SNOWMAN"), Some('☃'));
        assert_eq!(character("LINE FEED"), Some('\n'));
        assert_eq!(character("BYTE ORDER MARK"), Some('\u{feff}'));
        assert_eq!(character("HANGUL SYLLABLE GA"), Some('\u{ac00}'));
        assert_eq!(character("hangul syllable hih"), Some('\u{d7a3}'));
        assert_eq!(character("CJK UNIFIED IDEOGRAPH-4E00"), Some('\u{4e00}'));
        assert_eq!(character("CJK UNIFIED IDEOGRAPH-2A6FF"), None);
        for no in [
            "",
            "DIGIT",
            "DIGIT  ONE",
            "HANGUL SYLLABLE BLAH",
            "x".repeat(100).as_str(),
        ] {
            assert_eq!(character(no), None, "{no:?}");
        }
    }

    #[test]
    fn bad_tables_are_refused() {
        let bytes = TABLE_BYTES;
        assert!(Table::decode(bytes).is_ok());
        assert!(Table::decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(Table::decode(&bytes[..bytes.len() / 2]).is_err());
        assert!(Table::decode(b"<!doctype html><html></html>").is_err());
        assert!(Table::decode(b"").is_err());
        let mut more = bytes.to_vec();
        more.push(0);
        assert!(Table::decode(&more).is_err());
        assert!(TABLE_FILE.starts_with("unicode-names-") && TABLE_FILE.ends_with(".bin"));
    }

    #[test]
    fn may_need_table_looks_for_backslash_n() {
        assert!(may_need_table(r#"x = "\N{DIGIT ONE}""#));
        assert!(!may_need_table(r#"x = "\n{DIGIT ONE}""#));
        assert!(!may_need_table("x = 1"));
    }
}

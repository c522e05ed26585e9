//! Rewrite `../data/names.txt` and `../data/cjk-ranges.txt` from the real unicode_names2 1.3.0 (its
//! `name` for every code point). `data/aliases.txt` comes from the NameAliases.txt it ships
//! (scripts/unicode-aliases.sh). Run after changing the real crate's version, then the tests.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
    let mut names = String::from(
        "# Every character name of unicode_names2 1.3.0 (Unicode 16.0's UnicodeData.txt; Unicode-DFS-2016\n\
         # licence, see https://www.unicode.org/license.txt) but the computed ones (CJK unified\n\
         # ideographs, Hangul syllables), in code point order, one a line: the code point's distance from\n\
         # the previous one (hex, empty for 1), the length of the prefix shared with the previous name,\n\
         # the rest of the name. Written by crates/unicode-names/reference (cargo run); do not edit.\n",
    );
    let mut cjk: Vec<(u32, u32)> = Vec::new();
    let (mut last, mut prev) = (0u32, String::new());
    let mut count = 0;
    for cp in 0..=0x10FFFFu32 {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        let Some(name) = upstream::name(c) else {
            continue;
        };
        let name = name.to_string();
        if (0xAC00..=0xD7A3).contains(&cp) {
            continue;
        }
        if let Some(hex) = name.strip_prefix("CJK UNIFIED IDEOGRAPH-") {
            assert_eq!(hex, format!("{cp:X}"));
            match cjk.last_mut() {
                Some((_, hi)) if *hi + 1 == cp => *hi = cp,
                _ => cjk.push((cp, cp)),
            }
            continue;
        }
        assert!(name.is_ascii() && !name.contains(['\n', ';']), "{cp:X}");
        let shared = prev
            .bytes()
            .zip(name.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let delta = cp - last;
        let delta = if delta == 1 {
            String::new()
        } else {
            format!("{delta:X}")
        };
        writeln!(names, "{delta};{shared};{}", &name[shared..]).unwrap();
        (last, prev) = (cp, name);
        count += 1;
    }
    std::fs::write(data.join("names.txt"), names).expect("names.txt");
    let mut ranges = String::from(
        "# The CJK unified ideographs' ranges (their names are computed), as FIRST;LAST.\n\
         # Written by crates/unicode-names/reference (cargo run); do not edit.\n",
    );
    for (lo, hi) in &cjk {
        writeln!(ranges, "{lo:X};{hi:X}").unwrap();
    }
    std::fs::write(data.join("cjk-ranges.txt"), ranges).expect("cjk-ranges.txt");
    eprintln!(
        "wrote {count} names and {} CJK ranges to {}",
        cjk.len(),
        data.display()
    );
}

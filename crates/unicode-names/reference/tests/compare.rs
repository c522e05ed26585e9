//! The patch crate's `character` (`ours`) against the real `unicode_names2` 1.3.0 (`upstream`): every name, every
//! alias, and millions of strings that are not names, including the ones the real crate's loose
//! match accepts (a name followed by anything that hashes to that name's slot).

fn same(s: &str) {
    assert_eq!(
        ours::character(s),
        upstream::character(s),
        "character({s:?}) differs from unicode_names2 1.3.0"
    );
}

/// Every named character (the CJK unified ideographs and Hangul syllables included), by its name,
/// in upper and lower case.
#[test]
fn every_name() {
    let mut count = 0;
    for cp in 0..=0x10FFFFu32 {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        let Some(name) = upstream::name(c) else {
            continue;
        };
        let name = name.to_string();
        assert_eq!(ours::character(&name), Some(c), "{name}");
        assert_eq!(
            ours::character(&name.to_ascii_lowercase()),
            upstream::character(&name.to_ascii_lowercase()),
            "{name} in lower case"
        );
        count += 1;
    }
    // Unicode 16: 40,013 listed names, 11,172 Hangul syllables, 97,680 CJK unified ideographs.
    assert!(count > 140_000, "{count} names");
}

fn registry_name_aliases() -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata");
    assert!(out.status.success(), "cargo metadata failed");
    let json = String::from_utf8(out.stdout).unwrap();
    // The real crate's manifest path (the registry one, not this crate's).
    let manifest = json
        .split("\"manifest_path\":\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .find(|p| p.contains("unicode_names2-1.3.0") && p.ends_with("Cargo.toml"))
        .expect("unicode_names2 1.3.0 in cargo metadata");
    let dir = std::path::Path::new(manifest).parent().unwrap();
    std::fs::read_to_string(dir.join("data/NameAliases.txt")).expect("NameAliases.txt")
}

/// Every alias of the real crate's NameAliases.txt (so data/aliases.txt is whole and right), and
/// each of our table's aliases.
#[test]
fn every_alias() {
    let text = registry_name_aliases();
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split(';');
        let cp = u32::from_str_radix(parts.next().unwrap(), 16).unwrap();
        let alias = parts.next().unwrap();
        same(alias);
        same(&alias.to_ascii_lowercase());
        // Not a given: the real crate's loose match can shadow an alias. Then both agree anyway.
        if upstream::character(alias) == char::from_u32(cp) {
            n += 1;
        }
    }
    assert!(n > 400, "{n} aliases");
    let table = ours::Table::decode(ours::TABLE_BYTES).unwrap();
    let mut ours_n = 0;
    for (alias, _) in table.aliases() {
        same(std::str::from_utf8(alias).unwrap());
        ours_n += 1;
    }
    assert_eq!(
        ours_n,
        text.lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .count()
    );
}

/// Names with something after them: the real crate accepts some of these (its hash sends them to
/// the slot of the name they start with, and it checks only that the slot's name is a prefix), so
/// this checks that our table has the real crate's hash, seed and slots, not just its names.
#[test]
fn names_with_a_suffix_and_the_loose_match() {
    let table = ours::Table::decode(ours::TABLE_BYTES).unwrap();
    let suffixes: Vec<String> = [
        " ",
        "-",
        "S",
        "X",
        "1",
        "-1",
        " A",
        " SIGN",
        " WITH DOT",
        "é",
        "\u{0}",
        "??",
        " 2",
        "ZZ",
        "-A",
        "Q",
        " LETTER",
        "E",
        "Y",
        "0",
        "9",
        "AB",
        "'",
        "_",
        "!",
        ".",
        " B",
        " I",
        "K",
        "LL",
        "MM",
        " FORM",
        "-0",
        "-Z",
        ")",
        "}",
        "OF",
        " OF",
        "A B",
        "ŝ",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut loose = 0;
    let mut checked = 0;
    for (name, _) in table.names() {
        let name = std::str::from_utf8(name).unwrap();
        for suffix in &suffixes {
            let s = format!("{name}{suffix}");
            let theirs = upstream::character(&s);
            assert_eq!(ours::character(&s), theirs, "character({s:?})");
            if theirs.is_some() && upstream::character(name) == theirs {
                loose += 1;
            }
            checked += 1;
        }
        // Cut short, and one letter changed.
        let cut = &name[..name.len() / 2];
        same(cut);
        let mut changed = name.as_bytes().to_vec();
        let i = changed.len() / 3;
        changed[i] = if changed[i] == b'Z' { b'Y' } else { b'Z' };
        same(std::str::from_utf8(&changed).unwrap());
    }
    assert!(checked > 1_000_000);
    // Expected about one per suffix (each lands in its name's slot with probability 1/40,013).
    assert!(
        loose > 0,
        "no loose match found: the test did not exercise it"
    );
}

/// `HANGUL SYLLABLE ` followed by every string of up to 4 letters from the jamo's alphabet.
#[test]
fn hangul_syllable_strings() {
    let letters = b"GNDRMBSJCKTPHAEYOUWIL";
    let mut words: Vec<Vec<u8>> = vec![Vec::new()];
    let mut frontier = words.clone();
    for _ in 0..4 {
        let mut next = Vec::new();
        for w in &frontier {
            for &l in letters {
                let mut v = w.clone();
                v.push(l);
                next.push(v);
            }
        }
        words.extend(next.iter().cloned());
        frontier = next;
    }
    let mut found = 0;
    for w in &words {
        let s = format!("HANGUL SYLLABLE {}", std::str::from_utf8(w).unwrap());
        same(&s);
        same(&s.to_ascii_lowercase());
        found += usize::from(upstream::character(&s).is_some());
    }
    assert!(found > 1000);
}

/// `CJK UNIFIED IDEOGRAPH-` followed by hex and non-hex, inside, between and outside the ranges.
#[test]
fn cjk_strings() {
    for v in (0..0x110000u32).step_by(7) {
        same(&format!("CJK UNIFIED IDEOGRAPH-{v:X}"));
        same(&format!("cjk unified ideograph-{v:x}"));
        same(&format!("CJK UNIFIED IDEOGRAPH-{v:06X}"));
    }
    for s in [
        "", "G", "4E0G", "+4E00", "4E00 ", " 4E00", "00004E00", "4e00",
    ] {
        same(&format!("CJK UNIFIED IDEOGRAPH-{s}"));
    }
}

/// Odd inputs, lengths around the longest name, and pseudo-random strings.
#[test]
fn other_strings() {
    let longest = "x".repeat(ours::MAX_NAME_LENGTH);
    for s in [
        "",
        " ",
        "-",
        "\u{0}",
        "öäå",
        "SPAACE",
        "DIGIT ONE",
        "digit one",
        "Digit One",
        "DIGIT  ONE",
        " DIGIT ONE",
        "LINE FEED",
        "LF",
        "NEL",
        "BYTE ORDER MARK",
        longest.as_str(),
    ] {
        same(s);
    }
    let table = ours::Table::decode(ours::TABLE_BYTES).unwrap();
    // A real name padded to the longest length and beyond.
    let (first, _) = table.names().next().unwrap();
    let first = std::str::from_utf8(first).unwrap();
    for extra in 0..(ours::MAX_NAME_LENGTH + 4) {
        same(&format!("{first}{}", " ".repeat(extra)));
    }
    let mut x: u64 = 0x2545F4914F6CDD1D;
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ -0123456789abcdefz";
    for _ in 0..300_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let len = (x % 24) as usize;
        let s: String = (0..len)
            .map(|i| alphabet[((x >> (i * 2)) as usize + i * 7) % alphabet.len()] as char)
            .collect();
        same(&s);
    }
}

#[test]
fn bad_tables_are_refused_and_the_table_is_compiled_in() {
    let bytes = ours::TABLE_BYTES;
    assert!(ours::Table::decode(bytes).is_ok());
    assert!(ours::Table::decode(&bytes[..bytes.len() - 1]).is_err());
    assert!(ours::Table::decode(&bytes[..bytes.len() / 2]).is_err());
    assert!(ours::Table::decode(b"<!doctype html><html></html>").is_err());
    assert!(ours::Table::decode(b"").is_err());
    let mut more = bytes.to_vec();
    more.push(0);
    assert!(ours::Table::decode(&more).is_err());
    // Natively the table is compiled in: registering anything else changes nothing.
    assert!(ours::table_loaded());
    let _ = ours::register_table(b"not a table");
    assert_eq!(ours::character("DIGIT ONE"), Some('1'));
}

#[test]
fn may_need_table() {
    assert!(ours::may_need_table(r#"x = "\N{DIGIT ONE}""#));
    assert!(!ours::may_need_table(r#"x = "\n{DIGIT ONE}""#));
    assert!(!ours::may_need_table("x = 1"));
}

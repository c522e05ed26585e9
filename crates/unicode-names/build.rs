//! Builds the names table so that this crate's `character` gives the real `unicode_names2` 1.3.0's
//! answer for every input:
//!
//! - `data/names.txt`: every name the real crate knows (through its `name`; Unicode 16's
//!   `UnicodeData.txt`) but the computed ones (CJK unified ideographs, whose ranges are in
//!   `data/cjk-ranges.txt`, and Hangul syllables), written from the real crate by `reference/`;
//! - the real crate's perfect hash (seed, displacements, slot order), rebuilt here by its generator
//!   crate at the same version, from the same (code point, name) list in the same order, with the
//!   same parameters. `character` looks a name up through it exactly as the real crate does,
//!   including its one loose match (a slot's name that is a prefix of the searched name matches);
//!   `reference/`'s tests compare the two on every name and on millions of non-names;
//! - `data/aliases.txt`: the aliases (Unicode's `NameAliases.txt`, as the real crate ships it).
//!
//! Outputs in OUT_DIR: `table.bin` (the table, in the format `src/table.rs` reads) and
//! `consts.rs` (the CJK ranges, the longest name's length, the table's file name).

use std::fmt::Write as _;
use std::path::PathBuf;

/// The generator's input carries these stand-in code points (k-th name → FAKE_BASE + k), so its
/// output, which prints them as `'\u{f....}'`, reads back without parsing every form of char literal.
const FAKE_BASE: u32 = 0xF0000;

fn data_lines(file: &str) -> Vec<String> {
    println!("cargo:rerun-if-changed=data/{file}");
    std::fs::read_to_string(format!("data/{file}"))
        .unwrap_or_else(|e| panic!("data/{file}: {e}"))
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));

    // 1. Every name, in code point order (UnicodeData.txt's order), and the CJK ranges.
    let mut names: Vec<(u32, String)> = Vec::new();
    let (mut last, mut prev) = (0u32, String::new());
    for line in data_lines("names.txt") {
        let mut f = line.splitn(3, ';');
        let (delta, shared, rest) = (f.next().unwrap(), f.next(), f.next());
        let (Some(shared), Some(rest)) = (shared, rest) else {
            panic!("data/names.txt: {line}")
        };
        let delta = if delta.is_empty() {
            1
        } else {
            u32::from_str_radix(delta, 16).expect("hex")
        };
        let shared: usize = shared.parse().expect("shared length");
        let name = format!("{}{rest}", &prev[..shared]);
        last += delta;
        names.push((last, name.clone()));
        prev = name;
    }
    let cjk: Vec<(u32, u32)> = data_lines("cjk-ranges.txt")
        .iter()
        .map(|l| {
            let (lo, hi) = l.split_once(';').expect("FIRST;LAST");
            (
                u32::from_str_radix(lo, 16).expect("hex"),
                u32::from_str_radix(hi, 16).expect("hex"),
            )
        })
        .collect();
    assert!(names.len() < FAKE_BASE as usize && names.len() <= usize::from(u16::MAX));
    let max_len = names.iter().map(|(_, n)| n.len()).max().unwrap_or(0);

    // 2. The real crate's perfect hash: its generator, on the same list (lambda 3, 2 tries, as
    //    unicode_names2 1.3.0's build script asks).
    let mut data = String::new();
    for (k, (_, name)) in names.iter().enumerate() {
        writeln!(data, "{:X};{name};;;;;;;;;;;;;", FAKE_BASE + k as u32).unwrap();
    }
    let data: &'static str = Box::leak(data.into_boxed_str());
    let phf_path = out.join("phf.rs");
    unicode_names2_generator::generate_phf(data, Some(&phf_path), None, 3, 2);
    let phf = std::fs::read_to_string(&phf_path).expect("the generator's output");
    let seed: u64 = section(&phf, "NAME2CODE_N")
        .trim()
        .trim_end_matches(';')
        .trim()
        .parse()
        .expect("NAME2CODE_N");
    let disp_numbers = numbers(section(&phf, "NAME2CODE_DISP"));
    assert!(disp_numbers.len().is_multiple_of(2));
    let disps: Vec<(u16, u16)> = disp_numbers
        .chunks(2)
        .map(|p| (to_u16(p[0]), to_u16(p[1])))
        .collect();
    let slots: Vec<u16> = escapes(section(&phf, "NAME2CODE_CODE"))
        .into_iter()
        .map(|fake| to_u16(u64::from(fake - FAKE_BASE)))
        .collect();
    assert_eq!(slots.len(), names.len(), "one slot per name");

    // 3. The aliases.
    let mut aliases: Vec<(String, u32)> = data_lines("aliases.txt")
        .iter()
        .map(|l| {
            let (cp, name) = l.split_once(';').expect("CODE;ALIAS");
            (name.to_string(), u32::from_str_radix(cp, 16).expect("hex"))
        })
        .collect();
    aliases.sort();

    // The table (format: src/table.rs).
    let mut t: Vec<u8> = Vec::new();
    t.extend_from_slice(b"UNM1");
    t.extend_from_slice(&seed.to_le_bytes());
    for n in [names.len(), disps.len(), aliases.len()] {
        t.extend_from_slice(&(n as u32).to_le_bytes());
    }
    for (d1, d2) in &disps {
        t.extend_from_slice(&d1.to_le_bytes());
        t.extend_from_slice(&d2.to_le_bytes());
    }
    for s in &slots {
        t.extend_from_slice(&s.to_le_bytes());
    }
    let mut last = 0u32;
    for (cp, _) in &names {
        varint(&mut t, cp - last);
        last = *cp;
    }
    let mut prev: &str = "";
    for (_, name) in &names {
        let shared = prev
            .bytes()
            .zip(name.bytes())
            .take_while(|(a, b)| a == b)
            .count()
            .min(255);
        t.push(shared as u8);
        t.extend_from_slice(&name.as_bytes()[shared..]);
        t.push(b'\n');
        prev = name;
    }
    for (name, cp) in &aliases {
        varint(&mut t, *cp);
        t.extend_from_slice(name.as_bytes());
        t.push(b'\n');
    }
    // FNV-1a of the table names the file, so a browser never pairs a wasm with another build's table.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in &t {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x100000001b3);
    }
    std::fs::write(out.join("table.bin"), &t).expect("write table.bin");

    let mut consts = String::new();
    writeln!(
        consts,
        "/// The longest name's length (the real crate's `MAX_NAME_LENGTH`)."
    )
    .unwrap();
    writeln!(consts, "pub const MAX_NAME_LENGTH: usize = {max_len};").unwrap();
    writeln!(consts, "/// The CJK unified ideographs' ranges.").unwrap();
    writeln!(consts, "pub static CJK_RANGES: &[(u32, u32)] = &{cjk:?};").unwrap();
    writeln!(
        consts,
        "/// The table's file name (its content's hash in it)."
    )
    .unwrap();
    writeln!(
        consts,
        "pub const TABLE_FILE: &str = \"unicode-names-{:08x}.bin\";",
        h as u32
    )
    .unwrap();
    std::fs::write(out.join("consts.rs"), consts).expect("write consts.rs");
}

/// The text of `pub static NAME...` up to its closing `;`.
fn section<'a>(src: &'a str, name: &str) -> &'a str {
    let start = src
        .find(&format!("pub static {name}:"))
        .unwrap_or_else(|| panic!("{name} in the generator's output"));
    let rest = &src[start..];
    let eq = rest.find('=').expect("=");
    let end = rest.find(";\n").expect(";");
    &rest[eq + 1..end]
}

fn numbers(s: &str) -> Vec<u64> {
    let body = s.split_once("&[").expect("&[").1;
    body.split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().expect("number"))
        .collect()
}

fn escapes(s: &str) -> Vec<u32> {
    let body = s.split_once("&[").expect("&[").1;
    let items: Vec<&str> = body
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty() && *w != "]")
        .collect();
    items
        .iter()
        .map(|w| {
            let hex = w
                .strip_prefix("'\\u{")
                .and_then(|w| w.strip_suffix("}'"))
                .unwrap_or_else(|| panic!("a stand-in code point, not {w}"));
            u32::from_str_radix(hex, 16).expect("hex")
        })
        .collect()
}

fn to_u16(n: u64) -> u16 {
    u16::try_from(n).expect("fits in u16")
}

fn varint(out: &mut Vec<u8>, mut n: u32) {
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

//! `extract_with` (the page's worker re-extracts after each keystroke, reusing the tests an edit
//! cannot have changed) gives exactly what `extract` gives, after any edit: on every fixture,
//! bench, review and generated file, with random edits that favour the inside of functions (where
//! reuse happens), each followed by its undo, and edits in a chain (the memo of a memo).
//! `INCREMENTAL_EDITS=N` sets the number of edits per file (default 6).

use bench_explorer::{extract, extract_with, synth, Memo, Stage};

use crate::checks::*;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// What a typist inserts: digits and letters most, then what changes the syntax.
const TYPED: &[&str] = &[
    "7",
    "0",
    "x",
    "a",
    "_",
    " ",
    "1",
    "e",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "\"",
    "'",
    "#",
    ".",
    "+",
    "-",
    "*",
    "\\",
    "\t",
    "\n",
    "\r",
    "é",
    "assert ",
    "return ",
    "global x; ",
    "x = 1; ",
    "yield ",
    "del x; ",
    "pytest.skip(); ",
    "WORDS.append(1); ",
    "sol.",
    "\"\"\"",
];

/// What keeps most lines valid: six edits in ten type one of these.
const SAFE: &[&str] = &["7", "0", "9", "1", " ", "x", "_"];

/// A random edit of `text`: an insertion, a deletion or a replacement, at a char boundary, most
/// often in an indented line (a function's body).
fn edit(text: &str, rng: &mut Rng) -> String {
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0usize, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l))
        })
        .collect();
    let indented: Vec<&(usize, &str)> = lines
        .iter()
        .filter(|(_, l)| l.starts_with(' ') || l.starts_with('\t'))
        .collect();
    let (start, line) = if !indented.is_empty() && rng.below(10) < 8 {
        *indented[rng.below(indented.len())]
    } else if !lines.is_empty() {
        lines[rng.below(lines.len())]
    } else {
        (0, "")
    };
    let bounds: Vec<usize> = line
        .char_indices()
        .map(|(i, _)| i)
        .chain([line.len()])
        .collect();
    // Near the end of the line (after the value an assert checks) more often than not.
    let at = if rng.below(2) == 0 && bounds.len() > 1 {
        bounds[bounds.len() - 2]
    } else {
        bounds[rng.below(bounds.len())]
    };
    let pos = start + at;
    let typed = if rng.below(10) < 6 {
        SAFE[rng.below(SAFE.len())]
    } else {
        TYPED[rng.below(TYPED.len())]
    };
    let next_len = text[pos..].chars().next().map_or(0, char::len_utf8);
    match rng.below(4) {
        0 | 1 => format!("{}{}{}", &text[..pos], typed, &text[pos..]),
        2 => format!("{}{}", &text[..pos], &text[pos + next_len..]),
        _ => format!("{}{}{}", &text[..pos], typed, &text[pos + next_len..]),
    }
}

#[derive(Default)]
struct Tally {
    checked: usize,
    /// Extractions that reused at least one case.
    reusing: usize,
    reused: usize,
    flattened: usize,
    why_not: std::collections::BTreeMap<&'static str, usize>,
}

/// Extract `text` with the memo and without; they must agree. Whether the text has syntax errors.
fn check(
    file: &str,
    stage: Stage,
    text: &str,
    memo: &mut Memo,
    tally: &mut Tally,
    what: &str,
) -> bool {
    let opts = options(file, stage);
    let with = extract_with(text, &opts, memo);
    let without = extract(text, &opts);
    if with != without {
        let a = serde_json::to_string_pretty(&with).unwrap();
        let b = serde_json::to_string_pretty(&without).unwrap();
        let first = a
            .lines()
            .zip(b.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(0);
        let around = |s: &str| {
            s.lines()
                .skip(first.saturating_sub(8))
                .take(16)
                .collect::<Vec<_>>()
                .join("\n")
        };
        panic!(
            "{file} [{}] after {what}: extract_with differs from extract (reuse: {:?})\n--- with the memo\n{}\n--- without\n{}\n--- text\n{text}",
            stage.id(),
            memo.last_reuse(),
            around(&a),
            around(&b)
        );
    }
    tally.checked += 1;
    tally.reused += memo.last_reuse().reused;
    tally.reusing += usize::from(memo.last_reuse().reused > 0);
    tally.flattened += memo.last_reuse().flattened;
    if let Some(why) = memo.last_reuse().why_not {
        *tally.why_not.entry(why).or_default() += 1;
    }
    !without.syntax_errors.is_empty()
}

fn edits_per_file() -> usize {
    std::env::var("INCREMENTAL_EDITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6)
}

fn files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = corpus().to_vec();
    let review = root().join("tests/review");
    if let Ok(entries) = std::fs::read_dir(&review) {
        let mut dirs: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        dirs.sort();
        for dir in dirs {
            let Ok(inner) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut inner: Vec<_> = inner.flatten().map(|e| e.path()).collect();
            inner.sort();
            for path in inner {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if name.starts_with("test_") && name.ends_with(".py") {
                    if let Ok(src) = std::fs::read_to_string(&path) {
                        files.push((path.display().to_string(), src));
                    }
                }
            }
        }
    }
    files.push(("test_generated.py".into(), synth::test_file(300)));
    files
}

#[test]
fn extract_with_is_extract_after_any_edit() {
    let n = edits_per_file();
    let mut tally = Tally::default();
    for (i, (file, src)) in files().iter().enumerate() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1).wrapping_mul(0x1000_0001));
        // The faithful stage on most files; an earlier stage (the same memo, since every stage's
        // extraction flattens as the faithful one does) on every fourth.
        let stage = if i % 4 == 3 {
            Stage::SixShapes
        } else {
            Stage::Full
        };
        let mut memo = Memo::new();
        check(file, stage, src, &mut memo, &mut tally, "no edit");
        check(
            file,
            stage,
            src,
            &mut memo,
            &mut tally,
            "the same text again",
        );
        let mut text = src.clone();
        for k in 0..n {
            let edited = edit(&text, &mut rng);
            let broken = check(
                file,
                stage,
                &edited,
                &mut memo,
                &mut tally,
                &format!("edit {k}"),
            );
            // What the extractions set aside is freed now and then, as the page's worker does
            // after each reply (it must not change what the memo gives).
            if rng.below(3) == 0 {
                memo.release();
            }
            assert!(memo.set_aside_count() <= bench_explorer::MAX_ASIDE);
            // The chain goes on from a text without syntax errors (after one, nothing is reused).
            if broken || rng.below(2) == 0 {
                // Undo: back to the text before.
                check(
                    file,
                    stage,
                    &text,
                    &mut memo,
                    &mut tally,
                    &format!("undo of edit {k}"),
                );
            } else {
                text = edited;
            }
        }
    }
    eprintln!(
        "incremental: {} extractions agreed, {} of them reused cases ({} reused, {} flattened); no reuse: {:?}",
        tally.checked, tally.reusing, tally.reused, tally.flattened, tally.why_not
    );
    // The memo is used, not only harmless: one extraction in ten at least reuses cases (the
    // others are first extractions, syntax errors, new lines, edits outside a function).
    assert!(
        tally.reusing * 10 > tally.checked,
        "only {} of {} extractions reused cases",
        tally.reusing,
        tally.checked
    );
}

/// Typing a digit at the end of an assert of a generated 2,000-line file (the page's benchmark)
/// flattens only the edited test's cases again.
#[test]
fn typing_in_one_test_flattens_only_that_test() {
    let src = synth::test_file(2_000);
    let opts = options("test_generated.py", Stage::Full);
    let mut memo = Memo::new();
    let first = extract_with(&src, &opts, &mut memo);
    assert_eq!(memo.last_reuse().reused, 0);
    let cases = memo.last_reuse().flattened;
    let lines: Vec<&str> = src.split_inclusive('\n').collect();
    let at = (lines.len() / 2..lines.len())
        .find(|&i| {
            lines[i].trim_start().starts_with("assert ") && lines[i].trim_end().ends_with('1')
        })
        .expect("an assert ending in a digit");
    let pos: usize =
        lines[..at].iter().map(|l| l.len()).sum::<usize>() + lines[at].trim_end().len();
    let typed = format!("{}7{}", &src[..pos], &src[pos..]);
    let with = extract_with(&typed, &opts, &mut memo);
    assert_eq!(with, extract(&typed, &opts));
    let reuse = memo.last_reuse().clone();
    assert_eq!(reuse.why_not, None);
    assert!(reuse.flattened <= 3, "{reuse:?}");
    assert_eq!(reuse.reused + reuse.flattened, cases, "{reuse:?}");
    // What the extraction no longer needs (the syntax tree, the previous memo) waits to be freed.
    assert!(memo.set_aside_count() > 0);
    memo.release();
    assert_eq!(memo.set_aside_count(), 0);
    // And back (Backspace): the same result as the first.
    assert_eq!(extract_with(&src, &opts, &mut memo), first);
    assert!(memo.last_reuse().flattened <= 3);
    // A new line is not reused across (every line number after it moves).
    let newline = format!("{}\n{}", &src[..pos], &src[pos..]);
    assert_eq!(
        extract_with(&newline, &opts, &mut memo),
        extract(&newline, &opts)
    );
    assert_eq!(
        memo.last_reuse().why_not,
        Some("the edit adds or removes lines")
    );
}

//! Fuzzing: arbitrary strings, token soup, mutated bench files.

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::checks::*;

/// `cases`, unless `PROPTEST_CASES` is set.
fn fuzz_config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases),
        // Keep the tree clean: a failure prints its minimal input; no regression file is written.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Pieces of Python, chosen to stress the extractor's corners.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    ";",
    ".",
    "=",
    "==",
    ":=",
    "*",
    "**",
    "-",
    "+",
    "not ",
    "assert ",
    "assert",
    "def test_x(",
    "def test_",
    "def _load_solution():\n    ",
    "async def test_y():",
    "class TestX:\n    ",
    "class Test",
    "@pytest.mark.parametrize(",
    "@pytest.mark.parametrize(\"a, b\", [(1, 2), (3, 4)])\n",
    "@pytest.mark.skip\n",
    "@pytest.fixture\n",
    "pytest.param(",
    "id=",
    "ids=",
    "lambda ",
    "lambda x: ",
    "yield ",
    "await ",
    "return ",
    "del ",
    "global ",
    "nonlocal ",
    "if ",
    "else",
    "elif ",
    "for ",
    " in ",
    "while ",
    "with ",
    "try:",
    "except:",
    "finally:",
    "import pytest\n",
    "from solution import f\n",
    "import solution\n",
    "_load_solution()",
    "sol.",
    "c.put(1, 'a')\n",
    "x",
    "result",
    "f(",
    "\"\"\"",
    "'''",
    "\"",
    "'",
    "f\"{",
    "}\"",
    "f'{x!r:>{w}}'",
    "b'",
    "r'\\'",
    "#",
    "\n",
    "\n    ",
    "\n        ",
    "    ",
    "\t",
    "\\\n",
    "\\\r\n",
    "\r\n",
    "\r",
    "\x0c",
    "\0",
    "é",
    "日本",
    "🦀",
    "\u{feff}",
    "\u{2028}",
    "\u{200b}",
    "ß",
    "ǅ",
    "𝔘",
    "…",
    "1",
    "0x",
    "1e",
    "1_000",
    "3.14j",
    "None",
    "True",
    "...",
    "match x:\n    case 1:\n        ",
    "type X = int\n",
    "print ",
    "exec ",
    "$",
    "?",
    "`",
    "!",
];

#[derive(Debug, Clone)]
enum Mutation {
    DeleteRange(usize, usize),
    DuplicateLine(usize),
    Insert(usize, &'static str),
    InsertRepeated(usize, &'static str, usize),
    Truncate(usize),
    SwapLines(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let pos = any::<usize>();
    let token = prop::sample::select(TOKENS);
    prop_oneof![
        1 => (pos, 0usize..200).prop_map(|(a, n)| Mutation::DeleteRange(a, n)),
        1 => pos.prop_map(Mutation::DuplicateLine),
        4 => (pos, token.clone()).prop_map(|(a, t)| Mutation::Insert(a, t)),
        1 => (pos, token, 2usize..50).prop_map(|(a, t, n)| Mutation::InsertRepeated(a, t, n)),
        1 => pos.prop_map(Mutation::Truncate),
        1 => (pos, pos).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
    ]
}

fn apply(src: &str, mutation: &Mutation) -> String {
    let len = src.len();
    let at = |p: usize| snap_to_char_boundary(src, if len == 0 { 0 } else { p % (len + 1) });
    let line_ranges = || {
        let mut out = Vec::new();
        let mut start = 0;
        for (i, c) in src.char_indices() {
            if c == '\n' {
                out.push(start..i + 1);
                start = i + 1;
            }
        }
        if start < len {
            out.push(start..len);
        }
        out
    };
    match mutation {
        Mutation::DeleteRange(p, n) => {
            let a = at(*p);
            let b = snap_to_char_boundary(src, a + n);
            format!("{}{}", &src[..a], &src[b.max(a)..])
        }
        Mutation::DuplicateLine(p) => {
            let lines = line_ranges();
            if lines.is_empty() {
                return src.to_string();
            }
            let r = lines[p % lines.len()].clone();
            format!("{}{}{}", &src[..r.end], &src[r.clone()], &src[r.end..])
        }
        Mutation::Insert(p, t) => {
            let a = at(*p);
            format!("{}{t}{}", &src[..a], &src[a..])
        }
        Mutation::InsertRepeated(p, t, n) => {
            let a = at(*p);
            format!("{}{}{}", &src[..a], t.repeat(*n), &src[a..])
        }
        Mutation::Truncate(p) => src[..at(*p)].to_string(),
        Mutation::SwapLines(p, q) => {
            let lines = line_ranges();
            if lines.len() < 2 {
                return src.to_string();
            }
            let mut parts: Vec<&str> = lines.iter().map(|r| &src[r.clone()]).collect();
            let n = parts.len();
            parts.swap(p % n, q % n);
            parts.concat()
        }
    }
}

fn fuzz_check(src: &str) -> Result<(), TestCaseError> {
    extract_and_check_all(src, "test_fuzz.py")
        .map_err(|e| TestCaseError::fail(format!("{e}\ninput: {src:?}")))
}

/// The bench and fixture files small enough to mutate quickly (all but the 10,000-deep one, whose
/// size makes each case slow; its depth is covered by `deep_inputs_do_not_overflow`).
fn mutation_seeds() -> &'static [(String, String)] {
    static SEEDS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        corpus()
            .iter()
            .filter(|(_, text)| text.len() <= 16_000)
            .cloned()
            .collect()
    })
}

proptest! {
    #![proptest_config(fuzz_config(1024))]

    #[test]
    fn fuzz_arbitrary_strings(src in any::<String>()) {
        fuzz_check(&src)?;
    }

    #[test]
    fn fuzz_arbitrary_unicode(src in "\\PC{0,300}") {
        fuzz_check(&src)?;
    }

    #[test]
    fn fuzz_token_soup(tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..120)) {
        let src: String = tokens.concat();
        fuzz_check(&src)?;
    }

    #[test]
    fn fuzz_token_soup_in_a_test(tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..60)) {
        let src = format!(
            "import pytest\nfrom solution import f\n\ndef test_a():\n    x = f(1)\n    {}\n    assert f(x) == 1\n\ndef test_b():\n    assert f(2) == 2\n",
            tokens.concat()
        );
        fuzz_check(&src)?;
    }
}

proptest! {
    #![proptest_config(fuzz_config(4096))]

    #[test]
    fn fuzz_mutated_bench_files(
        seed in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let seeds = mutation_seeds();
        let (_, original) = &seeds[seed.index(seeds.len())];
        let mut src = original.clone();
        for m in &mutations {
            src = apply(&src, m);
        }
        fuzz_check(&src)?;
    }
}

/// Not a test: a tool for whoever fixes what the fuzz tests find. It runs many fuzz inputs without
/// stopping at the first failure, groups the failures by kind and prints the shortest input of each:
/// `EXPLORE_N=20000 cargo test --test properties explore -- --ignored --nocapture`.
#[test]
#[ignore]
fn explore_fuzz_failures() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let n: usize = std::env::var("EXPLORE_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    // Quiet the panic hook: panics are collected below.
    std::panic::set_hook(Box::new(|_| {}));
    let mut runner = TestRunner::default();
    let mutated = (
        any::<prop::sample::Index>(),
        prop::collection::vec(mutation(), 1..6),
    )
        .prop_map(|(seed, muts)| {
            let seeds = mutation_seeds();
            let mut src = seeds[seed.index(seeds.len())].1.clone();
            for m in &muts {
                src = apply(&src, m);
            }
            src
        });
    let soup = prop::collection::vec(prop::sample::select(TOKENS), 0..120).prop_map(|t| t.concat());
    let strategy = prop_oneof![3 => mutated, 1 => soup, 1 => any::<String>()];
    let mut classes: std::collections::BTreeMap<String, (usize, String, String)> =
        Default::default();
    for _ in 0..n {
        let src = strategy.new_tree(&mut runner).unwrap().current();
        let msg = match std::panic::catch_unwind(|| extract_and_check_all(&src, "test_fuzz.py")) {
            Ok(Ok(())) => continue,
            Ok(Err(e)) => e,
            Err(p) => format!("PANIC {}", panic_message(&p)),
        };
        let kinds = [
            "PANIC",
            "kept expr does not parse",
            "kept expr nests",
            "does not point at",
            "out of source order",
            "not on char boundaries",
            "not inside the source",
            "says lines",
            "do not match",
            "not 1-based",
            "is not the text of its span",
            "kept without",
            "kept with a",
            "dropped must",
            "outside 1..=",
        ];
        let kind = kinds
            .iter()
            .find(|k| msg.contains(*k))
            .copied()
            .unwrap_or("other");
        let stage = msg.split(',').next().unwrap_or("");
        let class = format!("{kind} [{stage}]");
        let e = classes
            .entry(class)
            .or_insert((0, msg.clone(), src.clone()));
        e.0 += 1;
        if src.len() < e.2.len() {
            e.1 = msg;
            e.2 = src;
        }
    }
    let _ = std::panic::take_hook();
    for (class, (count, msg, src)) in classes {
        println!(
            "=== {count}x {class}\n{msg}\n--- shortest input ({} bytes):\n{src}\n",
            src.len()
        );
    }
}

/// Found by `fuzz_mutated_bench_files`: a `pytest.raises` without a call (a recovered syntax error,
/// or `with pytest.raises:` as written) gives a dropped entry at the name, which is where pytest's
/// check is; the checks must accept it.
#[test]
fn a_raises_block_without_a_call_is_an_entry_at_its_name() {
    for src in [
        "import pytest\n\ndef test_a():\n    with pytest.raises::(ValueError):\n        int('x')\n    assert 1 == 1\n",
        "import pytest\n\ndef test_a():\n    with pytest.raises:\n        int('x')\n    assert 1 == 1\n",
    ] {
        extract_and_check_all(src, "test_fuzz.py").unwrap_or_else(|e| panic!("{e}\ninput: {src:?}"));
    }
}

/// Found by `fuzz_mutated_bench_files`: a `with` block over a parametrized `pytest.raises` (an entry
/// at the parameter's name) in a file whose other test has a syntax error, so the entry is dropped as
/// M003; it still points at the name.
#[test]
fn with_block_entry_dropped_for_a_syntax_error_elsewhere() {
    let src = "from contextlib import nullcontext as does_not_raise\n\nimport pytest\n\nfrom solution import parse_age, old_parse\n\n\n@pytest.mark.parametrize(\n    \"text, expectation\",\n    [\n        (\"42\", does_not_raise()),\n        (\"-1\", pytest.raises(ValueError)),\n    ],\n)\ndef test_parse_age(text, expectation):\n        parse_age(text)\n    with expectation:\n\n\n@pytest.mark.parametrize(\"expectation\", [pytest.warns(DeprecationWarning, match=\"use\"), does_not_raise()])\ndef test_old_parse(expectation):\n    with expectation as record:\n        old_parse(\"1\")\n    assert record is None or len(record) >= 1\n";
    if let Err(e) = extract_and_check_all(src, "test_fuzz.py") {
        panic!("{e}");
    }
}

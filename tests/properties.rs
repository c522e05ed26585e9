//! Property and fuzz tests of the extractor (issue 2, rule 8 and "Tests and docs").
//!
//! Every extraction is held to `check_extraction`: no panic; every span, origin and syntax-error
//! byte range inside the source and on char boundaries, with `line`/`end_line` (and columns) that
//! agree with the source; `line`/`column` 1-based and at the `assert` keyword; assertions in source
//! order; kept entries with an `expr`, dropped ones with a `reason`; and every kept `full`-stage
//! `expr` parses as a Python expression (ruff, and within CPython's 200-bracket nesting limit).
//!
//! - `fixtures_*`: every `tests/fixtures/*/test_*.py` and `problems/*/test_*.py`, every stage, twice
//!   (deterministic JSON); plus empty, BOM, CRLF/CR and other edge files.
//! - `line_endings_do_not_change_the_result`: LF, CRLF and CR versions extract alike.
//! - `syntax_errors_never_leak_into_kept_exprs`, `too_deep_asserts_are_listed_as_dropped`: small
//!   inputs the fuzzing found.
//! - `fuzz_*` (proptest): arbitrary strings, Python token soup, mutated bench files.
//! - `ten_megabyte_file`: a 10 MB pytest file gives a result with thousands of assertions.
//! - `deep_inputs_do_not_overflow`: inputs nested 10,000 deep, each extracted in a child process on a
//!   thread with the 2 MiB stack `cargo test` gives its threads, so a stack overflow (which aborts
//!   the whole process) is reported per input with a clear message instead of killing this binary.
//!
//! Run: `cargo test --test properties` (`PROPTEST_CASES=N` changes the number of fuzz cases).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use bench_explorer::{extract, synth, Extraction, Options, Stage, Status};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use ruff_python_ast::token::TokenKind;

// ---------------------------------------------------------------------------------------------
// Helpers: the corpus, positions, and the checks every extraction must pass.
// ---------------------------------------------------------------------------------------------

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `test_*.py` under `tests/fixtures/*/` and `problems/*/`, plus `tests/corpus/*.py`.
fn corpus() -> &'static [(String, String)] {
    static CORPUS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut files = Vec::new();
        for dir in ["tests/fixtures", "problems"] {
            let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
                continue;
            };
            for entry in entries.flatten() {
                let Ok(inner) = std::fs::read_dir(entry.path()) else {
                    continue;
                };
                for file in inner.flatten() {
                    let name = file.file_name().to_string_lossy().into_owned();
                    if name.starts_with("test_") && name.ends_with(".py") {
                        files.push(file.path());
                    }
                }
            }
        }
        if let Ok(entries) = std::fs::read_dir(root().join("tests/corpus")) {
            for entry in entries.flatten() {
                if entry.path().extension().is_some_and(|e| e == "py") {
                    files.push(entry.path());
                }
            }
        }
        files.sort();
        let out: Vec<(String, String)> = files
            .into_iter()
            .filter_map(|p| {
                let text = std::fs::read_to_string(&p).ok()?;
                let rel = p
                    .strip_prefix(root())
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .into_owned();
                Some((rel, text))
            })
            .collect();
        assert!(
            out.len() >= 20,
            "expected the fixture and bench test files, found {}",
            out.len()
        );
        out
    })
}

fn options(file: &str, stage: Stage) -> Options {
    Options {
        file: file.to_string(),
        slug: None,
        solution_modules: Vec::new(),
        stage,
    }
}

/// Line starts as the extractor's line index counts them: `\n`, `\r\n` and a lone `\r` end a line.
struct Lines<'a> {
    src: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(src: &'a str) -> Self {
        let b = src.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if b.get(i + 1) == Some(&b'\n') => {}
                b'\r' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        Lines { src, starts }
    }

    /// 1-based line of a byte offset.
    fn line(&self, offset: usize) -> u32 {
        self.starts.partition_point(|&s| s <= offset) as u32
    }

    fn count(&self) -> u32 {
        self.starts.len() as u32
    }

    /// 1-based column in characters of a byte offset (which must be a char boundary). A byte-order
    /// mark is not a character an editor shows: it does not count.
    fn column(&self, offset: usize) -> u32 {
        let mut start = self.starts[self.line(offset) as usize - 1];
        if start == 0 && self.src.starts_with('\u{feff}') && offset >= 3 {
            start = 3;
        }
        self.src[start..offset].chars().count() as u32 + 1
    }
}

/// `start..end` is a byte range inside `src`, on char boundaries.
fn check_range(src: &str, what: &str, start: u32, end: u32) -> Result<(), String> {
    let (s, e) = (start as usize, end as usize);
    if s > e || e > src.len() {
        return Err(format!(
            "{what}: byte range {s}..{e} is not inside the source ({} bytes)",
            src.len()
        ));
    }
    if !src.is_char_boundary(s) || !src.is_char_boundary(e) {
        return Err(format!(
            "{what}: byte range {s}..{e} is not on char boundaries"
        ));
    }
    Ok(())
}

/// A span is a valid byte range whose `line`/`end_line` are the lines of its ends.
fn check_span(
    src: &str,
    lines: &Lines,
    what: &str,
    span: &bench_explorer::model::Span,
) -> Result<(), String> {
    check_range(src, what, span.start, span.end)?;
    let (l, el) = (
        lines.line(span.start as usize),
        lines.line(span.end as usize),
    );
    if span.line != l || span.end_line != el {
        return Err(format!(
            "{what}: span {}..{} says lines {}..{}, the source says {l}..{el}",
            span.start, span.end, span.line, span.end_line
        ));
    }
    Ok(())
}

/// The checks every extraction of `src` must pass, whatever the input.
fn check_extraction(src: &str, stage: Stage, ex: &Extraction) -> Result<(), String> {
    let lines = Lines::new(src);
    let mut previous = 0u32;
    for (i, a) in ex.assertions.iter().enumerate() {
        let what = format!(
            "stage {}, assertion #{i} ({} line {})",
            stage.id(),
            a.test,
            a.line
        );
        check_span(src, &lines, &what, &a.span)?;
        if a.line < 1 || a.column < 1 {
            return Err(format!(
                "{what}: line/column {}:{} not 1-based",
                a.line, a.column
            ));
        }
        let at = a.span.start as usize;
        if a.line != a.span.line || a.column != lines.column(at) {
            return Err(format!(
                "{what}: line/column {}:{} do not match its span start {at} ({}:{})",
                a.line,
                a.column,
                lines.line(at),
                lines.column(at)
            ));
        }
        let rest = &src[at..];
        let keyword = rest
            .strip_prefix("assert")
            .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
        if !keyword {
            return Err(format!(
                "{what}: does not point at an `assert` keyword but at {:?}",
                rest.chars().take(30).collect::<String>()
            ));
        }
        if !src[at..a.span.end as usize].starts_with(a.source.as_str()) {
            return Err(format!(
                "{what}: `source` {:?} is not the text of its span {:?}",
                a.source,
                &src[at..a.span.end as usize]
            ));
        }
        if a.span.start < previous {
            return Err(format!(
                "{what}: out of source order (starts at byte {}, the one before at {previous})",
                a.span.start
            ));
        }
        previous = a.span.start;
        for (j, o) in a.origins.iter().enumerate() {
            check_span(
                src,
                &lines,
                &format!("{what}, origin #{j} ({:?})", o.role),
                &o.span,
            )?;
        }
        match a.status {
            Status::Kept => {
                let Some(expr) = &a.expr else {
                    return Err(format!("{what}: kept without `expr`"));
                };
                if a.reason.is_some() || a.unresolved.is_some() {
                    return Err(format!("{what}: kept with a `reason`/`unresolved`"));
                }
                if stage == Stage::Full {
                    check_kept_expr(expr).map_err(|e| format!("{what}: {e}"))?;
                }
            }
            Status::Dropped => {
                if a.expr.is_some() || a.reason.is_none() || a.unresolved.is_none() {
                    return Err(format!(
                        "{what}: dropped must have `reason` and `unresolved` and no `expr`"
                    ));
                }
            }
        }
    }
    for (i, e) in ex.syntax_errors.iter().enumerate() {
        let what = format!("stage {}, syntax error #{i} ({:?})", stage.id(), e.message);
        check_range(src, &what, e.start, e.end)?;
        let at = e.start as usize;
        if e.line != lines.line(at) || e.column != lines.column(at) {
            return Err(format!(
                "{what}: line/column {}:{} do not match its start {at} ({}:{})",
                e.line,
                e.column,
                lines.line(at),
                lines.column(at)
            ));
        }
    }
    for (i, f) in ex.findings.iter().enumerate() {
        if f.line < 1 || f.line > lines.count() {
            return Err(format!(
                "stage {}, finding #{i} ({:?}): line {} outside 1..={}",
                stage.id(),
                f.shape,
                f.line,
                lines.count()
            ));
        }
    }
    Ok(())
}

/// CPython refuses an expression nesting more than 200 brackets ("too many nested parentheses").
const CPYTHON_MAX_BRACKETS: usize = 200;

/// A kept `full` expr must parse as a Python expression, for ruff and for CPython, which the bench
/// loop evaluates it with: a kept expr CPython cannot compile would be counted as a failure.
fn check_kept_expr(expr: &str) -> Result<(), String> {
    let short = || {
        let mut s: String = expr.chars().take(200).collect();
        if s.len() < expr.len() {
            s.push('…');
        }
        s
    };
    let parsed = ruff_python_parser::parse_expression(expr).map_err(|e| {
        format!(
            "kept expr does not parse as a Python expression ({e}): {:?}",
            short()
        )
    })?;
    let (mut depth, mut max) = (0usize, 0usize);
    for token in parsed.tokens().iter() {
        match token.kind() {
            TokenKind::Lpar | TokenKind::Lsqb | TokenKind::Lbrace => {
                depth += 1;
                max = max.max(depth);
            }
            TokenKind::Rpar | TokenKind::Rsqb | TokenKind::Rbrace => {
                depth = depth.saturating_sub(1)
            }
            _ => {}
        }
    }
    if max > CPYTHON_MAX_BRACKETS {
        return Err(format!(
            "kept expr nests {max} brackets deep; CPython refuses more than {CPYTHON_MAX_BRACKETS} \
             (\"too many nested parentheses\"), so the bench loop cannot evaluate it: {:?}",
            short()
        ));
    }
    Ok(())
}

/// Extract with every stage and check each result; the error names the stage and the problem.
fn extract_and_check_all(src: &str, file: &str) -> Result<(), String> {
    for stage in Stage::ALL {
        let ex = extract(src, &options(file, stage));
        check_extraction(src, stage, &ex)?;
    }
    Ok(())
}

fn snap_to_char_boundary(s: &str, mut at: usize) -> usize {
    at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

// ---------------------------------------------------------------------------------------------
// 1. Every fixture and bench test file, every stage.
// ---------------------------------------------------------------------------------------------

#[test]
fn fixtures_extract_validly_in_every_stage() {
    let mut failures = Vec::new();
    let mut kept_full = 0usize;
    for (path, src) in corpus() {
        for stage in Stage::ALL {
            let opts = options(path, stage);
            let first = match std::panic::catch_unwind(|| extract(src, &opts)) {
                Ok(ex) => ex,
                Err(e) => {
                    failures.push(format!(
                        "{path} [{}]: extract panicked: {}",
                        stage.id(),
                        panic_message(&e)
                    ));
                    continue;
                }
            };
            if let Err(e) = check_extraction(src, stage, &first) {
                failures.push(format!("{path}: {e}"));
            }
            if stage == Stage::Full {
                kept_full += first.kept().count();
            }
            // Deterministic: the same input twice gives the same JSON.
            let second = extract(src, &opts);
            let (a, b) = (
                serde_json::to_string(&first).unwrap(),
                serde_json::to_string(&second).unwrap(),
            );
            if a != b {
                failures.push(format!("{path} [{}]: two extractions differ", stage.id()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problem(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        kept_full > 100,
        "only {kept_full} kept assertions over all files"
    );
}

fn panic_message(e: &Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "<non-string panic>".into())
}

#[test]
fn fixtures_edge_files() {
    // Empty, whitespace-only, comment-only, no tests, a BOM, CRLF and CR line endings.
    let inputs = [
        "",
        "\n",
        "   ",
        "# just a comment",
        "\u{feff}",
        "\u{feff}def test_a():\n    assert f(1) == 1\n",
        "\u{feff}def test_a(): assert f(1) == 1\n",
        "\u{feff}(",
        "import pytest\n\nX = 1\n",
        "def test_a():\r\n    x = 1\r\n    assert f(x) == 1\r\n",
        "def test_a():\r    x = 1\r    assert f(x) == 1\r",
        "def test_a():\n    assert f('é日本🦀') == 'é'\n    assert f(\"\\u2028\") == 1  # é\n",
        "def test_a():\n\tassert f(1) == 1\n",
        "def test_a():\n    assert \\\n        f(1) == 1\n",
        "def test_a(): assert f(1) == 1; assert f(2) == 2\n",
    ];
    for src in inputs {
        if let Err(e) = extract_and_check_all(src, "test_edge.py") {
            panic!("{src:?}: {e}");
        }
    }
    let empty = extract("", &Options::new("test_empty.py"));
    assert!(empty.assertions.is_empty() && empty.syntax_errors.is_empty());
}

/// Python reads `\n`, `\r\n` and a lone `\r` alike as the end of a line: the same file with other
/// line endings must give the same assertions (same tests, statuses, exprs, lines and columns).
#[test]
fn line_endings_do_not_change_the_result() {
    let summary = |ex: &Extraction| -> Vec<String> {
        let mut out: Vec<String> = ex
            .assertions
            .iter()
            .map(|a| {
                let expr = a
                    .expr
                    .as_deref()
                    .unwrap_or("")
                    .replace("\r\n", "\n")
                    .replace('\r', "\n");
                format!("{}:{} {} {:?} {}", a.line, a.column, a.test, a.status, expr)
            })
            .collect();
        out.push(format!("{} syntax errors", ex.syntax_errors.len()));
        out
    };
    let synthetic = synth::test_file(400);
    let mut files: Vec<(&str, &str)> = corpus()
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .filter(|(_, t)| !t.contains('\r'))
        .collect();
    files.push(("synth::test_file(400)", &synthetic));
    let mut failures = Vec::new();
    for (path, lf) in files {
        let want = summary(&extract(lf, &options(path, Stage::Full)));
        for (name, ending) in [("CRLF", "\r\n"), ("CR", "\r")] {
            let src = lf.replace('\n', ending);
            let ex = extract(&src, &options(path, Stage::Full));
            if let Err(e) = check_extraction(&src, Stage::Full, &ex) {
                failures.push(format!("{path} with {name} line endings: {e}"));
                continue;
            }
            let got = summary(&ex);
            if got != want {
                let first = want
                    .iter()
                    .zip(&got)
                    .find(|(w, g)| w != g)
                    .map(|(w, g)| format!("LF gives `{w}`, {name} gives `{g}`"))
                    .unwrap_or_else(|| {
                        format!(
                            "LF gives {} entries, {name} gives {}",
                            want.len(),
                            got.len()
                        )
                    });
                let errors: Vec<&str> = ex
                    .syntax_errors
                    .iter()
                    .map(|e| e.message.as_str())
                    .take(2)
                    .collect();
                failures.push(format!(
                    "{path} with {name} line endings: {} assertions instead of {}; {first}; its syntax errors: {errors:?}",
                    got.len() - 1,
                    want.len() - 1
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} file(s) extract differently with other line endings:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// Small inputs the fuzz tests found: a syntax error must never leak into a kept `full` expr (the
/// contract: "what parses is extracted"). Each must give only parseable kept exprs, and no panic.
#[test]
fn syntax_errors_never_leak_into_kept_exprs() {
    let inputs = [
        // An assert cut short at the end of its line.
        "from solution import f\n\ndef test_a():\n    assert f(1) == \n",
        "from solution import f\n\ndef test_a():\n    x = 1\n    assert f(x) == \n",
        // `assert` with nothing after it.
        "from solution import f\n\ndef test_a():\n    assert \n",
        // A module constant whose value has a syntax error, inlined.
        "from solution import f\n\nCOINS = [1}, 5]\n\ndef test_a():\n    assert f(COINS) == 6\n",
        // A fixture whose value has a syntax error, inlined.
        "import pytest\nfrom solution import f\n\n@pytest.fixture\ndef graph():\n    return {\"a\": [:\"b\"]}\n\ndef test_a(graph):\n    assert f(graph) == 1\n",
        // The same, folded with stateful setup.
        "import pytest\nfrom solution import LRUCache\n\n@pytest.fixture\ndef cache():\n    return LRUCache([:1])\n\ndef test_a(cache):\n    cache.put(1, 2)\n    assert cache.get(1) == 2\n",
        // A bracket left open at the end of a test.
        "from solution import add\n\ndef test_a():\n    assert add(add(2, 2),( -4) == 0\n\n\ndef ch",
        // A loader attribute that is a keyword (recovered as a name by the parser).
        "import importlib.util\n\ndef _load_solution():\n    spec = importlib.util.spec_from_file_location(\"solution\", \"x\")\n    m = importlib.util.module_from_spec(spec)\n    spec.loader.exec_module(m)\n    return m\n\ng = _load_solution().def\n\ndef test_a():\n    assert g(1) == 0\n",
        // Found by the explorer: a bare walrus assert (its parentheses lie outside the node).
        "from solution import squares\n\ndef test_a():\n    assert (s := squares(3))\n",
        // Found by the explorer: starred values among parametrize cases, inlined and folded.
        "import pytest\nfrom solution import f\n\n@pytest.mark.parametrize(\"a, b\", [(\"\", *0), (1, 2)])\ndef test_a(a, b):\n    assert f(a) == b\n",
        "import pytest\nfrom solution import f\n\n@pytest.mark.parametrize(\"value\", [*True, 0.5])\ndef test_a(value):\n    assert f(value) == repr(value)\n",
        // Found by the explorer: a starred value assigned (CPython refuses it; ruff parses it).
        "from solution import LRUCache\n\ndef test_a():\n    cache = *LRUCache(2)\n    cache.put(1, 2)\n    assert cache.get(1) == 2\n",
        // Found by the explorer: a chained assignment whose targets share a name, folded.
        "from solution import LRUCache\n\ndef test_a():\n    cache = LRUCache(2)\n    n = n = n = cache.put(1, 2)\n    assert cache.get(1) == 2\n",
    ];
    let mut failures = Vec::new();
    for src in inputs {
        match std::panic::catch_unwind(|| extract_and_check_all(src, "test_syntax.py")) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failures.push(format!("{src:?}\n    {e}")),
            Err(p) => failures.push(format!("{src:?}\n    PANIC: {}", panic_message(&p))),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} inputs with a syntax error gave an invalid result:\n  {}",
        failures.len(),
        inputs.len(),
        failures.join("\n  ")
    );
}

// ---------------------------------------------------------------------------------------------
// 2. Fuzzing: arbitrary strings, token soup, mutated bench files.
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// 3. Size: a 10 MB file.
// ---------------------------------------------------------------------------------------------

/// About `bytes` of realistic pytest: the synthetic file's header once, then its tests repeated
/// with unique names.
fn big_file(bytes: usize) -> String {
    let unit = synth::test_file(2_000);
    let split = unit
        .find("\ndef test_")
        .expect("the synthetic file has tests");
    let (header, body) = unit.split_at(split);
    let mut out = String::with_capacity(bytes + unit.len());
    out.push_str(header);
    let mut copy = 0;
    while out.len() < bytes {
        out.push_str(
            &body
                .replace("def test_", &format!("def test_c{copy}_"))
                .replace("class TestMisc", &format!("class TestC{copy}Misc")),
        );
        copy += 1;
    }
    out
}

#[test]
fn ten_megabyte_file() {
    let src = big_file(10 * 1024 * 1024);
    // Run on a thread with cargo test's default 2 MiB stack, whatever RUST_MIN_STACK says.
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let t = Instant::now();
            let ex = extract(&src, &Options::new("test_big.py"));
            let took = t.elapsed();
            eprintln!(
                "10 MB file: {} bytes, {} lines, {} assertions ({} kept), {} syntax errors; extraction took {:.2?} (debug build)",
                src.len(),
                src.lines().count(),
                ex.assertions.len(),
                ex.kept().count(),
                ex.syntax_errors.len(),
                took
            );
            let check = check_extraction(&src, Stage::Full, &ex);
            (ex.assertions.len(), ex.kept().count(), ex.syntax_errors.len(), check)
        })
        .unwrap();
    let (total, kept, errors, check) = handle.join().expect("extracting a 10 MB file panicked");
    check.unwrap();
    assert_eq!(errors, 0, "the generated 10 MB file is valid Python");
    assert!(total > 10_000, "only {total} assertions from a 10 MB file");
    assert!(
        kept > 10_000,
        "only {kept} kept assertions from a 10 MB file"
    );
}

// ---------------------------------------------------------------------------------------------
// 4. Depth: 10,000-deep inputs, each in a child process on a 2 MiB stack.
// ---------------------------------------------------------------------------------------------

const DEEP_CASE_VAR: &str = "BENCH_EXPLORER_PROPERTIES_DEEP_CASE";
/// Set to run a deep case at another depth (to find where a failure starts).
const DEPTH_VAR: &str = "BENCH_EXPLORER_PROPERTIES_DEPTH";
/// Set (with the case) to run only ruff's parser, not the extractor, on the case.
const PARSE_ONLY_VAR: &str = "BENCH_EXPLORER_PROPERTIES_PARSE_ONLY";

fn depth() -> usize {
    std::env::var(DEPTH_VAR)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

/// Every deep case's name and the file it stands for.
fn deep_cases() -> Vec<(&'static str, String)> {
    deep_case_builders()
        .into_iter()
        .map(|(n, f)| (n, f()))
        .collect()
}

type Builder = Box<dyn Fn() -> String>;

fn deep_case_builders() -> Vec<(&'static str, Builder)> {
    fn in_test(expr: String) -> String {
        format!(
            "from solution import f\n\n\ndef test_before():\n    assert f(1) == 1\n\n\ndef test_deep():\n    assert {expr}\n\n\ndef test_after():\n    assert f(2) == 2\n"
        )
    }
    fn b(f: impl Fn(usize) -> String + 'static) -> Builder {
        Box::new(move || f(depth()))
    }
    vec![
        // The inputs the issue lists.
        (
            "parentheses",
            b(|n| in_test(format!("f({}1{}) == 1", "(".repeat(n), ")".repeat(n)))),
        ),
        (
            "not-chain",
            b(|n| in_test(format!("{}f(1)", "not ".repeat(n)))),
        ),
        (
            "unary-minus-parens",
            b(|n| in_test(format!("f({}1{}) == 1", "-(".repeat(n), ")".repeat(n)))),
        ),
        (
            "unary-minus-bare",
            b(|n| in_test(format!("f({}1) == 1", "-".repeat(n)))),
        ),
        (
            "plus-chain",
            b(|n| in_test(format!("f({}) == {n}", vec!["1"; n].join(" + ")))),
        ),
        (
            "nested-lists",
            b(|n| in_test(format!("f({}1{}) == 1", "[".repeat(n), "]".repeat(n)))),
        ),
        (
            "nested-lambdas",
            b(|n| in_test(format!("f({}1) == 1", "lambda: ".repeat(n)))),
        ),
        (
            "attribute-chain",
            b(|n| in_test(format!("f(1){} == 1", ".x".repeat(n)))),
        ),
        (
            "nested-ifs",
            b(|n| {
                // 10,000 nested `if` blocks, one more space of indentation per level, the assert innermost.
                let mut s = String::from("from solution import f\n\n\ndef test_deep():\n");
                for depth in 1..=n {
                    writeln!(s, "{}if f({depth}):", " ".repeat(depth)).unwrap();
                }
                writeln!(s, "{}assert f(1) == 1", " ".repeat(n + 1)).unwrap();
                s.push_str("\n\ndef test_after():\n    assert f(2) == 2\n");
                s
            }),
        ),
        // More of the same kind.
        (
            "call-chain",
            b(|n| in_test(format!("f(1){} == 1", "()".repeat(n)))),
        ),
        (
            "subscript-chain",
            b(|n| in_test(format!("f(1){} == 1", "[0]".repeat(n)))),
        ),
        (
            "comparison-chain",
            b(|n| in_test(format!("f(1){}", " < 2".repeat(n)))),
        ),
        (
            "conditional-chain",
            b(|n| in_test(format!("f(1) == 1{}", " if x else 1".repeat(n)))),
        ),
        (
            "await-chain",
            b(|n| {
                format!(
                    "async def test_deep():\n    assert {}f(1)\n",
                    "await ".repeat(n)
                )
            }),
        ),
        (
            "nested-dicts",
            b(|n| in_test(format!("f({}1{}) == 1", "{1: ".repeat(n), "}".repeat(n)))),
        ),
        (
            "nested-generators",
            b(|n| {
                in_test(format!(
                    "f({}1{}) == 1",
                    "(x for x in ".repeat(n),
                    ")".repeat(n)
                ))
            }),
        ),
        (
            "string-concatenation",
            b(|n| in_test(format!("f({}) == 1", "'a' ".repeat(n)))),
        ),
        (
            "nested-defs",
            b(|n| {
                let mut s = String::new();
                for depth in 0..n {
                    writeln!(s, "{}def test_{depth}():", " ".repeat(depth)).unwrap();
                }
                writeln!(s, "{}assert f(1) == 1", " ".repeat(n)).unwrap();
                s
            }),
        ),
        // Ways around a guard that estimates depth per line from brackets, operators and keywords.
        (
            "lambda-with-params",
            b(|n| in_test(format!("f({}1) == 1", "lambda a, b: ".repeat(n)))),
        ),
        (
            "fstring-parentheses",
            b(|n| {
                in_test(format!(
                    "f(f\"{{{}1{}}}\") == '1'",
                    "(".repeat(n),
                    ")".repeat(n)
                ))
            }),
        ),
        (
            "fstring-nested-lists",
            b(|n| {
                in_test(format!(
                    "f(f\"{{{}1{}}}\") == '1'",
                    "[".repeat(n),
                    "]".repeat(n)
                ))
            }),
        ),
        (
            "fstring-not-chain",
            b(|n| in_test(format!("f(f\"{{{}1}}\") == 'False'", "not ".repeat(n)))),
        ),
        (
            "nested-fstrings",
            b(|n| {
                // f"{f'{f"{...}"}'}" with alternating quotes.
                let mut fs = String::from("1");
                for i in 0..n {
                    let q = if i % 2 == 0 { '\'' } else { '"' };
                    fs = format!("f{q}{{{fs}}}{q}");
                }
                in_test(format!("f({fs}) == '1'"))
            }),
        ),
        (
            "crlf-continued-not-chain",
            b(|n| in_test(format!("{}f(1)", "not \\\r\n".repeat(n)))),
        ),
        (
            "crlf-continued-plus-chain",
            b(|n| in_test(format!("{}f(1) == 1", "1 + \\\r\n".repeat(n)))),
        ),
        (
            "crlf-continued-nested-lambdas",
            b(|n| in_test(format!("{}f(1)", "lambda: \\\r\n".repeat(n)))),
        ),
        // Depth that no line has but the output would: locals each wrapping the one before, all
        // inlined into one assert; the same through module constants and through fixtures.
        (
            "inlined-locals-chain",
            b(|n| {
                let mut s =
                    String::from("from solution import f\n\n\ndef test_deep():\n    x0 = f(1)\n");
                for i in 1..n {
                    writeln!(s, "    x{i} = [x{}]", i - 1).unwrap();
                }
                writeln!(s, "    assert f(x{}) == 1", n - 1).unwrap();
                s
            }),
        ),
        (
            "module-constant-chain",
            b(|n| {
                let mut s = String::from("from solution import f\n\nC0 = 1\n");
                for i in 1..n {
                    writeln!(s, "C{i} = [C{}]", i - 1).unwrap();
                }
                writeln!(s, "\n\ndef test_deep():\n    assert f(C{}) == 1", n - 1).unwrap();
                s
            }),
        ),
        (
            "fixture-chain",
            b(|n| {
                let mut s = String::from("import pytest\nfrom solution import f\n\n@pytest.fixture\ndef v0():\n    return 1\n");
                for i in 1..n {
                    writeln!(
                        s,
                        "\n@pytest.fixture\ndef v{i}(v{}):\n    return [v{}]",
                        i - 1,
                        i - 1
                    )
                    .unwrap();
                }
                writeln!(
                    s,
                    "\n\ndef test_deep(v{}):\n    assert f(v{}) == 1",
                    n - 1,
                    n - 1
                )
                .unwrap();
                s
            }),
        ),
        // 10,000 statements of stateful setup folded into one expression.
        (
            "folded-setup",
            b(|n| {
                let mut s = String::from(
                    "from solution import Cache\n\n\ndef test_deep():\n    c = Cache()\n",
                );
                for i in 0..n {
                    writeln!(s, "    c.put({i}, {i})").unwrap();
                }
                s.push_str("    assert c.get(1) == 1\n");
                s
            }),
        ),
    ]
}

/// The depth guard blanks a too-deep statement, but the contract still lists every assert inside a
/// test ("skipped ones are dropped, not silently missing"): also when the blanked line holds more
/// than a lone assert.
#[test]
fn too_deep_asserts_are_listed_as_dropped() {
    let deep = format!("f({}1{}) == 1", "(".repeat(500), ")".repeat(500));
    let cases = [
        (
            "an assert after another statement on its line",
            format!("from solution import f\n\ndef test_a():\n    x = 1; assert {deep}\n\ndef test_b():\n    assert f(2) == 2\n"),
            2,
        ),
        (
            "two asserts on one line",
            format!("from solution import f\n\ndef test_a():\n    assert {deep}; assert f(3) == 3\n"),
            2,
        ),
        (
            "a one-line test",
            format!("from solution import f\n\ndef test_a(): assert {deep}\n"),
            1,
        ),
        (
            "a lone assert",
            format!("from solution import f\n\ndef test_a():\n    assert {deep}\n"),
            1,
        ),
    ];
    let mut failures = Vec::new();
    for (what, src, want) in &cases {
        let ex = extract(src, &options("test_deep.py", Stage::Full));
        if let Err(e) = check_extraction(src, Stage::Full, &ex) {
            failures.push(format!("{what}: {e}"));
        }
        if ex.syntax_errors.is_empty() {
            failures.push(format!("{what}: the too-deep statement is not reported"));
        }
        if ex.assertions.len() != *want {
            let got: Vec<String> = ex
                .assertions
                .iter()
                .map(|a| format!("{} line {} {:?}", a.test, a.line, a.status))
                .collect();
            failures.push(format!(
                "{what}: {} assertion entries instead of {want}: {got:?}",
                ex.assertions.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// In the child process: extract one deep case on a 2 MiB thread, in every stage, and check it.
#[test]
fn deep_case_child() {
    let Ok(name) = std::env::var(DEEP_CASE_VAR) else {
        return; // Only meaningful when `deep_inputs_do_not_overflow` runs this binary for one case.
    };
    let src = deep_case_builders()
        .into_iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no deep case named {name}"))
        .1();
    if std::env::var_os(PARSE_ONLY_VAR).is_some() {
        let parsed = std::thread::Builder::new()
            .name(format!("parse-only-{name}"))
            .stack_size(2 << 20)
            .spawn(move || {
                let parsed = ruff_python_parser::parse_unchecked(
                    &src,
                    ruff_python_parser::ParseOptions::from(ruff_python_parser::Mode::Module),
                );
                parsed.errors().len()
            })
            .unwrap()
            .join();
        if let Ok(errors) = parsed {
            println!("PARSE-ONLY-OK {errors} errors");
        }
        return;
    }
    let handle = std::thread::Builder::new()
        .name(format!("deep-{name}"))
        .stack_size(2 << 20)
        .spawn(move || -> Result<String, String> {
            let mut report = String::new();
            for stage in Stage::ALL {
                let t = Instant::now();
                let ex = extract(&src, &options("test_deep.py", stage));
                let json = serde_json::to_string(&ex).expect("serialises");
                write!(
                    report,
                    "[{}: {} assertions, {} kept, {} syntax errors, {} JSON bytes, {:.2?}] ",
                    stage.id(),
                    ex.assertions.len(),
                    ex.kept().count(),
                    ex.syntax_errors.len(),
                    json.len(),
                    t.elapsed()
                )
                .unwrap();
                // Range checks here; kept exprs are checked below on a big stack, so that a deep
                // kept expr fails with a message instead of overflowing the checker itself.
                let mut shallow = ex.clone();
                for a in &mut shallow.assertions {
                    if a.status == Status::Kept {
                        a.expr = Some("True".into());
                    }
                }
                check_extraction(&src, stage, &shallow)?;
                if stage == Stage::Full {
                    let exprs: Vec<(String, u32)> = ex
                        .kept()
                        .filter_map(|a| Some((a.expr.clone()?, a.line)))
                        .collect();
                    std::thread::Builder::new()
                        .stack_size(1 << 30)
                        .spawn(move || {
                            exprs.iter().try_for_each(|(e, line)| {
                                check_kept_expr(e).map_err(|why| {
                                    format!("stage full, assertion on line {line}: {why}")
                                })
                            })
                        })
                        .unwrap()
                        .join()
                        .unwrap()?;
                }
            }
            Ok(report)
        })
        .unwrap();
    match handle.join() {
        Ok(Ok(report)) => println!("DEEP-CASE-OK {report}"),
        Ok(Err(e)) => println!("DEEP-CASE-INVALID {e}"),
        Err(e) => println!("DEEP-CASE-PANIC {}", panic_message(&e)),
    }
}

enum ChildRun {
    Ok(String),
    Overflow,
    Panic(String),
    Invalid(String),
    Timeout(Duration),
    Failed(String),
}

/// Runs `deep_case_child` in a fresh process for one case (the extractor, or ruff's parser alone),
/// giving it `limit` to finish.
fn run_child(name: &str, parse_only: bool, limit: Duration) -> ChildRun {
    let exe = std::env::current_exe().expect("the test binary's path");
    let mut command = Command::new(exe);
    command
        .args([
            "deep_case_child",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(DEEP_CASE_VAR, name)
        .env_remove("RUST_MIN_STACK")
        .env("RUST_BACKTRACE", "0")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if parse_only {
        command.env(PARSE_ONLY_VAR, "1");
    }
    let mut child = command
        .spawn()
        .expect("run the test binary for one deep case");
    // Drain the pipes on threads so a chatty child cannot block on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    let t = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (out.join().unwrap(), err.join().unwrap());
    let after = |marker: &str| {
        stdout
            .lines()
            .find_map(|l| l.split_once(marker).map(|(_, r)| r.to_string()))
    };
    let Some(status) = status else {
        return ChildRun::Timeout(limit);
    };
    if stderr.contains("has overflowed its stack") {
        return ChildRun::Overflow;
    }
    let ok = if parse_only {
        "PARSE-ONLY-OK "
    } else {
        "DEEP-CASE-OK "
    };
    if let (true, Some(report)) = (status.success(), after(ok)) {
        return ChildRun::Ok(report);
    }
    if let Some(why) = after("DEEP-CASE-INVALID ") {
        return ChildRun::Invalid(why);
    }
    if let Some(why) = after("DEEP-CASE-PANIC ") {
        return ChildRun::Panic(why);
    }
    let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
    ChildRun::Failed(format!("exited with {status}: {}", tail.join(" | ")))
}

/// Time for one deep case: generous for a debug build, scaled with the input's size, so only a
/// hang or a superlinear blow-up runs out of it.
fn time_limit(bytes: usize) -> Duration {
    Duration::from_secs(20) + Duration::from_millis((bytes / 1_000) as u64)
}

#[test]
fn deep_inputs_do_not_overflow() {
    let cases = deep_cases();
    let queue = std::sync::Mutex::new((0..cases.len()).collect::<Vec<_>>());
    let results = std::sync::Mutex::new(vec![None; cases.len()]);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let Some(i) = queue.lock().unwrap().pop() else {
                    return;
                };
                let (name, src) = &cases[i];
                let t = Instant::now();
                let limit = time_limit(src.len());
                let outcome = match run_child(name, false, limit) {
                    ChildRun::Ok(report) => Ok(format!(
                        "deep case {name} ({} bytes): ok in {:.2?} {report}",
                        src.len(),
                        t.elapsed()
                    )),
                    failure => {
                        let why = match failure {
                            ChildRun::Overflow => "STACK OVERFLOW on a 2 MiB stack".to_string(),
                            ChildRun::Panic(p) => format!("PANIC: {p}"),
                            ChildRun::Invalid(e) => format!("INVALID RESULT: {e}"),
                            ChildRun::Timeout(limit) => format!("NO RESULT within {limit:?}"),
                            ChildRun::Failed(e) => format!("FAILED: {e}"),
                            ChildRun::Ok(_) => unreachable!(),
                        };
                        // Is it ruff's parser or the extractor? Parse the same text alone.
                        let parser = match run_child(name, true, limit) {
                            ChildRun::Ok(_) => "ruff's parser alone handles this input",
                            ChildRun::Overflow => "ruff's parser alone overflows too",
                            _ => "ruff's parser alone fails too",
                        };
                        Err(format!("{name} ({} bytes): {why} ({parser})", src.len()))
                    }
                };
                results.lock().unwrap()[i] = Some(outcome);
            });
        }
    });
    let mut failures = Vec::new();
    for outcome in results.into_inner().unwrap().into_iter().flatten() {
        match outcome {
            Ok(line) => eprintln!("{line}"),
            Err(line) => failures.push(line),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} deep inputs failed (one alone: \
         {DEEP_CASE_VAR}=<name> cargo test --test properties deep_case_child -- --exact --nocapture):\n  {}",
        failures.len(),
        cases.len(),
        failures.join("\n  ")
    );
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

//! Every fixture and bench test file, every stage; edge files; line endings.

use bench_explorer::{extract, synth, Extraction, Options, Stage};

use crate::checks::*;

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

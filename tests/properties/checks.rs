//! The corpus, positions, and the checks every extraction must pass.

use std::path::PathBuf;
use std::sync::OnceLock;

use bench_explorer::{extract, Extraction, Options, Stage, Status};
use ruff_python_ast::comparable::ComparableExpr;
use ruff_python_ast::token::TokenKind;

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `test_*.py` under `tests/fixtures/*/` and `problems/*/`, plus `tests/corpus/*.py`.
pub(crate) fn corpus() -> &'static [(String, String)] {
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

pub(crate) fn options(file: &str, stage: Stage) -> Options {
    Options {
        file: file.to_string(),
        slug: None,
        solution_modules: Vec::new(),
        stage,
        conftests: Vec::new(),
        package_inits: Vec::new(),
        pytest_config: None,
        pytest_version: Default::default(),
    }
}

/// Line starts as the extractor's line index counts them: `\n`, `\r\n` and a lone `\r` end a line.
pub(crate) struct Lines<'a> {
    src: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
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
    pub(crate) fn line(&self, offset: usize) -> u32 {
        self.starts.partition_point(|&s| s <= offset) as u32
    }

    pub(crate) fn count(&self) -> u32 {
        self.starts.len() as u32
    }

    /// 1-based column in characters of a byte offset (which must be a char boundary). A byte-order
    /// mark is not a character an editor shows: it does not count.
    pub(crate) fn column(&self, offset: usize) -> u32 {
        let mut start = self.starts[self.line(offset) as usize - 1];
        if start == 0 && self.src.starts_with('\u{feff}') && offset >= 3 {
            start = 3;
        }
        self.src[start..offset].chars().count() as u32 + 1
    }
}

/// `start..end` is a byte range inside `src`, on char boundaries.
pub(crate) fn check_range(src: &str, what: &str, start: u32, end: u32) -> Result<(), String> {
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
pub(crate) fn check_span(
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
pub(crate) fn check_extraction(src: &str, stage: Stage, ex: &Extraction) -> Result<(), String> {
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
            .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
            || unittest_check_at(rest)
            // A `with` block over a parameter whose value is `pytest.raises(…)` (R007, or dropped
            // for another reason: a syntax error, a mark): its name, a `with` item.
            || (rest.starts_with(|c: char| c.is_alphabetic() || c == '_') && {
                let line_start = src[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
                let before = src[line_start..at].trim_end();
                before.ends_with("with") || before.ends_with(',')
            });
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
pub(crate) const CPYTHON_MAX_BRACKETS: usize = 200;

/// A kept `full` expr must parse as a Python expression, for ruff and for CPython, which the bench
/// loop evaluates it with: a kept expr CPython cannot compile would be counted as a failure.
pub(crate) fn check_kept_expr(expr: &str) -> Result<(), String> {
    let short = || {
        let mut s: String = expr.chars().take(200).collect();
        if s.len() < expr.len() {
            s.push('…');
        }
        s
    };
    if !bench_explorer::parses_everywhere(expr) {
        return Err(format!(
            "kept expr uses syntax newer than Python 3.9 (or does not parse there): {:?}",
            short()
        ));
    }
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
    // The readable view people read must be the same expression, only laid out on lines.
    if let Some(view) = bench_explorer::readable(expr) {
        let same = ruff_python_parser::parse_expression(&view)
            .is_ok_and(|v| ComparableExpr::from(v.expr()) == ComparableExpr::from(parsed.expr()));
        if !same {
            return Err(format!(
                "the readable view of a kept expr is not the same expression: {:?}",
                short()
            ));
        }
    }
    Ok(())
}

/// Extract with every stage and check each result; the error names the stage and the problem.
pub(crate) fn extract_and_check_all(src: &str, file: &str) -> Result<(), String> {
    for stage in Stage::ALL {
        let ex = extract(src, &options(file, stage));
        check_extraction(src, stage, &ex)?;
    }
    Ok(())
}

pub(crate) fn snap_to_char_boundary(s: &str, mut at: usize) -> usize {
    at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

pub(crate) fn panic_message(e: &Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "<non-string panic>".into())
}

/// Whether `rest` starts with a check that is not an `assert` statement: a unittest check
/// (`self.assertX(`, `self.failX(`, the instance under any name) or a pytest block's context
/// (`pytest.raises(`, `warns`, `deprecated_call`, under any alias, or imported by name).
fn unittest_check_at(rest: &str) -> bool {
    // The callee up to its `(`, without the spaces and line continuations Python allows in it.
    let callee: String = rest
        .split('(')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\\')
        .collect::<String>()
        + "(";
    let rest = callee.as_str();
    let ident = |s: &str| {
        s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    };
    // `pytest.raises(…)`, or the bare name that a recovered syntax error or a `with pytest.raises:`
    // leaves (an entry, dropped: pytest errors on it).
    let pytest_block = |r: &str| {
        ["raises", "warns", "deprecated_call"].iter().any(|p| {
            r.strip_prefix(p)
                .is_some_and(|t| !t.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        })
    };
    let name_len = ident(rest);
    name_len > 0
        && (pytest_block(rest)
            || rest[name_len..].strip_prefix('.').is_some_and(|r| {
                r.starts_with("assert") || r.starts_with("fail") || pytest_block(r)
            }))
}

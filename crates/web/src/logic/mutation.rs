//! The Run tab's Mutants view: mutants of the chosen solution (the library's
//! [`bench_explorer::mutants`]), each run both ways through the Python worker like any solution, and
//! judged by the library ([`bench_explorer::mutation`], the CLI's `check --mutants` judges through
//! it too). This module turns the worker's replies into judged rows, the score and the kill matrix
//! the view shows; nothing here decides what "killed" means.

use bench_explorer::model::Extraction;
use bench_explorer::mutants::Mutant;
use bench_explorer::mutation::{self, Difference, End, Outcome, Tally};
use bench_explorer::sort::SharedSort as _;
use serde::Serialize;

use super::run_results::Reply;

/// A kept check that failed on a mutant: its index in the extraction, with its test and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRef {
    pub index: usize,
    pub test: String,
    pub line: u32,
}

/// One mutant run both ways and judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MutantResult {
    /// Index into the run's mutants.
    pub mutant: usize,
    pub outcome: Outcome,
    pub killed_by_tests: Vec<String>,
    pub killed_by_checks: Vec<CheckRef>,
    pub difference: Option<Difference>,
    /// The worker's message when the run crashed (a Python error in the runner, a dead worker).
    pub detail: Option<String>,
    /// From the request to the reply.
    pub wall_ms: f64,
}

/// How the page's worker ended a mutant's run, as the library's judgement takes it: the runner's
/// reply, the time limit, or no usable reply (a crash; `detail` says why).
pub fn end_of(reply: &Reply) -> (End<'_>, Option<String>) {
    match reply {
        Reply::Result(r) => (End::Finished(r), None),
        Reply::Timeout { .. } => (End::Timeout, None),
        Reply::Error {
            message,
            python_type,
            ..
        } => (
            End::Crashed,
            Some(match python_type {
                Some(t) if !message.starts_with(t.as_str()) => format!("{t}: {message}"),
                _ => message.clone(),
            }),
        ),
        Reply::Failed { message } => (End::Crashed, Some(message.clone())),
    }
}

/// Judge one mutant's reply.
pub fn judge(extraction: &Extraction, mutant: usize, reply: &Reply, wall_ms: f64) -> MutantResult {
    let (end, detail) = end_of(reply);
    let j = mutation::judge(extraction, end);
    MutantResult {
        mutant,
        outcome: j.outcome,
        killed_by_tests: j.killed_by_tests,
        killed_by_checks: j
            .killed_by_checks
            .iter()
            .map(|&index| {
                let a = &extraction.assertions[index];
                CheckRef {
                    index,
                    test: a.test.clone(),
                    line: a.line,
                }
            })
            .collect(),
        difference: j.difference,
        detail,
        wall_ms,
    }
}

/// The score so far.
pub fn tally(results: &[MutantResult]) -> Tally {
    Tally::of(results.iter().map(|r| (r.outcome, r.difference)))
}

/// `90%` (whole percent, rounded down so that 29/30 never shows as 100%).
pub fn percent(t: &Tally) -> String {
    format!("{}%", (t.score() * 100.0 + 1e-9).floor() as u32)
}

/// The view's headline: the score and what it leaves out.
pub fn headline(t: &Tally, planned: usize) -> String {
    let mut s = format!(
        "Mutation score {} ({}) of {} mutant{}",
        t.cell(),
        percent(t),
        planned,
        if planned == 1 { "" } else { "s" }
    );
    if t.generated < planned {
        s.push_str(&format!(", {} run", t.generated));
    }
    let mut parts = Vec::new();
    if t.survived > 0 {
        parts.push(format!("{} survived (may be equivalent)", t.survived));
    }
    if t.timeouts > 0 {
        parts.push(format!("{} killed by the time limit", t.timeouts));
    }
    if t.crashes > 0 {
        parts.push(format!("{} crashed", t.crashes));
    }
    if t.differences > 0 {
        parts.push(format!(
            "{} measurement difference{}",
            t.differences,
            if t.differences == 1 { "" } else { "s" }
        ));
    }
    if !parts.is_empty() {
        s.push_str(" · ");
        s.push_str(&parts.join(" · "));
    }
    s
}

/// Where a mutant is listed: what matters first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    /// The two views disagree.
    Differences,
    /// Every test passed.
    Survived,
    Killed,
}

impl Section {
    pub const ALL: [Section; 3] = [Section::Differences, Section::Survived, Section::Killed];

    pub fn of(r: &MutantResult) -> Section {
        if r.difference.is_some() {
            Section::Differences
        } else if r.outcome == Outcome::Survived {
            Section::Survived
        } else {
            Section::Killed
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Section::Differences => "differences",
            Section::Survived => "survived",
            Section::Killed => "killed",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Section::Differences => "Measurement differences: the two views disagree",
            Section::Survived => "Survived: every test passes (what the tests do not check, or an equivalent program)",
            Section::Killed => "Killed",
        }
    }
}

/// The results of one section, in id order.
pub fn section(results: &[MutantResult], s: Section) -> Vec<&MutantResult> {
    let mut out: Vec<&MutantResult> = results.iter().filter(|r| Section::of(r) == s).collect();
    out.sort_shared_by_key(|r| r.mutant);
    out
}

/// How a mutant was killed, in a few words: the tests, the time limit, a crash.
pub fn how(r: &MutantResult) -> String {
    match r.outcome {
        Outcome::Killed if r.killed_by_tests.is_empty() => {
            "pytest could not collect the file".to_string()
        }
        Outcome::Killed => format!(
            "by {} test{}",
            r.killed_by_tests.len(),
            if r.killed_by_tests.len() == 1 {
                ""
            } else {
                "s"
            }
        ),
        Outcome::Timeout => "by the time limit".to_string(),
        Outcome::Crashed => match &r.detail {
            Some(d) => format!("crashed: {d}"),
            None => "crashed".to_string(),
        },
        Outcome::Survived => "every test passes".to_string(),
    }
}

/// The kill matrix: one row per test (pytest's names, first seen first), one cell per mutant
/// run: whether that test failed on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KillMatrix {
    /// Mutant indices, in id order (the columns).
    pub mutants: Vec<usize>,
    /// `(test, killed)` with one flag per column.
    pub rows: Vec<(String, Vec<bool>)>,
}

pub fn kill_matrix(results: &[MutantResult]) -> KillMatrix {
    let mut sorted: Vec<&MutantResult> = results.iter().collect();
    sorted.sort_shared_by_key(|r| r.mutant);
    let mut tests: Vec<String> = Vec::new();
    for r in &sorted {
        for t in &r.killed_by_tests {
            if !tests.contains(t) {
                tests.push(t.clone());
            }
        }
    }
    let rows = tests
        .into_iter()
        .map(|t| {
            let cells = sorted
                .iter()
                .map(|r| r.killed_by_tests.contains(&t))
                .collect();
            (t, cells)
        })
        .collect();
    KillMatrix {
        mutants: sorted.iter().map(|r| r.mutant).collect(),
        rows,
    }
}

/// One diff line of a mutant, for colouring: `-` removed, `+` added, `@` the hunk's header.
pub fn diff_lines(diff: &str) -> Vec<(char, &str)> {
    diff.lines()
        .map(|l| match l.chars().next() {
            Some(c @ ('-' | '+')) => (c, &l[1..]),
            Some('@') => ('@', l),
            _ => (' ', l),
        })
        .collect()
}

/// One row of a mutant shown beside the solution: the solution's line and the mutant's at the same
/// place (`None` where one side has no line there), `changed` where the mutant differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BesideRow {
    /// The solution's 1-based line number (`None`: a line only the mutant has).
    pub line: Option<u32>,
    pub solution: Option<String>,
    pub mutant: Option<String>,
    pub changed: bool,
}

/// The lines a mutant changes, read from its diff: the first line's number, the solution's lines
/// there, the mutant's in their place.
pub fn hunk(diff: &str) -> Option<(u32, Vec<&str>, Vec<&str>)> {
    let mut lines = diff.lines();
    let head = lines.next()?;
    let n: u32 = head
        .strip_prefix("@@ line ")?
        .strip_suffix(" @@")?
        .parse()
        .ok()?;
    let (mut old, mut new) = (Vec::new(), Vec::new());
    for l in lines {
        match l.chars().next() {
            Some('-') => old.push(&l[1..]),
            Some('+') => new.push(&l[1..]),
            _ => {}
        }
    }
    Some((n, old, new))
}

/// The mutant beside the solution: `context` lines of the solution before and after the lines it
/// changes, and those lines on both sides, the changed ones marked. Empty when the diff does not
/// read, or its lines are not the solution's (the solution changed since the mutant was made).
pub fn beside(solution: &str, diff: &str, context: usize) -> Vec<BesideRow> {
    let Some((first, old, new)) = hunk(diff) else {
        return Vec::new();
    };
    let lines: Vec<&str> = solution.split('\n').collect();
    let start = first as usize - 1;
    if first == 0 || lines.get(start..start + old.len()) != Some(&old[..]) {
        return Vec::new();
    }
    let row = |i: usize| BesideRow {
        line: Some(i as u32 + 1),
        solution: Some(lines[i].to_string()),
        mutant: Some(lines[i].to_string()),
        changed: false,
    };
    let mut out: Vec<BesideRow> = (start.saturating_sub(context)..start).map(row).collect();
    for k in 0..old.len().max(new.len()) {
        let (o, n) = (old.get(k).copied(), new.get(k).copied());
        out.push(BesideRow {
            line: o.map(|_| (start + k) as u32 + 1),
            solution: o.map(str::to_string),
            mutant: n.map(str::to_string),
            changed: o != n,
        });
    }
    let end = start + old.len();
    out.extend((end..(end + context).min(lines.len())).map(row));
    out
}

/// Text for HTML: `&`, `<`, `>` and `"` escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The mutant beside the solution as an HTML table (the page sets it as a container's content: a
/// string costs the page's wasm far less than a typed view); the code is escaped. Empty when
/// [`beside`] has no rows.
pub fn beside_html(rows: &[BesideRow]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut h = String::from(
        r#"<table class="mutant-beside" data-testid="mutant-beside"><thead><tr><th></th><th>Solution</th><th>Mutant</th></tr></thead><tbody>"#,
    );
    for r in rows {
        let no = r.line.map(|l| l.to_string()).unwrap_or_default();
        h.push_str(&format!(
            r#"<tr class="{}" data-testid="mutant-beside-line" data-line="{no}" data-changed="{}"><td class="ln">{no}</td><td class="code sol"><code>{}</code></td><td class="code mut"><code>{}</code></td></tr>"#,
            if r.changed { "changed" } else { "" },
            r.changed,
            escape(r.solution.as_deref().unwrap_or("")),
            escape(r.mutant.as_deref().unwrap_or("")),
        ));
    }
    h.push_str("</tbody></table>");
    h
}

/// The picked mutant's panel as HTML: its id, operator and change, how its run ended (or that it
/// has not run), what killed it, and the mutant beside `solution`.
pub fn focus_html(m: &Mutant, result: Option<&MutantResult>, solution: &str) -> String {
    let status = result.map_or("not run", |r| r.outcome.label());
    let words = result
        .and_then(killers)
        .map(|w| {
            format!(
                r#"<p class="mutant-killers small" data-testid="mutant-selected-killers">{}</p>"#,
                escape(&w)
            )
        })
        .unwrap_or_default();
    format!(
        r#"<div class="rr-head"><code class="mutant-id">{}</code><span class="muted small">{}</span><span class="mutant-desc">{}</span><span class="muted small"> · {status}</span></div>{words}{}"#,
        escape(&m.id),
        escape(&m.operator),
        escape(&m.description),
        beside_html(&beside(solution, &m.diff, 3)),
    )
}

/// What a mutant's row says it was killed by, in one line: the tests pytest failed (the first
/// three, then how many more) and the kept checks that failed, by line; the time limit or the
/// crash for a run that never finished.
pub fn killers(r: &MutantResult) -> Option<String> {
    match r.outcome {
        Outcome::Survived => return None,
        // No test failed: the run never finished.
        Outcome::Timeout | Outcome::Crashed => return Some(how(r)),
        Outcome::Killed => {}
    }
    let mut parts = Vec::new();
    if !r.killed_by_tests.is_empty() {
        let mut t = r
            .killed_by_tests
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        if r.killed_by_tests.len() > 3 {
            t.push_str(&format!(" and {} more", r.killed_by_tests.len() - 3));
        }
        parts.push(format!("pytest fails {t}"));
    }
    if !r.killed_by_checks.is_empty() {
        // In the extraction's order (the file's); no sort: the first load's bytes are counted.
        let mut lines: Vec<u32> = Vec::new();
        for c in &r.killed_by_checks {
            if !lines.contains(&c.line) {
                lines.push(c.line);
            }
        }
        let shown: Vec<String> = lines.iter().take(6).map(|l| format!("L{l}")).collect();
        let more = if lines.len() > 6 {
            format!(" and {} more", lines.len() - 6)
        } else {
            String::new()
        };
        parts.push(format!(
            "{} check{} fail{} ({}{more})",
            r.killed_by_checks.len(),
            if r.killed_by_checks.len() == 1 {
                ""
            } else {
                "s"
            },
            if r.killed_by_checks.len() == 1 {
                "s"
            } else {
                ""
            },
            shown.join(" ")
        ));
    }
    if parts.is_empty() {
        Some(how(r))
    } else {
        Some(parts.join(" · "))
    }
}

/// What a mutation run ran, to tell whether its results still describe the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunInputs<'a> {
    pub test_source: &'a str,
    pub solution: &'a str,
    pub stage: &'a str,
}

/// What changed since a mutation run (empty: its results are current).
pub fn stale_reasons(ran: &RunInputs, now: &RunInputs) -> Vec<&'static str> {
    let mut out = Vec::new();
    if ran.test_source != now.test_source {
        out.push("the test file");
    }
    if ran.solution != now.solution {
        out.push("the solution");
    }
    if ran.stage != now.stage {
        out.push("the stage");
    }
    out
}

/// The stale marker's words.
pub fn stale_note(reasons: &[&str]) -> String {
    let what = match reasons {
        [] => return String::new(),
        [a] => a.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    format!("Stale: {what} changed since these mutants ran. The results below are of the earlier code; run the mutants again.")
}

/// The mutants of a solution the view runs: every one (no cap, as `check --mutants`).
pub fn plan(solution: &str) -> Vec<Mutant> {
    bench_explorer::mutants::mutants(solution, None)
}

/// `window.__benchExplorer.lastMutantRun`: the score as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MutantReport {
    pub solution: String,
    pub planned: usize,
    pub generated: usize,
    pub killed: usize,
    pub survived: usize,
    pub timeouts: usize,
    pub crashes: usize,
    pub differences: usize,
    pub score: f64,
    /// `done`, `stopped` or `error`.
    pub status: &'static str,
    /// The mutants' ids by outcome, for the tests.
    pub survivors: Vec<String>,
    pub wall_ms: f64,
}

impl MutantReport {
    pub fn new(
        solution: &str,
        mutants: &[Mutant],
        results: &[MutantResult],
        status: &'static str,
        wall_ms: f64,
    ) -> MutantReport {
        let t = tally(results);
        MutantReport {
            solution: solution.to_string(),
            planned: mutants.len(),
            generated: t.generated,
            killed: t.killed,
            survived: t.survived,
            timeouts: t.timeouts,
            crashes: t.crashes,
            differences: t.differences,
            score: t.score(),
            status,
            survivors: {
                let mut s: Vec<&MutantResult> = results
                    .iter()
                    .filter(|r| r.outcome == Outcome::Survived)
                    .collect();
                s.sort_shared_by_key(|r| r.mutant);
                s.iter().map(|r| mutants[r.mutant].id.clone()).collect()
            },
            wall_ms,
        }
    }
}

// ------------------------------------------------------------------------------ whole bench

/// One problem's mutants in a whole-bench run "with mutants": the mutants of its reference
/// solution, each run both ways and judged like the Mutants view's (and the CLI's).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProblemMutants {
    pub slug: String,
    /// Mutants generated for it.
    pub planned: usize,
    /// The ones run so far, judged.
    pub runs: Vec<(Outcome, Option<Difference>)>,
}

impl ProblemMutants {
    pub fn tally(&self) -> Tally {
        Tally::of(self.runs.iter().copied())
    }

    pub fn complete(&self) -> bool {
        self.runs.len() == self.planned
    }
}

/// The whole bench's mutation tally: every run of every problem.
pub fn bench_tally(rows: &[ProblemMutants]) -> Tally {
    Tally::of(rows.iter().flat_map(|r| r.runs.iter().copied()))
}

/// Which problems (indices into `slugs`) a whole-bench mutation run covers: all of them, or those
/// named in `only` (the test hook `benchMutantProblems`), in the bench's order.
pub fn bench_mutant_problems(slugs: &[&str], only: Option<&[String]>) -> Vec<usize> {
    (0..slugs.len())
        .filter(|&i| only.is_none_or(|o| o.iter().any(|s| s == slugs[i])))
        .collect()
}

/// `lastBenchRun.mutants`: per problem and in total, the CLI's `mutants.problems` fields.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BenchMutantsReport {
    pub problems: Vec<ProblemMutantsReport>,
    pub total: ProblemMutantsReport,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProblemMutantsReport {
    pub problem: String,
    pub planned: usize,
    pub generated: usize,
    pub killed: usize,
    pub survived: usize,
    pub timeouts: usize,
    pub crashes: usize,
    pub differences: usize,
    pub score: f64,
}

impl ProblemMutantsReport {
    pub fn new(problem: &str, planned: usize, t: &Tally) -> ProblemMutantsReport {
        ProblemMutantsReport {
            problem: problem.to_string(),
            planned,
            generated: t.generated,
            killed: t.killed,
            survived: t.survived,
            timeouts: t.timeouts,
            crashes: t.crashes,
            differences: t.differences,
            score: t.score(),
        }
    }
}

impl BenchMutantsReport {
    pub fn new(rows: &[ProblemMutants]) -> BenchMutantsReport {
        BenchMutantsReport {
            problems: rows
                .iter()
                .map(|r| ProblemMutantsReport::new(&r.slug, r.planned, &r.tally()))
                .collect(),
            total: ProblemMutantsReport::new(
                "bench",
                rows.iter().map(|r| r.planned).sum(),
                &bench_tally(rows),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::{extract, Options};

    const FILE: &str = "from solution import f\n\ndef test_a():\n    assert f(1) == 2\n\ndef test_b():\n    assert f(2) == 3\n";
    const SOLUTION: &str = "def f(x):\n    if x > 0:\n        return x + 1\n    return 0\n";

    fn reply(json: serde_json::Value) -> Reply {
        Reply::parse(&json.to_string())
    }

    fn pytest(a: &str, b: &str, evals: [&str; 2]) -> Reply {
        reply(serde_json::json!({
            "type": "result",
            "evals": [{"id": 0, "outcome": evals[0]}, {"id": 1, "outcome": evals[1]}],
            "pytest": {"tests": [{"name": "test_a", "outcome": a}, {"name": "test_b", "outcome": b}],
                       "collection_errors": []},
        }))
    }

    fn results() -> Vec<MutantResult> {
        let e = extract(FILE, &Options::default());
        vec![
            judge(&e, 0, &pytest("failed", "passed", ["fail", "pass"]), 3.0),
            judge(&e, 1, &pytest("passed", "passed", ["pass", "pass"]), 3.0),
            judge(
                &e,
                2,
                &reply(
                    serde_json::json!({"type": "timeout", "timeoutMs": 5000, "restarted": true}),
                ),
                5000.0,
            ),
            judge(&e, 3, &pytest("failed", "failed", ["pass", "pass"]), 3.0),
            judge(
                &e,
                4,
                &Reply::Failed {
                    message: "worker crashed".into(),
                },
                1.0,
            ),
        ]
    }

    #[test]
    fn the_plan_is_the_libraries_mutants() {
        let m = plan(SOLUTION);
        assert!(!m.is_empty());
        assert_eq!(m, bench_explorer::mutants::mutants(SOLUTION, None));
        assert_eq!(m[0].id, "m001");
    }

    #[test]
    fn replies_are_judged_by_the_library() {
        let r = results();
        assert_eq!(r[0].outcome, Outcome::Killed);
        assert_eq!(r[0].killed_by_tests, ["test_a"]);
        assert_eq!(
            r[0].killed_by_checks,
            [CheckRef {
                index: 0,
                test: "test_a".into(),
                line: 4
            }]
        );
        assert_eq!(r[1].outcome, Outcome::Survived);
        assert_eq!(r[2].outcome, Outcome::Timeout);
        assert_eq!(how(&r[2]), "by the time limit");
        assert_eq!(r[3].difference, Some(Difference::ChecksMiss));
        assert_eq!(how(&r[3]), "by 2 tests");
        assert_eq!(r[4].outcome, Outcome::Crashed);
        assert_eq!(how(&r[4]), "crashed: worker crashed");
        // A Python error in the runner is a crash, its type named once.
        let e = extract(FILE, &Options::default());
        let err = judge(
            &e,
            5,
            &reply(
                serde_json::json!({"type": "error", "message": "boom", "python_type": "MemoryError"}),
            ),
            1.0,
        );
        assert_eq!(err.outcome, Outcome::Crashed);
        assert_eq!(err.detail.as_deref(), Some("MemoryError: boom"));
    }

    #[test]
    fn score_headline_sections_and_matrix() {
        let r = results();
        let t = tally(&r);
        assert_eq!((t.generated, t.killed, t.survived), (5, 4, 1));
        assert_eq!(percent(&t), "80%");
        assert_eq!(
            headline(&t, 6),
            "Mutation score 4/5 (80%) of 6 mutants, 5 run · 1 survived (may be equivalent) · 1 killed by the time limit · 1 crashed · 1 measurement difference"
        );
        assert_eq!(
            percent(&Tally {
                generated: 30,
                killed: 29,
                ..Tally::default()
            }),
            "96%"
        );
        let ids = |s| section(&r, s).iter().map(|m| m.mutant).collect::<Vec<_>>();
        assert_eq!(ids(Section::Differences), [3]);
        assert_eq!(ids(Section::Survived), [1]);
        assert_eq!(ids(Section::Killed), [0, 2, 4]);
        let m = kill_matrix(&r);
        assert_eq!(m.mutants, [0, 1, 2, 3, 4]);
        assert_eq!(
            m.rows,
            [
                ("test_a".to_string(), vec![true, false, false, true, false]),
                ("test_b".to_string(), vec![false, false, false, true, false]),
            ]
        );
    }

    #[test]
    fn diffs_split_into_marked_lines() {
        assert_eq!(
            diff_lines("@@ line 2 @@\n-    if x > 0:\n+    if x >= 0:\n"),
            [
                ('@', "@@ line 2 @@"),
                ('-', "    if x > 0:"),
                ('+', "    if x >= 0:")
            ]
        );
    }

    #[test]
    fn a_mutant_beside_the_solution_marks_the_lines_it_changes() {
        let m = plan(SOLUTION);
        let boundary = m.iter().find(|m| m.operator == "boundary").unwrap();
        let rows = beside(SOLUTION, &boundary.diff, 1);
        // Line 2 changed, one line of context either side.
        assert_eq!(
            rows.iter().map(|r| r.line).collect::<Vec<_>>(),
            [Some(1), Some(2), Some(3)]
        );
        assert_eq!(rows.iter().filter(|r| r.changed).count(), 1);
        let changed = &rows[1];
        assert_eq!(changed.solution.as_deref(), Some("    if x > 0:"));
        assert_eq!(
            changed.mutant.as_deref(),
            Some(boundary.source.lines().nth(1).unwrap())
        );
        assert_ne!(changed.solution, changed.mutant);
        assert!(rows[0].solution == rows[0].mutant && !rows[0].changed);
        // Every mutant of the solution lines up with it; the mutant's column is its source.
        for mu in &m {
            let rows = beside(SOLUTION, &mu.diff, 100);
            assert!(rows.iter().any(|r| r.changed), "{}", mu.id);
            let right: Vec<&str> = rows.iter().filter_map(|r| r.mutant.as_deref()).collect();
            assert_eq!(right.join("\n"), mu.source, "{}", mu.id);
        }
        // A solution that no longer has the diff's lines: nothing beside it.
        assert!(beside("def f(x):\n    return 1\n", &boundary.diff, 1).is_empty());
        assert!(beside(SOLUTION, "not a diff", 1).is_empty());
    }

    #[test]
    fn the_beside_table_escapes_the_code() {
        assert_eq!(
            escape(r#"a < b && c > "d""#),
            "a &lt; b &amp;&amp; c &gt; &quot;d&quot;"
        );
        assert_eq!(beside_html(&[]), "");
        let rows = [
            BesideRow {
                line: Some(3),
                solution: Some("if a < b:".into()),
                mutant: Some("if a <= b:".into()),
                changed: true,
            },
            BesideRow {
                line: None,
                solution: None,
                mutant: Some("pass".into()),
                changed: true,
            },
        ];
        let h = beside_html(&rows);
        assert!(h.starts_with(r#"<table class="mutant-beside" data-testid="mutant-beside">"#));
        assert!(h.contains(r#"<tr class="changed" data-testid="mutant-beside-line" data-line="3" data-changed="true"><td class="ln">3</td><td class="code sol"><code>if a &lt; b:</code></td><td class="code mut"><code>if a &lt;= b:</code></td></tr>"#));
        assert!(h.contains(r#"data-line="" data-changed="true"><td class="ln"></td><td class="code sol"><code></code></td><td class="code mut"><code>pass</code></td>"#));
        assert!(!h.contains("<b"));
    }

    #[test]
    fn the_picked_mutants_panel() {
        let m = plan(SOLUTION);
        let r = results();
        let h = focus_html(&m[0], Some(&r[0]), SOLUTION);
        assert!(h.contains(&format!(r#"<code class="mutant-id">{}</code>"#, m[0].id)));
        assert!(h.contains(" · killed</span>"));
        assert!(h.contains(
            r#"data-testid="mutant-selected-killers">pytest fails test_a · 1 check fails (L4)</p>"#
        ));
        assert!(h.contains(r#"data-changed="true""#));
        let not_run = focus_html(&m[0], None, SOLUTION);
        assert!(
            not_run.contains(" · not run</span>") && !not_run.contains("mutant-selected-killers")
        );
    }

    #[test]
    fn killers_name_the_tests_and_the_checks() {
        let r = results();
        assert_eq!(
            killers(&r[0]).unwrap(),
            "pytest fails test_a · 1 check fails (L4)"
        );
        assert_eq!(killers(&r[1]), None);
        assert_eq!(killers(&r[2]).unwrap(), "by the time limit");
        assert_eq!(killers(&r[3]).unwrap(), "pytest fails test_a, test_b");
        let mut many = r[0].clone();
        many.killed_by_tests = (0..5).map(|i| format!("test_{i}")).collect();
        assert_eq!(
            killers(&many).unwrap(),
            "pytest fails test_0, test_1, test_2 and 2 more · 1 check fails (L4)"
        );
    }

    #[test]
    fn results_go_stale_when_the_file_the_solution_or_the_stage_change() {
        let ran = RunInputs {
            test_source: FILE,
            solution: SOLUTION,
            stage: "full",
        };
        assert!(stale_reasons(&ran, &ran.clone()).is_empty());
        assert_eq!(stale_note(&[]), "");
        let edited = format!("{FILE}\n");
        let now = RunInputs {
            test_source: &edited,
            ..ran.clone()
        };
        assert_eq!(stale_reasons(&ran, &now), ["the test file"]);
        let now = RunInputs {
            solution: "def f(x):\n    return x\n",
            stage: "as-written",
            ..ran.clone()
        };
        let reasons = stale_reasons(&ran, &now);
        assert_eq!(reasons, ["the solution", "the stage"]);
        assert!(stale_note(&reasons).starts_with("Stale: the solution and the stage changed"));
    }

    #[test]
    fn the_report_names_survivors_and_keeps_its_keys() {
        let mutants = plan(SOLUTION);
        let r = results();
        let report = MutantReport::new("reference", &mutants, &r, "done", 10.0);
        assert_eq!(report.survivors, [mutants[1].id.clone()]);
        assert_eq!(report.score, 0.8);
        let v = serde_json::to_value(&report).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "crashes",
                "differences",
                "generated",
                "killed",
                "planned",
                "score",
                "solution",
                "status",
                "survived",
                "survivors",
                "timeouts",
                "wallMs"
            ]
        );
    }

    #[test]
    fn whole_bench_rows_and_total() {
        let a = ProblemMutants {
            slug: "a".into(),
            planned: 3,
            runs: vec![
                (Outcome::Killed, None),
                (Outcome::Timeout, None),
                (Outcome::Survived, None),
            ],
        };
        let b = ProblemMutants {
            slug: "b".into(),
            planned: 2,
            runs: vec![(Outcome::Killed, Some(Difference::ChecksMiss))],
        };
        assert!(a.complete() && !b.complete());
        let r = BenchMutantsReport::new(&[a, b]);
        assert_eq!(r.problems[0].killed, 2);
        assert_eq!(r.problems[0].timeouts, 1);
        assert_eq!(r.problems[0].survived, 1);
        assert_eq!(r.problems[1].differences, 1);
        assert_eq!(r.total.problem, "bench");
        assert_eq!(r.total.planned, 5);
        assert_eq!(r.total.generated, 4);
        assert_eq!(r.total.killed, 3);
        assert_eq!(r.total.score, 0.75);
    }

    #[test]
    fn whole_bench_problem_filter() {
        let slugs = ["a", "b", "c"];
        assert_eq!(bench_mutant_problems(&slugs, None), vec![0, 1, 2]);
        let only = vec!["c".to_string(), "a".to_string(), "zz".to_string()];
        assert_eq!(bench_mutant_problems(&slugs, Some(&only)), vec![0, 2]);
    }
}

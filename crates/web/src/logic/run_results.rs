//! The Run tab's logic: what is sent to the Python worker (`www/py/`), how its reply is read, and
//! how both views — the bench loop's (each kept assertion evaluated in a fresh solution namespace)
//! and pytest's — become one row per assertion with the library's verdict
//! ([`bench_explorer::verdict`]). Also the whole-bench run: its plan and its totals in the form of
//! the write-up's tables. Pure Rust over serde types, tested natively by `tests/web_logic.rs`.
//!
//! Neither the reply's shape nor the verdict is decided here: the worker's result is the library's
//! [`runner::Reply`] (the CLI reads the same), joined with the extraction by [`runner::checks`],
//! with its rule for a file pytest could not collect (an assertion's test counts as an *error*,
//! not as "not a test"). This module arranges the joined rows for the page.

use std::collections::BTreeMap;

use bench_explorer::model::{Binding, Extraction, Stage, Status, WarningFilter};
use bench_explorer::runner;
pub use bench_explorer::runner::{CollectionError, Eval, Pytest, PytestTest, Timings, Truth};
use bench_explorer::verdict::{PytestOutcome, RunSummary, Verdict};
use serde::{Deserialize, Serialize};

use super::grouping::split_case;

// ------------------------------------------------------------------------------ choices

/// Which solution a run executes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SolutionChoice {
    /// The bench problem's reference solution (`solution.py`).
    #[default]
    Reference,
    /// The bench problem's stub (`stub.py`): fails, as a model's empty answer would.
    Stub,
    /// Code in the Run tab's own editor.
    Custom,
}

impl SolutionChoice {
    pub const ALL: [SolutionChoice; 3] = [
        SolutionChoice::Reference,
        SolutionChoice::Stub,
        SolutionChoice::Custom,
    ];

    pub fn id(self) -> &'static str {
        match self {
            SolutionChoice::Reference => "reference",
            SolutionChoice::Stub => "stub",
            SolutionChoice::Custom => "custom",
        }
    }

    pub fn from_id(id: &str) -> Option<SolutionChoice> {
        SolutionChoice::ALL.into_iter().find(|c| c.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            SolutionChoice::Reference => "Reference solution",
            SolutionChoice::Stub => "Stub (unsolved)",
            SolutionChoice::Custom => "Your code",
        }
    }
}

/// The default per-run time limit, in seconds.
pub const DEFAULT_TIMEOUT_S: f64 = 5.0;
pub const MIN_TIMEOUT_S: f64 = 0.5;
pub const MAX_TIMEOUT_S: f64 = 300.0;

/// A time limit typed by the user (seconds, `.` or `,` as the decimal mark) → milliseconds,
/// clamped to a sane range; `None` when it is not a number.
pub fn timeout_ms(input: &str) -> Option<u32> {
    let s: f64 = input.trim().replace(',', ".").parse().ok()?;
    if !s.is_finite() {
        return None;
    }
    Some((s.clamp(MIN_TIMEOUT_S, MAX_TIMEOUT_S) * 1000.0).round() as u32)
}

/// The file name pytest is given: the editor's file name when pytest can use it (a `.py` file
/// that is not `solution.py` or `conftest.py`), else `test_scratch.py`.
pub fn pytest_filename(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or("").trim();
    let usable = base.len() > 3
        && base.ends_with(".py")
        && base != "solution.py"
        && base != "conftest.py"
        && base[..base.len() - 3]
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_');
    if usable {
        base.to_string()
    } else {
        "test_scratch.py".to_string()
    }
}

// ------------------------------------------------------------------------------ request

/// One `run` request (`www/py/README.md`). `id` of each assertion is its index in the extraction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRequest {
    pub solution: String,
    /// `None` skips pytest (the whole-bench run reuses one pytest run per problem).
    pub test_source: Option<String>,
    pub test_filename: String,
    pub assertions: Vec<RequestAssertion>,
    /// The extraction's bindings: the namespace `runner.build_namespace` evaluates every
    /// expression in (contract version 2: the real builtins, then what the test file imported).
    pub bindings: Vec<Binding>,
    /// The extraction's warning filters: pytest's configuration's, applied while the solution is
    /// loaded and around every expression (`runner.warnings_around`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warning_filters: Vec<WarningFilter>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RequestAssertion {
    pub id: usize,
    pub expr: String,
    /// The check's own filters (its test's `filterwarnings` marks), applied after the extraction's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warning_filters: Vec<WarningFilter>,
}

/// The kept assertions of an extraction, as the bench loop would evaluate them.
pub fn request(
    extraction: &Extraction,
    solution: &str,
    test_source: Option<&str>,
    test_filename: &str,
) -> RunRequest {
    RunRequest {
        solution: solution.to_string(),
        test_source: test_source.map(str::to_string),
        test_filename: pytest_filename(test_filename),
        assertions: extraction
            .assertions
            .iter()
            .enumerate()
            .filter(|(_, a)| a.status == Status::Kept)
            .filter_map(|(i, a)| {
                a.expr.as_ref().map(|e| RequestAssertion {
                    id: i,
                    expr: e.clone(),
                    warning_filters: a.warning_filters.clone(),
                })
            })
            .collect(),
        bindings: extraction.bindings.clone(),
        warning_filters: extraction.warning_filters.clone(),
    }
}

// ------------------------------------------------------------------------------ reply

/// What `PyRunner.run` resolved with (or, as `Failed`, why it rejected).
/// Its JSON is an object whose `type` is `result`, `error` or `timeout` (see [`Reply::parse`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `runner.py`'s reply, which the worker sends with the envelope's fields.
    Result(runner::Reply),
    /// Each field defaults when absent.
    Error {
        message: String,
        python_type: Option<String>,
        fatal: bool,
    },
    /// Each field defaults when absent (`timeoutMs` in the JSON).
    Timeout { timeout_ms: f64, restarted: bool },
    /// The promise rejected: the worker crashed, could not start, or was stopped.
    Failed { message: String },
}

impl Reply {
    /// Parse the worker's reply (JSON text of the resolved object).
    pub fn parse(json: &str) -> Reply {
        Self::read(json).unwrap_or_else(|e| Reply::Failed {
            message: format!("unreadable reply from the Python worker ({e})"),
        })
    }

    /// The object's `type`, then the object read again as that type's fields (others ignored).
    /// serde's derive for an internally tagged enum buffers the object into its generic `Content`
    /// first, a reader of several KB in the page's wasm; reading the text twice costs less.
    fn read(json: &str) -> serde_json::Result<Reply> {
        #[derive(Deserialize)]
        #[serde(rename_all = "kebab-case")]
        enum Type {
            Result,
            Error,
            Timeout,
        }
        #[derive(Deserialize)]
        struct Tagged {
            #[serde(rename = "type")]
            kind: Type,
        }
        #[derive(Deserialize)]
        struct Error {
            #[serde(default)]
            message: String,
            #[serde(default)]
            python_type: Option<String>,
            #[serde(default)]
            fatal: bool,
        }
        #[derive(Deserialize)]
        struct Timeout {
            #[serde(default, rename = "timeoutMs")]
            timeout_ms: f64,
            #[serde(default)]
            restarted: bool,
        }
        Ok(match serde_json::from_str::<Tagged>(json)?.kind {
            Type::Result => Reply::Result(serde_json::from_str(json)?),
            Type::Error => {
                let e: Error = serde_json::from_str(json)?;
                Reply::Error {
                    message: e.message,
                    python_type: e.python_type,
                    fatal: e.fatal,
                }
            }
            Type::Timeout => {
                let t: Timeout = serde_json::from_str(json)?;
                Reply::Timeout {
                    timeout_ms: t.timeout_ms,
                    restarted: t.restarted,
                }
            }
        })
    }
}

// ------------------------------------------------------------------------------ rows

/// One assertion of the extraction with both views and the verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRow {
    /// Index into the extraction's assertions.
    pub index: usize,
    pub test: String,
    pub line: u32,
    pub source: String,
    pub kept: bool,
    pub expr: Option<String>,
    pub reason: Option<String>,
    /// The bench loop's result (`None`: dropped, or not evaluated).
    pub eval: Option<Eval>,
    pub pytest: PytestOutcome,
    /// pytest's one-line reason when the test did not pass.
    pub pytest_crash: String,
    pub verdict: Verdict,
}

/// The assertions of one test (all its cases) with pytest's outcome for the test.
#[derive(Clone, Debug, PartialEq)]
pub struct RowGroup {
    pub name: String,
    /// pytest's outcome for the test as a whole (the worst of its cases).
    pub pytest: PytestOutcome,
    pub rows: Vec<RunRow>,
}

/// One test (or parametrized case) as pytest reported it, with what the bench loop measured of it.
#[derive(Clone, Debug, PartialEq)]
pub struct PytestRow {
    pub name: String,
    pub nodeid: String,
    pub outcome: PytestOutcome,
    pub crash: String,
    pub message: String,
    pub line: Option<u32>,
    pub duration_s: f64,
    /// Kept assertions the loop checked for this test, and how many of them were measurement bugs.
    pub measured: usize,
    pub measurement_bugs: usize,
}

/// Everything the Run tab shows for one run of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRun {
    pub stage: Stage,
    pub groups: Vec<RowGroup>,
    pub pytest_rows: Vec<PytestRow>,
    pub collection_errors: Vec<CollectionError>,
    pub pytest_output: String,
    pub pytest_exit_code: Option<i64>,
    pub summary: RunSummary,
    pub counts: BTreeMap<Verdict, usize>,
    pub timings: Timings,
    /// Kept assertions the extractor produced that the loop had no result for (should be 0).
    pub missing_evals: usize,
}

impl FileRun {
    pub fn count(&self, v: Verdict) -> usize {
        self.counts.get(&v).copied().unwrap_or(0)
    }

    pub fn rows(&self) -> impl Iterator<Item = &RunRow> {
        self.groups.iter().flat_map(|g| g.rows.iter())
    }
}

/// Both views of one run, matched assertion by assertion.
pub fn file_run(
    extraction: &Extraction,
    evals: &[Eval],
    pytest: Option<&Pytest>,
    timings: Timings,
) -> FileRun {
    let truth = pytest.map(Truth::from_pytest).unwrap_or_default();
    let checks = runner::checks(extraction, Some(evals), &truth);
    let crash_of = |test: &str| -> String {
        pytest
            .into_iter()
            .flat_map(|p| p.tests.iter())
            .find(|t| t.name == test || split_case(&t.name).0 == test)
            .filter(|t| t.outcome != PytestOutcome::Passed)
            .map(|t| t.crash.clone())
            .unwrap_or_default()
    };

    let mut groups: Vec<RowGroup> = Vec::new();
    let mut missing = 0;
    for c in &checks {
        let a = c.assertion;
        if a.status == Status::Kept && c.eval.is_none() {
            missing += 1;
        }
        let row = RunRow {
            index: c.index,
            test: a.test.clone(),
            line: a.line,
            source: a.source.clone(),
            kept: a.status == Status::Kept,
            expr: a.expr.clone(),
            reason: a.reason.clone(),
            eval: c.eval.cloned(),
            pytest: c.pytest,
            pytest_crash: if c.pytest == PytestOutcome::Passed {
                String::new()
            } else {
                crash_of(&a.test)
            },
            verdict: c.verdict,
        };
        let (name, _) = split_case(&a.test);
        match groups.iter_mut().find(|g| g.name == name) {
            Some(g) => g.rows.push(row),
            None => groups.push(RowGroup {
                name: name.to_string(),
                pytest: truth.outcome_for(name),
                rows: vec![row],
            }),
        }
    }

    let summary = runner::summary(extraction, &checks, &truth);
    let counts = runner::count(checks.iter().map(|c| c.verdict));

    let pytest_rows = pytest
        .map(|p| {
            p.tests
                .iter()
                .map(|t| {
                    let mine = groups.iter().flat_map(|g| g.rows.iter()).filter(|r| {
                        r.eval.is_some() && (r.test == t.name || split_case(&t.name).0 == r.test)
                    });
                    let (mut measured, mut bugs) = (0, 0);
                    for r in mine {
                        measured += 1;
                        if r.verdict == Verdict::MeasurementBug {
                            bugs += 1;
                        }
                    }
                    PytestRow {
                        name: t.name.clone(),
                        nodeid: t.nodeid.clone(),
                        outcome: t.outcome,
                        crash: t.crash.clone(),
                        message: t.message.clone(),
                        line: t.line,
                        duration_s: t.duration,
                        measured,
                        measurement_bugs: bugs,
                    }
                })
                .collect()
        })
        .unwrap_or_default();

    FileRun {
        stage: extraction.stage,
        groups,
        pytest_rows,
        collection_errors: pytest
            .map(|p| p.collection_errors.clone())
            .unwrap_or_default(),
        pytest_output: pytest.map(|p| p.output.clone()).unwrap_or_default(),
        pytest_exit_code: pytest.map(|p| p.exit_code),
        summary,
        counts,
        timings,
        missing_evals: missing,
    }
}

/// pytest's tally for a run: `(passed, failed or error, other)`.
pub fn pytest_tally(rows: &[PytestRow]) -> (usize, usize, usize) {
    let mut t = (0, 0, 0);
    for r in rows {
        match r.outcome {
            PytestOutcome::Passed | PytestOutcome::Xpassed => t.0 += 1,
            PytestOutcome::Failed | PytestOutcome::Error => t.1 += 1,
            _ => t.2 += 1,
        }
    }
    t
}

/// How a run's headline reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Good,
    Warn,
    Bad,
    Neutral,
}

impl Tone {
    pub fn id(self) -> &'static str {
        match self {
            Tone::Good => "good",
            Tone::Warn => "warn",
            Tone::Bad => "bad",
            Tone::Neutral => "neutral",
        }
    }
}

fn n_of(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One sentence that says what the run found, measurement bugs first.
pub fn headline(run: &FileRun) -> (Tone, String) {
    let s = &run.summary;
    let bugs = s.measurement_bugs;
    if bugs > 0 {
        return (
            Tone::Bad,
            format!(
                "{}: the bench loop fails {} that pytest passes. The extractor is at fault, not the solution.",
                n_of(bugs, "measurement bug", "measurement bugs"),
                n_of(bugs, "check", "checks"),
            ),
        );
    }
    if s.checked == 0 {
        return (
            Tone::Neutral,
            "Nothing measured: the extractor kept no assertion of this file, so the bench loop checks nothing.".into(),
        );
    }
    if s.solution_bugs > 0 {
        return (
            Tone::Warn,
            format!(
                "The solution fails {} of {} checks and pytest agrees: {}, measured correctly. No measurement bugs.",
                s.checked - s.passing,
                s.checked,
                n_of(s.solution_bugs, "solution bug", "solution bugs"),
            ),
        );
    }
    let odd = run.count(Verdict::PhantomPass) + run.count(Verdict::FailsElsewhere);
    if odd > 0 {
        return (
            Tone::Warn,
            format!(
                "Every check holds, but pytest does not pass {} of their tests: see the rows marked below.",
                odd
            ),
        );
    }
    (
        Tone::Good,
        format!(
            "Both views agree: {} of {} checks pass and pytest passes their tests. No measurement bugs.",
            s.passing, s.checked
        ),
    )
}

// ------------------------------------------------------------------------------ Python start-up

/// The Python worker as the page sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PyState {
    /// Not asked to start yet (it starts in the background once the page is interactive).
    #[default]
    Idle,
    /// Starting: `step` of [`PY_STEPS`], with what it is doing.
    Loading {
        step: u32,
        detail: String,
    },
    Ready,
    /// A runaway run ended the worker: a fresh one is starting.
    Restarting {
        reason: String,
    },
    Failed {
        message: String,
    },
}

/// The start-up steps reported by the worker, in order.
pub const PY_STEPS: u32 = 4;

impl PyState {
    /// The state after a progress message from the worker (`stage`, `detail` as text).
    pub fn after(&self, stage: &str, detail: &str) -> PyState {
        match stage {
            "pyodide" => PyState::Loading {
                step: 1,
                detail: "loading the Python runtime".into(),
            },
            "wheels" => PyState::Loading {
                step: 2,
                detail: format!("installing {}", wheel_name(detail)),
            },
            "pytest" => PyState::Loading {
                step: 3,
                detail: "importing pytest".into(),
            },
            "ready" => PyState::Ready,
            "restart" => PyState::Restarting {
                reason: detail.to_string(),
            },
            "failed" => PyState::Failed {
                message: detail.to_string(),
            },
            _ => self.clone(),
        }
    }

    pub fn id(&self) -> &'static str {
        match self {
            PyState::Idle => "idle",
            PyState::Loading { .. } => "loading",
            PyState::Ready => "ready",
            PyState::Restarting { .. } => "restarting",
            PyState::Failed { .. } => "failed",
        }
    }

    /// Progress through start-up, `0..=PY_STEPS`.
    pub fn step(&self) -> u32 {
        match self {
            PyState::Idle | PyState::Restarting { .. } | PyState::Failed { .. } => 0,
            PyState::Loading { step, .. } => *step,
            PyState::Ready => PY_STEPS,
        }
    }

    pub fn label(&self) -> String {
        match self {
            PyState::Idle => "Python not started".into(),
            PyState::Loading { detail, .. } => format!("Python loading: {detail}"),
            PyState::Ready => "Python ready".into(),
            PyState::Restarting { .. } => "Python restarting".into(),
            PyState::Failed { .. } => "Python failed to start".into(),
        }
    }
}

/// `pytest-9.0.2-py3-none-any.whl` → `pytest 9.0.2`.
fn wheel_name(file: &str) -> String {
    let mut parts = file.trim_end_matches(".whl").splitn(3, '-');
    match (parts.next(), parts.next()) {
        (Some(n), Some(v)) if !n.is_empty() => format!("{n} {v}"),
        _ => file.to_string(),
    }
}

// ------------------------------------------------------------------------------ whole bench

/// One unit of the whole-bench run: one problem under one stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchJob {
    /// Index of the problem in the bench.
    pub problem: usize,
    pub stage: Stage,
}

/// Problems outer, stages inner: each problem's pytest run (the ground truth, the same for every
/// stage) is done once, with its first stage, and reused by the others.
pub fn bench_plan(problems: usize, stages: &[Stage]) -> Vec<BenchJob> {
    (0..problems)
        .flat_map(|p| {
            stages.iter().map(move |s| BenchJob {
                problem: p,
                stage: *s,
            })
        })
        .collect()
}

/// How one job ended.
#[derive(Clone, Debug, PartialEq)]
pub enum JobOutcome {
    Done {
        summary: RunSummary,
        counts: BTreeMap<Verdict, usize>,
    },
    TimedOut,
    Failed(String),
    /// The problem has no solution of the chosen kind.
    Skipped,
}

#[derive(Clone, Debug, PartialEq)]
pub struct JobResult {
    pub job: BenchJob,
    pub slug: String,
    pub outcome: JobOutcome,
    /// The bench loop's time (all assertions of this job), from the worker.
    pub loop_ms: f64,
    /// pytest's time, when this job ran pytest.
    pub pytest_ms: Option<f64>,
}

/// Summarise one job from its reply and the problem's pytest outcomes.
pub fn job_outcome(extraction: &Extraction, evals: &[Eval], truth: &Truth) -> JobOutcome {
    let checks = runner::checks(extraction, Some(evals), truth);
    JobOutcome::Done {
        summary: runner::summary(extraction, &checks, truth),
        counts: runner::count(checks.iter().map(|c| c.verdict)),
    }
}

/// One line of the write-up's table: a stage across the bench.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StageTotals {
    pub stage: Option<Stage>,
    /// Problems run to the end (of those planned).
    pub done: usize,
    pub planned: usize,
    /// Problems whose every checked assertion held: the write-up's "PASS first try".
    pub first_try: usize,
    pub checked: usize,
    pub passing: usize,
    pub measurement_bugs: usize,
    pub solution_bugs: usize,
    pub not_measured: usize,
    /// Problems whose pytest run passed every test.
    pub pytest_passes: usize,
    pub timed_out: usize,
    pub failed: usize,
    pub loop_ms: f64,
}

pub fn stage_totals(stage: Stage, planned: usize, results: &[JobResult]) -> StageTotals {
    let mut t = StageTotals {
        stage: Some(stage),
        planned,
        ..StageTotals::default()
    };
    for r in results.iter().filter(|r| r.job.stage == stage) {
        t.loop_ms += r.loop_ms;
        match &r.outcome {
            JobOutcome::Done { summary, .. } => {
                t.done += 1;
                t.first_try += summary.loop_passes as usize;
                t.pytest_passes += summary.pytest_passes as usize;
                t.checked += summary.checked;
                t.passing += summary.passing;
                t.measurement_bugs += summary.measurement_bugs;
                t.solution_bugs += summary.solution_bugs;
                t.not_measured += summary.not_measured;
            }
            JobOutcome::TimedOut => {
                t.done += 1;
                t.timed_out += 1;
            }
            JobOutcome::Failed(_) | JobOutcome::Skipped => {
                t.done += 1;
                t.failed += 1;
            }
        }
    }
    t
}

/// The JSON the benchmark reads from `window.__benchExplorer.lastBenchRun`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BenchReport {
    pub solution: &'static str,
    pub problems: usize,
    pub stages: Vec<StageReport>,
    pub pytest_runs: usize,
    pub pytest_ms: f64,
    pub wall_ms: f64,
    pub cancelled: bool,
    /// With mutants: each problem's mutation score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mutants: Option<super::mutation::BenchMutantsReport>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StageReport {
    pub stage: &'static str,
    pub done: usize,
    pub first_try: usize,
    pub checked: usize,
    pub passing: usize,
    pub measurement_bugs: usize,
    pub solution_bugs: usize,
    pub not_measured: usize,
    pub pytest_passes: usize,
    pub timed_out: usize,
    pub failed: usize,
    pub loop_ms: f64,
}

impl From<&StageTotals> for StageReport {
    fn from(t: &StageTotals) -> StageReport {
        StageReport {
            stage: t.stage.map(|s| s.id()).unwrap_or(""),
            done: t.done,
            first_try: t.first_try,
            checked: t.checked,
            passing: t.passing,
            measurement_bugs: t.measurement_bugs,
            solution_bugs: t.solution_bugs,
            not_measured: t.not_measured,
            pytest_passes: t.pytest_passes,
            timed_out: t.timed_out,
            failed: t.failed,
            loop_ms: (t.loop_ms * 10.0).round() / 10.0,
        }
    }
}

/// `1234.5` ms → `1.2 s`; under a second in ms.
pub fn format_ms(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        format!("{ms:.0} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::model::Kept;
    use bench_explorer::verdict::EvalOutcome;
    use bench_explorer::{extract, Options};

    const TEST: &str = r#"import pytest
from solution import add


def _helper():
    return 1


def test_inline():
    assert add(1, 2) == 3


def test_variable():
    total = add(2, 2)
    assert total == 4


@pytest.mark.parametrize("a, b, c", [(1, 1, 2), (2, 3, 5)])
def test_cases(a, b, c):
    assert add(a, b) == c


def test_loop():
    for i in range(add(1, 2)):
        assert add(i, 0) == i
"#;

    fn extraction(stage: Stage) -> Extraction {
        extract(
            TEST,
            &Options {
                stage,
                ..Options::new("test_add.py")
            },
        )
    }

    fn eval(id: usize, outcome: EvalOutcome) -> Eval {
        Eval {
            id,
            outcome,
            error: (outcome == EvalOutcome::Error)
                .then(|| "NameError: name 'total' is not defined".into()),
            traceback: None,
            phase: Some("assertion".into()),
            value: None,
            output: String::new(),
            duration_ms: 0.1,
        }
    }

    fn pytest(outcomes: &[(&str, &str)]) -> Pytest {
        Pytest {
            tests: outcomes
                .iter()
                .map(|(n, o)| PytestTest {
                    nodeid: format!("test_add.py::{n}"),
                    name: n.to_string(),
                    outcome: PytestOutcome::parse(o).unwrap(),
                    message: String::new(),
                    crash: if *o == "passed" {
                        String::new()
                    } else {
                        "AssertionError".into()
                    },
                    line: Some(1),
                    duration: 0.001,
                })
                .collect(),
            collection_errors: vec![],
            exit_code: 0,
            output: String::new(),
        }
    }

    const ALL_PASS: &[(&str, &str)] = &[
        ("test_inline", "passed"),
        ("test_variable", "passed"),
        ("test_cases[1-1-2]", "passed"),
        ("test_cases[2-3-5]", "passed"),
        ("test_loop", "passed"),
    ];

    #[test]
    fn request_sends_kept_assertions_by_index() {
        let e = extraction(Stage::Full);
        let r = request(&e, "def add(a, b): return a + b", Some(TEST), "test_add.py");
        assert_eq!(r.test_filename, "test_add.py");
        assert_eq!(r.assertions.len(), e.kept().count());
        for a in &r.assertions {
            assert_eq!(e.assertions[a.id].expr.as_deref(), Some(a.expr.as_str()));
        }
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["assertions"][0]["id"], 0);
        assert!(json["test_source"].is_string());
        let none = request(&e, "", None, "x");
        assert!(serde_json::to_value(&none).unwrap()["test_source"].is_null());
    }

    #[test]
    fn request_sends_the_bindings_in_runner_py_form() {
        for stage in Stage::ALL {
            let e = extraction(stage);
            let r = request(&e, "", None, "test_add.py");
            assert_eq!(r.bindings, e.bindings, "{stage:?}");
            let json = serde_json::to_value(&r).unwrap();
            assert_eq!(json["bindings"], serde_json::to_value(&e.bindings).unwrap());
        }
        // The fields runner.build_namespace reads, whatever the extractor emits today.
        let mut e = extraction(Stage::Full);
        e.bindings = vec![
            Binding::Module {
                name: "sol".into(),
                module: "solution".into(),
            },
            Binding::Attr {
                name: "plus".into(),
                module: "solution".into(),
                attr: "add".into(),
            },
            Binding::Star {
                module: "solution".into(),
                keep: vec![],
            },
            Binding::Star {
                module: "solution".into(),
                keep: vec![Kept {
                    name: "dd".into(),
                    module: "collections".into(),
                    attr: Some("defaultdict".into()),
                }],
            },
            Binding::Import {
                name: "pytest".into(),
                module: "pytest".into(),
                attr: None,
            },
            Binding::Import {
                name: "approx".into(),
                module: "pytest".into(),
                attr: Some("approx".into()),
            },
            Binding::Value {
                name: "__name__".into(),
                value: "test_add".into(),
            },
            Binding::Globals {
                module: "solution".into(),
            },
        ];
        let json = serde_json::to_value(request(&e, "", None, "x")).unwrap();
        assert_eq!(
            json["bindings"],
            serde_json::json!([
                {"kind": "module", "name": "sol", "module": "solution"},
                {"kind": "attr", "name": "plus", "module": "solution", "attr": "add"},
                {"kind": "star", "module": "solution"},
                {"kind": "star", "module": "solution",
                 "keep": [{"name": "dd", "module": "collections", "attr": "defaultdict"}]},
                {"kind": "import", "name": "pytest", "module": "pytest"},
                {"kind": "import", "name": "approx", "module": "pytest", "attr": "approx"},
                {"kind": "value", "name": "__name__", "value": "test_add"},
                {"kind": "globals", "module": "solution"},
            ])
        );
    }

    #[test]
    fn file_names_pytest_can_use() {
        assert_eq!(pytest_filename("test_add.py"), "test_add.py");
        assert_eq!(pytest_filename("dir/test_add.py"), "test_add.py");
        assert_eq!(pytest_filename("solution.py"), "test_scratch.py");
        assert_eq!(pytest_filename("conftest.py"), "test_scratch.py");
        assert_eq!(pytest_filename("notes.txt"), "test_scratch.py");
        assert_eq!(pytest_filename("my-tests.py"), "test_scratch.py");
        assert_eq!(pytest_filename(""), "test_scratch.py");
    }

    #[test]
    fn time_limits_are_parsed_and_clamped() {
        assert_eq!(timeout_ms("5"), Some(5000));
        assert_eq!(timeout_ms(" 2,5 "), Some(2500));
        assert_eq!(timeout_ms("0"), Some(500));
        assert_eq!(timeout_ms("100000"), Some(300_000));
        assert_eq!(timeout_ms("soon"), None);
        assert_eq!(timeout_ms("NaN"), None);
    }

    #[test]
    fn replies_parse() {
        let r = Reply::parse(
            r#"{"type":"result","id":1,"evals":[{"id":0,"outcome":"pass","error":null,"traceback":null,"phase":null,"value":"True","output":"","duration_ms":0.2}],
                "pytest":{"tests":[{"nodeid":"t.py::test_a","name":"test_a","outcome":"passed","message":"","crash":"","line":3,"duration":0.01}],"collection_errors":[],"exit_code":0,"output":""},
                "timings":{"eval_ms":1,"pytest_ms":2,"total_ms":3.5},"memory_bytes":123}"#,
        );
        let Reply::Result(runner::Reply {
            evals,
            pytest,
            timings,
        }) = r
        else {
            panic!("{r:?}")
        };
        assert_eq!(evals[0].outcome, EvalOutcome::Pass);
        assert_eq!(pytest.unwrap().tests[0].line, Some(3));
        assert_eq!(timings.total_ms, 3.5);
        assert_eq!(
            Reply::parse(r#"{"type":"timeout","id":2,"timeoutMs":1500,"restarted":true}"#),
            Reply::Timeout {
                timeout_ms: 1500.0,
                restarted: true
            }
        );
        assert!(matches!(
            Reply::parse(r#"{"type":"error","id":3,"message":"KeyboardInterrupt","python_type":"KeyboardInterrupt","interrupted":true}"#),
            Reply::Error { python_type: Some(t), .. } if t == "KeyboardInterrupt"
        ));
        assert!(matches!(Reply::parse("{"), Reply::Failed { .. }));
    }

    #[test]
    fn a_correct_solution_agrees_everywhere_at_full() {
        let e = extraction(Stage::Full);
        let evals: Vec<Eval> = request(&e, "", None, "")
            .assertions
            .iter()
            .map(|a| eval(a.id, EvalOutcome::Pass))
            .collect();
        let run = file_run(&e, &evals, Some(&pytest(ALL_PASS)), Timings::default());
        assert_eq!(run.count(Verdict::MeasurementBug), 0);
        assert_eq!(run.count(Verdict::SolutionBug), 0);
        assert_eq!(run.count(Verdict::Agree), e.kept().count());
        // The loop's assert is dropped (its loop may iterate nothing): not measured, with pytest's
        // outcome beside it.
        assert_eq!(run.count(Verdict::NotMeasured), 1);
        let dropped = run.rows().find(|r| !r.kept).unwrap();
        assert_eq!(dropped.pytest, PytestOutcome::Passed);
        assert!(run.summary.loop_passes && run.summary.pytest_passes);
        assert_eq!(run.missing_evals, 0);
        // Parametrized cases are grouped under their test.
        let cases = run.groups.iter().find(|g| g.name == "test_cases").unwrap();
        assert_eq!(cases.rows.len(), 2);
        assert_eq!(cases.pytest, PytestOutcome::Passed);
        // pytest's view knows what the loop measured of each test.
        let p = run
            .pytest_rows
            .iter()
            .find(|p| p.name == "test_cases[2-3-5]")
            .unwrap();
        assert_eq!((p.measured, p.measurement_bugs), (1, 0));
        assert_eq!(pytest_tally(&run.pytest_rows), (5, 0, 0));
    }

    #[test]
    fn as_written_breaks_on_variables_and_says_so() {
        let e = extraction(Stage::AsWritten);
        // `total == 4` raises NameError in the loop; pytest passes the test.
        let evals: Vec<Eval> = request(&e, "", None, "")
            .assertions
            .iter()
            .map(|a| {
                let bad = e.assertions[a.id].expr.as_deref() == Some("total == 4");
                eval(
                    a.id,
                    if bad {
                        EvalOutcome::Error
                    } else {
                        EvalOutcome::Pass
                    },
                )
            })
            .collect();
        let run = file_run(&e, &evals, Some(&pytest(ALL_PASS)), Timings::default());
        let bug = run
            .rows()
            .find(|r| r.expr.as_deref() == Some("total == 4"))
            .unwrap();
        assert_eq!(bug.verdict, Verdict::MeasurementBug);
        assert_eq!(bug.verdict.id(), "measurement-bug");
        assert!(run.count(Verdict::MeasurementBug) >= 1);
        assert!(!run.summary.loop_passes);
        assert_eq!(
            run.summary.measurement_bugs,
            run.count(Verdict::MeasurementBug)
        );
        let p = run
            .pytest_rows
            .iter()
            .find(|p| p.name == "test_variable")
            .unwrap();
        assert_eq!(p.measurement_bugs, 1);
    }

    #[test]
    fn a_wrong_solution_is_a_solution_bug_never_a_measurement_bug() {
        let e = extraction(Stage::Full);
        let evals: Vec<Eval> = request(&e, "", None, "")
            .assertions
            .iter()
            .map(|a| eval(a.id, EvalOutcome::Fail))
            .collect();
        let failing: Vec<(&str, &str)> = ALL_PASS.iter().map(|(n, _)| (*n, "failed")).collect();
        let run = file_run(&e, &evals, Some(&pytest(&failing)), Timings::default());
        assert_eq!(run.count(Verdict::MeasurementBug), 0);
        assert_eq!(run.count(Verdict::SolutionBug), e.kept().count());
        assert_eq!(run.summary.solution_bugs, e.kept().count());
        let row = run.rows().find(|r| r.kept).unwrap();
        assert_eq!(row.pytest_crash, "AssertionError");
    }

    #[test]
    fn a_file_pytest_cannot_collect_blames_the_solution_not_the_extractor() {
        let e = extraction(Stage::Full);
        let evals: Vec<Eval> = request(&e, "", None, "")
            .assertions
            .iter()
            .map(|a| Eval {
                phase: Some("solution".into()),
                ..eval(a.id, EvalOutcome::Error)
            })
            .collect();
        let p = Pytest {
            collection_errors: vec![CollectionError {
                nodeid: "test_add.py".into(),
                message: "SyntaxError".into(),
                crash: "SyntaxError: invalid syntax".into(),
            }],
            exit_code: 2,
            ..Pytest::default()
        };
        let run = file_run(&e, &evals, Some(&p), Timings::default());
        assert_eq!(run.count(Verdict::MeasurementBug), 0);
        assert_eq!(run.count(Verdict::SolutionBug), e.kept().count());
        assert_eq!(run.summary.measurement_bugs, 0);
        assert!(!run.summary.pytest_passes);
        assert_eq!(run.collection_errors.len(), 1);
    }

    #[test]
    fn helper_asserts_at_as_written_are_measurement_bugs() {
        let src =
            "def _load():\n    assert 1 == 2\n    return 1\n\ndef test_a():\n    assert 1 == 1\n";
        let e = extract(
            src,
            &Options {
                stage: Stage::AsWritten,
                ..Options::new("test_h.py")
            },
        );
        let evals: Vec<Eval> = request(&e, "", None, "")
            .assertions
            .iter()
            .map(|a| {
                let helper = e.assertions[a.id].test != "test_a";
                eval(
                    a.id,
                    if helper {
                        EvalOutcome::Fail
                    } else {
                        EvalOutcome::Pass
                    },
                )
            })
            .collect();
        let run = file_run(
            &e,
            &evals,
            Some(&pytest(&[("test_a", "passed")])),
            Timings::default(),
        );
        // As written, the helper's assert is taken verbatim beside the test's.
        assert_eq!(e.assertions.len(), 2);
        assert_eq!(
            e.assertions.iter().filter(|a| a.test != "test_a").count(),
            1
        );
        assert_eq!(run.count(Verdict::MeasurementBug), 1);
        let r = run.rows().find(|r| r.test != "test_a").unwrap();
        assert_eq!(r.pytest, PytestOutcome::NotATest);
        assert_eq!(r.pytest.label(), "not a test");
    }

    #[test]
    fn headlines_put_measurement_bugs_first() {
        let e = extraction(Stage::AsWritten);
        let evals: Vec<Eval> = request(&e, "", None, "")
            .assertions
            .iter()
            .map(|a| eval(a.id, EvalOutcome::Error))
            .collect();
        let run = file_run(&e, &evals, Some(&pytest(ALL_PASS)), Timings::default());
        let (tone, text) = headline(&run);
        assert_eq!(tone, Tone::Bad);
        assert!(text.contains("measurement bug"), "{text}");
        let full = extraction(Stage::Full);
        let ok: Vec<Eval> = request(&full, "", None, "")
            .assertions
            .iter()
            .map(|a| eval(a.id, EvalOutcome::Pass))
            .collect();
        let run = file_run(&full, &ok, Some(&pytest(ALL_PASS)), Timings::default());
        assert_eq!(headline(&run).0, Tone::Good);
        let empty = file_run(
            &extract("x = 1\n", &Options::new("test_e.py")),
            &[],
            None,
            Timings::default(),
        );
        assert_eq!(headline(&empty).0, Tone::Neutral);
    }

    #[test]
    fn python_start_up_progress() {
        let s = PyState::default();
        assert_eq!(s.id(), "idle");
        let s = s.after("pyodide", "loading the Python runtime");
        assert_eq!(s.step(), 1);
        let s = s.after("wheels", "pytest-9.0.2-py3-none-any.whl");
        assert_eq!(
            s,
            PyState::Loading {
                step: 2,
                detail: "installing pytest 9.0.2".into()
            }
        );
        let s = s.after("pytest", "").after("ready", "{}");
        assert_eq!((s.id(), s.step()), ("ready", PY_STEPS));
        let s = s.after("restart", "run timed out after 1500 ms");
        assert_eq!(s.id(), "restarting");
        assert_eq!(s.after("unknown", "x"), s);
        assert_eq!(s.after("failed", "no wasm").id(), "failed");
    }

    #[test]
    fn the_bench_plan_runs_pytest_once_per_problem() {
        let plan = bench_plan(2, &Stage::ALL);
        assert_eq!(plan.len(), 8);
        assert_eq!(
            plan[0],
            BenchJob {
                problem: 0,
                stage: Stage::AsWritten
            }
        );
        assert_eq!(
            plan[4],
            BenchJob {
                problem: 1,
                stage: Stage::AsWritten
            }
        );
        assert_eq!(bench_plan(3, &[Stage::Full]).len(), 3);
    }

    #[test]
    fn stage_totals_in_the_write_ups_terms() {
        let e_full = extraction(Stage::Full);
        let e_as = extraction(Stage::AsWritten);
        let truth = Truth::from_pytest(&pytest(ALL_PASS));
        let pass_all = |e: &Extraction| -> Vec<Eval> {
            request(e, "", None, "")
                .assertions
                .iter()
                .map(|a| {
                    let bad = e.assertions[a.id].expr.as_deref() == Some("total == 4");
                    eval(
                        a.id,
                        if bad {
                            EvalOutcome::Error
                        } else {
                            EvalOutcome::Pass
                        },
                    )
                })
                .collect()
        };
        let results = vec![
            JobResult {
                job: BenchJob {
                    problem: 0,
                    stage: Stage::AsWritten,
                },
                slug: "add".into(),
                outcome: job_outcome(&e_as, &pass_all(&e_as), &truth),
                loop_ms: 2.0,
                pytest_ms: Some(100.0),
            },
            JobResult {
                job: BenchJob {
                    problem: 0,
                    stage: Stage::Full,
                },
                slug: "add".into(),
                outcome: job_outcome(&e_full, &pass_all(&e_full), &truth),
                loop_ms: 3.0,
                pytest_ms: None,
            },
            JobResult {
                job: BenchJob {
                    problem: 1,
                    stage: Stage::Full,
                },
                slug: "slow".into(),
                outcome: JobOutcome::TimedOut,
                loop_ms: 0.0,
                pytest_ms: None,
            },
        ];
        let a = stage_totals(Stage::AsWritten, 2, &results);
        assert_eq!((a.done, a.first_try), (1, 0));
        assert!(a.measurement_bugs >= 1);
        let f = stage_totals(Stage::Full, 2, &results);
        assert_eq!(
            (f.done, f.first_try, f.timed_out, f.measurement_bugs),
            (2, 1, 1, 0)
        );
        assert_eq!(f.checked, e_full.kept().count());
        assert_eq!(f.passing, f.checked);
        assert_eq!(f.loop_ms, 3.0);
        let report = StageReport::from(&f);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["stage"], "full");
        assert_eq!(json["firstTry"], 1);
        assert_eq!(json["measurementBugs"], 0);
    }

    #[test]
    fn solution_choices_and_formatting() {
        for c in SolutionChoice::ALL {
            assert_eq!(SolutionChoice::from_id(c.id()), Some(c));
        }
        assert_eq!(SolutionChoice::from_id("other"), None);
        assert_eq!(format_ms(950.0), "950 ms");
        assert_eq!(format_ms(12_345.0), "12.3 s");
        for v in [
            Verdict::Agree,
            Verdict::SolutionBug,
            Verdict::MeasurementBug,
            Verdict::FailsElsewhere,
            Verdict::PhantomPass,
            Verdict::NotMeasured,
        ] {
            assert!(!v.explanation().is_empty());
            // The ids are the library's own serde names.
            assert_eq!(
                serde_json::to_value(v).unwrap(),
                serde_json::Value::String(v.id().to_string())
            );
        }
    }
}

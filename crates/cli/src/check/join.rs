//! Both views of a pair as the CLI reports them: one row per assertion, each with the library's
//! verdict. The reply is read and joined by the library ([`bench_explorer::runner`], the page's
//! reader too), with its rule: when pytest could not collect the file, or the pair never finished
//! (killed at its limit, crashed), an assertion's test counts as a pytest *error*, so a broken
//! solution is a solution bug, never a measurement bug blamed on the extractor.

use std::collections::BTreeMap;

use bench_explorer::model::Status;
use bench_explorer::runner;
use bench_explorer::verdict::{EvalOutcome, PytestOutcome, Verdict};
use bench_explorer::{Extraction, Shape};
use serde::{Deserialize, Serialize};

use super::exec::Answer;
use super::sandbox::Mode;

/// One assertion of one pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub test: String,
    pub line: u32,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub expr: Option<String>,
    pub source: String,
    pub shapes: Vec<Shape>,
    /// The bench loop's outcome (kept assertions of a pair that finished).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub eval: Option<EvalOutcome>,
    /// `Type: message` when the evaluation raised.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<String>,
    pub pytest: PytestOutcome,
    pub verdict: Verdict,
}

/// How a pair's run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunStatus {
    Ok,
    /// Killed at the wall-clock limit.
    Timeout,
    /// Ended without a reply (`os._exit`, a signal, the memory limit).
    Crashed,
}

/// pytest's outcome for one test node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestOutcome {
    pub name: String,
    pub outcome: PytestOutcome,
}

/// One (problem, solution) pair: both views, joined. A line of `--jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairResult {
    pub problem: String,
    pub solution: String,
    pub test_file: String,
    pub stage: String,
    /// How the pair's process was confined: `bwrap`, or `none` with `--no-sandbox` (and in lines
    /// written before the sandbox existed).
    #[serde(default)]
    pub sandbox: Mode,
    pub status: RunStatus,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub detail: Option<String>,
    pub wall_ms: f64,
    pub pytest: Vec<TestOutcome>,
    pub collection_errors: Vec<String>,
    pub rows: Vec<Row>,
    pub verdicts: BTreeMap<Verdict, usize>,
    /// With `--mutants`: each mutant of the solution run both ways (the kill matrix).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mutants: Option<Vec<super::mutants::MutantRun>>,
}

/// The rows of a pair from its answer: pytest's tests, its collection errors, and one row per
/// assertion. A pair that did not finish (timeout, crash) has no reply: no test ran.
pub fn join(extraction: &Extraction, answer: &Answer) -> (Vec<TestOutcome>, Vec<String>, Vec<Row>) {
    let reply = answer.reply.as_ref().filter(|_| answer.status == "ok");
    let pytest = reply.and_then(|r| r.pytest.as_ref());
    let tests: Vec<TestOutcome> = pytest
        .map(|p| {
            p.tests
                .iter()
                .map(|t| TestOutcome {
                    name: t.name.clone(),
                    outcome: t.outcome,
                })
                .collect()
        })
        .unwrap_or_default();
    let collection_errors: Vec<String> = pytest
        .map(|p| {
            p.collection_errors
                .iter()
                .map(|e| e.crash.clone())
                .collect()
        })
        .unwrap_or_default();
    let rows = runner::join(extraction, reply)
        .into_iter()
        .map(|c| {
            let a = c.assertion;
            Row {
                test: a.test.clone(),
                line: a.line,
                status: a.status,
                expr: a.expr.clone(),
                source: a.source.clone(),
                shapes: a.shapes.clone(),
                eval: c.outcome,
                error: c.error().map(str::to_string),
                pytest: c.pytest,
                verdict: c.verdict,
            }
        })
        .collect();
    (tests, collection_errors, rows)
}

/// Verdict counts of some rows.
pub fn count(rows: &[Row]) -> BTreeMap<Verdict, usize> {
    runner::count(rows.iter().map(|r| r.verdict))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::{extract, Options};

    const FILE: &str = "from solution import f\n\ndef test_a():\n    assert f(1) == 2\n\ndef test_b():\n    x = f(2)\n    assert x == 4\n";

    fn extraction() -> Extraction {
        extract(FILE, &Options::default())
    }

    #[test]
    fn a_crashed_pair_blames_the_solution_not_the_extractor() {
        let answer = Answer {
            status: "crashed".into(),
            detail: Some("exited with status 3".into()),
            reply: None,
            wall_ms: 1.0,
        };
        let (_, _, rows) = join(&extraction(), &answer);
        assert_eq!(rows.len(), 2);
        assert!(
            rows.iter().all(|r| r.verdict == Verdict::SolutionBug),
            "{rows:?}"
        );
    }

    #[test]
    fn a_failing_loop_where_pytest_passes_is_a_measurement_bug() {
        let reply = serde_json::json!({
            "evals": [{"id": 0, "outcome": "pass"}, {"id": 1, "outcome": "error", "error": "NameError: x"}],
            "pytest": {"tests": [{"name": "test_a", "outcome": "passed"}, {"name": "test_b", "outcome": "passed"}],
                       "collection_errors": []},
        });
        let answer = Answer {
            status: "ok".into(),
            detail: None,
            reply: Some(serde_json::from_value(reply).unwrap()),
            wall_ms: 1.0,
        };
        let (tests, _, rows) = join(&extraction(), &answer);
        assert_eq!(tests.len(), 2);
        let verdicts: Vec<Verdict> = rows.iter().map(|r| r.verdict).collect();
        assert_eq!(verdicts, [Verdict::Agree, Verdict::MeasurementBug]);
        assert_eq!(rows[1].error.as_deref(), Some("NameError: x"));
        assert_eq!(count(&rows)[&Verdict::Agree], 1);
    }

    #[test]
    fn collection_errors_are_reported_and_their_tests_count_as_errors() {
        let reply = serde_json::json!({
            "evals": [{"id": 0, "outcome": "error", "error": "ImportError: f"},
                      {"id": 1, "outcome": "error", "error": "ImportError: f"}],
            "pytest": {"tests": [], "collection_errors": [{"nodeid": "test_x.py", "message": "…", "crash": "ImportError: f"}]},
        });
        let answer = Answer {
            status: "ok".into(),
            detail: None,
            reply: Some(serde_json::from_value(reply).unwrap()),
            wall_ms: 1.0,
        };
        let (tests, errors, rows) = join(&extraction(), &answer);
        assert!(tests.is_empty());
        assert_eq!(errors, ["ImportError: f"]);
        assert!(rows
            .iter()
            .all(|r| r.pytest == PytestOutcome::Error && r.verdict == Verdict::SolutionBug));
        // A reply that came with another status is not read: the pair never finished.
        let late = Answer {
            status: "timeout".into(),
            ..answer
        };
        let (tests, errors, rows) = join(&extraction(), &late);
        assert!(tests.is_empty() && errors.is_empty());
        assert!(rows
            .iter()
            .all(|r| r.eval == Some(EvalOutcome::Error) && r.error.is_none()));
    }
}

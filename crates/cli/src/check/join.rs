//! Joining both views into one row per assertion, each with the library's verdict
//! ([`bench_explorer::verdict`]). The only rule added here is the page's (crates/web's
//! `run_results::Truth`): when pytest could not collect the file, or the pair never finished (killed
//! at its limit, crashed), an assertion's test counts as a pytest *error*, so a broken solution is a
//! solution bug, never a measurement bug blamed on the extractor.

use std::collections::BTreeMap;

use bench_explorer::model::Status;
use bench_explorer::verdict::{pytest_outcome_for, verdict, EvalOutcome, PytestOutcome, Verdict};
use bench_explorer::{Extraction, Shape};
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

fn eval_outcome(word: Option<&str>) -> EvalOutcome {
    match word {
        Some("pass") => EvalOutcome::Pass,
        Some("fail") => EvalOutcome::Fail,
        _ => EvalOutcome::Error,
    }
}

/// The rows of a pair from its answer. `answer` is `None`-like (timeout, crash) when no reply came.
pub fn join(extraction: &Extraction, answer: &Answer) -> (Vec<TestOutcome>, Vec<String>, Vec<Row>) {
    let reply = answer.reply.as_ref().filter(|_| answer.status == "ok");
    let pytest = reply.and_then(|r| r.get("pytest")).filter(|p| !p.is_null());
    let tests: Vec<TestOutcome> = pytest
        .and_then(|p| p.get("tests"))
        .and_then(Value::as_array)
        .map(|tests| {
            tests
                .iter()
                .map(|t| TestOutcome {
                    name: t["name"].as_str().unwrap_or("").to_string(),
                    outcome: t["outcome"]
                        .as_str()
                        .and_then(PytestOutcome::parse)
                        .unwrap_or(PytestOutcome::Error),
                })
                .collect()
        })
        .unwrap_or_default();
    let collection_errors: Vec<String> = pytest
        .and_then(|p| p.get("collection_errors"))
        .and_then(Value::as_array)
        .map(|errs| {
            errs.iter()
                .map(|e| e["crash"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    // No test ran at all: the file was not collected, or the pair never finished.
    let nothing_ran = reply.is_none() || !collection_errors.is_empty();
    let outcomes: Vec<(String, PytestOutcome)> =
        tests.iter().map(|t| (t.name.clone(), t.outcome)).collect();
    let evals: BTreeMap<u64, &Value> = reply
        .and_then(|r| r.get("evals"))
        .and_then(Value::as_array)
        .map(|evals| {
            evals
                .iter()
                .filter_map(|e| Some((e["id"].as_u64()?, e)))
                .collect()
        })
        .unwrap_or_default();
    let rows = extraction
        .assertions
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let pytest = match pytest_outcome_for(&a.test, &outcomes) {
                PytestOutcome::NotATest if nothing_ran => PytestOutcome::Error,
                o => o,
            };
            let ev = evals.get(&(i as u64));
            let eval = match a.status {
                Status::Dropped => None,
                Status::Kept => Some(eval_outcome(ev.and_then(|e| e["outcome"].as_str()))),
            };
            let error = ev.and_then(|e| e["error"].as_str()).map(str::to_string);
            Row {
                test: a.test.clone(),
                line: a.line,
                status: a.status,
                expr: a.expr.clone(),
                source: a.source.clone(),
                shapes: a.shapes.clone(),
                eval,
                error,
                pytest,
                verdict: verdict(a.status, eval, pytest),
            }
        })
        .collect();
    (tests, collection_errors, rows)
}

/// Verdict counts of some rows.
pub fn count(rows: &[Row]) -> BTreeMap<Verdict, usize> {
    let mut counts = BTreeMap::new();
    for r in rows {
        *counts.entry(r.verdict).or_insert(0) += 1;
    }
    counts
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
            reply: Some(reply),
            wall_ms: 1.0,
        };
        let (tests, _, rows) = join(&extraction(), &answer);
        assert_eq!(tests.len(), 2);
        let verdicts: Vec<Verdict> = rows.iter().map(|r| r.verdict).collect();
        assert_eq!(verdicts, [Verdict::Agree, Verdict::MeasurementBug]);
        assert_eq!(rows[1].error.as_deref(), Some("NameError: x"));
        assert_eq!(count(&rows)[&Verdict::Agree], 1);
    }
}

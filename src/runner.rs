//! What a runner answers for one (test file, solution) pair, and how it becomes pytest's truth and
//! each kept check's outcome. The runner is `www/py/runner.py`'s `run_request`, run by the page's
//! Pyodide worker (`www/py/engine.mjs` wraps it as `{type: "result", …}`) and by the CLI's fork
//! server (`crates/cli/src/check/zygote.py` wraps it as `{status: "ok", reply: …}`): both read
//! the reply through these types, and join it with the extraction through [`join`] / [`checks`].
//!
//! The one rule added to [`verdict`]'s: when no test ran — pytest could not collect the file (the
//! solution or the file does not import), or the pair never finished (killed at its limit,
//! crashed) — an assertion's test counts as a pytest *error*, never as "not a test", which would
//! blame the extractor for a broken solution.
//!
//! Pure serde types: no I/O. Fields one producer fills and the other does not default.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};

use crate::model::{Assertion, Extraction, Status};
use crate::verdict::{
    pytest_outcome_for, summarise, verdict, EvalOutcome, PytestOutcome, RunSummary, Verdict,
};

// ------------------------------------------------------------------------------ the reply

/// `run_request`'s reply: the bench loop's result for each kept assertion sent, and pytest's run
/// of the test file (`None` when the request had no test source).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Reply {
    #[serde(default)]
    pub evals: Vec<Eval>,
    #[serde(default)]
    pub pytest: Option<Pytest>,
    #[serde(default)]
    pub timings: Timings,
}

/// The bench loop's result for one kept assertion.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Eval {
    /// The assertion's index in the extraction (the request's `id`).
    pub id: usize,
    pub outcome: EvalOutcome,
    /// `Type: message` when the evaluation raised.
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub traceback: Option<String>,
    /// `solution` (executing the solution failed) or `assertion`.
    #[serde(default)]
    pub phase: Option<String>,
    /// A short repr of the expression's value.
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub output: String,
    #[serde(default)]
    pub duration_ms: f64,
}

/// pytest's run of the test file.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Pytest {
    #[serde(default)]
    pub tests: Vec<PytestTest>,
    #[serde(default)]
    pub collection_errors: Vec<CollectionError>,
    #[serde(default)]
    pub exit_code: i64,
    #[serde(default)]
    pub output: String,
}

/// One test node as pytest reported it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct PytestTest {
    #[serde(default)]
    pub nodeid: String,
    /// The node id without its file part: the extractor's `test`.
    pub name: String,
    /// pytest's word; a word it does not have (or none) reads as an error.
    #[serde(deserialize_with = "pytest_word")]
    pub outcome: PytestOutcome,
    #[serde(default)]
    pub message: String,
    /// pytest's one-line reason when the test did not pass.
    #[serde(default)]
    pub crash: String,
    #[serde(default)]
    pub line: Option<u32>,
    /// Seconds.
    #[serde(default)]
    pub duration: f64,
}

/// A collector pytest could not collect (the file does not import, a syntax error).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct CollectionError {
    #[serde(default)]
    pub nodeid: String,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub crash: String,
}

/// Milliseconds. `total_ms` is the page's worker's (the whole run, round trip included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
pub struct Timings {
    #[serde(default)]
    pub eval_ms: f64,
    #[serde(default)]
    pub pytest_ms: f64,
    #[serde(default)]
    pub total_ms: f64,
}

fn pytest_word<'de, D: Deserializer<'de>>(d: D) -> Result<PytestOutcome, D::Error> {
    let word = Option::<String>::deserialize(d)?;
    Ok(word
        .as_deref()
        .and_then(PytestOutcome::parse)
        .unwrap_or(PytestOutcome::Error))
}

// ------------------------------------------------------------------------------ ground truth

/// pytest's outcomes for one run, as the verdict needs them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Truth {
    /// `(name, outcome)` per test node, names as the extraction contract writes them.
    pub outcomes: Vec<(String, PytestOutcome)>,
    /// No test ran: pytest could not collect the file (an import error, a syntax error), or the
    /// run never finished ([`Truth::never_ran`]).
    pub collection_failed: bool,
}

impl Truth {
    pub fn from_pytest(p: &Pytest) -> Truth {
        Truth {
            outcomes: p
                .tests
                .iter()
                .map(|t| (t.name.clone(), t.outcome))
                .collect(),
            collection_failed: !p.collection_errors.is_empty(),
        }
    }

    /// The pair never finished (killed at its limit, crashed): no test ran.
    pub fn never_ran() -> Truth {
        Truth {
            outcomes: Vec::new(),
            collection_failed: true,
        }
    }

    /// The truth of a reply; `None` when the pair never finished. A reply without a pytest run
    /// knows no test: every assertion's is "not a test".
    pub fn of(reply: Option<&Reply>) -> Truth {
        match reply {
            None => Truth::never_ran(),
            Some(r) => r
                .pytest
                .as_ref()
                .map(Truth::from_pytest)
                .unwrap_or_default(),
        }
    }

    /// pytest's outcome for an assertion's `test` (see the module's note on runs where no test
    /// ran).
    pub fn outcome_for(&self, test: &str) -> PytestOutcome {
        match pytest_outcome_for(test, &self.outcomes) {
            PytestOutcome::NotATest if self.collection_failed => PytestOutcome::Error,
            o => o,
        }
    }

    /// The outcomes with an `error` entry for each test of `extraction` that never ran because
    /// no test ran: what [`summarise`] is given.
    pub fn effective_outcomes(&self, extraction: &Extraction) -> Vec<(String, PytestOutcome)> {
        let mut out = self.outcomes.clone();
        if self.collection_failed {
            for a in &extraction.assertions {
                if pytest_outcome_for(&a.test, &out) == PytestOutcome::NotATest {
                    out.push((a.test.clone(), PytestOutcome::Error));
                }
            }
        }
        out
    }
}

// ------------------------------------------------------------------------------ the join

/// One assertion of the extraction with both views and the verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Check<'a> {
    /// Index into the extraction's assertions (the request's `id`).
    pub index: usize,
    pub assertion: &'a Assertion,
    /// The loop's result for it, when the runner sent one.
    pub eval: Option<&'a Eval>,
    /// The loop's outcome as the verdict takes it: `None` for a dropped assertion, or a kept one
    /// the runner answered without a result for (not measured); `error` for every kept one of a
    /// pair that never finished.
    pub outcome: Option<EvalOutcome>,
    pub pytest: PytestOutcome,
    pub verdict: Verdict,
}

impl<'a> Check<'a> {
    /// `Type: message` when the evaluation raised.
    pub fn error(&self) -> Option<&'a str> {
        self.eval.and_then(|e| e.error.as_deref())
    }
}

/// Each assertion of `extraction` with the runner's result for it (`evals` by id; `None` when the
/// pair never finished) and its test's outcome in `truth`. The whole-bench run on the page takes
/// `truth` from another reply (one pytest run per problem); otherwise see [`join`].
pub fn checks<'a>(
    extraction: &'a Extraction,
    evals: Option<&'a [Eval]>,
    truth: &Truth,
) -> Vec<Check<'a>> {
    let mut by_index: Vec<Option<&Eval>> = vec![None; extraction.assertions.len()];
    for e in evals.unwrap_or_default() {
        if let Some(slot) = by_index.get_mut(e.id) {
            *slot = Some(e);
        }
    }
    extraction
        .assertions
        .iter()
        .zip(by_index)
        .enumerate()
        .map(|(index, (assertion, eval))| {
            let outcome = match (assertion.status, eval) {
                (Status::Dropped, _) => None,
                (Status::Kept, Some(e)) => Some(e.outcome),
                // The pair crashed or timed out: the bench loop counts that as an error.
                (Status::Kept, None) if evals.is_none() => Some(EvalOutcome::Error),
                (Status::Kept, None) => None,
            };
            let pytest = truth.outcome_for(&assertion.test);
            Check {
                index,
                assertion,
                eval,
                outcome,
                pytest,
                verdict: verdict(assertion.status, outcome, pytest),
            }
        })
        .collect()
}

/// Both views of one pair: `reply` is `None` when the pair never finished.
pub fn join<'a>(extraction: &'a Extraction, reply: Option<&'a Reply>) -> Vec<Check<'a>> {
    checks(
        extraction,
        reply.map(|r| r.evals.as_slice()),
        &Truth::of(reply),
    )
}

/// The run's totals in the write-up's terms ([`summarise`], with `truth`'s rule for runs where no
/// test ran).
pub fn summary(extraction: &Extraction, checks: &[Check], truth: &Truth) -> RunSummary {
    let pairs: Vec<(&Assertion, Option<EvalOutcome>)> =
        checks.iter().map(|c| (c.assertion, c.outcome)).collect();
    summarise(&pairs, &truth.effective_outcomes(extraction))
}

/// How many of each verdict.
pub fn count(verdicts: impl IntoIterator<Item = Verdict>) -> BTreeMap<Verdict, usize> {
    let mut counts = BTreeMap::new();
    for v in verdicts {
        *counts.entry(v).or_insert(0) += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{extract, Options};

    const FILE: &str = "from solution import f\n\ndef test_a():\n    assert f(1) == 2\n\ndef test_b():\n    x = f(2)\n    assert x == 4\n\ndef test_c():\n    for i in range(f(1)):\n        assert f(i) > 0\n";

    fn extraction() -> Extraction {
        extract(FILE, &Options::default())
    }

    fn reply(json: serde_json::Value) -> Reply {
        serde_json::from_value(json).unwrap()
    }

    fn verdicts(checks: &[Check]) -> Vec<Verdict> {
        checks.iter().map(|c| c.verdict).collect()
    }

    #[test]
    fn the_fixture_keeps_two_and_drops_the_loop() {
        let e = extraction();
        let statuses: Vec<Status> = e.assertions.iter().map(|a| a.status).collect();
        assert_eq!(statuses, [Status::Kept, Status::Kept, Status::Dropped]);
    }

    /// Both producers' shapes read: the page's full one (the worker's envelope fields ignored)
    /// and the CLI's tests' minimal one.
    #[test]
    fn both_producers_replies_parse() {
        let page = reply(serde_json::json!({
            "type": "result", "id": 1, "memory_bytes": 123,
            "evals": [{"id": 0, "outcome": "pass", "error": null, "traceback": null, "phase": null,
                       "value": "True", "output": "", "duration_ms": 0.2}],
            "pytest": {"tests": [{"nodeid": "t.py::test_a", "name": "test_a", "outcome": "passed",
                                  "message": "", "crash": "", "line": 3, "duration": 0.01}],
                       "collection_errors": [], "exit_code": 0, "output": ""},
            "timings": {"eval_ms": 1, "pytest_ms": 2, "total_ms": 3.5},
        }));
        assert_eq!(page.evals[0].outcome, EvalOutcome::Pass);
        assert_eq!(page.evals[0].value.as_deref(), Some("True"));
        let p = page.pytest.as_ref().unwrap();
        assert_eq!(p.tests[0].line, Some(3));
        assert_eq!(p.tests[0].outcome, PytestOutcome::Passed);
        assert_eq!(page.timings.total_ms, 3.5);

        let cli = reply(serde_json::json!({
            "evals": [{"id": 1, "outcome": "error", "error": "NameError: x"}],
            "pytest": {"tests": [{"name": "test_a", "outcome": "xfailed"},
                                 {"name": "test_b", "outcome": "weird"},
                                 {"name": "test_c", "outcome": null}],
                       "collection_errors": [{"crash": "ImportError: no f"}]},
        }));
        assert_eq!(cli.evals[0].error.as_deref(), Some("NameError: x"));
        assert_eq!(cli.timings, Timings::default());
        let outcomes: Vec<PytestOutcome> = cli
            .pytest
            .as_ref()
            .unwrap()
            .tests
            .iter()
            .map(|t| t.outcome)
            .collect();
        assert_eq!(
            outcomes,
            [
                PytestOutcome::Xfailed,
                PytestOutcome::Error,
                PytestOutcome::Error
            ]
        );
        assert_eq!(
            cli.pytest.unwrap().collection_errors[0].crash,
            "ImportError: no f"
        );
        // No pytest run (`"pytest": null`), no timings.
        let bare = reply(serde_json::json!({"evals": [], "pytest": null}));
        assert_eq!(bare, Reply::default());
    }

    #[test]
    fn a_failing_loop_where_pytest_passes_is_a_measurement_bug() {
        let e = extraction();
        let r = reply(serde_json::json!({
            "evals": [{"id": 0, "outcome": "pass"}, {"id": 1, "outcome": "error", "error": "NameError: x"}],
            "pytest": {"tests": [{"name": "test_a", "outcome": "passed"}, {"name": "test_b", "outcome": "passed"},
                                 {"name": "test_c", "outcome": "failed"}],
                       "collection_errors": []},
        }));
        let rows = join(&e, Some(&r));
        assert_eq!(
            verdicts(&rows),
            [
                Verdict::Agree,
                Verdict::MeasurementBug,
                Verdict::NotMeasured
            ]
        );
        assert_eq!(rows[1].error(), Some("NameError: x"));
        assert_eq!(rows[0].error(), None);
        assert_eq!(rows[2].outcome, None);
        assert_eq!(rows[2].pytest, PytestOutcome::Failed);
        let counts = count(rows.iter().map(|c| c.verdict));
        assert_eq!(counts[&Verdict::Agree], 1);
        assert_eq!(counts[&Verdict::MeasurementBug], 1);
        let s = summary(&e, &rows, &Truth::of(Some(&r)));
        assert_eq!((s.checked, s.passing, s.measurement_bugs), (2, 1, 1));
        assert!(!s.pytest_passes);
    }

    #[test]
    fn a_crashed_pair_blames_the_solution_not_the_extractor() {
        let e = extraction();
        let rows = join(&e, None);
        assert_eq!(
            verdicts(&rows),
            [
                Verdict::SolutionBug,
                Verdict::SolutionBug,
                Verdict::NotMeasured
            ]
        );
        assert!(rows.iter().all(|c| c.pytest == PytestOutcome::Error));
        assert_eq!(rows[0].outcome, Some(EvalOutcome::Error));
        assert_eq!(rows[0].error(), None);
        let s = summary(&e, &rows, &Truth::never_ran());
        assert_eq!((s.checked, s.measurement_bugs, s.solution_bugs), (2, 0, 2));
        assert!(!s.pytest_passes);
    }

    #[test]
    fn a_file_pytest_cannot_collect_blames_the_solution_not_the_extractor() {
        let e = extraction();
        let r = reply(serde_json::json!({
            "evals": [{"id": 0, "outcome": "error", "phase": "solution"},
                      {"id": 1, "outcome": "error", "phase": "solution"}],
            "pytest": {"tests": [], "collection_errors": [{"nodeid": "test_f.py", "crash": "SyntaxError"}],
                       "exit_code": 2},
        }));
        let truth = Truth::of(Some(&r));
        assert!(truth.collection_failed);
        assert_eq!(truth.outcome_for("test_a"), PytestOutcome::Error);
        let rows = join(&e, Some(&r));
        assert_eq!(
            verdicts(&rows),
            [
                Verdict::SolutionBug,
                Verdict::SolutionBug,
                Verdict::NotMeasured
            ]
        );
        let effective = truth.effective_outcomes(&e);
        assert_eq!(effective.len(), 3);
        assert!(effective.iter().all(|(_, o)| *o == PytestOutcome::Error));
        let s = summary(&e, &rows, &truth);
        assert_eq!((s.measurement_bugs, s.solution_bugs), (0, 2));
        assert!(!s.pytest_passes);
    }

    /// Where the file was collected, a name no test has is a helper's: "not a test", not an error.
    #[test]
    fn without_a_collection_error_an_unknown_test_is_not_a_test() {
        let truth = Truth::from_pytest(&Pytest {
            tests: vec![PytestTest {
                nodeid: "t.py::test_a[1]".into(),
                name: "test_a[1]".into(),
                outcome: PytestOutcome::Failed,
                message: String::new(),
                crash: "AssertionError".into(),
                line: Some(2),
                duration: 0.0,
            }],
            ..Pytest::default()
        });
        assert_eq!(truth.outcome_for("_helper"), PytestOutcome::NotATest);
        assert_eq!(truth.outcome_for("test_a"), PytestOutcome::Failed);
        assert_eq!(truth.effective_outcomes(&extraction()), truth.outcomes);
        // A reply without a pytest run knows no test either.
        let r = Reply::default();
        assert_eq!(Truth::of(Some(&r)), Truth::default());
        assert_eq!(
            Truth::default().outcome_for("test_a"),
            PytestOutcome::NotATest
        );
    }

    /// A kept check the runner answered without a result for is not measured (not an error: the
    /// pair finished); an id beyond the extraction is ignored, the last of repeated ids counts.
    #[test]
    fn evals_are_matched_by_id() {
        let e = extraction();
        let r = reply(serde_json::json!({
            "evals": [{"id": 1, "outcome": "fail"}, {"id": 1, "outcome": "pass"}, {"id": 9, "outcome": "fail"}],
            "pytest": {"tests": [{"name": "test_a", "outcome": "passed"}, {"name": "test_b", "outcome": "passed"}]},
        }));
        let rows = join(&e, Some(&r));
        assert_eq!(rows[0].eval, None);
        assert_eq!(rows[0].outcome, None);
        assert_eq!(rows[0].verdict, Verdict::NotMeasured);
        assert_eq!(rows[1].outcome, Some(EvalOutcome::Pass));
        assert_eq!(rows[1].verdict, Verdict::Agree);
        assert_eq!(rows.iter().map(|c| c.index).collect::<Vec<_>>(), [0, 1, 2]);
    }

    /// The page's whole-bench run reuses one pytest run's truth for every stage's evals.
    #[test]
    fn checks_take_the_truth_apart_from_the_evals() {
        let e = extraction();
        let truth = Truth {
            outcomes: vec![
                ("test_a".into(), PytestOutcome::Skipped),
                ("test_b".into(), PytestOutcome::Failed),
            ],
            collection_failed: false,
        };
        let evals = [
            reply(serde_json::json!({"evals": [{"id": 0, "outcome": "pass"}, {"id": 1, "outcome": "pass"}]}))
                .evals,
        ]
        .concat();
        let rows = checks(&e, Some(&evals), &truth);
        assert_eq!(
            verdicts(&rows),
            [
                Verdict::PhantomPass,
                Verdict::FailsElsewhere,
                Verdict::NotMeasured
            ]
        );
    }
}

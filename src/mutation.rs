//! A mutant's run judged (issue 27): what [`crate::mutants`] generated, run both ways like any
//! solution, read as *killed*, *survived* or a *difference* between the two views. The CLI's
//! `check --mutants` and the page's Mutants view both judge through here.
//!
//! A mutant is *killed* when pytest fails (or errors on) some test, or cannot collect the file;
//! it *survives* when pytest passes every test: a survivor is what the test file does not check,
//! or a mutant that behaves exactly like the original (equivalent), which no run can tell apart.
//! One stopped at the time limit or that crashed counts as killed, named so. A *difference* is a
//! mutant pytest kills and no kept check fails on (a bench loop would accept that wrong solution),
//! or the reverse; a run that never finished has none (neither view answered).
//!
//! Pure: the extraction and the runner's reply in ([`crate::runner`]), the judgement out.

use serde::{Deserialize, Serialize};

use crate::model::{Extraction, Status};
use crate::runner::{self, Reply};
use crate::verdict::{EvalOutcome, PytestOutcome};

/// How a mutant fared under pytest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Some test failed or errored (or the file could not be collected).
    Killed,
    /// Stopped at the wall-clock limit.
    Timeout,
    /// Ended without a reply (`os._exit`, a signal, the memory limit, a worker that died).
    Crashed,
    /// Every test passed: what the tests do not check, or an equivalent mutant.
    Survived,
}

impl Outcome {
    pub fn killed(self) -> bool {
        self != Outcome::Survived
    }

    /// The kebab-case id (as serialised).
    pub fn id(self) -> &'static str {
        match self {
            Outcome::Killed => "killed",
            Outcome::Timeout => "timeout",
            Outcome::Crashed => "crashed",
            Outcome::Survived => "survived",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Outcome::Killed => "killed",
            Outcome::Timeout => "killed by the time limit",
            Outcome::Crashed => "killed (crashed)",
            Outcome::Survived => "survived (may be equivalent)",
        }
    }
}

/// A mutant the two views judge differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Difference {
    /// pytest kills it, no kept check fails: a bench loop would accept it.
    ChecksMiss,
    /// A kept check fails while pytest passes every test.
    ChecksOnly,
}

impl Difference {
    /// The kebab-case id (as serialised).
    pub fn id(self) -> &'static str {
        match self {
            Difference::ChecksMiss => "checks-miss",
            Difference::ChecksOnly => "checks-only",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Difference::ChecksMiss => "pytest kills it, the checks do not",
            Difference::ChecksOnly => "the checks kill it, pytest does not",
        }
    }
}

/// How a mutant's run ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum End<'a> {
    /// The runner answered.
    Finished(&'a Reply),
    /// Stopped at the time limit.
    Timeout,
    /// No reply: the process (or the page's worker) died.
    Crashed,
}

/// One mutant's run judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub outcome: Outcome,
    /// The tests pytest failed or errored on (names as the extraction writes them), in pytest's order.
    pub killed_by_tests: Vec<String>,
    /// The kept checks that failed or raised, as indices into the extraction's assertions (a run
    /// that never finished fails every kept check, as the bench loop counts it).
    pub killed_by_checks: Vec<usize>,
    pub difference: Option<Difference>,
}

/// Judge one mutant's run of `extraction`'s test file (the same join as any pair's,
/// [`runner::join`]).
pub fn judge(extraction: &Extraction, end: End) -> Judgement {
    let reply = match end {
        End::Finished(r) => Some(r),
        End::Timeout | End::Crashed => None,
    };
    let pytest = reply.and_then(|r| r.pytest.as_ref());
    let killed_by_tests: Vec<String> = pytest
        .map(|p| {
            p.tests
                .iter()
                .filter(|t| matches!(t.outcome, PytestOutcome::Failed | PytestOutcome::Error))
                .map(|t| t.name.clone())
                .collect()
        })
        .unwrap_or_default();
    let collection_failed = pytest.is_some_and(|p| !p.collection_errors.is_empty());
    let killed_by_checks: Vec<usize> = runner::join(extraction, reply)
        .iter()
        .filter(|c| c.assertion.status == Status::Kept)
        .filter(|c| matches!(c.outcome, Some(EvalOutcome::Fail | EvalOutcome::Error)))
        .map(|c| c.index)
        .collect();
    let outcome = match end {
        End::Timeout => Outcome::Timeout,
        End::Crashed => Outcome::Crashed,
        End::Finished(_) if killed_by_tests.is_empty() && !collection_failed => Outcome::Survived,
        End::Finished(_) => Outcome::Killed,
    };
    let difference = match (end, outcome.killed()) {
        (End::Finished(_), true) if killed_by_checks.is_empty() => Some(Difference::ChecksMiss),
        (End::Finished(_), false) if !killed_by_checks.is_empty() => Some(Difference::ChecksOnly),
        _ => None,
    };
    Judgement {
        outcome,
        killed_by_tests,
        killed_by_checks,
        difference,
    }
}

/// The mutation score of some judged mutants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub generated: usize,
    /// Killed by a failing test, the time limit or a crash.
    pub killed: usize,
    pub survived: usize,
    pub timeouts: usize,
    pub crashes: usize,
    /// Mutants the two views judge differently.
    pub differences: usize,
}

impl Tally {
    /// The tally of mutants judged `(outcome, difference)`.
    pub fn of(runs: impl IntoIterator<Item = (Outcome, Option<Difference>)>) -> Tally {
        let mut t = Tally::default();
        for (outcome, difference) in runs {
            t.generated += 1;
            if outcome.killed() {
                t.killed += 1;
            } else {
                t.survived += 1;
            }
            match outcome {
                Outcome::Timeout => t.timeouts += 1,
                Outcome::Crashed => t.crashes += 1,
                _ => {}
            }
            if difference.is_some() {
                t.differences += 1;
            }
        }
        t
    }

    /// killed / generated (1 when nothing was generated).
    pub fn score(&self) -> f64 {
        if self.generated == 0 {
            1.0
        } else {
            self.killed as f64 / self.generated as f64
        }
    }

    /// `12/13`, a table's cell.
    pub fn cell(&self) -> String {
        format!("{}/{}", self.killed, self.generated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{extract, Options};

    const FILE: &str = "from solution import f\n\ndef test_a():\n    assert f(1) == 2\n\ndef test_b():\n    assert f(2) == 3\n";

    fn reply(json: serde_json::Value) -> Reply {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn killed_survived_differences_and_runs_that_never_finished() {
        let e = extract(FILE, &Options::default());
        let killed = judge(
            &e,
            End::Finished(&reply(serde_json::json!({
                "evals": [{"id": 0, "outcome": "fail"}, {"id": 1, "outcome": "pass"}],
                "pytest": {"tests": [{"name": "test_a", "outcome": "failed"}, {"name": "test_b", "outcome": "passed"}]},
            }))),
        );
        assert_eq!(killed.outcome, Outcome::Killed);
        assert_eq!(killed.killed_by_tests, ["test_a"]);
        assert_eq!(killed.killed_by_checks, [0]);
        assert_eq!(killed.difference, None);

        let missed = judge(
            &e,
            End::Finished(&reply(serde_json::json!({
                "evals": [{"id": 0, "outcome": "pass"}, {"id": 1, "outcome": "pass"}],
                "pytest": {"tests": [{"name": "test_a", "outcome": "passed"}, {"name": "test_b", "outcome": "error"}]},
            }))),
        );
        assert_eq!(missed.outcome, Outcome::Killed);
        assert_eq!(missed.difference, Some(Difference::ChecksMiss));

        let only = judge(
            &e,
            End::Finished(&reply(serde_json::json!({
                "evals": [{"id": 0, "outcome": "pass"}, {"id": 1, "outcome": "error", "error": "E"}],
                "pytest": {"tests": [{"name": "test_a", "outcome": "passed"}, {"name": "test_b", "outcome": "passed"}]},
            }))),
        );
        assert_eq!(only.outcome, Outcome::Survived);
        assert_eq!(only.killed_by_checks, [1]);
        assert_eq!(only.difference, Some(Difference::ChecksOnly));

        // A file pytest cannot collect kills the mutant, though no test ran.
        let uncollected = judge(
            &e,
            End::Finished(&reply(serde_json::json!({
                "evals": [{"id": 0, "outcome": "error"}, {"id": 1, "outcome": "error"}],
                "pytest": {"tests": [], "collection_errors": [{"crash": "SyntaxError"}]},
            }))),
        );
        assert_eq!(uncollected.outcome, Outcome::Killed);
        assert!(uncollected.killed_by_tests.is_empty());
        assert_eq!(uncollected.difference, None);

        for (end, outcome) in [
            (End::Timeout, Outcome::Timeout),
            (End::Crashed, Outcome::Crashed),
        ] {
            let j = judge(&e, end);
            assert_eq!(j.outcome, outcome);
            assert!(j.outcome.killed());
            assert_eq!(j.killed_by_checks, [0, 1]);
            assert_eq!(j.difference, None);
        }
    }

    #[test]
    fn the_tally_counts_each_kind_and_scores_killed_over_generated() {
        assert_eq!(Tally::of([]).score(), 1.0);
        let t = Tally::of([
            (Outcome::Killed, None),
            (Outcome::Timeout, None),
            (Outcome::Crashed, None),
            (Outcome::Survived, Some(Difference::ChecksOnly)),
            (Outcome::Killed, Some(Difference::ChecksMiss)),
        ]);
        assert_eq!(
            t,
            Tally {
                generated: 5,
                killed: 4,
                survived: 1,
                timeouts: 1,
                crashes: 1,
                differences: 2,
            }
        );
        assert_eq!(t.score(), 0.8);
        assert_eq!(t.cell(), "4/5");
        assert_eq!(Outcome::Timeout.id(), "timeout");
        assert_eq!(
            serde_json::to_value(Difference::ChecksMiss).unwrap(),
            "checks-miss"
        );
    }
}

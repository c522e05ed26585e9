//! `check --mutants[=N]`: mutants of each solution (the library's [`bench_explorer::mutants`]),
//! each run both ways like any solution, and which tests and which checks kill it.
//!
//! A mutant is *killed* when pytest fails (or errors on) some test, *survives* when pytest passes
//! every test: a survivor is what the test file does not check, or a mutant that behaves exactly
//! like the original (equivalent), which no run can tell apart. One killed at the time limit or that
//! crashed counts as killed, named so. A *difference* is a mutant pytest kills and the extracted
//! checks do not (a bench loop would accept that wrong solution), or the reverse.

use std::collections::BTreeMap;

use bench_explorer::model::Status;
use bench_explorer::mutants::Mutant;
use bench_explorer::verdict::{EvalOutcome, PytestOutcome};
use bench_explorer::Extraction;
use serde::{Deserialize, Serialize};

use super::exec::Answer;
use super::join::{self, PairResult};

/// How a mutant fared under pytest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Some test failed or errored.
    Killed,
    /// Killed at the wall-clock limit (`--mutant-timeout`).
    Timeout,
    /// Ended without a reply (`os._exit`, a signal, the memory limit).
    Crashed,
    /// Every test passed: what the tests do not check, or an equivalent mutant.
    Survived,
}

impl Outcome {
    pub fn killed(self) -> bool {
        self != Outcome::Survived
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Difference {
    /// pytest kills it, no kept check fails: a bench loop would accept it.
    ChecksMiss,
    /// A kept check fails while pytest passes every test.
    ChecksOnly,
}

impl Difference {
    pub fn label(self) -> &'static str {
        match self {
            Difference::ChecksMiss => "pytest kills it, the checks do not",
            Difference::ChecksOnly => "the checks kill it, pytest does not",
        }
    }
}

/// One mutant run both ways: a row of the kill matrix.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MutantRun {
    pub id: String,
    pub operator: String,
    pub line: u32,
    pub description: String,
    pub diff: String,
    pub outcome: Outcome,
    /// The tests pytest failed or errored on (node ids).
    pub killed_by_tests: Vec<String>,
    /// The kept checks that failed or raised, as `test:line` (the pair's rows name them).
    pub killed_by_checks: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub difference: Option<Difference>,
    pub wall_ms: f64,
}

/// The run of one mutant from its answer (the same join as any pair's).
pub fn judge(extraction: &Extraction, mutant: &Mutant, answer: &Answer) -> MutantRun {
    let (tests, collection_errors, rows) = join::join(extraction, answer);
    let killed_by_tests: Vec<String> = tests
        .iter()
        .filter(|t| matches!(t.outcome, PytestOutcome::Failed | PytestOutcome::Error))
        .map(|t| t.name.clone())
        .collect();
    let killed_by_checks: Vec<String> = rows
        .iter()
        .filter(|r| r.status == Status::Kept)
        .filter(|r| matches!(r.eval, Some(EvalOutcome::Fail | EvalOutcome::Error)))
        .map(|r| format!("{}:{}", r.test, r.line))
        .collect();
    let outcome = match answer.status.as_str() {
        "timeout" => Outcome::Timeout,
        "ok" => {
            if killed_by_tests.is_empty() && collection_errors.is_empty() {
                Outcome::Survived
            } else {
                Outcome::Killed
            }
        }
        _ => Outcome::Crashed,
    };
    let difference = match (answer.status.as_str(), outcome.killed()) {
        ("ok", true) if killed_by_checks.is_empty() => Some(Difference::ChecksMiss),
        ("ok", false) if !killed_by_checks.is_empty() => Some(Difference::ChecksOnly),
        _ => None,
    };
    MutantRun {
        id: mutant.id.clone(),
        operator: mutant.operator.clone(),
        line: mutant.line,
        description: mutant.description.clone(),
        diff: mutant.diff.clone(),
        outcome,
        killed_by_tests,
        killed_by_checks,
        difference,
        wall_ms: answer.wall_ms,
    }
}

/// One problem's (pair's) score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub problem: String,
    pub solution: String,
    pub generated: usize,
    /// Killed by a failing test, the time limit or a crash.
    pub killed: usize,
    pub survived: usize,
    pub timeouts: usize,
    pub crashes: usize,
    /// Mutants the two views judge differently.
    pub differences: usize,
    /// killed / generated (1 when nothing was generated).
    pub score: f64,
}

impl Score {
    pub fn of(pair: &PairResult) -> Option<Score> {
        let runs = pair.mutants.as_ref()?;
        let count = |f: &dyn Fn(&MutantRun) -> bool| runs.iter().filter(|m| f(m)).count();
        let killed = count(&|m| m.outcome.killed());
        Some(Score {
            problem: pair.problem.clone(),
            solution: pair.solution.clone(),
            generated: runs.len(),
            killed,
            survived: runs.len() - killed,
            timeouts: count(&|m| m.outcome == Outcome::Timeout),
            crashes: count(&|m| m.outcome == Outcome::Crashed),
            differences: count(&|m| m.difference.is_some()),
            score: if runs.is_empty() {
                1.0
            } else {
                killed as f64 / runs.len() as f64
            },
        })
    }

    /// `12/13`, the table's cell.
    pub fn cell(&self) -> String {
        format!("{}/{}", self.killed, self.generated)
    }
}

/// The report's `mutants` section: totals and each pair's score (each pair's `mutants` holds
/// the kill matrix).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub generated: usize,
    pub killed: usize,
    pub survived: usize,
    pub timeouts: usize,
    pub crashes: usize,
    pub differences: usize,
    /// Surviving mutants by operator.
    pub survived_by_operator: BTreeMap<String, usize>,
    pub problems: Vec<Score>,
}

impl Summary {
    /// `None` when no pair ran its mutants (`check` without `--mutants`).
    pub fn of(pairs: &[PairResult]) -> Option<Summary> {
        let mut summary = Summary::default();
        let mut any = false;
        for pair in pairs {
            let Some(score) = Score::of(pair) else {
                continue;
            };
            any = true;
            summary.generated += score.generated;
            summary.killed += score.killed;
            summary.survived += score.survived;
            summary.timeouts += score.timeouts;
            summary.crashes += score.crashes;
            summary.differences += score.differences;
            for m in pair.mutants.iter().flatten() {
                if !m.outcome.killed() {
                    *summary
                        .survived_by_operator
                        .entry(m.operator.clone())
                        .or_insert(0) += 1;
                }
            }
            summary.problems.push(score);
        }
        any.then_some(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::{extract, Options};

    const FILE: &str = "from solution import f\n\ndef test_a():\n    assert f(1) == 2\n\ndef test_b():\n    assert f(2) == 3\n";

    fn mutant() -> Mutant {
        bench_explorer::mutants::mutants("def f(x):\n    return x + 1\n", None)
            .into_iter()
            .next()
            .unwrap()
    }

    fn answer(status: &str, reply: serde_json::Value) -> Answer {
        Answer {
            status: status.into(),
            detail: None,
            reply: serde_json::from_value(reply).unwrap(),
            wall_ms: 2.0,
        }
    }

    #[test]
    fn killed_survived_and_differences() {
        let extraction = extract(FILE, &Options::default());
        let killed = judge(
            &extraction,
            &mutant(),
            &answer(
                "ok",
                serde_json::json!({
                    "evals": [{"id": 0, "outcome": "fail"}, {"id": 1, "outcome": "pass"}],
                    "pytest": {"tests": [{"name": "test_a", "outcome": "failed"}, {"name": "test_b", "outcome": "passed"}],
                               "collection_errors": []},
                }),
            ),
        );
        assert_eq!(killed.outcome, Outcome::Killed);
        assert_eq!(killed.killed_by_tests, ["test_a"]);
        assert_eq!(killed.killed_by_checks, ["test_a:4"]);
        assert_eq!(killed.difference, None);
        let missed = judge(
            &extraction,
            &mutant(),
            &answer(
                "ok",
                serde_json::json!({
                    "evals": [{"id": 0, "outcome": "pass"}, {"id": 1, "outcome": "pass"}],
                    "pytest": {"tests": [{"name": "test_a", "outcome": "passed"}, {"name": "test_b", "outcome": "error"}],
                               "collection_errors": []},
                }),
            ),
        );
        assert_eq!(missed.outcome, Outcome::Killed);
        assert_eq!(missed.difference, Some(Difference::ChecksMiss));
        let survived = judge(
            &extraction,
            &mutant(),
            &answer(
                "ok",
                serde_json::json!({
                    "evals": [{"id": 0, "outcome": "pass"}, {"id": 1, "outcome": "pass"}],
                    "pytest": {"tests": [{"name": "test_a", "outcome": "passed"}, {"name": "test_b", "outcome": "passed"}],
                               "collection_errors": []},
                }),
            ),
        );
        assert_eq!(survived.outcome, Outcome::Survived);
        assert_eq!(survived.difference, None);
        let timeout = judge(
            &extraction,
            &mutant(),
            &answer("timeout", serde_json::Value::Null),
        );
        assert_eq!(timeout.outcome, Outcome::Timeout);
        assert!(timeout.outcome.killed());
        assert_eq!(timeout.difference, None);
    }
}

//! `check --mutants[=N]`: mutants of each solution (the library's [`bench_explorer::mutants`]),
//! each run both ways like any solution, judged by the library ([`bench_explorer::mutation`]:
//! killed, killed by the time limit, crashed, survived, a difference between the views; the page's
//! Mutants view judges through it too), with which tests and which checks kill each one, and the
//! scores.

use std::collections::BTreeMap;

use bench_explorer::mutants::Mutant;
use bench_explorer::mutation::{self, End, Tally};
pub use bench_explorer::mutation::{Difference, Outcome};
use bench_explorer::Extraction;
use serde::{Deserialize, Serialize};

use super::exec::Answer;
use super::join::PairResult;

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

/// The run of one mutant from its answer, judged by the library ([`mutation::judge`]); an
/// answer is read only when its status is `ok` (the pair's join reads it so too).
pub fn judge(extraction: &Extraction, mutant: &Mutant, answer: &Answer) -> MutantRun {
    let end = match (answer.status.as_str(), answer.reply.as_ref()) {
        ("ok", Some(reply)) => End::Finished(reply),
        ("timeout", _) => End::Timeout,
        _ => End::Crashed,
    };
    let j = mutation::judge(extraction, end);
    let killed_by_checks = j
        .killed_by_checks
        .iter()
        .map(|&i| {
            let a = &extraction.assertions[i];
            format!("{}:{}", a.test, a.line)
        })
        .collect();
    MutantRun {
        id: mutant.id.clone(),
        operator: mutant.operator.clone(),
        line: mutant.line,
        description: mutant.description.clone(),
        diff: mutant.diff.clone(),
        outcome: j.outcome,
        killed_by_tests: j.killed_by_tests,
        killed_by_checks,
        difference: j.difference,
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
        let t = Tally::of(runs.iter().map(|m| (m.outcome, m.difference)));
        Some(Score {
            problem: pair.problem.clone(),
            solution: pair.solution.clone(),
            generated: t.generated,
            killed: t.killed,
            survived: t.survived,
            timeouts: t.timeouts,
            crashes: t.crashes,
            differences: t.differences,
            score: t.score(),
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

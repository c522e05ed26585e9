//! The verdict that matters when a solution is run both ways: the bench loop's view (each kept
//! assertion evaluated in a fresh solution namespace) against the ground truth (the test file under
//! real pytest). An assertion the loop fails while pytest passes its test is a *measurement bug*: the
//! write-up's quiet bug, blamed on the solution though the extractor caused it. The explorer's own
//! guarantee is that this never happens at the `full` stage.

use serde::{Deserialize, Serialize};

use crate::model::{Assertion, Status};

/// The bench loop's outcome for one kept assertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EvalOutcome {
    Pass,
    Fail,
    Error,
}

/// pytest's outcome for the test an assertion belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PytestOutcome {
    Passed,
    Failed,
    Error,
    Skipped,
    Xfailed,
    Xpassed,
    /// No test of that name ran: the assertion came from a helper, not a test.
    NotATest,
}

impl EvalOutcome {
    pub const ALL: [EvalOutcome; 3] = [EvalOutcome::Pass, EvalOutcome::Fail, EvalOutcome::Error];

    /// The stable id: the serde name (`pass`, `fail`, `error`).
    pub fn id(self) -> &'static str {
        match self {
            EvalOutcome::Pass => "pass",
            EvalOutcome::Fail => "fail",
            EvalOutcome::Error => "error",
        }
    }
}

impl PytestOutcome {
    pub const ALL: [PytestOutcome; 7] = [
        PytestOutcome::Passed,
        PytestOutcome::Failed,
        PytestOutcome::Error,
        PytestOutcome::Skipped,
        PytestOutcome::Xfailed,
        PytestOutcome::Xpassed,
        PytestOutcome::NotATest,
    ];

    /// The stable id: the serde name, pytest's own word (`passed`, …) or `not-a-test`.
    pub fn id(self) -> &'static str {
        match self {
            PytestOutcome::Passed => "passed",
            PytestOutcome::Failed => "failed",
            PytestOutcome::Error => "error",
            PytestOutcome::Skipped => "skipped",
            PytestOutcome::Xfailed => "xfailed",
            PytestOutcome::Xpassed => "xpassed",
            PytestOutcome::NotATest => "not-a-test",
        }
    }

    /// For a reader: pytest's word, and `not a test` for a helper's assert.
    pub fn label(self) -> &'static str {
        match self {
            PytestOutcome::NotATest => "not a test",
            o => o.id(),
        }
    }

    /// pytest's own outcome words (`passed`, `failed`, …), as the runner reports them.
    pub fn parse(word: &str) -> Option<PytestOutcome> {
        Some(match word {
            "passed" => PytestOutcome::Passed,
            "failed" => PytestOutcome::Failed,
            "error" => PytestOutcome::Error,
            "skipped" => PytestOutcome::Skipped,
            "xfailed" => PytestOutcome::Xfailed,
            "xpassed" => PytestOutcome::Xpassed,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Both views pass.
    Agree,
    /// Both views fail: the solution is wrong.
    SolutionBug,
    /// The loop fails an assertion whose test pytest passes (or never runs as a test): the
    /// measurement, not the solution, is wrong.
    MeasurementBug,
    /// The assertion holds, but pytest fails its test elsewhere (another assert, setup, teardown).
    FailsElsewhere,
    /// The assertion holds, but pytest does not count its test as a pass (skipped, xfail, or it
    /// is not a test at all): a pass the bench loop should not have counted.
    PhantomPass,
    /// The extractor dropped the assertion; only pytest's outcome says anything.
    NotMeasured,
}

impl Verdict {
    pub const ALL: [Verdict; 6] = [
        Verdict::Agree,
        Verdict::SolutionBug,
        Verdict::MeasurementBug,
        Verdict::FailsElsewhere,
        Verdict::PhantomPass,
        Verdict::NotMeasured,
    ];

    /// The stable id: the serde name (`measurement-bug`, …).
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::SolutionBug => "solution-bug",
            Verdict::MeasurementBug => "measurement-bug",
            Verdict::FailsElsewhere => "fails-elsewhere",
            Verdict::PhantomPass => "phantom-pass",
            Verdict::NotMeasured => "not-measured",
        }
    }

    /// A heading: `Measurement bug`, `Fails elsewhere`, …
    pub fn title(self) -> &'static str {
        match self {
            Verdict::Agree => "Agree",
            Verdict::SolutionBug => "Solution bug",
            Verdict::MeasurementBug => "Measurement bug",
            Verdict::FailsElsewhere => "Fails elsewhere",
            Verdict::PhantomPass => "Phantom pass",
            Verdict::NotMeasured => "Not measured",
        }
    }

    /// What the verdict means, in one sentence, for the row that carries it.
    pub fn explanation(self) -> &'static str {
        match self {
            Verdict::Agree => "Both views pass.",
            Verdict::SolutionBug => {
                "Both views fail: the solution is wrong here, and the bench loop rightly says so."
            }
            Verdict::MeasurementBug => {
                "The bench loop fails a check that pytest passes: the extractor is at fault, not the solution."
            }
            Verdict::FailsElsewhere => {
                "This check holds, but pytest fails its test somewhere else (another assert, setup or teardown)."
            }
            Verdict::PhantomPass => {
                "This check holds, but pytest does not count its test as a pass (skipped, expected to fail, or not a test): the loop should not count it either."
            }
            Verdict::NotMeasured => {
                "Dropped by the extractor: the bench loop does not measure it; only pytest's outcome is shown."
            }
        }
    }

    /// In a sentence: `measurement bug`, `test fails elsewhere`, …
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::SolutionBug => "solution bug",
            Verdict::MeasurementBug => "measurement bug",
            Verdict::FailsElsewhere => "test fails elsewhere",
            Verdict::PhantomPass => "phantom pass",
            Verdict::NotMeasured => "not measured",
        }
    }
}

/// The verdict for one assertion. `eval` is `None` for a dropped assertion.
pub fn verdict(status: Status, eval: Option<EvalOutcome>, pytest: PytestOutcome) -> Verdict {
    use PytestOutcome as P;
    let eval = match (status, eval) {
        (Status::Dropped, _) | (Status::Kept, None) => return Verdict::NotMeasured,
        (Status::Kept, Some(e)) => e,
    };
    let held = eval == EvalOutcome::Pass;
    match pytest {
        P::Passed | P::Xpassed if held => Verdict::Agree,
        P::Passed | P::Xpassed => Verdict::MeasurementBug,
        P::Failed | P::Error if held => Verdict::FailsElsewhere,
        P::Failed | P::Error => Verdict::SolutionBug,
        P::Skipped | P::Xfailed | P::NotATest if held => Verdict::PhantomPass,
        P::Skipped | P::Xfailed | P::NotATest => Verdict::MeasurementBug,
    }
}

/// pytest's outcome for an assertion's `test`: its node id exactly, or — for the write-up's
/// stages, which do not expand parametrize — every case `test[...]` together (passed only if all
/// passed). Outcomes are `(name, outcome)` with names as the extraction contract writes them.
pub fn pytest_outcome_for(test: &str, outcomes: &[(String, PytestOutcome)]) -> PytestOutcome {
    if let Some((_, o)) = outcomes.iter().find(|(n, _)| n == test) {
        return *o;
    }
    let prefix = format!("{test}[");
    let cases: Vec<PytestOutcome> = outcomes
        .iter()
        .filter(|(n, _)| n.starts_with(&prefix))
        .map(|(_, o)| *o)
        .collect();
    if cases.is_empty() {
        return PytestOutcome::NotATest;
    }
    let worst = [
        PytestOutcome::Error,
        PytestOutcome::Failed,
        PytestOutcome::Skipped,
        PytestOutcome::Xfailed,
        PytestOutcome::Xpassed,
        PytestOutcome::Passed,
    ];
    worst
        .into_iter()
        .find(|w| cases.contains(w))
        .unwrap_or(PytestOutcome::NotATest)
}

/// Totals for one run of one file, in the write-up's terms.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Kept assertions the bench loop checked, and how many held.
    pub checked: usize,
    pub passing: usize,
    pub measurement_bugs: usize,
    pub solution_bugs: usize,
    pub not_measured: usize,
    /// The write-up's "PASS first try": every checked assertion held (and at least one was checked).
    pub loop_passes: bool,
    /// pytest passed every test it ran (skips and xfails aside).
    pub pytest_passes: bool,
}

/// Summarise a run: the extraction's assertions with their loop outcomes (`None` when dropped),
/// and pytest's outcomes by test name.
pub fn summarise(
    assertions: &[(&Assertion, Option<EvalOutcome>)],
    outcomes: &[(String, PytestOutcome)],
) -> RunSummary {
    let mut s = RunSummary::default();
    for (a, eval) in assertions {
        let v = verdict(a.status, *eval, pytest_outcome_for(&a.test, outcomes));
        if a.status == Status::Kept && eval.is_some() {
            s.checked += 1;
            if *eval == Some(EvalOutcome::Pass) {
                s.passing += 1;
            }
        }
        match v {
            Verdict::MeasurementBug => s.measurement_bugs += 1,
            Verdict::SolutionBug => s.solution_bugs += 1,
            Verdict::NotMeasured => s.not_measured += 1,
            _ => {}
        }
    }
    s.loop_passes = s.checked > 0 && s.passing == s.checked;
    s.pytest_passes = outcomes
        .iter()
        .all(|(_, o)| !matches!(o, PytestOutcome::Failed | PytestOutcome::Error));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use PytestOutcome as P;

    #[test]
    fn the_quiet_bug_is_a_measurement_bug_not_a_solution_bug() {
        assert_eq!(
            verdict(Status::Kept, Some(EvalOutcome::Error), P::Passed),
            Verdict::MeasurementBug
        );
        assert_eq!(
            verdict(Status::Kept, Some(EvalOutcome::Fail), P::Passed),
            Verdict::MeasurementBug
        );
        assert_eq!(
            verdict(Status::Kept, Some(EvalOutcome::Fail), P::Failed),
            Verdict::SolutionBug
        );
        assert_eq!(
            verdict(Status::Kept, Some(EvalOutcome::Pass), P::Passed),
            Verdict::Agree
        );
    }

    #[test]
    fn dropped_assertions_are_never_blamed() {
        for p in [P::Passed, P::Failed, P::Skipped] {
            assert_eq!(verdict(Status::Dropped, None, p), Verdict::NotMeasured);
        }
    }

    #[test]
    fn helper_and_skipped_asserts_cannot_count_either_way() {
        assert_eq!(
            verdict(Status::Kept, Some(EvalOutcome::Error), P::NotATest),
            Verdict::MeasurementBug
        );
        assert_eq!(
            verdict(Status::Kept, Some(EvalOutcome::Pass), P::Skipped),
            Verdict::PhantomPass
        );
        assert_eq!(
            verdict(Status::Kept, Some(EvalOutcome::Pass), P::Failed),
            Verdict::FailsElsewhere
        );
    }

    /// Each enum's `id` is its serde name, for every variant, and `parse` reads pytest's words back.
    #[test]
    fn ids_are_the_serde_names() {
        fn serde_name(v: impl Serialize) -> String {
            serde_json::to_value(v)
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        }
        for v in Verdict::ALL {
            assert_eq!(v.id(), serde_name(v));
            assert!(!v.title().is_empty() && v.explanation().ends_with('.'));
        }
        for e in EvalOutcome::ALL {
            assert_eq!(e.id(), serde_name(e));
        }
        for o in P::ALL {
            assert_eq!(o.id(), serde_name(o));
            let read = P::parse(o.id());
            assert_eq!(read, (o != P::NotATest).then_some(o), "{o:?}");
        }
        assert_eq!(P::NotATest.label(), "not a test");
        assert_eq!(P::Xfailed.label(), "xfailed");
    }

    #[test]
    fn unexpanded_names_take_the_worst_of_their_cases() {
        let outcomes = vec![
            ("test_x[1]".to_string(), P::Passed),
            ("test_x[2]".to_string(), P::Failed),
            ("test_y".to_string(), P::Passed),
        ];
        assert_eq!(pytest_outcome_for("test_x", &outcomes), P::Failed);
        assert_eq!(pytest_outcome_for("test_x[1]", &outcomes), P::Passed);
        assert_eq!(pytest_outcome_for("test_y", &outcomes), P::Passed);
        assert_eq!(pytest_outcome_for("_load_solution", &outcomes), P::NotATest);
    }
}

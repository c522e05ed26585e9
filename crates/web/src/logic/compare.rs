//! How an earlier stage's assertion compares with the faithful extractor's on the same `assert`: the
//! write-up's quiet bugs made visible. A kept check that the faithful extractor would write
//! differently, or not at all, is a check that measures something other than the test.

use bench_explorer::model::{Assertion, Extraction, Status};

use super::grouping::split_case;

/// How one assertion of a stage compares with the faithful extractor's. (Not a run's verdict: that is
/// `bench_explorer::verdict::Verdict`, the bench loop's view against pytest's.)
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum StageFidelity {
    /// The faithful extractor keeps the same expression (or this is the faithful stage).
    Agrees,
    /// Kept here, but the faithful extractor keeps something else: `faithful` lists its expressions
    /// (one per parametrized case).
    Differs { faithful: Vec<String> },
    /// Kept here, but the faithful extractor drops it, for this reason.
    FaithfulDrops { reason: String },
    /// Kept here, but it is not an assertion of any test (a helper's assert).
    NotATest,
    /// Dropped here; the faithful extractor keeps it (in this many cases).
    NotMeasured { faithful_kept: usize },
    /// Dropped here and by the faithful extractor.
    BothDrop,
}

impl StageFidelity {
    /// The stable id the page writes (`data-verdict`).
    pub fn id(&self) -> &'static str {
        match self {
            StageFidelity::Agrees => "agrees",
            StageFidelity::Differs { .. } => "differs",
            StageFidelity::FaithfulDrops { .. } => "faithful-drops",
            StageFidelity::NotATest => "not-a-test",
            StageFidelity::NotMeasured { .. } => "not-measured",
            StageFidelity::BothDrop => "both-drop",
        }
    }

    /// A kept check that does not check what the test checks: a false failure (or pass) waiting.
    pub fn is_wrong_check(&self) -> bool {
        matches!(
            self,
            StageFidelity::Differs { .. }
                | StageFidelity::FaithfulDrops { .. }
                | StageFidelity::NotATest
        )
    }
}

/// One verdict per assertion of `stage`, matched to `faithful` by line and test function.
pub fn compare(stage: &Extraction, faithful: &Extraction) -> Vec<StageFidelity> {
    stage
        .assertions
        .iter()
        .map(|a| {
            // The same test id (the same parametrized case) if there is one; else every case of
            // the same test function (an earlier stage does not expand parametrize).
            let exact: Vec<&Assertion> = faithful
                .assertions
                .iter()
                .filter(|f| f.line == a.line && f.test == a.test)
                .collect();
            if !exact.is_empty() {
                return verdict(a, &exact);
            }
            let (test, _) = split_case(&a.test);
            let twins: Vec<&Assertion> = faithful
                .assertions
                .iter()
                .filter(|f| f.line == a.line && split_case(&f.test).0 == test)
                .collect();
            verdict(a, &twins)
        })
        .collect()
}

fn verdict(a: &Assertion, twins: &[&Assertion]) -> StageFidelity {
    let kept: Vec<&Assertion> = twins
        .iter()
        .copied()
        .filter(|f| f.status == Status::Kept)
        .collect();
    match a.status {
        Status::Kept => {
            if twins.is_empty() {
                return StageFidelity::NotATest;
            }
            if kept.is_empty() {
                let reason = twins[0].reason.clone().unwrap_or_default();
                return StageFidelity::FaithfulDrops { reason };
            }
            let expr = a.expr.as_deref().unwrap_or("");
            if kept.len() == twins.len() && kept.iter().all(|f| f.expr.as_deref() == Some(expr)) {
                StageFidelity::Agrees
            } else {
                StageFidelity::Differs {
                    faithful: kept.iter().filter_map(|f| f.expr.clone()).collect(),
                }
            }
        }
        Status::Dropped => {
            if kept.is_empty() {
                StageFidelity::BothDrop
            } else {
                StageFidelity::NotMeasured {
                    faithful_kept: kept.len(),
                }
            }
        }
    }
}

/// Per stage: kept checks that are wrong, and assertions dropped that could have been measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    pub wrong: usize,
    pub not_measured: usize,
}

pub fn tally(verdicts: &[StageFidelity]) -> Tally {
    let mut t = Tally::default();
    for v in verdicts {
        if v.is_wrong_check() {
            t.wrong += 1;
        }
        if matches!(v, StageFidelity::NotMeasured { .. }) {
            t.not_measured += 1;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::{extract, Options, Stage};

    const SRC: &str = "\
import random
import pytest
from solution import f

def _helper():
    assert 1 == 1

def test_var():
    result = f(1)
    assert result == 1

def test_inline():
    assert f(2) == 2

def test_random():
    assert f(random.random()) >= 0

@pytest.mark.parametrize('x', [1, 2])
def test_cases(x):
    assert f(x) == x
";

    fn at(stage: Stage) -> Extraction {
        extract(
            SRC,
            &Options {
                stage,
                ..Options::new("test_demo.py")
            },
        )
    }

    #[test]
    fn as_written_against_faithful() {
        let (w, f) = (at(Stage::AsWritten), at(Stage::Full));
        let v = compare(&w, &f);
        let by_line = |line: u32| &v[w.assertions.iter().position(|a| a.line == line).unwrap()];
        assert_eq!(by_line(6), &StageFidelity::NotATest);
        assert!(
            matches!(by_line(10), StageFidelity::Differs { faithful } if faithful == &vec!["f(1) == 1".to_string()])
        );
        assert_eq!(by_line(13), &StageFidelity::Agrees);
        // The standard-library `random` is spelled out by the faithful extractor.
        assert!(
            matches!(by_line(16), StageFidelity::Differs { faithful } if faithful == &vec!["f(__import__(\"random\").random()) >= 0".to_string()])
        );
        // As written, `x` is not expanded: the faithful extractor keeps both cases, written differently.
        assert!(matches!(by_line(20), StageFidelity::Differs { faithful } if faithful.len() == 2));
        assert_eq!(tally(&v).wrong, 4);
    }

    #[test]
    fn faithful_agrees_with_itself() {
        let f = at(Stage::Full);
        let v = compare(&f, &f);
        assert!(v
            .iter()
            .all(|v| matches!(v, StageFidelity::Agrees | StageFidelity::BothDrop)));
        assert_eq!(tally(&v), Tally::default());
    }

    #[test]
    fn six_shapes_keeps_the_stdlib_reference() {
        let (s, f) = (at(Stage::SixShapes), at(Stage::Full));
        let v = compare(&s, &f);
        let i = s.assertions.iter().position(|a| a.line == 16).unwrap();
        // As written `random` is undefined in the solution's namespace; the faithful extractor
        // spells the module out.
        assert!(
            matches!(&v[i], StageFidelity::Differs { faithful } if faithful == &vec!["f(__import__(\"random\").random()) >= 0".to_string()]),
            "{:?}",
            v[i]
        );
    }
}

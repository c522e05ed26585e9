//! Two stages side by side for one file: per `assert` statement (and parametrized case), what each
//! stage keeps or drops, and what changed between them — the teaching view of the write-up's story.

use bench_explorer::model::{Assertion, Extraction, Status};
use bench_explorer::sort::SharedSort as _;

use super::grouping::split_case;

/// What one stage does with an assertion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Side {
    Kept(String),
    Dropped(String),
    /// This stage has no such assertion (it does not expand this parametrized case, say).
    Absent,
}

impl Side {
    fn of(a: Option<&Assertion>) -> Side {
        match a {
            None => Side::Absent,
            Some(a) if a.status == Status::Kept => Side::Kept(a.expr.clone().unwrap_or_default()),
            Some(a) => Side::Dropped(a.reason.clone().unwrap_or_default()),
        }
    }
}

/// How the right-hand stage differs from the left-hand one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Same,
    /// Both keep it, with different expressions.
    Rewritten,
    /// Dropped (or absent) on the left, kept on the right.
    NowKept,
    /// Kept on the left, dropped (or absent) on the right.
    NowDropped,
    /// Dropped on both sides, for different reasons (or absent on one).
    OtherReason,
}

impl Change {
    pub fn id(self) -> &'static str {
        match self {
            Change::Same => "same",
            Change::Rewritten => "rewritten",
            Change::NowKept => "now-kept",
            Change::NowDropped => "now-dropped",
            Change::OtherReason => "other-reason",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Change::Same => "same",
            Change::Rewritten => "rewritten",
            Change::NowKept => "now kept",
            Change::NowDropped => "now dropped",
            Change::OtherReason => "reason changed",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffRow {
    pub line: u32,
    /// The test id (with the parametrized case, if either side has one).
    pub test: String,
    pub left: Side,
    pub right: Side,
    pub change: Change,
}

fn change(left: &Side, right: &Side) -> Change {
    match (left, right) {
        (Side::Kept(a), Side::Kept(b)) if a == b => Change::Same,
        (Side::Kept(_), Side::Kept(_)) => Change::Rewritten,
        (_, Side::Kept(_)) => Change::NowKept,
        (Side::Kept(_), _) => Change::NowDropped,
        (Side::Dropped(a), Side::Dropped(b)) if a == b => Change::Same,
        (Side::Absent, Side::Absent) => Change::Same,
        _ => Change::OtherReason,
    }
}

/// Pair the two stages' assertions by line and test. A case only one side expands is paired with
/// the other side's unexpanded assertion of the same test and line.
pub fn diff(left: &Extraction, right: &Extraction) -> Vec<DiffRow> {
    let mut keys: Vec<(u32, String)> = Vec::new();
    for a in left.assertions.iter().chain(&right.assertions) {
        let k = (a.line, a.test.clone());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    // An unexpanded test id is left out when the other stage lists its cases.
    let cases_of = |line: u32, test: &str| {
        keys.iter()
            .any(|(l, t)| *l == line && t != test && split_case(t).0 == test)
    };
    let find = |e: &Extraction, line: u32, test: &str| -> Option<Assertion> {
        e.assertions
            .iter()
            .find(|a| a.line == line && a.test == test)
            .or_else(|| {
                e.assertions
                    .iter()
                    .find(|a| a.line == line && a.test == split_case(test).0)
            })
            .cloned()
    };
    let mut rows: Vec<DiffRow> = keys
        .iter()
        .filter(|(line, test)| !cases_of(*line, test))
        .map(|(line, test)| {
            let l = Side::of(find(left, *line, test).as_ref());
            let r = Side::of(find(right, *line, test).as_ref());
            DiffRow {
                line: *line,
                test: test.clone(),
                change: change(&l, &r),
                left: l,
                right: r,
            }
        })
        .collect();
    rows.sort_shared_by(|a, b| (a.line, &a.test).cmp(&(b.line, &b.test)));
    rows
}

/// Kept on each side, and how many rows changed.
pub fn totals(rows: &[DiffRow]) -> (usize, usize, usize) {
    let kept = |s: &Side| matches!(s, Side::Kept(_));
    (
        rows.iter().filter(|r| kept(&r.left)).count(),
        rows.iter().filter(|r| kept(&r.right)).count(),
        rows.iter().filter(|r| r.change != Change::Same).count(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::{extract, Options, Stage};

    const SRC: &str = "import pytest
from solution import f

def test_a():
    r = f(1)
    assert r == 1

def test_b():
    assert f(2) == 2

@pytest.mark.parametrize('x', [3, 4])
def test_c(x):
    assert f(x) == x
";

    fn at(stage: Stage) -> Extraction {
        extract(
            SRC,
            &Options {
                stage,
                ..Options::new("test_f.py")
            },
        )
    }

    #[test]
    fn as_written_against_full() {
        let rows = diff(&at(Stage::AsWritten), &at(Stage::Full));
        let a = rows.iter().find(|r| r.line == 6).unwrap();
        assert_eq!(a.left, Side::Kept("r == 1".into()));
        assert_eq!(a.right, Side::Kept("f(1) == 1".into()));
        assert_eq!(a.change, Change::Rewritten);
        let b = rows.iter().find(|r| r.line == 9).unwrap();
        assert_eq!(b.change, Change::Same);
        // Each parametrized case gets its row, paired with the unexpanded left side.
        let c: Vec<_> = rows.iter().filter(|r| r.line == 13).collect();
        assert_eq!(c.len(), 2, "{rows:#?}");
        assert!(c.iter().all(|r| r.test.starts_with("test_c[")));
        let (_, right_kept, changed) = totals(&rows);
        assert_eq!(right_kept, 4);
        assert!(changed >= 1);
    }

    #[test]
    fn a_stage_against_itself_changes_nothing() {
        let rows = diff(&at(Stage::Full), &at(Stage::Full));
        assert!(rows.iter().all(|r| r.change == Change::Same));
        assert_eq!(totals(&rows).2, 0);
    }
}

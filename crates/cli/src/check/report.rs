//! The whole report: pairs in a stable order and their totals, by verdict and by shape. `check`
//! builds it from the pairs it ran; `report` from JSON-lines files, so merged shards equal one run.

use std::collections::BTreeMap;

use bench_explorer::verdict::Verdict;
use bench_explorer::Shape;
use serde::{Deserialize, Serialize};

use super::join::{PairResult, RunStatus};
use super::mutants::Summary;
use super::sandbox::Mode;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub pairs: usize,
    pub problems: usize,
    pub timeouts: usize,
    pub crashes: usize,
    pub verdicts: BTreeMap<Verdict, usize>,
    /// Per shape, the verdicts of the assertions that show it.
    pub shapes: BTreeMap<Shape, BTreeMap<Verdict, usize>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub version: u32,
    pub stages: Vec<String>,
    /// The sandbox modes the pairs ran in (`bwrap`, `none`): one unless shards were mixed.
    #[serde(default)]
    pub sandbox: Vec<Mode>,
    pub totals: Totals,
    /// With `--mutants`: the mutation score of each pair and the totals.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mutants: Option<Summary>,
    pub pairs: Vec<PairResult>,
}

impl Report {
    pub fn new(mut pairs: Vec<PairResult>) -> Report {
        pairs.sort_by(|a, b| (&a.problem, &a.solution).cmp(&(&b.problem, &b.solution)));
        let mut totals = Totals {
            pairs: pairs.len(),
            ..Totals::default()
        };
        let mut problems: Vec<&str> = pairs.iter().map(|p| p.problem.as_str()).collect();
        problems.dedup();
        totals.problems = problems.len();
        let mut stages: Vec<String> = pairs.iter().map(|p| p.stage.clone()).collect();
        stages.sort();
        stages.dedup();
        let mut sandbox: Vec<Mode> = pairs.iter().map(|p| p.sandbox).collect();
        sandbox.sort();
        sandbox.dedup();
        for p in &pairs {
            match p.status {
                RunStatus::Timeout => totals.timeouts += 1,
                RunStatus::Crashed => totals.crashes += 1,
                RunStatus::Ok => {}
            }
            for row in &p.rows {
                *totals.verdicts.entry(row.verdict).or_insert(0) += 1;
                for shape in &row.shapes {
                    *totals
                        .shapes
                        .entry(*shape)
                        .or_default()
                        .entry(row.verdict)
                        .or_insert(0) += 1;
                }
            }
        }
        Report {
            version: 1,
            stages,
            sandbox,
            totals,
            mutants: Summary::of(&pairs),
            pairs,
        }
    }

    pub fn count(&self, v: Verdict) -> usize {
        self.totals.verdicts.get(&v).copied().unwrap_or(0)
    }

    /// Exit status 1 when the measurement lies somewhere: a measurement bug or a phantom pass.
    pub fn exit_code(&self) -> i32 {
        if self.count(Verdict::MeasurementBug) + self.count(Verdict::PhantomPass) > 0 {
            1
        } else {
            0
        }
    }
}

//! The whole-bench view: one row per problem for the selected stage, with what every stage keeps
//! beside it, and a line of totals per stage. Built on the library's [`Audit`].

use bench_explorer::bench::Audit;
use bench_explorer::model::Stage;
use bench_explorer::shape::Shape;

use super::compare::Tally;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditRow {
    pub slug: String,
    pub title: String,
    pub assertions: usize,
    pub kept: usize,
    pub dropped: usize,
    pub findings: usize,
    pub syntax_errors: usize,
    pub shapes: Vec<Shape>,
    pub hidden_conventions: Vec<String>,
    /// Kept assertions under each stage, in [`Stage::ALL`] order (`None`: not computed).
    pub kept_by_stage: [Option<usize>; 4],
    /// Assertions seen under each stage (the as-written stage also counts helper asserts).
    pub total_by_stage: [Option<usize>; 4],
    /// Kept checks that differ from the faithful extractor's (see `compare`), when compared.
    pub wrong_checks: Option<usize>,
    /// Assertions dropped here that the faithful extractor keeps.
    pub not_measured: Option<usize>,
}

pub fn stage_index(stage: Stage) -> usize {
    Stage::ALL
        .iter()
        .position(|s| *s == stage)
        .expect("every stage is in ALL")
}

/// Rows for the selected stage's audit; `all` holds whatever audits of other stages are at hand.
pub fn audit_rows(selected: &Audit, all: &[&Audit]) -> Vec<AuditRow> {
    selected
        .problems
        .iter()
        .map(|p| {
            let mut kept_by_stage = [None; 4];
            let mut total_by_stage = [None; 4];
            for a in all.iter().chain(std::iter::once(&selected)) {
                if let Some(q) = a.problems.iter().find(|q| q.slug == p.slug) {
                    kept_by_stage[stage_index(a.stage)] = Some(q.kept);
                    total_by_stage[stage_index(a.stage)] = Some(q.assertions);
                }
            }
            AuditRow {
                slug: p.slug.clone(),
                title: p.title.clone().unwrap_or_else(|| p.slug.replace('_', " ")),
                assertions: p.assertions,
                kept: p.kept,
                dropped: p.dropped,
                findings: p.findings,
                syntax_errors: p.syntax_errors,
                shapes: p.shapes.clone(),
                hidden_conventions: p.hidden_conventions.clone(),
                kept_by_stage,
                total_by_stage,
                wrong_checks: None,
                not_measured: None,
            }
        })
        .collect()
}

/// Attach each problem's comparison with the faithful extractor (by slug).
pub fn attach_tallies(rows: &mut [AuditRow], tallies: &[(String, Tally)]) {
    for r in rows {
        if let Some((_, t)) = tallies.iter().find(|(s, _)| *s == r.slug) {
            r.wrong_checks = Some(t.wrong);
            r.not_measured = Some(t.not_measured);
        }
    }
}

/// One stage's totals across the bench.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageTotals {
    pub stage: Stage,
    pub problems: usize,
    pub assertions: usize,
    pub kept: usize,
    pub dropped: usize,
    /// Problems where every assertion is kept (nothing dropped).
    pub fully_kept: usize,
    pub findings: usize,
}

pub fn stage_totals(a: &Audit) -> StageTotals {
    StageTotals {
        stage: a.stage,
        problems: a.problems.len(),
        assertions: a.assertions,
        kept: a.kept,
        dropped: a.dropped,
        fully_kept: a
            .problems
            .iter()
            .filter(|p| p.dropped == 0 && p.assertions > 0)
            .count(),
        findings: a.findings,
    }
}

/// The by-shape totals as rows in the fixed shape order, with how many problems show each shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeRow {
    pub shape: Shape,
    pub problems: usize,
    pub assertions: usize,
    pub kept: usize,
    pub dropped: usize,
    pub findings: usize,
}

pub fn shape_rows(a: &Audit) -> Vec<ShapeRow> {
    Shape::ALL
        .iter()
        .map(|s| {
            let t = a.by_shape.get(s).cloned().unwrap_or_default();
            ShapeRow {
                shape: *s,
                problems: t.problems,
                assertions: t.assertions,
                kept: t.kept,
                dropped: t.dropped,
                findings: t.findings,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::bench::ProblemInput;
    use bench_explorer::{extract, Options};

    const SRC: &str = "def f(x): return x\n\
def test_a():\n    r = g(1)\n    assert r == 1\n    assert g(2) == 2\n";

    fn audit(stage: Stage) -> Audit {
        let e = extract(
            SRC,
            &Options {
                stage,
                ..Options::new("demo/test_demo.py")
            },
        );
        Audit::new(
            stage,
            &[ProblemInput {
                extraction: &e,
                meta: None,
                statement: None,
                original_statement: None,
            }],
        )
    }

    #[test]
    fn rows_carry_every_stage() {
        let audits: Vec<Audit> = Stage::ALL.iter().map(|s| audit(*s)).collect();
        let refs: Vec<&Audit> = audits.iter().collect();
        let rows = audit_rows(&audits[3], &refs);
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!(r.slug, "demo");
        assert_eq!(r.title, "demo");
        assert!(r.kept_by_stage.iter().all(|k| k.is_some()));
        assert_eq!(r.kept_by_stage[3], Some(r.kept));
        // As written, every assert is taken verbatim.
        assert_eq!(r.kept_by_stage[0], r.total_by_stage[0]);
    }

    #[test]
    fn missing_stages_are_none_and_totals_add_up() {
        let a = audit(Stage::Full);
        let rows = audit_rows(&a, &[]);
        assert_eq!(
            rows[0].kept_by_stage,
            [None, None, None, Some(rows[0].kept)]
        );
        let t = stage_totals(&a);
        assert_eq!(t.kept + t.dropped, t.assertions);
        let mut rows = rows;
        attach_tallies(
            &mut rows,
            &[(
                "demo".to_string(),
                Tally {
                    wrong: 2,
                    not_measured: 1,
                },
            )],
        );
        assert_eq!(
            (rows[0].wrong_checks, rows[0].not_measured),
            (Some(2), Some(1))
        );
        assert_eq!(shape_rows(&a).len(), 7);
    }
}

//! Each problem's mutation score in the bench audit (issue 27). The figures come from a real run:
//! `www/mutants.json`, written by `scripts/mutants_data.py` from `bench-explorer check problems
//! --mutants --json` and committed (kept in step with docs/mutants.md and the CLI by
//! `tests/python/test_mutants_doc.py`), which Trunk copies next to the wasm and the page fetches
//! when the audit is shown (the wasm carries none of it). Once the user runs the whole bench "with
//! mutants" on the page, a problem's complete run replaces its committed figures.
//!
//! Each committed problem carries a digest of the files it was measured on (its `solution.py` and
//! test file); figures whose digest is not the page's embedded files' are not shown as the
//! problem's score.

use bench_explorer::mutation::Tally;
use serde::Deserialize;

use super::mutation::ProblemMutants;

/// `www/mutants.json`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Measured {
    /// The command that measured the figures.
    pub command: String,
    /// The commit whose solutions, test files and generator were measured (abbreviated).
    pub commit: String,
    /// The day of the run (`YYYY-MM-DD`).
    pub date: String,
    /// `check --mutants`'s time limit per mutant, in seconds.
    pub mutant_timeout_s: f64,
    pub problems: Vec<MeasuredProblem>,
}

/// One problem's line of `mutants.problems` in the CLI's JSON, with its survivors' ids and the
/// digest of the files it ran.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct MeasuredProblem {
    pub problem: String,
    /// [`digest`] of the problem's `solution.py` and test file at the run.
    pub digest: String,
    pub generated: usize,
    pub killed: usize,
    pub survived: usize,
    pub timeouts: usize,
    pub crashes: usize,
    pub differences: usize,
    pub survivors: Vec<String>,
}

impl MeasuredProblem {
    pub fn tally(&self) -> Tally {
        Tally {
            generated: self.generated,
            killed: self.killed,
            survived: self.survived,
            timeouts: self.timeouts,
            crashes: self.crashes,
            differences: self.differences,
        }
    }
}

/// The file as the page fetched it, or why it could not be read.
pub fn parse(json: &str) -> Result<Measured, String> {
    let m: Measured = serde_json::from_str(json)
        .map_err(|e| format!("mutants.json does not read as the measured scores: {e}"))?;
    for p in &m.problems {
        if p.killed + p.survived != p.generated || p.survivors.len() != p.survived {
            return Err(format!(
                "mutants.json: {}'s figures do not add up",
                p.problem
            ));
        }
    }
    Ok(m)
}

/// FNV-1a (64 bits) of the solution's bytes, a zero byte, then the test file's: 16 hex digits.
/// `scripts/mutants_data.py` computes the same.
pub fn digest(solution: &str, test: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = solution
        .as_bytes()
        .iter()
        .chain(std::iter::once(&0u8))
        .chain(test.as_bytes());
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Where a score shown in the audit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreSource {
    /// The whole-bench run "with mutants" on this page, complete for the problem.
    Page,
    /// `www/mutants.json` (measured by `check --mutants`), for these very files.
    Committed,
    /// `www/mutants.json` has figures, measured on other files than the page's: not shown.
    Outdated,
}

impl ScoreSource {
    pub fn id(self) -> &'static str {
        match self {
            ScoreSource::Page => "page",
            ScoreSource::Committed => "committed",
            ScoreSource::Outdated => "outdated",
        }
    }
}

/// A problem's mutation score as the audit shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditScore {
    pub tally: Tally,
    pub source: ScoreSource,
}

/// The score of the problem `slug` whose embedded files are `solution` and `test`: the page's own
/// run when it covered every mutant of the problem, else the committed figures when they were
/// measured on these files (`Outdated`, without figures to trust, when on others); `None` when
/// neither has the problem.
pub fn audit_score(
    slug: &str,
    solution: &str,
    test: &str,
    committed: Option<&Measured>,
    page: &[ProblemMutants],
) -> Option<AuditScore> {
    if let Some(run) = page.iter().find(|r| r.slug == slug && r.complete()) {
        return Some(AuditScore {
            tally: run.tally(),
            source: ScoreSource::Page,
        });
    }
    let m = committed?.problems.iter().find(|p| p.problem == slug)?;
    Some(if m.digest == digest(solution, test) {
        AuditScore {
            tally: m.tally(),
            source: ScoreSource::Committed,
        }
    } else {
        AuditScore {
            tally: Tally::default(),
            source: ScoreSource::Outdated,
        }
    })
}

/// The bench's total over the scores shown (outdated ones left out), and where they come from:
/// one source when all share it, `None` when they mix.
pub fn audit_total(scores: &[Option<AuditScore>]) -> (Tally, Option<ScoreSource>) {
    let shown: Vec<&AuditScore> = scores
        .iter()
        .flatten()
        .filter(|s| s.source != ScoreSource::Outdated)
        .collect();
    let mut t = Tally::default();
    for s in &shown {
        t.generated += s.tally.generated;
        t.killed += s.tally.killed;
        t.survived += s.tally.survived;
        t.timeouts += s.tally.timeouts;
        t.crashes += s.tally.crashes;
        t.differences += s.tally.differences;
    }
    let first = shown.first().map(|s| s.source);
    let same = shown.iter().all(|s| Some(s.source) == first);
    (t, if same { first } else { None })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::mutation::{Difference, Outcome};

    const SHIPPED: &str = include_str!("../../../../www/mutants.json");

    fn problem(slug: &str) -> (String, String) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../problems")
            .join(slug);
        (
            std::fs::read_to_string(dir.join("solution.py")).unwrap(),
            std::fs::read_to_string(dir.join(format!("test_{slug}.py"))).unwrap(),
        )
    }

    /// The file the page fetches reads, covers every problem of the bench, and was measured on the
    /// bench's files as they are (a solution or test file changed since needs a new run:
    /// docs/mutants.md, "Reproduce").
    #[test]
    fn the_shipped_scores_are_of_the_benchs_files() {
        let m = parse(SHIPPED).unwrap();
        assert!(m.command.contains("check") && m.command.contains("--mutants"));
        let mut slugs: Vec<String> = std::fs::read_dir(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems"),
        )
        .unwrap()
        .filter_map(|e| {
            let e = e.ok()?;
            e.path()
                .join("solution.py")
                .exists()
                .then(|| e.file_name().to_string_lossy().into_owned())
        })
        .collect();
        slugs.sort();
        let shipped: Vec<String> = m.problems.iter().map(|p| p.problem.clone()).collect();
        assert_eq!(shipped, slugs);
        for p in &m.problems {
            let (solution, test) = problem(&p.problem);
            let s = audit_score(&p.problem, &solution, &test, Some(&m), &[]).unwrap();
            assert_eq!(
                s.source,
                ScoreSource::Committed,
                "{}: www/mutants.json was measured on other files: run scripts/mutants_data.py",
                p.problem
            );
            assert_eq!(s.tally, p.tally());
        }
    }

    #[test]
    fn the_digest_is_fnv1a_over_both_files() {
        // FNV-1a 64 of the single zero byte (the separator between two empty files).
        assert_eq!(digest("", ""), "af63bd4c8601b7df");
        assert_ne!(digest("a", "b"), digest("ab", ""));
        assert_eq!(digest("x = 1\n", "def test(): pass\n").len(), 16);
    }

    fn measured() -> Measured {
        parse(&serde_json::json!({
            "command": "bench-explorer check problems --mutants --json",
            "commit": "abc1234", "date": "2026-11-27", "mutant_timeout_s": 2.0,
            "problems": [
                {"problem": "a", "digest": digest("sol", "test"), "generated": 3, "killed": 2,
                 "survived": 1, "timeouts": 1, "crashes": 0, "differences": 0, "survivors": ["m002"]},
                {"problem": "b", "digest": digest("old", "test"), "generated": 2, "killed": 2,
                 "survived": 0, "timeouts": 0, "crashes": 0, "differences": 0, "survivors": []}
            ]
        })
        .to_string())
        .unwrap()
    }

    #[test]
    fn committed_figures_then_the_pages_own_once_complete() {
        let m = measured();
        let a = audit_score("a", "sol", "test", Some(&m), &[]).unwrap();
        assert_eq!(a.source, ScoreSource::Committed);
        assert_eq!(
            (a.tally.killed, a.tally.generated, a.tally.survived),
            (2, 3, 1)
        );
        // Measured on another solution: no figures to show.
        let b = audit_score("b", "sol", "test", Some(&m), &[]).unwrap();
        assert_eq!(b.source, ScoreSource::Outdated);
        assert!(audit_score("c", "sol", "test", Some(&m), &[]).is_none());
        assert!(audit_score("a", "sol", "test", None, &[]).is_none());
        // A page run that has not covered every mutant leaves the committed figures.
        let mut run = ProblemMutants {
            slug: "a".into(),
            planned: 3,
            runs: vec![(Outcome::Killed, None), (Outcome::Killed, None)],
        };
        let partial = audit_score("a", "sol", "test", Some(&m), std::slice::from_ref(&run));
        assert_eq!(partial.unwrap().source, ScoreSource::Committed);
        run.runs
            .push((Outcome::Killed, Some(Difference::ChecksMiss)));
        let page = audit_score("a", "sol", "test", None, std::slice::from_ref(&run)).unwrap();
        assert_eq!(page.source, ScoreSource::Page);
        assert_eq!((page.tally.killed, page.tally.differences), (3, 1));

        let (t, source) = audit_total(&[Some(a.clone()), Some(b), None]);
        assert_eq!((t.killed, t.generated), (2, 3));
        assert_eq!(source, Some(ScoreSource::Committed));
        let (t, source) = audit_total(&[Some(a), Some(page)]);
        assert_eq!((t.killed, t.generated), (5, 6));
        assert_eq!(source, None);
    }

    #[test]
    fn figures_that_do_not_add_up_are_refused() {
        assert!(parse("{").is_err());
        let bad = SHIPPED.replacen("\"survivors\": []", "\"survivors\": [\"m001\"]", 1);
        assert!(parse(&bad).is_err());
    }
}

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
use serde_json::Value;

use super::mutation::{percent, ProblemMutants};

/// `www/mutants.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The command that measured the figures.
    pub command: String,
    /// The commit whose solutions, test files and generator were measured (abbreviated).
    pub commit: String,
    /// The day of the run (`YYYY-MM-DD`).
    pub date: String,
    /// `check --mutants`'s time limit per mutant, in seconds.
    pub mutant_timeout_s: u64,
    pub problems: Vec<MeasuredProblem>,
}

/// One problem's line of `mutants.problems` in the CLI's JSON, with its survivors' ids and the
/// digest of the files it ran.
#[derive(Clone, Debug, PartialEq)]
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

/// The file as the page fetched it, or why it could not be read. Read through `serde_json::Value`
/// (which the page has anyway), not a derived reader: the first load's bytes are counted.
pub fn parse(json: &str) -> Result<Measured, String> {
    let bad = |what: &str| format!("mutants.json does not read as the measured scores ({what})");
    let v: Value = serde_json::from_str(json).map_err(|e| bad(&e.to_string()))?;
    let text = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| bad(k))
    };
    let count = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_u64)
            .map(|n| n as usize)
            .ok_or_else(|| bad(k))
    };
    let mut problems = Vec::new();
    for p in v
        .get("problems")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("problems"))?
    {
        let m = MeasuredProblem {
            problem: text(p, "problem")?,
            digest: text(p, "digest")?,
            generated: count(p, "generated")?,
            killed: count(p, "killed")?,
            survived: count(p, "survived")?,
            timeouts: count(p, "timeouts")?,
            crashes: count(p, "crashes")?,
            differences: count(p, "differences")?,
            survivors: p
                .get("survivors")
                .and_then(Value::as_array)
                .ok_or_else(|| bad("survivors"))?
                .iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect(),
        };
        if m.killed + m.survived != m.generated || m.survivors.len() != m.survived {
            return Err(format!(
                "mutants.json: {}'s figures do not add up",
                m.problem
            ));
        }
        problems.push(m);
    }
    Ok(Measured {
        command: text(&v, "command")?,
        commit: text(&v, "commit")?,
        date: text(&v, "date")?,
        mutant_timeout_s: count(&v, "mutant_timeout_s")? as u64,
        problems,
    })
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

/// The audit's cell for a problem's score, as HTML (the page sets it as the cell's content: a
/// string costs the page's wasm far less than a typed view): `17/20 85% · 3 surv.` in a span
/// carrying the figures and their source (`data-testid="audit-mutants"`), `–` without figures,
/// `?` for figures measured on other files. Nothing in it comes from the user.
pub fn score_html(score: Option<&AuditScore>, testid: &str) -> String {
    match score {
        None => format!(r#"<span data-testid="{testid}" data-source="none">–</span>"#),
        Some(AuditScore {
            source: ScoreSource::Outdated,
            ..
        }) => format!(
            r#"<span data-testid="{testid}" data-source="outdated" title="measured on other files than this page's bench: run the whole bench with mutants">?</span>"#
        ),
        Some(AuditScore { tally, source }) => tally_html(tally, source.id(), testid),
    }
}

/// Figures as [`score_html`] writes them, with the source's id (`mixed` for the bench's total).
pub fn tally_html(t: &Tally, source: &str, testid: &str) -> String {
    format!(
        r#"<span data-testid="{testid}" data-source="{source}" data-killed="{}" data-generated="{}" data-survived="{}" data-timeouts="{}" data-differences="{}" title="{} of {} mutants killed ({} by the time limit), {} survived">{}<span class="of"> {}</span><span class="survivors{}"> · {} surv.</span></span>"#,
        t.killed,
        t.generated,
        t.survived,
        t.timeouts,
        t.differences,
        t.killed,
        t.generated,
        t.timeouts,
        t.survived,
        t.cell(),
        percent(t),
        if t.survived == 0 { " zero" } else { "" },
        t.survived,
    )
}

/// The line under the audit's table: where its scores come from.
pub fn source_note(
    measured: Option<Result<&Measured, &str>>,
    total: &Tally,
    source: Option<ScoreSource>,
) -> (&'static str, String) {
    match (measured, source) {
        (_, Some(ScoreSource::Page)) => ("page", format!(
            "Mutation scores ({} of {} mutants killed): measured on this page by the whole-bench run with mutants.",
            total.killed, total.generated
        )),
        (Some(Ok(m)), source) => (source.map_or("mixed", ScoreSource::id), format!(
            "Mutation scores ({} of {} mutants of the reference solutions killed): measured by `{}` at commit {} ({}, {} s per mutant){}. Run the whole bench with mutants (Run tab) to measure them on this page.",
            total.killed, total.generated, m.command, m.commit, m.date, m.mutant_timeout_s,
            if source.is_none() { "; the problems the page's own run covered show its figures" } else { "" },
        )),
        (Some(Err(e)), _) => ("error", format!(
            "Mutation scores: the measured figures could not be loaded ({e}); run the whole bench with mutants (Run tab) to measure them here."
        )),
        (None, _) => ("loading", "Mutation scores: loading the measured figures…".to_string()),
    }
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
            "commit": "abc1234", "date": "2026-11-27", "mutant_timeout_s": 2,
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
    fn cells_and_note_say_the_figures_and_their_source() {
        let m = measured();
        let a = audit_score("a", "sol", "test", Some(&m), &[]).unwrap();
        let html = score_html(Some(&a), "audit-mutants");
        assert!(html.starts_with(r#"<span data-testid="audit-mutants" data-source="committed" data-killed="2" data-generated="3" data-survived="1""#));
        assert!(html.contains(
            ">2/3<span class=\"of\"> 66%</span><span class=\"survivors\"> · 1 surv.</span></span>"
        ));
        let b = audit_score("b", "sol", "test", Some(&m), &[]).unwrap();
        assert!(score_html(Some(&b), "x").contains(r#"data-source="outdated""#));
        assert!(score_html(None, "x").contains(r#"data-source="none""#));
        let (t, source) = audit_total(&[Some(a)]);
        let ok = Ok(&m);
        let (id, text) = source_note(Some(ok), &t, source);
        assert_eq!(id, "committed");
        assert!(text.contains("measured by `bench-explorer check problems --mutants --json` at commit abc1234 (2026-11-27, 2 s per mutant)"));
        assert_eq!(source_note(Some(ok), &t, None).0, "mixed");
        assert_eq!(source_note(None, &t, None).0, "loading");
        assert_eq!(source_note(Some(Err("HTTP 404")), &t, None).0, "error");
        assert_eq!(source_note(Some(ok), &t, Some(ScoreSource::Page)).0, "page");
    }

    #[test]
    fn figures_that_do_not_add_up_are_refused() {
        assert!(parse("{").is_err());
        let bad = SHIPPED.replacen("\"survivors\": []", "\"survivors\": [\"m001\"]", 1);
        assert!(parse(&bad).is_err());
    }
}

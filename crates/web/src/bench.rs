//! The bench, embedded at build time by `build.rs` (one entry per folder of `problems/`), and the
//! whole-bench audits computed from it in the page.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use bench_explorer::bench::{Audit, Meta, ProblemInput};
use bench_explorer::{extract, Extraction, Options, Stage};

use crate::logic::compare::{compare, tally, Tally};

pub struct EmbeddedProblem {
    pub slug: &'static str,
    /// The test file's name, `test_<slug>.py`.
    pub test_name: &'static str,
    pub test: &'static str,
    /// `meta.toml` as JSON (parsed by `build.rs`).
    pub meta_json: Option<&'static str>,
    pub statement: Option<&'static str>,
    /// The statement before its hidden convention was written in (clean_phone).
    pub original_statement: Option<&'static str>,
    pub stub: Option<&'static str>,
    pub solution: Option<&'static str>,
}

include!(concat!(env!("OUT_DIR"), "/bench_data.rs"));

pub fn problems() -> &'static [EmbeddedProblem] {
    BENCH
}

pub fn find(slug: &str) -> Option<&'static EmbeddedProblem> {
    BENCH.iter().find(|p| p.slug == slug)
}

/// Parsed `meta.toml` of each problem (`None` when missing or malformed), in bench order.
fn metas() -> &'static [Option<Meta>] {
    static METAS: OnceLock<Vec<Option<Meta>>> = OnceLock::new();
    METAS.get_or_init(|| {
        BENCH
            .iter()
            .map(|p| p.meta_json.and_then(|m| serde_json::from_str(m).ok()))
            .collect()
    })
}

pub fn meta(slug: &str) -> Option<&'static Meta> {
    let i = BENCH.iter().position(|p| p.slug == slug)?;
    metas()[i].as_ref()
}

/// The title of a problem: its metadata's, or the slug made readable.
pub fn title(slug: &str) -> String {
    meta(slug)
        .map(|m| m.title.clone())
        .unwrap_or_else(|| slug.replace('_', " "))
}

/// The path the CLI would report for a problem's test file.
pub fn test_path(p: &EmbeddedProblem) -> String {
    format!("problems/{}/{}", p.slug, p.test_name)
}

pub fn options(p: &EmbeddedProblem, stage: Stage) -> Options {
    Options {
        file: test_path(p),
        slug: Some(p.slug.to_string()),
        solution_modules: Vec::new(),
        stage,
        conftests: Vec::new(),
        package_inits: Vec::new(),
        pytest_config: None,
        pytest_version: Default::default(),
    }
}

/// Each problem's comparison tally, by slug.
type Tallies = Arc<Vec<(String, Tally)>>;

thread_local! {
    /// Milliseconds spent extracting the bench so far.
    static AUDIT_MS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
    static EXTRACTIONS: std::cell::RefCell<HashMap<Stage, Arc<Vec<Extraction>>>> = std::cell::RefCell::new(HashMap::new());
    static AUDITS: std::cell::RefCell<HashMap<Stage, Arc<Audit>>> = std::cell::RefCell::new(HashMap::new());
    static TALLIES: std::cell::RefCell<HashMap<Stage, Tallies>> = std::cell::RefCell::new(HashMap::new());
}

/// Every problem's test file extracted under one stage, in bench order (computed once, then cached).
pub fn extractions(stage: Stage) -> Arc<Vec<Extraction>> {
    if let Some(e) = EXTRACTIONS.with(|m| m.borrow().get(&stage).cloned()) {
        return e;
    }
    let t0 = crate::js::now_ms();
    let e: Arc<Vec<Extraction>> = Arc::new(
        BENCH
            .iter()
            .map(|p| extract(p.test, &options(p, stage)))
            .collect(),
    );
    AUDIT_MS.with(|t| t.set(t.get() + crate::js::now_ms() - t0));
    EXTRACTIONS.with(|m| m.borrow_mut().insert(stage, e.clone()));
    e
}

/// The audit of the whole embedded bench under one stage.
pub fn audit(stage: Stage) -> Arc<Audit> {
    if let Some(a) = AUDITS.with(|m| m.borrow().get(&stage).cloned()) {
        return a;
    }
    let extractions = extractions(stage);
    let inputs: Vec<ProblemInput> = BENCH
        .iter()
        .zip(extractions.iter())
        .zip(metas())
        .map(|((p, e), m)| ProblemInput {
            extraction: e,
            meta: m.as_ref(),
            statement: p.statement,
            original_statement: p.original_statement,
        })
        .collect();
    let a = Arc::new(Audit::new(stage, &inputs));
    AUDITS.with(|m| m.borrow_mut().insert(stage, a.clone()));
    a
}

/// Each problem's comparison of a stage with the faithful extractor, by slug.
pub fn tallies(stage: Stage) -> Tallies {
    if let Some(t) = TALLIES.with(|m| m.borrow().get(&stage).cloned()) {
        return t;
    }
    let here = extractions(stage);
    let faithful = extractions(Stage::Full);
    let t: Tallies = Arc::new(
        BENCH
            .iter()
            .zip(here.iter().zip(faithful.iter()))
            .map(|(p, (h, f))| (p.slug.to_string(), tally(&compare(h, f))))
            .collect(),
    );
    TALLIES.with(|m| m.borrow_mut().insert(stage, t.clone()));
    t
}

/// Milliseconds the page has spent extracting the bench.
pub fn audit_ms() -> f64 {
    AUDIT_MS.with(|t| t.get())
}

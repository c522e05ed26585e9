//! The bench: each problem's slug, title and test file embedded at build time by `build.rs` (one
//! entry per folder of `problems/`); its statements, stubs, solutions and metadata fetched from
//! `bench.json` the first time a view needs them ([`with_files`]); and the whole-bench audits
//! computed from them in the page.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use bench_explorer::bench::{Audit, Meta, ProblemInput};
use bench_explorer::{extract, Extraction, Options, Stage};
use leptos::prelude::*;

use crate::logic::bench_files::{parse, ProblemFiles};
use crate::logic::compare::{compare, tally, Tally};

pub struct EmbeddedProblem {
    pub slug: &'static str,
    /// The test file's name, `test_<slug>.py`.
    pub test_name: &'static str,
    pub test: &'static str,
    /// `meta.toml`'s title (read by `build.rs`), for the problem picker.
    pub title: Option<&'static str>,
}

include!(concat!(env!("OUT_DIR"), "/bench_data.rs"));

pub fn problems() -> &'static [EmbeddedProblem] {
    BENCH
}

pub fn find(slug: &str) -> Option<&'static EmbeddedProblem> {
    BENCH.iter().find(|p| p.slug == slug)
}

/// Where `bench.json` is: not asked for yet, on its way, read, or the reason it is not.
#[derive(Clone, Debug, PartialEq)]
pub enum Files {
    NotLoaded,
    Loading,
    Ready,
    Failed(String),
}

type Waiter = Box<dyn FnOnce(Result<(), String>)>;

thread_local! {
    /// The fetched files, in bench order (kept for the page's life, hence `'static`).
    static FILES: std::cell::OnceCell<&'static [ProblemFiles]> = const { std::cell::OnceCell::new() };
    /// Reactive: a view that reads it shows the files once they arrive.
    static STATE: ArcRwSignal<Files> = ArcRwSignal::new(Files::NotLoaded);
    static WAITERS: RefCell<Vec<Waiter>> = const { RefCell::new(Vec::new()) };
}

/// The state of `bench.json` (tracked: a view that reads it is redrawn when it changes).
pub fn files_state() -> Files {
    STATE.with(|s| s.get())
}

pub fn files_ready() -> bool {
    FILES.with(|f| f.get().is_some())
}

/// Run `done` once the bench's files are here: at once when they are, else after fetching
/// `bench.json` from the page's own folder (one request however many wait; a failed one is tried
/// again by the next call). `done` gets the reason when they cannot be had.
pub fn with_files(done: impl FnOnce(Result<(), String>) + 'static) {
    if files_ready() {
        return done(Ok(()));
    }
    WAITERS.with(|w| w.borrow_mut().push(Box::new(done)));
    if STATE.with(|s| s.get_untracked()) == Files::Loading {
        return;
    }
    STATE.with(|s| s.set(Files::Loading));
    crate::js::fetch_text("bench.json", |text| {
        let slugs: Vec<&str> = BENCH.iter().map(|p| p.slug).collect();
        let result = text
            .map_err(|e| format!("bench.json could not be fetched: {e}"))
            .and_then(|t| parse(&t, &slugs));
        let result = match result {
            Ok(files) => {
                FILES.with(|f| {
                    let _ = f.set(&*Vec::leak(files));
                });
                STATE.with(|s| s.set(Files::Ready));
                Ok(())
            }
            Err(e) => {
                STATE.with(|s| s.set(Files::Failed(e.clone())));
                Err(e)
            }
        };
        for waiter in WAITERS.with(|w| std::mem::take(&mut *w.borrow_mut())) {
            waiter(result.clone());
        }
    });
}

fn files(slug: &str) -> Option<&'static ProblemFiles> {
    let i = BENCH.iter().position(|p| p.slug == slug)?;
    FILES.with(|f| f.get().map(|all| &all[i]))
}

/// Each problem's fetched files, in bench order; empty until [`with_files`] has them.
fn all_files() -> &'static [ProblemFiles] {
    FILES.with(|f| f.get().copied().unwrap_or(&[]))
}

impl EmbeddedProblem {
    /// The fetched files: `None` (every file missing) until [`with_files`] has them.
    fn files(&self) -> Option<&'static ProblemFiles> {
        files(self.slug)
    }

    pub fn statement(&self) -> Option<&'static str> {
        self.files()?.statement.as_deref()
    }

    /// The statement before its hidden convention was written in (clean_phone).
    pub fn original_statement(&self) -> Option<&'static str> {
        self.files()?.original_statement.as_deref()
    }

    pub fn stub(&self) -> Option<&'static str> {
        self.files()?.stub.as_deref()
    }

    pub fn solution(&self) -> Option<&'static str> {
        self.files()?.solution.as_deref()
    }
}

/// A problem's parsed `meta.toml` (`None` when missing or malformed, or until [`with_files`] has it).
pub fn meta(slug: &str) -> Option<&'static Meta> {
    files(slug)?.meta.as_ref()
}

/// The title of a problem: its metadata's, or the slug made readable.
pub fn title(slug: &str) -> String {
    find(slug)
        .and_then(|p| p.title)
        .map(str::to_string)
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
        pytest_version: Default::default(),
        ..Options::default()
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

/// The audit of the whole bench under one stage (its conventions read the fetched statements and
/// metadata: call it once [`with_files`] has them).
pub fn audit(stage: Stage) -> Arc<Audit> {
    if let Some(a) = AUDITS.with(|m| m.borrow().get(&stage).cloned()) {
        return a;
    }
    let extractions = extractions(stage);
    let files = all_files();
    let inputs: Vec<ProblemInput> = extractions
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let f = files.get(i);
            ProblemInput {
                extraction: e,
                meta: f.and_then(|f| f.meta.as_ref()),
                statement: f.and_then(|f| f.statement.as_deref()),
                original_statement: f.and_then(|f| f.original_statement.as_deref()),
            }
        })
        .collect();
    let a = Arc::new(Audit::new(stage, &inputs));
    if files_ready() {
        AUDITS.with(|m| m.borrow_mut().insert(stage, a.clone()));
    }
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

//! The Run tab's Mutants view, its state and actions: mutants of the chosen solution (the library's
//! generator), each run both ways in the Python worker one at a time, with the Run tab's time
//! limit, through the same requests as a file run; each reply judged by the library
//! (`logic::mutation`) and shown as it comes. Stop replaces the worker, as the Run tab's Stop does.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use bench_explorer::model::Extraction;
use bench_explorer::mutants::Mutant;
use bench_explorer::{extract, Stage};
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::logic::mutation::{judge, plan, MutantReport, MutantResult};
use crate::logic::run_results::request;
use crate::python;
use crate::run_control::{
    current_timeout_ms, effective_choice_untracked, solution_for, RunState, RunStatus,
};
use crate::state::AppState;
use crate::{engine, js};

#[derive(Clone, Debug, PartialEq)]
pub enum MutantStatus {
    Idle,
    Running,
    Done,
    /// Stopped with the Stop button (the worker was replaced).
    Stopped,
    Error(String),
}

impl MutantStatus {
    pub fn id(&self) -> &'static str {
        match self {
            MutantStatus::Idle => "idle",
            MutantStatus::Running => "running",
            MutantStatus::Done => "done",
            MutantStatus::Stopped => "stopped",
            MutantStatus::Error(_) => "error",
        }
    }
}

/// What a mutation run ran.
pub struct MutantRunInfo {
    pub solution_label: String,
    pub choice: &'static str,
    pub file_name: String,
    pub stage: Stage,
    pub limit_ms: u32,
    pub started_ms: f64,
    /// How long generating the mutants took, on the page.
    pub generate_ms: f64,
    /// The test file and the solution it ran, to tell when the results go stale.
    pub test_source: String,
    pub solution: String,
}

/// The Mutants view's state (part of the Run tab's).
#[derive(Clone, Copy)]
pub struct MutantState {
    pub status: RwSignal<MutantStatus>,
    pub mutants: RwSignal<Arc<Vec<Mutant>>>,
    /// In the order they came back (id order: one at a time).
    pub results: RwSignal<Vec<MutantResult>>,
    /// The mutant in the worker now.
    pub current: RwSignal<Option<usize>>,
    pub info: RwSignal<Option<Arc<MutantRunInfo>>>,
    pub finished_ms: RwSignal<Option<f64>>,
    /// The mutant picked (by id): shown beside the solution, kept in the view link.
    pub selected: RwSignal<Option<String>>,
}

impl MutantState {
    pub fn new() -> MutantState {
        MutantState {
            status: RwSignal::new(MutantStatus::Idle),
            mutants: RwSignal::new(Arc::new(Vec::new())),
            results: RwSignal::new(Vec::new()),
            current: RwSignal::new(None),
            info: RwSignal::new(None),
            finished_ms: RwSignal::new(None),
            selected: RwSignal::new(None),
        }
    }

    pub fn running(&self) -> bool {
        self.status.with(|s| *s == MutantStatus::Running)
    }

    pub fn running_untracked(&self) -> bool {
        self.status.with_untracked(|s| *s == MutantStatus::Running)
    }
}

impl Default for MutantState {
    fn default() -> Self {
        MutantState::new()
    }
}

thread_local! {
    /// The latest mutation run: steps of an older one stop.
    static SEQ: Cell<u64> = const { Cell::new(0) };
    static STOPPING: Cell<bool> = const { Cell::new(false) };
    static RUNS: Cell<u32> = const { Cell::new(0) };
}

/// What every step of one run shares.
struct Job {
    seq: u64,
    extraction: Extraction,
    mutants: Arc<Vec<Mutant>>,
    test_source: String,
    file_name: String,
    limit: u32,
}

/// Run every mutant of the chosen solution against the current file.
pub fn run_mutants(app: AppState, rs: RunState) {
    if !crate::run_control::bench_files_here(app, move || run_mutants(app, rs)) {
        return;
    }
    let ms = rs.mutants;
    if ms.running_untracked() {
        return;
    }
    if rs.bench.with_untracked(|b| b.running)
        || matches!(rs.status.get_untracked(), RunStatus::Running { .. })
    {
        engine::toast(app, "A run is under way: wait for it (or stop it) first");
        return;
    }
    let Some(text) = js::with_editor(|e| e.get_doc()) else {
        return;
    };
    let choice = effective_choice_untracked(app, rs);
    let (solution, label) = match solution_for(app, rs, choice) {
        Ok(s) => s,
        Err(message) => {
            ms.status.set(MutantStatus::Error(message));
            return;
        }
    };
    let started = js::now_ms();
    let mutants = Arc::new(plan(&solution));
    let generate_ms = js::now_ms() - started;
    let options = engine::current_options(app);
    let extraction = extract(&text, &options);
    let limit = current_timeout_ms(rs);
    let seq = SEQ.with(|s| {
        s.set(s.get() + 1);
        s.get()
    });
    STOPPING.with(|s| s.set(false));
    rs.permalink_pending.set(false);
    ms.info.set(Some(Arc::new(MutantRunInfo {
        solution_label: label,
        choice: choice.id(),
        file_name: options.file.clone(),
        stage: options.stage,
        limit_ms: limit,
        started_ms: started,
        generate_ms,
        test_source: text.clone(),
        solution,
    })));
    ms.mutants.set(mutants.clone());
    ms.results.set(Vec::new());
    ms.finished_ms.set(None);
    ms.status.set(MutantStatus::Running);
    js::hook_set("mutantsRunning", &JsValue::TRUE);
    let job = Rc::new(Job {
        seq,
        extraction,
        mutants,
        test_source: text,
        file_name: options.file,
        limit,
    });
    // The first mutant from a fresh task: the page paints the empty view first.
    next(rs, job, 0);
}

fn next(rs: RunState, job: Rc<Job>, i: usize) {
    set_timeout(move || step(rs, job, i), Duration::ZERO);
}

fn step(rs: RunState, job: Rc<Job>, i: usize) {
    if SEQ.with(|s| s.get()) != job.seq {
        return;
    }
    if STOPPING.with(|s| s.replace(false)) {
        finish(rs, MutantStatus::Stopped);
        return;
    }
    if i >= job.mutants.len() {
        finish(rs, MutantStatus::Done);
        return;
    }
    rs.mutants.current.set(Some(i));
    let j2 = job.clone();
    run_one(
        rs,
        &job.extraction,
        &job.mutants[i].source,
        &job.test_source,
        &job.file_name,
        job.limit,
        i,
        move |result| {
            let job = j2;
            if SEQ.with(|s| s.get()) != job.seq {
                return;
            }
            if STOPPING.with(|s| s.replace(false)) {
                finish(rs, MutantStatus::Stopped);
                return;
            }
            rs.mutants.results.update(|r| r.push(result));
            next(rs, job, i + 1);
        },
    );
}

/// Run one mutant both ways (the test file with pytest, the kept checks with the loop) in the
/// worker and judge the reply: the Mutants view and the whole-bench run "with mutants" share it.
#[allow(clippy::too_many_arguments)]
pub fn run_one(
    rs: RunState,
    extraction: &Extraction,
    mutant_source: &str,
    test_source: &str,
    file_name: &str,
    limit: u32,
    index: usize,
    done: impl FnOnce(MutantResult) + 'static,
) {
    let req = request(extraction, mutant_source, Some(test_source), file_name);
    let t0 = js::now_ms();
    let extraction = extraction.clone();
    python::run(rs.py, &req, limit, move |reply| {
        done(judge(&extraction, index, &reply, js::now_ms() - t0));
    });
}

/// Stop the mutation run: the worker is ended (the mutant in it with it) and a fresh one starts.
pub fn stop_mutants(rs: RunState) {
    if !rs.mutants.running_untracked() {
        return;
    }
    STOPPING.with(|s| s.set(true));
    python::restart(rs.py);
}

fn finish(rs: RunState, status: MutantStatus) {
    let ms = rs.mutants;
    let now = js::now_ms();
    ms.current.set(None);
    ms.finished_ms.set(Some(now));
    let hook_status = match status {
        MutantStatus::Stopped => "stopped",
        MutantStatus::Error(_) => "error",
        _ => "done",
    };
    ms.status.set(status);
    let info = ms.info.get_untracked();
    let report = ms.results.with_untracked(|r| {
        ms.mutants.with_untracked(|m| {
            MutantReport::new(
                info.as_ref().map_or("", |i| i.choice),
                m,
                r,
                hook_status,
                now - info.as_ref().map_or(now, |i| i.started_ms),
            )
        })
    });
    // Published once the results are on screen (the next frame).
    request_animation_frame(move || {
        let n = RUNS.with(|r| {
            r.set(r.get() + 1);
            r.get()
        });
        js::hook_set("mutantsRunning", &JsValue::FALSE);
        js::hook_set("lastMutantRun", &js::to_js(&report));
        js::hook_set("mutantRuns", &JsValue::from_f64(n as f64));
    });
}

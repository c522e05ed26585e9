//! Running Python from the page: the Run tab's state (provided as context, and kept in a
//! thread-local for code outside components), a run of the current file against a solution, and
//! the whole-bench run. The logic that turns replies into verdict rows and totals is in
//! `logic::run_results`; the worker is reached through `python`.
//!
//! Nothing runs by itself: a run starts only from the Run button, its shortcut, or the whole-bench
//! button. Code from a permalink is put in the editors and waits there (with a notice).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use bench_explorer::{extract, runner, Stage};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::logic::metrics;
use crate::logic::mutation::{
    bench_mutant_problems, plan as mutant_plan, BenchMutantsReport, ProblemMutants,
};
use crate::logic::run_results::{
    bench_plan, file_run, job_outcome, request, stage_totals, timeout_ms, BenchJob, BenchReport,
    FileRun, JobOutcome, JobResult, Reply, SolutionChoice, StageReport, Truth, DEFAULT_TIMEOUT_S,
};
use crate::mutant_run::MutantState;
use crate::python::{self, PyStatus};
use crate::state::{AppState, SourceOrigin, Tab};
use crate::{bench, engine, js};

/// The Run tab shows one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunMode {
    File,
    /// The current file against mutants of the chosen solution (`mutant_run`).
    Mutants,
    Bench,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RunStatus {
    Idle,
    /// Handed to the worker at `started` (performance.now()); it may still be starting.
    Running {
        started: f64,
    },
    Done,
    TimedOut {
        limit_ms: f64,
        restarted: bool,
    },
    Error {
        message: String,
    },
    /// Stopped with the Stop button (the worker was replaced).
    Stopped,
}

impl RunStatus {
    pub fn id(&self) -> &'static str {
        match self {
            RunStatus::Idle => "idle",
            RunStatus::Running { .. } => "running",
            RunStatus::Done => "done",
            RunStatus::TimedOut { .. } => "timeout",
            RunStatus::Error { .. } => "error",
            RunStatus::Stopped => "stopped",
        }
    }
}

/// One run of the current file, with what it ran.
pub struct FileRunView {
    pub run: FileRun,
    pub test_source: String,
    pub solution: String,
    pub solution_label: String,
    pub file_name: String,
    /// From the click to the reply.
    pub wall_ms: f64,
}

/// The whole-bench run (the last one, or the one under way).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchState {
    pub running: bool,
    pub cancel_requested: bool,
    pub cancelled: bool,
    pub choice: SolutionChoice,
    pub stages: Vec<Stage>,
    pub problems: usize,
    pub planned: usize,
    pub results: Vec<JobResult>,
    /// The job being run: slug and stage.
    pub current: Option<(String, Stage)>,
    pub started_ms: f64,
    pub finished_ms: Option<f64>,
    pub pytest_runs: usize,
    pub pytest_ms: f64,
    /// "With mutants": after the runs above, every mutant of each problem's reference solution,
    /// both ways (`mutant_run::run_one`), under the "full" stage and the same time limit.
    pub with_mutants: bool,
    /// How many problems the mutation part covers.
    pub mutant_problems: usize,
    /// One row per problem started, in the bench's order.
    pub mutants: Vec<ProblemMutants>,
    /// The mutant in the worker now: slug and index.
    pub mutant_current: Option<(String, usize)>,
}

impl BenchState {
    pub fn wall_ms(&self, now: f64) -> f64 {
        self.finished_ms.unwrap_or(now) - self.started_ms
    }
}

#[derive(Clone, Copy)]
pub struct RunState {
    pub py: PyStatus,
    pub mode: RwSignal<RunMode>,
    pub choice: RwSignal<SolutionChoice>,
    /// The Run tab's own editor's text (`None` until it is first shown).
    pub custom_code: RwSignal<Option<String>>,
    /// The time limit as typed, in seconds.
    pub timeout_text: RwSignal<String>,
    pub status: RwSignal<RunStatus>,
    pub result: RwSignal<Option<Arc<FileRunView>>>,
    /// Code arrived through a permalink and has not been run yet: the notice shows.
    pub permalink_pending: RwSignal<bool>,
    pub bench: RwSignal<BenchState>,
    /// The stage the whole-bench run covers (`None`: all four).
    pub bench_stage: RwSignal<Option<Stage>>,
    pub bench_choice: RwSignal<SolutionChoice>,
    /// The stage whose problem-by-problem table is shown.
    pub bench_detail: RwSignal<Stage>,
    /// The Mutants view's run.
    pub mutants: MutantState,
    /// The whole-bench run's "with mutants" box.
    pub bench_with_mutants: RwSignal<bool>,
}

thread_local! {
    /// The latest file run: replies to older ones are ignored.
    static RUN_SEQ: Cell<u64> = const { Cell::new(0) };
    static STOPPING: Cell<bool> = const { Cell::new(false) };
    static RUNS: Cell<u32> = const { Cell::new(0) };
    static BENCH_RUNS: Cell<u32> = const { Cell::new(0) };
    static BENCH_TRUTHS: RefCell<HashMap<usize, Truth>> = RefCell::new(HashMap::new());
}

impl RunState {
    pub fn new() -> RunState {
        RunState {
            py: PyStatus::new(),
            mode: RwSignal::new(RunMode::File),
            choice: RwSignal::new(SolutionChoice::Reference),
            custom_code: RwSignal::new(None),
            timeout_text: RwSignal::new(format_seconds(DEFAULT_TIMEOUT_S)),
            status: RwSignal::new(RunStatus::Idle),
            result: RwSignal::new(None),
            permalink_pending: RwSignal::new(false),
            bench: RwSignal::new(BenchState::default()),
            bench_stage: RwSignal::new(None),
            bench_choice: RwSignal::new(SolutionChoice::Reference),
            bench_detail: RwSignal::new(Stage::AsWritten),
            mutants: MutantState::new(),
            bench_with_mutants: RwSignal::new(false),
        }
    }
}

impl Default for RunState {
    fn default() -> Self {
        RunState::new()
    }
}

pub fn use_run() -> RunState {
    expect_context::<RunState>()
}

fn format_seconds(s: f64) -> String {
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}

/// The solution a run uses: the chosen one, except outside the bench, where there is no reference
/// or stub and only "your code" can run (the choice comes back with a bench problem). Tracked.
pub fn effective_choice(app: AppState, rs: RunState) -> SolutionChoice {
    if app.problem.get().is_none() {
        SolutionChoice::Custom
    } else {
        rs.choice.get()
    }
}

/// [`effective_choice`], untracked.
pub fn effective_choice_untracked(app: AppState, rs: RunState) -> SolutionChoice {
    untrack(|| effective_choice(app, rs))
}

/// The time limit in milliseconds (the default when the field does not hold a number).
pub fn current_timeout_ms(rs: RunState) -> u32 {
    timeout_ms(&rs.timeout_text.get_untracked()).unwrap_or((DEFAULT_TIMEOUT_S * 1000.0) as u32)
}

/// Start Python in the background once the page is interactive: after the first extraction is on
/// screen, when the browser is idle (at most a second later).
pub fn start_in_background(rs: RunState) {
    let go = Closure::once_into_js(move || python::start(rs.py));
    let w = window();
    let idle = js_sys::Reflect::get(&w, &JsValue::from_str("requestIdleCallback"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match idle {
        Some(f) => {
            #[derive(serde::Serialize)]
            struct IdleOptions {
                timeout: f64,
            }
            let opts = js::to_js(&IdleOptions { timeout: 1000.0 });
            let _ = f.call2(&w, &go, &opts);
        }
        None => {
            let f: js_sys::Function = go.unchecked_into();
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&f, 200);
        }
    }
}

// ------------------------------------------------------------------------------ solutions

/// A run reads the bench's solutions and stubs, fetched with `bench.json`: whether they are here.
/// When they are not, they are asked for, and `then` runs once they arrive (or the reason they did
/// not is shown).
pub fn bench_files_here(app: AppState, then: impl FnOnce() + 'static) -> bool {
    if bench::files_ready() {
        return true;
    }
    bench::with_files(move |r| match r {
        Ok(()) => then(),
        Err(e) => engine::toast(app, format!("Nothing was run: {e}")),
    });
    false
}

/// The code a run of `choice` executes, with a label for the results; an error names what is missing.
pub fn solution_for(
    app: AppState,
    rs: RunState,
    choice: SolutionChoice,
) -> Result<(String, String), String> {
    let problem = app.problem.get_untracked().and_then(bench::find);
    if problem.is_some() && choice != SolutionChoice::Custom && !bench::files_ready() {
        return Err(
            "The bench's solutions and stubs are still loading: try again in a moment.".into(),
        );
    }
    match choice {
        SolutionChoice::Custom => {
            let code = rs
                .custom_code
                .get_untracked()
                .unwrap_or_else(|| default_custom_code(app));
            Ok((code, "your code".into()))
        }
        SolutionChoice::Reference => match problem.and_then(|p| p.solution().map(|s| (p.slug, s))) {
            Some((slug, s)) => Ok((s.to_string(), format!("the reference solution of {slug}"))),
            None => Err("This file is not a bench problem, so it has no reference solution: choose “Your code”.".into()),
        },
        SolutionChoice::Stub => match problem.and_then(|p| p.stub().map(|s| (p.slug, s))) {
            Some((slug, s)) => Ok((s.to_string(), format!("the stub of {slug}"))),
            None => Err("This file is not a bench problem, so it has no stub: choose “Your code”.".into()),
        },
    }
}

pub const CUSTOM_TEMPLATE: &str = "\
# The solution module: the tests import its names (`from solution import add`).
def add(a, b):
    return a + b
";

/// What the Run tab's editor starts with: the problem's reference solution, to edit (introduce a
/// bug, try another approach); outside the bench, a small template.
pub fn default_custom_code(app: AppState) -> String {
    app.problem
        .get_untracked()
        .and_then(bench::find)
        .and_then(|p| p.solution())
        .map(str::to_string)
        .unwrap_or_else(|| CUSTOM_TEMPLATE.to_string())
}

// ------------------------------------------------------------------------------ one file

/// Run the current file against the chosen solution: both views, then the verdicts.
pub fn run_file(app: AppState, rs: RunState) {
    if !bench_files_here(app, move || run_file(app, rs)) {
        return;
    }
    if rs.bench.with_untracked(|b| b.running) {
        engine::toast(app, "The whole bench is running: cancel it first");
        return;
    }
    if rs.mutants.running_untracked() {
        engine::toast(app, "The mutants are running: stop them first");
        return;
    }
    let Some(text) = js::with_editor(|e| e.get_doc()) else {
        return;
    };
    let choice = effective_choice_untracked(app, rs);
    let (solution, label) = match solution_for(app, rs, choice) {
        Ok(s) => s,
        Err(message) => {
            rs.status.set(RunStatus::Error { message });
            return;
        }
    };
    // Extract the editor's text as it is now (the views may be a frame behind).
    let options = engine::current_options(app);
    let extraction = extract(&text, &options);
    let file_name = options.file.clone();
    let req = request(&extraction, &solution, Some(&text), &file_name);
    let limit = current_timeout_ms(rs);
    let seq = RUN_SEQ.with(|s| {
        s.set(s.get() + 1);
        s.get()
    });
    STOPPING.with(|s| s.set(false));
    rs.permalink_pending.set(false);
    let started = js::now_ms();
    rs.status.set(RunStatus::Running { started });
    js::hook_set("lastRunStatus", &JsValue::from_str("running"));

    python::run(rs.py, &req, limit, move |reply| {
        if RUN_SEQ.with(|s| s.get()) != seq {
            return;
        }
        let wall = js::now_ms() - started;
        let (status, view) = match reply {
            Reply::Result(runner::Reply {
                evals,
                pytest,
                timings,
            }) => {
                let run = file_run(&extraction, &evals, pytest.as_ref(), timings);
                (
                    RunStatus::Done,
                    Some(Arc::new(FileRunView {
                        run,
                        test_source: text,
                        solution,
                        solution_label: label,
                        file_name,
                        wall_ms: wall,
                    })),
                )
            }
            Reply::Timeout {
                timeout_ms,
                restarted,
            } => (
                RunStatus::TimedOut {
                    limit_ms: if timeout_ms > 0.0 {
                        timeout_ms
                    } else {
                        limit as f64
                    },
                    restarted,
                },
                None,
            ),
            Reply::Error {
                message,
                python_type,
                fatal,
            } => {
                let mut m = match python_type {
                    Some(t) if !message.starts_with(&t) => format!("{t}: {message}"),
                    _ => message,
                };
                if fatal {
                    m.push_str(" (the Python worker is being replaced)");
                }
                (RunStatus::Error { message: m }, None)
            }
            Reply::Failed { message } => {
                if STOPPING.with(|s| s.replace(false)) {
                    (RunStatus::Stopped, None)
                } else {
                    (RunStatus::Error { message }, None)
                }
            }
        };
        let hook_status = status.id();
        let summary = view.as_ref().map(|v| {
            let r = &v.run;
            (
                r.summary.clone(),
                r.count(bench_explorer::verdict::Verdict::Agree),
                r.timings.total_ms,
            )
        });
        rs.result.set(view);
        rs.status.set(status);
        // Metrics, once the results are on screen (the next frame).
        request_animation_frame(move || {
            let shown = js::now_ms();
            let n = RUNS.with(|r| {
                r.set(r.get() + 1);
                r.get()
            });
            js::publish(&metrics::FileRunShown {
                runs: n as f64,
                last_run_ms: shown - started,
                last_run_status: hook_status,
                last_run_python_ms: summary.as_ref().map(|(_, _, python_ms)| *python_ms),
                last_run: summary
                    .as_ref()
                    .map(|(s, agree, _)| metrics::RunTotals::new(s, *agree)),
            });
        });
    });
}

/// Stop the run under way: the worker is ended and a fresh one starts.
pub fn stop(rs: RunState) {
    STOPPING.with(|s| s.set(true));
    python::restart(rs.py);
}

/// Keyboard: Ctrl+Enter (⌘+Enter) runs the current file from anywhere on the page, the editors
/// included (captured before CodeMirror would insert a line).
pub fn install_shortcut(app: AppState, rs: RunState) {
    let f = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) && !ev.alt_key() {
            ev.prevent_default();
            ev.stop_propagation();
            app.tab.set(Tab::Run);
            rs.mode.set(RunMode::File);
            if !matches!(rs.status.get_untracked(), RunStatus::Running { .. }) {
                run_file(app, rs);
            }
        }
    });
    let _ = window().add_event_listener_with_callback_and_bool(
        "keydown",
        f.as_ref().unchecked_ref(),
        true,
    );
    f.forget();
}

/// A permalink's code waits for a click: the notice stays until then.
pub fn follow_problem(app: AppState, rs: RunState) {
    Effect::new(move |_| {
        if app.origin.get() == SourceOrigin::Permalink {
            rs.permalink_pending.set(true);
        }
    });
}

// ------------------------------------------------------------------------------ whole bench

/// Run every problem's reference (or stub) through both views, under each chosen stage.
pub fn run_bench(app: AppState, rs: RunState) {
    if !bench_files_here(app, move || run_bench(app, rs)) {
        return;
    }
    if rs.bench.with_untracked(|b| b.running) {
        return;
    }
    if matches!(rs.status.get_untracked(), RunStatus::Running { .. })
        || rs.mutants.running_untracked()
    {
        engine::toast(app, "A run is under way: wait for it (or stop it) first");
        return;
    }
    let stages: Vec<Stage> = match rs.bench_stage.get_untracked() {
        Some(s) => vec![s],
        None => Stage::ALL.to_vec(),
    };
    let choice = match rs.bench_choice.get_untracked() {
        SolutionChoice::Stub => SolutionChoice::Stub,
        _ => SolutionChoice::Reference,
    };
    let problems = bench::problems().len();
    let plan = Rc::new(bench_plan(problems, &stages));
    BENCH_TRUTHS.with(|t| t.borrow_mut().clear());
    if !stages.contains(&rs.bench_detail.get_untracked()) {
        rs.bench_detail.set(stages[0]);
    }
    let with_mutants = rs.bench_with_mutants.get_untracked();
    rs.bench.set(BenchState {
        running: true,
        choice,
        stages,
        problems,
        with_mutants,
        planned: plan.len(),
        started_ms: js::now_ms(),
        ..BenchState::default()
    });
    js::hook_set("benchRunning", &JsValue::TRUE);
    bench_step(rs, plan, 0, current_timeout_ms(rs));
}

pub fn cancel_bench(rs: RunState) {
    let mut in_mutant = false;
    rs.bench.update(|b| {
        if b.running {
            b.cancel_requested = true;
            in_mutant = b.mutant_current.is_some();
        }
    });
    // A mutant may loop until the time limit: the worker is replaced (its reply ends the run).
    if in_mutant {
        python::restart(rs.py);
    }
}

fn bench_step(rs: RunState, plan: Rc<Vec<BenchJob>>, i: usize, limit: u32) {
    let cancel = rs.bench.with_untracked(|b| b.cancel_requested);
    if !cancel && i >= plan.len() && rs.bench.with_untracked(|b| b.with_mutants) {
        start_bench_mutants(rs, limit);
        return;
    }
    if cancel || i >= plan.len() {
        finish_bench(rs, cancel);
        return;
    }
    let job = plan[i];
    let p = &bench::problems()[job.problem];
    let choice = rs.bench.with_untracked(|b| b.choice);
    let solution = match choice {
        SolutionChoice::Stub => p.stub(),
        _ => p.solution(),
    };
    rs.bench
        .update(|b| b.current = Some((p.slug.to_string(), job.stage)));
    let Some(solution) = solution else {
        push_result(rs, job, p.slug, JobOutcome::Skipped, 0.0, None);
        next_step(rs, plan, i + 1, limit);
        return;
    };
    let extractions = bench::extractions(job.stage);
    let truth = BENCH_TRUTHS.with(|t| t.borrow().get(&job.problem).cloned());
    let test_source = truth.is_none().then_some(p.test);
    let req = request(
        &extractions[job.problem],
        solution,
        test_source,
        p.test_name,
    );
    python::run(rs.py, &req, limit, move |reply| {
        let (outcome, loop_ms, pytest_ms) = match reply {
            Reply::Result(runner::Reply {
                evals,
                pytest,
                timings,
            }) => {
                let mut pytest_ms = None;
                let truth = match (truth, pytest) {
                    (Some(t), _) => t,
                    (None, Some(p)) => {
                        let t = Truth::from_pytest(&p);
                        BENCH_TRUTHS.with(|m| m.borrow_mut().insert(job.problem, t.clone()));
                        pytest_ms = Some(timings.pytest_ms);
                        t
                    }
                    (None, None) => Truth::default(),
                };
                (
                    job_outcome(&extractions[job.problem], &evals, &truth),
                    timings.eval_ms,
                    pytest_ms,
                )
            }
            Reply::Timeout { .. } => (JobOutcome::TimedOut, 0.0, None),
            Reply::Error { message, .. } | Reply::Failed { message } => {
                (JobOutcome::Failed(message), 0.0, None)
            }
        };
        let slug = bench::problems()[job.problem].slug;
        push_result(rs, job, slug, outcome, loop_ms, pytest_ms);
        next_step(rs, plan, i + 1, limit);
    });
}

/// The next job, from a fresh task (no deep recursion, and the page gets to paint).
fn next_step(rs: RunState, plan: Rc<Vec<BenchJob>>, i: usize, limit: u32) {
    set_timeout(move || bench_step(rs, plan, i, limit), Duration::ZERO);
}

fn push_result(
    rs: RunState,
    job: BenchJob,
    slug: &str,
    outcome: JobOutcome,
    loop_ms: f64,
    pytest_ms: Option<f64>,
) {
    rs.bench.update(|b| {
        if let Some(ms) = pytest_ms {
            b.pytest_runs += 1;
            b.pytest_ms += ms;
        }
        b.results.push(JobResult {
            job,
            slug: slug.to_string(),
            outcome,
            loop_ms,
            pytest_ms,
        });
    });
}

/// The whole-bench run's mutation part: which problems, under which extraction.
struct BenchMutantJob {
    problems: Vec<usize>,
    extractions: Arc<Vec<bench_explorer::model::Extraction>>,
    limit: u32,
}

/// The problems a whole-bench mutation run covers: every one, or the slugs in the test hook
/// `window.__benchExplorer.benchMutantProblems` (an array).
fn hook_mutant_problems() -> Option<Vec<String>> {
    let v = js_sys::Reflect::get(&js::hook(), &JsValue::from_str("benchMutantProblems")).ok()?;
    if !js_sys::Array::is_array(&v) {
        return None;
    }
    Some(
        js_sys::Array::from(&v)
            .iter()
            .filter_map(|x| x.as_string())
            .collect(),
    )
}

fn start_bench_mutants(rs: RunState, limit: u32) {
    let slugs: Vec<&str> = bench::problems().iter().map(|p| p.slug).collect();
    let only = hook_mutant_problems();
    let problems = bench_mutant_problems(&slugs, only.as_deref());
    rs.bench.update(|b| {
        b.current = None;
        b.mutant_problems = problems.len();
    });
    let job = Rc::new(BenchMutantJob {
        problems,
        extractions: bench::extractions(Stage::Full),
        limit,
    });
    set_timeout(move || bench_mutant_problem(rs, job, 0), Duration::ZERO);
}

/// Generate problem `k`'s mutants (a task of its own), then run them.
fn bench_mutant_problem(rs: RunState, job: Rc<BenchMutantJob>, k: usize) {
    if rs.bench.with_untracked(|b| b.cancel_requested) || k >= job.problems.len() {
        let cancel = rs.bench.with_untracked(|b| b.cancel_requested);
        finish_bench(rs, cancel);
        return;
    }
    let p = &bench::problems()[job.problems[k]];
    let mutants = Rc::new(p.solution().map(mutant_plan).unwrap_or_default());
    rs.bench.update(|b| {
        b.mutants.push(ProblemMutants {
            slug: p.slug.to_string(),
            planned: mutants.len(),
            runs: Vec::new(),
        })
    });
    set_timeout(
        move || bench_mutant_step(rs, job, k, mutants, 0),
        Duration::ZERO,
    );
}

fn bench_mutant_step(
    rs: RunState,
    job: Rc<BenchMutantJob>,
    k: usize,
    mutants: Rc<Vec<bench_explorer::mutants::Mutant>>,
    m: usize,
) {
    if rs.bench.with_untracked(|b| b.cancel_requested) {
        finish_bench(rs, true);
        return;
    }
    if m >= mutants.len() {
        set_timeout(move || bench_mutant_problem(rs, job, k + 1), Duration::ZERO);
        return;
    }
    let problem = job.problems[k];
    let p = &bench::problems()[problem];
    rs.bench
        .update(|b| b.mutant_current = Some((p.slug.to_string(), m)));
    let (j2, m2) = (job.clone(), mutants.clone());
    crate::mutant_run::run_one(
        rs,
        &job.extractions[problem],
        &mutants[m].source,
        p.test,
        p.test_name,
        job.limit,
        m,
        move |result| {
            if rs.bench.with_untracked(|b| b.cancel_requested) {
                finish_bench(rs, true);
                return;
            }
            rs.bench.update(|b| {
                if let Some(row) = b.mutants.last_mut() {
                    row.runs.push((result.outcome, result.difference));
                }
            });
            set_timeout(
                move || bench_mutant_step(rs, j2, k, m2, m + 1),
                Duration::ZERO,
            );
        },
    );
}

fn finish_bench(rs: RunState, cancelled: bool) {
    if !rs.bench.with_untracked(|b| b.running) {
        return;
    }
    let now = js::now_ms();
    rs.bench.update(|b| {
        b.running = false;
        b.cancelled = cancelled;
        b.cancel_requested = false;
        b.current = None;
        b.mutant_current = None;
        b.finished_ms = Some(now);
    });
    let b = rs.bench.get_untracked();
    let report = BenchReport {
        solution: b.choice.id(),
        problems: b.problems,
        stages: b
            .stages
            .iter()
            .map(|s| StageReport::from(&stage_totals(*s, b.problems, &b.results)))
            .collect(),
        pytest_runs: b.pytest_runs,
        pytest_ms: (b.pytest_ms * 10.0).round() / 10.0,
        wall_ms: b.wall_ms(now),
        cancelled,
        mutants: b.with_mutants.then(|| BenchMutantsReport::new(&b.mutants)),
    };
    let wall = b.wall_ms(now);
    request_animation_frame(move || {
        let n = BENCH_RUNS.with(|r| {
            r.set(r.get() + 1);
            r.get()
        });
        js::publish(&metrics::BenchRunShown {
            bench_running: false,
            bench_runs: n as f64,
            last_bench_run_ms: wall,
            last_bench_run: &report,
        });
    });
}

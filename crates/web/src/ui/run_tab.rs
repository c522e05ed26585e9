//! The Run tab: the current file run against a solution in Python (Pyodide in a Web Worker), the
//! bench loop's view beside real pytest's, with the library's verdict per assertion; and the whole
//! bench run under each stage, summarised like the write-up's tables.

use std::cell::RefCell;
use std::sync::Arc;

use bench_explorer::mutation::Tally;
use bench_explorer::verdict::{EvalOutcome, PytestOutcome, Verdict};
use bench_explorer::Stage;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::common::plural;
use crate::js::{self, EditorHandle, EditorOptions};
use crate::logic::grouping::split_case;
use crate::logic::mutation::{bench_tally, percent};
use crate::logic::run_results::{
    format_ms, headline, pytest_tally, stage_totals, JobOutcome, PyState, RowGroup, RunRow,
    SolutionChoice, StageTotals, PY_STEPS,
};
use crate::logic::teach::stage_short;
use crate::run_control::{
    cancel_bench, default_custom_code, effective_choice, run_bench, run_file, stop, use_run,
    FileRunView, RunMode, RunState, RunStatus,
};
use crate::state::{use_app, SourceOrigin, Tab};
use crate::{bench, engine, python};

/// Rows shown before "show more".
const PAGE: usize = 300;

/// The order verdicts are listed in: what matters first.
const VERDICT_ORDER: [Verdict; 6] = [
    Verdict::MeasurementBug,
    Verdict::SolutionBug,
    Verdict::Agree,
    Verdict::NotMeasured,
    Verdict::PhantomPass,
    Verdict::FailsElsewhere,
];

fn verdict_icon(v: Verdict) -> &'static str {
    match v {
        Verdict::MeasurementBug => "⚠",
        Verdict::SolutionBug => "✕",
        Verdict::Agree => "✓",
        Verdict::NotMeasured => "–",
        Verdict::PhantomPass => "?",
        Verdict::FailsElsewhere => "!",
    }
}

/// Whose fault a failing check is, in three words.
fn blame(v: Verdict) -> Option<&'static str> {
    match v {
        Verdict::MeasurementBug => Some("the extractor's fault"),
        Verdict::SolutionBug => Some("the solution's fault"),
        _ => None,
    }
}

fn eval_icon(e: EvalOutcome) -> &'static str {
    match e {
        EvalOutcome::Pass => "✓",
        EvalOutcome::Fail => "✕",
        EvalOutcome::Error => "✕",
    }
}

fn pytest_icon(o: PytestOutcome) -> &'static str {
    match o {
        PytestOutcome::Passed | PytestOutcome::Xpassed => "✓",
        PytestOutcome::Failed | PytestOutcome::Error => "✕",
        _ => "–",
    }
}

// ------------------------------------------------------------------------------ Python status

/// The small status dot on the Run tab.
#[component]
pub fn PyDot() -> impl IntoView {
    let rs = use_run();
    view! {
        <span class="py-dot" aria-hidden="true" data-testid="py-dot"
            data-state=move || rs.py.state.with(|p| p.id())
            title=move || rs.py.state.with(|p| p.label())></span>
    }
}

/// Python's start-up, with its progress; a retry when it failed.
#[component]
fn PyStatus() -> impl IntoView {
    let rs = use_run();
    view! {
        <div class="py-status" data-testid="py-progress" role="status" aria-live="polite"
            data-state=move || rs.py.state.with(|p| p.id())>
            <span class="py-dot" data-state=move || rs.py.state.with(|p| p.id()) aria-hidden="true"></span>
            <span class="py-label">{move || rs.py.state.with(|p| p.label())}</span>
            {move || match rs.py.state.get() {
                PyState::Loading { step, .. } => view! {
                    <progress class="py-bar" max=PY_STEPS.to_string() value=step.to_string()
                        aria-label="Python start-up"></progress>
                }.into_any(),
                PyState::Ready => view! {
                    <span class="muted small">{move || rs.py.load_ms.get().map(|ms| format!("started in {}", format_ms(ms))).unwrap_or_default()}</span>
                }.into_any(),
                PyState::Failed { message } => view! {
                    <span class="py-error" title=message.clone()>{message.clone()}</span>
                    <button class="btn small" on:click=move |_| python::restart(rs.py)>"Retry"</button>
                }.into_any(),
                _ => ().into_any(),
            }}
        </div>
    }
}

// ------------------------------------------------------------------------------ the tab

/// Scroll the run's headline into view (nearest edge, so nothing moves when it is already shown).
fn reveal_verdict() {
    let doc = document();
    let el = doc
        .query_selector("[data-testid='run-headline']")
        .ok()
        .flatten()
        .or_else(|| {
            doc.query_selector("[data-testid='run-status']")
                .ok()
                .flatten()
        });
    if let Some(el) = el {
        let opts = web_sys::ScrollIntoViewOptions::new();
        opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
        el.scroll_into_view_with_scroll_into_view_options(&opts);
        crate::js::hook_set(
            "verdictRevealed",
            &wasm_bindgen::JsValue::from_f64(crate::js::now_ms()),
        );
    }
}

#[component]
pub fn RunPanel() -> impl IntoView {
    let rs = use_run();
    let mode = rs.mode;
    let segment = move |m: RunMode, id: &'static str, label: &'static str| {
        view! {
            <label class="segment" class:active=move || mode.get() == m>
                <input type="radio" name="run-mode" value=id data-testid=format!("run-mode-{id}")
                    prop:checked=move || mode.get() == m
                    on:change=move |_| mode.set(m)/>
                <span>{label}</span>
            </label>
        }
    };
    // After every run, its verdict headline (or the status, if the run gave no result) is brought
    // into view: pressing Run always changes something the user can see.
    Effect::new(move |prev: Option<()>| {
        rs.result.track();
        let running = rs
            .status
            .with(|s| matches!(s, crate::run_control::RunStatus::Running { .. }));
        if prev.is_some() && !running {
            request_animation_frame(reveal_verdict);
        }
    });
    view! {
        <div class="run-panel" data-testid="run-panel">
            <div class="run-top">
                <fieldset class="segmented small" data-testid="run-mode">
                    <legend class="visually-hidden">"What to run"</legend>
                    {segment(RunMode::File, "file", "This file")}
                    {segment(RunMode::Mutants, "mutants", "Mutants")}
                    {segment(RunMode::Bench, "bench", "Whole bench")}
                </fieldset>
                <label class="field" title="Each run (each problem, in a whole-bench run) ends after this long; the worker is then replaced">
                    <span class="field-label">"Time limit"</span>
                    <input type="number" class="num-input" min="0.5" max="300" step="0.5" data-testid="run-timeout"
                        aria-label="Time limit per run, in seconds"
                        prop:value=move || rs.timeout_text.get()
                        on:input=move |ev| rs.timeout_text.set(event_target_value(&ev))/>
                    <span class="unit">"s"</span>
                </label>
                <span class="spacer"></span>
                <PyStatus/>
            </div>
            {move || match mode.get() {
                RunMode::File => view! { <FileMode/> }.into_any(),
                RunMode::Mutants => view! { <super::mutants::MutantsMode/> }.into_any(),
                RunMode::Bench => view! { <BenchMode/> }.into_any(),
            }}
        </div>
    }
}

// ------------------------------------------------------------------------------ one file

#[component]
fn FileMode() -> impl IntoView {
    let app = use_app();
    let rs = use_run();
    let running = move || matches!(rs.status.get(), RunStatus::Running { .. });
    let bench_busy = move || rs.bench.with(|b| b.running) || rs.mutants.running();

    view! {
        <div class="run-file">
            <PermalinkNotice/>
            <div class="run-toolbar">
                <SolutionPicker/>
                <Show when=running>
                    <button class="btn" data-testid="run-stop" title="Stop this run: the Python worker is replaced"
                        on:click=move |_| stop(rs)>"Stop"</button>
                </Show>
                <button class="btn primary run-btn" data-testid="run-button"
                    title="Run the bench loop and pytest on this file (Ctrl+Enter)"
                    disabled=move || running() || bench_busy()
                    on:click=move |_| run_file(app, rs)>
                    <svg class="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d="M4 2.5v11l9-5.5z" fill="currentColor"/></svg>
                    {move || if running() { "Running…" } else { "Run" }}
                    <kbd class="kbd">"Ctrl ↵"</kbd>
                </button>
            </div>
            <Show when=move || effective_choice(app, rs) == SolutionChoice::Custom>
                <SolutionEditor/>
            </Show>
            <StatusLine/>
            {move || rs.result.get().map(|v| view! { <FileResults view=v/> })}
            <Show when=move || rs.result.with(|r| r.is_none()) && matches!(rs.status.get(), RunStatus::Idle)>
                <Explainer/>
            </Show>
        </div>
    }
}

/// Which solution a run executes, and where it comes from (the file runs and the Mutants view).
#[component]
pub(super) fn SolutionPicker() -> impl IntoView {
    let app = use_app();
    let rs = use_run();
    let has_problem = move || app.problem.get().is_some();
    view! {
        <label class="field">
            <span class="field-label">"Solution"</span>
            <select data-testid="run-solution-select" aria-label="Solution to run"
                prop:value=move || effective_choice(app, rs).id()
                on:change=move |ev| {
                    if let Some(c) = SolutionChoice::from_id(&event_target_value(&ev)) { rs.choice.set(c); }
                }>
                {SolutionChoice::ALL.into_iter().map(|c| {
                    let needs_problem = c != SolutionChoice::Custom;
                    view! {
                        <option value=c.id() disabled=move || needs_problem && !has_problem()>{c.label()}</option>
                    }
                }).collect_view()}
            </select>
        </label>
        <span class="muted small solution-note">
            {move || {
                let slug = app.problem.get();
                match (effective_choice(app, rs), slug) {
                    (SolutionChoice::Reference, Some(s)) => format!("problems/{s}/solution.py"),
                    (SolutionChoice::Stub, Some(s)) => format!("problems/{s}/stub.py"),
                    (SolutionChoice::Custom, _) => "solution.py, from the editor below".to_string(),
                    _ => String::new(),
                }
            }}
        </span>
    }
}

/// Code from a permalink waits for a click.
#[component]
pub(super) fn PermalinkNotice() -> impl IntoView {
    let app = use_app();
    let rs = use_run();
    let visible = move || {
        rs.permalink_pending.get()
            && (app.origin.get() == SourceOrigin::Permalink
                || effective_choice(app, rs) == SolutionChoice::Custom)
    };
    view! {
        <Show when=visible>
            <div class="notice info run-notice" role="note" data-testid="permalink-run-notice">
                <strong>"This code came from a permalink. "</strong>
                "Nothing has run. Read the test file"
                {move || if effective_choice(app, rs) == SolutionChoice::Custom { " and the solution" } else { "" }}
                " first: it runs in a sandboxed Python worker, and only when you press Run."
            </div>
        </Show>
    }
}

thread_local! {
    static SOLUTION_EDITOR: RefCell<Option<EditorHandle>> = const { RefCell::new(None) };
}

/// The second editor: the solution module, typed, pasted or opened.
#[component]
pub(super) fn SolutionEditor() -> impl IntoView {
    let app = use_app();
    let rs = use_run();
    let host = NodeRef::<html::Div>::new();
    let file_input = NodeRef::<html::Input>::new();

    if rs.custom_code.with_untracked(|c| c.is_none()) {
        rs.custom_code.set(Some(default_custom_code(app)));
    }

    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(el) = host.get() else { return false };
        let opts = EditorOptions {
            doc: rs.custom_code.get_untracked().unwrap_or_default(),
            read_only: false,
            label: "Your solution (Python)",
            testid: "solution-editor-content",
            on_change: Some(Box::new(move || {
                let text = SOLUTION_EDITOR.with(|e| e.borrow().as_ref().map(|e| e.get_doc()));
                if let Some(text) = text {
                    if rs
                        .custom_code
                        .with_untracked(|c| c.as_deref() != Some(text.as_str()))
                    {
                        rs.custom_code.set(Some(text));
                    }
                }
            })),
            on_cursor: None,
        };
        let editor = js::create_editor(&el, &opts.into_js());
        js::hook_set("solutionEditor", &editor);
        SOLUTION_EDITOR.with(|e| *e.borrow_mut() = Some(editor));
        true
    });
    // Code set from outside (a permalink, "start from…", a file): into the editor.
    Effect::new(move |_| {
        let code = rs.custom_code.get().unwrap_or_default();
        SOLUTION_EDITOR.with(|e| {
            if let Some(e) = e.borrow().as_ref() {
                if e.get_doc() != code {
                    e.set_doc(&code, false);
                }
            }
        });
    });
    on_cleanup(|| {
        if let Some(e) = SOLUTION_EDITOR.with(|e| e.borrow_mut().take()) {
            e.destroy();
        }
        js::hook_set("solutionEditor", &JsValue::UNDEFINED);
    });

    let start_from = move |stub: bool| {
        let p = app.problem.get_untracked().and_then(bench::find);
        let code = p.and_then(|p| if stub { p.stub() } else { p.solution() });
        if let Some(code) = code {
            rs.custom_code.set(Some(code.to_string()));
        }
    };
    let on_file = move |_ev: leptos::ev::Event| {
        let Some(input) = file_input.get() else {
            return;
        };
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            read_solution_file(app, rs, file);
        }
        input.set_value("");
    };
    let has_problem = move || app.problem.get().is_some();

    view! {
        <div class="solution-box">
            <div class="solution-bar">
                <span class="solution-title"><code>"solution.py"</code>" — your code"</span>
                <span class="spacer"></span>
                <Show when=has_problem>
                    <button class="btn small" data-testid="solution-from-reference" on:click=move |_| start_from(false)>"Start from reference"</button>
                    <button class="btn small" data-testid="solution-from-stub" on:click=move |_| start_from(true)>"Start from stub"</button>
                </Show>
                <button class="btn small" data-testid="solution-open" on:click=move |_| { if let Some(i) = file_input.get() { i.click(); } }>"Open…"</button>
                <input type="file" class="visually-hidden" tabindex="-1" aria-hidden="true" accept=".py,text/x-python,text/plain"
                    node_ref=file_input data-testid="solution-file-input" on:change=on_file/>
            </div>
            <div class="solution-editor" node_ref=host data-testid="solution-editor"></div>
        </div>
    }
}

fn read_solution_file(app: crate::state::AppState, rs: RunState, file: web_sys::File) {
    if file.size() > 4.0 * 1024.0 * 1024.0 {
        engine::toast(
            app,
            format!(
                "{} is too large for a solution (the limit is 4 MB)",
                file.name()
            ),
        );
        return;
    }
    let Ok(reader) = web_sys::FileReader::new() else {
        return;
    };
    let r2 = reader.clone();
    let name = file.name();
    let onload = Closure::once_into_js(move || {
        if let Some(text) = r2.result().ok().and_then(|v| v.as_string()) {
            rs.custom_code.set(Some(text));
            engine::toast(app, format!("Opened {name} as the solution"));
        }
    });
    reader.set_onload(Some(onload.unchecked_ref()));
    let _ = reader.read_as_text(&file);
}

/// What the last run did, or what is happening now.
#[component]
fn StatusLine() -> impl IntoView {
    let app = use_app();
    let rs = use_run();
    // The file, the solution or the stage changed since the results on screen were computed.
    let stale = Memo::new(move |_| {
        app.analysis.track();
        let stage = app.stage.get();
        let choice = effective_choice(app, rs);
        rs.custom_code.track();
        rs.result.with(|r| {
            r.as_ref().is_some_and(|v| {
                let text = js::with_editor(|e| e.get_doc()).unwrap_or_default();
                let solution = crate::run_control::solution_for(app, rs, choice)
                    .map(|s| s.0)
                    .ok();
                text != v.test_source
                    || solution.as_deref() != Some(v.solution.as_str())
                    || stage != v.run.stage
            })
        })
    });
    view! {
        <div class="run-status" data-testid="run-status" role="status" aria-live="polite"
            data-state=move || rs.status.with(|s| s.id())
            data-stale=move || stale.get().to_string()>
            {move || {
                let py_ready = rs.py.state.with(|p| *p == PyState::Ready);
                match rs.status.get() {
                    RunStatus::Idle => view! {
                        <span class="muted">"Press "<strong>"Run"</strong>" (Ctrl+Enter) to run this file's assertions as the bench loop does, and the file under pytest."</span>
                    }.into_any(),
                    RunStatus::Running { .. } if !py_ready => view! {
                        <span class="spinner" aria-hidden="true"></span>
                        <span>"Waiting for Python to finish loading; the run starts as soon as it is ready…"</span>
                    }.into_any(),
                    RunStatus::Running { .. } => view! {
                        <span class="spinner" aria-hidden="true"></span>
                        <span>{move || format!("Running the bench loop and pytest under the “{}” stage…", stage_short(app.stage.get()))}</span>
                    }.into_any(),
                    RunStatus::Done => view! {
                        <span class="ok-text">"✓ Done"</span>
                        {move || rs.result.with(|r| r.as_ref().map(|v| {
                            let t = v.run.timings;
                            // Time spent before Python took the run: its start-up, or a restart.
                            let waited = v.wall_ms - t.total_ms;
                            format!(" {} against {}, stage “{}”, in {} (bench loop {}, pytest {}){}.",
                                v.file_name, v.solution_label, stage_short(v.run.stage),
                                format_ms(t.total_ms), format_ms(t.eval_ms), format_ms(t.pytest_ms),
                                if waited > 500.0 { format!(", after {} waiting for Python to start", format_ms(waited)) } else { String::new() })
                        }))}
                        <Show when=move || stale.get()>
                            <span class="stale-note" data-testid="run-stale">" The file, solution or stage changed since: press Run again."</span>
                        </Show>
                    }.into_any(),
                    RunStatus::TimedOut { limit_ms, restarted } => view! {
                        <span class="bad-text">"✕ Timed out"</span>
                        <span>{format!(" after {}: the run was stopped{}. Nothing of it is shown; the page and the next run are unaffected.",
                            format_ms(limit_ms),
                            if restarted { " and a fresh Python worker is starting" } else { " (Python was interrupted; the worker lives on)" })}</span>
                    }.into_any(),
                    RunStatus::Error { message } => view! {
                        <span class="bad-text">"The run failed: "</span><span class="err-msg">{message}</span>
                    }.into_any(),
                    RunStatus::Stopped => view! {
                        <span class="bad-text">"✕ Stopped."</span><span>" A fresh Python worker is starting."</span>
                    }.into_any(),
                }
            }}
        </div>
    }
}

/// Before the first run: what the tab does.
#[component]
fn Explainer() -> impl IntoView {
    view! {
        <div class="run-explainer">
            <h3>"Two views of one solution"</h3>
            <dl class="legend">
                <dt><span class="view-tag loop">"Bench loop"</span></dt>
                <dd>"Each kept assertion is evaluated on its own in a fresh copy of the solution's namespace, as a code-generation bench does: pass, fail or error."</dd>
                <dt><span class="view-tag pytest">"pytest"</span></dt>
                <dd>"The ground truth: the test file under real pytest, next to the same "<code>"solution.py"</code>": an outcome per test and per parametrized case."</dd>
            </dl>
            <h3>"The verdict, per assertion"</h3>
            <ul class="verdict-legend">
                {VERDICT_ORDER.into_iter().map(|v| view! {
                    <li><span class=format!("verdict-pill v-{}", v.id())>{verdict_icon(v)}" "{v.title()}</span>" "{v.explanation()}</li>
                }).collect_view()}
            </ul>
            <p class="muted small">"Python is Pyodide in a Web Worker, served by this page (no CDN): it cannot reach the page, and a runaway run ends at the time limit, not the tab."</p>
        </div>
    }
}

#[component]
fn FileResults(view: Arc<FileRunView>) -> impl IntoView {
    let app = use_app();
    let filter = RwSignal::new(None::<Verdict>);
    let (limit, set_limit) = signal(PAGE);
    let run = &view.run;
    let (tone, text) = headline(run);
    let s = run.summary.clone();
    let (py_pass, py_fail, py_other) = pytest_tally(&run.pytest_rows);

    let cards = VERDICT_ORDER
        .into_iter()
        .filter(|v| {
            matches!(
                v,
                Verdict::MeasurementBug | Verdict::SolutionBug | Verdict::Agree | Verdict::NotMeasured
            ) || run.count(*v) > 0
        })
        .map(|v| {
            let n = run.count(v);
            view! {
                <button class=format!("verdict-card v-{}", v.id()) class:zero={n == 0}
                    data-testid=format!("verdict-filter-{}", v.id()) data-count=n
                    aria-pressed=move || (filter.get() == Some(v)).to_string()
                    class:active=move || filter.get() == Some(v)
                    title=format!("{} — click to show only these", v.explanation())
                    on:click=move |_| filter.update(|f| *f = if *f == Some(v) { None } else { Some(v) })>
                    <span class="vc-num">{n}</span>
                    <span class="vc-label">{verdict_icon(v)}" "{v.title()}</span>
                </button>
            }
        })
        .collect_view();

    let groups: Arc<Vec<RowGroup>> = Arc::new(run.groups.clone());
    let total_rows: usize = groups.iter().map(|g| g.rows.len()).sum();
    let g2 = groups.clone();
    let rows_view = move || {
        let f = filter.get();
        let max = limit.get();
        let mut shown = 0usize;
        g2.iter()
            .filter_map(|g| {
                let rows: Vec<RunRow> = g
                    .rows
                    .iter()
                    .filter(|r| f.is_none_or(|v| r.verdict == v))
                    .cloned()
                    .collect();
                if rows.is_empty() || shown >= max {
                    return None;
                }
                shown += rows.len();
                Some(view! { <GroupView group=g.clone() rows=rows/> })
            })
            .collect_view()
    };

    let collection_errors = run.collection_errors.clone();
    let pytest_rows = run.pytest_rows.clone();
    let output = run.pytest_output.clone();
    let exit = run.pytest_exit_code;

    view! {
        <div class="run-results" data-testid="run-results">
            <div class=format!("run-headline tone-{}", tone.id()) data-testid="run-headline" data-tone=tone.id()>{text}</div>
            <div class="verdict-cards" role="group" aria-label="Verdicts (click to filter)"
                data-testid="run-summary" data-checked=s.checked data-passing=s.passing
                data-measurement-bugs=s.measurement_bugs data-solution-bugs=s.solution_bugs
                data-not-measured=s.not_measured>
                {cards}
            </div>
            <div class="run-facts">
                <span><span class="view-tag loop">"Bench loop"</span>{format!(" {} of {} checks pass", s.passing, s.checked)}
                    {if s.loop_passes { " — PASS first try" } else { "" }}</span>
                <span><span class="view-tag pytest">"pytest"</span>{format!(" {py_pass} passed · {py_fail} failed{}{}",
                    if py_other > 0 { format!(" · {py_other} other") } else { String::new() },
                    if run.collection_errors.is_empty() { "" } else { " · could not collect the file" })}</span>
                <span class="muted">{format!("stage: {}", stage_short(run.stage))}</span>
            </div>

            {(!collection_errors.is_empty()).then(|| view! {
                <div class="callout bad collect-error" data-testid="collection-error">
                    <span class="callout-title">"pytest could not collect the file. "</span>
                    "No test ran, so every assertion of it counts as a pytest error (a solution or file problem, not the extractor's)."
                    {collection_errors.iter().map(|c| {
                        // The cause is at the end of pytest's report.
                        let last = c.message.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string();
                        let head = if c.crash.is_empty() { last } else { c.crash.clone() };
                        let full = c.message.clone();
                        view! {
                            <code class="view-detail collect-cause">{head}</code>
                            {(!full.is_empty()).then(|| view! {
                                <details class="trace-box"><summary>"pytest's report"</summary><pre class="trace">{full}</pre></details>
                            })}
                        }
                    }).collect_view()}
                </div>
            })}

            <section class="run-section">
                <h3 class="section-title">"Side by side, assertion by assertion"
                    <span class="muted small">{format!(" · {}", plural(total_rows, "assertion", "assertions"))}</span>
                    <Show when=move || filter.get().is_some()>
                        <button class="btn small clear-filter" on:click=move |_| filter.set(None)>
                            {move || format!("Showing only “{}” · show all", filter.get().map(Verdict::title).unwrap_or_default())}
                        </button>
                    </Show>
                </h3>
                <div class="run-groups" data-testid="run-rows">{rows_view}</div>
                <Show when=move || { total_rows > limit.get() && filter.get().is_none() }>
                    <button class="btn more" on:click=move |_| set_limit.update(|l| *l += PAGE * 5)>
                        {move || format!("Show more ({} of {total_rows} shown)", limit.get().min(total_rows))}
                    </button>
                </Show>
                {(total_rows == 0).then(|| view! { <p class="empty">"No assertions in this file."</p> })}
            </section>

            <section class="run-section">
                <h3 class="section-title">"pytest's view"
                    <span class="muted small">{format!(" · {} · exit code {}", plural(pytest_rows.len(), "test", "tests"), exit.map(|e| e.to_string()).unwrap_or_else(|| "–".into()))}</span>
                </h3>
                <div class="table-scroll">
                    <table class="pytest-table" data-testid="pytest-table">
                        <thead><tr>
                            <th scope="col">"Outcome"</th>
                            <th scope="col">"Test"</th>
                            <th scope="col" class="num" title="Kept assertions the bench loop checked for this test">"Checked by the loop"</th>
                            <th scope="col" class="num">"Time"</th>
                        </tr></thead>
                        <tbody>
                            {pytest_rows.into_iter().map(|p| {
                                let (base, case) = split_case(&p.name);
                                let base = base.to_string();
                                let case = case.map(str::to_string);
                                let failed = !p.crash.is_empty() || !p.message.is_empty();
                                let line = p.line;
                                view! {
                                    <tr data-testid="pytest-row" data-test=p.name.clone() data-outcome=p.outcome.id()
                                        class=format!("o-{}", p.outcome.id())>
                                        <td><span class=format!("outcome o-{}", p.outcome.id())>{pytest_icon(p.outcome)}" "{p.outcome.label()}</span></td>
                                        <td class="pt-name">
                                            <button class="link mono" title="Show this test in the editor"
                                                on:click=move |_| { if let Some(l) = line { jump_to_line(app, l); } }>
                                                {base}
                                            </button>
                                            {case.map(|c| view! { <span class="case">{format!("[{c}]")}</span> })}
                                            {failed.then(|| view! {
                                                <details class="pt-detail">
                                                    <summary>{if p.crash.is_empty() { "details".to_string() } else { p.crash.clone() }}</summary>
                                                    <pre class="trace">{p.message.clone()}</pre>
                                                </details>
                                            })}
                                        </td>
                                        <td class="num">
                                            {if p.measured == 0 { "–".to_string() } else { p.measured.to_string() }}
                                            {(p.measurement_bugs > 0).then(|| view! { <span class="mb-count" title="measurement bugs">{format!(" ⚠ {}", p.measurement_bugs)}</span> })}
                                        </td>
                                        <td class="num muted">{format!("{:.0} ms", p.duration_s * 1000.0)}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                {(!output.trim().is_empty()).then(|| view! {
                    <details class="pt-output">
                        <summary>"pytest's output"</summary>
                        <pre class="trace">{output}</pre>
                    </details>
                })}
            </section>
        </div>
    }
}

/// Put the main editor's cursor on a line.
pub(super) fn jump_to_line(app: crate::state::AppState, line: u32) {
    let pos = app
        .analysis
        .with_untracked(|a| a.as_ref().map(|a| a.map.line_utf16(line).0));
    if let Some(pos) = pos {
        js::with_editor(|e| e.jump(pos));
    }
}

#[component]
fn GroupView(group: RowGroup, rows: Vec<RunRow>) -> impl IntoView {
    let p = group.pytest;
    view! {
        <div class="run-group" data-testid="run-group" data-test=group.name.clone()>
            <div class="group-head">
                <span class="test-name">{group.name.clone()}</span>
                <span class=format!("outcome o-{}", p.id()) title="pytest's outcome for this test (all its cases)">
                    "pytest "{pytest_icon(p)}" "{p.label()}
                </span>
            </div>
            <ul class="rows">
                {rows.into_iter().map(|r| view! { <RunRowView row=r/> }).collect_view()}
            </ul>
        </div>
    }
}

#[component]
fn RunRowView(row: RunRow) -> impl IntoView {
    let app = use_app();
    let v = row.verdict;
    let vid = v.id();
    let (_, case) = split_case(&row.test);
    let case = case.map(str::to_string);
    let eval_attr = row.eval.as_ref().map(|e| e.outcome.id()).unwrap_or("none");
    let line = row.line;
    let loud = matches!(
        v,
        Verdict::MeasurementBug
            | Verdict::SolutionBug
            | Verdict::PhantomPass
            | Verdict::FailsElsewhere
    );
    // The two common verdicts say whose fault it is in the row's head; the rarer ones explain themselves below.
    let note = matches!(v, Verdict::PhantomPass | Verdict::FailsElsewhere);

    let loop_view = match (&row.eval, row.kept) {
        (Some(e), _) => {
            let detail = match e.outcome {
                EvalOutcome::Pass => e
                    .value
                    .clone()
                    .filter(|v| v != "True")
                    .map(|v| format!("value {v}")),
                EvalOutcome::Fail => Some(format!(
                    "value {}",
                    e.value.clone().unwrap_or_else(|| "False".into())
                )),
                EvalOutcome::Error => e.error.clone(),
            };
            let phase = (e.phase.as_deref() == Some("solution") && e.outcome == EvalOutcome::Error)
                .then_some("while executing the solution: ");
            let trace = e
                .traceback
                .clone()
                .filter(|_| e.outcome == EvalOutcome::Error);
            let output = e.output.clone();
            view! {
                <span class=format!("outcome e-{}", e.outcome.id())>{eval_icon(e.outcome)}" "{e.outcome.id()}</span>
                {detail.map(|d| view! { <code class="view-detail" data-testid="run-error">{phase}{d}</code> })}
                {trace.map(|t| view! { <details class="trace-box"><summary>"traceback"</summary><pre class="trace">{t}</pre></details> })}
                {(!output.is_empty()).then(|| view! { <details class="trace-box"><summary>"printed output"</summary><pre class="trace">{output}</pre></details> })}
            }.into_any()
        }
        (None, true) => view! { <span class="outcome e-none">"not evaluated"</span> }.into_any(),
        (None, false) => {
            view! { <span class="outcome e-none">"– not measured (dropped)"</span> }.into_any()
        }
    };

    view! {
        <li class=format!("run-row v-{vid}") class:loud=loud data-testid="run-row" data-verdict=vid title=v.explanation()
            data-eval=eval_attr data-pytest=row.pytest.id() data-test=row.test.clone() data-line=line>
            <div class="rr-head">
                <span class=format!("verdict-pill v-{vid}") data-testid="run-verdict">{verdict_icon(v)}" "{v.title()}</span>
                <button class="link line-no" title="Show in the editor" on:click=move |_| jump_to_line(app, line)>{format!("L{line}")}</button>
                {case.map(|c| view! { <span class="case" title="parametrize case">{format!("[{c}]")}</span> })}
                {(!row.kept).then(|| view! { <code class="source">{row.source.clone()}</code> })}
                {blame(v).map(|b| view! { <span class=format!("blame v-{vid}") data-testid="run-blame">{b}</span> })}
            </div>
            {match (&row.expr, row.kept) {
                (Some(expr), true) => view! { <pre class="expr"><code>{expr.clone()}</code></pre> }.into_any(),
                _ => view! { <div class="reason muted small">{row.reason.clone().unwrap_or_default()}</div> }.into_any(),
            }}
            <div class="rr-views">
                <div class="rr-view">
                    <span class="view-tag loop">"Bench loop"</span>
                    {loop_view}
                </div>
                <div class="rr-view">
                    <span class="view-tag pytest">"pytest"</span>
                    <span class=format!("outcome o-{}", row.pytest.id())>{pytest_icon(row.pytest)}" "{row.pytest.label()}</span>
                    {(!row.pytest_crash.is_empty()).then(|| view! { <code class="view-detail">{row.pytest_crash.clone()}</code> })}
                </div>
            </div>
            {note.then(|| view! { <p class=format!("verdict-note v-{vid}")>{v.explanation()}</p> })}
        </li>
    }
}

// ------------------------------------------------------------------------------ whole bench

#[component]
fn BenchMode() -> impl IntoView {
    let app = use_app();
    let rs = use_run();
    let running = move || rs.bench.with(|b| b.running);
    let file_busy =
        move || matches!(rs.status.get(), RunStatus::Running { .. }) || rs.mutants.running();

    let progress = move || {
        rs.bench.with(|b| {
            if b.planned == 0 {
                return None;
            }
            let done = b.results.len();
            let now = js::now_ms();
            let label = if b.running {
                match &b.current {
                    Some((slug, stage)) => format!("{done} of {} · {slug} under “{}”{}", b.planned, stage_short(*stage),
                        if b.cancel_requested { " · cancelling after this one" } else { "" }),
                    None => format!("{done} of {}", b.planned),
                }
            } else if b.cancelled {
                format!("Cancelled after {done} of {} runs, {}", b.planned, format_ms(b.wall_ms(now)))
            } else {
                format!("Done: {} runs ({} with pytest) in {}", done, b.pytest_runs, format_ms(b.wall_ms(now)))
            };
            Some(view! {
                <div class="bench-progress" data-testid="bench-progress" data-done=done data-planned=b.planned
                    data-running=b.running.to_string() data-cancelled=b.cancelled.to_string()>
                    <progress max=b.planned.to_string() value=done.to_string() aria-label="Whole-bench progress"></progress>
                    <span>{label}</span>
                </div>
            })
        })
    };

    let table = move || {
        rs.bench.with(|b| {
            if b.planned == 0 {
                return None;
            }
            let per_stage = b.problems;
            let rows: Vec<StageTotals> = b.stages.iter().map(|s| stage_totals(*s, per_stage, &b.results)).collect();
            // pytest's outcome does not depend on the stage: one line for all of them.
            let truth = rows.iter().max_by_key(|t| t.done).map(|t| (t.pytest_passes, t.done - t.timed_out - t.failed)).unwrap_or((0, 0));
            let truth_line = format!(
                "Ground truth: pytest passes {} of {} problems · {} pytest runs, {}",
                truth.0, truth.1, b.pytest_runs, format_ms(b.pytest_ms)
            );
            let detail = rs.bench_detail.get();
            let body = rows.into_iter().map(|t| {
                let stage = t.stage.unwrap_or_default();
                let complete = t.done == t.planned;
                view! {
                    <tr data-testid="bench-stage-row" data-stage=stage.id() data-done=t.done data-planned=t.planned
                        data-first-try=t.first_try data-checked=t.checked data-passing=t.passing
                        data-measurement-bugs=t.measurement_bugs data-solution-bugs=t.solution_bugs
                        data-not-measured=t.not_measured class:current={detail == stage} class:partial=!complete>
                        <th scope="row">
                            <button class="link" title="Show this stage problem by problem" on:click=move |_| rs.bench_detail.set(stage)>
                                {stage_short(stage)}
                            </button>
                        </th>
                        <td class="num big">{t.first_try}<span class="of">{format!(" / {}", t.done)}</span></td>
                        <td class="num">{t.passing}<span class="of">{format!(" / {}", t.checked)}</span></td>
                        <td class="num mb" class:zero={t.measurement_bugs == 0}>{t.measurement_bugs}</td>
                        <td class="num sb" class:zero={t.solution_bugs == 0}>{t.solution_bugs}</td>
                        <td class="num nm" class:zero={t.not_measured == 0}>{t.not_measured}</td>
                        <td class="num muted">{format_ms(t.loop_ms)}
                            {(t.timed_out + t.failed > 0).then(|| view! { <span class="bad-text small">{format!(" · {} timed out, {} failed", t.timed_out, t.failed)}</span> })}
                        </td>
                    </tr>
                }
            }).collect_view();
            Some(view! {
                <div class="table-scroll">
                    <table class="audit-table bench-run-table" data-testid="bench-run-table" data-solution=b.choice.id()>
                        <caption>{format!("The bench, run here: {} of {} problems{}",
                            if b.choice == SolutionChoice::Stub { "the stubs" } else { "the reference solutions" },
                            b.problems,
                            if b.running { " (running…)" } else { "" })}</caption>
                        <thead><tr>
                            <th scope="col">"Stage"</th>
                            <th scope="col" class="num" title="Problems where every checked assertion passed: the write-up's PASS first try">"PASS first try"</th>
                            <th scope="col" class="num">"Assertions passing / checked"</th>
                            <th scope="col" class="num" title="The loop fails a check that pytest passes">"Measurement bugs"</th>
                            <th scope="col" class="num" title="Both views fail">"Solution bugs"</th>
                            <th scope="col" class="num" title="Dropped by the extractor">"Not measured"</th>
                            <th scope="col" class="num" title="Time the bench loop spent evaluating, in Python">"Loop time"</th>
                        </tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
                <p class="muted small bench-truth" data-testid="bench-truth">{truth_line}</p>
            })
        })
    };

    let detail = move || {
        rs.bench.with(|b| {
            if b.results.is_empty() {
                return None;
            }
            let stage = rs.bench_detail.get();
            if !b.stages.contains(&stage) {
                return None;
            }
            let rows = b.results.iter().filter(|r| r.job.stage == stage).map(|r| {
                let slug = r.slug.clone();
                let slug2 = slug.clone();
                let (state, first, passing, bugs, sol, nm, py) = match &r.outcome {
                    JobOutcome::Done { summary, .. } => (
                        "done",
                        if summary.loop_passes { "✓ PASS" } else { "✕ FAIL" }.to_string(),
                        format!("{} / {}", summary.passing, summary.checked),
                        summary.measurement_bugs,
                        summary.solution_bugs,
                        summary.not_measured,
                        if summary.pytest_passes { "✓ passes" } else { "✕ fails" }.to_string(),
                    ),
                    JobOutcome::TimedOut => ("timeout", "✕ timed out".into(), "–".into(), 0, 0, 0, "–".into()),
                    JobOutcome::Failed(m) => ("failed", format!("failed: {m}"), "–".into(), 0, 0, 0, "–".into()),
                    JobOutcome::Skipped => ("skipped", "no such solution".into(), "–".into(), 0, 0, 0, "–".into()),
                };
                let pass = first.starts_with('✓');
                view! {
                    <tr data-testid="bench-problem-row" data-slug=r.slug.clone() data-state=state data-measurement-bugs=bugs>
                        <th scope="row">
                            <button class="link mono" title="Open this problem and run it under this stage"
                                on:click=move |_| {
                                    engine::load_problem(app, &slug2);
                                    app.stage.set(stage);
                                    rs.choice.set(rs.bench.with_untracked(|b| b.choice));
                                    rs.mode.set(RunMode::File);
                                    app.tab.set(Tab::Run);
                                    // Bench code is the page's own: run it straight away (after the editor has it).
                                    request_animation_frame(move || run_file(app, rs));
                                }>{slug}</button>
                        </th>
                        <td class:ok-text=pass class:bad-text=!pass>{first}</td>
                        <td class="num">{passing}</td>
                        <td class="num mb" class:zero={bugs == 0}>{bugs}</td>
                        <td class="num sb" class:zero={sol == 0}>{sol}</td>
                        <td class="num nm" class:zero={nm == 0}>{nm}</td>
                        <td>{py}</td>
                    </tr>
                }
            }).collect_view();
            Some(view! {
                <div class="table-scroll">
                    <table class="audit-table bench-problem-table" data-testid="bench-problem-table" data-stage=stage.id()>
                        <caption>{format!("Problem by problem, “{}”", stage_short(stage))}</caption>
                        <thead><tr>
                            <th scope="col">"Problem"</th>
                            <th scope="col">"First try"</th>
                            <th scope="col" class="num">"Passing / checked"</th>
                            <th scope="col" class="num"><abbr title="Measurement bugs: the loop fails a check that pytest passes">"Meas. bugs"</abbr></th>
                            <th scope="col" class="num"><abbr title="Solution bugs: both views fail">"Sol. bugs"</abbr></th>
                            <th scope="col" class="num"><abbr title="Not measured: dropped by the extractor">"Not meas."</abbr></th>
                            <th scope="col">"pytest"</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            })
        })
    };

    // "With mutants": each problem's mutation score, and the bench's.
    let mutants = move || {
        rs.bench.with(|b| {
            if !b.with_mutants || b.planned == 0 {
                return None;
            }
            let cell = |slug: String, planned: usize, t: Tally, total: bool| {
                let tid = if total { "bench-mutant-total" } else { "bench-mutant-row" };
                let name = slug.clone();
                view! {
                    <tr data-testid=tid data-slug=slug.clone() data-planned=planned data-generated=t.generated
                        data-killed=t.killed data-survived=t.survived data-timeouts=t.timeouts
                        data-crashes=t.crashes data-differences=t.differences data-score=t.score().to_string()
                        class:partial={t.generated < planned}>
                        <th scope="row" class="mono">{name}</th>
                        <td class="num">{t.cell()}<span class="of">{format!(" {}", percent(&t))}</span></td>
                        <td class="num" class:zero={t.survived == 0}>{t.survived}</td>
                        <td class="num" class:zero={t.timeouts == 0}>{t.timeouts}</td>
                        <td class="num mb" class:zero={t.differences == 0}>{t.differences}</td>
                    </tr>
                }
            };
            let rows = b.mutants.iter().map(|r| cell(r.slug.clone(), r.planned, r.tally(), false)).collect_view();
            let total = cell("bench".into(), b.mutants.iter().map(|r| r.planned).sum(), bench_tally(&b.mutants), true);
            let status = match &b.mutant_current {
                Some((slug, m)) => format!("Mutants: {slug} m{} · problem {} of {}", m + 1, b.mutants.len(), b.mutant_problems),
                None if b.mutants.is_empty() => "Mutants: after the runs above".to_string(),
                None => format!("Mutants: {} of {} problems", b.mutants.iter().filter(|r| r.complete()).count(), b.mutant_problems),
            };
            Some(view! {
                <div class="table-scroll">
                    <table class="audit-table bench-mutants-table" data-testid="bench-mutants-table">
                        <caption data-testid="bench-mutants-progress" data-problems=b.mutant_problems
                            data-done=b.mutants.iter().filter(|r| r.complete()).count()>{status}</caption>
                        <thead><tr>
                            <th scope="col">"Problem"</th>
                            <th scope="col" class="num" title="Mutants of the reference killed / generated (check --mutants)">"Mutation score"</th>
                            <th scope="col" class="num" title="Every test passed (may be equivalent)">"Survived"</th>
                            <th scope="col" class="num" title="Killed by the time limit">"Timeouts"</th>
                            <th scope="col" class="num" title="pytest and the extracted checks judge the mutant differently">"Meas. diff."</th>
                        </tr></thead>
                        <tbody>{rows}{total}</tbody>
                    </table>
                </div>
            })
        })
    };

    view! {
        <div class="bench-run" data-testid="bench-run">
            <p class="run-lead">
                "Every problem's solution through both views, under each stage of the write-up's story: the write-up's table, measured here. "
                "pytest runs once per problem (the extractor does not change it); the bench loop once per stage."
            </p>
            <div class="run-toolbar">
                <label class="field">
                    <span class="field-label">"Stages"</span>
                    <select data-testid="bench-stage-select" aria-label="Stages to run"
                        prop:value=move || rs.bench_stage.get().map(|s| s.id()).unwrap_or("all")
                        on:change=move |ev| rs.bench_stage.set(Stage::from_id(&event_target_value(&ev)))>
                        <option value="all">"All four stages"</option>
                        {Stage::ALL.into_iter().map(|s| view! { <option value=s.id()>{stage_short(s)}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span class="field-label">"Solutions"</span>
                    <select data-testid="bench-solution-select" aria-label="Solutions to run"
                        prop:value=move || rs.bench_choice.get().id()
                        on:change=move |ev| {
                            if let Some(c) = SolutionChoice::from_id(&event_target_value(&ev)) { rs.bench_choice.set(c); }
                        }>
                        <option value="reference">"Reference solutions"</option>
                        <option value="stub">"Stubs"</option>
                    </select>
                </label>
                <label class="field" title="Also run every mutant of each reference solution both ways: many times longer">
                    <input type="checkbox" data-testid="bench-with-mutants" prop:checked=move || rs.bench_with_mutants.get()
                        disabled=running on:change=move |ev| rs.bench_with_mutants.set(event_target_checked(&ev))/>
                    " with mutants"
                </label>
                <span class="spacer"></span>
                <Show when=running>
                    <button class="btn" data-testid="bench-cancel-button" on:click=move |_| cancel_bench(rs)>"Cancel"</button>
                </Show>
                <button class="btn primary" data-testid="bench-run-button" disabled=move || running() || file_busy()
                    on:click=move |_| run_bench(app, rs)>
                    <svg class="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d="M4 2.5v11l9-5.5z" fill="currentColor"/></svg>
                    {move || if running() { "Running the bench…" } else { "Run the whole bench" }}
                </button>
            </div>
            {progress}
            {table}
            {mutants}
            {detail}
            <Show when=move || rs.bench.with(|b| b.planned == 0)>
                <p class="muted empty">{format!("{} problems × up to 4 stages. A whole run takes some seconds once Python is ready; it can be cancelled.", bench::problems().len())}</p>
            </Show>
        </div>
    }
}

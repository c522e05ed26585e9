//! Live extraction: the editor reports an edit, and once the current task is done the page asks
//! for the whole text's result (the edits of one task coalesce). A small text is answered at once
//! on the page, by a second instance of this wasm, within a bound (`www/boot.js`, `worker.rs`'s
//! `benchInlineAnalyze`); any other goes to the extraction worker (`www/extract-worker.js` running
//! its own build of this crate, see `worker.rs`; edits made while it is busy coalesce), whose reply sends only
//! what changed from the result on screen (`logic::delta`). Every edit is a new generation: a reply for an
//! older one is dropped, and the last good result stays on screen meanwhile (with a progress note
//! after ~100 ms). The reply comes as JSON parts, decoded a few milliseconds at a time so that no
//! task blocks the page, then the views update from the new `Analysis`. Also the actions that load
//! a file, and the metrics the benchmark reads.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::Duration;

use bench_explorer::{extract, Options, Stage};
use leptos::prelude::*;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::bench;
use crate::js;
use crate::logic::delta::{Delta, Rebuild};
use crate::logic::metrics;
use crate::logic::transfer::{Assembler, Request};
use crate::state::{Analysis, AppState, SourceOrigin};

#[wasm_bindgen]
extern "C" {
    /// `window.benchExtract.request` (www/boot.js): extract the main editor's text in the worker,
    /// reading it when the worker is free; the newest request replaces a waiting one, and cancels
    /// one that has run too long. `on_reply(generation, reply)` gets `{modified, parts}` or
    /// `{error}`.
    #[wasm_bindgen(js_namespace = benchExtract, js_name = request)]
    fn worker_request(generation: f64, request: &str, on_reply: &js_sys::Function);
}

/// Progress is shown once an extraction has been waited for this long.
const PROGRESS_AFTER_MS: u64 = 100;
/// The page decodes the worker's reply in tasks of about this many milliseconds.
const SLICE_MS: f64 = 8.0;

thread_local! {
    static PENDING: Cell<bool> = const { Cell::new(false) };
    /// A request was sent in the current task (cleared once it is done): later edits of the task
    /// wait for its end, and go together.
    static SENT_IN_TASK: Cell<bool> = const { Cell::new(false) };
    /// The document's length at the last request (UTF-16 units).
    static LAST_LENGTH: Cell<i64> = const { Cell::new(0) };
    /// When the first edit not yet extracted happened (performance.now()).
    static DIRTY_SINCE: Cell<f64> = const { Cell::new(0.0) };
    /// The newest generation asked for (one per edit or change of options); replies for older
    /// ones are dropped.
    static REQUESTED: Cell<u64> = const { Cell::new(0) };
    /// Results shown so far.
    static SHOWN: Cell<u64> = const { Cell::new(0) };
    static FIRST_SHOWN: Cell<bool> = const { Cell::new(false) };
    /// Bring the picked assertion into view after the next extraction (a permalink picked one).
    static REVEAL_SELECTED: Cell<bool> = const { Cell::new(false) };
    static ON_REPLY: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    static APP: Cell<Option<AppState>> = const { Cell::new(None) };
    /// The current reply's `namesNotice` (the worker could not load the Unicode names table).
    static NAMES_NOTICE: RefCell<Option<String>> = const { RefCell::new(None) };
    /// Whether the current reply was computed on the page (www/boot.js's inline extraction).
    static INLINE: Cell<bool> = const { Cell::new(false) };
    /// The next request asks the worker for a whole result (not one built on the shown result).
    static WHOLE_NEXT: Cell<bool> = const { Cell::new(false) };
    /// How many assertions the current reply reused from the shown result (`logic::delta`).
    static REUSED: Cell<usize> = const { Cell::new(0) };
    /// The worker's memo for the reply shown: cases reused, flattened.
    static CASES: Cell<(f64, f64)> = const { Cell::new((0.0, 0.0)) };
}

/// Ask for an extraction of the editor's current text (in the worker, off the main thread), once
/// the current task is done.
pub fn request(app: AppState) {
    ask(app, false);
}

/// [`request`], for an edit the editor reports: the first edit of a task is sent at once (see
/// `ask`).
pub fn request_edit(app: AppState) {
    ask(app, true);
}

/// See `ask`: characters.
const BIG_EDIT: i64 = 2_048;

fn ask(app: AppState, now: bool) {
    REQUESTED.with(|g| g.set(g.get() + 1));
    if !PENDING.with(|p| p.get()) {
        DIRTY_SINCE.with(|d| d.set(js::now_ms()));
    }
    if PENDING.with(|p| p.replace(true)) {
        return;
    }
    // An edit that changes the length by more than BIG_EDIT (a paste, a file put in the editor)
    // goes in a task of its own, after the editor's: a small text is extracted on the page,
    // synchronously, and the editor's update of a whole new document is already a task's worth
    // (4.5 KB of expensive tests pasted at once was a 59 ms task, the editor's update and the
    // page's bounded try together).
    let length = js::with_editor(|e| i64::from(e.doc_length())).unwrap_or(0);
    if (length - LAST_LENGTH.with(|l| l.replace(length))).abs() > BIG_EDIT {
        set_timeout(move || send(app), Duration::ZERO);
        return;
    }
    // The first edit of a task is sent at once: the editor reports it before its view updates
    // (www/editor/editor.js, `dispatch`), so the worker starts while the view does that work.
    // Later edits of the same task are sent together once it is done (they coalesce), not in the
    // next animation frame: waiting for a frame cost up to 16.7 ms of every keystroke's latency.
    // Edits made while the worker is busy coalesce in `benchExtract` (www/boot.js): the newest
    // waits.
    if !now || SENT_IN_TASK.with(|s| s.replace(true)) {
        leptos::task::spawn_local(async move { send(app) });
    } else {
        leptos::task::spawn_local(async move { SENT_IN_TASK.with(|s| s.set(false)) });
        send(app);
    }
}

fn send(app: AppState) {
    PENDING.with(|p| p.set(false));
    if app.paused.get_untracked() {
        return;
    }
    APP.with(|a| a.set(Some(app)));
    let options = current_options(app);
    // Read by boot.js if this extraction crashes the page, to bring the text back after a reload.
    js::publish(&metrics::ExtractionStarted {
        current_file: &options.file,
        current_stage: options.stage.id(),
    });
    let req = Request {
        file: options.file,
        slug: options.slug,
        stage: options.stage,
        solution_modules: options.solution_modules,
        pytest_version: app.settings.with_untracked(|s| s.pytest_version.clone()),
        slug_is_real: slug_is_real(app),
        id: REQUESTED.with(|g| g.get()),
        // The result on screen: the worker's reply may send only what changed from it.
        base: if WHOLE_NEXT.with(|w| w.replace(false)) {
            None
        } else {
            app.analysis.with_untracked(|a| a.as_ref().map(|a| a.id))
        },
    };
    let Ok(json) = serde_json::to_string(&req) else {
        return;
    };
    let generation = REQUESTED.with(|g| g.get());
    let on_reply = ON_REPLY.with(|f| {
        f.borrow_mut()
            .get_or_insert_with(|| {
                Closure::<dyn Fn(f64, JsValue)>::new(|generation: f64, reply: JsValue| {
                    if let Some(app) = APP.with(|a| a.get()) {
                        on_reply(app, generation as u64, reply);
                    }
                })
                .into_js_value()
                .unchecked_into()
            })
            .clone()
    });
    // Before the request: a small text is answered at once, on this thread (www/boot.js), and
    // then needs no progress note.
    let shown_before = SHOWN.with(|s| s.get());
    worker_request(generation as f64, &json, &on_reply);
    set_timeout(
        move || {
            if SHOWN.with(|s| s.get()) == shown_before
                && REQUESTED.with(|g| g.get()) == generation
                && !app.extracting.get_untracked()
            {
                app.extracting.set(true);
            }
        },
        Duration::from_millis(PROGRESS_AFTER_MS),
    );
}

fn is_current(generation: u64) -> bool {
    REQUESTED.with(|g| g.get()) == generation
}

fn on_reply(app: AppState, generation: u64, reply: JsValue) {
    let get = |k: &str| js_sys::Reflect::get(&reply, &JsValue::from_str(k)).ok();
    // The Unicode names table, when the worker has just loaded it (it sends it once, so even with a
    // stale reply): the page's own extractions (the compare view, the Run tab) need it too
    // (crates/unicode-names).
    if let Some(t) = get("namesTable").filter(|t| !t.is_undefined()) {
        let _ = unicode_names2::register_table(&js_sys::Uint8Array::new(&t).to_vec());
    }
    if !is_current(generation) {
        return;
    }
    if let Some(error) = get("error").and_then(|e| e.as_string()) {
        app.extracting.set(false);
        toast(
            app,
            format!("The extractor failed on this text (the last result stays): {error}"),
        );
        return;
    }
    let inline = get("inline").and_then(|i| i.as_bool()).unwrap_or(false);
    INLINE.with(|i| i.set(inline));
    REUSED.with(|r| r.set(0));
    // Absent on the page's own extractions (`Array.from(undefined)` would throw).
    let memo = get("memo")
        .filter(|m| m.is_object())
        .map(|m| js_sys::Array::from(&m))
        .unwrap_or_default();
    let cases = (
        memo.get(0).as_f64().unwrap_or(0.0),
        memo.get(1).as_f64().unwrap_or(0.0),
    );
    CASES.with(|c| c.set(cases));
    let notice = get("namesNotice").and_then(|n| n.as_string());
    NAMES_NOTICE.with(|n| *n.borrow_mut() = notice);
    let modified = get("modified").and_then(|m| m.as_bool()).unwrap_or(false);
    // The parts (UTF-8 JSON in transferred buffers) stay in JavaScript until decoded, one slice of
    // time at a time: copying them all into the wasm at once would itself block the page.
    let parts = get("parts")
        .map(|p| js_sys::Array::from(&p))
        .unwrap_or_default();
    if parts.length() == 0 {
        return;
    }
    let t0 = js::now_ms();
    let header = js_sys::Uint8Array::new(&parts.get(0)).to_vec();
    match Assembler::from_bytes(&header) {
        // A large file's header (its findings, syntax errors) is a task's worth already: the
        // parts go in tasks of their own (header and first parts together were a 40–50 ms task
        // for a 10 MB file).
        Ok(asm) if js::now_ms() - t0 > SLICE_MS / 2.0 => set_timeout(
            move || decode(app, generation, modified, asm, parts, 1),
            Duration::ZERO,
        ),
        Ok(asm) => decode(app, generation, modified, asm, parts, 1),
        Err(e) => {
            app.extracting.set(false);
            toast(app, e);
        }
    }
}

/// Decode the remaining parts, a few per task, then show the result (if it is still current).
fn decode(
    app: AppState,
    generation: u64,
    modified: bool,
    mut asm: Assembler,
    parts: js_sys::Array,
    mut next: u32,
) {
    let t0 = js::now_ms();
    while next < parts.length() {
        if !is_current(generation) {
            return;
        }
        let p = js_sys::Uint8Array::new(&parts.get(next)).to_vec();
        next += 1;
        if let Err(e) = asm.push_bytes(&p) {
            app.extracting.set(false);
            toast(app, e);
            return;
        }
        if next < parts.length() && js::now_ms() - t0 > SLICE_MS / 2.0 {
            set_timeout(
                move || decode(app, generation, modified, asm, parts, next),
                Duration::ZERO,
            );
            return;
        }
    }
    // Showing a result updates the views in the same task: after a long slice of decoding, that
    // goes into a task of its own (a 10 MB file's last slice and its views made one long task).
    if js::now_ms() - t0 > SLICE_MS / 2.0 {
        set_timeout(
            move || assemble(app, generation, modified, asm),
            Duration::ZERO,
        );
    } else {
        assemble(app, generation, modified, asm);
    }
}

/// The decoded reply, put together (on the result shown, for a delta) and shown.
fn assemble(app: AppState, generation: u64, modified: bool, mut asm: Assembler) {
    if !is_current(generation) {
        return;
    }
    REUSED.with(|r| r.set(asm.reused()));
    let Some((delta, sent)) = asm.take_delta() else {
        return finish(app, generation, modified, asm);
    };
    // The list is rebuilt on the result shown (moving what the edit did not change), a slice at
    // a time: a 10 MB file's 86,000 assertions took a long task at once.
    match app.analysis.get_untracked().filter(|a| a.id == delta.base) {
        Some(base) => {
            let rebuild = delta.start_rebuild(sent);
            rebuild_slices(app, generation, modified, asm, delta, base, rebuild);
        }
        None => whole_next(
            app,
            "worker reply builds on a result the page no longer shows",
        ),
    }
}

/// Assertions rebuilt per check of the clock.
const REBUILD_STEP: usize = 1_024;

fn rebuild_slices(
    app: AppState,
    generation: u64,
    modified: bool,
    mut asm: Assembler,
    delta: Delta,
    base: Arc<Analysis>,
    mut rebuild: Rebuild,
) {
    let t0 = js::now_ms();
    loop {
        if !is_current(generation) {
            return;
        }
        match delta.rebuild_some(&mut rebuild, &base.extraction.assertions, REBUILD_STEP) {
            None => return whole_next(app, "worker reply does not fit the result it builds on"),
            Some(true) => break,
            Some(false) if js::now_ms() - t0 > SLICE_MS / 2.0 => {
                set_timeout(
                    move || rebuild_slices(app, generation, modified, asm, delta, base, rebuild),
                    Duration::ZERO,
                );
                return;
            }
            Some(false) => {}
        }
    }
    let Some(all) = rebuild.finish() else {
        return whole_next(app, "worker reply does not fit the result it builds on");
    };
    asm.rebuilt(all);
    // Showing it goes in a task of its own after a long slice, as after decoding.
    if js::now_ms() - t0 > SLICE_MS / 2.0 {
        set_timeout(
            move || finish(app, generation, modified, asm),
            Duration::ZERO,
        );
    } else {
        finish(app, generation, modified, asm);
    }
}

/// A reply built on a result the page cannot use (it should not happen: nothing else is shown
/// while the current request waits): ask again, for a whole result.
fn whole_next(app: AppState, why: &str) {
    leptos::logging::warn!("{why}: asking for a whole result");
    WHOLE_NEXT.with(|w| w.set(true));
    request(app);
}

/// The whole reply, checked and shown.
fn finish(app: AppState, generation: u64, modified: bool, asm: Assembler) {
    if !is_current(generation) {
        return;
    }
    match asm.finish(None) {
        Ok(done) => show(app, generation, modified, done),
        Err(e) => {
            app.extracting.set(false);
            toast(app, e);
        }
    }
}

fn show(app: AppState, id: u64, modified: bool, mut done: crate::logic::transfer::Assembled) {
    if let Some(notice) = NAMES_NOTICE.with(|n| n.borrow_mut().take()) {
        if crate::logic::names::annotate(&mut done.extraction.syntax_errors, &notice) > 0 {
            toast(app, notice);
        }
    }
    let stage = done.extraction.stage;
    let ms = done.ms;
    let bytes = done.bytes;
    let kept = done.totals.kept;
    let dropped = done.totals.dropped;
    let wrong = done.tally.wrong;
    let analysis = Arc::new(Analysis {
        id,
        extraction: done.extraction,
        map: done.map,
        groups: done.groups,
        diagnostics: done.diagnostics,
        counts: done.counts,
        verdicts: done.verdicts,
        tally: done.tally,
        totals: done.totals,
        keys: done.keys,
        diagnostics_total: done.diagnostics_total,
        not_text: done.not_text,
        ms,
        bytes,
    });
    let shown = SHOWN.with(|s| {
        s.set(s.get() + 1);
        s.get()
    });

    if app.problem.get_untracked().is_some() && modified != app.modified.get_untracked() {
        app.modified.set(modified);
    }
    // The editor's diagnostics in a task of their own, after the views: together they made one
    // long task on a large result (issue 11). Skipped if a newer result was shown meanwhile.
    {
        let analysis = analysis.clone();
        set_timeout(
            move || {
                if SHOWN.with(|s| s.get()) == shown {
                    push_diagnostics(&analysis);
                    // For the tests: the editor has the diagnostics of this result.
                    js::hook_set("diagnosticsPushed", &JsValue::from_f64(shown as f64));
                }
            },
            Duration::ZERO,
        );
    }
    let len = analysis.extraction.assertions.len();
    app.hovered.set(None);
    if app.selected.get_untracked().is_some_and(|s| s >= len) {
        app.selected.set(None);
    }
    let reveal = REVEAL_SELECTED
        .with(|r| r.replace(false))
        .then(|| app.selected.get_untracked())
        .flatten()
        .and_then(|i| {
            analysis
                .extraction
                .assertions
                .get(i)
                .map(|a| (i, analysis.map.utf16(a.span.start)))
        });
    app.extracting.set(false);
    app.analysis.set(Some(analysis));
    if let Some((index, pos)) = reveal {
        request_animation_frame(move || {
            js::with_editor(|e| e.reveal(pos));
            if let Some(el) = document()
                .query_selector(&format!("[data-row-index='{index}']"))
                .ok()
                .flatten()
            {
                el.scroll_into_view();
            }
        });
    }

    // Metrics for the benchmark: measured once the views have been updated (the next frame).
    let dirty = DIRTY_SINCE.with(|d| d.get());
    request_animation_frame(move || {
        let now = js::now_ms();
        let first = !FIRST_SHOWN.with(|f| f.replace(true));
        js::publish(&metrics::ExtractionShown {
            ready: true,
            extractions: shown as f64,
            last_extraction_ms: ms,
            last_update_ms: now - dirty,
            last_bytes: bytes as f64,
            last_kept: kept as f64,
            last_dropped: dropped as f64,
            last_wrong_checks: wrong as f64,
            stage: stage.id(),
            last_inline: INLINE.with(|i| i.get()),
            last_reused: REUSED.with(|r| r.get()) as f64,
            last_cases_reused: CASES.with(|c| c.get().0),
            last_cases_flattened: CASES.with(|c| c.get().1),
            // performance.now() counts from navigation start.
            first_extraction_shown_ms: first.then_some(now),
        });
    });
}

pub fn current_options(app: AppState) -> Options {
    let file = app.file_name.get_untracked();
    // ux: the settings panel's slug and solution modules (the CLI's --slug, --solution-module).
    let settings = app.settings.get_untracked();
    let slug = settings
        .slug()
        .or_else(|| app.problem.get_untracked().map(str::to_string));
    Options {
        file,
        slug,
        solution_modules: settings.modules(),
        stage: app.stage.get_untracked(),
        pytest_version: settings.pytest_version(),
        ..Options::default()
    }
}

/// ux: whether the extraction's slug is real (not guessed from a pasted file's placeholder name).
pub fn slug_is_real(app: AppState) -> bool {
    crate::logic::settings::slug_is_real(
        &app.settings.get_untracked(),
        app.problem.get_untracked(),
        &app.file_name.get_untracked(),
    )
}

#[derive(Serialize)]
struct JsDiagnostic<'a> {
    from: u32,
    to: u32,
    severity: &'static str,
    message: &'a str,
    source: &'a str,
}

fn push_diagnostics(a: &Analysis) {
    let list: Vec<JsDiagnostic> = a
        .diagnostics
        .iter()
        .map(|d| JsDiagnostic {
            from: d.from,
            to: d.to,
            severity: d.severity.id(),
            message: &d.message,
            source: &d.source,
        })
        .collect();
    if let Ok(v) = serde_wasm_bindgen::to_value(&list) {
        js::with_editor(|e| e.set_diagnostics(&v));
    }
    // The editor gets the first `MAX_EDITOR_DIAGNOSTICS`; the status bar counts all of them.
    js::hook_set(
        "diagnosticsTotal",
        &JsValue::from_f64(a.diagnostics_total as f64),
    );
}

/// Load a bench problem's test file into the editor.
pub fn load_problem(app: AppState, slug: &str) {
    let Some(p) = bench::find(slug) else { return };
    app.problem.set(Some(p.slug));
    app.file_name.set(p.test_name.to_string());
    app.origin.set(SourceOrigin::Bench);
    app.modified.set(false);
    app.selected.set(None);
    app.paused.set(false);
    js::with_editor(|e| e.set_doc(p.test, true));
}

/// Load text from outside the bench (a file opened or dropped, a permalink, a rescue).
pub fn load_text(
    app: AppState,
    name: &str,
    text: &str,
    problem: Option<&'static str>,
    origin: SourceOrigin,
) {
    let modified = problem
        .and_then(bench::find)
        .is_some_and(|p| p.test != text);
    prepare_load(app, name, problem, origin, modified);
    js::with_editor(|e| e.set_doc(text, true));
}

/// [`load_text`] for a JavaScript string, or an array of strings to be joined (a file opened from
/// disk), which is not copied into the wasm unless it may be a bench problem's text.
pub fn load_js_text(
    app: AppState,
    name: &str,
    text: &JsValue,
    problem: Option<&'static str>,
    origin: SourceOrigin,
) {
    let modified = problem.and_then(bench::find).is_some_and(|p| {
        let joined: js_sys::JsString = match text.dyn_ref::<js_sys::Array>() {
            Some(parts) => parts.join(""),
            None => text.clone().unchecked_into(),
        };
        joined.length() as usize != p.test.encode_utf16().count() || joined != p.test
    });
    prepare_load(app, name, problem, origin, modified);
    js::with_editor(|e| e.set_doc_js(text, true));
}

fn prepare_load(
    app: AppState,
    name: &str,
    problem: Option<&'static str>,
    origin: SourceOrigin,
    modified: bool,
) {
    app.problem.set(problem);
    app.file_name.set(if name.trim().is_empty() {
        "test_scratch.py".to_string()
    } else {
        name.to_string()
    });
    app.origin.set(origin);
    app.modified.set(modified);
    app.selected.set(None);
}

/// Show a short message for a few seconds.
pub fn toast(app: AppState, message: impl Into<String>) {
    let message = message.into();
    app.toast.set(Some(message.clone()));
    set_timeout(
        move || {
            if app.toast.get_untracked().as_deref() == Some(message.as_str()) {
                app.toast.set(None);
            }
        },
        Duration::from_millis(4000),
    );
}

/// `window.__benchExplorer.measure(text, stageId)`: one extraction, timed, nothing shown. For the
/// benchmark's extraction-time-per-size figures.
pub fn install_measure_hook() {
    let f = Closure::<dyn Fn(String, Option<String>) -> JsValue>::new(
        |text: String, stage: Option<String>| {
            let stage = stage
                .as_deref()
                .and_then(Stage::from_id)
                .unwrap_or_default();
            let options = Options {
                file: "test_bench.py".into(),
                slug: None,
                solution_modules: Vec::new(),
                stage,
                pytest_version: Default::default(),
                ..Options::default()
            };
            let t0 = js::now_ms();
            let e = extract(&text, &options);
            let ms = js::now_ms() - t0;
            js::to_js(&metrics::Measurement {
                ms,
                bytes: text.len() as f64,
                assertions: e.assertions.len() as f64,
                syntax_errors: e.syntax_errors.len() as f64,
            })
        },
    );
    js::hook_set("measure", &f.into_js_value());

    // For the end-to-end tests: a real Rust panic inside the wasm, to check that the page survives
    // one (the error banner shows, the last result stays, editing goes on).
    let p = Closure::<dyn Fn()>::new(|| {
        panic!("simulated panic (window.__benchExplorer.simulatePanic)")
    });
    js::hook_set("simulatePanic", &p.into_js_value());
}

/// After the next extraction, scroll the editor and the results to the picked assertion.
pub fn reveal_selected_after_next_extraction() {
    REVEAL_SELECTED.with(|r| r.set(true));
}

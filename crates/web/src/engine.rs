//! Live extraction: the editor reports an edit, the next animation frame extracts the whole text
//! once (keystrokes within a frame coalesce), and the views update from the new `Analysis`. A large
//! file pushes the next extraction further out in proportion to what the last one cost, so typing
//! never waits on it. Also the actions that load a file, and the metrics the benchmark reads.

use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;

use bench_explorer::{extract, Options, Stage};
use leptos::prelude::*;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::bench;
use crate::js;
use crate::logic::compare::{compare, tally};
use crate::logic::diagnostics::{counts, diagnostics};
use crate::logic::grouping::group_by_test;
use crate::logic::metrics;
use crate::logic::offsets::OffsetMap;
use crate::state::{Analysis, AppState, SourceOrigin};

thread_local! {
    static PENDING: Cell<bool> = const { Cell::new(false) };
    /// When the first edit not yet extracted happened (performance.now()).
    static DIRTY_SINCE: Cell<f64> = const { Cell::new(0.0) };
    static LAST_MS: Cell<f64> = const { Cell::new(0.0) };
    static GENERATION: Cell<u64> = const { Cell::new(0) };
    static FIRST_SHOWN: Cell<bool> = const { Cell::new(false) };
    /// Bring the picked assertion into view after the next extraction (a permalink picked one).
    static REVEAL_SELECTED: Cell<bool> = const { Cell::new(false) };
}

/// Ask for an extraction of the editor's current text.
pub fn request(app: AppState) {
    if !PENDING.with(|p| p.get()) {
        DIRTY_SINCE.with(|d| d.set(js::now_ms()));
    }
    if PENDING.with(|p| p.replace(true)) {
        return;
    }
    let last = LAST_MS.with(|l| l.get());
    if last < 12.0 {
        request_animation_frame(move || run(app));
    } else {
        // Leave the main thread to typing: wait about as long as an extraction costs.
        let delay = (last * 1.5).min(600.0) as u64;
        set_timeout(move || run(app), Duration::from_millis(delay));
    }
}

fn run(app: AppState) {
    // Cleared first: if `extract` traps, the next edit can still schedule a new attempt.
    PENDING.with(|p| p.set(false));
    if app.paused.get_untracked() {
        return;
    }
    let Some(text) = js::with_editor(|e| e.get_doc()) else {
        return;
    };
    let options = current_options(app);
    let stage = options.stage;
    // Read by boot.js if this extraction crashes, to bring the text back after a reload.
    js::publish(&metrics::ExtractionStarted {
        current_file: &options.file,
        current_stage: stage.id(),
    });
    let t0 = js::now_ms();
    let extraction = extract(&text, &options);
    let ms = js::now_ms() - t0;
    // ux: a pasted file has no real slug: no slug-name-mismatch for it.
    let extraction = crate::logic::settings::without_guessed_slug(extraction, slug_is_real(app));
    // Under an earlier stage, also run the faithful extractor to show which checks are wrong.
    let verdicts = if stage == Stage::Full {
        Vec::new()
    } else {
        let faithful = extract(
            &text,
            &Options {
                stage: Stage::Full,
                ..options.clone()
            },
        );
        compare(&extraction, &faithful)
    };
    let tally = tally(&verdicts);
    LAST_MS.with(|l| l.set(js::now_ms() - t0));

    let map = OffsetMap::new(&text);
    let groups = group_by_test(&extraction.assertions);
    let diags = diagnostics(&extraction, &map);
    let counts = counts(&diags);
    let generation = GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    let kept = extraction.kept().count();
    let dropped = extraction.dropped().count();
    let wrong = tally.wrong;
    let analysis = Arc::new(Analysis {
        extraction,
        map,
        groups,
        diagnostics: diags,
        counts,
        verdicts,
        tally,
        ms,
        bytes: text.len(),
    });

    if let Some(slug) = app.problem.get_untracked() {
        let modified = bench::find(slug).is_some_and(|p| p.test != text);
        if modified != app.modified.get_untracked() {
            app.modified.set(modified);
        }
    }
    push_diagnostics(&analysis);
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
    let bytes = text.len();
    request_animation_frame(move || {
        let shown = js::now_ms();
        let first = !FIRST_SHOWN.with(|f| f.replace(true));
        js::publish(&metrics::ExtractionShown {
            ready: true,
            extractions: generation as f64,
            last_extraction_ms: ms,
            last_update_ms: shown - dirty,
            last_bytes: bytes as f64,
            last_kept: kept as f64,
            last_dropped: dropped as f64,
            last_wrong_checks: wrong as f64,
            stage: stage.id(),
            // performance.now() counts from navigation start.
            first_extraction_shown_ms: first.then_some(shown),
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
        conftests: Vec::new(),
        solution_globals: Vec::new(),
        config_blocker: None,
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
    app.problem.set(problem);
    app.file_name.set(if name.trim().is_empty() {
        "test_scratch.py".to_string()
    } else {
        name.to_string()
    });
    app.origin.set(origin);
    app.modified.set(
        problem
            .and_then(bench::find)
            .is_some_and(|p| p.test != text),
    );
    app.selected.set(None);
    js::with_editor(|e| e.set_doc(text, true));
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
                conftests: Vec::new(),
                solution_globals: Vec::new(),
                config_blocker: None,
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

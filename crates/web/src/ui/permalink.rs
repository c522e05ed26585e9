//! Permalinks (the state in the URL fragment), routes, downloads, the session kept in the
//! browser's storage, the address bar that follows the view, and the start-up sequence.

use std::cell::{Cell, RefCell};

use bench_explorer::shape::Shape;
use bench_explorer::Stage;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::logic::permalink::{
    check_link, fragment, human_bytes, parse_fragment, precheck_link, PermalinkState, Route,
    ViewState,
};
use crate::logic::run_results::SolutionChoice;
use crate::run_control::{effective_choice_untracked, RunMode, RunState};
use crate::state::{AppState, SourceOrigin, Tab};
use crate::{bench, engine, js};

const RESCUE_KEY: &str = "bench-explorer:rescue";
/// The session: the file, problem, stage, tab and the Run tab's solution, as a permalink's state.
const SESSION_KEY: &str = "bench-explorer:session";
/// Files longer than this (UTF-16 units) are not kept in the session: reading the editor's text,
/// encoding it and `localStorage.setItem` all run on the main thread, about 50 ms a megabyte here,
/// so a larger file would block the page after every edit (issue 11). The status bar says so.
const MAX_SESSION_SOURCE: u32 = 256 * 1024;
const DEFAULT_PROBLEM: &str = "word_ladder";

thread_local! {
    /// The last fragment this page wrote or applied, so its own hash change is not applied again.
    static LAST_FRAGMENT: RefCell<String> = const { RefCell::new(String::new()) };
    /// The start-up state has been applied: from now on the session is saved and the URL follows.
    static RESTORED: Cell<bool> = const { Cell::new(false) };
    static SAVE_GENERATION: Cell<u64> = const { Cell::new(0) };
}

/// A permalink that was not made: why, and the offer of the file instead.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkNotice {
    pub message: String,
}

/// The page's notice about a refused permalink (provided as context by `App`).
#[derive(Clone, Copy)]
pub struct Notices {
    pub link: RwSignal<Option<LinkNotice>>,
    /// The file is too large for the browser's storage: a reload will not bring it back.
    pub not_kept: RwSignal<bool>,
}

pub fn use_notices() -> Notices {
    expect_context::<Notices>()
}

fn location_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// The state a permalink would carry now.
pub fn current_state(app: AppState, rs: RunState) -> PermalinkState {
    let problem = app.problem.get_untracked();
    let text = js::with_editor(|e| e.get_doc()).unwrap_or_default();
    let unchanged = problem
        .and_then(bench::find)
        .is_some_and(|p| p.test == text);
    PermalinkState {
        version: crate::logic::permalink::VERSION,
        problem: problem.map(str::to_string),
        file: if unchanged {
            String::new()
        } else {
            app.file_name.get_untracked()
        },
        source: if unchanged { None } else { Some(text) },
        stage: if app.stage.get_untracked() == Stage::Full {
            String::new()
        } else {
            app.stage.get_untracked().id().to_string()
        },
        tab: if app.tab.get_untracked() == Tab::Assertions {
            String::new()
        } else {
            app.tab.get_untracked().id().to_string()
        },
        shape: (app.tab.get_untracked() == Tab::Shapes).then(|| teaching_id_untracked(app)),
        selected: app.selected.get_untracked(),
        run_solution: Some(effective_choice_untracked(app, rs))
            .filter(|c| *c != SolutionChoice::Reference)
            .map(|c| c.id().to_string())
            .unwrap_or_default(),
        solution_code: (effective_choice_untracked(app, rs) == SolutionChoice::Custom)
            .then(|| rs.custom_code.get_untracked())
            .flatten(),
        run_mode: run_mode_id(rs.mode.get_untracked()).to_string(),
        mutant: (rs.mode.get_untracked() == RunMode::Mutants)
            .then(|| rs.mutants.selected.get_untracked())
            .flatten(),
    }
}

/// The Run tab's mode as links name it (the file run: empty).
fn run_mode_id(mode: RunMode) -> &'static str {
    match mode {
        RunMode::File => "",
        RunMode::Mutants => "mutants",
        RunMode::Bench => "bench",
    }
}

/// The Run tab's mode and picked mutant a link names.
fn apply_run_mode(rs: RunState, mode: &str, mutant: Option<&str>) {
    rs.mode.set(match mode {
        "mutants" => RunMode::Mutants,
        "bench" => RunMode::Bench,
        _ => RunMode::File,
    });
    let mutant = (mode == "mutants")
        .then(|| mutant.map(str::to_string))
        .flatten();
    if rs.mutants.selected.get_untracked() != mutant {
        rs.mutants.selected.set(mutant);
    }
}

/// Put the permalink in the address bar and copy it, unless the page could not open it: then say
/// why and offer the file instead.
pub fn share(app: AppState, rs: RunState) {
    let notices = use_notices();
    let state = current_state(app, rs);
    if let Err(refusal) = precheck_link(&state) {
        refuse_link(app, notices, refusal.message());
        return;
    }
    let frag = fragment(&js::compress(&state.to_json()));
    let loc = window().location();
    let base = format!(
        "{}{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    );
    let url = format!("{base}{frag}");
    let data = frag.strip_prefix("#s=").unwrap_or_default();
    if let Err(refusal) = check_link(&state, data, url.chars().count()) {
        refuse_link(app, notices, refusal.message());
        return;
    }
    notices.link.set(None);
    LAST_FRAGMENT.with(|l| *l.borrow_mut() = frag.clone());
    if let Ok(h) = window().history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&frag));
    }
    js::hook_set("lastPermalink", &JsValue::from_str(&url));
    let size = url.len();
    let promise = js::copy_text(&url);
    let ok = Closure::once(move |copied: JsValue| {
        let note = if copied.as_bool() == Some(true) {
            "Permalink copied"
        } else {
            "Permalink is in the address bar"
        };
        engine::toast(app, format!("{note} ({size} characters)"));
    });
    let _ = promise.then(&ok);
    ok.forget();
}

fn refuse_link(app: AppState, notices: Notices, message: String) {
    js::hook_set("lastPermalinkRefused", &JsValue::from_str(&message));
    notices.link.set(Some(LinkNotice {
        message: message.clone(),
    }));
    engine::toast(app, message);
}

/// Download the editor's file as it is now (offered when a permalink cannot carry it).
pub fn download_source(app: AppState) {
    let text = js::with_editor(|e| e.get_doc()).unwrap_or_default();
    let name = app.file_name.get_untracked();
    report_download(
        app,
        &name,
        save_bytes(&name, text.as_bytes(), "text/x-python"),
    );
}

/// The notice shown when a permalink was refused, with the file offered instead.
#[component]
pub fn LinkRefused() -> impl IntoView {
    let app = crate::state::use_app();
    let notices = use_notices();
    view! {
        <Show when=move || notices.link.with(|n| n.is_some())>
            <div class="notice warn link-refused" role="alert" data-testid="permalink-refused">
                <span>{move || notices.link.with(|n| n.as_ref().map(|n| n.message.clone()).unwrap_or_default())}</span>
                <button class="btn small" data-testid="permalink-download-file"
                    on:click=move |_| { download_source(app); notices.link.set(None); }>
                    "Download the file instead"
                </button>
                <button class="btn small" data-testid="permalink-refused-close" aria-label="Close"
                    on:click=move |_| notices.link.set(None)>"×"</button>
            </div>
        </Show>
    }
}

/// Download the current extraction as the contract's JSON. Written as bytes (no giant JavaScript
/// string), checked for its size, and the object URL lives long enough for a large file to be
/// saved; any failure is said.
pub fn download_json(app: AppState) {
    let Some(json) = app
        .analysis
        .with_untracked(|a| a.as_ref().map(|a| serde_json::to_vec_pretty(&a.extraction)))
    else {
        engine::toast(app, "Nothing extracted yet: there is no JSON to download");
        return;
    };
    let json = match json {
        Ok(j) => j,
        Err(e) => {
            engine::toast(app, format!("The JSON could not be written: {e}"));
            return;
        }
    };
    let name = app.file_name.get_untracked();
    let stem = name.strip_suffix(".py").unwrap_or(&name).to_string();
    let file = format!("{stem}.{}.extraction.json", app.stage.get_untracked().id());
    report_download(app, &file, save_bytes(&file, &json, "application/json"));
}

fn report_download(app: AppState, name: &str, result: Result<usize, String>) {
    match result {
        Ok(bytes) => {
            js::hook_set(
                "lastDownload",
                &js::to_js(&serde_json::json!({ "name": name, "bytes": bytes })),
            );
            engine::toast(app, format!("Downloaded {name} ({})", human_bytes(bytes)));
        }
        Err(e) => {
            js::hook_set("lastDownloadError", &JsValue::from_str(&e));
            engine::toast(app, format!("The download of {name} failed: {e}"));
        }
    }
}

/// Save bytes as a file; the blob's size is checked against what was written.
fn save_bytes(name: &str, bytes: &[u8], mime: &str) -> Result<usize, String> {
    let describe = |e: JsValue| {
        e.as_string()
            .or_else(|| {
                js_sys::Reflect::get(&e, &JsValue::from_str("message"))
                    .ok()
                    .and_then(|m| m.as_string())
            })
            .unwrap_or_else(|| "the browser refused".to_string())
    };
    let data = js_sys::Uint8Array::new_with_length(bytes.len() as u32);
    data.copy_from(bytes);
    let parts = js_sys::Array::of1(&data);
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts).map_err(describe)?;
    if blob.size() as usize != bytes.len() {
        return Err(format!(
            "the browser made a file of {} bytes out of {}",
            blob.size(),
            bytes.len()
        ));
    }
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(describe)?;
    let a: web_sys::HtmlAnchorElement = document()
        .create_element("a")
        .map_err(describe)?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // Revoking the URL before the browser has read the blob gives an empty file: wait a minute.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(60),
    );
    Ok(bytes.len())
}

/// Apply a permalink's state. The source is only put in the editor; nothing runs it.
fn apply_permalink(app: AppState, rs: RunState, data: &str) -> Result<(), String> {
    let s = PermalinkState::from_fragment_data(data)?;
    apply_state(app, rs, s, SourceOrigin::Permalink);
    Ok(())
}

/// Apply a state (a permalink's, or the session kept in storage).
fn apply_state(app: AppState, rs: RunState, s: PermalinkState, origin: SourceOrigin) {
    if let Some(stage) = Stage::from_id(&s.stage) {
        app.stage.set(stage);
    } else {
        app.stage.set(Stage::Full);
    }
    let problem = s.problem.as_deref().and_then(bench::find);
    match (&s.source, problem) {
        (Some(text), p) => {
            let name = if s.file.is_empty() {
                p.map(|p| p.test_name.to_string()).unwrap_or_default()
            } else {
                s.file.clone()
            };
            engine::load_text(app, &name, text, p.map(|p| p.slug), origin)
        }
        (None, Some(p)) => engine::load_problem(app, p.slug),
        (None, None) => engine::load_problem(app, DEFAULT_PROBLEM),
    }
    app.tab.set(Tab::from_id(&s.tab).unwrap_or(Tab::Assertions));
    if let Some(id) = s.shape.as_deref() {
        open_teaching(app, id);
    }
    app.selected.set(s.selected);
    if s.selected.is_some() {
        engine::reveal_selected_after_next_extraction();
    }
    // The Run tab's solution. Code is only put in the editor: it waits for the Run button.
    let carries_code = s.source.is_some() || s.solution_code.is_some();
    if let Some(code) = s.solution_code {
        rs.custom_code.set(Some(code));
    }
    rs.choice
        .set(SolutionChoice::from_id(&s.run_solution).unwrap_or(SolutionChoice::Reference));
    apply_run_mode(rs, &s.run_mode, s.mutant.as_deref());
    if carries_code && origin == SourceOrigin::Permalink {
        rs.permalink_pending.set(true);
    }
}

fn apply_route(app: AppState, rs: RunState, route: Route, first: bool) {
    match route {
        Route::Permalink(data) => {
            if let Err(e) = apply_permalink(app, rs, &data) {
                engine::toast(app, format!("This permalink could not be opened: {e}"));
                if first {
                    engine::load_problem(app, DEFAULT_PROBLEM);
                }
            }
        }
        Route::Shape(id) => {
            if open_teaching(app, &id) {
                app.tab.set(Tab::Shapes);
            }
            if first {
                engine::load_problem(app, DEFAULT_PROBLEM);
            }
        }
        Route::Tab(id) => {
            if let Some(t) = Tab::from_id(&id) {
                app.tab.set(t);
            }
            if first {
                engine::load_problem(app, DEFAULT_PROBLEM);
            }
        }
        Route::View(v) => {
            match v.problem.as_deref().and_then(bench::find) {
                Some(p) if app.problem.get_untracked() != Some(p.slug) || first => {
                    engine::load_problem(app, p.slug)
                }
                None if first => engine::load_problem(app, DEFAULT_PROBLEM),
                _ => {}
            }
            apply_view(app, rs, &v);
        }
        Route::Home => {
            if first {
                engine::load_problem(app, DEFAULT_PROBLEM);
            }
        }
    }
}

/// The stage, tab and teaching page of a view route.
fn apply_view(app: AppState, rs: RunState, v: &ViewState) {
    app.stage
        .set(Stage::from_id(&v.stage).unwrap_or(Stage::Full));
    app.tab.set(Tab::from_id(&v.tab).unwrap_or(Tab::Assertions));
    if v.tab == "run" {
        apply_run_mode(rs, &v.run_mode, v.mutant.as_deref());
    }
    if let Some(id) = v.shape.as_deref() {
        open_teaching(app, id);
    }
}

/// Show the teaching page `id` names: a shape's id (`variable-then-assert`) or a rule's code
/// (`M001`). False when it names neither.
pub fn open_teaching(app: AppState, id: &str) -> bool {
    if let Some(shape) = Shape::from_id(id) {
        app.shape_page.set(shape);
        app.rule_page.set(None);
        true
    } else if let Some(rule) = bench_explorer::Rule::find(id) {
        app.rule_page.set(Some(rule));
        true
    } else {
        false
    }
}

/// The id of the teaching page shown: the rule's code, else the shape's id.
fn teaching_id_untracked(app: AppState) -> String {
    match app.rule_page.get_untracked() {
        Some(rule) => rule.code().to_string(),
        None => app.shape_page.get_untracked().id().to_string(),
    }
}

/// The view the address bar shows (tracked: the URL follows it).
fn current_view(app: AppState, rs: RunState) -> ViewState {
    let tab = app.tab.get();
    let (run_mode, mutant) = if tab == Tab::Run {
        let mode = rs.mode.get();
        (
            run_mode_id(mode).to_string(),
            (mode == RunMode::Mutants)
                .then(|| rs.mutants.selected.get())
                .flatten(),
        )
    } else {
        (String::new(), None)
    };
    ViewState {
        run_mode,
        mutant,
        problem: app.problem.get().map(str::to_string),
        stage: app.stage.get().id().to_string(),
        tab: tab.id().to_string(),
        shape: (tab == Tab::Shapes).then(|| match app.rule_page.get() {
            Some(rule) => rule.code().to_string(),
            None => app.shape_page.get().id().to_string(),
        }),
    }
}

/// After a route has been applied: the address bar shows the view as the page now has it (the
/// same history entry), and that is what later changes compare with.
fn settle_url(app: AppState, rs: RunState, replace_url: bool) {
    let frag = untrack(|| current_view(app, rs)).fragment();
    LAST_FRAGMENT.with(|l| *l.borrow_mut() = frag.clone());
    if replace_url && location_hash() != frag {
        if let Ok(h) = window().history() {
            let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&frag));
        }
    }
}

/// The address bar follows the problem, stage and tab: each change is a new history entry (back
/// and forward move between views). The code is never put there (a permalink does that).
pub fn follow_view_in_url(app: AppState, rs: RunState) {
    Effect::new(move |_| {
        let frag = current_view(app, rs).fragment();
        if !RESTORED.with(Cell::get) {
            return;
        }
        if LAST_FRAGMENT.with(|l| *l.borrow() == frag) {
            return;
        }
        LAST_FRAGMENT.with(|l| *l.borrow_mut() = frag.clone());
        if let Ok(h) = window().history() {
            let _ = h.push_state_with_url(&JsValue::NULL, "", Some(&frag));
        }
    });
}

// ---- the session ------------------------------------------------------------------------------

fn load_session() -> Option<PermalinkState> {
    let text = js::local_storage()?.get_item(SESSION_KEY).ok().flatten()?;
    PermalinkState::from_json(&text).ok()
}

/// Keep the session in local storage: shortly after each change, and when the page is left.
pub fn keep_session(app: AppState, rs: RunState) {
    Effect::new(move |_| {
        app.analysis.track();
        app.problem.track();
        app.stage.track();
        app.tab.track();
        app.shape_page.track();
        app.rule_page.track();
        app.selected.track();
        rs.choice.track();
        rs.custom_code.track();
        rs.mode.track();
        rs.mutants.selected.track();
        if !RESTORED.with(Cell::get) {
            return;
        }
        let generation = SAVE_GENERATION.with(|g| {
            g.set(g.get() + 1);
            g.get()
        });
        set_timeout(
            move || {
                if SAVE_GENERATION.with(Cell::get) == generation {
                    save_session(app, rs);
                }
            },
            std::time::Duration::from_millis(300),
        );
    });
    let handle = window_event_listener_untyped("pagehide", move |_| save_session(app, rs));
    std::mem::forget(handle);
}

fn save_session(app: AppState, rs: RunState) {
    if !RESTORED.with(Cell::get) || js::with_editor(|_| ()).is_none() {
        return;
    }
    let Some(store) = js::local_storage() else {
        return;
    };
    // A very large file is not copied into storage on every edit (it would stall typing).
    let too_large = js::with_editor(|e| e.doc_length()).unwrap_or(0) > MAX_SESSION_SOURCE;
    let state = if too_large {
        PermalinkState {
            version: crate::logic::permalink::VERSION,
            stage: app.stage.get_untracked().id().to_string(),
            tab: app.tab.get_untracked().id().to_string(),
            ..Default::default()
        }
    } else {
        current_state(app, rs)
    };
    if !too_large && store.set_item(SESSION_KEY, &state.to_json()).is_ok() {
        if let Some(n) = use_context::<Notices>() {
            if n.not_kept.get_untracked() {
                n.not_kept.set(false);
            }
        }
        js::hook_set("sessionSaved", &JsValue::from_f64(js::now_ms()));
        return;
    }
    // Over the storage quota: keep the view at least, and say the file will not come back.
    let view_only = PermalinkState {
        source: None,
        solution_code: None,
        problem: None,
        ..state
    };
    let _ = store.set_item(SESSION_KEY, &view_only.to_json());
    if let Some(n) = use_context::<Notices>() {
        if !n.not_kept.get_untracked() {
            n.not_kept.set(true);
        }
    }
}

/// What to show first. Called once the editor exists.
pub fn restore_on_start(app: AppState, rs: RunState) {
    // After a crash, boot.js saved the editor's text: bring it back with extraction paused.
    if let Some(store) = js::session_storage() {
        if let Ok(Some(saved)) = store.get_item(RESCUE_KEY) {
            let _ = store.remove_item(RESCUE_KEY);
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(&saved) {
                let text = v.get("source").and_then(|s| s.as_str()).unwrap_or("");
                let name = v
                    .get("file")
                    .and_then(|s| s.as_str())
                    .unwrap_or("test_scratch.py");
                let stage = v
                    .get("stage")
                    .and_then(|s| s.as_str())
                    .and_then(Stage::from_id)
                    .unwrap_or_default();
                app.stage.set(stage);
                app.paused.set(true);
                let problem = bench::problems()
                    .iter()
                    .find(|p| p.test_name == name || bench::test_path(p) == name)
                    .map(|p| p.slug);
                engine::load_text(app, name, text, problem, SourceOrigin::Rescue);
                RESTORED.with(|r| r.set(true));
                settle_url(app, rs, true);
                return;
            }
        }
    }
    let hash = location_hash();
    LAST_FRAGMENT.with(|l| *l.borrow_mut() = hash.clone());
    let route = parse_fragment(&hash);
    match (route, load_session()) {
        // A permalink is opened as made; the address bar keeps it until the view changes.
        (route @ Route::Permalink(_), _) | (route, None) => {
            let keep = matches!(route, Route::Permalink(_));
            apply_route(app, rs, route, true);
            settle_url(app, rs, !keep);
        }
        // Otherwise the session comes back, in the view the address bar asks for.
        (route, Some(session)) => {
            apply_state(app, rs, session, SourceOrigin::File);
            match route {
                Route::Home => {}
                other => apply_route(app, rs, other, false),
            }
            settle_url(app, rs, true);
        }
    }
    RESTORED.with(|r| r.set(true));
}

/// Back, forward, a fragment typed or followed: apply what the address bar now says.
pub fn listen_for_hash_changes(app: AppState, rs: RunState) {
    let on_nav = move |_| {
        let hash = location_hash();
        if LAST_FRAGMENT.with(|l| *l.borrow() == hash) {
            return;
        }
        LAST_FRAGMENT.with(|l| *l.borrow_mut() = hash.clone());
        let route = parse_fragment(&hash);
        let keep = matches!(route, Route::Permalink(_));
        apply_route(app, rs, route, false);
        settle_url(app, rs, !keep);
    };
    let a = window_event_listener_untyped("hashchange", on_nav);
    let b = window_event_listener_untyped("popstate", on_nav);
    std::mem::forget((a, b));
}

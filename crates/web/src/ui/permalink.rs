//! Permalinks (the state in the URL fragment), routes, downloads, and the start-up sequence.

use std::cell::RefCell;

use bench_explorer::shape::Shape;
use bench_explorer::Stage;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::logic::permalink::{fragment, parse_fragment, PermalinkState, Route};
use crate::logic::run_results::SolutionChoice;
use crate::run_control::{effective_choice_untracked, RunState};
use crate::state::{AppState, SourceOrigin, Tab};
use crate::{bench, engine, js};

const RESCUE_KEY: &str = "bench-explorer:rescue";
const DEFAULT_PROBLEM: &str = "word_ladder";

thread_local! {
    /// The last fragment this page wrote or applied, so its own hash change is not applied again.
    static LAST_FRAGMENT: RefCell<String> = const { RefCell::new(String::new()) };
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
        shape: (app.tab.get_untracked() == Tab::Shapes)
            .then(|| app.shape_page.get_untracked().id().to_string()),
        selected: app.selected.get_untracked(),
        run_solution: Some(effective_choice_untracked(app, rs))
            .filter(|c| *c != SolutionChoice::Reference)
            .map(|c| c.id().to_string())
            .unwrap_or_default(),
        solution_code: (effective_choice_untracked(app, rs) == SolutionChoice::Custom)
            .then(|| rs.custom_code.get_untracked())
            .flatten(),
    }
}

/// Put the permalink in the address bar and copy it.
pub fn share(app: AppState, rs: RunState) {
    let state = current_state(app, rs);
    let frag = fragment(&js::compress(&state.to_json()));
    let loc = window().location();
    let base = format!(
        "{}{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    );
    let url = format!("{base}{frag}");
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

/// Download the current extraction as the contract's JSON.
pub fn download_json(app: AppState) {
    let Some(json) = app.analysis.with_untracked(|a| {
        a.as_ref()
            .map(|a| serde_json::to_string_pretty(&a.extraction))
    }) else {
        engine::toast(app, "Nothing extracted yet");
        return;
    };
    let Ok(json) = json else { return };
    let name = app.file_name.get_untracked();
    let stem = name.strip_suffix(".py").unwrap_or(&name).to_string();
    let file = format!("{stem}.{}.extraction.json", app.stage.get_untracked().id());
    if save_text(&file, &json, "application/json").is_err() {
        engine::toast(app, "The download could not be started");
    }
}

fn save_text(name: &str, text: &str, mime: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let url2 = url.clone();
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url2);
        },
        std::time::Duration::from_millis(1000),
    );
    Ok(())
}

/// Apply a permalink's state. The source is only put in the editor; nothing runs it.
fn apply_permalink(app: AppState, rs: RunState, data: &str) -> Result<(), String> {
    let s = PermalinkState::from_fragment_data(data)?;
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
            engine::load_text(app, &name, text, p.map(|p| p.slug), SourceOrigin::Permalink)
        }
        (None, Some(p)) => engine::load_problem(app, p.slug),
        (None, None) => engine::load_problem(app, DEFAULT_PROBLEM),
    }
    app.tab.set(Tab::from_id(&s.tab).unwrap_or(Tab::Assertions));
    if let Some(shape) = s.shape.as_deref().and_then(Shape::from_id) {
        app.shape_page.set(shape);
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
    if carries_code {
        rs.permalink_pending.set(true);
    }
    Ok(())
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
            if let Some(shape) = Shape::from_id(&id) {
                app.shape_page.set(shape);
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
        Route::Home => {
            if first {
                engine::load_problem(app, DEFAULT_PROBLEM);
            }
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
                return;
            }
        }
    }
    let hash = location_hash();
    LAST_FRAGMENT.with(|l| *l.borrow_mut() = hash.clone());
    apply_route(app, rs, parse_fragment(&hash), true);
}

pub fn listen_for_hash_changes(app: AppState, rs: RunState) {
    let handle = window_event_listener_untyped("hashchange", move |_| {
        let hash = location_hash();
        if LAST_FRAGMENT.with(|l| *l.borrow() == hash) {
            return;
        }
        LAST_FRAGMENT.with(|l| *l.borrow_mut() = hash.clone());
        apply_route(app, rs, parse_fragment(&hash), false);
    });
    std::mem::forget(handle);
}

//! The keyboard shortcuts (`logic::keys` says which key does what) and their sheet: `?` (outside
//! a text field) opens it, Escape closes it.

use bench_explorer::Status;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::logic::keys::{action, Action, Press, SHORTCUTS};
use crate::run_control::{self as running, RunStatus};
use crate::state::{use_app, AppState, Tab};

/// Whether a key event comes from a place that types text (an input, a select, the editor).
fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    let path = ev.composed_path();
    let Some(el) = path.get(0).dyn_into::<web_sys::Element>().ok() else {
        return false;
    };
    let tag = el.tag_name().to_ascii_lowercase();
    matches!(tag.as_str(), "input" | "textarea" | "select")
        || el
            .closest("[contenteditable='true'], .cm-content")
            .ok()
            .flatten()
            .is_some()
}

#[component]
pub fn ShortcutSheet() -> impl IntoView {
    let open = RwSignal::new(false);
    let app = use_app();
    let rs = running::use_run();
    // In the capture phase, so that the editor does not type what a shortcut means.
    let listener =
        Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |ev: web_sys::KeyboardEvent| {
            if ev.key() == "Escape" && open.get_untracked() {
                open.set(false);
                return;
            }
            let key = ev.key();
            let code = ev.code();
            let press = Press {
                key: &key,
                code: &code,
                ctrl: ev.ctrl_key(),
                meta: ev.meta_key(),
                alt: ev.alt_key(),
                shift: ev.shift_key(),
                typing: typing(&ev),
            };
            let Some(act) = action(press) else { return };
            // Ctrl+Enter is the Run tab's own listener (`run_control::install_shortcut`).
            if act == Action::Run {
                return;
            }
            ev.prevent_default();
            ev.stop_propagation();
            match act {
                Action::ToggleSheet => open.update(|o| *o = !*o),
                Action::Stage(stage) => app.stage.set(stage),
                Action::NextAssertion => step_assertion(app, true),
                Action::PreviousAssertion => step_assertion(app, false),
                Action::FocusEditor => {
                    crate::js::with_editor(|e| e.focus());
                }
                Action::FocusResults => focus_results(app),
                Action::OpenPage => open_page(app),
                Action::Stop => {
                    if matches!(rs.status.get_untracked(), RunStatus::Running { .. }) {
                        running::stop(rs);
                    } else if rs.mutants.running_untracked() {
                        crate::mutant_run::stop_mutants(rs);
                    }
                }
                Action::Run => {}
            }
        });
    let _ = window().add_event_listener_with_callback_and_bool(
        "keydown",
        listener.as_ref().unchecked_ref(),
        true,
    );
    listener.forget();
    view! {
        <Show when=move || open.get()>
            <div class="sheet-backdrop" on:click=move |_| open.set(false)></div>
            <div class="shortcut-sheet" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" data-testid="shortcut-sheet">
                <h2 id="shortcuts-title">"Keyboard shortcuts"</h2>
                <dl>
                    {SHORTCUTS.iter().map(|(k, what)| view! {
                        <dt><kbd>{*k}</kbd></dt>
                        <dd>{*what}</dd>
                    }).collect_view()}
                </dl>
                <button class="btn small" data-testid="shortcut-sheet-close" on:click=move |_| open.set(false)>"Close"</button>
            </div>
        </Show>
    }
}

/// The rows of the assertions tab, in the order shown.
fn rows() -> Vec<web_sys::HtmlElement> {
    let Some(list) = document()
        .query_selector_all("[data-testid='assertion-row']")
        .ok()
    else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.get(i)?.dyn_into::<web_sys::HtmlElement>().ok())
        .collect()
}

/// `j` / `k`: select the next (previous) assertion, as a click on its row does.
fn step_assertion(app: AppState, down: bool) {
    let was = app.tab.get_untracked();
    app.tab.set(Tab::Assertions);
    let go = move || {
        let rows = rows();
        if rows.is_empty() {
            return;
        }
        let current = rows
            .iter()
            .position(|r| r.class_list().contains("selected"));
        let next = match (current, down) {
            (None, true) => 0,
            (None, false) => rows.len() - 1,
            (Some(i), true) => (i + 1).min(rows.len() - 1),
            (Some(i), false) => i.saturating_sub(1),
        };
        rows[next].click();
        let _ = rows[next].focus();
    };
    if was == Tab::Assertions {
        go();
    } else {
        request_animation_frame(go);
    }
}

/// Alt+Shift+R: the selected assertion's row, or the first.
fn focus_results(app: AppState) {
    app.tab.set(Tab::Assertions);
    request_animation_frame(|| {
        let rows = rows();
        let row = rows
            .iter()
            .find(|r| r.class_list().contains("selected"))
            .or(rows.first());
        if let Some(row) = row {
            let _ = row.focus();
        }
    });
}

/// `o`: the selected assertion's rule page when it is dropped, else its first shape's page.
fn open_page(app: AppState) {
    let page = app.analysis.with_untracked(|a| {
        let a = a.as_ref()?;
        let x = a.extraction.assertions.get(app.selected.get_untracked()?)?;
        let rule = (x.status == Status::Dropped)
            .then(|| {
                x.rule
                    .as_ref()
                    .and_then(|r| bench_explorer::Rule::find(&r.code))
            })
            .flatten();
        Some((rule, x.shapes.first().copied()))
    });
    match page {
        Some((Some(rule), _)) => {
            app.rule_page.set(Some(rule));
            app.tab.set(Tab::Shapes);
        }
        Some((None, Some(shape))) => {
            app.rule_page.set(None);
            app.shape_page.set(shape);
            app.tab.set(Tab::Shapes);
        }
        Some((None, None)) => crate::engine::toast(app, "This assertion has no rule or shape page"),
        None => crate::engine::toast(app, "Select an assertion first (j / k)"),
    }
}

//! The handle between the source and the results: drag it (or focus it and press ← / →) to give
//! one pane more room; double-click resets. The width is kept in local storage.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::js;

const SPLIT_KEY: &str = "bench-explorer:split";
const MIN_PANE: f64 = 260.0;
const STEP: f64 = 40.0;

fn layout() -> Option<web_sys::HtmlElement> {
    document()
        .query_selector(".layout")
        .ok()
        .flatten()?
        .dyn_into()
        .ok()
}

/// Set the source pane's width in pixels (clamped so both panes keep `MIN_PANE`); `None` resets.
fn set_split(px: Option<f64>) {
    let Some(el) = layout() else { return };
    let style = el.style();
    match px {
        Some(px) => {
            let width = el.client_width() as f64 - 24.0 - 12.0;
            let px = px.clamp(MIN_PANE, (width - MIN_PANE).max(MIN_PANE)).round();
            let _ = style.set_property("--split", &format!("{px}px"));
            if let Some(s) = js::local_storage() {
                let _ = s.set_item(SPLIT_KEY, &px.to_string());
            }
            js::hook_set("split", &px.into());
        }
        None => {
            let _ = style.remove_property("--split");
            if let Some(s) = js::local_storage() {
                let _ = s.remove_item(SPLIT_KEY);
            }
            js::hook_set("split", &wasm_bindgen::JsValue::NULL);
        }
    }
}

fn current_split() -> f64 {
    document()
        .query_selector(".source-pane")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .map(|e| e.offset_width() as f64)
        .unwrap_or(600.0)
}

#[component]
pub fn Splitter() -> impl IntoView {
    let dragging = RwSignal::new(false);
    // The stored width, once the layout is in the document.
    request_animation_frame(|| {
        if let Some(px) = js::local_storage()
            .and_then(|s| s.get_item(SPLIT_KEY).ok().flatten())
            .and_then(|v| v.parse::<f64>().ok())
        {
            set_split(Some(px));
        }
    });
    let mv = window_event_listener(leptos::ev::mousemove, move |ev: web_sys::MouseEvent| {
        if !dragging.get_untracked() {
            return;
        }
        ev.prevent_default();
        if let Some(el) = layout() {
            let left = el.offset_left() as f64 + 12.0;
            set_split(Some(ev.client_x() as f64 - left - 6.0));
        }
    });
    let up = window_event_listener(leptos::ev::mouseup, move |_| {
        if dragging.get_untracked() {
            dragging.set(false);
        }
    });
    on_cleanup(move || {
        mv.remove();
        up.remove();
    });
    view! {
        <div class="splitter" class:dragging=move || dragging.get() role="separator" aria-orientation="vertical"
            aria-label="Resize the source and results panes" tabindex="0" data-testid="splitter"
            title="Drag to resize (double-click resets)"
            on:mousedown=move |ev| { ev.prevent_default(); dragging.set(true); }
            on:dblclick=move |_| set_split(None)
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                let delta = match ev.key().as_str() {
                    "ArrowLeft" => -STEP,
                    "ArrowRight" => STEP,
                    _ => return,
                };
                ev.prevent_default();
                set_split(Some(current_split() + delta));
            }>
        </div>
    }
}

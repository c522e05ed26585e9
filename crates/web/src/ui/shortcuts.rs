//! The keyboard-shortcut sheet: `?` (outside a text field) opens it, Escape closes it.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// (keys, what they do), in the order shown.
pub const SHORTCUTS: &[(&str, &str)] = &[
    (
        "Ctrl+Enter / ⌘+Enter",
        "Run the file against the chosen solution (Run tab)",
    ),
    ("?", "Show or hide this sheet"),
    ("Esc", "Close this sheet or the settings"),
    (
        "← / → on the tabs",
        "Move between the result tabs (Home, End: first, last)",
    ),
    (
        "Ctrl+F / ⌘+F in the editor",
        "Search (and replace) in the file",
    ),
    ("Ctrl+Z / Ctrl+Shift+Z", "Undo / redo in the editor"),
    ("Ctrl+[ / Ctrl+]", "Indent less / more"),
    ("Ctrl+Shift+[ / ]", "Fold / unfold the block at the cursor"),
    ("Ctrl+Shift+M", "Open the editor's list of diagnostics"),
    (
        "Tab, Shift+Tab",
        "Move between controls (Esc, then Tab leaves the editor)",
    ),
];

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
    let handle = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Escape" && open.get_untracked() {
            open.set(false);
            return;
        }
        if ev.key() == "?" && !ev.ctrl_key() && !ev.meta_key() && !ev.alt_key() && !typing(&ev) {
            ev.prevent_default();
            open.update(|o| *o = !*o);
        }
    });
    on_cleanup(move || handle.remove());
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

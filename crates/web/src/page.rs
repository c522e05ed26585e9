//! Starting the page, and the page-wide settings kept in local storage (theme, intro seen).

use leptos::prelude::*;

use crate::{engine, js, run_control, ui};
use wasm_bindgen::JsCast;

use crate::logic::settings::Settings;
use crate::state::{AppState, Theme};

const INTRO_KEY: &str = "bench-explorer:intro-seen";
const THEME_KEY: &str = "bench-explorer:theme";
const SETTINGS_KEY: &str = "bench-explorer:settings";

pub fn start() {
    // A panic aborts the wasm (wasm32 on stable cannot unwind). Log it, and let boot.js draw a
    // banner outside the wasm: the DOM keeps the last good result, and the banner offers a reload
    // that keeps the editor's text (extraction then starts paused on it).
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        js::report_fatal(&format!("bench-explorer hit an internal error: {info}"));
    }));

    let theme = initial_theme();
    apply_theme(theme);
    let intro_open = js::local_storage()
        .and_then(|s| s.get_item(INTRO_KEY).ok().flatten())
        .is_none();

    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        js::report_fatal("the page has no #app element");
        return;
    };
    root.set_inner_html("");
    let handle = leptos::mount::mount_to(root, move || {
        let app = AppState::new(theme, intro_open);
        app.settings.set(load_settings());
        provide_context(app);
        provide_context(run_control::RunState::new());
        view! { <ui::App/> }
    });
    std::mem::forget(handle);
    engine::install_measure_hook();
}

fn initial_theme() -> Theme {
    match js::local_storage()
        .and_then(|s| s.get_item(THEME_KEY).ok().flatten())
        .as_deref()
    {
        Some("dark") => Theme::Dark,
        Some("light") => Theme::Light,
        _ => system_theme(),
    }
}

fn system_theme() -> Theme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches());
    if dark {
        Theme::Dark
    } else {
        Theme::Light
    }
}

fn apply_theme(theme: Theme) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute(
            "data-theme",
            if theme == Theme::Dark {
                "dark"
            } else {
                "light"
            },
        );
    }
}

/// Switch theme and remember the choice.
pub(crate) fn set_theme(app: AppState, theme: Theme) {
    apply_theme(theme);
    app.theme.set(theme);
    if let Some(s) = js::local_storage() {
        let _ = s.set_item(
            THEME_KEY,
            if theme == Theme::Dark {
                "dark"
            } else {
                "light"
            },
        );
    }
}

pub(crate) fn dismiss_intro(app: AppState) {
    app.intro_open.set(false);
    if let Some(s) = js::local_storage() {
        let _ = s.set_item(INTRO_KEY, "1");
    }
}

/// Until the user picks a theme with the toggle, follow the system's light/dark setting as it changes.
pub(crate) fn follow_system_theme(app: AppState) {
    use wasm_bindgen::closure::Closure;
    let Some(mq) = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
    else {
        return;
    };
    let on_change = Closure::<dyn Fn()>::new(move || {
        let chosen = js::local_storage()
            .and_then(|s| s.get_item(THEME_KEY).ok().flatten())
            .is_some();
        if !chosen {
            let theme = system_theme();
            apply_theme(theme);
            app.theme.set(theme);
        }
    });
    let _ = mq.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
    on_change.forget();
}

fn load_settings() -> Settings {
    js::local_storage()
        .and_then(|s| s.get_item(SETTINGS_KEY).ok().flatten())
        .map(|t| Settings::from_json(&t))
        .unwrap_or_default()
}

/// Change the settings, remember them, and apply the editor's part to every editor.
pub(crate) fn set_settings(app: AppState, settings: Settings) {
    if let Some(s) = js::local_storage() {
        let _ = s.set_item(SETTINGS_KEY, &settings.to_json());
    }
    apply_editor_settings(&settings);
    app.settings.set(settings);
}

/// The editor's wrapping and font size (editor.js applies them to editors created later too).
pub(crate) fn apply_editor_settings(settings: &Settings) {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &"wrap".into(), &settings.wrap.into());
    let _ = js_sys::Reflect::set(&o, &"fontSize".into(), &(settings.font_px as f64).into());
    js::with_editor(|e| e.set_settings(&o));
}

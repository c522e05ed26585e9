//! The settings panel: the slug and solution modules the extractor is told (the CLI's `--slug` and
//! `--solution-module`), and the editor's line wrapping and font size. Kept in local storage.

use leptos::prelude::*;

use crate::engine;
use crate::logic::settings::{Settings, MAX_FONT_PX, MIN_FONT_PX};
use crate::page::set_settings;
use crate::state::use_app;

#[component]
pub fn SettingsButton(open: RwSignal<bool>) -> impl IntoView {
    view! {
        <button class="btn icon" data-testid="settings-button" aria-label="Settings" title="Settings"
            aria-expanded=move || if open.get() { "true" } else { "false" }
            on:click=move |_| open.update(|o| *o = !*o)>
            <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
                <path d="M8 5.5a2.5 2.5 0 100 5 2.5 2.5 0 000-5zM8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4"
                    fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/>
            </svg>
        </button>
    }
}

#[component]
pub fn SettingsPanel(open: RwSignal<bool>) -> impl IntoView {
    let app = use_app();
    let change = move |f: &dyn Fn(&mut Settings)| {
        let old = app.settings.get_untracked();
        let mut s = old.clone();
        f(&mut s);
        let retell = (s.slug(), s.modules(), s.pytest_version())
            != (old.slug(), old.modules(), old.pytest_version());
        set_settings(app, s);
        // What the extractor is told changed: extract again.
        if retell {
            engine::request(app);
        }
    };
    let guessed = move || {
        app.analysis.with(|a| {
            a.as_ref()
                .map(|a| a.extraction.slug.clone())
                .unwrap_or_default()
        })
    };
    view! {
        <Show when=move || open.get()>
            <div class="settings-panel" role="dialog" aria-label="Settings" data-testid="settings-panel"
                on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { open.set(false); }>
                <h2>"Settings"</h2>
                <label class="setting">
                    <span>"Slug"<small>" (--slug: the function the statement names)"</small></span>
                    <input type="text" spellcheck="false" data-testid="settings-slug"
                        placeholder=move || {
                            if engine::slug_is_real(app) { format!("{} (from the file)", guessed()) } else { "none (a pasted file)".to_string() }
                        }
                        prop:value=move || app.settings.with(|s| s.slug.clone())
                        on:change=move |ev| { let v = event_target_value(&ev); change(&|s| s.slug = v.trim().to_string()); }/>
                </label>
                <label class="setting">
                    <span>"Solution modules"<small>" (--solution-module, comma-separated)"</small></span>
                    <input type="text" spellcheck="false" data-testid="settings-modules" placeholder="solution"
                        prop:value=move || app.settings.with(|s| s.solution_modules.clone())
                        on:change=move |ev| { let v = event_target_value(&ev); change(&|s| s.solution_modules = v.clone()); }/>
                </label>
                <label class="setting">
                    <span>"pytest version"<small>" (--pytest-version: 9.2 names a string over 100 characters by its argument and index)"</small></span>
                    <select data-testid="settings-pytest-version"
                        prop:value=move || app.settings.with(|s| if s.pytest_version.is_empty() { "9.0".to_string() } else { s.pytest_version.clone() })
                        on:change=move |ev| { let v = event_target_value(&ev); change(&|s| s.pytest_version = if v == "9.0" { String::new() } else { v.clone() }); }>
                        <option value="9.0">"9.0 (the page's)"</option>
                        <option value="9.1">"9.1"</option>
                        <option value="9.2">"9.2"</option>
                    </select>
                </label>
                <label class="setting inline">
                    <input type="checkbox" data-testid="settings-wrap"
                        prop:checked=move || app.settings.with(|s| s.wrap)
                        on:change=move |ev| { let on = event_target_checked(&ev); change(&|s| s.wrap = on); }/>
                    <span>"Wrap long lines in the editor"</span>
                </label>
                <label class="setting inline">
                    <span>"Editor font size"</span>
                    <input type="number" class="num-input" data-testid="settings-font"
                        min=MIN_FONT_PX max=MAX_FONT_PX step="1"
                        prop:value=move || app.settings.with(|s| s.font_px.to_string())
                        on:change=move |ev| {
                            if let Ok(px) = event_target_value(&ev).trim().parse::<u32>() {
                                change(&|s| s.font_px = px.clamp(MIN_FONT_PX, MAX_FONT_PX));
                            }
                        }/>
                    <span>"px"</span>
                </label>
                <div class="settings-actions">
                    <button class="btn small" data-testid="settings-reset" on:click=move |_| change(&|s| *s = Settings::default())>"Reset"</button>
                    <button class="btn small primary" data-testid="settings-close" on:click=move |_| open.set(false)>"Done"</button>
                </div>
            </div>
        </Show>
    }
}

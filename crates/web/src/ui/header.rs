//! The header: the name, the stage switch, and the page actions.

use bench_explorer::Stage;
use leptos::prelude::*;

use super::common::inlines;
use super::permalink;
use crate::logic::teach::{stage_blurb, stage_short};
use crate::state::{use_app, Theme};

#[component]
pub fn Header() -> impl IntoView {
    let app = use_app();
    let rs = crate::run_control::use_run();
    let settings_open = RwSignal::new(false);
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">"⟨≡⟩"</span>
                <div>
                    <h1>"bench-explorer"</h1>
                    <p class="tagline">"What does a code-generation bench really check?"</p>
                </div>
            </div>
            <StageSwitch/>
            <nav class="actions" aria-label="Page actions">
                <button class="btn" data-testid="permalink-button" title="Copy a link that restores this file and view"
                    on:click=move |_| permalink::share(app, rs)>
                    <Icon d="M6.5 9.5l3-3M7 4.5l1.2-1.2a2.5 2.5 0 013.5 3.5L10.5 8M9 11.5l-1.2 1.2a2.5 2.5 0 01-3.5-3.5L5.5 8"/>"Permalink"
                </button>
                <button class="btn" data-testid="download-json" title="Download the extraction as the contract's JSON"
                    on:click=move |_| permalink::download_json(app)>
                    <Icon d="M8 2.5v8M4.5 7.5L8 11l3.5-3.5M3 13.5h10"/>"JSON"
                </button>
                <button class="btn icon" data-testid="theme-toggle"
                    aria-label=move || if app.theme.get() == Theme::Dark { "Switch to light mode" } else { "Switch to dark mode" }
                    title=move || if app.theme.get() == Theme::Dark { "Light mode" } else { "Dark mode" }
                    on:click=move |_| {
                        let next = if app.theme.get_untracked() == Theme::Dark { Theme::Light } else { Theme::Dark };
                        crate::page::set_theme(app, next);
                    }>
                    {move || if app.theme.get() == Theme::Dark {
                        view! { <Icon d="M8 5a3 3 0 100 6 3 3 0 000-6zM8 1v1.5M8 13.5V15M1 8h1.5M13.5 8H15M3 3l1 1M12 12l1 1M3 13l1-1M12 4l1-1"/> }.into_any()
                    } else {
                        view! { <Icon d="M13 9.5A5.5 5.5 0 016.5 3a5.5 5.5 0 106.5 6.5z"/> }.into_any()
                    }}
                </button>
                <super::settings::SettingsButton open=settings_open/>
                <button class="btn icon" data-testid="intro-button" aria-label="What is this page?" title="What is this page?"
                    on:click=move |_| app.intro_open.set(true)>
                    "?"
                </button>
            </nav>
            <super::settings::SettingsPanel open=settings_open/>
        </header>
    }
}

/// The write-up's stages and ours, as a radio group (arrow keys move between them natively).
#[component]
fn StageSwitch() -> impl IntoView {
    let app = use_app();
    view! {
        <div class="stage-switch">
            <fieldset class="segmented" data-testid="stage-switch">
                <legend class="visually-hidden">"Extractor stage"</legend>
                {Stage::ALL
                    .into_iter()
                    .map(|s| {
                        view! {
                            <label class="segment" class:active=move || app.stage.get() == s title=stage_blurb(s).replace('`', "")>
                                <input
                                    type="radio"
                                    name="stage"
                                    value=s.id()
                                    data-testid=format!("stage-{}", s.id())
                                    prop:checked=move || app.stage.get() == s
                                    on:change=move |_| app.stage.set(s)
                                />
                                <span>{stage_short(s)}</span>
                            </label>
                        }
                    })
                    .collect_view()}
            </fieldset>
            <p class="stage-blurb" data-testid="stage-blurb">{move || inlines(stage_blurb(app.stage.get()))}</p>
        </div>
    }
}

/// A 16×16 line icon (decorative: the button carries the text or label).
#[component]
fn Icon(d: &'static str) -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d=d fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"/>
        </svg>
    }
}

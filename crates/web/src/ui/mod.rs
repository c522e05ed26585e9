//! The components. `App` lays out the page: a header (stage switch, permalink, download, theme),
//! the source pane (picker + editor) and the results pane (tabs).

mod audit;
mod common;
mod header;
mod intro;
mod permalink;
mod problem;
mod results;
mod run_tab;
mod shapes;
mod source;

use leptos::prelude::*;

use super::engine;
use super::state::{use_app, Tab};
use crate::run_control as running;

#[component]
pub fn App() -> impl IntoView {
    let app = use_app();

    // Re-extract when what the extractor is told changes (the text itself reports its own edits).
    Effect::new(move |prev: Option<()>| {
        app.stage.track();
        app.file_name.track();
        app.problem.track();
        if prev.is_some() {
            engine::request(app);
        }
    });

    // Start-up (a permalink, a teaching page or tab from the fragment, or the default problem) runs
    // once the editor exists: see `source::SourcePane`.
    let rs = running::use_run();
    permalink::listen_for_hash_changes(app, rs);

    crate::page::follow_system_theme(app);

    // Python loads in the background once the first extraction is on screen; extraction never
    // waits for it. Ctrl+Enter runs the current file.
    Effect::new(move |started: Option<bool>| {
        if started == Some(true) {
            return true;
        }
        if app.analysis.with(|a| a.is_some()) {
            running::start_in_background(rs);
            return true;
        }
        false
    });
    running::install_shortcut(app, rs);
    running::follow_problem(app, rs);

    // Each tab starts at its top.
    Effect::new(move |_| {
        app.tab.track();
        if let Some(el) = document().query_selector(".tab-body").ok().flatten() {
            el.set_scroll_top(0);
        }
    });
    source::listen_for_drops(app);

    view! {
        <a class="skip-link" href="#results">"Skip to the results"</a>
        <header::Header/>
        <main class="layout">
            <intro::Intro/>
            <source::SourcePane/>
            <section id="results" class="pane results-pane" aria-label="Results" tabindex="-1">
                <TabBar/>
                <div class="tab-body">
                    {move || match app.tab.get() {
                        Tab::Assertions => view! { <results::Assertions/> }.into_any(),
                        Tab::Problem => view! { <problem::ProblemView/> }.into_any(),
                        Tab::Audit => view! { <audit::AuditView/> }.into_any(),
                        Tab::Shapes => view! { <shapes::ShapesView/> }.into_any(),
                        Tab::Run => view! { <run_tab::RunPanel/> }.into_any(),
                    }}
                </div>
            </section>
        </main>
        <common::Toast/>
    }
}

/// The results tabs (WAI-ARIA tabs: arrow keys move between them).
#[component]
fn TabBar() -> impl IntoView {
    let app = use_app();
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let i = Tab::ALL
            .iter()
            .position(|t| *t == app.tab.get_untracked())
            .unwrap_or(0);
        let n = Tab::ALL.len();
        let next = match ev.key().as_str() {
            "ArrowRight" => (i + 1) % n,
            "ArrowLeft" => (i + n - 1) % n,
            "Home" => 0,
            "End" => n - 1,
            _ => return,
        };
        ev.prevent_default();
        app.tab.set(Tab::ALL[next]);
        common::focus_selector(&format!("[data-testid='tab-{}']", Tab::ALL[next].id()));
    };
    view! {
        <div class="tabs" role="tablist" aria-label="Views" on:keydown=on_key data-testid="tabs">
            {Tab::ALL
                .into_iter()
                .map(|t| {
                    let selected = move || app.tab.get() == t;
                    view! {
                        <button
                            role="tab"
                            class="tab"
                            class:active=selected
                            aria-selected=move || if selected() { "true" } else { "false" }
                            tabindex=move || if selected() { "0" } else { "-1" }
                            data-testid=format!("tab-{}", t.id())
                            on:click=move |_| app.tab.set(t)
                        >
                            {t.label()}
                            {(t == Tab::Assertions)
                                .then(|| {
                                    view! {
                                        <span class="tab-count" data-testid="assertion-count">
                                            {move || {
                                                app.analysis
                                                    .with(|a| {
                                                        a.as_ref()
                                                            .map(|a| a.extraction.assertions.len().to_string())
                                                            .unwrap_or_default()
                                                    })
                                            }}
                                        </span>
                                    }
                                })}
                            {(t == Tab::Run).then(|| view! { <run_tab::PyDot/> })}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

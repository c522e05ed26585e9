//! The components. `App` lays out the page: a header (stage switch, permalink, download, theme),
//! the source pane (picker + editor) and the results pane (tabs).

mod audit;
mod common;
mod compare;
mod header;
mod intro;
mod mutants;
mod permalink;
mod problem;
mod results;
mod run_tab;
mod settings;
mod shapes;
mod shortcuts;
mod source;
mod splitter;

use leptos::prelude::*;

use super::engine;

/// On a narrow screen, which pane has the room: both (stacked), the editor, or the results. The
/// other pane keeps its bar (the problem picker, the tabs), one tap from coming back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NarrowView {
    Both,
    Editor,
    Results,
}

#[derive(Clone, Copy)]
pub struct Narrow(pub RwSignal<NarrowView>);
use super::state::{use_app, Tab};
use crate::run_control as running;

#[component]
pub fn App() -> impl IntoView {
    let app = use_app();

    // Re-extract when what the extractor is told changes (the text itself reports its own edits).
    let told = Memo::new(move |_| app.settings.with(|s| (s.slug(), s.modules())));
    Effect::new(move |prev: Option<()>| {
        app.stage.track();
        app.file_name.track();
        app.problem.track();
        let _told = told.get();
        if prev.is_some() {
            engine::request(app);
        }
    });

    // Start-up (a permalink, a teaching page or tab from the fragment, or the default problem) runs
    // once the editor exists: see `source::SourcePane`.
    let rs = running::use_run();
    provide_context(permalink::Notices {
        link: RwSignal::new(None),
        not_kept: RwSignal::new(false),
    });
    let narrow = RwSignal::new(NarrowView::Both);
    provide_context(Narrow(narrow));
    permalink::listen_for_hash_changes(app, rs);
    permalink::follow_view_in_url(app, rs);
    permalink::keep_session(app, rs);

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
        <permalink::LinkRefused/>
        <main class="layout"
            class:narrow-editor=move || narrow.get() == NarrowView::Editor
            class:narrow-results=move || narrow.get() == NarrowView::Results>
            <intro::Intro/>
            <source::SourcePane/>
            <splitter::Splitter/>
            <section id="results" class="pane results-pane" aria-label="Results" tabindex="-1">
                <TabBar/>
                <div class="tab-body">
                    {move || match app.tab.get() {
                        Tab::Assertions => view! { <results::Assertions/> }.into_any(),
                        Tab::Problem => view! { <common::WithBenchFiles><problem::ProblemView/></common::WithBenchFiles> }.into_any(),
                        Tab::Audit => view! { <common::WithBenchFiles><audit::AuditView/></common::WithBenchFiles> }.into_any(),
                        Tab::Shapes => view! { <shapes::ShapesView/> }.into_any(),
                        Tab::Compare => view! { <compare::CompareView/> }.into_any(),
                        Tab::Run => view! { <common::WithBenchFiles><run_tab::RunPanel/></common::WithBenchFiles> }.into_any(),
                    }}
                </div>
            </section>
        </main>
        <NarrowBar/>
        <shortcuts::ShortcutSheet/>
        <common::Toast/>
    }
}

/// The narrow screen's bar (hidden on wide screens): give the room to the editor, both panes or the
/// results, and Run from anywhere.
#[component]
fn NarrowBar() -> impl IntoView {
    let app = use_app();
    let rs = running::use_run();
    let Narrow(narrow) = expect_context::<Narrow>();
    let choice = move |v: NarrowView, id: &'static str, label: &'static str| {
        view! {
            <button class="btn small" class:active=move || narrow.get() == v
                aria-pressed=move || if narrow.get() == v { "true" } else { "false" }
                data-testid=format!("narrow-{id}") on:click=move |_| narrow.set(v)>{label}</button>
        }
    };
    view! {
        <nav class="narrow-bar" aria-label="Panes" data-testid="narrow-bar">
            {choice(NarrowView::Editor, "editor", "Editor")}
            {choice(NarrowView::Both, "both", "Both")}
            {choice(NarrowView::Results, "results", "Results")}
            <span class="spacer"></span>
            <button class="btn primary small" data-testid="narrow-run" title="Run this file (Ctrl+Enter)"
                on:click=move |_| {
                    narrow.set(NarrowView::Results);
                    app.tab.set(Tab::Run);
                    rs.mode.set(running::RunMode::File);
                    if !matches!(rs.status.get_untracked(), running::RunStatus::Running { .. }) {
                        running::run_file(app, rs);
                    }
                }>"▶ Run"</button>
        </nav>
    }
}

/// The results tabs (WAI-ARIA tabs: arrow keys move between them).
#[component]
fn TabBar() -> impl IntoView {
    let app = use_app();
    let Narrow(narrow) = expect_context::<Narrow>();
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
                            on:click=move |_| {
                                app.tab.set(t);
                                // On a narrow screen, a tab picked while the editor has the room shows it.
                                if narrow.get_untracked() == NarrowView::Editor {
                                    narrow.set(NarrowView::Both);
                                }
                            }
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

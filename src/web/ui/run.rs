//! The Run tab: a placeholder for running the assertions and pytest in Python (the next issue).

use leptos::prelude::*;

use crate::web::state::{use_app, SourceOrigin};

#[component]
pub fn RunPanel() -> impl IntoView {
    let app = use_app();
    view! {
        <div class="run-panel" data-testid="run-panel">
            <h2>"Run"</h2>
            <p class="lead">
                "Coming next: Python in a Web Worker, so you can check the extraction against reality. "
                "Each kept assertion evaluated in a fresh copy of the solution's namespace, as the bench loop does, "
                "beside real pytest on the same test file; where the loop fails an assertion that pytest passes, "
                "that is a measurement bug, not a solution bug."
            </p>
            <ul class="muted">
                <li>"The reference solution, the stub, or code you type in a second editor."</li>
                <li>"A time limit per run; a runaway run ends the worker, not the page."</li>
                <li>"Code that arrives through a permalink never runs until you press Run."</li>
            </ul>
            <Show when=move || app.origin.get() == SourceOrigin::Permalink>
                <p class="notice info" data-testid="permalink-code-note">"This file came from a permalink: it will not run by itself."</p>
            </Show>
            <button class="btn primary" disabled=true data-testid="run-button" title="Not available yet">"Run"</button>
        </div>
    }
}

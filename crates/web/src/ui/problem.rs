//! The problem tab: the statement, the conventions the tests rely on (and whether the statement
//! states them), the reference solution and stub, and for clean-phone the original statement beside
//! the fixed one.

use std::cell::RefCell;
use std::collections::HashMap;

use bench_explorer::bench::missing_conventions;
use bench_explorer::shape::Shape;
use leptos::html;
use leptos::prelude::*;

use super::common::{markdown_view, ShapeBadge};
use crate::bench::{self, EmbeddedProblem};
use crate::js::{self, EditorHandle, EditorOptions};
use crate::state::use_app;

#[component]
pub fn ProblemView() -> impl IntoView {
    let app = use_app();
    view! {
        <div class="problem-view" data-testid="problem-view">
            {move || match app.problem.get().and_then(bench::find) {
                Some(p) => view! { <ProblemPage problem=p/> }.into_any(),
                None => view! {
                    <div class="empty">
                        <p>"This file is not one of the bench's problems, so there is no statement or reference solution to show."</p>
                        <p>"Pick a problem in the list above the editor to read its statement and solution."</p>
                    </div>
                }.into_any(),
            }}
        </div>
    }
}

#[component]
fn ProblemPage(problem: &'static EmbeddedProblem) -> impl IntoView {
    let meta = bench::meta(problem.slug);
    let statement = problem.statement().unwrap_or("");
    let header = meta.map(|m| {
        let tags = m.tags.clone();
        view! {
            <div class="problem-head">
                <h2>{m.title.clone()}</h2>
                <div class="chips">
                    <span class="chip difficulty">{m.difficulty.clone()}</span>
                    {tags.into_iter().map(|t| view! { <span class="chip">{t}</span> }).collect_view()}
                    {m.shapes.iter().filter_map(|s| Shape::from_id(s)).map(|s| view! { <ShapeBadge shape=s/> }).collect_view()}
                </div>
                <p class="note">{m.note.clone()}</p>
            </div>
        }
    });

    let body = match problem.original_statement() {
        Some(original) => {
            let hidden = meta.map(|m| missing_conventions(m, original)).unwrap_or_default();
            view! {
                <section class="compare" data-testid="statement-compare">
                    <div class="notice info">
                        <strong>"Hidden rule in the statement. "</strong>
                        "The original statement left out conventions the tests rely on; the fixed one states them."
                        {(!hidden.is_empty()).then(|| view! {
                            <ul class="hidden-list" data-testid="hidden-conventions">
                                {hidden.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}
                            </ul>
                        })}
                    </div>
                    <div class="compare-cols">
                        <article class="statement original" data-testid="statement-original">
                            <h3 class="col-title">"Original statement"</h3>
                            {markdown_view(original)}
                        </article>
                        <article class="statement fixed" data-testid="statement-fixed">
                            <h3 class="col-title">"Fixed statement"</h3>
                            {markdown_view(statement)}
                        </article>
                    </div>
                </section>
            }
            .into_any()
        }
        None => view! { <article class="statement" data-testid="statement">{markdown_view(statement)}</article> }.into_any(),
    };

    let conventions = meta.filter(|m| !m.conventions.is_empty()).map(|m| {
        let missing = missing_conventions(m, statement);
        let items = m
            .conventions
            .iter()
            .map(|c| {
                let stated = !missing.contains(c);
                view! {
                    <li class:stated=stated class:missing=!stated>
                        <span class="mark" aria-label=if stated { "stated" } else { "not stated" }>{if stated { "✓" } else { "✕" }}</span>
                        {c.clone()}
                    </li>
                }
            })
            .collect_view();
        view! {
            <section class="conventions" data-testid="conventions">
                <h3>"Conventions the tests rely on"</h3>
                <p class="muted">"From the problem's "<code>"meta.toml"</code>"; each must appear in the statement, or the bench measures the statement instead of the code."</p>
                <ul>{items}</ul>
            </section>
        }
    });

    let (which, set_which) = signal(if problem.solution().is_some() {
        "solution"
    } else {
        "stub"
    });
    let code = Signal::derive(move || {
        let text = if which.get() == "solution" {
            problem.solution()
        } else {
            problem.stub()
        };
        text.unwrap_or("").to_string()
    });

    view! {
        {header}
        {body}
        {conventions}
        <section class="reference">
            <div class="reference-head">
                <h3>"Code"</h3>
                <div class="segmented small" role="group" aria-label="Which file">
                    <button class="segment" class:active=move || which.get() == "solution" aria-pressed=move || (which.get() == "solution").to_string()
                        data-testid="show-solution" on:click=move |_| set_which.set("solution")>"solution.py"</button>
                    <button class="segment" class:active=move || which.get() == "stub" aria-pressed=move || (which.get() == "stub").to_string()
                        data-testid="show-stub" on:click=move |_| set_which.set("stub")>"stub.py"</button>
                </div>
            </div>
            <ReadOnlyCode text=code label="Reference code (read-only)" testid="solution-code"/>
        </section>
    }
}

thread_local! {
    static VIEWERS: RefCell<HashMap<u64, EditorHandle>> = RefCell::new(HashMap::new());
    static NEXT_ID: std::cell::Cell<u64> = const { std::cell::Cell::new(1) };
}

/// A read-only CodeMirror view of some Python (highlighting, line numbers, search).
#[component]
pub fn ReadOnlyCode(
    text: Signal<String>,
    label: &'static str,
    testid: &'static str,
) -> impl IntoView {
    let host = NodeRef::<html::Div>::new();
    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    });
    Effect::new(move |_| {
        let doc = text.get();
        let Some(el) = host.get() else { return };
        let exists = VIEWERS.with(|v| v.borrow().contains_key(&id));
        if exists {
            VIEWERS.with(|v| {
                if let Some(e) = v.borrow().get(&id) {
                    e.set_doc(&doc, true);
                }
            });
        } else {
            let opts = EditorOptions {
                doc,
                read_only: true,
                label,
                testid,
                on_change: None,
                on_cursor: None,
            };
            let e = js::create_editor(&el, &opts.into_js());
            VIEWERS.with(|v| v.borrow_mut().insert(id, e));
        }
    });
    on_cleanup(move || {
        if let Some(e) = VIEWERS.with(|v| v.borrow_mut().remove(&id)) {
            e.destroy();
        }
    });
    view! { <div class="code-viewer" node_ref=host></div> }
}

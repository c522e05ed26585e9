//! The teaching pages: one per shape, reached from every badge, and one per rule of the catalogue,
//! reached from every dropped check's rule.

use bench_explorer::shape::Shape;
use bench_explorer::Stage;
use leptos::prelude::*;

use bench_explorer::Rule;

use super::common::{inlines, markdown_view};
use crate::bench;
use crate::engine;
use crate::logic::audit::{shape_rows, stage_index};
use crate::logic::rule_pages::{find, parse, RuleText};
use crate::logic::teach::{lesson, stage_short};
use crate::state::{use_app, Tab};

#[component]
pub fn ShapesView() -> impl IntoView {
    let app = use_app();
    view! {
        <div class="shapes-view" data-testid="shapes-view">
            <nav class="shape-nav" aria-label="The seven shapes">
                <ol>
                    {Shape::ALL
                        .into_iter()
                        .map(|s| {
                            view! {
                                <li>
                                    <button class="shape-link" class:active=move || app.rule_page.get().is_none() && app.shape_page.get() == s
                                        aria-current=move || if app.rule_page.get().is_none() && app.shape_page.get() == s { "page" } else { "false" }
                                        data-testid=format!("shape-nav-{}", s.id())
                                        on:click=move |_| { app.shape_page.set(s); app.rule_page.set(None); }>
                                        <span class="shape-id">{s.id()}</span>
                                        <span class="shape-title">{s.title()}</span>
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()}
                </ol>
                <RuleNav/>
            </nav>
            {move || match app.rule_page.get() {
                Some(rule) => view! { <RulePage rule=rule/> }.into_any(),
                None => view! { <Lesson shape=app.shape_page.get()/> }.into_any(),
            }}
        </div>
    }
}

/// Every rule of the catalogue, family by family, each family folded.
#[component]
fn RuleNav() -> impl IntoView {
    let app = use_app();
    let all = Rule::all();
    view! {
        <h3 class="rule-nav-title">"Rules"</h3>
        {Rule::families()
            .into_iter()
            .map(|family| {
                let rules: Vec<Rule> = all.iter().copied().filter(|r| r.family() == family).collect();
                let count = rules.len();
                let open = move || app.rule_page.get().is_some_and(|r| r.family() == family);
                view! {
                    <details class="rule-family" open=open data-testid=format!("rule-family-{}", family.prefix)>
                        <summary>{format!("{} · {} ({count})", family.prefix, family.title)}</summary>
                        <ol>
                            {rules
                                .into_iter()
                                .map(|r| view! {
                                    <li>
                                        <button class="shape-link rule-link"
                                            class:active=move || app.rule_page.get() == Some(r)
                                            aria-current=move || if app.rule_page.get() == Some(r) { "page" } else { "false" }
                                            data-testid=format!("rule-nav-{}", r.code())
                                            on:click=move |_| app.rule_page.set(Some(r))>
                                            <span class="shape-id">{r.code()}</span>
                                            <span class="shape-title">{r.name()}</span>
                                        </button>
                                    </li>
                                })
                                .collect_view()}
                        </ol>
                    </details>
                }
            })
            .collect_view()}
    }
}

/// A rule's page: its code and name, then its text, fetched from `rules.json` the first time a
/// rule's page is shown (the wasm carries no page text).
#[component]
fn RulePage(rule: Rule) -> impl IntoView {
    let family = rule.family();
    let loaded = RwSignal::new(rule_texts());
    if loaded.get_untracked().is_none() {
        fetch_rule_texts(move |r| loaded.set(Some(r)));
    }
    let code = rule.code();
    view! {
        <article class="lesson rule-page" data-testid="rule-page" data-rule=code>
            <header>
                <p class="eyebrow">{format!("Rule {} · {}", code, family.title)}</p>
                <h2><code>{rule.name()}</code></h2>
            </header>
            {move || match loaded.get() {
                None => view! { <p class="muted" data-testid="rule-page-loading">"Loading the rule's page…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="bad-text" data-testid="rule-page-error">{format!("The rule's page could not be loaded: {e}")}</p> }.into_any(),
                Some(Ok(all)) => match find(&all, code) {
                    Some(text) => view! {
                        <p class="lead">{inlines(&text.summary)}</p>
                        {markdown_view(&text.page)}
                    }.into_any(),
                    None => view! { <p class="bad-text">"rules.json has no page for this rule: the page and its files are from different builds."</p> }.into_any(),
                },
            }}
        </article>
    }
}

type Texts = Result<std::sync::Arc<Vec<RuleText>>, String>;

thread_local! {
    static TEXTS: std::cell::RefCell<Option<Texts>> = const { std::cell::RefCell::new(None) };
}

fn rule_texts() -> Option<Texts> {
    TEXTS.with(|t| t.borrow().clone())
}

/// GET `rules.json` from the page's own folder, once; `done` gets the catalogue or the reason.
fn fetch_rule_texts(done: impl Fn(Texts) + 'static) {
    crate::js::fetch_text("rules.json", move |text| {
        let result: Texts = text.and_then(|t| parse(&t)).map(std::sync::Arc::new);
        TEXTS.with(|t| *t.borrow_mut() = Some(result.clone()));
        done(result);
    });
}

#[component]
fn Lesson(shape: Shape) -> impl IntoView {
    let app = use_app();
    let l = lesson(shape);
    let try_problem = l.try_problem;
    let try_stage = l.try_stage;
    // The bench's figures need its statements and metadata (fetched once, the first time).
    bench::with_files(|_| {});
    let in_bench = move || {
        let stage = app.stage.get();
        if bench::files_state() != bench::Files::Ready {
            return None;
        }
        let a = bench::audit(stage);
        let row = shape_rows(&a).into_iter().find(|r| r.shape == shape)?;
        Some(format!(
            "In this bench under “{}”: {} problems, {} assertions ({} kept, {} dropped), {} findings.",
            stage_short(stage),
            row.problems,
            row.assertions,
            row.kept,
            row.dropped,
            row.findings
        ))
    };
    view! {
        <article class="lesson" data-testid="shape-page" data-shape=shape.id()>
            <header>
                <p class="eyebrow">{format!("Shape {} of 7 · in the {}", Shape::ALL.iter().position(|s| *s == shape).unwrap_or(0) + 1, shape.layer())}</p>
                <h2>{shape.title()}</h2>
                <p class="shape-code"><code>{shape.id()}</code></p>
                <p class="lead">{inlines(l.summary)}</p>
            </header>
            <section>
                <h3>"A minimal example"</h3>
                <pre class="code-block"><code>{l.example}</code></pre>
            </section>
            <section>
                <h3>"What went wrong in the write-up"</h3>
                {l.went_wrong.iter().map(|p| view! { <p>{inlines(p)}</p> }).collect_view()}
            </section>
            <section>
                <h3>"What the extractor does now"</h3>
                {l.now.iter().map(|p| view! { <p>{inlines(p)}</p> }).collect_view()}
            </section>
            <section>
                <h3>"Stage by stage"</h3>
                <table class="stage-table">
                    <tbody>
                        {Stage::ALL.into_iter().map(|s| view! {
                            <tr class:current=move || app.stage.get() == s>
                                <th scope="row">{stage_short(s)}</th>
                                <td>{inlines(l.stages[stage_index(s)])}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                <p class="muted">{in_bench}</p>
            </section>
            <div class="lesson-actions">
                <button class="btn primary" data-testid="try-shape" on:click=move |_| {
                    engine::load_problem(app, try_problem);
                    app.stage.set(try_stage);
                    app.tab.set(Tab::Assertions);
                }>
                    {format!("See it: open {try_problem} under “{}”", stage_short(try_stage))}
                </button>
            </div>
        </article>
    }
}

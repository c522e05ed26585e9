//! Small shared pieces: shape badges, Markdown rendered as text nodes, the toast.

use bench_explorer::shape::Shape;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::logic::markdown::{self, Block, Inline};
use crate::state::{use_app, Tab};

/// A shape's badge: a link to its teaching page.
#[component]
pub fn ShapeBadge(shape: Shape) -> impl IntoView {
    let app = use_app();
    let layer = shape.layer();
    view! {
        <a
            class="badge"
            class:badge-statement={layer == "statement"}
            href=format!("#shape/{}", shape.id())
            title=format!("{} — read what it is and how it is handled", shape.title())
            data-testid="shape-badge"
            data-shape=shape.id()
            on:click=move |ev| {
                ev.prevent_default();
                ev.stop_propagation();
                app.shape_page.set(shape);
                app.tab.set(Tab::Shapes);
            }
        >
            {shape.id()}
        </a>
    }
}

/// A rule's code after a drop's reason: a link to the rule's page in the teaching tab.
#[component]
pub fn RuleLink(rule: bench_explorer::RuleRef) -> impl IntoView {
    let app = use_app();
    let code = rule.code.clone();
    view! {
        <a
            class="rule-ref"
            href=format!("#rule/{}", rule.code)
            title=format!("{} {} — what it means and how to write the test so it can be checked", rule.code, rule.name)
            data-testid="rule-link"
            data-rule=rule.code.clone()
            on:click=move |ev| {
                ev.prevent_default();
                ev.stop_propagation();
                if let Some(r) = bench_explorer::Rule::find(&code) {
                    app.rule_page.set(Some(r));
                    app.tab.set(Tab::Shapes);
                }
            }
        >
            {format!("{} {}", rule.code, rule.name)}
        </a>
    }
}

/// Inline Markdown (`code`, **bold**) as text nodes.
pub fn inlines(text: &str) -> impl IntoView {
    render_inlines(markdown::inlines(text))
}

pub fn render_inlines(parts: Vec<Inline>) -> impl IntoView {
    parts
        .into_iter()
        .map(|p| match p {
            Inline::Text(t) => view! { <span>{t}</span> }.into_any(),
            Inline::Code(t) => view! { <code>{t}</code> }.into_any(),
            Inline::Strong(t) => view! { <strong>{t}</strong> }.into_any(),
        })
        .collect_view()
}

/// A Markdown document (a problem statement) as elements with text nodes only.
pub fn markdown_view(text: &str) -> impl IntoView {
    markdown::parse(text)
        .into_iter()
        .map(|b| match b {
            Block::Heading(1, parts) => view! { <h3>{render_inlines(parts)}</h3> }.into_any(),
            Block::Heading(_, parts) => view! { <h4>{render_inlines(parts)}</h4> }.into_any(),
            Block::Paragraph(parts) => view! { <p>{render_inlines(parts)}</p> }.into_any(),
            Block::List(items) => view! {
                <ul>{items.into_iter().map(|i| view! { <li>{render_inlines(i)}</li> }).collect_view()}</ul>
            }
            .into_any(),
            Block::Code { text, .. } => view! { <pre class="code-block"><code>{text}</code></pre> }.into_any(),
        })
        .collect_view()
}

/// The short message at the bottom of the page.
#[component]
pub fn Toast() -> impl IntoView {
    let app = use_app();
    view! {
        <div class="toast" role="status" aria-live="polite" data-testid="toast" class:visible=move || app.toast.with(|t| t.is_some())>
            {move || app.toast.get().unwrap_or_default()}
        </div>
    }
}

/// Focus the first element matching a CSS selector (after the DOM has been updated).
pub fn focus_selector(selector: &str) {
    let selector = selector.to_string();
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(&selector).ok().flatten() {
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    });
}

/// "1 assertion" / "2 assertions".
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What needs the bench's statements, stubs, solutions or metadata (the Problem, Bench audit and
/// Run tabs): fetches `bench.json` the first time, says so meanwhile (the page stays usable), and
/// says why when it cannot be had, with a button to try again.
#[component]
pub fn WithBenchFiles(children: ChildrenFn) -> impl IntoView {
    use crate::bench::{self, Files};
    bench::with_files(|_| {});
    move || {
        match bench::files_state() {
        Files::Ready => children().into_any(),
        Files::Failed(e) => view! {
            <div class="empty" role="alert" data-testid="bench-files-error">
                <p class="bad-text">{format!("The bench's statements, stubs and solutions could not be loaded: {e}.")}</p>
                <button class="btn small" data-testid="bench-files-retry" on:click=|_| bench::with_files(|_| {})>"Try again"</button>
            </div>
        }
        .into_any(),
        Files::NotLoaded | Files::Loading => view! {
            <p class="muted" role="status" data-testid="bench-files-loading">"Loading the bench's statements, stubs and solutions…"</p>
        }
        .into_any(),
    }
    }
}

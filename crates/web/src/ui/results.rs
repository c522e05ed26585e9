//! The assertions tab: a summary, the findings and syntax errors, and the assertions grouped by test,
//! each kept one with its expression and each dropped one with its reason. Rows link to the source
//! both ways: pointing at a row lights its lines in the editor; the editor's cursor lights the rows
//! its line feeds.

use std::sync::Arc;

use bench_explorer::model::Status;
use bench_explorer::shape::Shape;
use bench_explorer::Stage;
use leptos::prelude::*;
use serde::Serialize;
use wasm_bindgen::JsCast;

use super::common::{inlines, plural, ShapeBadge};
use crate::js;
use crate::logic::compare::StageFidelity;
use crate::logic::grouping::split_case;
use crate::logic::links::{fed_by_line, link_ranges, role_label};
use crate::logic::teach::stage_short;
use crate::state::{use_app, Analysis};

/// Rows shown before "show more" (a generated file can hold thousands).
const PAGE: usize = 400;

#[derive(Serialize)]
struct JsLink {
    from: u32,
    to: u32,
    kind: &'static str,
}

#[component]
pub fn Assertions() -> impl IntoView {
    let app = use_app();
    let (limit, set_limit) = signal(PAGE);

    // Light the editor lines of the assertion under the pointer, or else the picked one.
    Effect::new(move |_| {
        let idx = app.hovered.get().or(app.selected.get());
        let ranges: Vec<JsLink> = app.analysis.with(|a| match (a, idx) {
            (Some(a), Some(i)) if i < a.extraction.assertions.len() => {
                link_ranges(&a.extraction.assertions[i], &a.map)
                    .into_iter()
                    .map(|r| JsLink {
                        from: r.from,
                        to: r.to,
                        kind: r.kind.id(),
                    })
                    .collect()
            }
            _ => Vec::new(),
        });
        if let Ok(v) = serde_wasm_bindgen::to_value(&ranges) {
            js::with_editor(|e| e.set_links(&v));
        }
    });
    on_cleanup(|| {
        js::with_editor(|e| e.set_links(&js_sys::Array::new()));
    });

    // The assertions the cursor's line feeds.
    let fed = Memo::new(move |_| {
        let line = app.cursor_line.get();
        app.analysis.with(|a| match (a, line) {
            (Some(a), Some(l)) => fed_by_line(&a.extraction.assertions, l),
            _ => Vec::new(),
        })
    });
    // Bring the first of them into view in the list.
    Effect::new(move |_| {
        if let Some(&first) = fed.get().first() {
            request_animation_frame(move || scroll_row_into_view(first));
        }
    });

    let groups = move || {
        let Some(a) = app.analysis.get() else {
            return Vec::new();
        };
        let mut shown = 0usize;
        let max = limit.get();
        a.groups
            .iter()
            .enumerate()
            .take_while(|(_, g)| {
                let ok = shown < max;
                shown += g.rows.len();
                ok
            })
            .map(|(gi, g)| (g.digest, gi, a.clone()))
            .collect::<Vec<_>>()
    };
    let total = move || {
        app.analysis.with(|a| {
            a.as_ref()
                .map(|a| a.extraction.assertions.len())
                .unwrap_or(0)
        })
    };

    view! {
        <div class="assertions-view" data-testid="assertions-view">
            <Summary/>
            <Problems/>
            <Show when=move || app.analysis.with(|a| a.is_none())>
                <p class="empty" data-testid="nothing-extracted">
                    {move || if app.paused.get() { "Extraction is paused (see the note above the editor)." } else { "Extracting…" }}
                </p>
            </Show>
            <Show when=move || total() == 0 && app.analysis.with(|a| a.is_some())>
                <p class="empty" data-testid="no-assertions">"No assertions in this file yet. Write a test function with an "<code>"assert"</code>" in it."</p>
            </Show>
            <div class="groups" role="list" aria-label="Assertions by test">
                <For
                    each=groups
                    key=|(digest, _, _)| *digest
                    children=move |(_, gi, a)| view! { <TestGroupView analysis=a index=gi fed=fed/> }
                />
            </div>
            <Show when=move || { total() > limit.get() }>
                <button class="btn more" data-testid="show-more" on:click=move |_| set_limit.update(|l| *l += PAGE * 5)>
                    {move || format!("Show more ({} of {} shown)", limit.get().min(total()), total())}
                </button>
            </Show>
        </div>
    }
}

/// Counts and the shapes found in the file.
#[component]
fn Summary() -> impl IntoView {
    let app = use_app();
    view! {
        {move || {
            app.analysis.get().map(|a| {
                let e = &a.extraction;
                let kept = e.kept().count();
                let dropped = e.dropped().count();
                let tests = a.groups.len();
                let shapes = e.shapes();
                let stage = e.stage;
                view! {
                    <div class="summary" data-testid="summary" data-kept=kept data-dropped=dropped>
                        <div class="stat-row">
                            <span class="stat"><strong>{tests}</strong>" "{if tests == 1 { "test" } else { "tests" }}</span>
                            <span class="stat kept"><strong data-testid="kept-count">{kept}</strong>" kept"</span>
                            <span class="stat dropped"><strong data-testid="dropped-count">{dropped}</strong>" dropped"</span>
                            {(stage != Stage::Full).then(|| view! {
                                <span class="stat wrong" title="kept checks that do not check what the test checks (compared with the faithful extractor)">
                                    <strong data-testid="wrong-count">{a.tally.wrong}</strong>" wrong checks"
                                </span>
                            })}
                            <span class="stat muted">"stage: "{stage_short(stage)}</span>
                            <span class="stat muted">"slug "<code>{e.slug.clone()}</code></span>
                        </div>
                        {(!shapes.is_empty()).then(|| view! {
                            <div class="badges" aria-label="Shapes in this file">
                                {shapes.into_iter().map(|s| view! { <ShapeBadge shape=s/> }).collect_view()}
                            </div>
                        })}
                    </div>
                }
            })
        }}
    }
}

/// Syntax errors and findings, each a button that puts the cursor on its line.
#[component]
fn Problems() -> impl IntoView {
    let app = use_app();
    view! {
        {move || {
            app.analysis.get().and_then(|a| {
                let e = &a.extraction;
                if e.findings.is_empty() && e.syntax_errors.is_empty() {
                    return None;
                }
                let errors = e.syntax_errors.iter().map(|s| {
                    let pos = a.map.utf16(s.start);
                    let line = s.line;
                    let col = s.column;
                    let message = s.message.clone();
                    view! {
                        <li>
                            <button class="finding error" data-testid="syntax-error" on:click=move |_| { js::with_editor(|ed| ed.jump(pos)); }>
                                <span class="sev">"syntax error"</span>
                                <span class="loc">{format!("{line}:{col}")}</span>
                                <span class="msg">{message}</span>
                            </button>
                        </li>
                    }
                }).collect_view();
                let findings = e.findings.iter().map(|f| {
                    let pos = a.map.line_utf16(f.line).0;
                    let line = f.line;
                    let shape = f.shape;
                    let message = f.message.clone();
                    view! {
                        <li class="finding-row">
                            <button class="finding warning" data-testid="finding" data-shape=shape.id() on:click=move |_| { js::with_editor(|ed| ed.jump(pos)); }>
                                <span class="sev">"finding"</span>
                                <span class="loc">{format!("line {line}")}</span>
                                <span class="msg">{inlines(&message)}</span>
                            </button>
                            <ShapeBadge shape=shape/>
                        </li>
                    }
                }).collect_view();
                Some(view! {
                    <details class="findings" open=true data-testid="findings">
                        <summary>
                            {plural(e.syntax_errors.len(), "syntax error", "syntax errors")}" · "
                            {plural(e.findings.len(), "finding", "findings")}
                        </summary>
                        <ul>{errors}{findings}</ul>
                    </details>
                })
            })
        }}
    }
}

#[component]
fn TestGroupView(analysis: Arc<Analysis>, index: usize, fed: Memo<Vec<usize>>) -> impl IntoView {
    let g = &analysis.groups[index];
    let name = g.name.clone();
    let name_attr = name.clone();
    let counts = format!("{} kept · {} dropped", g.kept, g.dropped);
    let all_kept = g.dropped == 0;
    let rows = g.rows.clone();
    view! {
        <div class="group" role="listitem" data-testid="test-group" data-test=name_attr>
            <div class="group-head">
                <span class="test-name">{name}</span>
                <span class="group-counts" class:all-kept=all_kept>{counts}</span>
            </div>
            <ul class="rows">
                {rows.into_iter().map(|i| view! { <AssertionRow analysis=analysis.clone() index=i fed=fed/> }).collect_view()}
            </ul>
        </div>
    }
}

#[component]
fn AssertionRow(analysis: Arc<Analysis>, index: usize, fed: Memo<Vec<usize>>) -> impl IntoView {
    let app = use_app();
    let a = &analysis.extraction.assertions[index];
    let kept = a.status == Status::Kept;
    let status = if kept { "kept" } else { "dropped" };
    let (_, case) = split_case(&a.test);
    let case = case.map(str::to_string);
    let line = a.line;
    let source = a.source.clone();
    let expr = a.expr.clone();
    let reason = a.reason.clone();
    let unresolved = a.unresolved.clone().unwrap_or_default();
    let shapes: Vec<Shape> = a.shapes.clone();
    let origins: Vec<String> = {
        let mut o: Vec<_> = a
            .origins
            .iter()
            .map(|o| (o.span.line, role_label(o.role)))
            .collect();
        o.sort();
        o.dedup();
        o.into_iter().map(|(l, r)| format!("{r} L{l}")).collect()
    };
    let pos = analysis.map.utf16(a.span.start);
    let test = a.test.clone();
    let verdict = analysis
        .verdicts
        .get(index)
        .cloned()
        .unwrap_or(StageFidelity::Agrees);
    let wrong = verdict.is_wrong_check();
    let verdict_id = verdict.id();
    let callout = verdict_callout(verdict);

    let is_selected = move || app.selected.get() == Some(index);
    let is_fed = move || fed.with(|f| f.contains(&index));
    let activate = move || {
        app.selected.set(Some(index));
        js::with_editor(|e| e.reveal(pos));
    };

    view! {
        <li
            class="row"
            class:kept=kept
            class:dropped=!kept
            class:wrong=wrong
            class:selected=is_selected
            class:fed=is_fed
            data-testid="assertion-row"
            data-status=status
            data-verdict=verdict_id
            data-test=test
            data-line=line
            data-row-index=index
            tabindex="0"
            aria-selected=move || if is_selected() { "true" } else { "false" }
            on:mouseenter=move |_| app.hovered.set(Some(index))
            on:mouseleave=move |_| app.hovered.set(None)
            on:focus=move |_| app.hovered.set(Some(index))
            on:blur=move |_| app.hovered.set(None)
            on:click=move |_| activate()
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                match ev.key().as_str() {
                    "Enter" | " " => { ev.prevent_default(); activate(); }
                    "ArrowDown" | "ArrowUp" => {
                        ev.prevent_default();
                        move_focus(&ev, ev.key() == "ArrowDown");
                    }
                    _ => {}
                }
            }
        >
            <div class="row-head">
                <span class="status-pill" class:kept=kept class:dropped=!kept data-testid="assertion-status">
                    {if kept { "✓ kept" } else { "✕ dropped" }}
                </span>
                <span class="line-no">{format!("L{line}")}</span>
                {case.map(|c| view! { <span class="case" title="parametrize case">{format!("[{c}]")}</span> })}
                <code class="source" title="the assert as written">{source}</code>
            </div>
            {match (expr, reason) {
                (Some(expr), _) => view! {
                    <pre class="expr" data-testid="assertion-expr"><code>{expr}</code></pre>
                }.into_any(),
                (None, reason) => view! {
                    <div class="reason" data-testid="assertion-reason">
                        <span>{inlines(&reason.unwrap_or_default())}</span>
                        {(!unresolved.is_empty()).then(|| view! {
                            <span class="unresolved" data-testid="unresolved">
                                "unresolved: "
                                {unresolved.into_iter().map(|n| view! { <code class="name">{n}</code> }).collect_view()}
                            </span>
                        })}
                    </div>
                }.into_any(),
            }}
            {callout}
            <div class="row-foot">
                {shapes.into_iter().map(|s| view! { <ShapeBadge shape=s/> }).collect_view()}
                {(!origins.is_empty()).then(|| view! {
                    <span class="origins" title="lines this assertion was built from">{origins.join(" · ")}</span>
                })}
            </div>
        </li>
    }
}

fn move_focus(ev: &leptos::ev::KeyboardEvent, down: bool) {
    let Some(target) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    let rows = document()
        .query_selector_all("[data-testid='assertion-row']")
        .ok();
    let Some(rows) = rows else { return };
    let n = rows.length();
    for i in 0..n {
        if rows.get(i).is_some_and(|r| r.is_same_node(Some(&target))) {
            let j = if down { i + 1 } else { i.wrapping_sub(1) };
            if let Some(el) = rows
                .get(j)
                .and_then(|r| r.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = el.focus();
            }
            return;
        }
    }
}

fn scroll_row_into_view(index: usize) {
    let sel = format!("[data-row-index='{index}']");
    if let Some(el) = document().query_selector(&sel).ok().flatten() {
        let opts = web_sys::ScrollIntoViewOptions::new();
        opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
        el.scroll_into_view_with_scroll_into_view_options(&opts);
    }
}

/// Under an earlier stage: what the faithful extractor makes of the same `assert`.
fn verdict_callout(v: StageFidelity) -> Option<AnyView> {
    let view = match v {
        StageFidelity::Agrees | StageFidelity::BothDrop => return None,
        StageFidelity::Differs { faithful } => {
            let n = faithful.len();
            let first = faithful.into_iter().next().unwrap_or_default();
            view! {
                <div class="callout bad" data-testid="verdict">
                    <span class="callout-title">"Wrong check. "</span>
                    "It does not check what the test checks. The faithful extractor keeps"
                    {(n > 1).then(|| format!(" {n} cases, the first:"))}
                    <pre class="expr faithful"><code>{first}</code></pre>
                </div>
            }
            .into_any()
        }
        StageFidelity::FaithfulDrops { reason } => view! {
            <div class="callout bad" data-testid="verdict">
                <span class="callout-title">"Wrong check. "</span>
                "The faithful extractor drops it: "{inlines(&reason)}
            </div>
        }
        .into_any(),
        StageFidelity::NotATest => view! {
            <div class="callout bad" data-testid="verdict">
                <span class="callout-title">"Wrong check. "</span>
                "This assert is in no test: it checks the test file's own plumbing, and fails against any solution."
            </div>
        }
        .into_any(),
        StageFidelity::NotMeasured { faithful_kept } => view! {
            <div class="callout note" data-testid="verdict">
                <span class="callout-title">"Not measured here. "</span>
                {format!(
                    "The faithful extractor keeps it{}.",
                    if faithful_kept > 1 { format!(" ({faithful_kept} cases)") } else { String::new() }
                )}
            </div>
        }
        .into_any(),
    };
    Some(view)
}

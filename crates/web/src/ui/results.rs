//! The assertions tab: a summary, the findings and syntax errors, and the assertions grouped by test,
//! each kept one with its expression and each dropped one with its reason. Rows link to the source
//! both ways: pointing at a row lights its lines in the editor; the editor's cursor lights the rows
//! its line feeds.

use bench_explorer::sort::SharedSort as _;
use std::collections::{HashMap, HashSet};

use bench_explorer::model::{Assertion, Status};
use bench_explorer::shape::Shape;
use bench_explorer::Stage;
use leptos::prelude::*;
use serde::Serialize;
use wasm_bindgen::JsCast;

use super::common::{inlines, plural, RuleLink, ShapeBadge};
use crate::js;
use crate::logic::compare::StageFidelity;
use crate::logic::grouping::split_case;
use crate::logic::links::{fed_by_line, link_ranges, role_label};
use crate::logic::rows::{
    collapse, mount_slice, python_list, window, window_index, ROWS_PER_SLICE,
};
use crate::logic::teach::stage_short;
use crate::state::{use_app, AppState};

/// Rows shown before "show more", and how many more each press shows: rows, not test groups (one
/// test can hold 50,000 asserts).
const PAGE: usize = 100;
/// Syntax errors and findings listed, each (the counts say how many there are): a 10 MB file has
/// hundreds of findings, and drawing them all with the result was one long task (issue 11).
const MAX_SYNTAX_ERRORS: usize = 50;
const MAX_FINDINGS: usize = 50;

/// One test group of the shown window: its name, counts, and the keys of its shown rows.
#[derive(Clone, PartialEq)]
struct ShownGroup {
    name: String,
    kept: usize,
    dropped: usize,
    keys: Vec<u64>,
}

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

    // Rows are keyed by identity (test id, ordinal, content; see `logic::rows`), and find their
    // current index (for line numbers, selection, links) through this map. It covers the window
    // of rows that may be on screen, not the whole list: a 10 MB file has 60,000 assertions.
    let index_of = Memo::new(move |_| {
        let max = limit.get();
        app.analysis.with(|a| {
            a.as_ref()
                .map(|a| window_index(&a.groups, &a.keys, max))
                .unwrap_or_default()
        })
    });
    // What moves when an edit moves a row (its index, line, origins' lines) reaches the row
    // through a signal of its own, set by this one effect only when it changed: a keystroke that
    // moves no row re-renders none (every row's closures read the whole result, and re-ran at each
    // keystroke of a large file, before the result could be shown).
    let live = Live(StoredValue::new(HashMap::new()));
    Effect::new(move |_| {
        index_of.with(|index| {
            app.analysis.with(|a| {
                live.0.with_value(|rows| {
                    for (key, signal) in rows {
                        let now = row_live(a.as_deref(), index, *key);
                        // (`try_`: a row being disposed is left alone, never a panic.)
                        if signal.try_with_untracked(|v| *v != now) == Some(true) {
                            signal.try_set(now);
                        }
                    }
                })
            })
        })
    });
    // New rows go on screen `ROWS_PER_SLICE` per animation frame (`logic::rows::mount_slice`), so
    // that no task lays out a whole window of rows; rows already on screen stay.
    let mounted = StoredValue::new(HashSet::<u64>::new());
    let slice = RwSignal::new(0u64);
    let shown = Memo::new(move |_| {
        slice.track();
        let max = limit.get();
        app.analysis.with(|a| {
            let Some(a) = a else {
                mounted.set_value(HashSet::new());
                return Vec::new();
            };
            let wanted = window(&a.groups, max)
                .into_iter()
                .map(|(gi, rows)| {
                    let keys = rows
                        .iter()
                        .filter_map(|&i| a.keys.get(i).copied())
                        .collect();
                    (gi, keys)
                })
                .collect();
            let (rows, held) = mounted.with_value(|m| mount_slice(wanted, m, ROWS_PER_SLICE));
            mounted.set_value(rows.iter().flat_map(|(_, k)| k.iter().copied()).collect());
            if held {
                request_animation_frame(move || slice.update(|n| *n += 1));
            }
            // For the benchmark and the tests: whether rows are still waiting for their slice.
            js::hook_set("rowsHeld", &wasm_bindgen::JsValue::from_bool(held));
            rows.into_iter()
                .map(|(gi, keys)| {
                    let g = &a.groups[gi];
                    ShownGroup {
                        name: g.name.clone(),
                        kept: g.kept,
                        dropped: g.dropped,
                        keys,
                    }
                })
                .collect::<Vec<_>>()
        })
    });
    let total = move || {
        app.analysis.with(|a| {
            a.as_ref()
                .map(|a| a.extraction.assertions.len())
                .unwrap_or(0)
        })
    };

    view! {
        <div class="assertions-view" data-testid="assertions-view">
            <Show when=move || app.extracting.get()>
                <div class="extracting" role="status" data-testid="extracting">
                    <span class="extracting-dot" aria-hidden="true"></span>
                    {move || if app.analysis.with(|a| a.is_some()) { "Extracting… (the results below are from the last extraction)" } else { "Extracting…" }}
                </div>
            </Show>
            <Summary/>
            <NotText/>
            <Problems/>
            <Show when=move || app.analysis.with(|a| a.is_none())>
                <p class="empty" data-testid="nothing-extracted">
                    {move || if app.paused.get() { "Extraction is paused (see the note above the editor)." } else { "Extracting…" }}
                </p>
            </Show>
            <Show when=move || total() == 0 && app.analysis.with(|a| a.as_ref().is_some_and(|a| a.not_text.is_none()))>
                <p class="empty" data-testid="no-assertions">"No assertions in this file yet. Write a test function with an "<code>"assert"</code>" in it."</p>
            </Show>
            <div class="groups" role="list" aria-label="Assertions by test">
                <For
                    each=move || { let names: Vec<String> = shown.get().into_iter().map(|g| g.name).collect(); names }
                    key=|name| name.clone()
                    children=move |name| view! { <TestGroupView name=name shown=shown index_of=index_of live=live fed=fed/> }
                />
            </div>
            <Show when=move || { total() > limit.get() }>
                <button class="btn more" data-testid="show-more" on:click=move |_| set_limit.update(|l| *l += 2 * PAGE)>
                    {move || format!("Show more ({} of {} shown)", limit.get().min(total()), total())}
                </button>
            </Show>
        </div>
    }
}

/// A file that is not text: named, not parsed.
#[component]
fn NotText() -> impl IntoView {
    let app = use_app();
    move || {
        app.analysis
            .with(|a| a.as_ref().and_then(|a| a.not_text.clone()))
            .map(|why| {
                view! {
                    <div class="notice warn not-text" role="note" data-testid="not-text">
                        <strong>"This file is not text"</strong>
                        {format!(": {why}. It was not parsed. Open a Python test file instead.")}
                    </div>
                }
            })
    }
}

/// Copy text to the clipboard, and say so.
fn copy(app: AppState, text: String, what: &'static str) {
    let size = text.chars().count();
    let promise = js::copy_text(&text);
    let done = wasm_bindgen::closure::Closure::once(move |copied: wasm_bindgen::JsValue| {
        let msg = if copied.as_bool() == Some(true) {
            format!("Copied {what} ({size} characters)")
        } else {
            "The clipboard is not available here".to_string()
        };
        crate::engine::toast(app, msg);
    });
    let _ = promise.then(&done);
    done.forget();
}

/// What [`Summary`] shows: it is rebuilt only when this changes, not at every result.
#[derive(Clone, PartialEq)]
struct SummaryData {
    kept: usize,
    dropped: usize,
    /// Checks pytest may make that are no entry (the findings' `unseen`).
    unseen: u32,
    tests: usize,
    shapes: Vec<Shape>,
    stage: Stage,
    slug: String,
    wrong: usize,
    /// Dropped checks by the rule that dropped them, most frequent first.
    by_rule: Vec<(bench_explorer::RuleRef, usize)>,
}

/// Dropped checks grouped by rule, most frequent first (then by code).
fn dropped_by_rule(e: &bench_explorer::Extraction) -> Vec<(bench_explorer::RuleRef, usize)> {
    let mut counts: std::collections::BTreeMap<bench_explorer::RuleRef, usize> =
        std::collections::BTreeMap::new();
    for a in e.dropped() {
        if let Some(r) = &a.rule {
            *counts.entry(r.clone()).or_default() += 1;
        }
    }
    let mut out: Vec<_> = counts.into_iter().collect();
    out.sort_shared_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.code.cmp(&b.0.code)));
    out
}

/// Counts and the shapes found in the file.
#[component]
fn Summary() -> impl IntoView {
    let app = use_app();
    let data = Memo::new(move |_| {
        app.analysis.with(|a| {
            a.as_ref().map(|a| SummaryData {
                kept: a.totals.kept,
                dropped: a.totals.dropped,
                unseen: a.extraction.unseen(),
                tests: a.groups.len(),
                shapes: a.totals.shapes.clone(),
                stage: a.extraction.stage,
                slug: a.extraction.slug.clone(),
                wrong: a.tally.wrong,
                by_rule: dropped_by_rule(&a.extraction),
            })
        })
    });
    view! {
        {move || {
            data.get().map(|d| {
                let SummaryData { kept, dropped, unseen, tests, shapes, stage, slug, wrong, by_rule } = d;
                let checks = kept + dropped + unseen as usize;
                view! {
                    <div class="summary" data-testid="summary" data-kept=kept data-dropped=dropped>
                        <div class="stat-row">
                            <span class="stat"><strong>{tests}</strong>" "{if tests == 1 { "test" } else { "tests" }}</span>
                            // The faithful extraction's count: an earlier stage takes other things for checks.
                            {(stage == Stage::Full).then(|| view! {
                                <span class="stat checks" data-testid="checks-count" title="checks pytest makes in this file: kept + dropped + not seen">
                                    <strong>{checks}</strong>" "{if checks == 1 { "check" } else { "checks" }}" pytest makes:"
                                </span>
                            })}
                            <span class="stat kept"><strong data-testid="kept-count">{kept}</strong>" kept"</span>
                            <span class="stat dropped"><strong data-testid="dropped-count">{dropped}</strong>" dropped"</span>
                            {(unseen > 0).then(|| view! {
                                <span class="stat dropped" title="checks pytest may make that are no entry: asserts in helpers reached other than as a test's statement, at module level, in tests whose ids are unknown (see the findings)">
                                    <strong data-testid="unseen-count">{unseen}</strong>" not seen"
                                </span>
                            })}
                            {(stage != Stage::Full).then(|| view! {
                                <span class="stat wrong" title="kept checks that do not check what the test checks (compared with the faithful extractor)">
                                    <strong data-testid="wrong-count">{wrong}</strong>" wrong checks"
                                </span>
                            })}
                            <span class="stat muted">"stage: "{stage_short(stage)}</span>
                            <span class="stat muted">"slug "<code>{slug}</code></span>
                            {(kept > 0).then(|| view! {
                                <button class="btn small copy-all" data-testid="copy-all-kept"
                                    title="Copy every kept expression, as a Python list literal"
                                    on:click=move |_| {
                                        let list = app.analysis.with_untracked(|a| a.as_ref().map(|a| python_list(&a.extraction.assertions)));
                                        if let Some(list) = list { copy(app, list, "the kept expressions as a Python list"); }
                                    }>
                                    "Copy kept"
                                </button>
                            })}
                        </div>
                        {(!by_rule.is_empty()).then(|| view! {
                            <details class="by-rule" data-testid="dropped-by-rule">
                                <summary>{format!("Dropped, by rule ({})", by_rule.len())}</summary>
                                <ul>
                                    {by_rule.into_iter().map(|(rule, n)| view! {
                                        <li><span class="num">{n}</span><RuleLink rule=rule/></li>
                                    }).collect_view()}
                                </ul>
                            </details>
                        })}
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

/// What [`Problems`] lists: it is rebuilt only when this changes (not when an edit moves an
/// error's byte offset: the buttons look positions up when pressed).
#[derive(Clone, PartialEq)]
struct ProblemList {
    /// Line, column, message of the first `MAX_SYNTAX_ERRORS`.
    errors: Vec<(u32, u32, String)>,
    errors_total: usize,
    /// Line, shape, message of the first `MAX_FINDINGS`.
    findings: Vec<(u32, Shape, String)>,
    findings_total: usize,
}

/// Syntax errors and findings, each a button that puts the cursor on its line.
#[component]
fn Problems() -> impl IntoView {
    let app = use_app();
    let list = Memo::new(move |_| {
        app.analysis.with(|a| {
            let e = &a.as_ref()?.extraction;
            if e.findings.is_empty() && e.syntax_errors.is_empty() {
                return None;
            }
            Some(ProblemList {
                errors: e
                    .syntax_errors
                    .iter()
                    .take(MAX_SYNTAX_ERRORS)
                    .map(|s| (s.line, s.column, s.message.clone()))
                    .collect(),
                errors_total: e.syntax_errors.len(),
                findings: e
                    .findings
                    .iter()
                    .take(MAX_FINDINGS)
                    .map(|f| (f.line, f.shape, f.message.clone()))
                    .collect(),
                findings_total: e.findings.len(),
            })
        })
    });
    // Where the i-th syntax error starts in the result shown now.
    let error_at = move |i: usize| {
        app.analysis.with_untracked(|a| {
            let a = a.as_ref()?;
            a.extraction
                .syntax_errors
                .get(i)
                .map(|s| a.map.utf16(s.start))
        })
    };
    let line_at = move |line: u32| {
        app.analysis
            .with_untracked(|a| a.as_ref().map(|a| a.map.line_utf16(line).0))
    };
    view! {
        {move || {
            list.get().map(|p| {
                let hidden_errors = p.errors_total.saturating_sub(MAX_SYNTAX_ERRORS);
                let errors = p.errors.into_iter().enumerate().map(|(i, (line, col, message))| {
                    view! {
                        <li>
                            <button class="finding error" data-testid="syntax-error" on:click=move |_| {
                                if let Some(pos) = error_at(i) { js::with_editor(|ed| ed.jump(pos)); }
                            }>
                                <span class="sev">"syntax error"</span>
                                <span class="loc">{format!("{line}:{col}")}</span>
                                <span class="msg">{message}</span>
                            </button>
                        </li>
                    }
                }).collect_view();
                let hidden_findings = p.findings_total.saturating_sub(MAX_FINDINGS);
                let findings = p.findings.into_iter().map(|(line, shape, message)| {
                    view! {
                        <li class="finding-row">
                            <button class="finding warning" data-testid="finding" data-shape=shape.id() on:click=move |_| {
                                if let Some(pos) = line_at(line) { js::with_editor(|ed| ed.jump(pos)); }
                            }>
                                <span class="sev">"finding"</span>
                                <span class="loc">{format!("line {line}")}</span>
                                <span class="msg">{inlines(&message)}</span>
                            </button>
                            <ShapeBadge shape=shape/>
                        </li>
                    }
                }).collect_view();
                view! {
                    <details class="findings" open=true data-testid="findings">
                        <summary>
                            {plural(p.errors_total, "syntax error", "syntax errors")}" · "
                            {plural(p.findings_total, "finding", "findings")}
                        </summary>
                        <ul>
                            {errors}
                            {(hidden_errors > 0).then(|| view! {
                                <li class="more-errors" data-testid="more-syntax-errors">
                                    {format!("… and {hidden_errors} more syntax errors (the first {MAX_SYNTAX_ERRORS} are listed)")}
                                </li>
                            })}
                            {findings}
                            {(hidden_findings > 0).then(|| view! {
                                <li class="more-errors" data-testid="more-findings">
                                    {format!("… and {hidden_findings} more findings (the first {MAX_FINDINGS} are listed)")}
                                </li>
                            })}
                        </ul>
                    </details>
                }
            })
        }}
    }
}

#[component]
fn TestGroupView(
    name: String,
    shown: Memo<Vec<ShownGroup>>,
    index_of: Memo<HashMap<u64, usize>>,
    live: Live,
    fed: Memo<Vec<usize>>,
) -> impl IntoView {
    let this = name.clone();
    let group = Memo::new(move |_| shown.with(|s| s.iter().find(|g| g.name == this).cloned()));
    let counts = move || {
        group
            .with(|g| {
                g.as_ref()
                    .map(|g| format!("{} kept · {} dropped", g.kept, g.dropped))
            })
            .unwrap_or_default()
    };
    let all_kept = move || group.with(|g| g.as_ref().is_some_and(|g| g.dropped == 0));
    let name_attr = name.clone();
    view! {
        <div class="group" role="listitem" data-testid="test-group" data-test=name_attr>
            <div class="group-head">
                <span class="test-name">{name}</span>
                <span class="group-counts" class:all-kept=all_kept>{counts}</span>
            </div>
            <ul class="rows">
                <For
                    each=move || group.with(|g| g.as_ref().map(|g| g.keys.clone()).unwrap_or_default())
                    key=|k| *k
                    children=move |k| view! { <AssertionRow row_key=k index_of=index_of live=live fed=fed/> }
                />
            </ul>
        </div>
    }
}

/// What a row shows that an edit above it changes: where its assertion is now.
#[derive(Clone, Debug, PartialEq)]
struct RowLive {
    index: usize,
    line: u32,
    origins: String,
}

/// Each mounted row's [`RowLive`] signal, by row key (`Assertions` sets them).
#[derive(Clone, Copy)]
struct Live(StoredValue<HashMap<u64, RwSignal<Option<RowLive>>>>);

fn row_live(
    a: Option<&crate::state::Analysis>,
    index: &HashMap<u64, usize>,
    key: u64,
) -> Option<RowLive> {
    let i = *index.get(&key)?;
    let x = a?.extraction.assertions.get(i)?;
    Some(RowLive {
        index: i,
        line: x.line,
        origins: origins_of(x),
    })
}

/// What a row shows that does not depend on where it is in the file.
struct RowContent {
    kept: bool,
    case: Option<String>,
    test: String,
    source: String,
    expr: Option<String>,
    reason: Option<String>,
    rule: Option<bench_explorer::RuleRef>,
    unresolved: Vec<String>,
    shapes: Vec<Shape>,
    verdict: StageFidelity,
}

fn origins_of(a: &Assertion) -> String {
    let mut o: Vec<_> = a
        .origins
        .iter()
        .map(|o| (o.span.line, role_label(o.role)))
        .collect();
    o.sort_shared();
    o.dedup();
    o.into_iter()
        .map(|(l, r)| format!("{r} L{l}"))
        .collect::<Vec<_>>()
        .join(" · ")
}

#[component]
fn AssertionRow(
    row_key: u64,
    index_of: Memo<HashMap<u64, usize>>,
    live: Live,
    fed: Memo<Vec<usize>>,
) -> impl IntoView {
    let app = use_app();
    // Where the row's assertion is: an edit above it changes this without rebuilding the row
    // (`Assertions` sets the signal, only when the value changes).
    let here = RwSignal::new(app.analysis.with_untracked(|a| {
        index_of.with_untracked(|index| row_live(a.as_deref(), index, row_key))
    }));
    live.0.update_value(|rows| {
        rows.insert(row_key, here);
    });
    on_cleanup(move || {
        // (`try_`: the list may be gone first.)
        live.0.try_update_value(|rows| {
            // A row of the same key may have replaced this one already.
            if rows.get(&row_key) == Some(&here) {
                rows.remove(&row_key);
            }
        });
    });
    let idx = Memo::new(move |_| here.with(|l| l.as_ref().map(|l| l.index)));
    let content = app.analysis.with_untracked(|a| {
        let a = a.as_ref()?;
        let i = idx.get_untracked()?;
        let x = a.extraction.assertions.get(i)?;
        let (_, case) = split_case(&x.test);
        Some(RowContent {
            kept: x.status == Status::Kept,
            case: case.map(str::to_string),
            test: x.test.clone(),
            source: x.source.clone(),
            expr: x.expr.clone(),
            reason: x.reason.clone(),
            rule: x.rule.clone(),
            unresolved: x.unresolved.clone().unwrap_or_default(),
            shapes: x.shapes.clone(),
            verdict: a.verdicts.get(i).cloned().unwrap_or(StageFidelity::Agrees),
        })
    });
    let Some(c) = content else {
        return ().into_any();
    };
    let kept = c.kept;
    let status = if kept { "kept" } else { "dropped" };
    let wrong = c.verdict.is_wrong_check();
    let verdict_id = c.verdict.id();
    let callout = verdict_callout(c.verdict);
    let line = move || {
        here.with(|l| l.as_ref().map(|l| l.line.to_string()))
            .unwrap_or_default()
    };
    let origins = move || {
        here.with(|l| l.as_ref().map(|l| l.origins.clone()))
            .unwrap_or_default()
    };
    let pos = move || {
        let i = idx.get_untracked();
        app.analysis.with_untracked(|a| match (a, i) {
            (Some(a), Some(i)) => a
                .extraction
                .assertions
                .get(i)
                .map(|x| a.map.utf16(x.span.start)),
            _ => None,
        })
    };
    let is_selected = move || idx.get().is_some() && app.selected.get() == idx.get();
    let is_fed = move || idx.get().is_some_and(|i| fed.with(|f| f.contains(&i)));
    let activate = move || {
        if let Some(i) = idx.get_untracked() {
            app.selected.set(Some(i));
        }
        if let Some(p) = pos() {
            js::with_editor(|e| e.reveal(p));
        }
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
            data-test=c.test
            data-line=line
            data-row-index=move || idx.get().map(|i| i.to_string()).unwrap_or_default()
            tabindex="0"
            aria-selected=move || if is_selected() { "true" } else { "false" }
            on:mouseenter=move |_| app.hovered.set(idx.get_untracked())
            on:mouseleave=move |_| app.hovered.set(None)
            on:focus=move |_| app.hovered.set(idx.get_untracked())
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
                <span class="line-no">{move || format!("L{}", line())}</span>
                {c.case.map(|c| view! { <span class="case" title="parametrize case">{format!("[{c}]")}</span> })}
                <code class="source" title="the assert as written">{c.source}</code>
            </div>
            {match (c.expr, c.reason) {
                (Some(expr), _) => view! { <Expression expr=expr/> }.into_any(),
                (None, reason) => view! {
                    <div class="reason" data-testid="assertion-reason">
                        <span>{inlines(&reason.unwrap_or_default())}</span>
                        {c.rule.map(|rule| view! { " " <RuleLink rule=rule/> })}
                        {(!c.unresolved.is_empty()).then(|| view! {
                            <span class="unresolved" data-testid="unresolved">
                                "unresolved: "
                                {c.unresolved.into_iter().map(|n| view! { <code class="name">{n}</code> }).collect_view()}
                            </span>
                        })}
                    </div>
                }.into_any(),
            }}
            {callout}
            <div class="row-foot">
                {c.shapes.into_iter().map(|s| view! { <ShapeBadge shape=s/> }).collect_view()}
                <Show when=move || !origins().is_empty()>
                    <span class="origins" title="lines this assertion was built from">{origins}</span>
                </Show>
            </div>
        </li>
    }
    .into_any()
}

/// A kept expression with its copy button; a long one (a folded test's steps) collapsed to its
/// first steps and final check until expanded. A fold can also be read one step per line, the
/// final check last (`bench_explorer::readable`, computed when asked for).
#[component]
fn Expression(expr: String) -> impl IntoView {
    let app = use_app();
    let (open, set_open) = signal(false);
    let (lines, set_lines) = signal(false);
    let is_fold = expr.starts_with("(lambda:");
    let collapsed = StoredValue::new(collapse(&expr));
    let full = StoredValue::new(expr);
    let readable = StoredValue::new(None::<String>);
    let one_line = move || match collapsed.get_value() {
        Some(c) if !open.get() => view! {
            <pre class="expr collapsed" data-testid="assertion-expr" data-collapsed="true"><code>
                {c.head}
                <button class="expand" data-testid="expand-expr" title="Show the whole expression"
                    on:click=move |ev| { ev.stop_propagation(); set_open.set(true); }>
                    {c.hidden}
                </button>
                {c.tail}
            </code></pre>
        }
        .into_any(),
        _ => view! {
            <pre class="expr" data-testid="assertion-expr"><code>{full.get_value()}</code></pre>
        }
        .into_any(),
    };
    let step_lines = move || {
        if readable.with_value(Option::is_none) {
            let text =
                bench_explorer::readable(&full.get_value()).unwrap_or_else(|| full.get_value());
            readable.set_value(Some(text));
        }
        view! {
            <pre class="expr readable" data-testid="assertion-readable"><code>{readable.get_value()}</code></pre>
        }
    };
    view! {
        <div class="expr-wrap">
            <Show when=move || lines.get() fallback=one_line>
                {step_lines}
            </Show>
            <div class="expr-actions">
                <Show when=move || is_fold>
                    <button class="lines-expr" data-testid="lines-expr"
                        title="Read the fold one step per line, the final check last"
                        aria-pressed=move || if lines.get() { "true" } else { "false" }
                        on:click=move |ev| { ev.stop_propagation(); set_lines.update(|l| *l = !*l); }>
                        {move || if lines.get() { "One line" } else { "Steps" }}
                    </button>
                </Show>
                <button class="copy-expr" data-testid="copy-expr" title="Copy this expression" aria-label="Copy this expression"
                    on:click=move |ev| { ev.stop_propagation(); copy(app, full.get_value(), "the expression"); }>
                    "Copy"
                </button>
            </div>
        </div>
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

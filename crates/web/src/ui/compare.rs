//! Two stages side by side for the file in the editor: which assertions each keeps, and what
//! changed (`logic::stage_diff`). Extracted here, on demand, only while this tab is open.

use bench_explorer::{extract, Options, Stage};
use leptos::prelude::*;

use crate::engine;
use crate::js;
use crate::logic::stage_diff::{diff, totals, Change, Side};
use crate::logic::teach::stage_short;
use crate::state::use_app;

/// Rows shown at most (the counts above cover them all).
const MAX_ROWS: usize = 400;

#[component]
pub fn CompareView() -> impl IntoView {
    let app = use_app();
    let left = RwSignal::new(Stage::AsWritten);
    let right = RwSignal::new(Stage::Full);
    let picker = move |sig: RwSignal<Stage>, id: &'static str, label: &'static str| {
        view! {
            <label class="field">
                <span class="field-label">{label}</span>
                <select data-testid=id aria-label=label
                    prop:value=move || sig.get().id().to_string()
                    on:change=move |ev| { if let Some(s) = Stage::from_id(&event_target_value(&ev)) { sig.set(s); } }>
                    {Stage::ALL.into_iter().map(|s| view! { <option value=s.id()>{stage_short(s)}</option> }).collect_view()}
                </select>
            </label>
        }
    };
    let rows = Memo::new(move |_| {
        // Follow the editor: every new analysis of its text.
        app.analysis.track();
        let (l, r) = (left.get(), right.get());
        let text = js::with_editor(|e| e.get_doc()).unwrap_or_default();
        let base = engine::current_options(app);
        let at = |stage| {
            let e = extract(
                &text,
                &Options {
                    stage,
                    ..base.clone()
                },
            );
            crate::logic::settings::without_guessed_slug(e, engine::slug_is_real(app))
        };
        diff(&at(l), &at(r))
    });
    view! {
        <div class="compare-view" data-testid="compare-view">
            <div class="compare-bar">
                {picker(left, "compare-left", "Left")}
                <span aria-hidden="true">"→"</span>
                {picker(right, "compare-right", "Right")}
                {move || rows.with(|rows| {
                    let (lk, rk, changed) = totals(rows);
                    view! {
                        <span class="compare-totals" data-testid="compare-totals" data-left-kept=lk data-right-kept=rk data-changed=changed>
                            {format!("{lk} kept → {rk} kept · {changed} of {} changed", rows.len())}
                        </span>
                    }
                })}
            </div>
            <table class="compare-table">
                <thead><tr><th>"Line"</th><th>"Test"</th><th>{move || stage_short(left.get())}</th><th>{move || stage_short(right.get())}</th><th>"Change"</th></tr></thead>
                <tbody>
                    {move || rows.with(|rows| rows.iter().take(MAX_ROWS).map(|r| {
                        let change = r.change;
                        view! {
                            <tr data-testid="compare-row" data-change=change.id() data-line=r.line class:changed=change != Change::Same>
                                <td class="num">{r.line}</td>
                                <td><code>{r.test.clone()}</code></td>
                                <td>{side(&r.left)}</td>
                                <td>{side(&r.right)}</td>
                                <td><span class=format!("change-pill c-{}", change.id())>{change.label()}</span></td>
                            </tr>
                        }
                    }).collect_view())}
                </tbody>
            </table>
            {move || rows.with(|r| (r.len() > MAX_ROWS).then(|| view! {
                <p class="muted">{format!("The first {MAX_ROWS} of {} rows.", r.len())}</p>
            }))}
        </div>
    }
}

fn side(s: &Side) -> AnyView {
    match s {
        Side::Kept(e) => view! { <span class="side kept" data-side="kept"><span class="side-tag">"kept"</span><code>{e.clone()}</code></span> }.into_any(),
        Side::Dropped(r) => view! { <span class="side dropped" data-side="dropped"><span class="side-tag">"dropped"</span>{super::common::inlines(r)}</span> }.into_any(),
        Side::Absent => view! { <span class="side absent muted" data-side="absent">"—"</span> }.into_any(),
    }
}

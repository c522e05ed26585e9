//! The bench audit tab: every problem of the embedded bench extracted in the page under each stage;
//! a line of totals per stage, the table of problems for the selected stage, and totals by shape.

use bench_explorer::bench::Audit;
use bench_explorer::Stage;
use leptos::prelude::*;

use super::common::ShapeBadge;
use crate::bench;
use crate::engine;
use crate::logic::audit::{attach_tallies, audit_rows, shape_rows, stage_index, stage_totals};
use crate::logic::mutation_scores::{
    audit_score, audit_total, parse, score_html, source_note, tally_html, Measured,
};
use crate::logic::teach::stage_short;
use crate::run_control::use_run;
use crate::state::{use_app, Tab};

type Scores = Result<std::sync::Arc<Measured>, String>;

thread_local! {
    static MEASURED: std::cell::RefCell<Option<Scores>> = const { std::cell::RefCell::new(None) };
}

/// GET `mutants.json` (the scores `check --mutants` measured) from the page's own folder, once.
fn fetch_measured(done: impl Fn(Scores) + 'static) {
    if let Some(m) = MEASURED.with(|m| m.borrow().clone()) {
        done(m);
        return;
    }
    crate::js::fetch_text("mutants.json", move |text| {
        let result: Scores = text.and_then(|t| parse(&t)).map(std::sync::Arc::new);
        MEASURED.with(|m| *m.borrow_mut() = Some(result.clone()));
        done(result);
    });
}

#[component]
pub fn AuditView() -> impl IntoView {
    let app = use_app();
    // All four stages (84 extractions, cached after the first time).
    let audits: Vec<std::sync::Arc<Audit>> = Stage::ALL.iter().map(|s| bench::audit(*s)).collect();
    let took = bench::audit_ms();
    let audits = StoredValue::new(audits);
    let rs = use_run();
    let measured = RwSignal::new(MEASURED.with(|m| m.borrow().clone()));
    if measured.get_untracked().is_none() {
        fetch_measured(move |m| measured.set(Some(m)));
    }
    // Each problem's mutation score: the page's whole-bench run once it covered the problem,
    // else the committed measurement (tracked: a run under way fills the column as it goes).
    let scores = move || {
        let committed = measured.with(|m| m.as_ref().and_then(|m| m.as_ref().ok().cloned()));
        rs.bench.with(|b| {
            bench::problems()
                .iter()
                .map(|p| {
                    let score = audit_score(
                        p.slug,
                        p.solution().unwrap_or(""),
                        p.test,
                        committed.as_deref(),
                        &b.mutants,
                    );
                    (p.slug.to_string(), score)
                })
                .collect::<Vec<_>>()
        })
    };
    let mutants_note = move || {
        let (total, source) =
            audit_total(&scores().into_iter().map(|(_, s)| s).collect::<Vec<_>>());
        let (id, text) = measured.with(|m| {
            let m = m.as_ref().map(|r| r.as_deref().map_err(String::as_str));
            source_note(m, &total, source)
        });
        view! { <p class="muted small" data-testid="audit-mutants-source" data-source=id>{text}</p> }
    };

    let stage_strip = move || {
        let current = app.stage.get();
        audits.with_value(|all| {
            all.iter()
                .map(|a| {
                    let t = stage_totals(a);
                    let stage = t.stage;
                    let wrong: usize = bench::tallies(stage).iter().map(|(_, t)| t.wrong).sum();
                    view! {
                        <button class="stage-card" class:active={current == stage} data-testid=format!("stage-card-{}", stage.id())
                            aria-pressed=(current == stage).to_string()
                            on:click=move |_| app.stage.set(stage)>
                            <span class="stage-name">{stage_short(stage)}</span>
                            <span class="stage-big">{t.kept}<span class="of">{format!(" / {}", t.assertions)}</span></span>
                            <span class="stage-sub">"assertions kept"</span>
                            <span class="stage-sub" class:bad={wrong > 0} data-testid="stage-wrong">{format!("{wrong} wrong checks")}</span>
                            <span class="stage-sub">{format!("{} of {} problems with nothing dropped", t.fully_kept, t.problems)}</span>
                        </button>
                    }
                })
                .collect_view()
        })
    };

    let table = move || {
        let stage = app.stage.get();
        audits.with_value(|all| {
            let selected = &all[stage_index(stage)];
            let refs: Vec<&Audit> = all.iter().map(|a| a.as_ref()).collect();
            let mut rows = audit_rows(selected, &refs);
            attach_tallies(&mut rows, &bench::tallies(stage));
            let wrong_total: usize = rows.iter().filter_map(|r| r.wrong_checks).sum();
            let totals = stage_totals(selected);
            let all_scores = scores();
            let body = rows
                .into_iter()
                .map(|r| {
                    let slug = r.slug.clone();
                    let score = all_scores.iter().find(|(x, _)| *x == r.slug).and_then(|(_, s)| s.clone());
                    let per_stage = (0..4)
                        .map(|i| {
                            let k = r.kept_by_stage[i].map(|k| k.to_string()).unwrap_or_else(|| "–".into());
                            let n = r.total_by_stage[i].map(|k| k.to_string()).unwrap_or_else(|| "–".into());
                            let title = format!("{}: {k} of {n} kept", stage_short(Stage::ALL[i]));
                            view! {
                                <span class="per-stage" class:current={i == stage_index(stage)} title=title>{k}</span>
                            }
                        })
                        .collect_view();
                    view! {
                        <tr data-testid="audit-row" data-slug=r.slug.clone() data-kept=r.kept data-dropped=r.dropped>
                            <th scope="row">
                                <button class="link" title="Open this problem in the editor"
                                    on:click=move |_| { engine::load_problem(app, &slug); app.tab.set(Tab::Assertions); }>
                                    {r.slug.clone()}
                                </button>
                                <span class="row-title">{r.title.clone()}</span>
                                <span class="badges">{r.shapes.iter().map(|s| view! { <ShapeBadge shape=*s/> }).collect_view()}</span>
                            </th>
                            <td class="num">{r.assertions}</td>
                            <td class="num kept">{r.kept}</td>
                            <td class="num dropped" class:zero={r.dropped == 0}>{r.dropped}</td>
                            <td class="num wrong" class:zero={r.wrong_checks.unwrap_or(0) == 0} data-testid="audit-wrong">{r.wrong_checks.unwrap_or(0)}</td>
                            <td class="num">{r.findings}</td>
                            <td class="num mutants-cell" inner_html=score_html(score.as_ref(), "audit-mutants")></td>
                            <td class="per-stage-cell">{per_stage}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <table class="audit-table" data-testid="audit-table" data-stage=stage.id()>
                    <caption>{format!("The bench under “{}”", stage_short(stage))}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Problem"</th>
                            <th scope="col" class="num">"Asserts"</th>
                            <th scope="col" class="num">"Kept"</th>
                            <th scope="col" class="num">"Dropped"</th>
                            <th scope="col" class="num" title="Kept checks that do not check what the test checks">"Wrong"</th>
                            <th scope="col" class="num">"Findings"</th>
                            <th scope="col" class="num" title="Mutants of the reference solution the test file kills (killed / generated), and how many survive">"Mutants"</th>
                            <th scope="col" title="Kept under: as written · six-shape fix · seven-shape fix · faithful">"By stage"</th>
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                    <tfoot>
                        <tr data-testid="audit-totals">
                            <th scope="row">{format!("{} problems", totals.problems)}</th>
                            <td class="num">{totals.assertions}</td>
                            <td class="num kept">{totals.kept}</td>
                            <td class="num dropped">{totals.dropped}</td>
                            <td class="num wrong">{wrong_total}</td>
                            <td class="num">{totals.findings}</td>
                            <td class="num mutants-cell" inner_html=move || {
                                let (t, source) = audit_total(&scores().into_iter().map(|(_, s)| s).collect::<Vec<_>>());
                                tally_html(&t, source.map_or("mixed", |s| s.id()), "audit-mutants-total")
                            }></td>
                            <td></td>
                        </tr>
                    </tfoot>
                </table>
            }
        })
    };

    let shapes = move || {
        let stage = app.stage.get();
        audits.with_value(|all| {
            let a = &all[stage_index(stage)];
            let rows = shape_rows(a)
                .into_iter()
                .map(|r| {
                    view! {
                        <tr data-testid="shape-total" data-shape=r.shape.id()>
                            <th scope="row"><ShapeBadge shape=r.shape/><span class="row-title">{r.shape.title()}</span></th>
                            <td>{r.shape.layer()}</td>
                            <td class="num">{r.problems}</td>
                            <td class="num">{r.assertions}</td>
                            <td class="num kept">{r.kept}</td>
                            <td class="num dropped" class:zero={r.dropped == 0}>{r.dropped}</td>
                            <td class="num">{r.findings}</td>
                        </tr>
                    }
                })
                .collect_view();
            let reasons = a
                .dropped_by_rule
                .iter()
                .map(|(k, n)| view! { <li><span class="num">{*n}</span>" "{k.clone()}</li> })
                .collect_view();
            view! {
                <table class="audit-table shapes-table" data-testid="shape-totals">
                    <caption>"Totals by shape"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Shape"</th>
                            <th scope="col">"Layer"</th>
                            <th scope="col" class="num">"Problems"</th>
                            <th scope="col" class="num">"Asserts"</th>
                            <th scope="col" class="num">"Kept"</th>
                            <th scope="col" class="num">"Dropped"</th>
                            <th scope="col" class="num">"Findings"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
                {(!a.dropped_by_rule.is_empty()).then(|| view! {
                    <section class="reasons">
                        <h3>"Dropped, by rule"</h3>
                        <ul data-testid="dropped-by-rule">{reasons}</ul>
                    </section>
                })}
            }
        })
    };

    view! {
        <div class="audit-view" data-testid="audit-view">
            <p class="lead">
                "Every problem of the bench, extracted here in your browser under each stage of the write-up's story. "
                "As written, every assert counts, including the ones that cannot work; each fix turns wrong checks into honest drops; "
                "the faithful extractor keeps what it can make exact. A "<em>"wrong check"</em>" is one kept in a form that differs from the faithful extractor's: "
                "it measures something other than the test."
            </p>
            <div class="stage-strip" role="group" aria-label="Totals per stage">{stage_strip}</div>
            <div class="table-scroll">{table}</div>
            {mutants_note}
            <div class="table-scroll">{shapes}</div>
            <p class="muted small">{format!("{} problems × 4 stages extracted in {:.0} ms in this page (computed once, then cached).", bench::problems().len(), took)}</p>
        </div>
    }
}

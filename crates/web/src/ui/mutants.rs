//! The Run tab's Mutants view: the current file against mutants of the chosen solution, each run
//! both ways in the Python worker; the mutation score, the survivors as diffs, the measurement
//! differences, and which test and which check kills each mutant. Rows go on screen as their
//! replies come (one mutant at a time); the logic is `logic::mutation`'s, the run `mutant_run`'s.

use bench_explorer::mutation::Outcome;
use leptos::prelude::*;

use super::run_tab::{jump_to_line, PermalinkNotice, SolutionEditor, SolutionPicker};
use crate::js;
use crate::logic::mutation::{
    beside, beside_html, diff_lines, escape, focus_html, headline, how, kill_matrix, killers, plan,
    section, stale_note, stale_reasons, tally, MutantResult, RunInputs, Section,
};
use crate::logic::run_results::{format_ms, SolutionChoice};
use crate::logic::teach::stage_short;
use crate::mutant_run::{run_mutants, stop_mutants, MutantStatus};
use crate::run_control::{effective_choice, solution_for, use_run, RunStatus};
use crate::state::{use_app, AppState};
use bench_explorer::mutants::Mutant;

fn outcome_icon(o: Outcome) -> &'static str {
    match o {
        Outcome::Survived => "●",
        Outcome::Timeout => "⏱",
        _ => "✕",
    }
}

#[component]
pub fn MutantsMode() -> impl IntoView {
    let app = use_app();
    let rs = use_run();
    let ms = rs.mutants;
    let running = move || ms.running();
    let busy = move || {
        matches!(rs.status.get(), RunStatus::Running { .. }) || rs.bench.with(|b| b.running)
    };
    let stale = Memo::new(move |_| !stale_now(app).is_empty());
    view! {
        <div class="run-file mutants-view" data-testid="mutants-view"
            data-stale=move || stale.get().to_string()>
            <PermalinkNotice/>
            <p class="run-lead">
                "Small changes to the solution (a flipped comparison, a constant off by one, a removed statement…), each run with this file both ways. "
                "A mutant the tests do not fail "<strong>"survives"</strong>": what the file does not check, or a change that alters nothing. "
                "Each runs in the Python worker with the time limit above."
            </p>
            <div class="run-toolbar">
                <SolutionPicker/>
                <Show when=running>
                    <button class="btn" data-testid="mutants-stop" title="Stop the mutants: the Python worker is replaced"
                        on:click=move |_| stop_mutants(rs)>"Stop"</button>
                </Show>
                <button class="btn primary" data-testid="mutants-run-button"
                    title="Run every mutant of the solution against this file, both ways"
                    disabled=move || running() || busy()
                    on:click=move |_| run_mutants(app, rs)>
                    <svg class="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d="M4 2.5v11l9-5.5z" fill="currentColor"/></svg>
                    {move || if running() { "Running the mutants…" } else { "Run the mutants" }}
                </button>
            </div>
            <Show when=move || effective_choice(app, rs) == SolutionChoice::Custom>
                <SolutionEditor/>
            </Show>
            <MutantProgress/>
            <MutantStale stale=stale/>
            <MutantScore/>
            <MutantFocus/>
            {Section::ALL.into_iter().map(|s| view! { <MutantSection section=s/> }).collect_view()}
            <KillMatrix/>
            <Show when=move || ms.status.with(|s| *s == MutantStatus::Idle)>
                <p class="muted empty">"No mutants run yet. Each mutant is one run of this file (both views); a mutant that loops forever ends at the time limit and counts as killed by it."</p>
            </Show>
        </div>
    }
}

/// What changed since the mutants on screen ran (tracked): the file, the solution, the stage.
/// Empty while they run, and when nothing has run.
fn stale_now(app: AppState) -> Vec<&'static str> {
    let rs = use_run();
    let ms = rs.mutants;
    app.analysis.track();
    app.problem.track();
    rs.choice.track();
    rs.custom_code.track();
    let stage = app.stage.get();
    if ms.running() {
        return Vec::new();
    }
    let Some(info) = ms.info.get() else {
        return Vec::new();
    };
    let text = js::with_editor(|e| e.get_doc()).unwrap_or_default();
    let solution = solution_for(app, rs, effective_choice(app, rs))
        .map(|s| s.0)
        .unwrap_or_default();
    stale_reasons(
        &RunInputs {
            test_source: &info.test_source,
            solution: &info.solution,
            stage: info.stage.id(),
        },
        &RunInputs {
            test_source: &text,
            solution: &solution,
            stage: stage.id(),
        },
    )
}

/// Results of an earlier run, once the file, the solution or the stage changed.
#[component]
fn MutantStale(stale: Memo<bool>) -> impl IntoView {
    let app = use_app();
    move || {
        stale.get().then(|| {
            let reasons = untrack(|| stale_now(app));
            view! {
                <p class="stale-note mutants-stale" data-testid="mutants-stale" role="status"
                    data-changed=reasons.join(",")>"⚠ "{stale_note(&reasons)}</p>
            }
        })
    }
}

/// The solution's lines beside the mutant's: the lines it changes highlighted, a few around them.
#[component]
fn MutantBeside(solution: String, diff: String) -> impl IntoView {
    view! { <div class="table-scroll" inner_html=beside_html(&beside(&solution, &diff, 3))></div> }
}

/// The mutant picked (a row's id, or a link's `k=`): beside the solution, with its result when it
/// has run. Before any run, the mutant is generated from the solution chosen now.
#[component]
fn MutantFocus() -> impl IntoView {
    let app = use_app();
    let rs = use_run();
    let ms = rs.mutants;
    move || {
        let id = ms.selected.get()?;
        let from_run: Option<(usize, Mutant, String)> = ms.mutants.with(|all| {
            let i = all.iter().position(|m| m.id == id)?;
            let solution = ms.info.with(|i| i.as_ref().map(|i| i.solution.clone()))?;
            Some((i, all[i].clone(), solution))
        });
        let (index, found) = match from_run {
            Some((i, m, s)) => (Some(i), Some((m, s))),
            // Not among the run's: a mutant of the solution chosen now.
            None => (None, {
                app.problem.track();
                rs.custom_code.track();
                solution_for(app, rs, effective_choice(app, rs))
                    .ok()
                    .and_then(|(s, _)| Some((plan(&s).into_iter().find(|m| m.id == id)?, s)))
            }),
        };
        let result = index.and_then(|i| {
            ms.results
                .with(|r| r.iter().find(|r| r.mutant == i).cloned())
        });
        let html = match &found {
            Some((m, s)) => focus_html(m, result.as_ref(), s),
            None => format!(
                r#"<p class="muted">The solution has no mutant {}.</p>"#,
                escape(&id)
            ),
        };
        Some(view! {
            <div class="mutant-focus" data-testid="mutant-selected" data-id=id data-found=found.is_some().to_string()
                data-outcome=result.as_ref().map_or("none", |r| r.outcome.id())>
                <button class="link small close" data-testid="mutant-unselect" on:click=move |_| ms.selected.set(None)>"Close"</button>
                <div inner_html=html></div>
            </div>
        })
    }
}

/// What runs now, how far it got, or how it ended.
#[component]
fn MutantProgress() -> impl IntoView {
    let rs = use_run();
    let ms = rs.mutants;
    move || {
        let status = ms.status.get();
        if status == MutantStatus::Idle {
            return None;
        }
        let planned = ms.mutants.with(|m| m.len());
        let done = ms.results.with(|r| r.len());
        let info = ms.info.get();
        let label = match &status {
            MutantStatus::Running => {
                let now = ms.current.get().and_then(|i| {
                    ms.mutants
                        .with(|m| m.get(i).map(|m| format!(" · {} {}", m.id, m.description)))
                });
                format!("{done} of {planned}{}", now.unwrap_or_default())
            }
            MutantStatus::Done => {
                let wall = ms
                    .finished_ms
                    .get()
                    .zip(info.as_ref())
                    .map(|(f, i)| f - i.started_ms);
                format!(
                    "Done: {planned} mutant{} of {} against {}, stage “{}”{} (generated in {}; each run limited to {})",
                    if planned == 1 { "" } else { "s" },
                    info.as_ref().map_or("", |i| i.solution_label.as_str()),
                    info.as_ref().map_or("", |i| i.file_name.as_str()),
                    info.as_ref().map_or("", |i| stage_short(i.stage)),
                    wall.map(|w| format!(", in {}", format_ms(w))).unwrap_or_default(),
                    format_ms(info.as_ref().map_or(0.0, |i| i.generate_ms)),
                    format_ms(info.as_ref().map_or(0.0, |i| i.limit_ms as f64)),
                )
            }
            MutantStatus::Stopped => {
                format!("Stopped after {done} of {planned}: the score below counts only those")
            }
            MutantStatus::Error(m) => m.clone(),
            MutantStatus::Idle => String::new(),
        };
        Some(view! {
            <div class="bench-progress" data-testid="mutants-progress" role="status" aria-live="polite"
                data-state=status.id() data-done=done data-planned=planned>
                <progress max=planned.to_string() value=done.to_string() aria-label="Mutants run"></progress>
                <span class:bad-text=matches!(status, MutantStatus::Error(_))>{label}</span>
            </div>
        })
    }
}

/// The mutation score.
#[component]
fn MutantScore() -> impl IntoView {
    let rs = use_run();
    let ms = rs.mutants;
    move || {
        let results = ms.results.get();
        if results.is_empty() {
            return None;
        }
        let planned = ms.mutants.with(|m| m.len());
        let t = tally(&results);
        let tone = if t.survived > 0 || t.differences > 0 {
            "warn"
        } else {
            "good"
        };
        Some(view! {
            <div class=format!("run-headline tone-{tone}") data-testid="mutants-score" data-tone=tone
                data-generated=t.generated data-planned=planned data-killed=t.killed data-survived=t.survived
                data-timeouts=t.timeouts data-crashes=t.crashes data-differences=t.differences
                data-score=format!("{:.4}", t.score())>
                {headline(&t, planned)}
            </div>
        })
    }
}

/// One section of the list: the differences, the survivors, the killed.
#[component]
fn MutantSection(section: Section) -> impl IntoView {
    let rs = use_run();
    let ms = rs.mutants;
    let rows = Memo::new(move |_| {
        ms.results.with(|r| {
            self::section(r, section)
                .into_iter()
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    view! {
        <Show when=move || rows.with(|r| !r.is_empty())>
            <section class=format!("mutant-section s-{}", section.id()) data-testid="mutants-section" data-section=section.id()>
                <h3 class="mutant-section-title">{section.title()}" "<span class="count">{move || rows.with(|r| r.len())}</span></h3>
                <ul class="mutant-rows">
                    <For each=move || rows.get() key=|r| (r.mutant, r.outcome) let:r>
                        <MutantRow result=r/>
                    </For>
                </ul>
            </section>
        </Show>
    }
}

#[component]
fn MutantRow(result: MutantResult) -> impl IntoView {
    let app = use_app();
    let rs = use_run();
    let Some(m) = rs
        .mutants
        .mutants
        .with_untracked(|m| m.get(result.mutant).cloned())
    else {
        return ().into_any();
    };
    let outcome = result.outcome;
    // Survivors and differences show their diff; a killed one on demand.
    let open = outcome == Outcome::Survived || result.difference.is_some();
    let diff = diff_lines(&m.diff)
        .into_iter()
        .map(|(mark, text)| {
            let class = match mark {
                '-' => "dl del",
                '+' => "dl add",
                '@' => "dl hunk",
                _ => "dl",
            };
            let shown = if mark == '@' {
                text.to_string()
            } else {
                format!("{mark}{text}")
            };
            view! { <span class=class>{shown}</span> }
        })
        .collect_view();
    let tests = result.killed_by_tests.clone();
    let checks = result.killed_by_checks.clone();
    let line = m.line;
    let words = killers(&result);
    // Survivors and differences beside the solution that ran.
    let solution = open
        .then(|| {
            rs.mutants
                .info
                .with_untracked(|i| i.as_ref().map(|i| i.solution.clone()))
        })
        .flatten();
    let id = m.id.clone();
    let pressed = {
        let id = id.clone();
        move || {
            rs.mutants
                .selected
                .with(|s| s.as_deref() == Some(id.as_str()))
                .to_string()
        }
    };
    view! {
        <li class=format!("mutant-row o-{}", outcome.id()) data-testid="mutant-row" data-id=m.id.clone()
            data-outcome=outcome.id() data-operator=m.operator.clone() data-line=line
            data-difference=result.difference.map(|d| d.id()).unwrap_or("none")>
            <div class="rr-head">
                <span class=format!("verdict-pill mutant-pill o-{}", outcome.id()) data-testid="mutant-outcome">{outcome_icon(outcome)}" "{outcome.label()}</span>
                <button class="link mutant-id" data-testid="mutant-select" title="Show this mutant beside the solution (the link keeps it)"
                    aria-pressed=pressed
                    on:click=move |_| {
                        let id = id.clone();
                        rs.mutants.selected.update(|s| *s = if s.as_deref() == Some(id.as_str()) { None } else { Some(id) });
                    }><code>{m.id.clone()}</code></button>
                <span class="muted small">{m.operator.clone()}</span>
                <span class="mutant-desc">{m.description.clone()}</span>
                {result.difference.map(|d| view! { <span class="blame v-measurement-bug" data-testid="mutant-difference">"⚠ "{d.label()}</span> })}
            </div>
            {words.map(|w| view! { <div class="mutant-killers-line muted small" data-testid="mutant-killers">{w}</div> })}
            <details class="mutant-detail" open=open>
                <summary class="muted small">{how(&result)}{format!(" · {}", format_ms(result.wall_ms))}</summary>
                <pre class="mutant-diff" data-testid="mutant-diff"><code>{diff}</code></pre>
                {solution.map(|s| view! { <MutantBeside solution=s diff=m.diff.clone()/> })}
                {(!tests.is_empty()).then(|| view! {
                    <div class="mutant-killers"><span class="view-tag pytest">"pytest"</span>" fails "
                        {tests.into_iter().map(|t| view! { <code class="mutant-test" data-testid="mutant-test">{t}</code>" " }).collect_view()}
                    </div>
                })}
                {(!checks.is_empty()).then(|| view! {
                    <div class="mutant-killers"><span class="view-tag loop">"Checks"</span>" fail "
                        {checks.into_iter().map(|c| {
                            let l = c.line;
                            view! {
                                <button class="link line-no" data-testid="mutant-check" data-line=l title=format!("{} — show in the editor", c.test)
                                    on:click=move |_| jump_to_line(app, l)>{format!("L{l}")}</button>" "
                            }
                        }).collect_view()}
                    </div>
                })}
            </details>
        </li>
    }
    .into_any()
}

/// Which test kills which mutant: a row per test that failed on some mutant, a column per mutant.
#[component]
fn KillMatrix() -> impl IntoView {
    let rs = use_run();
    let ms = rs.mutants;
    move || {
        // Built once the run has ended (not on every reply: the list shows the run's progress).
        if ms.status.with(|s| *s == MutantStatus::Running) {
            return None;
        }
        let matrix = ms.results.with(|r| kill_matrix(r));
        if matrix.mutants.is_empty() {
            return None;
        }
        let (ids, outcomes): (Vec<String>, Vec<Outcome>) = ms.results.with(|r| {
            ms.mutants.with(|m| {
                matrix
                    .mutants
                    .iter()
                    .map(|&i| {
                        let o = r
                            .iter()
                            .find(|x| x.mutant == i)
                            .map_or(Outcome::Killed, |x| x.outcome);
                        (m[i].id.clone(), o)
                    })
                    .unzip()
            })
        });
        let head = ids
            .iter()
            .zip(&outcomes)
            .map(|(id, o)| view! { <th scope="col" class=format!("km-col o-{}", o.id()) title=o.label()>{id.trim_start_matches('m').to_string()}</th> })
            .collect_view();
        let body = matrix
            .rows
            .into_iter()
            .map(|(test, cells)| {
                let n = cells.iter().filter(|c| **c).count();
                let name = test.clone();
                view! {
                    <tr data-testid="kill-matrix-row" data-test=test data-kills=n>
                        <th scope="row" class="mono">{name}</th>
                        {cells.into_iter().map(|c| view! { <td class="km-cell" class:hit=c>{if c { "✕" } else { "" }}</td> }).collect_view()}
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <details class="kill-matrix" data-testid="kill-matrix">
                <summary>"Kill matrix: which test fails on which mutant"</summary>
                <div class="table-scroll">
                    <table class="audit-table km-table">
                        <thead><tr><th scope="col">"Test"</th>{head}</tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
            </details>
        })
    }
}

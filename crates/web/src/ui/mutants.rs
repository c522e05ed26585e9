//! The Run tab's Mutants view: the current file against mutants of the chosen solution, each run
//! both ways in the Python worker; the mutation score, the survivors as diffs, the measurement
//! differences, and which test and which check kills each mutant. Rows go on screen as their
//! replies come (one mutant at a time); the logic is `logic::mutation`'s, the run `mutant_run`'s.

use bench_explorer::mutation::Outcome;
use leptos::prelude::*;

use super::run_tab::{jump_to_line, PermalinkNotice, SolutionEditor, SolutionPicker};
use crate::logic::mutation::{
    diff_lines, headline, how, kill_matrix, section, tally, MutantResult, Section,
};
use crate::logic::run_results::{format_ms, SolutionChoice};
use crate::logic::teach::stage_short;
use crate::mutant_run::{run_mutants, stop_mutants, MutantStatus};
use crate::run_control::{effective_choice, use_run, RunStatus};
use crate::state::use_app;

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
    view! {
        <div class="run-file mutants-view" data-testid="mutants-view">
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
            <MutantScore/>
            {Section::ALL.into_iter().map(|s| view! { <MutantSection section=s/> }).collect_view()}
            <KillMatrix/>
            <Show when=move || ms.status.with(|s| *s == MutantStatus::Idle)>
                <p class="muted empty">"No mutants run yet. Each mutant is one run of this file (both views); a mutant that loops forever ends at the time limit and counts as killed by it."</p>
            </Show>
        </div>
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
    view! {
        <li class=format!("mutant-row o-{}", outcome.id()) data-testid="mutant-row" data-id=m.id.clone()
            data-outcome=outcome.id() data-operator=m.operator.clone() data-line=line
            data-difference=result.difference.map(|d| d.id()).unwrap_or("none")>
            <div class="rr-head">
                <span class=format!("verdict-pill mutant-pill o-{}", outcome.id()) data-testid="mutant-outcome">{outcome_icon(outcome)}" "{outcome.label()}</span>
                <code class="mutant-id">{m.id.clone()}</code>
                <span class="muted small">{m.operator.clone()}</span>
                <span class="mutant-desc">{m.description.clone()}</span>
                {result.difference.map(|d| view! { <span class="blame v-measurement-bug" data-testid="mutant-difference">"⚠ "{d.label()}</span> })}
            </div>
            <details class="mutant-detail" open=open>
                <summary class="muted small">{how(&result)}{format!(" · {}", format_ms(result.wall_ms))}</summary>
                <pre class="mutant-diff" data-testid="mutant-diff"><code>{diff}</code></pre>
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

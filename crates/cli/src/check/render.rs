//! Writing a [`Report`]: the human table (one line per problem and solution, then what lies, then
//! totals by verdict and by shape) and JUnit XML for CI systems (with `--mutants`, a suite of
//! mutants per pair).

use std::io::{self, Write};

use anstyle::{AnsiColor, Style};
use bench_explorer::model::Status;
use bench_explorer::verdict::Verdict;

use super::join::{PairResult, RunStatus};
use super::mutants::{Difference, MutantRun, Outcome, Score};
use super::report::Report;
use super::sandbox::Mode;

const BOLD: Style = Style::new().bold();
const RED: Style = AnsiColor::Red.on_default().bold();
const DIM: Style = Style::new().dimmed();

/// The verdict columns of the table, in reading order.
const COLUMNS: [(Verdict, &str); 6] = [
    (Verdict::Agree, "agree"),
    (Verdict::SolutionBug, "sol.bug"),
    (Verdict::MeasurementBug, "meas.bug"),
    (Verdict::PhantomPass, "phantom"),
    (Verdict::FailsElsewhere, "elsewhere"),
    (Verdict::NotMeasured, "not meas."),
];

fn cell(p: &PairResult, v: Verdict) -> usize {
    p.verdicts.get(&v).copied().unwrap_or(0)
}

fn status_word(p: &PairResult) -> String {
    match p.status {
        RunStatus::Ok => format!("{:.2} s", p.wall_ms / 1000.0),
        RunStatus::Timeout => "TIMEOUT".into(),
        RunStatus::Crashed => "CRASHED".into(),
    }
}

pub fn table(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let width = report
        .pairs
        .iter()
        .map(|p| p.problem.len() + p.solution.len() + 3)
        .max()
        .unwrap_or(10)
        .max(18);
    write!(out, "{BOLD}{:<width$}", "problem · solution")?;
    for (_, title) in COLUMNS {
        write!(out, " {title:>9}")?;
    }
    let with_mutants = report.mutants.is_some();
    if with_mutants {
        write!(out, " {:>9}", "mutants")?;
    }
    writeln!(out, "  run{BOLD:#}")?;
    for p in &report.pairs {
        let lies = cell(p, Verdict::MeasurementBug) + cell(p, Verdict::PhantomPass) > 0;
        let style = if lies { RED } else { Style::new() };
        write!(
            out,
            "{style}{:<width$}",
            format!("{} · {}", p.problem, p.solution)
        )?;
        for (v, _) in COLUMNS {
            write!(out, " {:>9}", cell(p, v))?;
        }
        if with_mutants {
            let score = Score::of(p).map_or("-".into(), |s| s.cell());
            write!(out, " {score:>9}")?;
        }
        writeln!(out, "  {}{style:#}", status_word(p))?;
    }
    for p in &report.pairs {
        if let Some(detail) = &p.detail {
            writeln!(
                out,
                "\n{RED}{} · {}: {detail}{RED:#}",
                p.problem, p.solution
            )?;
        }
        for e in &p.collection_errors {
            writeln!(
                out,
                "\n{DIM}{} · {}: pytest could not collect the file: {e}{DIM:#}",
                p.problem, p.solution
            )?;
        }
        let lying: Vec<_> = p
            .rows
            .iter()
            .filter(|r| matches!(r.verdict, Verdict::MeasurementBug | Verdict::PhantomPass))
            .collect();
        if lying.is_empty() {
            continue;
        }
        writeln!(out, "\n{BOLD}{} · {}{BOLD:#}", p.problem, p.solution)?;
        for r in lying {
            let expr = r.expr.as_deref().unwrap_or(&r.source);
            let why = r.error.as_deref().unwrap_or("false");
            writeln!(
                out,
                "  {RED}{:<15}{RED:#} {}:{} {expr}\n                  loop: {why}; pytest: {}",
                r.verdict.label(),
                r.test,
                r.line,
                r.pytest.label()
            )?;
        }
    }
    if with_mutants {
        mutant_details(out, report)?;
    }
    let t = &report.totals;
    writeln!(
        out,
        "\n{BOLD}totals{BOLD:#}: {} problems, {} runs ({} killed at the time limit, {} crashed), stage {}, {}",
        t.problems,
        t.pairs,
        t.timeouts,
        t.crashes,
        report.stages.join(", "),
        sandbox_words(report)
    )?;
    for v in Verdict::ALL {
        let n = report.count(v);
        let style = if n > 0 && matches!(v, Verdict::MeasurementBug | Verdict::PhantomPass) {
            RED
        } else {
            Style::new()
        };
        writeln!(out, "  {style}{:<22} {n:>6}{style:#}", v.label())?;
    }
    if let Some(m) = &report.mutants {
        let differences = if m.differences > 0 { RED } else { Style::new() };
        writeln!(
            out,
            "{BOLD}mutants{BOLD:#}: {} generated, {} killed ({} by the time limit, {} crashed), {} survived, {differences}{} differences between the views{differences:#}",
            m.generated, m.killed, m.timeouts, m.crashes, m.survived, m.differences
        )?;
    }
    if !t.shapes.is_empty() {
        writeln!(out, "{BOLD}by shape{BOLD:#}")?;
        for (shape, verdicts) in &t.shapes {
            let parts: Vec<String> = Verdict::ALL
                .iter()
                .filter_map(|v| verdicts.get(v).map(|n| format!("{n} {}", v.label())))
                .collect();
            writeln!(out, "  {:<28} {}", shape.id(), parts.join(", "))?;
        }
    }
    Ok(())
}

/// `--mutants`: per pair, the mutants the two views judge differently, then the survivors with
/// their diffs.
fn mutant_details(out: &mut impl Write, report: &Report) -> io::Result<()> {
    for p in &report.pairs {
        let runs = p.mutants.as_deref().unwrap_or_default();
        let differing: Vec<&MutantRun> = runs.iter().filter(|m| m.difference.is_some()).collect();
        let survivors: Vec<&MutantRun> = runs.iter().filter(|m| !m.outcome.killed()).collect();
        if differing.is_empty() && survivors.is_empty() {
            continue;
        }
        let score = Score::of(p).map_or(String::new(), |s| s.cell());
        writeln!(
            out,
            "\n{BOLD}{} · {} mutants: {score} killed{BOLD:#}",
            p.problem, p.solution
        )?;
        for m in differing {
            let why = m.difference.map_or("", |d| d.label());
            writeln!(
                out,
                "  {RED}{} difference{RED:#} ({why}; pytest: {}; checks: {}) {}",
                m.id,
                list(&m.killed_by_tests),
                list(&m.killed_by_checks),
                m.description
            )?;
            diff_lines(out, &m.diff)?;
        }
        for m in survivors {
            writeln!(
                out,
                "  {} {} [{}] {}",
                m.id,
                m.outcome.label(),
                m.operator,
                m.description
            )?;
            diff_lines(out, &m.diff)?;
        }
    }
    Ok(())
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

fn diff_lines(out: &mut impl Write, diff: &str) -> io::Result<()> {
    for line in diff.lines() {
        let style = match line.as_bytes().first() {
            Some(b'-') => AnsiColor::Red.on_default(),
            Some(b'+') => AnsiColor::Green.on_default(),
            _ => DIM,
        };
        writeln!(out, "      {style}{line}{style:#}")?;
    }
    Ok(())
}

/// How the candidates were confined, for the totals line.
fn sandbox_words(report: &Report) -> String {
    match report.sandbox.as_slice() {
        [Mode::Bwrap] => "sandbox bwrap".into(),
        [Mode::None] => format!("{RED}no sandbox{RED:#} (--no-sandbox)"),
        [] => "sandbox -".into(),
        modes => {
            let ids: Vec<&str> = modes.iter().map(|m| m.id()).collect();
            format!("{RED}sandbox mixed{RED:#} ({})", ids.join(", "))
        }
    }
}

fn xml(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            // XML 1.0 cannot carry most control characters, even escaped.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => s.push('\u{fffd}'),
            c => s.push(c),
        }
    }
    s
}

/// JUnit XML: a suite per (problem, solution), a case per assertion. Measurement bugs, phantom
/// passes and solution bugs are failures (typed by verdict), a pair killed or crashed is an error,
/// a dropped assertion is skipped. With `--mutants`, each pair has a second suite,
/// `<problem>/<solution> mutants` (see [`mutant_suite`]).
pub fn junit(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let t = &report.totals;
    let failures = |p: &PairResult| {
        cell(p, Verdict::MeasurementBug)
            + cell(p, Verdict::PhantomPass)
            + cell(p, Verdict::SolutionBug)
    };
    let mutant_cases = |p: &PairResult| p.mutants.as_ref().map_or(0, Vec::len);
    let mutant_failures = |p: &PairResult| {
        p.mutants
            .iter()
            .flatten()
            .filter(|m| mutant_failure(m).is_some())
            .count()
    };
    let total_failures: usize = report
        .pairs
        .iter()
        .map(|p| failures(p) + mutant_failures(p))
        .sum();
    let total_cases: usize = report
        .pairs
        .iter()
        .map(|p| p.rows.len() + mutant_cases(p))
        .sum();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="bench-explorer check" tests="{total_cases}" failures="{total_failures}" errors="{}">"#,
        t.timeouts + t.crashes
    )?;
    for p in &report.pairs {
        let errors = usize::from(p.status != RunStatus::Ok);
        let skipped = cell(p, Verdict::NotMeasured);
        writeln!(
            out,
            r#"  <testsuite name="{}" tests="{}" failures="{}" errors="{errors}" skipped="{skipped}" time="{:.3}">"#,
            xml(&format!("{}/{}", p.problem, p.solution)),
            p.rows.len(),
            failures(p),
            p.wall_ms / 1000.0
        )?;
        writeln!(
            out,
            r#"    <properties><property name="sandbox" value="{}"/></properties>"#,
            p.sandbox.id()
        )?;
        if let Some(detail) = &p.detail {
            writeln!(
                out,
                r#"    <testcase classname="{}" name="run"><error type="{}" message="{}"/></testcase>"#,
                xml(&p.problem),
                if p.status == RunStatus::Timeout {
                    "timeout"
                } else {
                    "crashed"
                },
                xml(detail)
            )?;
        }
        for r in &p.rows {
            write!(
                out,
                r#"    <testcase classname="{}.{}" name="{}"#,
                xml(&p.problem),
                xml(&p.solution.replace('.', "_")),
                xml(&format!("{} line {}", r.test, r.line))
            )?;
            let message = || {
                format!(
                    "{}: {} (loop: {}; pytest: {})",
                    r.verdict.label(),
                    r.expr.as_deref().unwrap_or(&r.source),
                    r.error
                        .as_deref()
                        .unwrap_or(r.eval.map(|e| e.id()).unwrap_or("-")),
                    r.pytest.label()
                )
            };
            match r.verdict {
                Verdict::MeasurementBug | Verdict::PhantomPass | Verdict::SolutionBug => writeln!(
                    out,
                    r#""><failure type="{}" message="{}"/></testcase>"#,
                    r.verdict.id(),
                    xml(&message())
                )?,
                Verdict::NotMeasured if r.status == Status::Dropped => writeln!(
                    out,
                    r#""><skipped message="{}"/></testcase>"#,
                    xml(&message())
                )?,
                _ => writeln!(out, r#""/>"#)?,
            }
        }
        writeln!(out, "  </testsuite>")?;
        if let Some(runs) = &p.mutants {
            mutant_suite(out, p, runs, mutant_failures(p))?;
        }
    }
    writeln!(out, "</testsuites>")
}

/// A mutant's JUnit failure, when it is one: `(type, message)`. A survivor is a failure (the test
/// file lets that wrong program through, or it is equivalent, which no run tells apart); so is a
/// mutant the two views judge differently (a measurement difference: the bench loop would accept
/// what pytest rejects, or the reverse), which comes first when both hold.
fn mutant_failure(m: &MutantRun) -> Option<(&'static str, String)> {
    let kind = match (m.difference, m.outcome) {
        (Some(Difference::ChecksMiss), _) => "checks-miss",
        (Some(Difference::ChecksOnly), _) => "checks-only",
        (None, Outcome::Survived) => "survived",
        (None, _) => return None,
    };
    let message = match m.difference {
        Some(d) => format!(
            "measurement difference: {} (pytest: {}; checks: {}); {}: {}",
            d.label(),
            list(&m.killed_by_tests),
            list(&m.killed_by_checks),
            m.outcome.label(),
            m.description
        ),
        None => format!("{}: {}", m.outcome.label(), m.description),
    };
    Some((kind, message))
}

/// The suite of a pair's mutants: one case per mutant, named by its id, operator and change
/// (``m002 [constant] line 13: `1` → `2` ``), in the kill matrix's order. A killed mutant passes,
/// and says in its output how (`killed` by which tests and checks, `killed by the time limit`,
/// `killed (crashed)`); a survivor or a measurement difference is a failure whose message says so
/// and whose text is the mutant's diff. The suite's properties hold the score.
fn mutant_suite(
    out: &mut impl Write,
    p: &PairResult,
    runs: &[MutantRun],
    failures: usize,
) -> io::Result<()> {
    let score = Score::of(p);
    let time: f64 = runs.iter().map(|m| m.wall_ms).sum::<f64>() / 1000.0;
    writeln!(
        out,
        r#"  <testsuite name="{}" tests="{}" failures="{failures}" errors="0" skipped="0" time="{time:.3}">"#,
        xml(&format!("{}/{} mutants", p.problem, p.solution)),
        runs.len(),
    )?;
    if let Some(s) = score {
        writeln!(
            out,
            r#"    <properties><property name="sandbox" value="{}"/><property name="mutation-score" value="{:.4}"/><property name="generated" value="{}"/><property name="killed" value="{}"/><property name="survived" value="{}"/><property name="timeouts" value="{}"/><property name="crashes" value="{}"/><property name="differences" value="{}"/></properties>"#,
            p.sandbox.id(),
            s.score,
            s.generated,
            s.killed,
            s.survived,
            s.timeouts,
            s.crashes,
            s.differences
        )?;
    }
    for m in runs {
        write!(
            out,
            r#"    <testcase classname="{}.{}.mutants" name="{}" time="{:.3}">"#,
            xml(&p.problem),
            xml(&p.solution.replace('.', "_")),
            xml(&format!("{} [{}] {}", m.id, m.operator, m.description)),
            m.wall_ms / 1000.0
        )?;
        if let Some((kind, message)) = mutant_failure(m) {
            write!(
                out,
                r#"<failure type="{kind}" message="{}">{}</failure>"#,
                xml(&message),
                xml(&m.diff)
            )?;
        }
        // A run stopped at the time limit or that crashed gave no reply: no test or check to name.
        let how = match m.outcome {
            Outcome::Timeout | Outcome::Crashed => {
                format!("{} (the run gave no reply)", m.outcome.label())
            }
            _ => format!(
                "{}; failing tests: {}; failing checks: {}",
                m.outcome.label(),
                list(&m.killed_by_tests),
                list(&m.killed_by_checks)
            ),
        };
        writeln!(out, "<system-out>{}</system-out></testcase>", xml(&how))?;
    }
    writeln!(out, "  </testsuite>")
}

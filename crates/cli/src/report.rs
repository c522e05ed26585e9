//! Human-readable reports: coloured on a terminal, plain when piped (anstream strips the styles).

use std::io::{self, Write};

use anstyle::{AnsiColor, Style};
use bench_explorer::bench::Audit;
use bench_explorer::{Extraction, Shape, Status};

const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();
const GREEN: Style = AnsiColor::Green.on_default();
const RED: Style = AnsiColor::Red.on_default();
const YELLOW: Style = AnsiColor::Yellow.on_default();
const CYAN: Style = AnsiColor::Cyan.on_default();

fn shapes(list: &[Shape]) -> String {
    if list.is_empty() {
        String::new()
    } else {
        format!(
            "  [{}]",
            list.iter().map(|s| s.id()).collect::<Vec<_>>().join(", ")
        )
    }
}

/// The rule that fired, after the words: `  [M001]` (`bench-explorer rule M001` explains it).
fn rule(rule: Option<&bench_explorer::RuleRef>) -> String {
    rule.map(|r| format!("  [{}]", r.code)).unwrap_or_default()
}

pub fn extraction(out: &mut impl Write, e: &Extraction) -> io::Result<()> {
    writeln!(
        out,
        "{BOLD}{}{BOLD:#}  {DIM}slug {} · stage {}{DIM:#}",
        e.file,
        e.slug,
        e.stage.id()
    )?;
    let mut current: Option<&str> = None;
    for a in &e.assertions {
        if current != Some(a.test.as_str()) {
            writeln!(out, "  {CYAN}{}{CYAN:#}", a.test)?;
            current = Some(&a.test);
        }
        match a.status {
            Status::Kept => {
                let expr = a.expr.as_deref().unwrap_or("");
                writeln!(
                    out,
                    "    {GREEN}kept{GREEN:#}    {:>4}:{:<3} {}{DIM}{}{DIM:#}",
                    a.line,
                    a.column,
                    expr,
                    shapes(&a.shapes)
                )?;
                // A fold, once more, one step per line with the final check last.
                if let Some(view) = bench_explorer::readable(expr) {
                    for line in view.lines() {
                        writeln!(out, "                      {DIM}{line}{DIM:#}")?;
                    }
                }
            }
            Status::Dropped => {
                let first_line = a.source.lines().next().unwrap_or("");
                writeln!(
                    out,
                    "    {RED}dropped{RED:#} {:>4}:{:<3} {}{DIM}{}{DIM:#}",
                    a.line,
                    a.column,
                    first_line,
                    shapes(&a.shapes)
                )?;
                writeln!(
                    out,
                    "                      {YELLOW}{}{YELLOW:#}{DIM}{}{DIM:#}",
                    a.reason.as_deref().unwrap_or(""),
                    rule(a.rule.as_ref())
                )?;
            }
        }
    }
    if !e.findings.is_empty() {
        writeln!(out, "  {BOLD}findings{BOLD:#}")?;
        for f in &e.findings {
            writeln!(
                out,
                "    {YELLOW}{:>4}{YELLOW:#} {:<26} {}{DIM}{}{DIM:#}",
                f.line,
                f.shape.id(),
                f.message,
                rule(f.rule.as_ref())
            )?;
        }
    }
    if !e.syntax_errors.is_empty() {
        writeln!(out, "  {BOLD}syntax errors{BOLD:#}")?;
        for s in &e.syntax_errors {
            writeln!(out, "    {RED}{}:{}{RED:#} {}", s.line, s.column, s.message)?;
        }
    }
    let kept = e.kept().count();
    let dropped = e.dropped().count();
    let unseen = e.unseen() as usize;
    let total = kept + dropped + unseen;
    writeln!(
        out,
        "  {total} check{} pytest makes: {kept} kept, {dropped} dropped, {unseen} not seen; {} finding{}, {} syntax error{}\n",
        if total == 1 { "" } else { "s" },
        e.findings.len(),
        if e.findings.len() == 1 { "" } else { "s" },
        e.syntax_errors.len(),
        if e.syntax_errors.len() == 1 { "" } else { "s" }
    )
}

pub fn audit(out: &mut impl Write, a: &Audit) -> io::Result<()> {
    writeln!(
        out,
        "{BOLD}bench audit{BOLD:#}  {DIM}stage {}{DIM:#}\n",
        a.stage.id()
    )?;
    writeln!(
        out,
        "{BOLD}{:<28} {:>5} {:>5} {:>7} {:>8}  shapes{BOLD:#}",
        "problem", "total", "kept", "dropped", "findings"
    )?;
    for p in &a.problems {
        let dropped = if p.dropped > 0 { RED } else { GREEN };
        writeln!(
            out,
            "{:<28} {:>5} {:>5} {dropped}{:>7}{dropped:#} {:>8}  {DIM}{}{DIM:#}",
            p.slug,
            p.assertions,
            p.kept,
            p.dropped,
            p.findings,
            p.shapes
                .iter()
                .map(|s| s.id())
                .collect::<Vec<_>>()
                .join(", ")
        )?;
        for c in &p.original_hidden_conventions {
            writeln!(
                out,
                "{:<28} {DIM}the original statement did not state: {c}{DIM:#}",
                ""
            )?;
        }
        for c in &p.hidden_conventions {
            writeln!(
                out,
                "{:<28} {YELLOW}statement does not state: {c}{YELLOW:#}",
                ""
            )?;
        }
        for s in &p.shapes_not_seen {
            writeln!(
                out,
                "{:<28} {YELLOW}meta.toml lists {s}, not seen by the extractor{YELLOW:#}",
                ""
            )?;
        }
        for s in &p.shapes_not_listed {
            writeln!(
                out,
                "{:<28} {YELLOW}the extractor sees {s}, not listed in meta.toml{YELLOW:#}",
                ""
            )?;
        }
    }
    writeln!(
        out,
        "{BOLD}{:<28} {:>5} {:>5} {:>7} {:>8}{BOLD:#}\n",
        format!("{} problems", a.problems.len()),
        a.assertions,
        a.kept,
        a.dropped,
        a.findings
    )?;
    writeln!(
        out,
        "{BOLD}{:<28} {:>8} {:>10} {:>5} {:>7} {:>8}{BOLD:#}",
        "shape", "problems", "assertions", "kept", "dropped", "findings"
    )?;
    for (shape, t) in &a.by_shape {
        writeln!(
            out,
            "{:<28} {:>8} {:>10} {:>5} {:>7} {:>8}",
            shape.id(),
            t.problems,
            t.assertions,
            t.kept,
            t.dropped,
            t.findings
        )?;
    }
    if !a.dropped_by_rule.is_empty() {
        writeln!(out, "\n{BOLD}dropped, by rule{BOLD:#}")?;
        for (reason, n) in &a.dropped_by_rule {
            writeln!(out, "  {n:>4}  {reason}")?;
        }
    }
    Ok(())
}

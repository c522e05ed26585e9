//! `bench-explorer rule CODE` and the rule settings of `extract` and `audit`: `--select`,
//! `--ignore` (or `[tool.bench-explorer]` in the nearest `pyproject.toml`, as ruff reads its own
//! table) and `--statistics`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anstyle::Style;
use bench_explorer::rules::{self, Rule, RuleCount, Selection};

use crate::Fatal;

const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();

/// `rule CODE` prints one page; `rule --all` every page (the text of `docs/rules.md`).
pub fn run_rule(key: Option<&str>, all: bool, json: bool) -> Result<i32, Fatal> {
    let chosen: Vec<Rule> = match (key, all) {
        (_, true) => Rule::all(),
        (Some(key), false) => vec![Rule::find(key).ok_or_else(|| {
            match rules::RETIRED
                .iter()
                .find(|r| r.code.eq_ignore_ascii_case(key) || r.name == key)
            {
                Some(r) => Fatal(format!(
                    "{} `{}` is a retired code, no rule any more: {}",
                    r.code, r.name, r.why
                )),
                None => Fatal(format!(
                    "no rule `{key}` (`bench-explorer rule --all` lists every rule)"
                )),
            }
        })?],
        (None, false) => {
            return Err(Fatal(
                "give a rule's code or name (`bench-explorer rule M001`), or --all".to_string(),
            ))
        }
    };
    let mut out = io::stdout();
    if json && all {
        crate::output(write!(out, "{}", rules::catalogue_json()))?;
    } else if json {
        let r = chosen[0];
        let value = serde_json::json!({
            "code": r.code(),
            "name": r.name(),
            "family": r.family().title,
            "summary": r.summary(),
            "page": rules::dedent(r.doc()),
        });
        crate::output(writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&value).unwrap()
        ))?;
    } else if all {
        crate::output(write!(out, "{}", rules::catalogue_markdown()))?;
    } else {
        crate::output(write!(out, "{}", rules::page(chosen[0])))?;
    }
    Ok(0)
}

/// The selection for these files: the command line's `--select` / `--ignore` where given, else
/// the nearest `pyproject.toml`'s `[tool.bench-explorer]` (from the first file's folder up), else
/// every rule.
pub fn selection(
    files: &[&Path],
    select: &[String],
    ignore: &[String],
) -> Result<Selection, Fatal> {
    let mut chosen = Selection::default();
    if let Some((path, table)) = files.first().and_then(|f| settings_for(f)) {
        let list = |key: &str| -> Result<Option<Vec<String>>, Fatal> {
            match table.get(key) {
                None => Ok(None),
                Some(toml::Value::Array(items)) => items
                    .iter()
                    .map(|v| {
                        v.as_str().map(str::to_string).ok_or_else(|| {
                            Fatal(format!(
                                "{}: [tool.bench-explorer] {key} must be a list of strings",
                                path.display()
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some),
                Some(_) => Err(Fatal(format!(
                    "{}: [tool.bench-explorer] {key} must be a list of strings",
                    path.display()
                ))),
            }
        };
        if let Some(s) = list("select")? {
            chosen.select = s;
        }
        if let Some(i) = list("ignore")? {
            chosen.ignore = i;
        }
        chosen
            .validate()
            .map_err(|e| Fatal(format!("{}: [tool.bench-explorer]: {e}", path.display())))?;
    }
    if !select.is_empty() {
        chosen.select = split(select);
    }
    if !ignore.is_empty() {
        chosen.ignore = split(ignore);
    }
    chosen.validate().map_err(Fatal)?;
    Ok(chosen)
}

/// `--select M,N006 --select E`: commas and repeats both list.
fn split(values: &[String]) -> Vec<String> {
    values
        .iter()
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The nearest `pyproject.toml` from `file`'s folder up that has a `[tool.bench-explorer]` table.
fn settings_for(file: &Path) -> Option<(PathBuf, toml::Table)> {
    let start = if file.as_os_str() == "-" {
        std::env::current_dir().ok()?
    } else {
        std::fs::canonicalize(file).ok()?.parent()?.to_path_buf()
    };
    let mut dir: Option<&Path> = Some(&start);
    while let Some(d) = dir {
        let path = d.join("pyproject.toml");
        if let Ok(text) = std::fs::read_to_string(&path) {
            if let Ok(value) = text.parse::<toml::Table>() {
                if let Some(table) = value
                    .get("tool")
                    .and_then(|t| t.get("bench-explorer"))
                    .and_then(|t| t.as_table())
                {
                    return Some((path, table.clone()));
                }
            }
        }
        dir = d.parent();
    }
    None
}

/// `--statistics`: one line per rule, most frequent first, and whether it fails the exit status.
pub fn print_statistics(
    out: &mut impl Write,
    counts: &[RuleCount],
    selection: &Selection,
) -> io::Result<()> {
    if counts.is_empty() {
        return writeln!(out, "no check dropped and nothing found");
    }
    writeln!(
        out,
        "{BOLD}{:>7} {:>8} {:>6}  {:<5} {:<44} fails{BOLD:#}",
        "dropped", "findings", "unseen", "code", "rule"
    )?;
    for c in counts {
        let rule = bench_explorer::RuleRef {
            code: c.code.clone(),
            name: c.name.clone(),
        };
        let fails = if selection.fails(Some(&rule)) {
            "yes"
        } else {
            "no"
        };
        writeln!(
            out,
            "{:>7} {:>8} {:>6}  {:<5} {:<44} {fails}",
            c.dropped, c.findings, c.unseen, c.code, c.name
        )?;
    }
    writeln!(
        out,
        "{DIM}`bench-explorer rule CODE` explains a rule and how to write the test so it can be checked{DIM:#}"
    )
}

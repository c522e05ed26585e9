//! The fixture harness: every folder under `tests/fixtures/` is one behaviour of the extractor.
//!
//! Each folder holds a small pytest file `test_*.py`, usually a `solution.py` that passes it (the
//! Python differential check in `tests/python/test_faithful.py` runs those), and `expect.toml`, which
//! states what the extractor must do, assertion by assertion. The harness checks the expectations
//! and snapshots the whole JSON with insta (`tests/snapshots/`), in the manner of ruff's rule
//! fixtures: expectations catch regressions in what matters, snapshots show everything else changing.
//! Each folder is one named test (see `main`).

use std::path::{Path, PathBuf};

use bench_explorer::{extract, Extraction, Options, Stage, Status};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    description: String,
    #[serde(default)]
    stage: Option<String>,
    #[serde(default)]
    slug: Option<String>,
    #[serde(default)]
    solution_modules: Vec<String>,
    /// The pytest version whose ids the extraction follows (`--pytest-version`; default 9.0).
    #[serde(default)]
    pytest_version: Option<String>,
    #[serde(default, rename = "assert")]
    asserts: Vec<ExpectAssert>,
    #[serde(default, rename = "finding")]
    findings: Vec<ExpectFinding>,
    #[serde(default)]
    syntax_errors: Option<usize>,
    /// When set, the number of assertions must match exactly.
    #[serde(default)]
    total: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectAssert {
    line: u32,
    /// Which entry on that line (parametrized cases share a line), by test id.
    #[serde(default)]
    test: Option<String>,
    status: String,
    #[serde(default)]
    expr: Option<String>,
    #[serde(default)]
    reason_contains: Vec<String>,
    /// The rule a dropped entry names: its code (`S004`) or name.
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    unresolved: Option<Vec<String>>,
    #[serde(default)]
    shapes: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectFinding {
    shape: String,
    #[serde(default)]
    line: Option<u32>,
    #[serde(default)]
    message_contains: Vec<String>,
    /// The rule the finding names: its code or name.
    #[serde(default)]
    rule: Option<String>,
}

fn fixture_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/fixtures exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn test_file(dir: &Path) -> PathBuf {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("test_") && n.ends_with(".py"))
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{} has no test_*.py", dir.display()))
}

fn run_fixture(dir: &Path) -> Result<(), String> {
    let name = dir.file_name().unwrap().to_string_lossy().to_string();
    let expect_text = std::fs::read_to_string(dir.join("expect.toml"))
        .map_err(|e| format!("{name}: expect.toml: {e}"))?;
    let expect: Expect =
        toml::from_str(&expect_text).map_err(|e| format!("{name}: expect.toml: {e}"))?;
    let test = test_file(dir);
    let source = std::fs::read_to_string(&test).unwrap();
    let stage = match expect.stage.as_deref() {
        None => Stage::Full,
        Some(id) => Stage::from_id(id).ok_or_else(|| format!("{name}: unknown stage {id}"))?,
    };
    let options = Options {
        file: format!("{name}/{}", test.file_name().unwrap().to_string_lossy()),
        slug: expect.slug.clone(),
        solution_modules: expect.solution_modules.clone(),
        stage,
        // A fixture folder may hold the conftest.py pytest would import with its test file.
        conftests: std::fs::read_to_string(dir.join("conftest.py"))
            .map(|source| {
                vec![bench_explorer::Conftest {
                    path: format!("{name}/conftest.py"),
                    source,
                    package: None,
                }]
            })
            .unwrap_or_default(),
        // A package `__init__.py` beside the test file, as the CLI reads it.
        package_inits: std::fs::read_to_string(dir.join("__init__.py"))
            .map(|source| {
                vec![bench_explorer::Conftest {
                    path: format!("{name}/__init__.py"),
                    source,
                    package: None,
                }]
            })
            .unwrap_or_default(),
        // And the file that configures it, as the CLI reads the rootdir's (the first in pytest's
        // order that configures pytest, or that pytest refuses).
        pytest_config: bench_explorer::pytest_config::FILE_NAMES
            .iter()
            .find_map(|file| {
                let text = std::fs::read_to_string(dir.join(file)).ok()?;
                bench_explorer::pytest_config::read(file, &text)
            }),
        pytest_version: match expect.pytest_version.as_deref() {
            None => Default::default(),
            Some(v) => bench_explorer::PytestVersion::parse(v)
                .map_err(|e| format!("{name}: expect.toml: {e}"))?,
        },
    };
    let extraction = extract(&source, &options);
    if std::env::var_os("FIXTURE_STATE_RULES").is_some() {
        state_rules(&dir.join("expect.toml"), &expect_text, &expect, &extraction);
    }
    let mut errors = check(&expect, &extraction);
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_description(expect.description.clone());
    settings.set_omit_expression(true);
    settings.bind(|| {
        if let Err(e) =
            std::panic::catch_unwind(|| insta::assert_json_snapshot!(name.clone(), extraction))
        {
            let message = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            errors.push(format!(
                "snapshot differs: {}",
                message.lines().next().unwrap_or("")
            ));
        }
    });
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{name} ({}):\n  - {}",
            expect.description,
            errors.join("\n  - ")
        ))
    }
}

/// `FIXTURE_STATE_RULES=1`: write into expect.toml the rule of every expected dropped entry that
/// states none (after its `[[assert]]` header), so that the fixture checks it from then on.
fn state_rules(path: &Path, text: &str, expect: &Expect, e: &Extraction) {
    let rules: Vec<Option<String>> = expect
        .asserts
        .iter()
        .map(|want| {
            if want.rule.is_some() || want.status != "dropped" {
                return None;
            }
            let mut named = e
                .assertions
                .iter()
                .filter(|a| a.line == want.line && want.test.as_ref().is_none_or(|t| &a.test == t))
                .filter_map(|a| a.rule.as_ref().map(|r| (r.code.clone(), r.name.clone())));
            let first = named.next()?;
            named.all(|r| r == first).then_some(first)
        })
        .map(|r| r.map(|(code, name)| format!("rule = \"{code}\"  # {name}")))
        .collect();
    let mut out = String::new();
    let mut block = 0;
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        if line.trim() == "[[assert]]" {
            if let Some(Some(rule)) = rules.get(block) {
                out.push_str(rule);
                out.push('\n');
            }
            block += 1;
        }
    }
    std::fs::write(path, out).unwrap();
}

fn check(expect: &Expect, e: &Extraction) -> Vec<String> {
    let mut errors = Vec::new();
    for want in &expect.asserts {
        let candidates: Vec<_> = e
            .assertions
            .iter()
            .filter(|a| a.line == want.line && want.test.as_ref().is_none_or(|t| &a.test == t))
            .collect();
        // Several entries on one line (parametrize cases) must each meet the expectation.
        if candidates.is_empty() {
            errors.push(format!(
                "no assertion on line {} (test {:?})",
                want.line, want.test
            ));
            continue;
        }
        for got in &candidates {
            let where_ = format!("line {} [{}]", want.line, got.test);
            let status = match got.status {
                Status::Kept => "kept",
                Status::Dropped => "dropped",
            };
            if status != want.status {
                errors.push(format!(
                    "{where_}: expected {}, got {status} ({})",
                    want.status,
                    got.reason.clone().or(got.expr.clone()).unwrap_or_default()
                ));
                continue;
            }
            if let Some(expr) = &want.expr {
                if got.expr.as_ref() != Some(expr) {
                    errors.push(format!(
                        "{where_}: expected expr `{expr}`, got `{}`",
                        got.expr.clone().unwrap_or_default()
                    ));
                }
            }
            if let Some(rule) = &want.rule {
                let named = got
                    .rule
                    .as_ref()
                    .is_some_and(|r| &r.code == rule || &r.name == rule);
                if !named {
                    errors.push(format!(
                        "{where_}: expected rule {rule}, got {:?}",
                        got.rule
                    ));
                }
            }
            let reason = got.reason.clone().unwrap_or_default();
            for needle in &want.reason_contains {
                if !reason.contains(needle.as_str()) {
                    errors.push(format!(
                        "{where_}: reason should contain {needle:?}: {reason:?}"
                    ));
                }
            }
            if let Some(unresolved) = &want.unresolved {
                let got_u = got.unresolved.clone().unwrap_or_default();
                if &got_u != unresolved {
                    errors.push(format!(
                        "{where_}: unresolved {got_u:?}, expected {unresolved:?}"
                    ));
                }
            }
            if let Some(shapes) = &want.shapes {
                let got_s: Vec<&str> = got.shapes.iter().map(|s| s.id()).collect();
                if got_s != shapes.iter().map(String::as_str).collect::<Vec<_>>() {
                    errors.push(format!("{where_}: shapes {got_s:?}, expected {shapes:?}"));
                }
            }
        }
    }
    for want in &expect.findings {
        let found = e.findings.iter().any(|f| {
            f.shape.id() == want.shape
                && want.line.is_none_or(|l| l == f.line)
                && want
                    .message_contains
                    .iter()
                    .all(|m| f.message.contains(m.as_str()))
                && want.rule.as_ref().is_none_or(|rule| {
                    f.rule
                        .as_ref()
                        .is_some_and(|r| &r.code == rule || &r.name == rule)
                })
        });
        if !found {
            errors.push(format!(
                "missing finding {} (line {:?}, containing {:?}); have {:?}",
                want.shape,
                want.line,
                want.message_contains,
                e.findings
                    .iter()
                    .map(|f| (f.shape.id(), f.line, &f.message))
                    .collect::<Vec<_>>()
            ));
        }
    }
    if let Some(n) = expect.syntax_errors {
        if e.syntax_errors.len() != n {
            errors.push(format!(
                "expected {n} syntax errors, got {:?}",
                e.syntax_errors
            ));
        }
    }
    if let Some(n) = expect.total {
        if e.assertions.len() != n {
            errors.push(format!(
                "expected {n} assertions in all, got {}",
                e.assertions.len()
            ));
        }
    }
    errors
}

/// Every fixture is its own test, named after its folder: `cargo test --test fixtures -- NAME --exact`
/// runs one, and a failure names it. (`libtest-mimic` gives the standard test runner's command line
/// and output to a list of tests made at run time.)
fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let dirs = fixture_dirs();
    let count = dirs.len();
    let mut trials = vec![libtest_mimic::Trial::test(
        "the fixture folder is not empty",
        move || {
            if count == 0 {
                Err("no fixtures under tests/fixtures/".into())
            } else {
                Ok(())
            }
        },
    )];
    trials.extend(dirs.into_iter().map(|dir| {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        libtest_mimic::Trial::test(name, move || run_fixture(&dir).map_err(Into::into))
    }));
    libtest_mimic::run(&args, trials).exit();
}

//! Findings about unittest checks no entry stands for: in classes the file cannot tell are test
//! cases, and in methods that are not tests.

use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};
use rustc_hash::FxHashSet as HashSet;

use super::classes::UnittestNames;
use super::{nested_checks, testcase_classes};
use crate::source::SourceMap;
use crate::walk::{for_each_stmt, Scope};

/// Classes that may be unittest test cases the file cannot tell: not named `Test*` (pytest's own
/// class collection), not derived from unittest's `TestCase` through the file, with a base the file
/// does not define (an import, an expression). If that base is a `TestCase`, pytest runs their
/// `test*` methods; their checks are counted as not seen, with a finding.
pub fn unknown_classes(body: &[Stmt], map: &SourceMap) -> Vec<crate::model::Finding> {
    let known: HashSet<TextRange> = testcase_classes(body).iter().map(|c| c.range).collect();
    let file_classes: HashSet<&str> = body
        .iter()
        .filter_map(|s| match s {
            Stmt::ClassDef(c) => Some(c.name.as_str()),
            _ => None,
        })
        .collect();
    let names = UnittestNames::of(body);
    let mut unknown: HashSet<&str> = HashSet::default();
    let mut out = Vec::new();
    for stmt in body {
        let Stmt::ClassDef(c) = stmt else { continue };
        if known.contains(&c.range) {
            continue;
        }
        let Some(base) = c.bases().iter().find(|b| match b {
            Expr::Name(n) => {
                unknown.contains(n.id.as_str())
                    || (n.id.as_str() != "object" && !file_classes.contains(n.id.as_str()))
            }
            other => !names.is_testcase(other),
        }) else {
            continue;
        };
        unknown.insert(c.name.as_str());
        // pytest collects a `Test…` class either way, and its `assert` statements are entries
        // (`collect`); its unittest checks (`self.assertEqual`) are not, whichever the base is.
        let plain_asserts_seen = c.name.starts_with("Test");
        let mut checks = 0u32;
        for s in &c.body {
            if let Stmt::FunctionDef(f) = s {
                if f.name.starts_with("test") {
                    let this = f
                        .parameters
                        .args
                        .first()
                        .map(|p| p.parameter.name.to_string())
                        .unwrap_or_default();
                    for stmt in &f.body {
                        checks += nested_checks(stmt, &this).len() as u32;
                        if !plain_asserts_seen {
                            checks += count_asserts(stmt);
                        }
                    }
                }
            }
        }
        if checks == 0 {
            continue;
        }
        out.push(crate::model::Finding {
            shape: crate::shape::Shape::HelperAssertion,
            rule: Some(crate::rules::Rule::from(crate::rules::Findings::UnknownTestCaseBase).reference()),
            line: map.line(c.range.start()),
            message: if plain_asserts_seen {
                format!(
                    "`{}` derives from `{}`, which the file does not define: pytest runs its `test*` methods, and their {checks} unittest check{} (`self.assert…`) are no entry of this extraction",
                    c.name,
                    map.snippet(base.range()),
                    if checks == 1 { "" } else { "s" }
                )
            } else {
                format!(
                    "`{}` derives from `{}`, which the file does not define: if that is a `unittest.TestCase`, pytest runs the class's `test*` methods and their {checks} check{}, which this extraction does not see",
                    c.name,
                    map.snippet(base.range()),
                    if checks == 1 { "" } else { "s" }
                )
            },
            unseen: checks,
        });
    }
    out
}

/// How many `assert` statements a statement holds (nested ones too, not in nested functions).
fn count_asserts(stmt: &Stmt) -> u32 {
    let mut count = 0;
    for_each_stmt(stmt, Scope::Own, |s| {
        count += u32::from(matches!(s, Stmt::Assert(_)))
    });
    count
}

/// The unittest checks (`self.assertEqual(…)`) in methods of the file's test cases that are not
/// tests: pytest makes them as part of a test that calls the method, or around every test
/// (`setUp`, `tearDown`, …), and none is an entry (a replayed `setUp` is folded into the kept
/// checks' replay, but its own checks are no entry either). `read`: the names and attributes
/// the module reads; a method none reads is never called, and its checks are never made.
pub fn helper_method_findings(
    body: &[Stmt],
    map: &SourceMap,
    read: &HashSet<&str>,
) -> Vec<crate::model::Finding> {
    let mut out = Vec::new();
    for c in testcase_classes(body) {
        for stmt in &c.body {
            let Stmt::FunctionDef(f) = stmt else { continue };
            if f.name.starts_with("test") {
                continue;
            }
            let Some(this) = f
                .parameters
                .args
                .first()
                .map(|p| p.parameter.name.to_string())
            else {
                continue;
            };
            let checks: usize = f.body.iter().map(|s| nested_checks(s, &this).len()).sum();
            if checks == 0 {
                continue;
            }
            // unittest runs these itself around each test (pytest's unittest plugin calls them).
            let around = matches!(
                f.name.as_str(),
                "setUp"
                    | "tearDown"
                    | "setUpClass"
                    | "tearDownClass"
                    | "asyncSetUp"
                    | "asyncTearDown"
            );
            let reached = around || read.contains(f.name.as_str());
            // `setUp` and `tearDown` run around each test of the class; the class-level ones once.
            let per_test = matches!(
                f.name.as_str(),
                "setUp" | "tearDown" | "asyncSetUp" | "asyncTearDown"
            );
            let tests = c
                .body
                .iter()
                .filter(|s| matches!(s, Stmt::FunctionDef(t) if t.name.starts_with("test")))
                .count()
                .max(1);
            let runs = if per_test { tests } else { 1 };
            let rule = if around {
                crate::rules::Findings::AssertInSetupOrTeardown
            } else if reached {
                crate::rules::Findings::UnittestHelperMethodChecks
            } else {
                crate::rules::Findings::UnittestHelperMethodUncalled
            };
            out.push(crate::model::Finding {
                shape: crate::shape::Shape::HelperAssertion,
                rule: Some(crate::rules::Rule::from(rule).reference()),
                line: map.line(f.range.start()),
                message: if around {
                    format!(
                        "`{}.{}` makes {checks} unittest check{} (`{this}.assert…`): unittest runs it itself around {}, and this extraction does not see them",
                        c.name,
                        f.name,
                        if checks == 1 { "" } else { "s" },
                        if per_test {
                            format!(
                                "each of the class's {tests} test{} (counted for each)",
                                if tests == 1 { "" } else { "s" }
                            )
                        } else {
                            "the class's tests, once".to_string()
                        }
                    )
                } else if reached {
                    format!(
                        "`{}.{}` makes {checks} unittest check{} (`{this}.assert…`): pytest makes them as part of a test that calls it, and no call of it is extracted here, so this extraction does not see them",
                        c.name,
                        f.name,
                        if checks == 1 { "" } else { "s" }
                    )
                } else {
                    format!(
                        "`{}.{}` makes unittest checks, and nothing in the file calls it: pytest never makes them",
                        c.name, f.name
                    )
                },
                unseen: if reached {
                    (checks * if around { runs } else { 1 }) as u32
                } else {
                    0
                },
            });
        }
    }
    out
}

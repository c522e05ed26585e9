//! How a configuration's options apply to each collected test: `-m` deselects some, and an
//! unregistered mark under strict markers fails the file's collection. Warning filters (the
//! configuration's `filterwarnings` and `-W`, the test's `filterwarnings` marks) that turn warnings
//! into errors are handed to the evaluator, which applies them as pytest does around each test
//! (the extraction's and each check's `warning_filters`), except where an expression cannot give
//! pytest's verdict under them:
//!
//! - a warning pytest issues while it collects the file (an unregistered mark, a test class with a
//!   constructor, what compiling the file warns: [`crate::pytest::compile_warnings`]) fails the collection
//!   under an `error` filter: every test is dropped;
//! - a filter that decides by module or line before the last `error` one depends on where a
//!   warning is attributed, which differs past the test's own frames
//!   ([`crate::pytest::warnings::attribution_reason`]): the test is dropped;
//! - a test that returns a value fails under pytest when `PytestReturnNotNoneWarning` is an error.

use std::collections::HashMap;

use crate::walk::visitor::{self, Visitor};
use ruff_python_ast::{Expr, Stmt};

use crate::case::{kept, Case};
use crate::module::ModuleScope;
use crate::pytest::compile_warnings::compile_warnings;
use crate::pytest::config::Judgement;
use crate::pytest::import_warnings::import_warnings;
use crate::pytest::markexpr::MarkExpr;
use crate::pytest::marks::{file_marks, param_marks, test_marks, MarkUse, ParamMarks};
use crate::pytest::warnings::{any_error, attribution_reason, decides_error, in_effect, Filter};
use crate::rules::{Collection, Reason};
use crate::source::SourceMap;

/// At most this many distinct `pytest.param` mark names are tried against a `-m` expression.
const MAX_PARAM_MARKS: usize = 10;

/// The warning filters the evaluator applies: the configuration's, and each kept test's marks'
/// (by test id), when some filter turns a warning into an error; empty otherwise.
#[derive(Debug, Default)]
pub struct WarningPlan {
    pub config: Vec<Filter>,
    pub marks: HashMap<String, Vec<Filter>>,
    /// Why pytest runs no test of the file at all, when the configuration makes it so: pytest
    /// refuses to start, or fails the file's collection (a mark strict markers refuse).
    pub collects_nothing: Option<Reason>,
}

/// Applies `judgement` to `cases`: sets `not_run` where pytest does not run a case as a passing
/// check, or the extractor cannot follow what the configuration does; returns the filters the
/// evaluator applies to the others.
pub fn apply(
    judgement: &Judgement,
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
    test_module: &str,
    cases: &mut [Case],
) -> WarningPlan {
    let mut plan = WarningPlan::default();
    let config = format!("pytest's configuration (`{}`)", judgement.config_name);
    let drop_all = |cases: &mut [Case], why: &Reason| {
        for case in cases.iter_mut() {
            case.not_run = Some(kept(why.clone()));
        }
    };
    if let Some(why) = &judgement.blocker_reason {
        drop_all(cases, why);
        if why.rule == crate::rules::Rule::Config(crate::rules::Config::ConfigRefused) {
            plan.collects_nothing = Some(why.clone());
        }
        return plan;
    }
    // A fixture of a plugin `-p no:` disabled: pytest errors on the test that requests it.
    for case in cases.iter_mut() {
        let requested = case
            .func
            .parameters
            .iter()
            .map(|p| p.name().as_str())
            .find_map(|n| judgement.unavailable_fixtures.iter().find(|(f, _)| *f == n));
        if let Some((fixture, plugin)) = requested {
            case.not_run.get_or_insert_with(|| {
                kept(crate::rules::Config::AddoptsChangesEveryTest.because(format!(
                    "{config} passes `-p no:{plugin}`, which disables the plugin that provides the `{fixture}` fixture this test requests: pytest errors on the test"
                )))
            });
        }
    }
    let marks = file_marks(body, scope, map);
    if let Some(why) = &marks.refused {
        drop_all(cases, why);
        return plan;
    }
    let config_filters = &judgement.warning_filters;
    let config_errors = any_error(config_filters);
    if config_errors {
        if let Some(why) = collection_blocker(
            judgement,
            body,
            scope,
            map,
            test_module,
            scope.solution_module_path(),
            &marks.used,
        ) {
            drop_all(
                cases,
                &why.map(|why| format!("{config} turns warnings into errors, and {why}")),
            );
            return plan;
        }
    }
    if let Some(why) = &marks.unreadable {
        if judgement.strict_markers || judgement.mark_expr.is_some() {
            let why = why
                .clone()
                .map(|why| format!("{config} selects or checks marks, and {why}"));
            for case in cases.iter_mut() {
                case.not_run.get_or_insert_with(|| kept(why.clone()));
            }
            return plan;
        }
    }
    let used = &marks.used;
    if judgement.strict_markers {
        let registered = &judgement.registered_markers;
        if let Some((name, line)) = used.iter().find(|(n, _)| !registered.contains(n)) {
            let why = Collection::MarkNotRegistered.because(format!(
                "{config} makes marks strict, and the mark `{name}` (line {line}) is not registered: pytest fails to collect the file"
            ));
            drop_all(cases, &why);
            plan.collects_nothing = Some(why);
            return plan;
        }
    }
    // Marks the extractor cannot read may hold a `filterwarnings` mark.
    let file_filters =
        marks.unreadable.is_some() || used.iter().any(|(n, _)| n == "filterwarnings");
    if judgement.mark_expr.is_none() && !file_filters && !config_errors {
        return plan;
    }
    let solution = scope.solution_module_path();
    // A test whose `filterwarnings` mark pytest cannot parse stops the session when pytest reaches
    // it (a usage error): no later test runs either.
    let mut stopped: Option<(String, Reason)> = None;
    for case in cases.iter_mut() {
        if let Some((id, why)) = &stopped {
            case.not_run = Some(kept(Collection::FilterwarningsMarkInvalid.because(format!(
                "an earlier test (`{id}`) has a `filterwarnings` mark pytest cannot apply ({}), and pytest stops the whole run there: this test never runs",
                why.text
            ))));
            continue;
        }
        if case.not_run.is_some() {
            continue;
        }
        let param_marks = param_marks(body, &case.id, case.func, scope, map);
        let marks_filters = match check_case(judgement, body, scope, map, case, &param_marks) {
            Ok(filters) => filters,
            Err(why) => {
                if why.rule == crate::rules::Rule::Collection(Collection::FilterwarningsMarkInvalid)
                {
                    stopped = Some((case.id.clone(), why.clone()));
                }
                case.not_run = Some(kept(why));
                continue;
            }
        };
        if !config_errors && !any_error(&marks_filters) {
            continue;
        }
        let in_force = in_effect(config_filters, &marks_filters);
        let why = attribution_reason(&in_force, test_module, solution)
            .or_else(|| replays_under_marks(scope, &marks_filters, map))
            .or_else(|| returns_value(case, &in_force, map))
            .or_else(|| records_warnings(case));
        match why {
            Some(why) => case.not_run = Some(kept(why)),
            None => {
                plan.marks.insert(case.id.clone(), marks_filters);
            }
        }
    }
    if !plan.marks.is_empty() {
        plan.config = config_filters.clone();
    }
    plan
}

/// Why pytest fails to collect the file under the configuration's filters (which turn some
/// warning into an error), if it may: a warning it issues while it imports and collects the file.
fn collection_blocker(
    judgement: &Judgement,
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
    test_module: &str,
    solution: &str,
    used_marks: &[(String, u32)],
) -> Option<Reason> {
    let filters = in_effect(&judgement.warning_filters, &[]);
    let errs = |category: &str, message: &str, module: Option<&str>| {
        decides_error(&filters, category, message, module) != Some(false)
    };
    let registered = &judgement.registered_markers;
    for (name, line) in used_marks.iter().filter(|(n, _)| !registered.contains(n)) {
        let message = format!("Unknown pytest.mark.{name} - is this a typo?  You can register custom marks to avoid this warning - for details, see https://docs.pytest.org/en/stable/how-to/mark.html");
        if errs("PytestUnknownMarkWarning", &message, Some(test_module)) {
            return Some(Collection::CollectionWarningIsError.because(format!(
                "the mark `{name}` (line {line}) is not registered: pytest warns `PytestUnknownMarkWarning` while it imports the file, so it fails to collect it"
            )));
        }
    }
    if let Some((name, line)) = solution_test_names(body, map, solution) {
        let message = "cannot collect test class because it has a __init__ constructor";
        if errs("PytestCollectionWarning", message, None) {
            return Some(Collection::CollectionWarningIsError.because(format!(
                "`{name}` on line {line} may bind a `Test…` class of the solution in the test module: pytest collects it, and one with a constructor makes it warn `PytestCollectionWarning`, so it fails to collect the file"
            )));
        }
    }
    for class in crate::collect::constructor_test_classes(body) {
        let message = format!(
            "cannot collect test class '{}' because it has a __init__ constructor",
            class.name
        );
        if errs("PytestCollectionWarning", &message, None) {
            return Some(Collection::CollectionWarningIsError.because(format!(
                "the class `{}` (line {}) has a constructor: pytest warns `PytestCollectionWarning` while it collects the file, so it fails to collect it",
                class.name,
                map.line(class.range.start())
            )));
        }
    }
    for warning in import_warnings(body, scope, map, solution) {
        let category = match warning.categories {
            None => Some("a warning of any category"),
            Some(categories) => categories
                .iter()
                .find(|c| errs(c, &warning.message, None))
                .copied(),
        };
        if category.is_some() {
            // The warning's own reason keeps its rule (`import_warnings` names it; a bare text
            // is unsorted until it does).
            return Some(
                warning
                    .why
                    .clone()
                    .map(|why| format!("{why}: pytest fails to collect it")),
            );
        }
    }
    for warning in compile_warnings(body, map) {
        if let Some(category) = warning
            .categories
            .iter()
            .find(|c| errs(c, &warning.message, None))
        {
            return Some(Collection::CollectionWarningIsError.because(format!(
                "compiling the file on line {} warns `{category}` ({}): pytest fails to collect it",
                warning.line, warning.message
            )));
        }
    }
    None
}

/// A module-level import from which the solution may put a name pytest collects as a test class
/// into the test module: `from M import *`, or a `Test…` name.
fn solution_test_names(body: &[Stmt], map: &SourceMap, solution: &str) -> Option<(String, u32)> {
    let top = solution.split('.').next().unwrap_or(solution);
    body.iter().find_map(|s| match s {
        Stmt::ImportFrom(i)
            if i.level > 0
                || i.module
                    .as_ref()
                    .is_some_and(|m| m.as_str().split('.').next() == Some(top)) =>
        {
            i.names
                .iter()
                .find(|a| {
                    let bound = a.asname.as_ref().unwrap_or(&a.name).as_str();
                    a.name.as_str() == "*" || bound.starts_with("Test")
                })
                .map(|a| {
                    let module = i.module.as_ref().map(|m| m.as_str()).unwrap_or("");
                    (
                        format!("from {module} import {}", a.name),
                        map.line(i.range.start()),
                    )
                })
        }
        _ => None,
    })
}

/// Why a test with `filterwarnings` marks cannot be kept when its expressions replay import-time
/// code (the file's prelude, a conftest's): pytest ran that code while it imported the file, under
/// the configuration's filters only, and the expression runs it under the marks' too.
fn replays_under_marks(scope: &ModuleScope, marks: &[Filter], map: &SourceMap) -> Option<Reason> {
    if marks.is_empty() {
        return None;
    }
    let replayed = scope
        .prelude
        .iter()
        .find(|p| !matches!(p, crate::module::PreludeStmt::Stmt { inert: true, .. }));
    let what = match replayed {
        Some(p) => format!("module-level code on line {}", map.line(p.range().start())),
        None => scope
            .conftest_replays
            .first()
            .map(|r| format!("{} (line {})", r.label, r.line))?,
    };
    Some(Collection::FilterwarningsMarkMissesImportCode.because(format!(
        "its expressions replay {what}, which pytest ran while it imported the file, before the test's `filterwarnings` marks applied"
    )))
}

/// Why a test that requests pytest's `recwarn` fixture cannot be kept: the fixture records every
/// warning of the test (`simplefilter("always")` in front of the filters), so none of them fails it.
fn records_warnings(case: &Case) -> Option<Reason> {
    let p = &case.func.parameters;
    p.posonlyargs
        .iter()
        .chain(&p.args)
        .chain(&p.kwonlyargs)
        .any(|a| a.parameter.name.as_str() == "recwarn")
        .then(|| {
            Collection::RecwarnRecordsWarnings.because("the test requests pytest's `recwarn` fixture, which records its warnings instead of applying the warning filters to them")
        })
}

/// Why a test that returns a value cannot be kept under these filters: pytest warns
/// `PytestReturnNotNoneWarning` when it returns something other than `None`, which fails it
/// where that warning is an error.
fn returns_value(case: &Case, filters: &[Filter], map: &SourceMap) -> Option<Reason> {
    // Its own visitor, not `crate::walk`: one walk with two boundaries (returns outside nested
    // functions and classes; yields there and in lambdas too).
    struct Returns(Option<u32>, bool);
    impl<'a> Visitor<'a> for Returns {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
                Stmt::Return(r) => {
                    let none = r
                        .value
                        .as_deref()
                        .is_none_or(|v| matches!(v, Expr::NoneLiteral(_)));
                    if !none && self.0.is_none() {
                        self.0 = Some(u32::from(r.range.start()));
                    }
                }
                other => visitor::walk_stmt(self, other),
            }
        }
        fn visit_expr(&mut self, e: &'a Expr) {
            self.1 |= matches!(e, Expr::Yield(_) | Expr::YieldFrom(_));
            visitor::walk_expr(self, e);
        }
    }
    let mut finder = Returns(None, false);
    finder.visit_body(&case.func.body);
    let at = finder.0?;
    if finder.1 {
        return None; // a generator: pytest refuses it anyway
    }
    // A unittest method's return value is unittest's to warn about (`TestCase._callTestMethod`,
    // Python 3.11+): a `DeprecationWarning`; pytest's own warning is for test functions.
    let (category, message) = if case.unittest {
        (
            "DeprecationWarning",
            format!(
                "It is deprecated to return a value that is not None from a test case ({})",
                case.func.name
            ),
        )
    } else {
        (
            "PytestReturnNotNoneWarning",
            format!(
                "Test functions should return None, but {} returned",
                case.id
            ),
        )
    };
    (decides_error(filters, category, &message, None) != Some(false)).then(|| {
        let who = if case.unittest {
            "unittest warns `DeprecationWarning` (\"It is deprecated to return a value that is not None from a test case\")"
        } else {
            "pytest warns `PytestReturnNotNoneWarning`"
        };
        Collection::TestReturnsValue.because(format!(
            "the test returns a value on line {}: {who} when it is not None, and its warning filters make that an error",
            map.line(at.into())
        ))
    })
}

/// The filters of one case's `filterwarnings` marks, in the order pytest applies them, or why
/// pytest does not run it as a passing check under the configuration (or the extractor cannot
/// tell).
fn check_case(
    judgement: &Judgement,
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
    case: &Case,
    param_marks: &ParamMarks,
) -> Result<Vec<Filter>, Reason> {
    let marks = test_marks(body, &case.id, case.func, scope, map).map_err(|why| {
        Collection::MarksNotReadable
            .because(format!("the extractor cannot tell the test's marks: {why}"))
    })?;
    if let Some((written, expr)) = &judgement.mark_expr {
        selection(written, expr, case, &marks, param_marks)?;
    }
    let mut filters = Vec::new();
    for mark in &marks {
        for arg in &mark.filters {
            let filter = Filter::parse(arg, false).map_err(|why| {
                Collection::FilterwarningsMarkInvalid.because(format!(
                    "its `filterwarnings` mark cannot be applied: {why}"
                ))
            })?;
            filters.push(filter);
        }
    }
    let case_errors = param_marks.filters.iter().any(|f| {
        f.as_deref()
            .is_none_or(|f| Filter::parse(f, false).is_ok_and(|f| f.is_error()))
    });
    if case.parametrized && case_errors {
        return Err(Collection::ParamFilterwarningsMark.because(
            "a `pytest.param` of the file carries a `filterwarnings` mark that may turn warnings into errors",
        ));
    }
    Ok(filters)
}

/// Whether `-m` selects the case, from its marks and those its `pytest.param` cases may add.
fn selection(
    written: &str,
    expr: &MarkExpr,
    case: &Case,
    marks: &[MarkUse],
    param_marks: &ParamMarks,
) -> Result<(), Reason> {
    let names: Vec<String> = marks.iter().map(|m| m.name.clone()).collect();
    let selected = expr.matches(&names);
    let param_names = &param_marks.names;
    if case.parametrized && (param_marks.unknown || !param_names.is_empty()) {
        let varies = param_marks.unknown
            || param_names.len() > MAX_PARAM_MARKS
            || (1..1u32 << param_names.len()).any(|subset| {
                let mut with = names.clone();
                with.extend(
                    param_names
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| subset & (1 << i) != 0)
                        .map(|(_, n)| n.clone()),
                );
                expr.matches(&with) != selected
            });
        if varies {
            return Err(Collection::ParamMarksMayDeselect.because(format!(
                "pytest's configuration selects tests by marks (`-m {written}`), and the marks of its `pytest.param` cases may deselect it"
            )));
        }
    }
    if selected {
        Ok(())
    } else {
        Err(Collection::DeselectedByMarkExpression.because(format!(
            "deselected: pytest's configuration passes `-m {written}`, so pytest does not run it"
        )))
    }
}

#[cfg(test)]
mod tests {
    use crate::pytest::config::Config;
    use crate::{extract, Options, Status};

    fn run(ini: &[(&str, &[&str])], source: &str) -> Vec<(String, Status, String)> {
        let mut options = Options::new("test_x.py");
        options.pytest_config = (!ini.is_empty()).then(|| Config {
            name: "pytest.ini".into(),
            options: ini
                .iter()
                .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
                .collect(),
            refused: None,
        });
        extract(source, &options)
            .assertions
            .into_iter()
            .map(|a| {
                let text = a.expr.or(a.reason).unwrap_or_default();
                (a.test, a.status, text)
            })
            .collect()
    }

    /// One entry: its test, status, expression or reason, and its own filters.
    type Entry = (String, Status, String, Vec<String>);

    /// The extraction's filters, and each entry.
    fn run_filters(ini: &[(&str, &[&str])], source: &str) -> (Vec<String>, Vec<Entry>) {
        let mut options = Options::new("test_x.py");
        options.pytest_config = Some(Config {
            name: "pytest.ini".into(),
            options: ini
                .iter()
                .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
                .collect(),
            refused: None,
        });
        let e = extract(source, &options);
        let spell = |f: &crate::model::WarningFilter| {
            format!(
                "{}:{}:{}:{}:{}",
                f.action, f.message, f.category, f.module, f.lineno
            )
        };
        let file = e.warning_filters.iter().map(spell).collect();
        let entries = e
            .assertions
            .into_iter()
            .map(|a| {
                let filters = a.warning_filters.iter().map(spell).collect();
                (
                    a.test,
                    a.status,
                    a.expr.or(a.reason).unwrap_or_default(),
                    filters,
                )
            })
            .collect();
        (file, entries)
    }

    #[test]
    fn warnings_as_errors_go_to_the_evaluator() {
        let source = "import pytest\nfrom solution import f\n\ndef test_a():\n    assert f()\n\n@pytest.mark.filterwarnings('error::UserWarning')\ndef test_b():\n    assert f()\n\n@pytest.mark.filterwarnings('ignore')\ndef test_c():\n    assert f()\n";
        let (file, out) = run_filters(
            &[("filterwarnings", &["ignore::DeprecationWarning", "error"])],
            source,
        );
        assert_eq!(file, ["ignore::DeprecationWarning::0", "error::::0"]);
        assert!(out.iter().all(|(_, s, _, _)| *s == Status::Kept), "{out:?}");
        assert_eq!(out[0].3, Vec::<String>::new());
        assert_eq!(out[1].3, ["error::UserWarning::0"]);
        assert_eq!(out[2].3, ["ignore::::0"]);
        // `-W` escapes its message and module, as pytest's command line does.
        let (file, _) = run_filters(&[("addopts", &["-W error:a.b::pkg.mod"])], source);
        assert_eq!(file, ["error:a\\.b::pkg\\.mod\\Z:0"]);
        // Filters that never raise change no verdict: only a test whose mark raises carries any.
        let (file, out) = run_filters(
            &[("filterwarnings", &["ignore::DeprecationWarning"])],
            source,
        );
        assert_eq!(file, ["ignore::DeprecationWarning::0"]);
        let carried: Vec<usize> = out.iter().map(|e| e.3.len()).collect();
        assert_eq!(carried, [0, 1, 0], "{out:?}");
        let (file, out) = run_filters(
            &[],
            "from solution import f\n\ndef test_a():\n    assert f()\n",
        );
        assert!(file.is_empty() && out[0].3.is_empty());
    }

    #[test]
    fn what_pytest_warns_while_collecting_drops_the_file_under_an_error_filter() {
        let cases = [
            ("import pytest\nfrom solution import f\n\n@pytest.mark.slow\ndef test_a():\n    assert f()\n", "the mark `slow` (line 4) is not registered"),
            ("from solution import f\n\nclass TestHelper:\n    def __init__(self):\n        pass\n\ndef test_a():\n    assert f()\n", "the class `TestHelper` (line 3) has a constructor"),
            ("import re\nfrom solution import f\n\ndef test_a():\n    assert re.match('\\d', f())\n", "compiling the file on line 5 warns `DeprecationWarning`"),
            ("from solution import f\n\ndef test_a():\n    v = f() is 1\n    assert v\n", "warns `SyntaxWarning`"),
            ("from solution import f\n\ndef test_a():\n    assert (f(), 'why')\n", "warns `PytestAssertRewriteWarning`"),
        ];
        for (source, why) in cases {
            let (_, out) = run_filters(&[("filterwarnings", &["error"])], source);
            assert!(
                out.iter()
                    .all(|(_, s, r, _)| *s == Status::Dropped && r.contains(why)),
                "{why}: {out:?}"
            );
            // A filter that lets the warning through keeps the tests; no error filter at all too.
            let (_, out) =
                run_filters(&[("filterwarnings", &["error", "ignore::Warning"])], source);
            assert!(
                out.iter().all(|(_, s, _, _)| *s == Status::Kept),
                "{why}: {out:?}"
            );
        }
        // A registered mark is no warning.
        let source = "import pytest\nfrom solution import f\n\n@pytest.mark.slow\ndef test_a():\n    assert f()\n";
        let (_, out) = run_filters(
            &[
                ("filterwarnings", &["error"]),
                ("markers", &["slow: slow tests"]),
            ],
            source,
        );
        assert_eq!(out[0].1, Status::Kept, "{out:?}");
    }

    #[test]
    fn attribution_and_returned_values_drop_the_tests_they_decide() {
        let source = "from solution import f\n\ndef test_a():\n    assert f()\n\ndef test_b():\n    assert f()\n    return f()\n\ndef test_c():\n    assert f()\n    return None\n";
        let (_, out) = run_filters(&[("filterwarnings", &["error"])], source);
        let kept: Vec<bool> = out.iter().map(|e| e.1 == Status::Kept).collect();
        assert_eq!(kept, [true, false, true], "{out:?}");
        assert!(out[1].2.contains("returns a value on line 8"), "{out:?}");
        let (_, out) = run_filters(
            &[("filterwarnings", &["error", "ignore:::_pytest.python"])],
            source,
        );
        assert!(
            out.iter()
                .all(|e| e.1 == Status::Dropped && e.2.contains("picks warnings by module")),
            "{out:?}"
        );
        let (file, out) = run_filters(
            &[(
                "filterwarnings",
                &["error", "ignore::DeprecationWarning:distutils"],
            )],
            source,
        );
        assert_eq!(out[0].1, Status::Kept, "{out:?}");
        assert_eq!(file.len(), 2);
    }

    #[test]
    fn strict_markers_with_an_unregistered_mark_drop_the_file() {
        // A misspelt mark: pytest fails to collect the file (its reference cannot pass, so this is
        // a unit test rather than a fixture).
        let source = "import pytest\nfrom solution import f\n\ndef test_a():\n    assert f()\n\n@pytest.mark.sloww\ndef test_b():\n    assert f()\n";
        let out = run(
            &[("strict_markers", &["true"]), ("markers", &["slow: slow"])],
            source,
        );
        assert!(
            out.iter().all(|(_, s, why)| *s == Status::Dropped
                && why.contains("`sloww` (line 7) is not registered")),
            "{out:?}"
        );
        let out = run(
            &[("strict_markers", &["on"]), ("markers", &["sloww: slow"])],
            source,
        );
        assert!(out.iter().all(|(_, s, _)| *s != Status::Dropped), "{out:?}");
        // `strict` also makes parametrize ids strict: the file is dropped whole.
        let out = run(
            &[("strict", &["true"]), ("markers", &["sloww: slow"])],
            source,
        );
        assert!(
            out.iter()
                .all(|(_, s, why)| *s == Status::Dropped && why.contains("`strict = true`")),
            "{out:?}"
        );
    }

    #[test]
    fn files_pytest_refuses_for_a_mark_are_dropped_whole() {
        let marked_fixture = "import pytest\nfrom solution import f\n\n@pytest.fixture\n@pytest.mark.slow\ndef x():\n    return 1\n\ndef test_a():\n    assert f()\n";
        let out = run(&[], marked_fixture);
        assert!(out[0].2.contains("which pytest 9 refuses"), "{out:?}");
        let misspelt = "import pytest\nfrom solution import f\n\n@pytest.mark.parameterize('a', [1])\ndef test_a(a):\n    assert f()\n\ndef test_b():\n    assert f()\n";
        let out = run(&[], misspelt);
        assert!(
            out.iter().all(|(_, s, why)| *s == Status::Dropped
                && why.contains("`parameterize` (line 4) is a misspelling")),
            "{out:?}"
        );
    }

    #[test]
    fn a_filter_mark_held_in_a_variable_drops_its_cases() {
        let source = "import pytest\nfrom solution import f\nSTRICT = pytest.mark.filterwarnings('error')\n\n@pytest.mark.parametrize('a', [1, pytest.param(2, marks=STRICT)])\ndef test_a(a):\n    assert f(a)\n\ndef test_b():\n    assert f(0)\n";
        let out = run(&[], source);
        let dropped: Vec<bool> = out.iter().map(|(_, s, _)| *s == Status::Dropped).collect();
        assert_eq!(dropped, [true, true, false], "{out:?}");
    }

    #[test]
    fn marks_are_read_through_classes_and_the_module() {
        let source = "import pytest\nfrom solution import f\npytestmark = pytest.mark.db\n\nclass TestA:\n    pytestmark = [pytest.mark.net]\n    def test_a(self):\n        assert f()\n\n@pytest.mark.net\nclass TestB(TestA):\n    def test_b(self):\n        assert f()\n\ndef test_c():\n    assert f()\n";
        let out = run(&[("addopts", &["-m 'db and not net'"])], source);
        let dropped: Vec<bool> = out.iter().map(|(_, s, _)| *s == Status::Dropped).collect();
        assert_eq!(dropped, [true, true, true, false], "{out:?}");
        // `TestB::test_a` is TestB's (marked `net`) though TestA defines it.
        let out = run(
            &[("addopts", &["-m 'not net'"])],
            source
                .replace("pytestmark = [pytest.mark.net]", "pass")
                .as_str(),
        );
        let dropped: Vec<bool> = out.iter().map(|(_, s, _)| *s == Status::Dropped).collect();
        assert_eq!(dropped, [false, true, true, false], "{out:?}");
        let out = run(&[("addopts", &["-m 'not db'"])], source);
        assert!(
            out.iter()
                .all(|(_, s, why)| *s == Status::Dropped && why.starts_with("deselected")),
            "{out:?}"
        );
    }
}

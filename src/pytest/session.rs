//! How a configuration's options apply to each collected test: `-m` deselects some, an unregistered
//! mark under `--strict-markers` fails the file's collection, and warning filters (the
//! configuration's and the test's `filterwarnings` marks) wrap each kept expression.

use ruff_python_ast::{self as ast, Expr, Stmt};

use super::config::Judgement;
use super::markexpr::MarkExpr;
use super::marks::{file_mark_names, param_marks, test_marks, MarkUse, ParamMarks};
use super::warnings::Filter;
use crate::collect::Case;
use crate::module::ModuleScope;
use crate::source::SourceMap;

/// At most this many distinct `pytest.param` mark names are tried against a `-m` expression.
const MAX_PARAM_MARKS: usize = 10;

/// Applies `judgement` (of the configuration file named `config`) to `cases`: sets `not_run` where
/// pytest does not run a case or the extractor cannot follow, and returns, per case, the warning
/// filters its expressions run under (empty when none can fail it).
pub fn apply(
    judgement: &Judgement,
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
    cases: &mut [Case],
) -> Vec<Vec<Filter>> {
    let mut filters = vec![Vec::new(); cases.len()];
    let config = "pytest's configuration";
    if let Some(why) = &judgement.blocker {
        for case in cases.iter_mut() {
            case.not_run = Some(why.clone());
        }
        return filters;
    }
    let used = file_mark_names(body, scope, map);
    if judgement.strict_markers {
        let registered = &judgement.registered_markers;
        if let Some((name, line)) = used.iter().find(|(n, _)| !registered.contains(n)) {
            let why = format!(
                "{config} makes marks strict (`--strict-markers`), and the mark `{name}` (line {line}) is not registered: pytest fails to collect the file"
            );
            for case in cases.iter_mut() {
                case.not_run = Some(why.clone());
            }
            return filters;
        }
    }
    if judgement.warning_filters.iter().any(Filter::is_error) {
        if let Some(why) = collection_warning(judgement, body, &used, scope, map) {
            let why = format!(
                "{config} turns warnings into errors, and {why}: pytest may fail to collect the file"
            );
            for case in cases.iter_mut() {
                case.not_run = Some(why.clone());
            }
            return filters;
        }
    }
    let file_filters = used.iter().any(|(n, _)| n == "filterwarnings");
    if judgement.mark_expr.is_none() && !file_filters && judgement.warning_filters.is_empty() {
        return filters;
    }
    for (case, filters) in cases.iter_mut().zip(filters.iter_mut()) {
        if case.not_run.is_some() {
            continue;
        }
        let param_marks = param_marks(body, &case.id, case.func, scope, map);
        match case_filters(
            judgement,
            body,
            scope,
            map,
            case,
            &param_marks,
            file_filters,
        ) {
            Ok(f) => *filters = f,
            Err(why) => case.not_run = Some(why),
        }
    }
    filters
}

/// A warning pytest may raise while it collects the file (when warnings are errors, the whole file
/// fails): an unregistered mark (`PytestUnknownMarkWarning`), a `Test*` class with a constructor
/// or whose constructor the file cannot rule out, or a `test*` name bound to something callable
/// that is not a function (`PytestCollectionWarning`).
fn collection_warning(
    judgement: &Judgement,
    body: &[Stmt],
    used: &[(String, u32)],
    scope: &ModuleScope,
    map: &SourceMap,
) -> Option<String> {
    let registered = judgement.registered_markers.as_slice();
    if let Some((name, line)) = used.iter().find(|(n, _)| !registered.contains(n)) {
        return Some(format!(
            "the mark `{name}` (line {line}) is not registered (pytest warns of unknown marks)"
        ));
    }
    uncollectable(body, body, scope, map, 0)
}

/// Why a body's `Test*` classes or `test*` names may make pytest warn while collecting.
fn uncollectable(
    module: &[Stmt],
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
    depth: u32,
) -> Option<String> {
    for stmt in body {
        match stmt {
            Stmt::ClassDef(c) if c.name.starts_with("Test") && depth < 16 => {
                if sets_test_flag(c) {
                    continue;
                }
                if may_have_constructor(module, c, scope) {
                    let line = map.line(c.range.start());
                    return Some(format!(
                        "the test class `{}` (line {line}) may have a constructor, which pytest warns of",
                        c.name
                    ));
                }
                if let Some(why) = uncollectable(module, &c.body, scope, map, depth + 1) {
                    return Some(why);
                }
            }
            Stmt::Assign(a) if binds_test_name_to_code(a) => {
                return Some(format!(
                    "`{}` (line {}) binds a test name to what may be a callable that is not a function, which pytest warns of",
                    map.snippet(a.range),
                    map.line(a.range.start())
                ));
            }
            _ => {}
        }
    }
    None
}

/// The class assigns `__test__` (pytest then decides from its value, without warning).
fn sets_test_flag(c: &ast::StmtClassDef) -> bool {
    c.body.iter().any(|s| {
        matches!(s, Stmt::Assign(a) if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__"))
    })
}

fn has_constructor(body: &[Stmt]) -> bool {
    body.iter().any(
        |s| matches!(s, Stmt::FunctionDef(m) if matches!(m.name.as_str(), "__init__" | "__new__")),
    )
}

/// A class of the module named `name`.
fn module_class<'a>(module: &'a [Stmt], name: &str) -> Option<&'a ast::StmtClassDef> {
    module.iter().find_map(|s| match s {
        Stmt::ClassDef(k) if k.name.as_str() == name => Some(k),
        _ => None,
    })
}

/// The class defines or inherits a constructor, or a decorator or a base the file does not show
/// may give it one.
fn may_have_constructor(module: &[Stmt], c: &ast::StmtClassDef, scope: &ModuleScope) -> bool {
    let remade = c
        .decorator_list
        .iter()
        .any(|d| scope.pytest_path(&d.expression).is_none());
    let base_may = c.arguments.as_ref().is_some_and(|a| {
        !a.keywords.is_empty()
            || a.args.iter().any(|b| match b {
                Expr::Name(n) if n.id.as_str() == "object" => false,
                Expr::Name(n) => {
                    module_class(module, n.id.as_str()).is_none_or(|k| has_constructor(&k.body))
                }
                _ => true,
            })
    });
    remade || base_may || has_constructor(&c.body)
}

/// `test_x = <code>`: a name pytest would collect bound to what may be a callable that is not a
/// function (a literal or a display cannot be called).
fn binds_test_name_to_code(a: &ast::StmtAssign) -> bool {
    let named_test = a
        .targets
        .iter()
        .any(|t| matches!(t, Expr::Name(n) if n.id.starts_with("test")));
    let plain = matches!(
        a.value.as_ref(),
        Expr::List(_)
            | Expr::Tuple(_)
            | Expr::Dict(_)
            | Expr::Set(_)
            | Expr::StringLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::NumberLiteral(_)
            | Expr::BooleanLiteral(_)
            | Expr::NoneLiteral(_)
            | Expr::ListComp(_)
            | Expr::DictComp(_)
            | Expr::SetComp(_)
    );
    named_test && !plain
}

/// The filters one case runs under, or why pytest does not run it (or the extractor cannot tell).
fn case_filters(
    judgement: &Judgement,
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
    case: &Case,
    param_marks: &ParamMarks,
    file_filters: bool,
) -> Result<Vec<Filter>, String> {
    let mut filters = judgement.warning_filters.clone();
    if judgement.mark_expr.is_none() && !file_filters {
        if !filters.iter().any(Filter::is_error) {
            return Ok(Vec::new());
        }
        if let Some(line) = returns_value(case.func).map(|at| map.line(at)) {
            return Err(format!(
                "the test returns a value (line {line}), and with warnings as errors pytest's `PytestReturnNotNoneWarning` fails it"
            ));
        }
        return Ok(filters);
    }
    let marks = test_marks(body, &case.id, case.func, scope, map)
        .map_err(|why| format!("the extractor cannot tell the test's marks: {why}"))?;
    if let Some((written, expr)) = &judgement.mark_expr {
        selection(written, expr, case, &marks, param_marks)?;
    }
    if let Some(line) = returns_value(case.func).map(|at| map.line(at)) {
        if filters.iter().any(Filter::is_error) || marks.iter().any(|m| !m.filters.is_empty()) {
            return Err(format!(
                "the test returns a value (line {line}), and under its warning filters pytest's `PytestReturnNotNoneWarning` may fail it"
            ));
        }
    }
    for mark in &marks {
        for arg in &mark.filters {
            filters
                .push(Filter::parse(arg, false).map_err(|why| {
                    format!("its `filterwarnings` mark cannot be applied: {why}")
                })?);
        }
    }
    param_filters(case, param_marks, &filters)?;
    Ok(if filters.iter().any(Filter::is_error) {
        filters
    } else {
        Vec::new()
    })
}

/// Whether `-m` selects the case, from its marks and those its `pytest.param` cases may add.
fn selection(
    written: &str,
    expr: &MarkExpr,
    case: &Case,
    marks: &[MarkUse],
    param_marks: &ParamMarks,
) -> Result<(), String> {
    let names: Vec<String> = marks.iter().map(|m| m.name.clone()).collect();
    let selected = expr.matches(&names);
    let param_names = &param_marks.names;
    if case.parametrized && !param_names.is_empty() {
        let varies = param_names.len() > MAX_PARAM_MARKS
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
            return Err(format!(
                "pytest's configuration selects tests by marks (`-m {written}`), and the marks of its `pytest.param` cases may deselect it"
            ));
        }
    }
    if selected {
        Ok(())
    } else {
        Err(format!(
            "deselected: pytest's configuration passes `-m {written}`, so pytest does not run it"
        ))
    }
}

/// A case's own `filterwarnings` marks matter when a filter of the test or of some case errors:
/// they are not applied per case, so the case is dropped then.
fn param_filters(case: &Case, param_marks: &ParamMarks, filters: &[Filter]) -> Result<(), String> {
    let case_errors = param_marks.filters.iter().any(|f| {
        f.as_deref()
            .is_none_or(|f| Filter::parse(f, false).is_ok_and(|f| f.is_error()))
    });
    if case.parametrized
        && !param_marks.filters.is_empty()
        && (case_errors || filters.iter().any(Filter::is_error))
    {
        return Err(
            "a `pytest.param` of the file carries a `filterwarnings` mark, which the extractor does not apply per case"
                .into(),
        );
    }
    Ok(())
}

/// The line of a `return` with a value in the test's own body (nested functions and classes aside):
/// pytest warns when a test returns anything but `None`.
fn returns_value(func: &ruff_python_ast::StmtFunctionDef) -> Option<ruff_text_size::TextSize> {
    use ruff_python_ast::visitor::{walk_stmt, Visitor};
    struct Finder(Option<ruff_text_size::TextSize>);
    impl<'a> Visitor<'a> for Finder {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
                Stmt::Return(r) => {
                    let none = r.value.as_deref().is_none_or(|v| v.is_none_literal_expr());
                    if !none && self.0.is_none() {
                        self.0 = Some(r.range.start());
                    }
                }
                other => walk_stmt(self, other),
            }
        }
        fn visit_expr(&mut self, _: &'a ruff_python_ast::Expr) {}
    }
    let mut finder = Finder(None);
    finder.visit_body(&func.body);
    finder.0
}

#[cfg(test)]
mod tests {
    use crate::pytest::config::Config;
    use crate::{extract, Options, Status};

    fn run(ini: &[(&str, &[&str])], source: &str) -> Vec<(String, Status, String)> {
        let mut options = Options::new("test_x.py");
        options.pytest_config = Some(Config {
            name: "pytest.ini".into(),
            options: ini
                .iter()
                .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
                .collect(),
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

    #[test]
    fn an_unknown_mark_under_warnings_as_errors_drops_the_file() {
        let source = "import pytest\nfrom solution import f\n\ndef test_a():\n    assert f()\n\n@pytest.mark.slo\ndef test_b():\n    assert f()\n";
        let out = run(&[("filterwarnings", &["error"])], source);
        assert!(
            out.iter().all(|(_, s, why)| *s == Status::Dropped
                && why.contains("`slo` (line 7) is not registered")),
            "{out:?}"
        );
        // Registered, it changes nothing: both are kept under the filters.
        let out = run(
            &[("filterwarnings", &["error"]), ("markers", &["slo: slow"])],
            source,
        );
        assert!(
            out.iter()
                .all(|(_, s, e)| *s != Status::Dropped && e.contains("catch_warnings")),
            "{out:?}"
        );
        // Without warnings as errors an unknown mark is only a warning.
        let out = run(
            &[("filterwarnings", &["ignore::DeprecationWarning"])],
            source,
        );
        assert!(
            out.iter()
                .all(|(_, s, e)| *s != Status::Dropped && e == "f()"),
            "{out:?}"
        );
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
            &[("strict", &["true"]), ("markers", &["sloww: slow"])],
            source,
        );
        assert!(out.iter().all(|(_, s, _)| *s != Status::Dropped), "{out:?}");
    }

    #[test]
    fn a_test_that_returns_a_value_under_warnings_as_errors_is_dropped() {
        let source = "from solution import f\n\ndef test_a():\n    assert f()\n    return 1\n\ndef test_b():\n    assert f()\n    def inner():\n        return 2\n    return None\n";
        let out = run(
            &[("addopts", &["-W error::pytest.PytestReturnNotNoneWarning"])],
            source,
        );
        assert_eq!(out[0].1, Status::Dropped, "{out:?}");
        assert!(out[0].2.contains("returns a value (line 5)"), "{out:?}");
        assert_ne!(out[1].1, Status::Dropped, "{out:?}");
        assert!(out[1].2.contains("'error', '', __import__('pytest', fromlist=('PytestReturnNotNoneWarning',)).PytestReturnNotNoneWarning"), "{out:?}");
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

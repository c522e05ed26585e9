//! How a configuration's options apply to each collected test: `-m` deselects some, and an
//! unregistered mark under strict markers fails the file's collection. A warning filter that turns
//! warnings into errors (the configuration's `filterwarnings` and `-W`, or the test's
//! `filterwarnings` marks) drops the tests it covers: under pytest a warning then fails a test —
//! raised while it runs, while pytest collects the file (a compile-time `SyntaxWarning`, an
//! unknown mark, a deprecated import) or when pytest reports an exception nothing could raise (a
//! leaked file's `ResourceWarning` in a finalizer) — and an evaluated expression reproduces none
//! of those exactly. (Wrapping the expression in `warnings.catch_warnings` with the same filters
//! was tried and reviewed: it lied on warnings attributed by `stacklevel`, on finalizers, and on
//! filters set while the solution is imported.)

use ruff_python_ast::Stmt;

use super::config::Judgement;
use super::markexpr::MarkExpr;
use super::marks::{file_marks, param_marks, test_marks, MarkUse, ParamMarks};
use super::warnings::Filter;
use crate::collect::Case;
use crate::module::ModuleScope;
use crate::source::SourceMap;

/// At most this many distinct `pytest.param` mark names are tried against a `-m` expression.
const MAX_PARAM_MARKS: usize = 10;

/// Applies `judgement` to `cases`: sets `not_run` where pytest does not run a case as a passing
/// check, or the extractor cannot follow what the configuration does.
pub fn apply(
    judgement: &Judgement,
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
    cases: &mut [Case],
) {
    let config = format!("pytest's configuration (`{}`)", judgement.config_name);
    let file_why = judgement.blocker.clone().or_else(|| {
        judgement.warning_filters.iter().find(|f| f.is_error()).map(|f| {
            format!(
                "{config} turns warnings into errors (`{}`): under pytest a warning then fails a test, also one raised while pytest collects the file or reports an exception a finalizer could not raise, which an evaluated expression does not reproduce",
                f.written
            )
        })
    });
    if let Some(why) = file_why {
        for case in cases.iter_mut() {
            case.not_run = Some(why.clone());
        }
        return;
    }
    let marks = file_marks(body, scope, map);
    if let Some(why) = &marks.refused {
        for case in cases.iter_mut() {
            case.not_run = Some(why.clone());
        }
        return;
    }
    if let Some(why) = &marks.unreadable {
        if judgement.strict_markers || judgement.mark_expr.is_some() {
            let why = format!("{config} selects or checks marks, and {why}");
            for case in cases.iter_mut() {
                case.not_run.get_or_insert_with(|| why.clone());
            }
            return;
        }
    }
    let used = &marks.used;
    if judgement.strict_markers {
        let registered = &judgement.registered_markers;
        if let Some((name, line)) = used.iter().find(|(n, _)| !registered.contains(n)) {
            let why = format!(
                "{config} makes marks strict, and the mark `{name}` (line {line}) is not registered: pytest fails to collect the file"
            );
            for case in cases.iter_mut() {
                case.not_run = Some(why.clone());
            }
            return;
        }
    }
    // Marks the extractor cannot read may hold a `filterwarnings` mark.
    let file_filters =
        marks.unreadable.is_some() || used.iter().any(|(n, _)| n == "filterwarnings");
    if judgement.mark_expr.is_none() && !file_filters {
        return;
    }
    for case in cases.iter_mut() {
        if case.not_run.is_some() {
            continue;
        }
        let param_marks = param_marks(body, &case.id, case.func, scope, map);
        if let Err(why) = check_case(judgement, body, scope, map, case, &param_marks) {
            case.not_run = Some(why);
        }
    }
}

/// Why pytest does not run one case as a passing check under the configuration and its marks (or
/// the extractor cannot tell), if so.
fn check_case(
    judgement: &Judgement,
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
    case: &Case,
    param_marks: &ParamMarks,
) -> Result<(), String> {
    let marks = test_marks(body, &case.id, case.func, scope, map)
        .map_err(|why| format!("the extractor cannot tell the test's marks: {why}"))?;
    if let Some((written, expr)) = &judgement.mark_expr {
        selection(written, expr, case, &marks, param_marks)?;
    }
    for mark in &marks {
        for arg in &mark.filters {
            let filter = Filter::parse(arg, false)
                .map_err(|why| format!("its `filterwarnings` mark cannot be applied: {why}"))?;
            if filter.is_error() {
                return Err(format!(
                    "marked `filterwarnings(\"{arg}\")`: a warning fails the test under pytest, and evaluating an expression does not"
                ));
            }
        }
    }
    let case_errors = param_marks.filters.iter().any(|f| {
        f.as_deref()
            .is_none_or(|f| Filter::parse(f, false).is_ok_and(|f| f.is_error()))
    });
    if case.parametrized && case_errors {
        return Err(
            "a `pytest.param` of the file carries a `filterwarnings` mark that may turn warnings into errors"
                .into(),
        );
    }
    Ok(())
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
    fn warnings_as_errors_drop_what_they_cover() {
        let source = "import pytest\nfrom solution import f\n\ndef test_a():\n    assert f()\n\n@pytest.mark.filterwarnings('error::UserWarning')\ndef test_b():\n    assert f()\n\n@pytest.mark.filterwarnings('ignore')\ndef test_c():\n    assert f()\n";
        let out = run(
            &[("filterwarnings", &["ignore::DeprecationWarning", "error"])],
            source,
        );
        assert!(
            out.iter().all(|(_, s, why)| *s == Status::Dropped
                && why.contains("turns warnings into errors (`error`)")),
            "{out:?}"
        );
        let out = run(&[("addopts", &["-W error::UserWarning"])], source);
        assert!(
            out.iter()
                .all(|(_, s, why)| *s == Status::Dropped && why.contains("`error::UserWarning`")),
            "{out:?}"
        );
        // Filters that never raise change no verdict; a mark that raises drops its own test.
        let out = run(
            &[("filterwarnings", &["ignore::DeprecationWarning"])],
            source,
        );
        let kept: Vec<bool> = out.iter().map(|(_, s, _)| *s != Status::Dropped).collect();
        assert_eq!(kept, [true, false, true], "{out:?}");
        assert!(
            out[1]
                .2
                .contains("marked `filterwarnings(\"error::UserWarning\")`"),
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

//! `conftest.py` files: pytest imports every one from the rootdir down to the test file's folder
//! before the tests run. Their autouse fixtures, hooks, plugins and import-time effects run around
//! every test, and their fixtures are requested by name. The extractor does not replay conftest
//! code: what may run before a test makes the test's asserts depend on it (dropped, naming it), and
//! a fixture from a conftest is known by name, so the reason says where it comes from.

use ruff_python_ast::{Expr, Stmt};
use ruff_python_parser::parse_module;
use ruff_text_size::{Ranged, TextRange};

use crate::module::{Fixture, ModuleScope};
use crate::source::SourceMap;

/// One `conftest.py` the test file sees: a label for messages (its path) and its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conftest {
    pub path: String,
    pub source: String,
}

/// Hooks that run nothing around a collected test: they declare options, decide which files are
/// collected at all, or run after the session.
const DECLARING_HOOKS: &[&str] = &[
    "pytest_addoption",
    "pytest_ignore_collect",
    "pytest_report_header",
    "pytest_terminal_summary",
    "pytest_sessionfinish",
    "pytest_unconfigure",
];

/// Fold what the conftest files (outermost first) do into the test file's scope.
pub fn apply(scope: &mut ModuleScope, conftests: &[Conftest], solution_modules: &[String]) {
    // Nearer conftests override farther ones; the test file's own fixtures override all.
    for conftest in conftests.iter().rev() {
        let label = &conftest.path;
        let Ok(parsed) = parse_module(&conftest.source) else {
            scope.global_barriers.push((
                1,
                format!("`{label}` has a syntax error; pytest cannot import it, so no test runs"),
            ));
            continue;
        };
        let map = SourceMap::new(&conftest.source, parsed.tokens());
        let body = parsed.suite();
        let inner = ModuleScope::analyse(body, &map, solution_modules, &[]);
        for (_, why) in &inner.global_barriers {
            scope
                .global_barriers
                .push((1, format!("in `{label}`: {why}")));
        }
        for stmt in body {
            if let Some(why) = hook_or_plugin(stmt, &map) {
                scope.global_barriers.push((1, format!("`{label}` {why}")));
            }
        }
        for (name, _) in inner.fixtures.iter() {
            if scope.fixtures.contains_key(name) {
                continue;
            }
            let line = fixture_line(body, name, &map);
            if has_params(body, name) {
                scope
                    .param_fixtures
                    .insert(name.clone(), format!("from `{label}` (line {line})"));
            }
            scope.fixtures.insert(
                name.clone(),
                Fixture::Unsupported {
                    why: format!("`{name}` is a fixture from `{label}` (line {line}), which the extractor does not replay, and its setup may change what the assertion reads"),
                },
            );
        }
    }
}

/// Whether the fixture `name` is declared with `params=`.
fn has_params(body: &[Stmt], name: &str) -> bool {
    body.iter().any(|s| match s {
        Stmt::FunctionDef(f) if f.name.as_str() == name => f.decorator_list.iter().any(|d| {
            matches!(&d.expression, Expr::Call(c)
                if c.arguments.keywords.iter().any(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "params")))
        }),
        _ => false,
    })
}

fn fixture_line(body: &[Stmt], name: &str, map: &SourceMap) -> u32 {
    body.iter()
        .find_map(|s| match s {
            Stmt::FunctionDef(f) if f.name.as_str() == name => Some(map.line(f.range.start())),
            _ => None,
        })
        .unwrap_or(1)
}

/// A hook that runs around tests (`pytest_runtest_setup`, `pytest_collection_modifyitems`, …) or
/// a `pytest_plugins` declaration: either may skip, reorder or change any test.
fn hook_or_plugin(stmt: &Stmt, map: &SourceMap) -> Option<String> {
    let line = |r: TextRange| map.line(r.start());
    match stmt {
        Stmt::FunctionDef(f)
            if f.name.starts_with("pytest_") && !DECLARING_HOOKS.contains(&f.name.as_str()) =>
        {
            if f.name.as_str() == "pytest_configure" && only_registers_markers(&f.body) {
                return None;
            }
            Some(format!(
                "defines the hook `{}` (line {}), which pytest runs around the tests and which may skip or change them",
                f.name,
                line(f.range)
            ))
        }
        Stmt::Assign(a)
            if a.targets.iter().any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == "pytest_plugins")) =>
        {
            Some(format!(
                "loads plugins with `pytest_plugins` (line {}), which may run code around every test",
                line(stmt.range())
            ))
        }
        _ => None,
    }
}

/// `def pytest_configure(config): config.addinivalue_line("markers", "...")` only declares marks.
fn only_registers_markers(body: &[Stmt]) -> bool {
    body.iter().all(|s| match s {
        Stmt::Expr(e) => matches!(e.value.as_ref(), Expr::Call(c)
            if matches!(c.func.as_ref(), Expr::Attribute(a) if a.attr.as_str() == "addinivalue_line")),
        Stmt::Pass(_) => true,
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{extract, Options, Status};

    fn run(test: &str, conftest: &str) -> crate::Extraction {
        let mut options = Options::new("tests/test_x.py");
        options.conftests = vec![Conftest {
            path: "tests/conftest.py".into(),
            source: conftest.into(),
        }];
        extract(test, &options)
    }

    const TEST: &str = "from solution import f\n\ndef test_f():\n    assert f(1) == 2\n\ndef test_g(db):\n    assert f(db) == 2\n";

    #[test]
    fn an_autouse_fixture_in_a_conftest_drops_every_assert() {
        let e = run(TEST, "import pytest\n\n@pytest.fixture(autouse=True)\ndef reset():\n    import solution\n    solution.COUNT = 0\n");
        assert!(e.assertions.iter().all(|a| a.status == Status::Dropped));
        assert!(e.assertions[0]
            .reason
            .as_deref()
            .unwrap()
            .contains("tests/conftest.py"));
    }

    #[test]
    fn a_hook_that_may_skip_drops_every_assert() {
        let e = run(
            TEST,
            "def pytest_collection_modifyitems(config, items):\n    pass\n",
        );
        assert!(e.assertions.iter().all(|a| a.status == Status::Dropped));
        assert!(e.assertions[0]
            .reason
            .as_deref()
            .unwrap()
            .contains("pytest_collection_modifyitems"));
    }

    #[test]
    fn a_conftest_fixture_is_named_and_the_other_test_is_kept() {
        let e = run(TEST, "import pytest\n\ndef pytest_addoption(parser):\n    parser.addoption('--slow')\n\n@pytest.fixture\ndef db():\n    return 1\n");
        assert_eq!(e.assertions[0].status, Status::Kept);
        assert_eq!(e.assertions[1].status, Status::Dropped);
        assert!(e.assertions[1]
            .reason
            .as_deref()
            .unwrap()
            .contains("fixture from `tests/conftest.py` (line 6)"));
    }
}

//! What conftest files do around a test (`crate::conftest`), through the whole extraction.

use crate::conftest::Conftest;
use crate::{extract, Options, Status};

fn run(test: &str, conftest: &str) -> crate::Extraction {
    let mut options = Options::new("tests/test_x.py");
    options.conftests = vec![Conftest {
        path: "tests/conftest.py".into(),
        source: conftest.into(),
        package: None,
    }];
    extract(test, &options)
}

const TEST: &str = "from solution import f\n\ndef test_f():\n    assert f(1) == 2\n\ndef test_g(db):\n    assert f(db) == 2\n";

/// A conftest in the package `pkg.tests` of the solution module `pkg`, under `config`'s addopts.
fn in_package(
    test: &str,
    conftest: &str,
    package: &str,
    addopts: Option<&str>,
) -> crate::Extraction {
    let mut options = Options::new("pkg/tests/test_x.py");
    options.solution_modules = vec!["pkg".into()];
    options.conftests = vec![Conftest {
        path: "conftest.py".into(),
        source: conftest.into(),
        package: Some(package.into()),
    }];
    options.pytest_config = addopts.map(|a| crate::pytest::config::Config {
        name: "pytest.ini".into(),
        options: vec![("addopts".into(), vec![a.into()])],
        refused: None,
    });
    extract(test, &options)
}

const PKG_TEST: &str = "from pkg import f\n\ndef test_f():\n    any = 1\n    assert f(any) == 2\n";
const PKG_CONFTEST: &str = "import os\nimport sys\n\nif sys.platform == 'win32' and not any(os.environ.get(n) for n in ('USER',)):\n    os.environ['USERNAME'] = 'user'\n";

#[test]
fn a_conftest_in_a_solution_package_is_replayed_first_in_its_own_lambda() {
    let e = in_package(PKG_TEST, PKG_CONFTEST, "pkg.tests", None);
    let a = &e.assertions[0];
    assert_eq!(a.status, Status::Kept, "{:?}", a.reason);
    let expr = a.expr.as_deref().unwrap();
    // Before the test's own code; builtins spelled so that neither the solution's globals nor
    // the test's local `any` stand in for them.
    assert!(
        expr.starts_with("((lambda: ((([None for __import__(\"os\").environ['USERNAME'] in ['user']], None) if (__import__(\"sys\").platform == 'win32' and not __import__(\"builtins\").any("),
        "{expr}"
    );
    assert!(expr.ends_with(", (f(1) == 2))[-1]"), "{expr}");
}

#[test]
fn a_conftest_binding_nothing_replayed_reads_is_left_out() {
    // Harmless code whose bindings no replayed statement reads: nothing a test sees.
    let conftest = "import re\n_V = re.compile(r'_py(\\d)')\nX = 1\n";
    let e = in_package(PKG_TEST, conftest, "pkg.tests", None);
    assert_eq!(e.assertions[0].expr.as_deref(), Some("f(1) == 2"));
    // Read by a statement that is replayed, it is replayed first (a literal constant is
    // written out).
    let conftest = "import os\nNAME = 'BX'.lower()\nKEY = 'k'\nos.environ[NAME + KEY] = '1'\n";
    let e = in_package(PKG_TEST, conftest, "pkg.tests", None);
    let expr = e.assertions[0].expr.as_deref().unwrap();
    assert!(
        expr.starts_with("((lambda: (NAME := 'BX'.lower(), [None for __import__(\"os\").environ[NAME + 'k'] in ['1']], None))(), "),
        "{expr}"
    );
}

#[test]
fn a_conftest_replay_needs_the_solution_imported_first() {
    for (package, addopts) in [
        ("other.tests", None),
        ("pkg.tests", Some("--import-mode=importlib")),
    ] {
        let e = in_package(PKG_TEST, PKG_CONFTEST, package, addopts);
        let why = e.assertions[0].reason.as_deref().unwrap_or_default();
        assert!(
            why.contains("on line 4")
                && why.contains("before the file's own import of the solution"),
            "{package} {addopts:?}: {why}"
        );
    }
}

#[test]
fn a_conftest_replay_that_reaches_beyond_the_standard_library_is_a_barrier() {
    for (what, conftest) in [
        (
            "a solution name",
            "import pkg\nif pkg.DEBUG:\n    pkg.DEBUG = False\n",
        ),
        (
            "globals()",
            "import os\nif os.sep:\n    globals()['X'] = 1\n",
        ),
        (
            "importlib",
            "import importlib\nimportlib.import_module('pkg').f = None\n",
        ),
        ("sys.modules", "import sys\nsys.modules['pkg'].f = None\n"),
        (
            "its __file__",
            "import os\nHERE = os.path.dirname(__file__)\nos.environ['H'] = HERE\n",
        ),
    ] {
        let e = in_package(PKG_TEST, conftest, "pkg.tests", None);
        let a = &e.assertions[0];
        assert_eq!(a.status, Status::Dropped, "{what}: {:?}", a.expr);
        assert!(
            a.reason.as_deref().unwrap().contains("conftest.py"),
            "{what}: {:?}",
            a.reason
        );
    }
}

#[test]
fn a_test_that_loads_the_solution_again_does_not_take_the_replay() {
    // The bench's convention, with the conftest in a package `solution` (so it ran after the
    // solution's import): a test that loads its own copy reads a module the conftest never saw.
    let test = "import importlib.util\nfrom solution import f\n\ndef _load_solution():\n    spec = importlib.util.spec_from_file_location('solution', 'solution.py')\n    m = importlib.util.module_from_spec(spec)\n    spec.loader.exec_module(m)\n    return m\n\ndef test_f():\n    assert f(1) == 2\n\ndef test_g():\n    assert _load_solution().f(1) == 2\n";
    let e = in_package(test, PKG_CONFTEST, "solution.tests", None);
    assert_eq!(
        e.assertions[0].status,
        Status::Kept,
        "{:?}",
        e.assertions[0].reason
    );
    let a = &e.assertions[1];
    assert_eq!(a.status, Status::Dropped, "{:?}", a.expr);
    assert!(
        a.reason
            .as_deref()
            .unwrap()
            .contains("loads the solution again"),
        "{:?}",
        a.reason
    );
}

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

const DOCTEST_ONLY: &str = "import pytest\nimport pkg.sub\nfrom solution import f\n\n@pytest.fixture(autouse=True)\ndef names(doctest_namespace):\n    \"\"\"For doctests.\"\"\"\n    doctest_namespace[\"f\"] = f\n    doctest_namespace[\"V\"] = pkg.sub.V\n    doctest_namespace[\"n\"] = 1\n";

#[test]
fn an_autouse_fixture_that_only_fills_doctest_namespace_is_inert() {
    let e = run(TEST, DOCTEST_ONLY);
    assert_eq!(e.assertions[0].status, Status::Kept);
}

#[test]
fn anything_more_than_storing_bound_values_into_doctest_namespace_is_not() {
    for (what, from, to) in [
        ("a call", "= pkg.sub.V\n", "= pkg.sub.V()\n"),
        (
            "another statement",
            "    doctest_namespace[\"n\"] = 1\n",
            "    print(1)\n",
        ),
        ("an unbound name", "= f\n", "= g\n"),
        ("a computed key", "[\"n\"]", "[f]"),
        (
            "another fixture",
            "names(doctest_namespace)",
            "names(doctest_namespace, tmp_path)",
        ),
        (
            "a teardown",
            "    doctest_namespace[\"n\"] = 1\n",
            "    yield\n",
        ),
        (
            "an attribute of a non-module",
            "= pkg.sub.V\n",
            "= f.attr\n",
        ),
        (
            "a rebound module",
            "import pkg.sub\n",
            "import pkg.sub\npkg = 1\n",
        ),
        (
            "an overridden doctest_namespace",
            "import pytest\n",
            "import pytest\n\n@pytest.fixture\ndef doctest_namespace():\n    return Recorder()\n",
        ),
    ] {
        let conftest = DOCTEST_ONLY.replacen(from, to, 1);
        assert_ne!(conftest, DOCTEST_ONLY, "{what}");
        let e = run(TEST, &conftest);
        assert_eq!(
            e.assertions[0].status,
            Status::Dropped,
            "{what}: {conftest}"
        );
        assert!(
            e.assertions[0]
                .reason
                .as_deref()
                .unwrap()
                .contains("autouse fixture `names`"),
            "{what}: {:?}",
            e.assertions[0].reason
        );
    }
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
    // A fixture that returns a literal is replayed where the test requests it (issue 24).
    let e = run(TEST, "import pytest\n\ndef pytest_addoption(parser):\n    parser.addoption('--slow')\n\n@pytest.fixture\ndef db():\n    return 1\n");
    assert_eq!(e.assertions[0].status, Status::Kept);
    assert_eq!(e.assertions[1].status, Status::Kept);
    assert!(e.assertions[1].expr.as_deref().unwrap().contains("db := 1"));
    // One that reads a helper of the conftest is not: it is named, with what it reads.
    let e = run(TEST, "import pytest\n\ndef pytest_addoption(parser):\n    parser.addoption('--slow')\n\ndef one():\n    return 1\n\n@pytest.fixture\ndef db():\n    return one()\n");
    assert_eq!(e.assertions[0].status, Status::Kept);
    assert_eq!(e.assertions[1].status, Status::Dropped);
    let reason = e.assertions[1].reason.as_deref().unwrap();
    assert!(
        reason.contains("fixture from `tests/conftest.py` (line 9)")
            && reason.contains("reads `one`"),
        "{reason}"
    );
}

#[test]
fn a_conftest_fixture_of_one_value_is_replayed() {
    // One of what the conftest imports from the solution: the fixture's value in the test's fold,
    // the import an evaluator's binding under a reserved name. It calls code, which may read its
    // caller's globals: computed in a function whose globals' `__name__` is the conftest's.
    let e = run(TEST, "import pytest\nfrom solution import f as g\n\n@pytest.fixture\ndef db():\n    return g(1) - 1\n");
    assert_eq!(
        e.assertions[1].status,
        Status::Kept,
        "{:?}",
        e.assertions[1]
    );
    assert_eq!(
        e.assertions[1].expr.as_deref(),
        Some("(lambda: [db := __import__(\"types\").FunctionType((lambda: _bx_c0_g(1) - 1).__code__, {**__import__(\"builtins\").globals(), \"__name__\": \"conftest\"})()] and f(db) == 2)()")
    );
    assert!(e.bindings.contains(&crate::model::Binding::Attr {
        name: "_bx_c0_g".into(),
        module: "solution".into(),
        attr: "f".into(),
    }));
}

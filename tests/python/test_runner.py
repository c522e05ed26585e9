"""www/py/runner.py under the host CPython (the same module runs in Pyodide).

Run: python3 -m pytest tests/python/ -q
"""

import contextlib
import logging
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "www" / "py"))
import runner  # noqa: E402

SOLUTION = """
from dataclasses import dataclass

def sq(x):
    return x * x

@dataclass
class Point:
    x: int
    y: int

counter = []
def bump():
    counter.append(1)
    return len(counter)
"""

TEST_FILE = """
import pytest
from solution import sq, Point

def test_x():
    result = sq(3)
    assert result == 9

@pytest.mark.parametrize("a, b", [(2, 4), (3, 9)])
def test_sq(a, b):
    assert sq(a) == b

class TestA:
    def test_b(self):
        assert Point(1, 2).y == 2

@pytest.mark.skip(reason="not today")
def test_skipped():
    pass

@pytest.mark.xfail(reason="known")
def test_xfail():
    assert sq(2) == 5

@pytest.mark.xfail(reason="fixed")
def test_xpass():
    assert sq(2) == 4

@pytest.fixture
def broken():
    raise RuntimeError("fixture boom")

def test_error(broken):
    pass
"""


def outcomes(result):
    return {t["name"]: t["outcome"] for t in result["tests"]}


def test_eval_outcomes():
    evals = runner.eval_assertions(
        SOLUTION,
        [
            {"id": 1, "expr": "sq(3) == 9"},
            {"id": 2, "expr": "sq(3) == 10"},
            {"id": 3, "expr": "random.random() < 2"},
            {"id": 4, "expr": "Point(1, 2) == Point(1, 2)"},
            {"id": 5, "expr": "sq("},
        ],
    )
    assert [e["outcome"] for e in evals] == ["pass", "fail", "error", "pass", "error"]
    assert evals[1]["value"] == "False"
    assert evals[2]["error"] == "NameError: name 'random' is not defined"
    assert evals[2]["phase"] == "assertion"
    assert evals[4]["error"].startswith("SyntaxError")


def test_each_assertion_gets_a_fresh_namespace():
    evals = runner.eval_assertions(SOLUTION, [{"id": i, "expr": "bump() == 1"} for i in range(3)])
    assert [e["outcome"] for e in evals] == ["pass"] * 3
    assert "solution" not in sys.modules


def test_nothing_from_the_test_file_or_runner_leaks_into_the_namespace():
    evals = runner.eval_assertions("x = 1\n", [{"id": 1, "expr": "pytest"}, {"id": 2, "expr": "runner"}])
    assert [e["outcome"] for e in evals] == ["error", "error"]


def test_solution_errors_fail_every_assertion():
    for source, pattern in [
        ("import not_a_module_xyz\n", "ModuleNotFoundError"),
        ("def f(:\n", "SyntaxError"),
        ("raise SystemExit(4)\n", "SystemExit: 4"),
    ]:
        evals = runner.eval_assertions(source, [{"id": 1, "expr": "True"}, {"id": 2, "expr": "1"}])
        assert all(e["outcome"] == "error" and e["phase"] == "solution" for e in evals)
        assert all(e["error"].startswith(pattern) for e in evals), evals


def test_output_is_captured_and_capped():
    evals = runner.eval_assertions(
        "print('hello from solution')\n",
        [{"id": 1, "expr": "print('x' * 10) is None"}, {"id": 2, "expr": "[print(i) for i in range(10**5)] and True"}],
        output_cap=1000,
    )
    assert evals[0]["output"] == "hello from solution\nxxxxxxxxxx\n"
    assert len(evals[1]["output"]) < 1100
    assert "output truncated" in evals[1]["output"]


def test_input_does_not_block():
    [e] = runner.eval_assertions("x = 1\n", [{"id": 1, "expr": "input()"}])
    assert e["error"].startswith("EOFError")


def test_pytest_outcomes_and_names():
    cwd = os.getcwd()
    result = runner.run_pytest(TEST_FILE, "problems/sq/test_sq.py", SOLUTION)
    assert os.getcwd() == cwd
    assert outcomes(result) == {
        "test_x": "passed",
        "test_sq[2-4]": "passed",
        "test_sq[3-9]": "passed",
        "TestA::test_b": "passed",
        "test_skipped": "skipped",
        "test_xfail": "xfailed",
        "test_xpass": "xpassed",
        "test_error": "error",
    }
    tests = {t["name"]: t for t in result["tests"]}
    assert tests["TestA::test_b"]["nodeid"] == "test_sq.py::TestA::test_b"
    assert "fixture boom" in tests["test_error"]["crash"]
    assert result["exit_code"] == 1
    assert "1 error" in result["output"]


def test_pytest_reruns_see_new_code():
    first = runner.run_pytest(TEST_FILE, "test_sq.py", SOLUTION)
    second = runner.run_pytest(TEST_FILE, "test_sq.py", SOLUTION.replace("x * x", "x + x"))
    third = runner.run_pytest("from solution import sq\n\ndef test_new():\n    assert sq(5) == 25\n", "test_sq.py", SOLUTION)
    assert outcomes(first)["test_x"] == "passed"
    assert outcomes(second)["test_x"] == "failed"
    assert "assert 6 == 9" in {t["name"]: t for t in second["tests"]}["test_x"]["crash"]
    assert outcomes(third) == {"test_new": "passed"}
    assert not any(p.startswith(tuple(runner._run_dirs)) for p in sys.path)


def test_pytest_collection_error():
    result = runner.run_pytest("from solution import nope\n", "test_c.py", "x = 1\n")
    assert result["tests"] == []
    assert result["exit_code"] == 2
    assert "nope" in result["collection_errors"][0]["message"]


@pytest.mark.parametrize("name", ["solution.py", "conftest.py", "notes.txt"])
def test_bad_test_filenames_are_refused(name):
    with pytest.raises(ValueError):
        runner.run_pytest("def test_a(): pass\n", name, "x = 1\n")


def test_run_request_json_round_trip():
    import json

    reply = json.loads(
        runner.run_request_json(
            json.dumps({"solution": SOLUTION, "test_source": "", "assertions": [{"id": "a", "expr": "sq(2) == 4"}]})
        )
    )
    assert reply["pytest"] is None
    assert reply["evals"][0]["outcome"] == "pass"
    assert set(reply["timings"]) == {"eval_ms", "pytest_ms"}


def test_teardown_errors_and_strict_xpass():
    source = """
import pytest

@pytest.fixture
def bad_teardown():
    yield 1
    raise RuntimeError("teardown boom")

def test_passes_then_teardown_fails(bad_teardown):
    assert bad_teardown == 1

def test_fails_then_teardown_fails(bad_teardown):
    assert bad_teardown == 2

@pytest.mark.xfail(strict=True)
def test_strict_xpass():
    pass
"""
    result = runner.run_pytest(source, "test_t.py", "x = 1\n")
    assert outcomes(result) == {
        "test_passes_then_teardown_fails": "error",
        "test_fails_then_teardown_fails": "failed",
        "test_strict_xpass": "failed",
    }
    tests = {t["name"]: t for t in result["tests"]}
    assert "teardown boom" in tests["test_passes_then_teardown_fails"]["message"]


# --------------------------------------------------------------------------- bindings (contract version 2)

# A candidate that redefines builtins at module level, as a reward hacker would: in version 1's
# namespace (the module's own globals) they changed what the test's `sorted`, `len` and
# `__import__` meant; `__builtins__ = {}` (last, so its own functions keep the real ones) hid
# every builtin from the expression.
SHADOWING = """
class _Fake:
    pi = 3

def result():
    return []

def sorted(*args, **kwargs):
    return [1, 2, 3]

def len(obj):
    return 3

def __import__(*args, **kwargs):
    return _Fake()

__builtins__ = {}
"""

FROM_SOLUTION = [{"kind": "attr", "name": "result", "module": "solution", "attr": "result"}]


def attr(name, attr_name=None, module="solution"):
    return {"kind": "attr", "name": name, "module": module, "attr": attr_name or name}


def outcome_list(evals):
    return [e["outcome"] for e in evals]


def test_a_solution_cannot_redefine_the_builtins_of_an_expression():
    exprs = [
        {"id": "sorted", "expr": "sorted(result()) == [1, 2, 3]"},
        {"id": "len", "expr": "len(result()) == 3"},
        {"id": "import", "expr": "__import__('math').pi == 3"},
        {"id": "real", "expr": "abs(__import__('math').pi - 3.14159) < 1e-5 and sorted([2, 1]) == [1, 2]"},
    ]
    v2 = runner.eval_assertions(SHADOWING, exprs, bindings=FROM_SOLUTION)
    assert outcome_list(v2) == ["fail", "fail", "fail", "pass"], v2
    # Version 1's namespace (no bindings, or `globals`): the phantom passes v2 removes.
    for v1_bindings in (None, [{"kind": "globals", "module": "solution"}]):
        v1 = runner.eval_assertions(SHADOWING, exprs, bindings=v1_bindings)
        assert outcome_list(v1)[:3] == ["pass", "pass", "pass"], v1
        assert v1[3]["outcome"] == "error" and v1[3]["error"].startswith("NameError"), v1


def test_version_2_agrees_with_pytest_on_a_shadowing_candidate():
    test_file = "from solution import result\n\ndef test_r():\n    assert sorted(result()) == [1, 2, 3]\n"
    assert outcomes(runner.run_pytest(test_file, "test_r.py", SHADOWING)) == {"test_r": "failed"}
    [e] = runner.eval_assertions(SHADOWING, [{"id": 0, "expr": "sorted(result()) == [1, 2, 3]"}], bindings=FROM_SOLUTION)
    assert e["outcome"] == "fail"


def test_build_namespace_starts_from_the_real_builtins_only():
    import builtins
    import types

    module = types.ModuleType("solution")
    exec(SHADOWING, module.__dict__)
    ns = runner.build_namespace(module, [])
    assert ns == {"__builtins__": builtins}
    ns = runner.build_namespace(module, FROM_SOLUTION + [{"kind": "module", "name": "sol", "module": "solution"}])
    assert ns["__builtins__"] is builtins and ns["result"] is module.result and ns["sol"] is module
    assert set(ns) == {"__builtins__", "result", "sol"}
    # Version 1: the module's own globals, the very dict.
    assert runner.build_namespace(module, None) is module.__dict__
    assert runner.build_namespace(module) is module.__dict__
    assert runner.build_namespace(module, [{"kind": "globals", "module": "solution"}]) is module.__dict__


def test_an_eval_binding_runs_in_order_among_the_bindings():
    # Module-level code pytest ran between the file's imports: evaluated once, where it sits, in
    # the namespace (it sees what the bindings before it bound, and later bindings see its effect).
    module = types_module("solution", "X = 1\n")
    bindings = [
        {"kind": "module", "name": "sol", "module": "solution"},
        {"kind": "attr", "name": "X", "module": "solution", "attr": "X"},
        {"kind": "eval", "expr": "[None for sol.X in [X + 1]]", "line": 3},
        {"kind": "attr", "name": "Y", "module": "solution", "attr": "X"},
    ]
    ns = runner.build_namespace(module, bindings)
    assert (ns["X"], ns["Y"]) == (1, 2)
    with pytest.raises(TypeError):
        runner.build_namespace(module, [{"kind": "eval", "line": 3}])


def types_module(name, source):
    import types

    module = types.ModuleType(name)
    exec(source, module.__dict__)
    return module


def test_a_check_does_not_leave_the_environment_to_the_next():
    # The first check's replay stores into os.environ; the second check's fresh import of the
    # solution must not see it (a fresh pytest session would not have).
    source = "import os\nMODE = os.environ.get('BX_TEST_MODE', 'default')\n"
    exprs = [
        {"id": 0, "expr": "[None for __import__('os').environ['BX_TEST_MODE'] in ['set']] and MODE == 'default'"},
        {"id": 1, "expr": "MODE == 'default'"},
    ]
    results = runner.eval_assertions(source, exprs, bindings=[{"kind": "attr", "name": "MODE", "module": "solution", "attr": "MODE"}])
    assert [r["outcome"] for r in results] == ["pass", "pass"], results
    assert "BX_TEST_MODE" not in os.environ


COUNTER = """
COUNT = 0

def bump():
    global COUNT
    COUNT += 1
    return COUNT
"""


def test_an_attr_binding_is_a_snapshot():
    bindings = [attr("COUNT"), attr("bump"), attr("n", "COUNT")]
    evals = runner.eval_assertions(
        COUNTER,
        [
            {"id": 1, "expr": "bump() == 1 and COUNT == 0 and n == 0"},
            {"id": 2, "expr": "(bump(), bump(), COUNT) == (1, 2, 0)"},  # a fresh module for each
        ],
        bindings=bindings,
    )
    assert outcome_list(evals) == ["pass", "pass"], evals


def test_a_module_binding_reads_live():
    bindings = [{"kind": "module", "name": "sol", "module": "solution"}]
    evals = runner.eval_assertions(
        COUNTER,
        [
            {"id": 1, "expr": "sol.bump() == 1 and sol.COUNT == 1"},
            {"id": 2, "expr": "[sol.bump() for _ in range(3)] == [1, 2, 3] and sol.COUNT == 3"},
            {"id": 3, "expr": "COUNT"},  # only `sol` is bound
        ],
        bindings=bindings,
    )
    assert outcome_list(evals) == ["pass", "pass", "error"], evals
    assert evals[2]["error"] == "NameError: name 'COUNT' is not defined"


def test_a_missing_name_errors_every_assertion():
    evals = runner.eval_assertions(
        COUNTER,
        [{"id": 1, "expr": "True"}, {"id": 2, "expr": "bump() == 1"}],
        bindings=[attr("bump"), attr("nope"), attr("COUNT")],
    )
    assert outcome_list(evals) == ["error", "error"]
    for e in evals:
        assert e["error"] == "ImportError: cannot import name 'nope' from 'solution'"
        assert e["phase"] == "solution"
        assert "ImportError" in e["traceback"]
    # The bindings name the module the test file imported, whatever the solution's file is called.
    [e] = runner.eval_assertions(COUNTER, [{"id": 1, "expr": "True"}], bindings=[attr("f", module="mylib")])
    assert e["error"] == "ImportError: cannot import name 'f' from 'mylib'"


STAR = """
__all__ = ["a", "_hidden"]
a = 1
b = 2
_hidden = 3
_private = 4
"""


def test_star_binds_all_when_the_module_has_it():
    star = [{"kind": "star", "module": "solution"}]
    exprs = [{"id": n, "expr": f"{n} > 0"} for n in ("a", "b", "_hidden", "_private")]
    evals = runner.eval_assertions(STAR, exprs, bindings=star)
    assert outcome_list(evals) == ["pass", "error", "pass", "error"], evals
    assert evals[1]["error"] == "NameError: name 'b' is not defined"
    # An empty __all__ binds nothing.
    evals = runner.eval_assertions(STAR.replace('["a", "_hidden"]', "[]"), exprs, bindings=star)
    assert outcome_list(evals) == ["error"] * 4
    # A listed name the module lacks: AttributeError, as `from solution import *` raises.
    evals = runner.eval_assertions(STAR.replace('"_hidden"', '"gone"'), exprs[:1], bindings=star)
    assert evals[0]["error"] == "AttributeError: module 'solution' has no attribute 'gone'"
    assert evals[0]["phase"] == "solution"


def test_star_without_all_binds_the_public_names():
    source = STAR.replace('__all__ = ["a", "_hidden"]\n', "") + "\ndef sorted(x):\n    return 'mine'\n__builtins__ = {}\n"
    exprs = [{"id": n, "expr": f"{n} > 0"} for n in ("a", "b", "_hidden", "_private")]
    exprs.append({"id": "sorted", "expr": "sorted([2, 1]) == 'mine' and abs(-1) == 1"})
    evals = runner.eval_assertions(source, exprs, bindings=[{"kind": "star", "module": "solution"}])
    # As after `from solution import *` in a test file: its public `sorted` shadows the builtin
    # (pytest sees the same), its `__builtins__` does not.
    assert outcome_list(evals) == ["pass", "pass", "error", "error", "pass"], evals


@pytest.mark.parametrize(
    "export, why",
    [
        ("import pytest\npytestmark = pytest.mark.skip(reason='mine')\n", "`pytestmark`"),
        ("def setup_function(function):\n    pass\n", "`setup_function`"),
        ("def setup_module(module):\n    module.add = lambda a, b: 5\n", "`setup_module`"),
        ("def teardown_module(module):\n    pass\n", "`teardown_module`"),
        ("def setUpModule():\n    pass\n", "`setUpModule`"),
        ("__all__ = ['add', '__test__']\n__test__ = False\n", "`__test__`"),
        ("pytest_plugins = ['pytester']\n", "`pytest_plugins`"),
        ("def pytest_generate_tests(metafunc):\n    pass\n", "`pytest_generate_tests`"),
        ("import pytest\n@pytest.fixture(autouse=True)\ndef patch_add():\n    pass\n", "`patch_add`"),
    ],
)
def test_star_refuses_names_pytest_reads_from_the_test_module(export, why):
    # After `from solution import *` these are the test module's own: pytest marks, sets up,
    # collects or parametrizes every test with the candidate's object, which no expression reproduces.
    source = export + "\ndef add(a, b):\n    return a + b\n"
    evals = runner.eval_assertions(source, [{"id": 1, "expr": "add(2, 3) == 5"}],
                                   bindings=[{"kind": "star", "module": "solution"}])
    assert outcome_list(evals) == ["error"], evals
    assert "StarReplacesError: `from solution import *` exports " + why in evals[0]["error"], evals
    assert "which pytest reads from the test module" in evals[0]["error"]


def test_star_keeps_names_pytest_does_not_read():
    # A private setup helper, a test function or a class the candidate exports is no name pytest
    # reads in place of the file's (an extra test is pytest's own business); nor a non-fixture
    # function whose name merely contains a hook's words.
    source = ("def _setup_module():\n    pass\n\ndef setup_cache():\n    pass\n\n"
              "def test_extra():\n    pass\n\ndef pytest_like():\n    pass\n\n"
              "def add(a, b):\n    return a + b\n")
    evals = runner.eval_assertions(source, [{"id": 1, "expr": "add(2, 3) == 5"}],
                                   bindings=[{"kind": "star", "module": "solution"}])
    assert outcome_list(evals) == ["pass"], evals


def test_bindings_apply_in_order():
    evals = runner.eval_assertions(
        STAR,
        [{"id": 1, "expr": "a == 2"}],
        bindings=[{"kind": "star", "module": "solution"}, attr("a", "b")],
    )
    assert outcome_list(evals) == ["pass"]


def test_globals_keeps_version_1():
    exprs = [{"id": 1, "expr": "_private == 4 and b == 2"}, {"id": 2, "expr": "__name__ == 'solution'"}]
    for bindings in (None, [{"kind": "globals", "module": "solution"}]):
        assert outcome_list(runner.eval_assertions(STAR, exprs, bindings=bindings)) == ["pass", "pass"]
    # Version 2's namespace has only what the bindings give (and `__name__` is no longer the
    # solution's: it falls through to the builtins module's own).
    evals = runner.eval_assertions(STAR, exprs, bindings=[attr("b")])
    assert outcome_list(evals) == ["error", "fail"]
    assert evals[0]["error"] == "NameError: name '_private' is not defined"


@pytest.mark.parametrize(
    "bindings, error",
    [
        ({"kind": "star"}, TypeError),
        (["star"], ValueError),
        ([{"kind": "alias", "module": "solution"}], ValueError),
        ([{"kind": "attr", "name": "a", "module": "solution"}], TypeError),
        ([{"kind": "globals", "module": "solution"}, {"kind": "star", "module": "solution"}], ValueError),
    ],
)
def test_malformed_bindings_are_refused(bindings, error):
    with pytest.raises(error):
        runner.eval_assertions("a = 1\n", [{"id": 1, "expr": "a"}], bindings=bindings)


def test_run_request_forwards_bindings():
    import json

    def run(**fields):
        request = {"solution": SHADOWING, "assertions": [{"id": "s", "expr": "sorted(result()) == [1, 2, 3]"}], **fields}
        return json.loads(runner.run_request_json(json.dumps(request)))["evals"][0]["outcome"]

    assert run(bindings=FROM_SOLUTION) == "fail"
    assert run() == "pass"  # a version 1 request: the solution's globals
    assert run(bindings=None) == "pass"


LOGGING_SOLUTION = """
import logging
log = logging.getLogger("shop")
AT_IMPORT = logging.getLogger().getEffectiveLevel()

def warn_bad():
    log.warning("%d units", "many")
    return True

def debug_bad():
    log.debug("%d units", "many")
    return True

def level():
    return logging.getLogger().getEffectiveLevel()
"""


@contextlib.contextmanager
def bare_root_logger():
    """The root logger without the handlers of the pytest running these tests, which it adds around
    each test's call (its own capture handlers would format, and raise, what the evaluator's let
    through)."""
    root = logging.getLogger()
    saved = root.handlers
    root.handlers = []
    try:
        yield
    finally:
        root.handlers = saved


def test_logging_capture_raises_where_pytest_does():
    """pytest's capture handler formats what reaches it and raises where that fails; a record below
    the root logger's level (WARNING, unchanged) is never formatted."""
    exprs = [{"id": 1, "expr": "warn_bad()"}, {"id": 2, "expr": "debug_bad()"}, {"id": 3, "expr": "level() == 30"}]
    with bare_root_logger():
        evals = runner.eval_assertions(LOGGING_SOLUTION, exprs, bindings=None)
        assert logging.getLogger().handlers == []
    assert [e["outcome"] for e in evals] == ["error", "pass", "pass"]
    assert evals[0]["error"].startswith("TypeError")


def test_logging_spec_lowers_the_root_level_at_import_and_around_the_check():
    spec = {"root_level": 10, "capture_level": 20}
    exprs = [
        {"id": 1, "expr": "AT_IMPORT == 10 and level() == 10"},
        # A DEBUG record passes the root logger but not the capture handlers at INFO.
        {"id": 2, "expr": "debug_bad()"},
        {"id": 3, "expr": "warn_bad()"},
    ]
    before = logging.getLogger().level
    with bare_root_logger():
        evals = runner.eval_assertions(LOGGING_SOLUTION, exprs, bindings=None, logging_spec=spec)
        # Lowered only: a configured level above the root logger's own changes nothing.
        [e] = runner.eval_assertions(LOGGING_SOLUTION, [exprs[0]], bindings=None,
                                     logging_spec={"root_level": 40, "capture_level": 40})
    assert [e["outcome"] for e in evals] == ["pass", "pass", "error"]
    assert logging.getLogger().level == before
    assert e["outcome"] == "fail"


def test_logging_configured_at_import_once_per_check():
    """pytest imports the solution once; the evaluator once per check: a handler the solution adds to
    a logger every check shares must not accumulate from one check to the next."""
    source = (
        "import logging\n"
        "logging.getLogger('app').addHandler(logging.NullHandler())\n"
        "def handlers():\n    return len(logging.getLogger('app').handlers)\n"
    )
    evals = runner.eval_assertions(source, [{"id": i, "expr": "handlers() == 1"} for i in range(3)])
    assert [e["outcome"] for e in evals] == ["pass"] * 3
    assert logging.getLogger("app").handlers == []


def test_a_replayed_patch_of_an_imported_module_is_undone_after_its_check():
    patch = {"kind": "eval", "expr": '(lambda: ([None for __import__("json").dumps in [(lambda *a, **k: "x")]], None))()',
             "line": 3}
    source = "from json import dumps\ndef enc(v):\n    return dumps(v)\n"
    attr = {"kind": "attr", "name": "enc", "module": "solution", "attr": "enc"}
    import json
    original = json.dumps
    # The solution took `dumps` before the test file patched it: every check sees the real one.
    evals = runner.eval_assertions(source, [{"id": i, "expr": "enc([1]) == '[1]'"} for i in range(2)],
                                   bindings=[patch, attr])
    assert [e["outcome"] for e in evals] == ["pass", "pass"]
    assert json.dumps is original

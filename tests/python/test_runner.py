"""www/py/runner.py under the host CPython (the same module runs in Pyodide).

Run: python3 -m pytest tests/python/ -q
"""

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

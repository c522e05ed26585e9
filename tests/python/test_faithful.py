"""The measurement must not lie: differential checks of the extractor against real pytest.

For every bench problem and every extractor fixture that has a `solution.py`, the `full` extraction's
kept assertions are evaluated the way the extraction contract says a bench loop does (a fresh module
loaded from the solution's file for each assertion, `eval(expr, runner.build_namespace(module, bindings))`
with www/py/runner.py's `build_namespace` and the extraction's `bindings`, that is contract version 2's
fresh namespace of the real builtins and what the test file imported, with a timeout), in a process of
their own, next to real pytest run on a copy of the fixture folder (its conftest.py included), for the
reference solution, every hand-written `mutant*.py` (mutants that break an effect: a counter that does
not count, a reset that does not reset) and a few automatic mutants.

A kept assertion must never lie (see faithful.py for the exact rules):
* no false fail: not truthy where pytest passed that assert;
* no phantom pass: truthy where pytest failed that assert, failed the test before reaching it,
  skipped or xfailed the test, or never collected it.

The same judge runs on each case's *capture candidate* (faithful.capture_candidate, issue 25): the
reference plus wrong definitions of every builtin the test file names that the reference never uses
(`def sorted(*a, **k): return ["captured"]`) and a refusing `__import__`. pytest's test reads its
builtins in its own module (or the candidate's, where it star-imports them), so the kept checks must
get exactly pytest's verdicts with it too: none may read a test's name in the candidate's globals.

Also: the reference passes pytest, every hand-written mutant fails it, every `test` is a node id
pytest collected, the stub (bench problems) fails every kept assertion, and the number of
evaluations equals the number of kept assertions.
"""

from __future__ import annotations

import pytest

import faithful as fx

CASES = [pytest.param(p, id=f"problems/{p.name}") for p in fx.PROBLEMS] + [
    pytest.param(p, id=f"fixtures/{p.name}") for p in fx.FIXTURES
]

# Hand-written mutants whose lies are limits the contract states (docs/contract.md, "What the evaluator
# does not reproduce"), with the limit in its words: such a mutant must still lie, only with false fails
# (the evaluator fails the checks; it never passes one), and a stated mutant that stops lying is a
# failure too, as in tests/review/test_review.py (the list must shrink with the limits).
STATED = {
    ("wave4_candidate_patches_builtins_import", "mutant_sandboxed.py"):
        "A candidate that patches the interpreter at import",
    **{("wave4_star_over_test_imports", label): "A star import that replaces what the test relies on"
       for label in ("mutant_exports_builtins.py", "mutant_exports_import.py", "mutant_exports_pytest.py",
                     "mutant_fake_math.py")},
    ("wave4_star_reference_all", "mutant_exports_import.py"): "A star import that replaces what the test relies on",
}


# Fixtures whose point is that pytest refuses the configuration or the file, or fails the reference
# whatever it defines (wave eight, classes 4 and 6): no test passes under pytest, so no check may be
# kept, and there is no passing run for a mutant to fail.
PYTEST_PASSES_NOTHING = {
    "wave10_lg_log_format_invalid_refused": "logging.Formatter refuses a log_format with no field",
    "wave10_cf_addopts_no_runner_refused": "pytest's runner plugin cannot be disabled",
    "wave10_cf_filterwarnings_invalid_module_regex": "pytest refuses a filter whose module is no regex",
    "wave10_cf_filterwarnings_invalid_message_regex": "pytest refuses a filter whose message is no regex",
    "wave10_cf_mark_filterwarnings_invalid_regex": "the first test's filterwarnings mark stops the run",
    "wave10_cf_addopts_no_python_plugin": "without the python plugin pytest collects nothing",
    "wave10_cf_filterwarnings_unknown_builtin_category": "pytest refuses a filter naming no builtin warning",
    "wave10_cf_addopts_W_unknown_builtin_category": "pytest refuses a -W naming no builtin warning",
    "wave10_cf_strict_parametrization_ids_duplicates": "duplicate parametrize ids are a collection error",
    "config_disabled_plugin_fixture_requested": "the test requests the fixture of a disabled plugin",
    "wave8_cfg_conftest_import_error": "the conftest imports a module that does not exist",
    "wave8_cfg_conftest_relative_import": "the conftest's relative import fails",
    "wave8_cfg_ini_duplicate_key": "pytest refuses an ini file with a key twice",
    "wave8_cfg_ini_log_level_invalid_name": "pytest refuses a log level that is no level name",
    "wave8_cfg_ini_minversion_too_new": "pytest refuses a minversion newer than itself",
    "wave8_cfg_ini_parse_error_stray_line": "pytest refuses an ini file it cannot parse",
    "wave8_cfg_pyproject_both_tables_refused": "pytest refuses both pytest tables",
    "wave8_cfg_pyproject_toml_syntax_error": "pytest refuses a pyproject.toml it cannot parse",
    "wave8_ut_bare_unittest_main_at_module_level": "unittest.main() exits while pytest imports the file",
    "uncollected_file_counts_no_checks": "unittest.main() exits while pytest imports the file",
    "wave8_cfg_ini_log_level_changes_candidate": "the root logger's level set by the ini fails the reference",
    "wave8_ut_test_method_returns_value_error_filter": "unittest's DeprecationWarning under an error filter",
}


def _passes_nothing(case) -> bool:
    """For a `PYTEST_PASSES_NOTHING` fixture: pytest passes none of its tests, and no kept check passes
    with the reference (none is kept, or each errors as pytest's run does)."""
    if case["folder"].name not in PYTEST_PASSES_NOTHING:
        return False
    reference = case["runs"][0]["pytest"]
    passed = [t["name"] for t in reference["tests"] if t["outcome"] == "passed"]
    assert not passed, f"pytest passed {passed}, which the fixture says it cannot"
    truthy = [e for e in case["runs"][0]["evals"] if e.get("outcome") == "pass"]
    assert not truthy, f"a kept check passes where pytest passes nothing: {truthy}"
    return True


@pytest.fixture(scope="module", params=CASES)
def case(request):
    m = fx.measure(request.param, "full", capture=True)
    reference = m["runs"][0]
    assert reference["label"] == "solution.py"
    assert reference["pytest"] is not None, "the reference solution timed out under pytest"
    lies = [lie for run in m["runs"] if run["lies"] for lie in run["lies"]]
    hand = sum(run["label"].startswith("mutant") for run in m["runs"])
    capture = sum(run["label"] == fx.CAPTURE_LABEL for run in m["runs"])
    print(f"\n{m['folder'].name}: {m['kept']} kept of {len(m['extraction']['assertions'])}; "
          f"{len(m['runs']) - 1 - capture} mutants ({hand} hand-written){' and the capture candidate' if capture else ''}; "
          f"{sum(lie['kind'] == 'false fail' for lie in lies)} false fails, "
          f"{sum(lie['kind'] == 'phantom pass' for lie in lies)} phantom passes")
    return m


def _lies(m, which):
    runs = [r for r in m["runs"] if which(r["label"])]
    found = []
    for run in runs:
        for lie in run["lies"] or []:
            found.append(fx.describe(m["folder"], run["label"], lie))
    return runs, found


def test_reference_passes_pytest(case):
    if _passes_nothing(case):
        return
    reference = case["runs"][0]["pytest"]
    bad = {t["name"]: (t["outcome"], t["crash"]) for t in reference["tests"]
           if t["outcome"] not in ("passed", "skipped", "xfailed", "deselected")}
    assert not reference["collection_errors"], reference["collection_errors"]
    assert reference["tests"], f"pytest collected nothing: {reference['output']}"
    assert not bad, bad


def test_every_hand_written_mutant_fails_pytest(case):
    if _passes_nothing(case):
        return
    hand = [r for r in case["runs"] if r["label"].startswith("mutant")]
    for run in hand:
        assert run["pytest"] is not None, f"{run['label']} timed out under pytest"
        failed = [t["name"] for t in run["pytest"]["tests"] if t["outcome"] in ("failed", "error")]
        # A file pytest cannot collect with this solution (an imported name it lacks) fails too.
        failed += run["pytest"]["collection_errors"]
        assert failed, f"{case['folder'].name}/{run['label']} passes every test: it catches nothing"


def test_evaluations_match_kept_assertions(case):
    for run in case["runs"]:
        assert len(run["evals"]) == case["kept"], (run["label"], len(run["evals"]), case["kept"])


def test_assertion_test_ids_are_pytest_node_ids(case):
    if _passes_nothing(case):
        return
    reference = case["runs"][0]["pytest"]
    collected = {t["name"] for t in reference["tests"]}
    # A parametrize whose cases cannot be known is reported once, under the function's own id.
    unexpandable = {a["test"] for a in case["extraction"]["assertions"]
                    if (a.get("reason") or "").startswith("parametrize on line")}
    # `-p no:unittest`: the dropped entries of `TestCase` classes say pytest does not collect them
    # (the extractor does not turn its unittest collection off; a known over-report, not a lie).
    unexpandable |= {a["test"] for a in case["extraction"]["assertions"]
                     if a["status"] == "dropped"
                     and "without it pytest does not collect their tests" in (a.get("reason") or "")}
    unknown = sorted({a["test"] for a in case["extraction"]["assertions"]} - collected - unexpandable)
    assert not unknown, f"not collected by pytest: {unknown}; pytest has {sorted(collected)}"


def test_stub_fails_every_kept_assertion(case):
    folder = case["folder"]
    if not (folder / "stub.py").exists():
        pytest.skip("fixture without a stub")
    exprs = [a["expr"] for a in fx.kept(case["extraction"])]
    evals = fx.run_evals((folder / "stub.py").read_text(), exprs, folder, fx.bindings_of(case["extraction"]),
                         fx.filters_of(case["extraction"]))
    assert len(evals) == len(exprs)
    passing = [(a["test"], a["line"], a["expr"]) for a, r in zip(fx.kept(case["extraction"]), evals, strict=True)
               if r["outcome"] == "pass"]
    assert not passing, passing


def test_no_lie_on_the_reference(case):
    _, lies = _lies(case, lambda label: label == "solution.py")
    assert not lies, "\n".join(lies)


def _stated(case, label) -> bool:
    return (case["folder"].name, label) in STATED


def test_no_lie_on_mutants(case):
    runs, lies = _lies(case, lambda label: label not in ("solution.py", fx.CAPTURE_LABEL) and not _stated(case, label))
    if any(not _stated(case, p.name) for p in case["folder"].glob("mutant*.py")):
        checked = [r for r in runs if r["label"].startswith("mutant") and r["lies"] is not None]
        assert checked, f"{case['folder'].name} has mutant*.py but none was checked"
    assert not lies, "\n".join(lies)


def test_stated_limits_still_lie_and_only_by_failing(case):
    stated = [r for r in case["runs"] if _stated(case, r["label"])]
    if not stated:
        pytest.skip("no mutant of this case shows a stated limit")
    for run in stated:
        limit = STATED[(case["folder"].name, run["label"])]
        assert run["lies"], f"{case['folder'].name}/{run['label']} no longer lies ({limit}): take it off STATED"
        phantom = [fx.describe(case["folder"], run["label"], lie) for lie in run["lies"] if lie["kind"] != "false fail"]
        assert not phantom, "\n".join(phantom)


def test_every_stated_mutant_exists():
    missing = [f"{folder}/{label}" for folder, label in STATED
               if not (fx.ROOT / "tests" / "fixtures" / folder / label).exists()]
    assert not missing, missing


def test_no_lie_on_the_capture_candidate(case):
    """Issue 25: a candidate that defines wrong builtins of its own (those the test file names and the
    reference does not use) and a refusing `__import__` gets exactly pytest's verdicts."""
    runs = [r for r in case["runs"] if r["label"] == fx.CAPTURE_LABEL]
    if not runs:
        pytest.skip("nothing to capture: the reference uses every builtin the test file names, and __import__")
    assert runs[0]["pytest"] is not None, "the capture candidate timed out under pytest"
    _, lies = _lies(case, lambda label: label == fx.CAPTURE_LABEL)
    assert not lies, "\n".join(lies)


def test_capture_candidate_redefines_what_the_test_names_and_the_reference_does_not_use(tmp_path):
    (tmp_path / "solution.py").write_text(
        "import math\n"
        "def top(xs, k):\n    return sorted(xs, reverse=True)[:k]\n"
        "def area(r):\n    return math.pi * r * r\n"
    )
    (tmp_path / "test_top.py").write_text(
        "from solution import *\n"
        "def test_top():\n    assert sorted(top([3, 1, 2], 2)) == [2, 3]\n"
        "def test_len():\n    res = top([1], 1)\n    assert len(res) == 1 and isinstance(res, list)\n"
        "    print(res)\n    assert __name__ != 'x' and math.pi > 3\n"
    )
    # `sorted` is the reference's own; dunders are the module's; `math` and `res` are no builtins.
    assert fx.captured_names((tmp_path / "test_top.py").read_text(), (tmp_path / "solution.py").read_text()) == [
        "isinstance", "len", "list", "print", "__import__"]
    source = fx.capture_candidate(tmp_path)
    namespace = {"__name__": "solution"}
    exec(compile(source, str(tmp_path / "solution.py"), "exec"), namespace)
    assert namespace["top"]([3, 1, 2], 2) == [3, 2]  # the reference's functions still behave
    assert namespace["len"]([1, 2]) == ["captured"] and namespace["print"]("x") == ["captured"]
    with pytest.raises(ImportError, match="captured"):
        namespace["__import__"]("math")
    # A reference that uses every name the file names, and spells __import__, has nothing to capture.
    (tmp_path / "solution.py").write_text("def f(xs):\n    return __import__('math').fsum(xs)\n")
    (tmp_path / "test_top.py").write_text("from solution import f\ndef test_f():\n    assert f([1]) == 1\n")
    assert fx.capture_candidate(tmp_path) is None


# --------------------------------------------------------------------------- the judge itself


def _judged(outcome, fail_line, evals, lines=(3, 4, 6)):
    extraction = {"assertions": [
        {"test": "test_x", "line": line, "expr": f"e{line}", "status": "kept"} for line in lines
    ]}
    result = {"tests": [{"name": "test_x", "outcome": outcome, "fail_line": fail_line, "crash": "boom"}]}
    spans = {3: (3, True), 4: (5, True), 6: (6, False)}
    return [(lie["line"], lie["kind"]) for lie in fx.judge(extraction, result, [{"outcome": o, "error": None} for o in evals], spans)]


def test_judge_finds_false_fails_where_pytest_passed():
    assert _judged("passed", None, ["pass", "fail", "error"]) == [(4, "false fail"), (6, "false fail")]


def test_judge_finds_phantom_passes_at_and_after_the_failing_assert():
    # pytest failed at line 5 (inside the multi-line assert starting on line 4).
    assert _judged("failed", 5, ["pass", "pass", "pass"]) == [(4, "phantom pass"), (6, "phantom pass")]
    # the earlier top-level assert passed under pytest: false must be reported
    assert _judged("failed", 5, ["fail", "fail", "fail"]) == [(3, "false fail")]


def test_judge_treats_skips_xfails_errors_and_uncollected_tests_as_never_passing():
    for outcome in ("skipped", "xfailed", "error"):
        assert _judged(outcome, None, ["pass", "fail", "pass"]) == [(3, "phantom pass"), (6, "phantom pass")]
    extraction = {"assertions": [{"test": "test_gone", "line": 3, "expr": "True", "status": "kept"}]}
    lies = fx.judge(extraction, {"tests": []}, [{"outcome": "pass", "error": None}], {})
    assert [lie["kind"] for lie in lies] == ["phantom pass"]


def test_judge_accepts_failing_checks_when_the_solution_does_not_even_import():
    extraction = {"assertions": [{"test": "test_gone", "line": 3, "expr": "f()", "status": "kept"}]}
    assert fx.judge(extraction, {"tests": []}, [{"outcome": "error", "error": "NameError"}], {}) == []
    # But an id pytest does not collect while it collects others is still a lie.
    other = {"tests": [{"name": "test_other", "outcome": "passed"}]}
    lies = fx.judge(extraction, other, [{"outcome": "error", "error": "NameError"}], {})
    assert [lie["kind"] for lie in lies] == ["false fail"]


def test_judge_refuses_to_pair_unequal_counts():
    with pytest.raises(ValueError):
        _judged("passed", None, ["pass", "pass"])


def test_evaluation_uses_a_fresh_registered_module_per_assertion(tmp_path):
    (tmp_path / "solution.py").write_text("import sys\nCOUNT = [0]\ndef bump():\n    COUNT[0] += 1\n    return COUNT[0]\n")
    exprs = [
        "bump() == 1",
        "bump() == 1",  # a fresh module: the first evaluation left nothing behind
        "__name__ == 'solution' and __file__.endswith('solution.py') and __spec__.name == 'solution'",
        "sys.modules['solution'].bump is bump",
        "__import__('os').environ.setdefault('FAITHFUL_LEAK', '1') == '1'",
        "'FAITHFUL_LEAK' not in __import__('os').environ",  # nor in the process
        "next(x for x in iter(int, 1) if x)",  # never ends: the timeout stops it
    ]
    saved = fx.EVAL_TIMEOUT
    fx.EVAL_TIMEOUT = 1.0
    try:
        results = fx.run_evals((tmp_path / "solution.py").read_text(), exprs, tmp_path)
    finally:
        fx.EVAL_TIMEOUT = saved
    assert [r["outcome"] for r in results] == ["pass", "pass", "pass", "pass", "pass", "pass", "timeout"]


def test_evaluation_builds_version_2_namespaces(tmp_path):
    """drive.py's namespace is runner.build_namespace's: the real builtins, then the bindings."""
    (tmp_path / "solution.py").write_text(
        "COUNT = 0\n"
        "def bump():\n    global COUNT\n    COUNT += 1\n    return COUNT\n"
        "def sorted(*args, **kwargs):\n    return 'rigged'\n"
        "__builtins__ = {}\n"
    )
    bindings = [
        {"kind": "module", "name": "sol", "module": "solution"},
        {"kind": "attr", "name": "bump", "module": "solution", "attr": "bump"},
        {"kind": "attr", "name": "COUNT", "module": "solution", "attr": "COUNT"},
    ]
    exprs = [
        "bump() == 1 and COUNT == 0 and sol.COUNT == 1",  # attr: a snapshot; module: live
        "sorted([2, 1]) == [1, 2] and len('ab') == 2",  # the solution's `sorted` and `__builtins__` are not the test's
        "__import__('sys').modules['solution'] is sol and sol.__name__ == 'solution'",
        "sol.sorted([]) == 'rigged'",
    ]
    source = (tmp_path / "solution.py").read_text()
    results = fx.run_evals(source, exprs, tmp_path, bindings)
    assert [r["outcome"] for r in results] == ["pass"] * 4, results
    # Version 1 (no bindings): the solution's own globals, its `sorted`, and its `__builtins__ = {}`
    # hiding `len`.
    v1 = fx.run_evals(source, ["sorted([2, 1]) == [1, 2]", "len('ab') == 2"], tmp_path, None)
    assert [r["outcome"] for r in v1] == ["fail", "error"], v1
    assert v1[1]["error"] == "NameError: name 'len' is not defined"
    # A name the solution lacks errors every expression, as pytest fails to collect the file.
    missing = fx.run_evals(source, ["True", "True"], tmp_path, bindings + [
        {"kind": "attr", "name": "gone", "module": "solution", "attr": "gone"}])
    assert missing == [{"outcome": "error", "error": "ImportError: cannot import name 'gone' from 'solution'",
                        "phase": "solution"}] * 2


def _pytest_in(folder, files):
    for name, text in files.items():
        (folder / name).write_text(text)
    return fx.run_pytest(folder, files["solution.py"])


ADD = "def add(a, b):\n    return a + b\n"


def test_drive_takes_the_configuration_pytest_takes(tmp_path):
    """A tox.ini without a `[pytest]` section is no configuration to pytest: the setup.cfg's
    `[tool:pytest]` is, and its `filterwarnings = error` fails the test."""
    outcome = _pytest_in(tmp_path, {
        "solution.py": ADD + "import warnings\nwarnings.warn('old', DeprecationWarning)\n",
        "test_cfg.py": "def test_add():\n    from solution import add\n    assert add(2, 3) == 5\n",
        "tox.ini": "[tox]\nenvlist = py3\n",
        "setup.cfg": "[tool:pytest]\nfilterwarnings = error\n",
    })
    assert [(t["name"], t["outcome"]) for t in outcome["tests"]] == [("test_add", "failed")], outcome


def test_drive_records_no_test_when_pytest_refuses_to_start(tmp_path):
    """pytest refuses a setup.cfg with a plain `[pytest]` section before collecting anything: the
    run has no test (so a kept check is judged a phantom pass), rather than a crashed driver."""
    outcome = _pytest_in(tmp_path, {
        "solution.py": ADD,
        "test_cfg.py": "from solution import add\n\ndef test_add():\n    assert add(2, 3) == 5\n",
        "setup.cfg": "[pytest]\naddopts = -q\n",
    })
    assert outcome["tests"] == [], outcome
    assert "refused to start" in outcome["collection_errors"][0], outcome


def test_drive_fails_a_test_whose_subtest_failed(tmp_path):
    """pytest 9's subtests: a failed subtest fails its test, at the subtest's line."""
    outcome = _pytest_in(tmp_path, {
        "solution.py": ADD,
        "test_sub.py": (
            "from solution import add\n\n\n"
            "def test_sub(subtests):\n"
            "    for i in range(3):\n"
            "        with subtests.test(i=i):\n"
            "            assert add(i, 0) == 1\n"
        ),
    })
    [test] = outcome["tests"]
    assert (test["outcome"], test["fail_line"]) == ("failed", 7), test
    assert "assert 0 == 1" in test["crash"], test

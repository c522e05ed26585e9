"""The measurement must not lie: differential checks of the extractor against real pytest.

For every bench problem and every extractor fixture that has a `solution.py`:

* the reference solution passes pytest, and every kept assertion is truthy against it;
* the stub (bench problems) fails every kept assertion;
* every assertion's `test` is a node id pytest collected;
* for mutants of the solution (single-point changes to comparisons, arithmetic and integer
  constants): wherever pytest passes a test, every kept assertion of that test is truthy.

The last check is the contract's guarantee, tested against solutions nobody hand-picked.
"""

from __future__ import annotations

import pathlib

import pytest

import faithful as fx

PROBLEMS = sorted(p for p in (fx.ROOT / "problems").iterdir() if (p / "solution.py").exists())
FIXTURES = sorted(p for p in (fx.ROOT / "tests" / "fixtures").iterdir() if (p / "solution.py").exists())
MUTANTS_PER_SOLUTION = 4


def _test_file(folder: pathlib.Path) -> pathlib.Path:
    files = sorted(folder.glob("test_*.py"))
    assert files, f"no test_*.py in {folder}"
    return files[0]


CASES = [pytest.param(p, id=f"problems/{p.name}") for p in PROBLEMS] + [
    pytest.param(p, id=f"fixtures/{p.name}") for p in FIXTURES
]


@pytest.fixture(scope="module", params=CASES)
def case(request):
    folder = request.param
    test_path = _test_file(folder)
    extraction = fx.extract(test_path, slug=folder.name if folder.parent.name == "problems" else None)
    reference = fx.run_both(test_path, (folder / "solution.py").read_text(), extraction)
    assert reference is not None, "the reference solution timed out"
    return folder, test_path, extraction, reference


def test_reference_passes_pytest(case):
    _, _, _, reference = case
    bad = {n: o for n, o in fx.pytest_outcomes(reference).items() if o not in ("passed", "skipped", "xfailed")}
    assert not bad, bad


def test_every_kept_assertion_holds_for_the_reference(case):
    _, _, extraction, reference = case
    failing = [(a["test"], a["line"], a["expr"], r["outcome"], r["error"]) for a, r in fx.kept_outcomes(extraction, reference) if r["outcome"] != "pass"]
    assert not failing, failing


def test_assertion_test_ids_are_pytest_node_ids(case):
    _, _, extraction, reference = case
    collected = set(fx.pytest_outcomes(reference))
    # A parametrize whose cases cannot be known is reported once, under the function's own id.
    unexpandable = {a["test"] for a in extraction["assertions"] if (a.get("reason") or "").startswith("parametrize on line")}
    unknown = sorted({a["test"] for a in extraction["assertions"]} - collected - unexpandable)
    assert not unknown, f"not collected by pytest: {unknown}; pytest has {sorted(collected)}"


def test_stub_fails_every_kept_assertion(case):
    folder, test_path, extraction, _ = case
    if not (folder / "stub.py").exists():
        pytest.skip("fixture without a stub")
    stub = fx.run_both(test_path, (folder / "stub.py").read_text(), extraction)
    assert stub is not None
    passing = [(a["test"], a["line"], a["expr"]) for a, r in fx.kept_outcomes(extraction, stub) if r["outcome"] == "pass"]
    assert not passing, passing


def test_no_false_failure_on_mutants(case):
    folder, test_path, extraction, _ = case
    checked = 0
    for mutant in fx.mutants((folder / "solution.py").read_text(), MUTANTS_PER_SOLUTION):
        result = fx.run_both(test_path, mutant, extraction, timeout=30)
        if result is None:
            continue  # the mutant loops forever; pytest would time out too
        outcomes = fx.pytest_outcomes(result)
        for assertion, r in fx.kept_outcomes(extraction, result):
            if outcomes.get(assertion["test"]) == "passed":
                checked += 1
                assert r["outcome"] == "pass", (
                    f"false failure: pytest passes {assertion['test']} but the kept assertion "
                    f"`{assertion['expr']}` gives {r['outcome']} ({r['error']}) on mutant:\n{mutant}"
                )
    print(f"{folder.name}: {checked} kept assertions checked against pytest-passing mutant tests")

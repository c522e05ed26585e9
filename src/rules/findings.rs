//! Findings: file-level observations. Checks pytest may make that are no entry, and shapes of the
//! write-up seen in the file.

declare_rules! {
    family Findings, prefix "N", title "Findings",
    summary "File-level observations: checks pytest may make that are no entry, and shapes of the write-up seen in the file.";

    /// ## What it means
    /// An `assert` at module level runs once, when pytest imports the file; it is not a check of any test.
    ///
    /// ## Why it cannot be kept
    /// If it fails, every test of the file errors at collection: it belongs to no test id, so no entry can
    /// stand for it. The finding counts it as a check pytest makes that the extraction does not see.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// assert add(1, 1) == 2
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Move the assert into a test function.
    "001" AssertAtModuleLevel "assert-at-module-level",

    /// ## What it means
    /// An `assert` in a function of the test file that nothing in the file calls: pytest never runs it.
    ///
    /// ## Why it cannot be kept
    /// It is no check at all. A naive extractor that lifts it out of its function evaluates it with its
    /// parameters unbound and records a failure of correct code (the write-up's helper-assertion shape).
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def unused(x):
    ///     assert add(x, 0) == x
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Call the helper from a test, or delete it.
    "002" AssertInUncalledHelper "assert-in-uncalled-helper",

    /// ## What it means
    /// An `assert` in the function that loads the solution (`assert spec.loader is not None`).
    ///
    /// ## Why it cannot be kept
    /// It checks the harness, not the solution: no check of the solution is lost by not extracting it.
    ///
    /// ## Example
    /// ```python
    /// import importlib.util
    ///
    /// def _load_solution():
    ///     spec = importlib.util.spec_from_file_location("solution", "solution.py")
    ///     assert spec.loader is not None
    ///     module = importlib.util.module_from_spec(spec)
    ///     spec.loader.exec_module(module)
    ///     return module
    ///
    /// sol = _load_solution()
    ///
    /// def test_add():
    ///     assert sol.add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Nothing to do: the finding is for information.
    "003" AssertInLoader "assert-in-loader",

    /// ## What it means
    /// An `assert` in a function the file calls (a helper, a fixture) whose calls the extraction does not
    /// turn into entries.
    ///
    /// ## Why it cannot be kept
    /// pytest runs it as part of whatever calls the function; where that call is not a statement of a
    /// test the extractor replays (a call inside an expression, a fixture, another helper), no entry stands
    /// for it, and the finding counts it as unseen.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def check(f):
    ///     assert f(2, 3) == 5
    ///     return True
    ///
    /// def test_add():
    ///     assert check(add)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Call the helper as a statement of the test (`check(add)`), with its asserts at the top level of its
    /// body.
    "004" AssertInHelperNotSeen "assert-in-helper-not-seen",

    /// ## What it means
    /// At the write-up's first stage every `assert` is taken as written, wherever it is.
    ///
    /// ## Why it cannot be kept
    /// An assert outside a test, evaluated out of its function, leaks into the measurement. The stage
    /// reproduces the write-up's bug on purpose; the full stage does not.
    ///
    /// ## Example
    /// At the `as-written` stage:
    ///
    /// ```python as-written
    /// from solution import add
    ///
    /// def check(f):
    ///     assert f(2, 3) == 5
    ///
    /// def test_add():
    ///     check(add)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use the full stage.
    "005" AssertOutsideTestTakenAsCheck "assert-outside-test-taken-as-check",

    /// ## What it means
    /// The tests call solution names other than the problem's slug.
    ///
    /// ## Why it cannot be kept
    /// Nothing is dropped: the finding says that a solution which defines only the slug's name fails
    /// these tests, so the problem statement must name what the tests call.
    ///
    /// ## Example
    /// ```python
    /// from solution import shortest_path
    ///
    /// def test_path():
    ///     assert shortest_path({}, "a", "a") == ["a"]
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Name every called function in the statement, or call the function the slug names.
    "006" SlugNameMismatch "slug-name-mismatch",

    /// ## What it means
    /// A module the test file imported is read by dropped assertions, or by code they would replay.
    ///
    /// ## Why it cannot be kept
    /// The evaluator binds only what the contract lists; a module the evaluator does not make (a
    /// third-party package, a neighbour of the test file) may not be importable where it runs.
    ///
    /// ## Example
    /// ```python
    /// import numpy as np
    /// from solution import mean
    ///
    /// def test_mean():
    ///     assert mean([1, 2]) == np.float64(1.5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Compare with plain values, or with the standard library.
    "007" TestFileImportRead "test-file-import-read",

    /// ## What it means
    /// A test whose node ids the file alone does not tell.
    ///
    /// ## Why it cannot be kept
    /// The bench joins every check to pytest's outcome by id. An id the extractor cannot compute exactly
    /// would join to nothing, or to the wrong case, so no entry is emitted and the test's asserts are
    /// counted as unseen.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// def pytest_generate_tests(metafunc):
    ///     if "a" in metafunc.fixturenames:
    ///         metafunc.parametrize("a", [1, 2])
    ///
    /// def test_add(a):
    ///     assert add(a, 0) == a
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Parametrize with `@pytest.mark.parametrize` and values pytest names by their text (numbers,
    /// strings, `None`, booleans), or give the cases ids (`ids=[...]`, `pytest.param(..., id=...)`).
    "008" TestIdsUnknown "test-ids-unknown",

    /// ## What it means
    /// A test class derives from a base the file does not define, which may be a `unittest.TestCase`.
    ///
    /// ## Why it cannot be kept
    /// If the base is a `TestCase` from elsewhere, pytest runs the class's `test*` methods; the extractor
    /// cannot see what the base defines, so their checks are counted as unseen.
    ///
    /// ## Example
    /// ```python
    /// from base import BaseCase
    /// from solution import add
    ///
    /// class TestAdd(BaseCase):
    ///     def test_add(self):
    ///         self.assertEqual(add(2, 3), 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Derive from `unittest.TestCase` directly, or define the base in the file.
    "009" UnknownTestCaseBase "unknown-testcase-base",

    /// ## What it means
    /// A method of a `TestCase` that is not a test makes unittest checks (`self.assertEqual`) and a test
    /// calls it.
    ///
    /// ## Why it cannot be kept
    /// pytest makes these checks as part of the test that calls the method; calls of helper methods are
    /// not replayed, so the checks are counted as unseen.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     def check(self, a, b, total):
    ///         self.assertEqual(add(a, b), total)
    ///
    ///     def test_add(self):
    ///         self.check(2, 3, 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the checks in the test methods, or as a module-level helper the test calls as a statement.
    "010" UnittestHelperMethodChecks "unittest-helper-method-checks",

    /// ## What it means
    /// A method of a `TestCase` that is not a test makes unittest checks, and nothing in the file calls it.
    ///
    /// ## Why it cannot be kept
    /// pytest never makes these checks: there is nothing to keep, and nothing is lost.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     def unused(self):
    ///         self.assertEqual(add(2, 3), 5)
    ///
    ///     def test_add(self):
    ///         self.assertEqual(add(1, 1), 2)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Call the method from a test, or delete it.
    "011" UnittestHelperMethodUncalled "unittest-helper-method-uncalled",

    /// ## What it means
    /// An `assert` in a setup or teardown function that pytest calls itself around the tests:
    /// xunit-style (`setup_function`, `teardown_method`, `setup_module`, …) or unittest's
    /// (`tearDown`, `setUpClass`, …).
    ///
    /// ## Why it cannot be kept
    /// pytest runs it before or after each test it surrounds, and a failure there is that test's
    /// error; no entry replays it, so the finding counts it as unseen.
    ///
    /// ## Example
    /// ```python
    /// from solution import Stack
    ///
    /// STACK = Stack()
    ///
    /// def teardown_function():
    ///     assert STACK.size() == 0
    ///
    /// def test_push():
    ///     assert Stack().size() == 0
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Check the state at the end of each test, in the test.
    "012" AssertInSetupOrTeardown "assert-in-setup-or-teardown",

    /// ## What it means
    /// An `assert` in a function that module-level code calls: it runs when pytest imports the file.
    ///
    /// ## Why it cannot be kept
    /// At import it is no test's check: if it fails, every test of the file errors at collection.
    /// Its calls from tests, if any, are not extracted either, so the finding counts it as unseen.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def check(f):
    ///     assert f(2, 3) == 5
    ///
    /// check(add)
    ///
    /// def test_add():
    ///     assert add(1, 1) == 2
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Call the helper from a test, as a statement of the test.
    "013" AssertInHelperCalledAtImport "assert-in-helper-called-at-import",

    /// ## What it means
    /// A test (or a helper a test calls) makes checks that are neither `assert` statements nor
    /// unittest checks written as statements of the test: an assert method called inside a
    /// comprehension or a lambda (`map(self.assertTrue, xs)`), a mock's `assert_called_once_with`,
    /// the call forms of `pytest.raises` and `pytest.warns`, `pytest.fail`, `raise AssertionError`,
    /// an `assert` in a function nested in the test, a raises block in a helper.
    ///
    /// ## Why it cannot be kept
    /// pytest makes each of these checks, and a failure fails the test; the extractor turns none of
    /// them into an entry, so the finding counts them as unseen rather than staying silent.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import parse
    ///
    /// def test_parse():
    ///     pytest.raises(ValueError, parse, "x")
    ///     assert parse("1") == 1
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write each check as a statement of the test: `assert …`, `self.assertEqual(…)`, or a
    /// `with pytest.raises(…):` block over the call.
    "014" ChecksNotSeen "checks-not-seen",

    /// ## What it means
    /// pytest's configuration passes `--doctest-modules` (in `addopts`), and the test file holds
    /// doctest examples (`>>>` lines in a docstring of the module, a function, a class or a method).
    ///
    /// ## Why it cannot be kept
    /// With `--doctest-modules` pytest collects each docstring with examples as a test of the file
    /// (`test_x.py::test_x.helper`) and compares each example's output; a failure fails that test. The
    /// extractor extracts test functions only, so it counts each example as a check it does not see.
    ///
    /// ## Example
    /// ```python
    /// from solution import double
    ///
    /// def helper(n):
    ///     """
    ///     >>> double(21)
    ///     42
    ///     """
    ///     return double(n)
    ///
    /// def test_double():
    ///     assert helper(2) == 4
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// addopts = --doctest-modules
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Turn the examples into tests (`assert double(21) == 42`), or keep `--doctest-modules` out of
    /// the test run's configuration.
    "015" DoctestsNotSeen "doctests-not-seen",
}

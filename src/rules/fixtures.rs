//! Fixtures: Fixtures a test requests: where they are defined, what their bodies do, their scope and parameters.

declare_rules! {
    family Fixtures, prefix "F", title "Fixtures",
    summary "Fixtures a test requests: where they are defined, what their bodies do, their scope and parameters.";

    /// ## What it means
    /// The name of a fixture function is bound again later in the file.
    ///
    /// ## Why it cannot be kept
    /// pytest finds fixtures among the module's attributes after it imported the file: the later binding
    /// replaces the fixture (or registers another one under its name), so the `def` the extractor reads is
    /// not the fixture pytest hands the test.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.fixture
    /// def two():
    ///     return 2
    ///
    /// two = 3
    ///
    /// def test_add(two):
    ///     assert add(two, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Give the fixture a name nothing else binds.
    "001" FixtureRebound "fixture-rebound",

    /// ## What it means
    /// A fixture is registered under another name with `@pytest.fixture(name=...)`.
    ///
    /// ## Why it cannot be kept
    /// pytest registers the fixture under `name` and picks among fixtures of one name by the order of the
    /// module's attributes, not by where they are defined; the extractor does not follow that choice.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.fixture(name="two")
    /// def make_two():
    ///     return 2
    ///
    /// def test_add(two):
    ///     assert add(two, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Name the function as the fixture (`def two():`).
    "002" FixtureRegisteredUnderName "fixture-registered-under-name",

    /// ## What it means
    /// A fixture of the file does more than return (or yield) one expression.
    ///
    /// ## Why it cannot be kept
    /// pytest runs the whole body before the test (and after a `yield`, its teardown); the extractor
    /// replays a fixture only as the expression it returns.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import Stack
    ///
    /// @pytest.fixture
    /// def stack():
    ///     s = Stack()
    ///     s.push(1)
    ///     return s
    ///
    /// def test_pop(stack):
    ///     assert stack.pop() == 1
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Return one expression (`return Stack.of([1])`), or do the setup in the test.
    "003" FixtureDoesMoreThanReturn "fixture-does-more-than-return",

    /// ## What it means
    /// An autouse fixture runs before every test.
    ///
    /// ## Why it cannot be kept
    /// pytest runs it around each test whether the test requests it or not; it may change what the
    /// assertions read, and the extractor does not replay it.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// import solution
    /// from solution import count
    ///
    /// @pytest.fixture(autouse=True)
    /// def reset():
    ///     solution.COUNTER = 0
    ///
    /// def test_count():
    ///     assert count() == 1
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Request the fixture in the tests that need it, or do the setup in each test.
    "004" AutouseFixture "autouse-fixture",

    /// ## What it means
    /// A fixture has a scope wider than the function (`module`, `class`, `package`, `session`).
    ///
    /// ## Why it cannot be kept
    /// pytest makes its value once and hands the same object to several tests: a test may see it changed
    /// by another, which a check replayed on its own does not.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import Stack
    ///
    /// @pytest.fixture(scope="module")
    /// def stack():
    ///     return Stack()
    ///
    /// def test_empty(stack):
    ///     assert stack.is_empty()
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use function scope (the default), unless the tests mean to share the object.
    "005" FixtureWiderScope "fixture-wider-scope",

    /// ## What it means
    /// A fixture of the file has `params=`, and its body is more than the extractor runs for each param.
    ///
    /// ## Why it cannot be kept
    /// pytest runs every test that requests it once per param, with the value the body makes of it. The
    /// extractor expands the params into cases only when the body returns `request.param` or branches on
    /// it with literals (`pytest::fixture_body`); any other body it does not run.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import double
    ///
    /// @pytest.fixture(params=[1, 2])
    /// def n(request):
    ///     return request.param * 10
    ///
    /// def test_double(n):
    ///     assert double(n) == 2 * n
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Return `request.param` and compute in the test, or use `@pytest.mark.parametrize("n", [10, 20])`.
    "006" FixtureParametrized "fixture-parametrized",

    /// ## What it means
    /// The test requests a fixture defined in a conftest that the extractor cannot replay.
    ///
    /// ## Why it cannot be kept
    /// A conftest fixture is replayed only when it is function-scoped, its body is `return <value>` (or
    /// starts with `yield <value>`), and the value reads nothing but the fixtures it requests, the
    /// conftest's imports from the solution, its literal constants, the standard library and builtins:
    /// a helper or class of the conftest, `request`, or a body of several statements lives in the
    /// conftest's namespace, which the check does not have. What such a fixture's setup returns or
    /// changes is not in the check.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add(two):
    ///     assert add(two, 3) == 5
    /// ```
    ///
    /// ```python conftest.py
    /// import pytest
    ///
    /// def make_two():
    ///     return 2
    ///
    /// @pytest.fixture
    /// def two():
    ///     return make_two()
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Return one expression of what the conftest imports from the solution, the standard library and
    /// literals (`return Inventory(dict(STOCK))`), or define the fixture in the test file.
    "007" FixtureFromConftest "fixture-from-conftest",

    /// ## What it means
    /// A parametrized fixture calls `pytest.skip(...)` for this case's param.
    ///
    /// ## Why it cannot be kept
    /// pytest reports the case skipped: none of its asserts is a passing check.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import double
    ///
    /// @pytest.fixture
    /// def n(request):
    ///     if request.param == 0:
    ///         pytest.skip("zero")
    ///     return request.param
    ///
    /// @pytest.mark.parametrize("n", [0, 1], indirect=True)
    /// def test_double(n):
    ///     assert double(n) == 2 * n
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Leave the skipped value out of the parameters.
    "008" FixtureSkipsCase "fixture-skips-case",

    /// ## What it means
    /// Which way a parametrized fixture's body goes for this case depends on a value the file does not tell.
    ///
    /// ## Why it cannot be kept
    /// pytest takes the branch the condition selects at run time; the extractor cannot evaluate the
    /// condition, so it cannot tell what the fixture gives the test or whether it skips.
    ///
    /// ## Example
    /// ```python
    /// import os
    /// import pytest
    /// from solution import double
    ///
    /// @pytest.fixture
    /// def n(request):
    ///     if os.environ.get("FAST"):
    ///         pytest.skip("fast mode")
    ///     return request.param
    ///
    /// @pytest.mark.parametrize("n", [1], indirect=True)
    /// def test_double(n):
    ///     assert double(n) == 2
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Branch only on `request.param` and the file's literal constants.
    "009" FixtureBranchUnknown "fixture-branch-unknown",

    /// ## What it means
    /// The file defines xunit setup (`setup_module`, `setUpModule`, `setup_function`), which pytest runs
    /// before the tests.
    ///
    /// ## Why it cannot be kept
    /// pytest runs `setup_function` before each test and `setup_module` before the module's first (as
    /// autouse fixtures it makes of them); they may change what the assertions read, and the extractor
    /// does not replay them.
    ///
    /// ## Example
    /// ```python
    /// import solution
    /// from solution import count
    ///
    /// def setup_function():
    ///     solution.COUNTER = 0
    ///
    /// def test_count():
    ///     assert count() == 1
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Do the setup in each test.
    "010" XunitSetup "xunit-setup",

    /// ## What it means
    /// A fixture the test requests reads a module-level name that the test itself binds as a local.
    ///
    /// ## Why it cannot be kept
    /// pytest runs the fixture in its own function, where the name is the module's global. The check
    /// computes the fixture's value inside the test's fold, among the test's locals, where the name
    /// would be the test's local (unbound there, or another value).
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.fixture
    /// def two():
    ///     return add(1, 1)
    ///
    /// def test_add(two):
    ///     add = [two]
    ///     assert two == 2
    ///     assert add == [2]
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Rename the test's local, so that it does not share its name with a global the fixture reads.
    "011" FixtureReadsTestLocal "fixture-reads-test-local",

    /// ## What it means
    /// A fixture of the file reads one of its parameters that has a default value.
    ///
    /// ## Why it cannot be kept
    /// pytest requests only the parameters without a default (`getfuncargnames`): it calls the fixture
    /// without the others, which keep their default even where a fixture of that name exists. The check
    /// computes the fixture's value among the test's locals, where the name may be another fixture the
    /// test requests.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.fixture
    /// def two():
    ///     return 3
    ///
    /// @pytest.fixture
    /// def total(two=2):
    ///     return add(two, 3)
    ///
    /// def test_add(total):
    ///     assert total == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the value in the fixture's body (`return add(2, 3)`), or request the fixture without a default.
    "012" FixtureParameterDefault "fixture-parameter-default",

    /// ## What it means
    /// The test file binds the name of a conftest's fixture in a way the extractor does not read as a
    /// fixture: under an `if` or a `try`, by assignment (`pytest.fixture(f, name=...)`), by import, or
    /// by a star import of another module.
    ///
    /// ## Why it cannot be kept
    /// pytest hands a test the closest fixture of a name: any attribute of the test module that is a
    /// fixture, however it got there, overrides the conftest's. Replaying the conftest's fixture would
    /// check the test against a value pytest may never give it.
    ///
    /// ## Example
    /// ```python conftest.py
    /// import pytest
    ///
    /// @pytest.fixture
    /// def two():
    ///     return 2
    /// ```
    ///
    /// ```python
    /// import sys
    /// import pytest
    /// from solution import add
    ///
    /// if sys.version_info >= (3, 8):
    ///     @pytest.fixture
    ///     def two():
    ///         return 3
    ///
    /// def test_add(two):
    ///     assert add(two, 2) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Define the overriding fixture as a plain `@pytest.fixture` `def` at the top level of the test file.
    "013" FixtureNameBoundByFile "fixture-name-bound-by-file",
}

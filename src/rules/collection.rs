//! Collection: What pytest collects from the file and the ids it gives: parametrize, marks, skips, deselection, test classes.

declare_rules! {
    family Collection, prefix "C", title "Collection",
    summary "What pytest collects from the file and the ids it gives: parametrize, marks, skips, deselection, test classes.";

    /// ## What it means
    /// A parametrize value is a mutable object, and pytest may run the file's tests in another order
    /// than the file's, so which test first gets (and may change) the object is pytest's choice.
    ///
    /// ## Why it cannot be kept
    /// pytest evaluates a parametrize list once, when it imports the file, and hands the same object
    /// to every test that uses it. A parametrization wider than function scope (`scope="module"`,
    /// a fixture with `params=` and a wider scope), or one the file does not show, makes pytest
    /// reorder the tests to group its cases; an earlier test may then have changed the object before
    /// this one reads it, and the check's verdict depends on an order the file does not tell.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import push
    ///
    /// @pytest.fixture(scope="module", params=[1, 2])
    /// def n(request):
    ///     return request.param
    ///
    /// def test_size(n):
    ///     assert n in (1, 2)
    ///
    /// @pytest.mark.parametrize("stack", [[]])
    /// def test_push(stack):
    ///     assert push(stack, 1) == [1]
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Build the object in the test (`stack = []`), or parametrize with immutable values (tuples,
    /// numbers, strings) and make the mutable object from them inside the test.
    "001" ParamObjectReordered "param-object-reordered",

    /// ## What it means
    /// The test file sets `pytest_plugins`, which loads plugins for its tests.
    ///
    /// ## Why it cannot be kept
    /// A plugin's hooks and fixtures may skip, fail, rerun or change any test of the file; the
    /// extractor does not load them, so what pytest decides for a test is not in the file.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// pytest_plugins = ["helpers.plugin"]
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Drop `pytest_plugins` from the test file; write what the tests need in the file itself.
    "002" PluginsInTestFile "plugins-in-test-file",

    /// ## What it means
    /// A collected test contains `yield`: it is a generator.
    ///
    /// ## Why it cannot be kept
    /// pytest 9 refuses a generator test ("'yield' keyword is allowed in fixtures, but not in
    /// tests") and fails to collect the whole file: no test of it runs.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    ///
    /// def test_many():
    ///     for a in range(3):
    ///         yield add(a, 0)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Assert in the loop instead of yielding, or parametrize the test.
    "003" TestIsGenerator "test-is-generator",

    /// ## What it means
    /// The test's name is bound again after its `def` (`test_x = wrap(test_x)`).
    ///
    /// ## Why it cannot be kept
    /// pytest collects whatever the name holds once the module has run: a wrapper or a mark
    /// applied by a call may skip the test, run it differently or not at all. The extractor
    /// replays the `def`'s body, which may not be what pytest runs.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    ///
    /// test_add = pytest.mark.skip(reason="later")(test_add)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Apply marks as decorators on the `def`, and do not rebind the test's name.
    "004" TestNameRebound "test-name-rebound",

    /// ## What it means
    /// A later `def` with the same name replaces the test.
    ///
    /// ## Why it cannot be kept
    /// pytest collects a name once, from the module's final namespace: the earlier function is
    /// never run, so its checks are no checks at all.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    ///
    /// def test_add():
    ///     assert add(1, 1) == 2
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Give each test its own name.
    "005" TestRedefined "test-redefined",

    /// ## What it means
    /// The test is an `async def` function.
    ///
    /// ## Why it cannot be kept
    /// pytest does not run coroutines itself: without a plugin (pytest-asyncio, anyio) the test
    /// fails ("async def functions are not natively supported"), and with one, the plugin's event
    /// loop runs it. Neither is an expression evaluated on its own.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// async def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the test as a plain `def`; call `asyncio.run(...)` inside it if the solution is async.
    "006" AsyncTest "async-test",

    /// ## What it means
    /// The test has a decorator that is not a pytest mark (`@mock.patch(...)`, `@given(...)`, a
    /// retry wrapper).
    ///
    /// ## Why it cannot be kept
    /// pytest runs what the decorator returns: it may patch names, call the test many times with
    /// generated arguments, retry it or skip it. Replaying the function's body alone is not that.
    ///
    /// ## Example
    /// ```python
    /// from unittest import mock
    /// from solution import now_plus
    ///
    /// @mock.patch("solution.time", return_value=0)
    /// def test_now_plus(fake_time):
    ///     assert now_plus(5) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Drop the decorator and pass what it provided explicitly (a value, a stub object) to the
    /// solution.
    "007" TestDecorated "test-decorated",

    /// ## What it means
    /// The test, or one case of it, is marked `skip` or `skipif`.
    ///
    /// ## Why it cannot be kept
    /// pytest does not run a skipped test (with `skipif`, when its condition holds on the machine
    /// that runs it): its checks pass or fail nothing, so an entry would claim a check pytest does
    /// not make.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.skip(reason="not ready")
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Remove the mark once the test should run.
    "008" SkipMark "skip-mark",

    /// ## What it means
    /// The test, or one case of it, is marked `xfail`.
    ///
    /// ## Why it cannot be kept
    /// pytest expects the test to fail: a failing check counts as `xfailed` and a passing one as
    /// `xpassed` (a failure under `strict`), the opposite of what the check says on its own.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.xfail(reason="known bug")
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Remove the mark, or assert the failure itself (`with pytest.raises(...)`).
    "009" XfailMark "xfail-mark",

    /// ## What it means
    /// `indirect=` sends a case's value through a fixture of the file whose body the extractor
    /// cannot run for that value.
    ///
    /// ## Why it cannot be kept
    /// pytest hands the test what the fixture returns for the param, not the param itself. Where
    /// the fixture's body is not one the extractor evaluates with each value (it calls code,
    /// requests other fixtures, or comes after a fixture that runs code), the value the test sees
    /// is not known exactly.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import Stack
    ///
    /// @pytest.fixture
    /// def stack(request):
    ///     s = Stack()
    ///     s.push(request.param)
    ///     return s
    ///
    /// @pytest.mark.parametrize("stack", [1, 2], indirect=True)
    /// def test_top(stack):
    ///     assert stack.top() in (1, 2)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Parametrize the test with the values directly and build the object in the test.
    "010" FixtureParamNotReplayed "fixture-param-not-replayed",

    /// ## What it means
    /// `indirect=` sends a parametrize value through a fixture the test file does not define.
    ///
    /// ## Why it cannot be kept
    /// The fixture comes from a conftest.py or a plugin: what it makes of the value, which the test
    /// then receives, is not in the file.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import size
    ///
    /// @pytest.mark.parametrize("table", ["users"], indirect=True)
    /// def test_size(table):
    ///     assert size(table) == 0
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Parametrize with the values the test needs, without `indirect`.
    "011" IndirectFixtureNotInFile "indirect-fixture-not-in-file",

    /// ## What it means
    /// A parametrization has no cases (`argvalues` is empty).
    ///
    /// ## Why it cannot be kept
    /// pytest makes one case, `NOTSET`, and skips it (the default `empty_parameter_set_mark`): the
    /// test's checks never run.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.parametrize("a", [])
    /// def test_add(a):
    ///     assert add(a, 0) == a
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Give the parametrization its cases.
    "012" ParametrizeEmpty "parametrize-empty",

    /// ## What it means
    /// The file does not spell out a case's value (the list is built by code), so the extractor
    /// knows its id but cannot write the value into the check.
    ///
    /// ## Why it cannot be kept
    /// The check must read the very value pytest hands the case; a value computed at import is
    /// not written in the file, and recomputing it may not give the same object.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// BASE = [(1, 1), (2, 2)]
    ///
    /// @pytest.mark.parametrize("a, b", [*BASE, (3, 3)])
    /// def test_add(a, b):
    ///     assert add(a, 0) == b
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the cases out as a literal list in the decorator (or in a module-level constant it
    /// names).
    "013" ParamValueComputed "param-value-computed",

    /// ## What it means
    /// `@pytest.mark.usefixtures(...)` runs fixtures before the test.
    ///
    /// ## Why it cannot be kept
    /// The fixtures run for their effects (patching, state, files), which the extractor does not
    /// replay; what the assertion reads may depend on them.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.usefixtures("clean_db")
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Do the setup in the test itself, or drop it where the test does not need it.
    "014" UsefixturesNotReplayed "usefixtures-not-replayed",

    /// ## What it means
    /// A test class derives from another class (any base but `object`).
    ///
    /// ## Why it cannot be kept
    /// The base may define `setup_method`, autouse fixtures or attributes that pytest runs or reads
    /// before each test of the class (a base from another module, which the file does not show, or
    /// one of the file's); the extractor does not replay what a base runs before a test.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// class Base:
    ///     pass
    ///
    /// class TestAdd(Base):
    ///     def test_add(self):
    ///         assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the tests as module-level functions, or as methods of a class without bases.
    "015" TestClassHasBase "test-class-has-base",

    /// ## What it means
    /// A test class has a setup method (`setup_method`, `setup_class`, …) or an autouse fixture that
    /// pytest runs before its tests.
    ///
    /// ## Why it cannot be kept
    /// pytest runs the setup before each test (`setup_method`, a function-scoped fixture) or once
    /// before the class's first (`setup_class`); it may set state the assertion reads. The extractor
    /// does not replay a class's setup.
    ///
    /// ## Example
    /// ```python
    /// from solution import Counter
    ///
    /// class TestCounter:
    ///     def setup_method(self):
    ///         self.c = Counter()
    ///
    ///     def test_start(self):
    ///         assert self.c.value == 0
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Build what the test needs in the test (`c = Counter()`).
    "016" ClassSetupNotReplayed "class-setup-not-replayed",

    /// ## What it means
    /// The file uses a misspelling of `parametrize` (`parametrise`, `parameterize`) as a mark.
    ///
    /// ## Why it cannot be kept
    /// pytest refuses it ("Unknown 'parametrise' mark, did you mean 'parametrize'?") and fails to
    /// collect the file: no test of it runs.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.parametrise("a", [1])
    /// def test_add(a):
    ///     assert add(a, 0) == a
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Spell it `parametrize`.
    "017" MarkMisspelled "mark-misspelled",

    /// ## What it means
    /// A fixture carries a mark (`@pytest.mark.…` on an `@pytest.fixture` function).
    ///
    /// ## Why it cannot be kept
    /// pytest 9 refuses marks on fixtures (`PytestRemovedIn9Warning`, an error): it fails to collect
    /// the file, and no test of it runs.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.fixture
    /// @pytest.mark.slow
    /// def two():
    ///     return 2
    ///
    /// def test_add(two):
    ///     assert add(two, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Put the mark on the tests, not on the fixture.
    "018" MarkOnFixture "mark-on-fixture",

    /// ## What it means
    /// The configuration makes marks strict (`--strict-markers`, `strict_markers`, `strict`), and
    /// the file uses a mark it does not register.
    ///
    /// ## Why it cannot be kept
    /// pytest fails to collect the file ("'slow' not found in `markers` configuration option"): no
    /// test of it runs.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.slow
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// addopts = --strict-markers
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Register the mark (`markers = slow: …`), or drop it.
    "019" MarkNotRegistered "mark-not-registered",

    /// ## What it means
    /// The configuration selects tests by marks (`-m`), checks them (strict markers) or needs the
    /// tests' `filterwarnings` marks, and the file applies marks in a way the extractor does not
    /// read (a mark applied by a call, `pytestmark` built by code, `pytest.mark` bound to a name).
    ///
    /// ## Why it cannot be kept
    /// Which marks a test carries decides whether pytest runs it and under which warning filters;
    /// without them, the verdict is not known.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// pytestmark: list = [pytest.mark.slow]
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// addopts = -m "not slow"
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Apply marks as decorators (`@pytest.mark.slow`) or in a literal `pytestmark = [...]`.
    "020" MarksNotReadable "marks-not-readable",

    /// ## What it means
    /// The configuration turns warnings into errors, and pytest issues one while it imports or
    /// collects the file: an unregistered mark, a `Test…` class with a constructor (the file's, or
    /// one a `from solution import …` may bring), a construct the compiler warns about.
    ///
    /// ## Why it cannot be kept
    /// Under an `error` filter the warning is an exception during collection: pytest fails to
    /// collect the file, and no test of it runs.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.slow
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings = error
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Remove the cause of the warning (register the mark, rename the class, fix the construct), or
    /// narrow the filter.
    "021" CollectionWarningIsError "collection-warning-is-error",

    /// ## What it means
    /// The configuration passes `-m EXPR`, and the test's marks do not match it.
    ///
    /// ## Why it cannot be kept
    /// pytest deselects the test: it does not run, so its checks are no checks.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.slow
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// markers = slow: slow tests
    /// addopts = -m "not slow"
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Drop the mark or the `-m` option if the test should run.
    "022" DeselectedByMarkExpression "deselected-by-mark-expression",

    /// ## What it means
    /// The configuration selects tests by marks (`-m`), and marks of the file's `pytest.param`
    /// cases may change whether a case is selected.
    ///
    /// ## Why it cannot be kept
    /// pytest selects each case by its own marks and the test's; the extractor does not follow
    /// which case carries which, so whether pytest runs this case is not known.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.parametrize("a", [1, pytest.param(2, marks=pytest.mark.slow)])
    /// def test_add(a):
    ///     assert add(a, 0) == a
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// markers = slow: slow tests
    /// addopts = -m "not slow"
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Mark whole tests rather than single cases where a `-m` option selects by that mark.
    "023" ParamMarksMayDeselect "param-marks-may-deselect",

    /// ## What it means
    /// A `filterwarnings` mark of the test has a filter pytest cannot apply (a malformed action or
    /// an unknown category).
    ///
    /// ## Why it cannot be kept
    /// When pytest reaches the test it cannot parse the filter and stops the whole run with a usage
    /// error ("while parsing the following warning configuration"): the test, and every test after
    /// it, gives no passing result.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.filterwarnings("explode::UserWarning")
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the filter as pytest documents it: `action:message:category:module:line`.
    "024" FilterwarningsMarkInvalid "filterwarnings-mark-invalid",

    /// ## What it means
    /// A `pytest.param` case of the file carries a `filterwarnings` mark that may turn warnings into
    /// errors.
    ///
    /// ## Why it cannot be kept
    /// pytest applies the case's filters around that case only; the extractor reads marks per
    /// test, not per case, so which filters hold for this case is not known.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.parametrize("a", [1, pytest.param(2, marks=pytest.mark.filterwarnings("error"))])
    /// def test_add(a):
    ///     assert add(a, 0) == a
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Put the `filterwarnings` mark on the test, or split the case into its own test.
    "025" ParamFilterwarningsMark "param-filterwarnings-mark",

    /// ## What it means
    /// The test's `filterwarnings` marks turn warnings into errors, and its check replays code that
    /// pytest ran when it imported the file (module-level code, a conftest's).
    ///
    /// ## Why it cannot be kept
    /// pytest ran that code once, at import, under the configuration's filters only; replayed in
    /// the check it would run under the test's marks too, and a warning it issues would fail a
    /// check that passes under pytest.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import make
    ///
    /// DATA = make(3)
    ///
    /// @pytest.mark.filterwarnings("error")
    /// def test_make():
    ///     assert DATA == [0, 1, 2]
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Build the value in the test, or drop the mark.
    "026" FilterwarningsMarkMissesImportCode "filterwarnings-mark-misses-import-code",

    /// ## What it means
    /// The test returns a value other than `None`, and its warning filters make
    /// `PytestReturnNotNoneWarning` an error.
    ///
    /// ## Why it cannot be kept
    /// pytest warns when a test returns something; under an `error` filter the warning fails the
    /// test whatever its asserts say.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    ///     return add(2, 3)
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings = error
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Do not return from tests.
    "027" TestReturnsValue "test-returns-value",

    /// ## What it means
    /// The test requests pytest's `recwarn` fixture while warning filters turn warnings into errors.
    ///
    /// ## Why it cannot be kept
    /// `recwarn` records every warning of the test (it puts `simplefilter("always")` before the
    /// filters), so no warning fails it; the check, evaluated under the filters, would fail where
    /// pytest passes.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add(recwarn):
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings = error
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Check warnings with `pytest.warns(...)` in a test of its own, and keep `recwarn` out of the
    /// others.
    "028" RecwarnRecordsWarnings "recwarn-records-warnings",

    /// ## What it means
    /// A parametrize value is a mutable object that pytest hands every case of the test, and
    /// another case may change it first.
    ///
    /// ## Why it cannot be kept
    /// pytest evaluates the parametrize list once, at import: the same object reaches each case
    /// that lists it, so an earlier case may have changed what this one reads. Rebuilt in the check,
    /// it would be fresh.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import push
    ///
    /// @pytest.mark.parametrize("n", [1, 2])
    /// @pytest.mark.parametrize("stack", [[]])
    /// def test_push(stack, n):
    ///     assert push(stack, n)[-1] == n
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Give each case its own object, or build it in the test from immutable values.
    "029" ParamObjectSharedBetweenCases "param-object-shared-between-cases",

    // 030 is retired (param-not-indexable, no input reaches it): see `rules::RETIRED`.

    /// ## What it means
    /// The test is a method of a test class and reads its instance (`self`), whose state is set up
    /// outside the test.
    ///
    /// ## Why it cannot be kept
    /// pytest makes a fresh instance of the class for each test and runs its setup; the extractor
    /// does not replay the class, so what `self` holds is not known.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// class TestAdd:
    ///     base = 2
    ///
    ///     def test_add(self):
    ///         assert add(self.base, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use module-level constants or locals of the test instead of attributes of the instance.
    "031" TestClassInstance "test-class-instance",

    /// ## What it means
    /// The test requests a fixture its test class defines.
    ///
    /// ## Why it cannot be kept
    /// A class's fixture runs with the class instance and may set up state; the extractor does not
    /// replay fixtures defined in classes.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// class TestAdd:
    ///     @pytest.fixture
    ///     def two(self):
    ///         return 2
    ///
    ///     def test_add(self, two):
    ///         assert add(two, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Define the fixture at module level.
    "032" ClassFixtureNotReplayed "class-fixture-not-replayed",

    /// ## What it means
    /// The check reads a fixture pytest itself provides (`tmp_path`, `capsys`, `monkeypatch`, …).
    ///
    /// ## Why it cannot be kept
    /// The fixture's object exists only inside pytest's run (a temporary directory it made, a
    /// capture it controls); an expression evaluated on its own has no such object.
    ///
    /// ## Example
    /// ```python
    /// from solution import write_and_read
    ///
    /// def test_roundtrip(tmp_path):
    ///     assert write_and_read(tmp_path / "f.txt", "hi") == "hi"
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Check what does not need the fixture in a test of its own.
    "033" PytestFixture "pytest-fixture",

    /// ## What it means
    /// The test requests a fixture the file does not give it (a conftest.py or a plugin may provide it).
    ///
    /// ## Why it cannot be kept
    /// The fixture's value, and whatever its setup changes, are not in the test file; and when nothing
    /// provides it (a fixture defined only in another class of the file), pytest errors the test.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add(two):
    ///     assert add(two, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Define the fixture in the test file, returning a plain value.
    "034" FixtureNotInFile "fixture-not-in-file",

    /// ## What it means
    /// The test's fixtures request fixtures more than 32 levels deep.
    ///
    /// ## Why it cannot be kept
    /// The extractor stops following a chain that long (a guard against runaway requests); the
    /// value at its end is not replayed.
    ///
    /// ## Example
    /// No short example: it takes a chain of 33 fixtures, each requesting the next.
    ///
    /// ## How to write it so it can be checked
    /// Build the value in fewer steps.
    "035" FixtureChainTooDeep "fixture-chain-too-deep",

    /// ## What it means
    /// The configuration turns off the escaping of ids
    /// (`disable_test_id_escaping_and_forfeit_all_rights_to_community_support`), and an id of the
    /// file is one pytest then cannot make: a `bytes` value (its id stays `bytes`), or any string
    /// when the key's value is not a truth value (`maybe`).
    ///
    /// ## Why it cannot be kept
    /// pytest fails the collection of the whole file (`TypeError: sequence item 0: expected str
    /// instance, bytes found`, or `ValueError: invalid truth value`) and runs none of its tests.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.mark.parametrize("data", [b"ab"])
    /// def test_size(data):
    ///     assert len(data) == 2
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// disable_test_id_escaping_and_forfeit_all_rights_to_community_support = true
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Give bytes values ids (`ids=["ab"]`, `pytest.param(b"ab", id="ab")`), write the key's value
    /// as `true` or `false`, or leave the key out.
    "036" IdEscapingRefusesFile "id-escaping-refuses-file",
}

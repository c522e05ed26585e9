//! unittest: `unittest.TestCase` classes as pytest runs them: setUp, tearDown, the assert methods.

declare_rules! {
    family Unittest, prefix "U", title "unittest",
    summary "`unittest.TestCase` classes as pytest runs them: setUp, tearDown, the assert methods.";

    /// ## What it means
    /// The `TestCase` class (or a base of it in the file) has a decorator.
    ///
    /// ## Why it cannot be kept
    /// A class decorator (`@unittest.skip(...)`, `@mock.patch(...)`, `@pytest.mark.…`) may skip every
    /// test of the class, patch names around them or expect them to fail; the extractor flattens a
    /// test with a plain `TestCase()` and nothing around it.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// @unittest.skip("later")
    /// class TestAdd(unittest.TestCase):
    ///     def test_add(self):
    ///         self.assertEqual(add(2, 3), 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Drop the decorator; skip nothing that should be checked.
    "001" TestCaseDecorated "testcase-decorated",

    /// ## What it means
    /// The `TestCase` class (or a base of it in the file) has several bases or a metaclass.
    ///
    /// ## Why it cannot be kept
    /// A mixin or a metaclass may add `setUp`, override assert methods or change how each test
    /// runs; the extractor reads single-inheritance chains of classes the file defines only.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class Helpers:
    ///     pass
    ///
    /// class TestAdd(Helpers, unittest.TestCase):
    ///     def test_add(self):
    ///         self.assertEqual(add(2, 3), 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Derive from `unittest.TestCase` alone; write helpers as module-level functions.
    "002" SeveralBasesOrMetaclass "several-bases-or-metaclass",

    /// ## What it means
    /// The class defines a name `unittest.TestCase` itself has (`assertEqual`, `run`, `addCleanup`,
    /// …), other than `setUp` and the message-only settings.
    ///
    /// ## Why it cannot be kept
    /// The class's own version replaces unittest's: a redefined `assertEqual` checks something
    /// else, a redefined `_callTestMethod` runs the test differently. The check as flattened calls
    /// unittest's.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     def assertEqual(self, a, b, msg=None):
    ///         super().assertEqual(round(a), round(b), msg)
    ///
    ///     def test_add(self):
    ///         self.assertEqual(add(2, 3), 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Give the helper its own name (`assertRoundedEqual`) and call it from the test, or use
    /// unittest's methods as they are.
    "003" RedefinesTestCaseMember "redefines-testcase-member",

    /// ## What it means
    /// The class defines a method, not one of `TestCase`'s own, that runs around every test:
    /// pytest's `setup_method`, `teardown_method`, `setup_class`, `teardown_class`, the async
    /// `asyncSetUp` and `asyncTearDown`, or one that changes how the instance is made or read
    /// (`__init__`, `__getattr__`, …).
    ///
    /// ## Why it cannot be kept
    /// pytest runs xunit-style setup and teardown methods around the tests of a `TestCase` too, and
    /// the others change the instance the test runs on; they may set state the assertion reads or
    /// fail the test. The extractor does not replay them.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     def setup_method(self, method):
    ///         pass
    ///
    ///     def test_add(self):
    ///         self.assertEqual(add(2, 3), 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Do the work inside each test, or drop a method that does nothing.
    "004" RunsAroundTests "runs-around-tests",

    /// ## What it means
    /// A method of the class that is not a test has a decorator (such as `@pytest.fixture`).
    ///
    /// ## Why it cannot be kept
    /// pytest runs an autouse fixture method around each test of a `TestCase`, and another wrapper
    /// may do anything; the extractor does not replay them.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// import pytest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     @pytest.fixture(autouse=True)
    ///     def prepare(self):
    ///         self.two = 2
    ///
    ///     def test_add(self):
    ///         self.assertEqual(add(2, 3), 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Do the setup in `setUp` with plain attribute assignments, or in the test.
    "005" DecoratedHelperMethod "decorated-helper-method",

    /// ## What it means
    /// The class body sets a dunder attribute (`__unittest_skip__ = True`, `__test__ = …`).
    ///
    /// ## Why it cannot be kept
    /// unittest and pytest read such attributes to skip the class, expect failures or not collect
    /// it at all; the extractor does not follow them.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     __unittest_skip__ = True
    ///
    ///     def test_add(self):
    ///         self.assertEqual(add(2, 3), 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Drop the attribute.
    "006" SetsDunderAttribute "sets-dunder-attribute",

    /// ## What it means
    /// The class body runs code when the file is imported (a call, a loop, an assignment of a
    /// computed value).
    ///
    /// ## Why it cannot be kept
    /// pytest runs the class body once, when it imports the file: its code may change state the
    /// tests read, and the attributes it makes are what the tests read through their instance. The
    /// extractor replays neither: it writes the instance as a plain `TestCase()`, which has none of
    /// them.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     pairs = list(zip([1, 2], [3, 4]))
    ///
    ///     def test_add(self):
    ///         self.assertEqual(add(2, 3), 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Compute the value at module level or in the test.
    "007" ClassBodyRunsCode "class-body-runs-code",

    /// ## What it means
    /// A `TestCase` method is decorated with `@pytest.mark.parametrize` and takes the parameters.
    ///
    /// ## Why it cannot be kept
    /// pytest does not parametrize unittest methods: it calls the method without those arguments,
    /// and the test fails with a `TypeError` before any check runs.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// import pytest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     @pytest.mark.parametrize("a", [1, 2])
    ///     def test_add(self, a):
    ///         self.assertEqual(add(a, 0), a)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Loop over the cases with `self.subTest(a=a)`, or write a pytest function outside the class.
    "008" ParametrizedMethod "parametrized-method",

    /// ## What it means
    /// A test method of a `TestCase` has a decorator (`@unittest.skip`, `@mock.patch`, …).
    ///
    /// ## Why it cannot be kept
    /// The decorator may skip the test, expect it to fail or patch names while it runs; the
    /// flattened check runs the body alone.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     @unittest.expectedFailure
    ///     def test_add(self):
    ///         self.assertEqual(add(2, 3), 6)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Drop the decorator and write the check for the behaviour wanted.
    "009" DecoratedTestMethod "decorated-test-method",

    /// ## What it means
    /// A test method is an `async def` (of an `IsolatedAsyncioTestCase`).
    ///
    /// ## Why it cannot be kept
    /// unittest runs it in an event loop of its own, with `asyncSetUp` and `asyncTearDown`; a check
    /// evaluated as one expression has no loop.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.IsolatedAsyncioTestCase):
    ///     async def test_add(self):
    ///         self.assertEqual(add(2, 3), 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the test as a plain method; run a coroutine of the solution with `asyncio.run(...)`.
    "010" AsyncTestMethod "async-test-method",

    /// ## What it means
    /// A test method takes no instance (no `self`), or parameters besides it.
    ///
    /// ## Why it cannot be kept
    /// unittest calls the method with its instance only: without `self` the call raises
    /// `TypeError`, and extra parameters without defaults are never given. The test errors before
    /// any check.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     def test_add(self, a):
    ///         self.assertEqual(add(a, 0), a)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Take `self` alone and bind the values inside the method.
    "011" TestMethodSignature "test-method-signature",

    /// ## What it means
    /// The class's `setUp` names its instance differently from the test, or the test uses a name
    /// `setUp` binds.
    ///
    /// ## Why it cannot be kept
    /// `setUp` is replayed in the same expression as the test: their names would share one scope,
    /// which the two methods do not.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import Counter
    ///
    /// class TestCounter(unittest.TestCase):
    ///     def setUp(this):
    ///         this.c = Counter()
    ///
    ///     def test_start(self):
    ///         self.assertEqual(self.c.value, 0)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Call the instance `self` in every method.
    "012" SetUpSharesNames "setup-shares-names",

    /// ## What it means
    /// The test reads something of its instance that is not one of unittest's checks nor an
    /// attribute set by the test or by `setUp` (a class attribute, a helper, `self` handed on).
    ///
    /// ## Why it cannot be kept
    /// The flattened check stands for the instance with a plain `unittest.TestCase()`, which has
    /// only unittest's own members; what the class gives its instances is not there.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     base = 2
    ///
    ///     def test_add(self):
    ///         self.assertEqual(add(self.base, 3), 5)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use module-level constants, or set the attribute in `setUp` or the test.
    "013" InstanceReadNotReplayed "instance-read-not-replayed",

    /// ## What it means
    /// The test (or `setUp`) calls a check method the class itself defines (`self.assertClose(...)`),
    /// named like unittest's checks but not one of them.
    ///
    /// ## Why it cannot be kept
    /// The plain `unittest.TestCase()` that stands for the instance has no such method, and its
    /// checks are the class's own code; the extractor does not bring the class's methods into the
    /// check.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     def assertClose(self, a, b):
    ///         self.assertAlmostEqual(a, b, places=3)
    ///
    ///     def test_add(self):
    ///         self.assertClose(add(0.1, 0.2), 0.3)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Call unittest's own check (`self.assertAlmostEqual(..., places=3)`) in the test.
    "014" CustomAssertMethod "custom-assert-method",

    /// ## What it means
    /// The class's `setUp` cannot be replayed before each test: it is not a plain method, binds
    /// local names, reads what the instance does not have, or calls the class's own methods.
    ///
    /// ## Why it cannot be kept
    /// unittest runs `setUp` before every test; the extractor replays it only when it sets
    /// attributes of the instance with code it can write into the check. Otherwise what it sets
    /// up is not known.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import Counter
    ///
    /// class TestCounter(unittest.TestCase):
    ///     def setUp(self):
    ///         c = Counter()
    ///         self.c = c
    ///
    ///     def test_start(self):
    ///         self.assertEqual(self.c.value, 0)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Set the attributes directly (`self.c = Counter()`), without locals or helper methods.
    "015" SetUpNotReplayable "setup-not-replayable",
}

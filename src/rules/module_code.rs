//! Module-level code: Code pytest runs when it imports the test file, its conftests and packages, before any test: module-level statements and imports.

declare_rules! {
    family ModuleCode, prefix "M", title "Module-level code",
    summary "Code pytest runs when it imports the test file, its conftests and packages, before any test: module-level statements and imports.";

    /// ## What it means
    /// The file takes names from the solution after module-level code that may change the solution.
    ///
    /// ## Why it cannot be kept
    /// pytest binds `from solution import X` when it reaches that line, after the code before it ran (and
    /// collects no test of the file when the import fails). The evaluator binds the solution's names
    /// before anything is replayed, so it would read `X` as it was before that code.
    ///
    /// ## Example
    /// ```python
    /// import solution
    ///
    /// solution.configure(fast=True)
    ///
    /// from solution import MODE
    ///
    /// def test_mode():
    ///     assert MODE == "fast"
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Import every name from the solution at the top of the file, and read what the code changes as
    /// `solution.X` in the test.
    "001" SolutionImportAfterModuleCode "solution-import-after-module-code",

    /// ## What it means
    /// A module-level import or function that a function of the file declares `global`, and so may
    /// rebind.
    ///
    /// ## Why it cannot be kept
    /// Whether the name still holds what the module bound depends on which functions ran before the
    /// assertion; a flattened check cannot tell.
    ///
    /// ## Example
    /// ```python
    /// import math
    /// from solution import area
    ///
    /// def use_fake():
    ///     global math
    ///     math = None
    ///
    /// def test_area():
    ///     assert area(1) == math.pi
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Do not rebind imports or helpers through `global`; pass what changes as an argument.
    "002" GlobalMayRebind "global-may-rebind",

    /// ## What it means
    /// The file has a syntax error: in a module-level statement (what the parser recovered is not what
    /// was written), or anywhere else, which drops the checks of every test.
    ///
    /// ## Why it cannot be kept
    /// pytest cannot import a file with a syntax error: it fails to collect the file and runs none of
    /// its tests, so no check of the file passes under pytest. Nothing a broken statement binds can
    /// be trusted either.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// TOTAL = add(2, 3
    ///
    /// def test_add():
    ///     assert TOTAL == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Fix the syntax error.
    "003" SyntaxErrorInStatement "syntax-error-in-statement",

    /// ## What it means
    /// A module-level name is bound by unpacking (`a, b = …`).
    ///
    /// ## Why it cannot be kept
    /// The extractor inlines only names bound by a plain `name = value`; what an unpacking binds depends
    /// on the value's iteration, which it does not replay.
    ///
    /// ## Example
    /// ```python
    /// import solution
    ///
    /// LOW, HIGH = solution.BOUNDS
    ///
    /// def test_low():
    ///     assert solution.is_valid(LOW)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Unpack in the test (`low, high = solution.BOUNDS`), or bind each name on its own line.
    "004" BoundByUnpacking "bound-by-unpacking",

    /// ## What it means
    /// A module-level name is bound inside a block (`if`, `try`, `for`, `while`, `with`).
    ///
    /// ## Why it cannot be kept
    /// Which value the name holds, or whether it is bound at all, depends on how the block ran when pytest
    /// imported the file.
    ///
    /// ## Example
    /// ```python
    /// import sys
    /// from solution import add
    ///
    /// if sys.maxsize > 2**32:
    ///     BIG = 10
    ///
    /// def test_add():
    ///     assert add(BIG, 1) == 11
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Bind the name with a plain assignment at module level.
    "005" BoundInBlock "bound-in-block",

    /// ## What it means
    /// The file calls `pytest.skip(...)`, `pytest.importorskip(...)` or `pytest.xfail(...)` at module level.
    ///
    /// ## Why it cannot be kept
    /// When `pytest.importorskip` does not find its module (or `pytest.skip(..., allow_module_level=True)`
    /// runs), pytest reports every test of the file skipped; `pytest.skip` without
    /// `allow_module_level=True` and `pytest.xfail` make it fail to collect the file. Either way none of
    /// its asserts is a passing check, and whether the call runs or skips depends on the environment
    /// pytest runs in.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// np = pytest.importorskip("numpy")
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Test without the optional dependency, or skip only the tests that need it.
    "006" ModuleLevelSkip "module-level-skip",

    /// ## What it means
    /// A module-level statement calls code when pytest imports the file, and that call cannot be replayed
    /// before each check.
    ///
    /// ## Why it cannot be kept
    /// pytest runs the call once, at import, before any test; it may change state a test reads (the
    /// solution's, the process's). Where the extractor cannot replay it as part of the check, the check
    /// would read state the call never made.
    ///
    /// ## Example
    /// ```python
    /// from solution import route, dispatch
    ///
    /// @route("/hello")
    /// def hello():
    ///     return "hi"
    ///
    /// def test_route():
    ///     assert dispatch("/hello") == "hi"
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Make the call in the test (`route("/hello")(hello)`), or in a fixture the test returns.
    "007" ImportCallsCode "import-calls-code",

    /// ## What it means
    /// A module-level statement stores into an object (`obj.attr = …`, `table[key] = …`) when pytest
    /// imports the file.
    ///
    /// ## Why it cannot be kept
    /// The store changes an object other code may share (the solution's module, one of its values), once,
    /// before any test; a check evaluated on its own does not see it.
    ///
    /// ## Example
    /// ```python
    /// from solution import greet
    ///
    /// class Settings:
    ///     pass
    ///
    /// Settings.greeting = Settings.name = "Hi"
    ///
    /// def test_greet():
    ///     assert greet("Bo") == "Hi, Bo"
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Set the value in the test (or with `monkeypatch`), so that the check states it.
    "008" ImportStoresIntoObject "import-stores-into-object",

    /// ## What it means
    /// A module-level augmented assignment, `del` or `global` changes a value when pytest imports the file.
    ///
    /// ## Why it cannot be kept
    /// `X += …` on a shared object changes it in place, and `del` unbinds a name, once, before any test;
    /// a check evaluated on its own does not see the change.
    ///
    /// ## Example
    /// ```python
    /// from solution import WORDS, count_words
    ///
    /// WORDS += ["extra"]
    ///
    /// def test_count():
    ///     assert count_words() == 4
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Build the value the test needs in the test.
    "009" ImportRebindsValue "import-rebinds-value",

    /// ## What it means
    /// A module-level statement operates on a value of the solution (`solution.PRIMES[0]`,
    /// `solution.N + 1`) when pytest imports the file.
    ///
    /// ## Why it cannot be kept
    /// The operation runs the candidate's code (`__getitem__`, `__add__`, `__hash__`) or raises at
    /// import, which fails the collection of every test; the evaluator binds names without running it.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// import solution
    ///
    /// @pytest.mark.skipif(solution.VERSION < 2, reason="needs v2")
    /// def test_new():
    ///     assert solution.is_prime(2)
    ///
    /// def test_old():
    ///     assert solution.is_prime(3)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Read the value inside the test (and skip there with `pytest.skip`, which the extractor follows
    /// for the test that calls it).
    "010" ImportOperatesOnSolution "import-operates-on-solution",

    /// ## What it means
    /// A module-level function or class is decorated by a decorator that may run code.
    ///
    /// ## Why it cannot be kept
    /// pytest applies the decorator when it imports the file, before any test: it is a call, which may
    /// change state or replace the function.
    ///
    /// ## Example
    /// ```python
    /// from solution import register, lookup
    ///
    /// @register
    /// def double(x):
    ///     return 2 * x
    ///
    /// def test_lookup():
    ///     assert lookup("double")(2) == 4
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Call the decorator in the test (`register(double)`), or leave the helper undecorated.
    "011" ImportAppliesDecorator "import-applies-decorator",

    /// ## What it means
    /// Creating a class of the file may run code: a metaclass or class arguments, a base whose
    /// `__init_subclass__` or metaclass runs when it is subclassed, or attributes whose `__set_name__` runs.
    /// For a class of tests (`class TestX(Base):` with `test…` methods) whose base the extractor
    /// cannot see into (imported from a neighbour module), the base most often brings setup: an
    /// inherited xunit `setup_method` or `setup_class`, unittest's `setUp`, an autouse fixture, which
    /// pytest runs before each of the class's tests; the reason says so.
    ///
    /// ## Why it cannot be kept
    /// Python runs those hooks when the `class` statement runs, at import, before any test; they may
    /// register the class or change state (a solution's registry), which a check evaluated on its own
    /// does not see. What a class of tests inherits from such a base runs before each of its tests,
    /// and the extractor does not see what it is.
    ///
    /// ## Example
    /// ```python
    /// from solution import Plugin, plugins
    ///
    /// class Echo(Plugin):
    ///     pass
    ///
    /// def test_registered():
    ///     assert "Echo" in plugins()
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Create the class in the test, or subclass only `object` and the standard library's plain classes.
    "012" ClassCreationRunsCode "class-creation-runs-code",

    /// ## What it means
    /// A module-level statement changes state every test shares: the solution module pytest imported
    /// once, or the process (its random generator, its environment).
    ///
    /// ## Why it cannot be kept
    /// pytest runs it once; every test then reads what it left, and what earlier tests changed after it.
    /// Replayed fresh for each check, it would not be the same state.
    ///
    /// ## Example
    /// ```python
    /// import random
    /// from solution import shuffle
    ///
    /// random.seed(0)
    ///
    /// def test_shuffle():
    ///     assert sorted(shuffle([1, 2, 3])) == [1, 2, 3]
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Set the state in the test that needs it (`random.seed(0)` as its first statement).
    "013" ChangesSharedState "changes-shared-state",

    /// ## What it means
    /// Module-level code runs before the file imports the solution.
    ///
    /// ## Why it cannot be kept
    /// The evaluator imports the solution before it replays anything; pytest runs this code first, and
    /// the code may change what the solution's import does (the path, the environment, a module the
    /// solution imports).
    ///
    /// ## Example
    /// ```python
    /// import os
    ///
    /// os.environ["MODE"] = "test"
    ///
    /// from solution import mode
    ///
    /// def test_mode():
    ///     assert mode() == "test"
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Import the solution first, and set what its functions read in the test.
    "014" CodeBeforeSolutionImport "code-before-solution-import",

    /// ## What it means
    /// A name (or fixture) is bound before `from solution import *`, which may replace it with whatever the
    /// candidate exports.
    ///
    /// ## Why it cannot be kept
    /// The star import binds every public name of the candidate's module, over the file's own; what the
    /// name holds afterwards depends on the candidate.
    ///
    /// ## Example
    /// ```python
    /// LIMIT = 10
    ///
    /// from solution import *
    ///
    /// def test_clip():
    ///     assert clip(20) == LIMIT
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Import the solution's names explicitly (`from solution import clip`), or bind the file's names
    /// after the star import.
    "015" BoundBeforeStarImport "bound-before-star-import",

    /// ## What it means
    /// A module-level literal the file changes later (`LIMITS.append(…)`, `CONFIG["x"] = …`).
    ///
    /// ## Why it cannot be kept
    /// A test sees the value after the change, not the literal as written; inlining the literal would
    /// check something else.
    ///
    /// ## Example
    /// ```python
    /// from solution import total
    ///
    /// ITEMS = [1, 2]
    ///
    /// def grow():
    ///     ITEMS.append(3)
    ///
    /// def test_total():
    ///     assert total(ITEMS) == 3
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Do not change module-level values; copy them in the function that changes them.
    "016" ConstantChangedLater "constant-changed-later",

    /// ## What it means
    /// A module-level name is assigned more than once, and bound elsewhere at module level by a statement
    /// the extractor does not replay.
    ///
    /// ## Why it cannot be kept
    /// Which value a test reads depends on every statement that binds the name, in order; the extractor
    /// inlines a name bound once, or replays every statement that binds it, and can do neither here.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// for N in range(3):
    ///     pass
    ///
    /// N = 1
    /// N = 2
    ///
    /// def test_add():
    ///     assert add(N, N) == 4
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Give each value its own name.
    "017" AssignedMoreThanOnce "assigned-more-than-once",

    /// ## What it means
    /// A module-level name holds a value the test file computes (a call, an expression over other names),
    /// not a literal, and a statement the extractor does not replay binds it too.
    ///
    /// ## Why it cannot be kept
    /// The value is made when pytest imports the file, in the test module's namespace; the evaluator's
    /// namespace is the solution's, where the name has a value only if every statement that binds it is
    /// replayed before the check.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// for SIZE in range(3):
    ///     pass
    ///
    /// SIZE = len("abc")
    ///
    /// def test_add():
    ///     assert add(SIZE, 0) == 3
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use a literal, or compute the value in the test.
    "018" ComputedByTestFile "computed-by-test-file",

    /// ## What it means
    /// A module-level iterator (`zip(…)`, `map(…)`, a generator expression) that several functions of
    /// the file read.
    ///
    /// ## Why it cannot be kept
    /// It is one object: the first test to iterate it consumes it, and the next sees it empty. Replayed
    /// fresh for each check it would not be empty.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// PAIRS = zip([1, 2], [3, 4])
    ///
    /// def test_first():
    ///     assert all(add(a, b) > 0 for a, b in PAIRS)
    ///
    /// def test_second():
    ///     assert list(PAIRS) == []
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Make it a list (`PAIRS = list(zip(…))`), or build the iterator in each test.
    "019" SharedIterator "shared-iterator",

    /// ## What it means
    /// A conftest or a package `__init__.py` that pytest imports before the test module does not parse.
    ///
    /// ## Why it cannot be kept
    /// pytest fails when it imports the file, so no test of the directory runs.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```python conftest.py
    /// def broken(:
    ///     pass
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Fix the syntax error.
    "020" ImportedFileDoesNotParse "imported-file-does-not-parse",

    /// ## What it means
    /// The test's package `__init__.py` runs code when pytest imports the package, before the test module.
    ///
    /// ## Why it cannot be kept
    /// pytest imports the package first (in its default `prepend` import mode); its code may change what
    /// the tests read, and the extractor does not replay it.
    ///
    /// ## Example
    /// No runnable example: the examples' harness gives a test file a conftest and a `pytest.ini`, not a
    /// package. A `tests/__init__.py` holding `import solution; solution.DEBUG = True` beside the test
    /// file gives this rule.
    ///
    /// ## How to write it so it can be checked
    /// Keep the package's `__init__.py` empty.
    "021" PackageInitRunsCode "package-init-runs-code",

    /// ## What it means
    /// A conftest's import-time code cannot be replayed before each check.
    ///
    /// ## Why it cannot be kept
    /// pytest imports the conftest before the test module and runs its module-level code once; the
    /// extractor replays that code in front of every check when it can be written as an expression,
    /// and here it cannot (a block, a `parametrize` list that calls code, a statement with no expression
    /// form).
    ///
    /// ## Example
    /// No runnable example: a conftest statement that the extractor would replay but whose flattening it
    /// then refuses is rare (the refusals come from the statement's flattening, such as a `parametrize`
    /// list in the conftest that calls code); the code that usually stops a conftest's replay is named by
    /// its own rule (`import-calls-code`, `changes-shared-state`).
    ///
    /// ## How to write it so it can be checked
    /// Keep the conftest to imports, fixtures and plain assignments; do setup in fixtures.
    "022" ConftestCodeNotReplayable "conftest-code-not-replayable",

    /// ## What it means
    /// A conftest's import-time code reads a name the replay cannot reproduce in the solution's namespace.
    ///
    /// ## Why it cannot be kept
    /// The replay runs in the namespace the evaluator gives the check, which holds the solution's names,
    /// not the conftest's imports of third-party modules or its own computed values.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```python conftest.py
    /// import solution
    /// import helpers
    ///
    /// helpers.setup()
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Do the setup in a fixture the tests request, or in the tests.
    "023" ConftestCodeReadsOutsideName "conftest-code-reads-outside-name",

    /// ## What it means
    /// Module-level code the check must replay reads a name that the test also binds as a local.
    ///
    /// ## Why it cannot be kept
    /// pytest ran the module-level statement once, at import, where the name meant the module's
    /// value. Replayed inside the check's expression, beside the test's own locals, the same name
    /// would read the test's local instead: the replay would not be what pytest ran.
    ///
    /// ## Example
    /// ```python
    /// from solution import Counter
    ///
    /// counter = Counter()
    /// counter.add(1)
    ///
    /// def test_count():
    ///     counter = Counter()
    ///     assert counter.total() == 0
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Give the test's local another name than the module's, or build the module-level object in a
    /// fixture.
    "024" ModuleCodeReadsTestLocal "module-code-reads-test-local",

    /// ## What it means
    /// An annotation of a helper (a function pytest neither collects as a test nor uses as a
    /// fixture), or of a module-level or class-level variable, reads an attribute of the solution.
    ///
    /// ## Why it cannot be kept
    /// Before Python 3.14 the annotation is evaluated when the file is imported: a candidate without
    /// the attribute makes pytest fail the collection of the whole file, so no test runs. From 3.14 on
    /// such an annotation is evaluated only when something asks for it (PEP 649), and pytest never
    /// does for a helper: the same candidate passes. No check is true exactly when pytest passes on
    /// both, so every check of the file is dropped. (A test's or a fixture's annotations are
    /// evaluated on every version, by pytest's signature of it: those are checked by the evaluator
    /// as a read of the attribute.)
    ///
    /// ## Example
    /// ```python
    /// import solution
    ///
    /// def make(text) -> solution.Result:
    ///     return solution.parse(text)
    ///
    /// def test_parse():
    ///     assert solution.parse("1,2") == [1, 2]
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Start the file with `from __future__ import annotations` (annotations are then never
    /// evaluated), or write the annotation as a string (`-> "solution.Result"`).
    "025" AnnotationReadsSolution "annotation-reads-solution",

    /// ## What it means
    /// A conftest makes a relative import at its top level (`from . import helpers`).
    ///
    /// ## Why it cannot be kept
    /// pytest imports every conftest before it collects the test file; when that import fails it stops
    /// with "ImportError while loading conftest" and runs no test. A conftest's absolute imports of
    /// modules other than the standard library, pytest and the solution are made by the evaluator too
    /// (an `import` binding), so a check errors where pytest would run nothing; a relative import
    /// names a module by the conftest's package, which the evaluator cannot import.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```python conftest.py
    /// from . import helpers
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Import the module absolutely, or keep the conftest's imports to the standard library, pytest and
    /// the solution.
    "026" ConftestImportMayFail "conftest-import-may-fail",

    /// ## What it means
    /// The test file calls `unittest.main()` at module level, outside `if __name__ == "__main__":`.
    ///
    /// ## Why it cannot be kept
    /// pytest imports the file to collect it; `unittest.main()` then parses pytest's command line, runs
    /// the test cases itself and exits with `SystemExit`, which fails the collection: pytest runs no
    /// test of the file, so no check pytest would make passes.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     def test_add(self):
    ///         self.assertEqual(add(2, 3), 5)
    ///
    /// unittest.main()
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Put the call under `if __name__ == "__main__":`, which does not run when pytest imports the file.
    "027" UnittestMainAtImport "unittest-main-at-import",

    /// ## What it means
    /// The test file's module-level code runs code (a call, a computed value) that the check replays,
    /// and pytest's configuration sets a log level (`log_level`, `log_cli_level`, `log_file_level`).
    ///
    /// ## Why it cannot be kept
    /// pytest imports the test file inside its collection's `catching_logs`, which, with a level
    /// configured, saves the root logger's level and restores it when the collection ends: a
    /// `logging.getLogger().setLevel(logging.DEBUG)` run by that code, directly or through the
    /// solution, is undone before any test runs. The check replays the code around the assert, where
    /// the level it sets stays for the assert. Without a configured level pytest restores nothing and
    /// the replay is kept.
    ///
    /// ## Example
    /// ```python
    /// import solution
    /// from solution import verbose
    ///
    /// solution.enable_debug()
    ///
    /// def test_quiet():
    ///     assert verbose() is False
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// log_level = INFO
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Do the set-up in the test (or a fixture), or leave the log level out of the configuration.
    "028" ModuleCodeUnderLogLevel "module-code-under-log-level",

    /// ## What it means
    /// A `conftest.py`'s import-time code that the check would replay uses the `logging` module.
    ///
    /// ## Why it cannot be kept
    /// pytest imports the conftests of the test's folder before its session starts
    /// (`pytest_load_initial_conftests`, before `pytest_configure` registers its logging plugin): the
    /// root logger has no handler of pytest's yet, so `logging.basicConfig(level=logging.DEBUG)` (or a
    /// first `logging.info(…)`) configures it, and the level stays for every test. The check replays
    /// that code around the assert, where pytest's handlers are on the root logger and `basicConfig`
    /// does nothing.
    ///
    /// ## Example
    /// ```python
    /// from solution import verbose
    ///
    /// def test_verbose():
    ///     assert verbose() is True
    /// ```
    ///
    /// ```python conftest.py
    /// import solution
    /// import logging
    ///
    /// logging.basicConfig(level=logging.DEBUG)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Configure logging in a fixture the test requests (`caplog.set_level`), or in pytest's
    /// configuration (`log_level`).
    "029" ConftestCodeUsesLogging "conftest-code-uses-logging",
}

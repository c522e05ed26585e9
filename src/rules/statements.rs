//! Statements in a test: Statements of a test body that the fold cannot replay inside one expression.

declare_rules! {
    family Statements, prefix "S", title "Statements in a test",
    summary "Statements of a test body that the fold cannot replay inside one expression.";

    /// ## What it means
    /// The check is inside a `for` loop that the extractor does not replay as a comprehension.
    ///
    /// ## Why it cannot be kept
    /// pytest runs the check once per iteration, or never when the iterable is empty; a check outside
    /// its loop would check one value, or a value the test never produced.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// class TestAdd(unittest.TestCase):
    ///     def test_add(self):
    ///         for a in [1, 2]:
    ///             self.assertEqual(add(a, 0), a)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write one `assert` per value, or `@pytest.mark.parametrize` the value. A loop over a literal that
    /// is not empty, whose body is plain statements and `assert`s (no `with`, `try`, `break`, and no
    /// assert inside an `if`), is replayed as one check.
    "001" AssertInForLoop "assert-in-for-loop",

    /// ## What it means
    /// The check is inside a `while` loop.
    ///
    /// ## Why it cannot be kept
    /// pytest runs it once per iteration, or never; how many times depends on state the loop changes,
    /// which no single expression replays.
    ///
    /// ## Example
    /// ```python
    /// from solution import halve
    ///
    /// def test_halve():
    ///     n = 8
    ///     while n > 1:
    ///         assert halve(n) == n // 2
    ///         n = halve(n)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Assert each expected value at the top level of the test, or parametrize the input.
    "002" AssertInWhileLoop "assert-in-while-loop",

    /// ## What it means
    /// The check is inside an `if` (or `elif`/`else`) branch.
    ///
    /// ## Why it cannot be kept
    /// pytest runs it only when that branch is taken; a standalone check would run it always, failing a
    /// correct solution on the path the test did not take.
    ///
    /// ## Example
    /// ```python
    /// import sys
    /// from solution import add
    ///
    /// def test_add():
    ///     if sys.maxsize > 2:
    ///         assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Assert unconditionally; to restrict a test to a platform, use `@pytest.mark.skipif`.
    "003" AssertInIf "assert-in-if",

    /// ## What it means
    /// The check is inside a `with` block (other than `pytest.raises`).
    ///
    /// ## Why it cannot be kept
    /// The context manager runs code before and after the check and may change what it sees or swallow
    /// its failure (`__exit__` returning true); one expression cannot enter and leave a context.
    ///
    /// ## Example
    /// ```python
    /// import io
    /// from solution import count_lines
    ///
    /// def test_count():
    ///     with io.StringIO("a\nb\n") as f:
    ///         assert count_lines(f) == 2
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Build the value without a context manager (`io.StringIO("a\nb\n")` as a plain assignment), then
    /// assert at the top level.
    "004" AssertInWithBlock "assert-in-with-block",

    /// ## What it means
    /// The check is inside a `try` statement.
    ///
    /// ## Why it cannot be kept
    /// An `except` may catch the check's failure, or run a handler instead of it; one expression has no
    /// exception handling.
    ///
    /// ## Example
    /// ```python
    /// from solution import parse
    ///
    /// def test_parse():
    ///     try:
    ///         assert parse("1") == 1
    ///     except ValueError:
    ///         pass
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Assert at the top level; to check an exception, use `with pytest.raises(E): f(x)`.
    "005" AssertInTry "assert-in-try",

    /// ## What it means
    /// The check is inside a `match` statement.
    ///
    /// ## Why it cannot be kept
    /// pytest runs it only when its case matches; an expression cannot spell the pattern's matching and
    /// binding.
    ///
    /// ## Example
    /// ```python
    /// from solution import pair
    ///
    /// def test_pair():
    ///     match pair():
    ///         case (a, b):
    ///             assert a < b
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Unpack with an assignment (`a, b = pair()`) and assert at the top level.
    "006" AssertInMatch "assert-in-match",

    /// ## What it means
    /// The check is inside a function or class defined in the test.
    ///
    /// ## Why it cannot be kept
    /// It runs only if something calls the function (or, in a class body, when the class is created);
    /// the extractor does not follow calls of nested functions.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     def check(a, b):
    ///         assert add(a, b) == a + b
    ///     check(2, 3)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Move the helper to module level and call it as a statement of the test (`check(2, 3)`), or
    /// assert directly.
    "007" AssertInNestedDefinition "assert-in-nested-definition",

    /// ## What it means
    /// The check is inside a `for` loop whose iterable may be empty.
    ///
    /// ## Why it cannot be kept
    /// Over an empty iterable pytest never runs the check: it neither passes nor fails, and no
    /// expression can stand for a check that does not run.
    ///
    /// ## Example
    /// ```python
    /// from solution import squares
    ///
    /// def test_squares():
    ///     for x in squares(3):
    ///         assert x >= 0
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Loop over a literal that is not empty, or first assert what the iterable holds
    /// (`assert squares(3) == [0, 1, 4]`).
    "008" AssertInPossiblyEmptyLoop "assert-in-possibly-empty-loop",

    // 009 is retired (async-for-loop, no input reaches it): see `rules::RETIRED`.

    /// ## What it means
    /// A `for` loop with an `else:` block runs before the check.
    ///
    /// ## Why it cannot be kept
    /// The `else:` block runs only when no `break` ends the loop; a comprehension has no `else`.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     total = 0
    ///     for a in [1, 2]:
    ///         total = add(total, a)
    ///     else:
    ///         total = add(total, 1)
    ///     assert total == 4
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Without a `break`, the `else:` block always runs: write its statements after the loop.
    "010" ForElse "for-else",

    /// ## What it means
    /// A `for` loop whose target is not plain names (`for obj.x in …`, `for d[k] in …`) runs before the
    /// check.
    ///
    /// ## Why it cannot be kept
    /// The loop is replayed as a comprehension that binds its names with `:=`, which takes a name only.
    ///
    /// ## Example
    /// ```python
    /// from solution import Box
    ///
    /// def test_box():
    ///     box = Box()
    ///     for box.value in [1, 2]:
    ///         pass
    ///     assert box.value == 2
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Loop over a name and assign inside the body (`for v in [1, 2]: box.value = v`).
    "011" LoopTargetNotNames "loop-target-not-names",

    /// ## What it means
    /// A `for` loop whose iterable binds a name with `:=` runs before the check.
    ///
    /// ## Why it cannot be kept
    /// Inside a comprehension's iterable an assignment expression is a syntax error.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     total = 0
    ///     for a in (xs := [1, 2]):
    ///         total = add(total, a)
    ///     assert total == 3 and len(xs) == 2
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Bind the iterable in a statement before the loop (`xs = [1, 2]`).
    "012" WalrusInLoopIterable "walrus-in-loop-iterable",

    /// ## What it means
    /// A `for` loop that may leave an iteration early (`break`, `continue`, `return`, `raise`) runs
    /// before the check, or holds it.
    ///
    /// ## Why it cannot be kept
    /// A comprehension runs every iteration to its end; it has no `break` or `continue`.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     total = 0
    ///     for a in [1, 2, 3]:
    ///         if a == 3:
    ///             break
    ///         total = add(total, a)
    ///     assert total == 3
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Loop over exactly the values wanted (`for a in [1, 2]:`).
    "013" LoopExitsEarly "loop-exits-early",

    /// ## What it means
    /// A `while` loop runs before the check.
    ///
    /// ## Why it cannot be kept
    /// How many times its body runs depends on state it changes; no expression repeats an arbitrary
    /// number of times exactly as the statement does.
    ///
    /// ## Example
    /// ```python
    /// from solution import Stack
    ///
    /// def test_stack():
    ///     s = Stack()
    ///     n = 0
    ///     while n < 3:
    ///         s.push(n)
    ///         n += 1
    ///     assert s.size() == 3
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use a `for` loop over a literal range (`for n in range(3): s.push(n)`), which is replayed.
    "014" WhileLoop "while-loop",

    /// ## What it means
    /// An `if` runs before the check whose branches hold an assert, a loop or a statement that cannot
    /// be replayed, or whose condition binds a name with `:=`.
    ///
    /// ## Why it cannot be kept
    /// An `if` is replayed as a conditional expression over its branches' statements; an assert or a
    /// block inside a branch has no such form.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     x = add(1, 1)
    ///     if x > 1:
    ///         assert x == 2
    ///     assert add(x, 1) == 3
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Keep asserts out of branches: assert unconditionally, or split the test.
    "015" IfNotReplayable "if-not-replayable",

    /// ## What it means
    /// A `with` block runs before the check.
    ///
    /// ## Why it cannot be kept
    /// The context manager's `__enter__` and `__exit__` run around the block; one expression cannot
    /// enter a context and leave it (or swallow an exception) as the statement does.
    ///
    /// ## Example
    /// ```python
    /// import io
    /// from solution import count_lines
    ///
    /// def test_count():
    ///     with io.StringIO("a\nb\n") as f:
    ///         n = count_lines(f)
    ///     assert n == 2
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Build the value without a context manager where that is the same (`f = io.StringIO(…)`).
    "016" WithBlock "with-block",

    /// ## What it means
    /// A `try` statement runs before the check.
    ///
    /// ## Why it cannot be kept
    /// Its handlers run when the block raises; an expression has no exception handling.
    ///
    /// ## Example
    /// ```python
    /// from solution import parse
    ///
    /// def test_parse():
    ///     try:
    ///         n = parse("1")
    ///     except ValueError:
    ///         n = None
    ///     assert n == 1
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Call the solution directly (`n = parse("1")`): an exception then fails the test, as it should.
    "017" TryBlock "try-block",

    /// ## What it means
    /// A `match` statement runs before the check.
    ///
    /// ## Why it cannot be kept
    /// An expression cannot spell a pattern's matching and binding.
    ///
    /// ## Example
    /// ```python
    /// from solution import pair
    ///
    /// def test_pair():
    ///     match pair():
    ///         case (x, y):
    ///             first = x
    ///     assert first == 1
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Unpack with an assignment (`first, second = pair()`).
    "018" MatchStatement "match-statement",

    /// ## What it means
    /// A function or class defined inside the test is used by the check, and it cannot be made in
    /// the check as the `def` or `class` statement makes it.
    ///
    /// ## Why it cannot be kept
    /// A `def` or `class` statement is not an expression. A function whose body is plain statements
    /// is replayed as a lambda given the `def`'s names, a class of `pass`, assignments and such
    /// methods through `types.new_class`; any other is made from its own source text, compiled
    /// inside a function named after the test whose parameters are the test's locals it reads, with
    /// the check's own closure cells (`types.FunctionType`, `__build_class__`). What that cannot
    /// reproduce is refused: an `assert` in the body (pytest rewrites it), `global`/`nonlocal` (its
    /// writes reach the test's scope), `globals()`, `eval` or `exec` (the check's globals hold the
    /// solution's names, not every name of the test module), reads of frames, source files or
    /// tracebacks (the check's code is not where pytest's is), annotations on the `def` itself, a
    /// local the test deletes, a mutable module constant, and a definition inside a test method
    /// (whose `__qualname__` names the class that defines the method).
    ///
    /// ## Example
    /// ```python
    /// from solution import apply
    ///
    /// def test_apply():
    ///     count = 0
    ///     def bump(x):
    ///         nonlocal count
    ///         count += 1
    ///         return x
    ///     assert apply(bump, 9) == 9
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Keep the state in an object the function changes (`calls.append(x)`) rather than rebinding a
    /// local of the test with `nonlocal`.
    "019" NestedDefinition "nested-definition",

    /// ## What it means
    /// A module imported inside the test (other than the solution or the standard library) is used by
    /// the check.
    ///
    /// ## Why it cannot be kept
    /// The check is evaluated in the solution's namespace, which need not have that module; importing it
    /// there may run code pytest ran elsewhere.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     import helpers
    ///     assert add(1, 1) == helpers.two()
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Compute the expected value in the test, from literals and the solution.
    "020" ImportInTest "import-in-test",

    /// ## What it means
    /// A `global` or `nonlocal` statement in the test.
    ///
    /// ## Why it cannot be kept
    /// It makes later assignments write the module's variable; the fold binds its names inside a lambda
    /// of its own, whose scope is not the test module's.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     global total
    ///     total = add(1, 1)
    ///     assert total == 2
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use a local variable.
    "021" GlobalDeclaration "global-declaration",

    /// ## What it means
    /// An assignment that no expression writes: several targets with an unpacking, a starred or nested
    /// target with attributes or items, an annotated assignment to an attribute.
    ///
    /// ## Why it cannot be kept
    /// An assignment expression binds one name; the extractor writes attribute and item stores, and
    /// unpackings into names, but not these shapes.
    ///
    /// ## Example
    /// ```python
    /// from solution import Point
    ///
    /// def test_point():
    ///     p = Point()
    ///     p.x, p.y = 1, 2
    ///     assert p.norm2() == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Assign one target per statement (`p.x = 1`, `p.y = 2`).
    "022" UnwritableAssignment "unwritable-assignment",

    /// ## What it means
    /// An augmented assignment (`+=`, …) whose target has parts that are not plain names or literals
    /// (`d[key()] += 1`, `a.b.c += 1`).
    ///
    /// ## Why it cannot be kept
    /// In an expression the target's parts would be evaluated twice (to read, then to store), where the
    /// statement evaluates them once.
    ///
    /// ## Example
    /// ```python
    /// from solution import Counter
    ///
    /// def test_counter():
    ///     c = Counter()
    ///     c.totals["a"] += 1
    ///     assert c.total("a") == 1
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Name the container first (`totals = c.totals; totals["a"] += 1`).
    "023" AugmentedTargetTwice "augmented-target-evaluated-twice",

    /// ## What it means
    /// A statement runs before the check that has no expression form (`del x[1:2]`, a bare annotation
    /// in a loop).
    ///
    /// ## Why it cannot be kept
    /// It may change what the check reads, and the extractor knows no exact expression for it.
    ///
    /// ## Example
    /// ```python
    /// from solution import total
    ///
    /// def test_total():
    ///     xs = [1, 2, 3]
    ///     del xs[1:]
    ///     assert total(xs) == 1
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Build the value directly (`xs = [1]`), or with a call (`xs.pop()`).
    "024" UnreplayableStatement "unreplayable-statement",

    /// ## What it means
    /// The check comes after a `return` or `raise` at the top level of the test.
    ///
    /// ## Why it cannot be kept
    /// pytest never runs it: it is no check.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(1, 1) == 2
    ///     return
    ///     assert add(2, 2) == 4
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Delete the dead code, or the `return`.
    "025" CodeAfterReturn "code-after-return",

    /// ## What it means
    /// The check comes after `pytest.fail(…)` or `pytest.exit(…)` at the top level of the test.
    ///
    /// ## Why it cannot be kept
    /// The call ends the test (or the session) there: pytest never runs the check.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// def test_add():
    ///     pytest.fail("not written yet")
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Delete the call, or mark the test `xfail` and remove it when the test is ready.
    "026" TestExitsEarly "test-exits-early",

    /// ## What it means
    /// The test runs more source before the check than the extractor replays inside one expression
    /// (16 KiB, the prelude included).
    ///
    /// ## Why it cannot be kept
    /// Replaying everything before each assert makes a long test's output grow with the square of its
    /// length; past the bound the check is reported rather than written.
    ///
    /// ## Example
    /// A runnable example would be a test of more than 16 KiB (hundreds of `put`/`assert` pairs), too
    /// long for this page.
    ///
    /// ## How to write it so it can be checked
    /// Split the long test into several short ones.
    "027" ReplayTooLong "replay-too-long",

    /// ## What it means
    /// The test binds a local under the name of a solution global the check reads.
    ///
    /// ## Why it cannot be kept
    /// The fold binds the test's locals in the namespace the check reads the solution's names from: the
    /// local would hide the solution's name, which the test itself reads from the module.
    ///
    /// ## Example
    /// ```python
    /// from solution import *
    /// import solution
    ///
    /// def test_add():
    ///     add = solution.add
    ///     r = [add(1)]
    ///     assert r == [2]
    ///     assert add(r[0]) == 3
    /// ```
    ///
    /// With the star import the namespace holds the solution's names bare; the second assert is
    /// folded (`r` is read twice), and the fold would bind `add := solution.add` where the namespace
    /// has the solution's `add`. (A fixture or a helper that reads a global the test binds as a local
    /// is refused first: `fixture-reads-test-local`, `helper-captures-local`.)
    ///
    /// ## How to write it so it can be checked
    /// Rename the local so that no solution name is hidden.
    "028" LocalHidesSolutionName "local-hides-solution-name",

    /// ## What it means
    /// The check reads a local that nothing before it binds on every path.
    ///
    /// ## Why it cannot be kept
    /// In pytest the read raises `UnboundLocalError` (or reads a binding from a block the extractor does
    /// not replay); no expression reproduces it.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(x, 1) == 2
    ///     x = 1
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Bind the name before the check, at the top level of the test.
    "029" LocalUnbound "local-read-before-bound",

    /// ## What it means
    /// The test calls `pytest.skip`, `pytest.xfail` or `pytest.importorskip`.
    ///
    /// ## Why it cannot be kept
    /// pytest then reports the whole test skipped or xfailed: none of its asserts is a passing check,
    /// wherever the call is.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    ///     pytest.skip("flaky")
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Remove the skip, or mark the test `@pytest.mark.skip` to leave it out deliberately.
    "030" TestCallsSkip "test-calls-skip",

    /// ## What it means
    /// The test raises `unittest.SkipTest` (or pytest's skip exception).
    ///
    /// ## Why it cannot be kept
    /// pytest then reports the whole test skipped: none of its checks passes.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    ///     raise unittest.SkipTest("later")
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Remove the `raise`.
    "031" TestRaisesSkip "test-raises-skip",

    /// ## What it means
    /// The test loads the solution module itself (again), or its import-time code ran on another load
    /// of the solution than the one the test reads.
    ///
    /// ## Why it cannot be kept
    /// Each load is a separate module object with its own state; the evaluator's one namespace cannot
    /// stand for two.
    ///
    /// ## Example
    /// ```python
    /// import importlib.util
    ///
    /// def load():
    ///     spec = importlib.util.spec_from_file_location("solution", "solution.py")
    ///     module = importlib.util.module_from_spec(spec)
    ///     spec.loader.exec_module(module)
    ///     return module
    ///
    /// def test_add():
    ///     a = load()
    ///     b = load()
    ///     assert a.add(1, 1) == b.add(1, 1)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Load the solution once, at module level, and read it there.
    "032" SolutionLoadedTwice "solution-loaded-twice",

    /// ## What it means
    /// The test has a syntax error.
    ///
    /// ## Why it cannot be kept
    /// pytest cannot import the file; what the parser recovered is not what was written.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(1, 1) ==
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Fix the syntax error.
    "033" SyntaxErrorInTest "syntax-error-in-test",

    /// ## What it means
    /// A name taken from pytest (`from pytest import mark`) is bound before `from solution import *`.
    ///
    /// ## Why it cannot be kept
    /// The star import may replace `pytest` with whatever the candidate exports: the test's marks,
    /// fixtures and raises blocks are then the candidate's.
    ///
    /// ## Example
    /// ```python
    /// from pytest import mark
    /// from solution import *
    ///
    /// @mark.parametrize("a", [1, 2])
    /// def test_add(a):
    ///     assert add(a, 0) == a
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write `import pytest` (a module import, which the evaluator keeps as it was) and `pytest.mark`, or
    /// import the solution's names by name.
    "034" PytestBeforeStarImport "pytest-before-star-import",

    /// ## What it means
    /// The check holds a comparison chain (`a < b < c`).
    ///
    /// ## Why it cannot be kept
    /// pytest's assertion rewriting evaluates every operand and every comparison of the chain, then
    /// joins the results; Python stops at the first false comparison. With operands that run code the
    /// two differ.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert 0 < add(1, 1) < 3
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Bind the value first and compare it in two asserts, or with `and`.
    "036" ChainedComparison "chained-comparison",

    /// ## What it means
    /// The check binds a name with `:=` and creates intermediate values whose release could be seen.
    ///
    /// ## Why it cannot be kept
    /// pytest's assertion rewriting keeps the assert's intermediate values alive until it is done, which
    /// one expression holds only in a lambda of its own, where the `:=` would bind the lambda's name,
    /// not the test's.
    ///
    /// ## Example
    /// ```python
    /// from solution import Handle, live
    ///
    /// def test_handles():
    ///     assert Handle().token == (n := live())
    ///     assert n == 0
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Bind the name in a statement before the assert.
    "037" WalrusInHeldAssert "walrus-in-held-assert",

    /// ## What it means
    /// The check reads a module the test file imports (not the solution, not the standard library).
    ///
    /// ## Why it cannot be kept
    /// The check is evaluated in the namespace the contract's bindings build: the builtins and what the
    /// test file takes from the solution and pytest. Another module the test file imports is not in it,
    /// and may not be importable where the evaluator runs.
    ///
    /// ## Example
    /// ```python
    /// import numpy as np
    /// from solution import mean
    ///
    /// def test_mean():
    ///     assert mean([1, 2, 3]) == np.mean([1, 2, 3])
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the expected value as a literal (`== 2.0`).
    "038" TestFileImport "test-file-import",

    /// ## What it means
    /// The check reads one of the test module's own special names (`__file__`, `__doc__`, …).
    ///
    /// ## Why it cannot be kept
    /// In the solution's namespace the same name is the solution module's, with another value.
    ///
    /// ## Example
    /// ```python
    /// from solution import stem
    ///
    /// def test_stem():
    ///     assert stem(__file__) == "test_example"
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the value as a literal.
    "039" TestModuleDunder "test-module-dunder",

    /// ## What it means
    /// A name the check reads may come from `from solution import *`, which runs after module-level
    /// code that may change the solution.
    ///
    /// ## Why it cannot be kept
    /// The evaluator binds the solution's names before anything is replayed; pytest binds them after that
    /// code ran, so the two may differ.
    ///
    /// ## Example
    /// ```python
    /// import solution
    ///
    /// solution.MODE = "fast"
    ///
    /// from solution import *
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Put the imports first, before any code that changes the solution.
    "040" StarImportAfterCode "star-import-after-code",

    /// ## What it means
    /// The check reads a name the test file does not define (and that is no builtin).
    ///
    /// ## Why it cannot be kept
    /// In pytest the read raises `NameError`; in the solution's namespace it might mean something else.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == expected
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Define the name, or import it from the solution.
    "041" UndefinedName "undefined-name",

    /// ## What it means
    /// The check calls `globals()`, `locals()`, `vars()`, `dir()`, `eval`, `exec` or `super()`.
    ///
    /// ## Why it cannot be kept
    /// These read the test's variables or globals by name at run time; a flattened expression has its
    /// locals inlined away and the solution's globals.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     x = add(1, 1)
    ///     assert locals()["x"] == 2
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Read the variable by name (`assert x == 2`).
    "042" FrameIntrospection "frame-introspection",

    /// ## What it means
    /// A loop iterates a mutable module constant that the test also reads elsewhere.
    ///
    /// ## Why it cannot be kept
    /// Both reads are one object in pytest: what runs before the loop may empty it, and then pytest never
    /// runs the check; a copy written out in the loop would not be emptied.
    ///
    /// ## Example
    /// ```python
    /// from solution import positive
    ///
    /// ITEMS = [1, 2]
    ///
    /// def test_items():
    ///     for x in ITEMS:
    ///         assert positive(x) and x in ITEMS
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Loop over a literal, or over a copy taken in the test.
    "043" SharedLoopIterable "shared-loop-iterable",

    /// ## What it means
    /// Writing a value out where it is read would let a name it reads be captured by a binding there
    /// (a comprehension variable, a lambda parameter).
    ///
    /// ## Why it cannot be kept
    /// The substituted expression would read another variable than the test did.
    ///
    /// ## Example
    /// ```python
    /// from solution import scale, factor
    ///
    /// def mul(x):
    ///     return x * factor
    ///
    /// def test_scale():
    ///     assert [mul(factor) for factor in range(2)] == scale(2)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Rename the comprehension's or lambda's variable so that it does not shadow the name.
    "044" CapturedName "captured-name",

    /// ## What it means
    /// The file uses a name that starts with `_bx_`, the prefix of the temporaries a kept expression
    /// binds (`_bx_p0` for a parametrize list, `_bx_raised` for a raises block).
    ///
    /// ## Why it cannot be kept
    /// The check's own temporary and the test's name would be one name: the check could read the
    /// test's value where it means its own, or the reverse.
    ///
    /// ## Example
    /// ```python
    /// from solution import double
    ///
    /// def test_double():
    ///     _bx_raised = 2
    ///     assert double(_bx_raised) == 4
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Rename the variable.
    "045" ReservedName "reserved-name",
}

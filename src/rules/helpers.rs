//! Checks in helpers: Asserts in functions of the test file that a test calls (`check(candidate)`).

declare_rules! {
    family Helpers, prefix "H", title "Checks in helpers",
    summary "Asserts in functions of the test file that a test calls (`check(candidate)`).";

    /// ## What it means
    /// The test calls a helper whose assert is inside a loop of the helper.
    ///
    /// ## Why it cannot be kept
    /// pytest runs that assert once per iteration, or never; a check of the call is written for the
    /// helper's top-level asserts only.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def check(f):
    ///     for a in [1, 2]:
    ///         assert f(a, 0) == a
    ///
    /// def test_add():
    ///     check(add)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the helper's asserts at the top level of its body, one per value.
    "001" HelperAssertInLoop "helper-assert-in-loop",

    /// ## What it means
    /// The test calls a helper whose assert is inside an `if` or `match` of the helper.
    ///
    /// ## Why it cannot be kept
    /// pytest runs it only on the path taken; a standalone check would run it always.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def check(f, strict):
    ///     if strict:
    ///         assert f(2, 3) == 5
    ///
    /// def test_add():
    ///     check(add, True)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Assert unconditionally in the helper, or in the test.
    "002" HelperAssertInBranch "helper-assert-in-branch",

    /// ## What it means
    /// The test calls a helper whose assert is inside a `with`, a `try`, or a function or class nested
    /// in the helper.
    ///
    /// ## Why it cannot be kept
    /// The block may change what the assert sees or swallow its failure; a nested function runs only if
    /// something calls it.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def check(f):
    ///     try:
    ///         assert f(2, 3) == 5
    ///     except TypeError:
    ///         pass
    ///
    /// def test_add():
    ///     check(add)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Assert at the top level of the helper's body.
    "003" HelperAssertNested "helper-assert-in-block",

    /// ## What it means
    /// The test calls a helper whose body runs, before the assert, a statement one expression cannot
    /// replay (a loop, an `if`, a `with`, an import of something other than the standard library).
    ///
    /// ## Why it cannot be kept
    /// The call is written as a lambda of the helper's statements, each an expression; that statement has
    /// none.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def check(f):
    ///     total = 0
    ///     for a in [1, 2]:
    ///         total = f(total, a)
    ///     assert total == 3
    ///
    /// def test_add():
    ///     check(add)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the helper's body as assignments, calls and asserts (`total = f(f(0, 1), 2)`).
    "004" HelperStatementNotReplayable "helper-statement-not-replayable",

    /// ## What it means
    /// The helper binds, after the assert, a name the assert reads.
    ///
    /// ## Why it cannot be kept
    /// The binding makes the name the function's local from its first line: where the assert reads it,
    /// it is unbound and the call raises, whatever the module binds under that name.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// LIMIT = 5
    ///
    /// def check(f):
    ///     assert f(2, 3) == LIMIT
    ///     LIMIT = 0
    ///
    /// def test_add():
    ///     check(add)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use another name for the local.
    "005" HelperBindsLate "helper-binds-after-assert",

    /// ## What it means
    /// A helper the check needs has annotations or defaults that run code when it is defined.
    ///
    /// ## Why it cannot be kept
    /// The `def` evaluated them once, at import; a lambda standing for it would evaluate them at each
    /// creation.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def check(f, xs=list()):
    ///     assert f(2, 3) == 5
    ///
    /// def test_add():
    ///     check(add)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use immutable literal defaults (`xs=()`) and plain annotations.
    "006" HelperSignatureRunsCode "helper-signature-runs-code",

    /// ## What it means
    /// A helper the check needs is not a plain function: `async`, generic (`def f[T]`) or decorated.
    ///
    /// ## Why it cannot be kept
    /// A lambda cannot await, and a decorator may replace the function with anything.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// async def five():
    ///     return 5
    ///
    /// def test_add():
    ///     assert add(2, 3) == five()
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Make the helper a plain `def`, without decorators.
    "007" HelperNotPlainFunction "helper-not-plain-function",

    /// ## What it means
    /// A helper the check needs declares a name `global` or `nonlocal`.
    ///
    /// ## Why it cannot be kept
    /// Its assignments then write the module's variable, which a lambda's walrus cannot.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// CALLS = 0
    ///
    /// def check(f):
    ///     assert f(2, 3) == 5
    ///     global CALLS
    ///     CALLS = 1
    ///
    /// def test_add():
    ///     check(add)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Keep state in the test, not in module globals.
    "008" HelperDeclaresGlobal "helper-declares-global",

    /// ## What it means
    /// A helper the check calls (in an expression) does more than assign names and `return` one value,
    /// and cannot be made from its own source either.
    ///
    /// ## Why it cannot be kept
    /// A helper is written out as a lambda of its assignments and its one `return`; a body with other
    /// statements (a loop, an `if`, a second `return`) is made from its own source text where the
    /// check calls it, compiled at its line with the namespace as its globals. What that cannot
    /// reproduce is refused: an `assert` in the body (pytest rewrites it; those are checks of the
    /// call), `global`/`nonlocal` (its writes reach the test module), reads of frames, source files
    /// or tracebacks, and a `def` that does not start its line at module level.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// calls = 0
    ///
    /// def expected(a, b):
    ///     global calls
    ///     calls += 1
    ///     return a + b
    ///
    /// def test_add():
    ///     assert add(2, 3) == expected(2, 3)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Count calls in an object the helper changes, or not at all: a helper that only computes its
    /// value is made from its source.
    "009" HelperBodyNotExpression "helper-body-not-expression",

    /// ## What it means
    /// A helper the check calls for its value also asserts.
    ///
    /// ## Why it cannot be kept
    /// Each assert of the helper is a check of the call itself; a call read for its value inside another
    /// check is not written out with them.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def two():
    ///     assert add(1, 1) == 2
    ///     return 2
    ///
    /// def test_add():
    ///     assert add(two(), 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Keep value helpers free of asserts, or call the asserting helper as a statement of the test.
    "010" HelperValueAsserts "helper-value-asserts",

    /// ## What it means
    /// A test-file helper whose asserts are checks of the test that calls it (`check(candidate)`)
    /// yields, awaits or binds a name with `:=`.
    ///
    /// ## Why it cannot be kept
    /// Such a helper is spelled as a lambda true when all its asserts pass; calling a generator runs
    /// none of its body, `await` has no place in a lambda, and `:=` in a lambda binds where the
    /// helper's body would not. (A helper the check only calls for its value is made from its own
    /// source instead: `helper-body-not-expression`.)
    ///
    /// ## Example
    /// ```python
    /// from solution import total
    ///
    /// def check(values):
    ///     assert total(values) == (n := len(values)) - n + 1
    ///
    /// def test_total():
    ///     check([1])
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Assign the name in a statement of its own (`n = len(values)`) before the assert.
    "011" HelperYields "helper-yields",

    /// ## What it means
    /// A helper the check needs calls itself (directly or through other helpers).
    ///
    /// ## Why it cannot be kept
    /// No single expression spells a recursive function without a name to call it by.
    ///
    /// ## Example
    /// ```python
    /// from solution import fib
    ///
    /// def ref(n):
    ///     return n if n < 2 else ref(n - 1) + ref(n - 2)
    ///
    /// def test_fib():
    ///     assert fib(10) == ref(10)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the expected value as a literal (`== 55`).
    "012" HelperRecursion "helper-recursion",

    /// ## What it means
    /// A helper the check needs calls `globals()`, `locals()`, `vars()`, `dir()`, `eval`, `exec`,
    /// `super()`, `compile` or `breakpoint`.
    ///
    /// ## Why it cannot be kept
    /// Their answer depends on the function's own globals or frame, which a lambda evaluated in the
    /// solution's namespace does not share with the `def`.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def expected(expr):
    ///     return eval(expr)
    ///
    /// def test_add():
    ///     assert add(2, 3) == expected("2 + 3")
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Compute the expected value without reading the frame.
    "013" HelperReadsFrame "helper-reads-frame",

    /// ## What it means
    /// A helper the check needs reads a mutable constant of the file (a list, a dict).
    ///
    /// ## Why it cannot be kept
    /// In pytest every call shares that one object; written out in the lambda it would be a new one at
    /// each call.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// SIZES = [1, 2]
    ///
    /// def first_size():
    ///     return SIZES[0]
    ///
    /// def test_add():
    ///     assert add(first_size(), 1) == 2
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Pass the list as an argument, or use an immutable constant (a tuple).
    "014" HelperSharedConstant "helper-shared-constant",

    /// ## What it means
    /// A parameter or local of a helper has the name of something its body reads from the module.
    ///
    /// ## Why it cannot be kept
    /// Written out as a lambda, the parameter would hide the global the body reads.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def inc(x):
    ///     return add(x, 1)
    ///
    /// def twice(add):
    ///     return inc(inc(add))
    ///
    /// def test_add():
    ///     assert twice(1) == 3
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Rename the parameter.
    "015" HelperNameClash "helper-name-clash",

    /// ## What it means
    /// Helpers call helpers more than eight deep.
    ///
    /// ## Why it cannot be kept
    /// The extractor stops writing helpers out there, to keep each expression bounded.
    ///
    /// ## Example
    /// A runnable example would need a chain of nine helpers, each calling the next; too long for this
    /// page.
    ///
    /// ## How to write it so it can be checked
    /// Flatten the chain of helpers.
    "016" HelpersTooDeep "helpers-too-deep",

    /// ## What it means
    /// The check uses a function of the test file other than by calling it (passes it, reads an
    /// attribute of it).
    ///
    /// ## Why it cannot be kept
    /// A lambda standing for it would show another `__name__`, `__doc__` and code object.
    ///
    /// ## Example
    /// ```python
    /// from solution import apply
    ///
    /// def double(x):
    ///     return 2 * x
    ///
    /// def test_apply():
    ///     assert apply(double, 3) == 6
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Pass a lambda written in the test (`apply(lambda x: 2 * x, 3)`).
    "017" HelperUsedOtherwise "helper-used-otherwise",

    /// ## What it means
    /// The check uses a class (or another object) the test file defines.
    ///
    /// ## Why it cannot be kept
    /// It is not part of the solution, and the evaluation namespace is the solution's; a class statement
    /// has no expression form.
    ///
    /// ## Example
    /// ```python
    /// from solution import area
    ///
    /// class Square:
    ///     side = 2
    ///
    /// def test_area():
    ///     assert area(Square()) == 4
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use a value the solution or the standard library builds (`types.SimpleNamespace(side=2)`).
    "018" TestFileClass "test-file-class",

    /// ## What it means
    /// The test calls a helper of the file that calls `pytest.skip`, `pytest.xfail` or
    /// `pytest.importorskip`.
    ///
    /// ## Why it cannot be kept
    /// When the helper skips, pytest reports the whole test skipped: none of its asserts is a passing
    /// check.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// def needs_fast():
    ///     pytest.skip("slow machine")
    ///
    /// def test_add():
    ///     needs_fast()
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use `@pytest.mark.skipif` on the test.
    "019" HelperCallsSkip "helper-calls-skip",

    /// ## What it means
    /// The test calls an asserting helper as a statement and also reads its name another way.
    ///
    /// ## Why it cannot be kept
    /// The helper is spelled as a check for its call statements; another read of its name cannot be told
    /// apart from that spelling.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def check(f):
    ///     assert f(2, 3) == 5
    ///
    /// def test_add():
    ///     name = check.__name__
    ///     check(add)
    ///     assert name == "check"
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Only call the asserting helper, as a statement.
    "020" HelperReadOtherwise "helper-read-otherwise",

    /// ## What it means
    /// The function that loads the solution is used other than as `loader()` or `loader().attr`.
    ///
    /// ## Why it cannot be kept
    /// Only a call of the loader is rewritten to the solution module; the loader itself is the test
    /// file's, not the solution's.
    ///
    /// ## Example
    /// ```python
    /// import importlib
    ///
    /// def load():
    ///     return importlib.import_module("solution")
    ///
    /// def test_add():
    ///     assert callable(load) and load().add(2, 3) == 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Call the loader (`sol = load()`) and use the module.
    "021" LoaderUsedOtherwise "loader-used-otherwise",

    /// ## What it means
    /// A helper written out for the check reads a global under the name of one of the test's locals.
    ///
    /// ## Why it cannot be kept
    /// The fold binds the test's locals in the expression: written out there, the helper would read the
    /// local instead of the global.
    ///
    /// ## Example
    /// ```python
    /// from solution import add, offset
    ///
    /// def plus(x):
    ///     return add(x, offset)
    ///
    /// def test_add():
    ///     offset = 5
    ///     assert plus(1) == add(1, offset)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Rename the test's local.
    "022" HelperCapturesLocal "helper-captures-local",
}

//! Expected exceptions and warnings: `pytest.raises`, `pytest.warns`, `assertRaises` blocks and their context objects.

declare_rules! {
    family Raises, prefix "R", title "Expected exceptions and warnings",
    summary "`pytest.raises`, `pytest.warns`, `assertRaises` blocks and their context objects.";

    /// ## What it means
    /// An `assert` inside a `pytest.raises`, `pytest.warns` or `pytest.deprecated_call` block.
    ///
    /// ## Why it cannot be kept
    /// pytest expects the block to raise or warn: the assert runs only if the statements before it did
    /// not raise, and its outcome is then tied to the block's own check (the `AssertionError` it raises
    /// may even be the exception expected). No standalone check stands for it.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import parse
    ///
    /// def test_parse():
    ///     with pytest.raises(ValueError):
    ///         parse("x")
    ///         assert False
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Put only the call that raises in the block; assert after it.
    "001" AssertInRaisesBlock "assert-in-raises-block",

    /// ## What it means
    /// A `pytest.warns` or `pytest.deprecated_call` block.
    ///
    /// ## Why it cannot be kept
    /// pytest records every warning the block emits (all filters set to "always") and re-emits those
    /// that do not match; unittest's `assertWarns`, the nearest form an expression can call, swallows
    /// them instead, and a warning's `filename` and `lineno` name the frame it points at, which a lambda
    /// standing for the block changes. The extractor writes no warning check.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import old_add
    ///
    /// def test_old_add():
    ///     with pytest.warns(DeprecationWarning):
    ///         old_add(1, 2)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// No exact rewrite: check the result of the call in a separate test.
    "002" WarnsBlock "warns-block",

    /// ## What it means
    /// A `pytest.raises` block holds statements other than expressions (an assignment, a loop, an `if`).
    ///
    /// ## Why it cannot be kept
    /// The block is written as a lambda called inside unittest's `assertRaises`; a lambda holds
    /// expressions only.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import parse
    ///
    /// def test_parse():
    ///     with pytest.raises(ValueError):
    ///         n = parse("x")
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Keep only the call that raises in the block (`parse("x")`).
    "003" RaisesBlockStatements "raises-block-statements",

    /// ## What it means
    /// The test reads the exception info a `pytest.raises(…) as exc` block binds other than as
    /// `exc.value` or `exc.type` (`exc.match(…)`, `exc.traceback`, `str(exc)`, `exc` itself), or
    /// reads `exc.value.__traceback__`.
    ///
    /// ## Why it cannot be kept
    /// `exc` is pytest's `ExceptionInfo`. The block's check keeps the exception (unittest's context
    /// object catches it), so `exc.value` and `exc.type` are written as that exception and its type;
    /// the rest of pytest's interface has no counterpart there, and unittest detaches the
    /// exception's traceback.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import parse
    ///
    /// def test_parse():
    ///     with pytest.raises(ValueError) as exc:
    ///         parse("x")
    ///     assert exc.match("x")
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Check the message with `pytest.raises(ValueError, match="x")`, or read `exc.value`
    /// (`assert "x" in str(exc.value)`).
    "004" RaisesTargetRead "raises-target-read",

    /// ## What it means
    /// A `pytest.raises` whose arguments are not one expected exception and an optional `match`, or a
    /// block that is `async`, has several context managers, or binds a name with `:=`.
    ///
    /// ## Why it cannot be kept
    /// Only `pytest.raises(E[, match=…])` has an exact counterpart in unittest's `assertRaises`; other
    /// arguments (`check=`, a callable form) and shapes have none.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import parse
    ///
    /// def test_parse():
    ///     with pytest.raises(ValueError), pytest.raises(TypeError):
    ///         parse("x")
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// One `pytest.raises(E, match=…)` per block, over the call that raises.
    "005" RaisesArguments "raises-arguments",

    /// ## What it means
    /// A unittest `with self.assertRaises(…)` (or `assertWarns`) block that is not flattened.
    ///
    /// ## Why it cannot be kept
    /// The block is written as the context object's call form (a lambda) only over expression
    /// statements; an assignment, a loop or another block inside it has no such form.
    ///
    /// ## Example
    /// ```python
    /// import unittest
    /// from solution import parse
    ///
    /// class TestParse(unittest.TestCase):
    ///     def test_parse(self):
    ///         with self.assertRaises(ValueError):
    ///             n = parse("x")
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Keep only the call that raises in the block (`parse("x")`), at the top level of the test.
    "006" UnittestRaisesBlock "unittest-raises-block",

    /// ## What it means
    /// A `with` block whose context manager is a parameter of the test (`with expectation:`), and
    /// the parametrize value of this case is `pytest.raises(…)`, `pytest.warns(…)` or
    /// `pytest.deprecated_call()` (the `does_not_raise()` / `nullcontext()` pattern).
    ///
    /// ## Why it cannot be kept
    /// In that case the block is a check pytest makes: the test fails when the block does not raise
    /// (or warn) as expected. The context object is made by the decorator, once, and handed to the
    /// test; the extractor writes a raises check only for a `pytest.raises(E[, match=…])` written at
    /// the `with` itself. The check is counted, as a dropped entry at the `with` line, in each case
    /// whose value makes one; a `nullcontext()` case makes none.
    ///
    /// ## Example
    /// ```python
    /// from contextlib import nullcontext as does_not_raise
    /// import pytest
    /// from solution import div
    ///
    /// @pytest.mark.parametrize("b, expectation", [
    ///     (1, does_not_raise()),
    ///     (0, pytest.raises(ZeroDivisionError)),
    /// ])
    /// def test_div(b, expectation):
    ///     with expectation:
    ///         div(1, b)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the raising cases as a test of their own, with `with pytest.raises(E):` over the call.
    "007" RaisesContextParameter "raises-context-parameter",
}

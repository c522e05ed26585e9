import importlib.util
from pathlib import Path

import pytest


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES = [
    ("", True),
    ("([{}])", True),
    ("f(x[1]) + {y}", True),
    ("(]", False),
    ("([)]", False),
    ("((", False),
    ("}{", False),
]


@pytest.mark.parametrize(
    "text, expected",
    CASES,
    ids=["empty", "nested", "with-code", "wrong-kind", "crossed", "unclosed", "close-first"],
)
def test_is_balanced(text, expected):
    sol = _load_solution()
    assert sol.is_balanced(text) == expected


def test_mixed_kinds_in_sequence():
    assert _load_solution().is_balanced("[()]{}") is True


def test_one_opener_left_over():
    result = _load_solution().is_balanced("((())")
    assert result is False


def test_text_without_brackets():
    assert _load_solution().is_balanced("no brackets here") is True


def test_closer_before_opener():
    result = _load_solution().is_balanced(")(")
    assert result is False


def test_deep_nesting():
    text = "(" * 50 + ")" * 50
    assert _load_solution().is_balanced(text) is True

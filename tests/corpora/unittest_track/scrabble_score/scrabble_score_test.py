import unittest

from scrabble_score import (
    score,
)


class ScrabbleScoreTest(unittest.TestCase):
    def test_lowercase_letter(self):
        self.assertEqual(score("a"), 1)

    def test_uppercase_letter(self):
        self.assertEqual(score("A"), 1)

    def test_valuable_letter(self):
        self.assertEqual(score("f"), 4)

    def test_short_word(self):
        self.assertEqual(score("at"), 2)

    def test_short_valuable_word(self):
        self.assertEqual(score("zoo"), 12)

    def test_medium_word(self):
        self.assertEqual(score("street"), 6)

    def test_long_mixed_case_word(self):
        self.assertEqual(score("OxyphenButazone"), 41)

    def test_empty_input(self):
        self.assertEqual(score(""), 0)

    def test_every_letter(self):
        expected = {"q": 10, "z": 10, "j": 8, "x": 8, "k": 5, "d": 2, "b": 3}
        for letter, value in expected.items():
            with self.subTest(letter=letter):
                self.assertEqual(score(letter), value)

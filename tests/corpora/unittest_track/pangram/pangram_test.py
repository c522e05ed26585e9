import unittest

from pangram import (
    is_pangram,
)


class PangramTest(unittest.TestCase):
    def test_empty_sentence(self):
        self.assertIs(is_pangram(""), False)

    def test_perfect_lower_case(self):
        self.assertIs(is_pangram("abcdefghijklmnopqrstuvwxyz"), True)

    def test_only_lower_case(self):
        self.assertIs(is_pangram("the quick brown fox jumps over the lazy dog"), True)

    def test_missing_the_letter_x(self):
        self.assertIs(is_pangram("a quick movement of the enemy will jeopardize five gunboats"), False)

    def test_mixed_case_and_punctuation(self):
        self.assertIs(is_pangram('"Five quacking Zephyrs jolt my wax bed."'), True)

    def test_a_m_and_a_m_are_26_different_characters_but_not_a_pangram(self):
        self.assertIs(is_pangram("abcdefghijklm ABCDEFGHIJKLM"), False)

    def test_sentence_without_lower_bound(self):
        self.assertFalse(is_pangram("bcdefghijklmnopqrstuvwxyz"))

    def test_sentence_without_upper_bound(self):
        self.assertTrue(is_pangram("Pack my box with five dozen liquor jugs"))

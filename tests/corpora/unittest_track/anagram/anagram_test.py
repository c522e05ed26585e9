import unittest

from anagram import (
    find_anagrams,
)


class AnagramTest(unittest.TestCase):
    def test_no_matches(self):
        candidates = ["hello", "world", "zombies", "pants"]
        self.assertCountEqual(find_anagrams("diaper", candidates), [])

    def test_detects_two_anagrams(self):
        candidates = ["lemons", "cherry", "melons"]
        expected = ["lemons", "melons"]
        self.assertCountEqual(find_anagrams("solemn", candidates), expected)

    def test_detects_three_anagrams(self):
        candidates = ["gallery", "ballerina", "regally", "clergy", "largely", "leading"]
        expected = ["gallery", "regally", "largely"]
        self.assertCountEqual(find_anagrams("allergy", candidates), expected)

    def test_anagrams_are_case_insensitive(self):
        candidates = ["cashregister", "Carthorse", "radishes"]
        self.assertCountEqual(find_anagrams("Orchestra", candidates), ["Carthorse"])

    def test_words_are_not_anagrams_of_themselves(self):
        self.assertCountEqual(find_anagrams("BANANA", ["BANANA"]), [])

    def test_words_other_than_themselves_can_be_anagrams(self):
        self.assertCountEqual(find_anagrams("LISTEN", ["LISTEN", "Silent"]), ["Silent"])

import unittest

from word_count import (
    count_words,
)


class WordCountTest(unittest.TestCase):
    def test_count_one_word(self):
        self.assertEqual(count_words("word"), {"word": 1})

    def test_count_one_of_each_word(self):
        self.assertEqual(count_words("one of each"), {"one": 1, "of": 1, "each": 1})

    def test_multiple_occurrences_of_a_word(self):
        self.assertDictEqual(count_words("one fish two fish red fish blue fish"),
                             {"one": 1, "fish": 4, "two": 1, "red": 1, "blue": 1})

    def test_handles_cramped_lists(self):
        self.assertEqual(count_words("one,two,three"), {"one": 1, "two": 1, "three": 1})

    def test_normalize_case(self):
        self.assertEqual(count_words("go Go GO Stop stop"), {"go": 3, "stop": 2})

    def test_with_apostrophes(self):
        self.assertEqual(count_words("'First: don't laugh. Then: don't cry.'"),
                         {"first": 1, "don't": 2, "laugh": 1, "then": 1, "cry": 1})

    def test_include_numbers(self):
        counts = count_words("testing, 1, 2 testing")
        self.assertIn("1", counts)
        self.assertNotIn("", counts)
        self.assertEqual(counts["testing"], 2)

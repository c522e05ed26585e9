import unittest

from etl import (
    transform,
)


class EtlTest(unittest.TestCase):
    def test_single_letter(self):
        legacy_data = {1: ["A"]}
        data = {"a": 1}
        self.assertEqual(transform(legacy_data), data)

    def test_single_score_with_multiple_letters(self):
        legacy_data = {1: ["A", "E", "I", "O", "U"]}
        data = {"a": 1, "e": 1, "i": 1, "o": 1, "u": 1}
        self.assertDictEqual(transform(legacy_data), data)

    def test_multiple_scores_with_multiple_letters(self):
        legacy_data = {1: ["A", "E"], 2: ["D", "G"]}
        data = {"a": 1, "d": 2, "e": 1, "g": 2}
        self.assertEqual(transform(legacy_data), data)

    def test_multiple_scores_with_differing_numbers_of_letters(self):
        legacy_data = {1: ["A", "E", "I"], 4: ["F", "H"], 10: ["Q", "Z"]}
        result = transform(legacy_data)
        self.assertEqual(len(result), 7)
        self.assertEqual(result["z"], 10)
        self.assertSetEqual(set(result), {"a", "e", "i", "f", "h", "q", "z"})

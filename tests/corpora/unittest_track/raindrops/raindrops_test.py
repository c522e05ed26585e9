import unittest

from raindrops import (
    convert,
)


class RaindropsTest(unittest.TestCase):
    def test_the_sound_for_1_is_1(self):
        self.assertEqual(convert(1), "1")

    def test_the_sound_for_3_is_pling(self):
        self.assertEqual(convert(3), "Pling")

    def test_the_sound_for_5_is_plang(self):
        self.assertEqual(convert(5), "Plang")

    def test_the_sound_for_105_is_pling_plang_plong(self):
        self.assertEqual(convert(105), "PlingPlangPlong")

    def test_many_numbers(self):
        cases = [(2, "2"), (7, "Plong"), (9, "Pling"), (10, "Plang"), (14, "Plong"), (15, "PlingPlang"),
                 (21, "PlingPlong"), (25, "Plang"), (27, "Pling"), (35, "PlangPlong"), (49, "Plong"), (52, "52")]
        for number, expected in cases:
            with self.subTest(number=number):
                self.assertEqual(convert(number), expected)


if __name__ == "__main__":
    unittest.main()

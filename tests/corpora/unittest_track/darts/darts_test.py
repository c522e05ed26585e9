import unittest

from darts import (
    score,
)


class DartsTest(unittest.TestCase):
    def test_missed_target(self):
        self.assertEqual(score(-9, 9), 0)

    def test_on_the_outer_circle(self):
        self.assertEqual(score(0, 10), 1)

    def test_on_the_middle_circle(self):
        self.assertEqual(score(-5, 0), 5)

    def test_on_the_inner_circle(self):
        self.assertEqual(score(0, -1), 10)

    def test_exactly_on_center(self):
        self.assertEqual(score(0, 0), 10)

    def test_near_the_center(self):
        self.assertEqual(score(-0.1, -0.1), 10)

    def test_just_outside_the_inner_circle(self):
        self.assertEqual(score(0.8, -0.8), 5)

    def test_boundaries(self):
        cases = [((0, 1), 10), ((0, 5), 5), ((6, 8), 1), ((0, 10.1), 0), ((3.5, 3.5), 5)]
        for (x, y), expected in cases:
            with self.subTest(x=x, y=y):
                self.assertEqual(score(x, y), expected)

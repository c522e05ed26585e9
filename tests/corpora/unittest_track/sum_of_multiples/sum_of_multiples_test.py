import unittest

from sum_of_multiples import (
    sum_of_multiples,
)


class SumOfMultiplesTest(unittest.TestCase):
    def test_no_multiples_within_limit(self):
        self.assertEqual(sum_of_multiples(1, [3, 5]), 0)

    def test_one_factor_has_multiples_within_limit(self):
        self.assertEqual(sum_of_multiples(4, [3, 5]), 3)

    def test_more_than_one_multiple_within_limit(self):
        self.assertEqual(sum_of_multiples(7, [3]), 9)

    def test_more_than_one_factor_with_multiples_within_limit(self):
        self.assertEqual(sum_of_multiples(10, [3, 5]), 23)

    def test_each_multiple_is_only_counted_once(self):
        self.assertEqual(sum_of_multiples(100, [3, 5]), 2318)

    def test_the_only_multiple_of_0_is_0(self):
        self.assertEqual(sum_of_multiples(1, [0]), 0)

    def test_solutions_using_include_exclude_must_extend_to_cardinality_greater_than_3(self):
        self.assertEqual(sum_of_multiples(10000, [2, 3, 5, 7, 11]), 39614537)

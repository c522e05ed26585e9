import unittest

from all_your_base import (
    rebase,
)


class AllYourBaseTest(unittest.TestCase):
    def test_single_bit_one_to_decimal(self):
        self.assertEqual(rebase(2, [1], 10), [1])

    def test_binary_to_single_decimal(self):
        self.assertEqual(rebase(2, [1, 0, 1], 10), [5])

    def test_single_decimal_to_binary(self):
        self.assertEqual(rebase(10, [5], 2), [1, 0, 1])

    def test_trinary_to_hexadecimal(self):
        self.assertEqual(rebase(3, [1, 1, 2, 0], 16), [2, 10])

    def test_empty_list(self):
        self.assertEqual(rebase(2, [], 10), [0])

    def test_multiple_zeros(self):
        self.assertEqual(rebase(10, [0, 0, 0], 2), [0])

    def test_leading_zeros(self):
        self.assertListEqual(rebase(7, [0, 6, 0], 10), [4, 2])

    def test_input_base_is_one(self):
        with self.assertRaises(ValueError) as err:
            rebase(1, [0], 10)
        self.assertEqual(type(err.exception), ValueError)
        self.assertEqual(err.exception.args[0], "input base must be >= 2")

    def test_invalid_positive_digit(self):
        with self.assertRaises(ValueError) as err:
            rebase(2, [1, 2, 1, 0, 1, 0], 10)
        self.assertEqual(err.exception.args[0], "all digits must satisfy 0 <= d < input base")

    def test_output_base_is_negative(self):
        with self.assertRaises(ValueError) as err:
            rebase(2, [1], -7)
        self.assertEqual(err.exception.args[0], "output base must be >= 2")

import unittest

from luhn import (
    Luhn,
)


class LuhnTest(unittest.TestCase):
    def test_single_digit_strings_can_not_be_valid(self):
        self.assertIs(Luhn("1").valid(), False)

    def test_a_single_zero_is_invalid(self):
        self.assertIs(Luhn("0").valid(), False)

    def test_a_simple_valid_sin_that_remains_valid_if_reversed(self):
        self.assertIs(Luhn("059").valid(), True)

    def test_a_valid_canadian_sin(self):
        self.assertIs(Luhn("055 444 285").valid(), True)

    def test_invalid_canadian_sin(self):
        self.assertIs(Luhn("055 444 286").valid(), False)

    def test_invalid_credit_card(self):
        self.assertIs(Luhn("8273 1232 7352 0569").valid(), False)

    def test_valid_strings_with_a_non_digit_added_at_the_end_become_invalid(self):
        self.assertIs(Luhn("059a").valid(), False)

    def test_is_valid_can_be_called_repeatedly(self):
        number = Luhn("055 444 285")
        self.assertIs(number.valid(), True)
        self.assertIs(number.valid(), True)

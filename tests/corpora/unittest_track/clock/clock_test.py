import unittest

from clock import (
    Clock,
)


class ClockTest(unittest.TestCase):
    def assert_clock(self, clock, expected):
        self.assertEqual(str(clock), expected)

    # Create a new clock with an initial time
    def test_on_the_hour(self):
        self.assert_clock(Clock(8, 0), "08:00")

    def test_past_the_hour(self):
        self.assert_clock(Clock(11, 9), "11:09")

    def test_midnight_is_zero_hours(self):
        self.assertEqual(str(Clock(24, 0)), "00:00")

    def test_hour_rolls_over_continuously(self):
        self.assertEqual(str(Clock(100, 0)), "04:00")

    def test_negative_minutes_roll_over(self):
        self.assertEqual(str(Clock(1, -4820)), "16:40")

    def test_negative_hour_and_minutes_both_roll_over(self):
        self.assertEqual(str(Clock(-25, -160)), "20:20")

    def test_clock_repr(self):
        self.assertEqual(repr(Clock(7, 32)), "Clock(7, 32)")


class ClockArithmeticTest(unittest.TestCase):
    def test_add_minutes(self):
        self.assertEqual(str(Clock(10, 0) + 3), "10:03")

    def test_add_across_midnight(self):
        self.assertEqual(str(Clock(23, 59) + 2), "00:01")

    def test_subtract_across_midnight(self):
        self.assertEqual(str(Clock(0, 3) - 4), "23:59")

    def test_add_twice(self):
        clock = Clock(6, 41)
        clock = clock + 10
        clock = clock + 10
        self.assertEqual(str(clock), "07:01")


class ClockEqualityTest(unittest.TestCase):
    def test_clocks_with_same_time(self):
        self.assertEqual(Clock(15, 37), Clock(15, 37))

    def test_clocks_a_minute_apart(self):
        self.assertNotEqual(Clock(15, 36), Clock(15, 37))

    def test_clocks_with_hour_overflow(self):
        self.assertEqual(Clock(10, 37), Clock(34, 37))

    def test_clocks_with_negative_minute(self):
        self.assertEqual(Clock(2, 40), Clock(3, -20))

    def test_a_clock_is_not_a_string(self):
        self.assertFalse(Clock(1, 0) == "01:00")

import unittest

from sieve import (
    primes,
)


class SieveTest(unittest.TestCase):
    def test_no_primes_under_two(self):
        self.assertEqual(primes(1), [])

    def test_find_first_prime(self):
        self.assertEqual(primes(2), [2])

    def test_find_primes_up_to_10(self):
        self.assertEqual(primes(10), [2, 3, 5, 7])

    def test_limit_is_prime(self):
        self.assertEqual(primes(13), [2, 3, 5, 7, 11, 13])

    def test_find_primes_up_to_1000(self):
        result = primes(1000)
        self.assertEqual(len(result), 168)
        self.assertEqual(result[-1], 997)
        self.assertIsInstance(result, list)

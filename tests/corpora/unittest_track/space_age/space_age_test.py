import unittest

from space_age import (
    SpaceAge,
)


class SpaceAgeTest(unittest.TestCase):
    def test_age_on_earth(self):
        self.assertAlmostEqual(SpaceAge(1000000000).on_earth(), 31.69, places=2)

    def test_age_on_mercury(self):
        self.assertAlmostEqual(SpaceAge(2134835688).on_mercury(), 280.88, places=2)

    def test_age_on_venus(self):
        self.assertAlmostEqual(SpaceAge(189839836).on_venus(), 9.78, places=2)

    def test_age_on_mars(self):
        self.assertAlmostEqual(SpaceAge(2129871239).on_mars(), 35.88, delta=0.01)

    def test_age_on_jupiter(self):
        self.assertAlmostEqual(SpaceAge(901876382).on_jupiter(), 2.41)

    def test_age_on_saturn(self):
        age = SpaceAge(2000000000)
        self.assertEqual(age.seconds, 2000000000)
        self.assertAlmostEqual(age.on_saturn(), 2.15, places=2)

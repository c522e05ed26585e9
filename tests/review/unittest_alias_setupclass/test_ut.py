import unittest
from unittest import TestCase as TC
from solution import register, REG


class Registry(TC):
    @classmethod
    def setUpClass(cls):
        REG.clear()
        register("boot")

    def test_second(self):
        assert register("x") == 2


class TestSkipped(TC):
    def test_never(self):
        self.skipTest("later")
        assert register("y") == 1


@unittest.skip("whole class")
class TestWhole(unittest.TestCase):
    def test_inner(self):
        assert register("z") == 1

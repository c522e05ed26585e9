import sys

from solution import add


class TestIfInit:
    # a constructor under a condition: pytest does not collect the class
    if sys.version_info >= (3,):
        def __init__(self):
            pass

    def test_a(self):
        assert add(1, 0) == 1


class TestInitBound:
    # a constructor bound by assignment: pytest does not collect the class either
    __init__ = dict.__init__

    def test_f(self):
        assert add(6, 0) == 6


class TestNewIsObjects:
    # the same __new__ as object's: collected
    __new__ = object.__new__

    def test_e(self):
        assert add(5, 0) == 5


def test_plain():
    assert add(8, 0) == 8

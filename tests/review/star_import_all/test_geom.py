from solution import *


def test_area():
    assert area(2, 3) == 6


def test_perimeter_not_exported():
    assert perimeter(2, 3) == 10


def test_private_half():
    assert _half(4) == 2

import pytest

from solution import area, perimeter


@pytest.fixture
def rects():
    return [(2, 3), (4, 4)]


@pytest.fixture
def squares():
    return [(1, 1), (3, 3)]


def test_area_of_each(rects):
    for w, h in rects:
        assert area(w, h) == w * h


def test_squares(squares):
    for w, h in squares:
        assert perimeter(w, h) == 4 * w


# ---- added later, for the table test below (reuses the fixtures' names) ----
rects = [(1, 2)]
squares = pytest.fixture(lambda: [])


def test_perimeter_table():
    for w, h, want in [(1, 2, 6), (5, 5, 20)]:
        assert perimeter(w, h) == want

import pytest
from solution import add


def test_add():
    assert add(2, 3) == 5


@pytest.mark.parametrize("a", [1, 1])
def test_add_zero(a):
    assert add(a, 0) == a


@pytest.mark.parametrize("a,b", [(1, 2), (3, 4)], ids=["x", "x"])
def test_add_ids(a, b):
    assert add(a, b) == a + b

import pytest
from solution import add

mark = pytest.mark


def test_add():
    assert add(2, 3) == 5


@mark.slww
def test_add_slow():
    assert add(10, 1) == 11

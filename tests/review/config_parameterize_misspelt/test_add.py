import pytest
from solution import add


def test_add():
    assert add(2, 3) == 5


@pytest.mark.parameterize("a", [1, 2])
def test_add_zero(a):
    assert add(a, 0) == a

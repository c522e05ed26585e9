import pytest
from solution import add

SLOW = pytest.mark.slow


@pytest.mark.parametrize(
    "a,b,total",
    [(1, 2, 3), pytest.param(10**6, 1, 1000001, marks=SLOW, id="big")],
)
def test_add(a, b, total):
    assert add(a, b) == total

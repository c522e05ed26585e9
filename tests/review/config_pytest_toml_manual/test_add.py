import pytest
from solution import add


@pytest.mark.slow
def test_big():
    assert add(10, 1) == 11


def test_small():
    assert add(1, 1) == 2

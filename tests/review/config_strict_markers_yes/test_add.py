import pytest
from solution import add


def test_add():
    assert add(2, 3) == 5


@pytest.mark.slwo
def test_add_big():
    assert add(10**6, 1) == 1000001

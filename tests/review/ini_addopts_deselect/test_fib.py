import pytest
from solution import fib


def test_small():
    assert fib(10) == 55


@pytest.mark.slow
def test_big():
    assert fib(30) == 832040

import pytest
from solution import add


def test_fast():
    assert add(2, 3) == 5


def test_called_mark():
    assert add(10, 1) == 11


pytest.mark.slow(test_called_mark)  # store_mark: sets test_called_mark.pytestmark

import pytest
from solution import add


def test_fast():
    assert add(2, 3) == 5


def test_called_mark():
    assert add(10, 1) == 11


pytest.mark.slow(test_called_mark)  # store_mark: sets test_called_mark.pytestmark


def test_attribute_mark():
    assert add(20, 1) == 21


test_attribute_mark.pytestmark = [pytest.mark.slow]


class TestRebound:
    def test_in_class(self):
        assert add(30, 1) == 31


TestRebound = pytest.mark.slow(TestRebound)

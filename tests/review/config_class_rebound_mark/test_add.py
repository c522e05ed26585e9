import pytest
from solution import add


def test_fast():
    assert add(2, 3) == 5


class TestRebound:
    def test_in_class(self):
        assert add(30, 1) == 31


TestRebound = pytest.mark.slow(TestRebound)

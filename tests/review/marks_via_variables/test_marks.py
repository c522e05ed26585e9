import pytest
from solution import half

needs_network = pytest.mark.skip(reason="no network in CI")
known_bug = pytest.mark.xfail(reason="rounding", strict=True)
cases = pytest.mark.parametrize("n", [4, 6])


@needs_network
def test_download():
    assert half(10) == 5


@known_bug
def test_rounding():
    assert half(3) == 2


@cases
def test_even(n):
    assert half(n) * 2 == n


@needs_network
class TestRemote:
    def test_remote(self):
        assert half(2) == 1

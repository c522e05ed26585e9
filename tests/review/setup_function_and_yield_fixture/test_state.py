import pytest
from solution import bump, reset, STATE


def setup_function(function):
    reset()


@pytest.fixture
def primed():
    bump()
    yield STATE
    reset()


def test_bump():
    assert bump() == 1


def test_primed(primed):
    assert primed["n"] == 1
    assert bump() == 2

import pytest
from solution import speed, FEATURES


@pytest.fixture
def fast_mode():
    if not FEATURES["fast"]:
        pytest.skip("fast mode off")
    return 2


@pytest.fixture
def broken():
    raise RuntimeError("db down")


@pytest.fixture
def limit():
    value = 5
    assert value > 100
    return value


def test_fast(fast_mode):
    assert speed() * fast_mode == 20


def test_broken(broken):
    assert speed() == 10


def test_limit(limit):
    assert speed() > limit


@pytest.mark.usefixtures("broken")
def test_usefixtures():
    assert speed() == 10

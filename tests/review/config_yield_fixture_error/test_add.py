import pytest
from solution import add


@pytest.yield_fixture  # PytestDeprecationWarning while pytest imports the file
def pair():
    yield (2, 3)


def test_add():
    assert add(2, 3) == 5

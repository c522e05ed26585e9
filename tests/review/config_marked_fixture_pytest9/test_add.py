import pytest
from solution import add


@pytest.fixture
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # a mark on a fixture: PytestRemovedIn9Warning, an error in pytest 9
def pair():
    return (2, 3)


def test_add():
    assert add(2, 3) == 5


def test_add_pair(pair):
    assert add(*pair) == 5

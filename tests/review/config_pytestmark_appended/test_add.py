import pytest
from solution import add

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytestmark.append(pytest.mark.slow)


def test_add():
    assert add(2, 3) == 5


class TestMore:
    pytestmark = []
    pytestmark.append(pytest.mark.slow)

    def test_more(self):
        assert add(1, 1) == 2

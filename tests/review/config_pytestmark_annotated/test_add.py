import pytest
from solution import add

pytestmark: list = [pytest.mark.slow]


def test_add():
    assert add(2, 3) == 5

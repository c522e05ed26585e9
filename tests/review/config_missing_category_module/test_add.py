import pytest
from solution import add

pytestmark = pytest.mark.filterwarnings("error")


def test_add():
    assert add(2, 3) == 5

import warnings

import pytest
from solution import total


@pytest.fixture(autouse=True, scope="module")
def quiet():
    warnings.simplefilter("ignore", FutureWarning)


def test_first():
    assert total([1, 2]) == 3


def test_second():
    assert total([2, 2]) == 4

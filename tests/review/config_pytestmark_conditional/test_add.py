import sys

import pytest
from solution import add

if sys.version_info >= (3, 0):
    pytestmark = pytest.mark.slow


def test_add():
    assert add(2, 3) == 5

import sys
import pytest
from solution import inc

if sys.version_info >= (3, 0):
    pytest.skip("legacy suite", allow_module_level=True)


def test_inc():
    assert inc(1) == 2

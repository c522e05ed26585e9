import pytest
from solution import *


def test_add(offset):
    assert add(2, 3) + offset == 5

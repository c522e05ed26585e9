import numpy_is_not_installed_here as np
from solution import area


def test_area():
    assert area(2, 3) == 6

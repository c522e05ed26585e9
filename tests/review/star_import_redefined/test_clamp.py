from solution import *

LIMIT = 3


def test_clamp_uses_solution_limit():
    assert clamp(50) == 10
    assert clamp(50) > LIMIT

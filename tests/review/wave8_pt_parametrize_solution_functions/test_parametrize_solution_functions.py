import pytest
import solution


@pytest.mark.parametrize("fn", [solution.fact_rec, solution.fact_iter])
def test_fact(fn):
    assert fn(5) == 120


def test_zero():
    assert solution.fact_rec(0) == 1

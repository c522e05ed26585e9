import pytest
import solution


@pytest.mark.parametrize("limit", [pytest.param(solution.LIMIT, id="limit")])
def test_limit(limit):
    assert solution.clip(limit + 5) == limit


def test_small():
    assert solution.clip(1) == 1

import pytest
import solution


@pytest.mark.parametrize("cls", [solution.Stack, solution.Queue])
def test_len(cls):
    c = cls()
    c.put(1)
    assert len(c) == 1

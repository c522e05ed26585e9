import pytest
from solution import extend_into

SHARED = [1]


@pytest.mark.parametrize("dst,src", [(SHARED, SHARED)])
def test_self_extend(dst, src):
    extend_into(dst, src)
    assert src == [1, 1]


@pytest.mark.parametrize("a", [[1, 2]])
@pytest.mark.parametrize("b", [[3]])
def test_two_lists(a, b):
    out = extend_into(a, b)
    assert out is a
    assert a == [1, 2, 3]

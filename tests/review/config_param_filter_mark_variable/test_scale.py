import pytest
from solution import scale

STRICT = pytest.mark.filterwarnings("error")


@pytest.mark.parametrize(
    "xs,k,out",
    [([1, 2], 2, [2, 4]), pytest.param([1, 2], 0, [0, 0], marks=STRICT, id="zero")],
)
def test_scale(xs, k, out):
    assert scale(xs, k) == out

import pytest
from solution import total

pytestmark = pytest.mark.filterwarnings("error")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_function_ignores():
    assert total([1, 2]) == 3


@pytest.mark.filterwarnings("ignore::UserWarning")
class TestClassIgnores:
    @pytest.mark.filterwarnings("error::UserWarning")
    def test_inner(self):
        assert total([2, 2]) == 4

    @pytest.mark.parametrize("xs", [pytest.param([3], marks=pytest.mark.filterwarnings("error"))])
    def test_param(self, xs):
        assert total(xs) == 3


def test_plain():
    assert total([4]) == 4

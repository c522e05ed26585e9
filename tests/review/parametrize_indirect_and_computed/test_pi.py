import pytest
from solution import greet, square


@pytest.fixture
def user(request):
    return request.param.upper()


@pytest.mark.parametrize("user", ["bob"], indirect=True)
def test_indirect(user):
    assert greet(user) == "hi BOB"


@pytest.mark.parametrize("user", ["amy"], indirect=["user"])
def test_indirect_list(user):
    assert greet(user) == "hi AMY"


@pytest.mark.parametrize("x,y", [(i, i * i) for i in range(3)])
def test_computed(x, y):
    assert square(x) == y


@pytest.mark.parametrize("x", range(2))
def test_range(x):
    assert square(x) == x * x


@pytest.mark.parametrize("a", [1, 2])
class TestGrid:
    @pytest.mark.parametrize("b", [3])
    def test_cell(self, a, b):
        assert square(a) < square(b)

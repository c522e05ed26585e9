import pytest
from solution import combine


@pytest.fixture(params=["p", "q"], ids=["P", "Q"])
def mode(request):
    return request.param


@pytest.fixture(params=[1, 2])
def level(request):
    return request.param


@pytest.mark.parametrize("x", ["z"])
def test_fixture_first(mode, x):
    assert combine(mode, x)


@pytest.mark.parametrize("x", ["y"])
def test_param_first(x, level, mode):
    assert combine(x, level)


class TestInClass:
    @pytest.mark.parametrize("x", [0])
    def test_m(self, level, x):
        assert combine(level, x) != ""

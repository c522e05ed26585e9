import pytest
from solution import register, ORDER, scaled


@pytest.fixture
def alice():
    return register("alice")


@pytest.fixture
def bob():
    return register("bob")


@pytest.fixture
def n():
    return 1


@pytest.fixture(name="k")
def k_fixture():
    return 2


@pytest.fixture
def twice():
    return 3


@pytest.fixture
def twice():
    return 4


def test_arg_order(bob, alice):
    assert ORDER[-2:] == ["bob", "alice"]


@pytest.mark.parametrize("n", [5])
def test_param_overrides_fixture(n):
    assert scaled(n) == 50


def test_named_fixture(k):
    assert scaled(k) == 20


def test_redefined_fixture(twice):
    assert scaled(twice) == 40


class TestOverride:
    @pytest.fixture
    def n(self):
        return 7

    def test_class_fixture_wins(self, n):
        assert scaled(n) == 70

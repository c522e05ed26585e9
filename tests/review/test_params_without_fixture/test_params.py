import pytest
from solution import parse


def test_leftover_param(parse):
    assert parse("a,b") == ["a", "b"]


def test_self_at_module_level(self):
    assert parse("c") == ["c"]


def test_default_arg(n=2):
    assert len(parse("a,b")) == n


def test_undeclared_fixture(LIMIT):
    assert len(parse("a,b,c")) == 3


@pytest.fixture
def sep():
    return ","


def test_fixture_shadows_nothing(sep):
    assert parse("x" + sep + "y") == ["x", "y"]

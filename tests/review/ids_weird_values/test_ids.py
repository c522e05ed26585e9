import enum
import re
import pytest
from solution import ident


class Color(enum.Enum):
    RED = 1


@pytest.mark.parametrize("v", ["é", "a\nb", "", "a b", "x/y", "[z]", "::", "\t", "\x00"])
def test_strings(v):
    assert ident(v) == v


@pytest.mark.parametrize("v", [0.1, -1, 1e100, 2j, True, None, b"by", b"\xff", 10**30, -0.0, float("inf")])
def test_scalars(v):
    assert ident(v) == v or v != v


@pytest.mark.parametrize("v", [1, 1, "a", "a", "a1", "a"])
def test_dupes(v):
    assert ident(v) == v


@pytest.mark.parametrize("v", [Color.RED, re.compile("ab+"), ident, Color, (1, 2), [3]])
def test_objects(v):
    assert ident(v) is v


@pytest.mark.parametrize("a,b", [(1, 2)], ids=["x-y"])
@pytest.mark.parametrize("c", [3], ids=lambda c: f"c{c}")
def test_ids_given(a, b, c):
    assert ident(a + b) == c


@pytest.mark.parametrize("v", [pytest.param(1, id="one"), pytest.param(2, id="one"), pytest.param(3, id="")])
def test_param_ids(v):
    assert ident(v) == v

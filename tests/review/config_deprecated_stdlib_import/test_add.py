import cgi  # noqa: F401  -- DeprecationWarning when imported (Python 3.11, removed in 3.13)

from solution import add


def test_add():
    assert add(2, 3) == 5

from solution import add, sign


def test_add():
    assert add(2, 3) == 5


def test_sign():
    assert (sign(-4) == -1, "negative numbers have sign -1")

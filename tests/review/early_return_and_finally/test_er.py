from solution import f, ENABLED


def test_early_return():
    if not ENABLED:
        return
    assert f(1) == 3


def test_return_at_top_level_of_body():
    x = f(1)
    return
    assert x == 3


def test_try_finally():
    x = f(1)
    try:
        y = f(x)
    finally:
        z = 0
    assert y == 3

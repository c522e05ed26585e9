from solution import inc


def test_inc_legacy():
    assert inc(1) == 2

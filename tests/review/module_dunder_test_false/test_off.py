from solution import inc

__test__ = False


def test_inc():
    assert inc(1) == 2

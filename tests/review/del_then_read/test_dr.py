from solution import make


def test_del_then_read():
    x = make()
    del x
    assert x == [1]


def test_del_then_rebind():
    x = make()
    del x
    x = make() + [2]
    assert x == [1, 2]

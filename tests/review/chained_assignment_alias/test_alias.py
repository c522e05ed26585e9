from solution import push


def test_chained():
    a = b = []
    push(a, 1)
    assert b == [1]


def test_alias():
    a = []
    b = a
    push(a, 2)
    assert b == [2]
    assert len(b) == 1

from solution import add


def test_small():
    assert add(2, 3) == 5


def test_big():
    assert add(10**6, 1) == 1000001

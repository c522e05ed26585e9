from solution import add


def _init(self):
    self.base = 1


def test_add():
    assert add(2, 3) == 5


class TestWithInit:
    __init__ = _init

    def test_add_base(self):
        assert add(1, 1) == 2

from solution import Stack


class TestableStack(Stack):
    def size(self):
        return len(self._items or [])


def test_lifo():
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == 2


def test_size():
    s = TestableStack()
    s.push(5)
    assert s.size() == 1

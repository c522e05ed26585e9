class Stack:
    _items = None

    def push(self, x):
        if self._items is None:
            self._items = []
        self._items.append(x)

    def pop(self):
        return self._items.pop(0)

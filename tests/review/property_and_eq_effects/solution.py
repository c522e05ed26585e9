class Meter:
    def __init__(self):
        self._reads = 0
    @property
    def reading(self):
        self._reads += 1
        return self._reads
    def __eq__(self, other):
        self._reads += 10
        return isinstance(other, int) and other == self._reads
    __hash__ = None
    def __bool__(self):
        self._reads += 100
        return True

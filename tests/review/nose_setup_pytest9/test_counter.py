from solution import Counter


class TestCounter:
    def setup(self):
        self.c = Counter()

    def test_hit(self):
        assert self.c.hit() == 1


class TestCounterSetUp:
    def setUp(self):
        self.c = Counter()

    def test_hit(self):
        assert self.c.hit() == 1

from solution import total, add_item


class TestTotals:
    data = [1, 2, 3]
    expected = 6

    def test_total(self):
        assert total(self.data) == self.expected

    def test_add_local(self):
        items = list(self.data)
        add_item(items, 4)
        assert total(items) == 10


class TestOverride(TestTotals):
    data = [10]
    expected = 10

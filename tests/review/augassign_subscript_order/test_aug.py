from solution import key, amount, CALLS


def test_index_evaluated_once():
    totals = [0, 0, 0]
    totals[key()] += amount()
    assert totals == [10, 0, 0]
    assert CALLS == ["key", "amount"]


class Box:
    pass


def test_attr_aug():
    b = Box()
    b.v = [0]
    b.v[0] += amount()
    assert b.v == [10]

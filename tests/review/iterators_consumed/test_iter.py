from solution import evens, pairs


def test_consumed_by_assert():
    g = evens(5)
    assert sum(g) == 6
    assert list(g) == []


def test_in_consumes():
    g = evens(10)
    assert 4 in g
    assert next(g) == 6


def test_pairs_once():
    p = pairs([1, 2, 3])
    assert len(list(p)) == 2
    assert list(p) == []


def test_unpack():
    first, *rest = evens(7)
    assert first == 0
    assert rest == [2, 4, 6]

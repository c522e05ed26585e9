from solution import Point, roll



def test_moved_shares_tags():
    p = Point(1, 2)
    q = p.moved(3)
    q.tags.append("t")
    assert p.tags == ["t"]
    assert q == Point(4, 2, ["t"])


def test_rolls_are_repeatable():
    a = roll()
    b = roll()
    assert (a, b) != (0, 0)
    assert 1 <= a <= 6



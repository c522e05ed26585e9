from solution import all, any, count_if


def test_any_true():
    for xs in ([0, 1], [0, 0, 3], ["", "x"]):
        assert any(xs)


def test_all_false():
    for xs in ([1, 0], [0], ["x", ""]):
        assert not all(xs)


def test_count_if_table():
    for pred, xs, want in [(bool, [0, 1, 2], 2), (str.isupper, "aBcD", 2), (len, ["", "ab", "c"], 2)]:
        assert count_if(pred, xs) == want

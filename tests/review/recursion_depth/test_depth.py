from solution import depth


def test_deep():
    assert depth(975) == 975

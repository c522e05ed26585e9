import solution


def test_bump(start=solution.LIMIT):
    solution.bump()
    assert solution.LIMIT == start + 1


def test_other():
    assert solution.double(4) == 8

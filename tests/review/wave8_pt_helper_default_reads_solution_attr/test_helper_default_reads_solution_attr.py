import solution


def check(candidate, limit=solution.LIMIT):
    assert candidate(limit + 5) == limit


def test_clip():
    check(solution.clip)


def test_small():
    assert solution.clip(1) == 1

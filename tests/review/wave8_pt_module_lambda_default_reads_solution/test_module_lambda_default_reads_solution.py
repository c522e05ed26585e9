import solution

clip_to = lambda x, f=solution.clip_to: f(x)


def test_small():
    assert solution.clip(1) == 1

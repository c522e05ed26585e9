from solution import background, compute


def test_compute():
    assert compute(2) == 4


def test_background():
    assert background(2) == 3

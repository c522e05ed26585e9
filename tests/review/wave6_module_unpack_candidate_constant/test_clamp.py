from solution import BOUNDS, clamp

LOW, HIGH = BOUNDS


def test_inside():
    assert clamp(5) == 5


def test_below():
    assert clamp(-3) == 0


def test_above():
    assert clamp(HIGH + 5) == HIGH

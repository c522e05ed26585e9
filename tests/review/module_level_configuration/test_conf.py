import solution
from solution import Widget, check

solution.CONFIG["strict"] = True
Widget.default_size = 5


def test_widget_size():
    assert Widget().size == 5


def test_lenient_by_default_is_off():
    assert check(3) == 3

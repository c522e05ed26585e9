import solution


@solution.subscribe
def double(value):
    return 2 * value


@solution.subscribe
def label(value):
    return f"got {value}"


def test_publish():
    assert solution.publish(3) == [6, "got 3"]


def test_decorator_returns_function():
    assert double(2) == 4

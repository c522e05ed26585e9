from solution import area, API_VERSION

assert API_VERSION >= 2, "these tests need API v2"
DIMENSIONS = (2, 3)
assert len(DIMENSIONS) == 2


def test_area():
    assert area(*DIMENSIONS) == 6

from solution import old_total, report, total


def test_total():
    assert total([1, 2]) == 3


def test_report():
    assert report([1, 2]) == "total=3"


def test_old_total_from_the_test_module():
    # stacklevel=2 attributes the warning to this (test) module: not ignored, so an error
    assert old_total([1, 2]) == 3

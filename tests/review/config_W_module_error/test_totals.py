from solution import old_total, report, total


def test_total():
    assert total([1, 2]) == 3


def test_report():
    # the warning comes from inside solution: an error under -W ...:solution
    assert report([1, 2]) == "total=3"


def test_old_total_from_the_test_module():
    # stacklevel=2: attributed to this test module, which the -W module filter does not match
    assert old_total([1, 2]) == 3

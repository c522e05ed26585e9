from solution import old_total, parse, total


def test_total():
    assert total([1, 2]) == 3


def test_old_total():
    assert old_total([1, 2]) == 3


def test_parse():
    assert parse("7") == 7

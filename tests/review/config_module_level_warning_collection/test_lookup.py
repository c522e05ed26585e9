from solution import legacy_table, lookup

EXPECTED = legacy_table()  # warns while pytest imports this file


def test_lookup():
    assert lookup("a") == 1


def test_lookup_b():
    assert lookup("b") == 2

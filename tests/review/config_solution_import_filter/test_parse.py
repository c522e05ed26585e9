from solution import parse


def test_parse_plain():
    assert parse("12") == 12


def test_parse_padded():
    assert parse(" 12") == 12
